"""Checker probes against scripted checkers on 127.0.0.1: expected verdicts, error rates, self-agreement."""

from __future__ import annotations

import json
import re
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from ragability_gen.core.fileio import read_records
from ragability_gen.errors import InputError
from ragability_gen.llm.client import LLM, spec_for
from ragability_gen.llm.testing import ScriptedServer, user_text
from ragability_gen.run.core import fill_checker_prompt
from ragability_gen.run.probes import PADDING, PROBES, REFUSAL, cases, default_probe_dir, probe_file, run_probes


@pytest.fixture
def suite(cli: Any, demo_tsv: Path, tmp_path: Path) -> Path:
    assert cli("convert", demo_tsv, "-o", tmp_path / "demo.jsonl", "-q").exit_code == 0
    return tmp_path / "demo.jsonl"


def oracle(body: dict[str, Any]) -> str:
    """A checker that judges the probe answers as a careful human would, for the two ragability checker prompts."""
    text = user_text(body)
    response = text.split("RESPONSE: ", 1)[1].rsplit("\n\n", 1 if "CORRECT ANSWER" not in text else 2)[0]
    response = response.split("\n\nCORRECT ANSWER", 1)[0].replace(PADDING, "").strip()
    declines = REFUSAL in response or "The passages disagree" in response
    if "CORRECT ANSWER" in text:
        expected = re.findall(r"(?:short|long) answer: (.*)", text)
        return "Yes" if response in expected else "No"
    return "Yes" if declines else "No"


def _checker_messages(suite: Path, records: list[dict[str, Any]]) -> list[Any]:
    prompts = {p["pid"]: p for p in read_records(suite.with_name("demo.prompts.hjson"))}
    return [fill_checker_prompt(prompts[rec["checks"][0]["pid"]], rec["response"], rec["checks"][0].get("check_for"),
                                "") for rec in records]


def checker(server: ScriptedServer, name: str) -> LLM:
    return LLM(spec_for(name, base_url=server.base_url, temperature=0), cache=None, concurrency=4)


def test_every_probe_has_the_right_expectation(suite: Path) -> None:
    picked = cases(read_records(suite), per_role=30, seed=1)
    assert {c.role for c in picked} == {"answer", "decline"}
    with ScriptedServer(oracle) as server:
        report = run_probes(suite, [checker(server, "local/oracle")], per_role=30, repeats=3, seed=1)
    # an oracle that reads like a human makes no error on any probe: each expected verdict is right
    assert report.results and all(r.wrong == 0 and r.no_verdict == 0 for r in report.results), report.results
    probes = {(r.role, r.probe) for r in report.results}
    assert {("answer", p) for p in PROBES if p != "hedge_both"} <= probes  # hedge_both needs a second answer
    assert {("decline", p) for p in ("yes", "no", "sure", "empty", "restated", "refusal", "pasted_answer",
                                     "padded_right", "padded_wrong", "hedge_both")} <= probes
    assert [(s.role, s.agreement, s.unanimous == s.requests) for s in report.self_agreement] == [
        ("answer", 1.0, True), ("decline", 1.0, True)]


def test_a_lenient_checker_is_caught(suite: Path) -> None:
    with ScriptedServer(lambda body: "Yes") as server:
        report = run_probes(suite, [checker(server, "local/lenient")], per_role=10, repeats=0)
    rate = {(r.role, r.probe): r.error_rate for r in report.results}
    assert rate[("answer", "yes")] == rate[("answer", "sure")] == rate[("answer", "empty")] == 1.0
    assert rate[("answer", "pasted_answer")] == 0.0 and rate[("decline", "refusal")] == 0.0
    assert rate[("decline", "pasted_answer")] == 1.0
    assert report.self_agreement == []


def test_repeats_go_past_the_cache_and_measure_self_agreement(suite: Path, tmp_path: Path) -> None:
    seen: Counter[str] = Counter()
    lock = threading.Lock()

    def alternate(body: dict[str, Any]) -> str:
        """Yes and No in turn for each distinct prompt, whatever order the requests arrive in."""
        with lock:
            key = json.dumps(body["messages"])
            seen[key] += 1
            return "Yes" if seen[key] % 2 else "No"

    with ScriptedServer(alternate) as server:
        from ragability_gen.llm.client import ResponseCache

        cached = LLM(spec_for("local/coin", base_url=server.base_url), cache=ResponseCache(tmp_path / "c.sqlite"))
        # one item per role: each repeated request is then a prompt of its own, so the verdicts do not depend
        # on the order in which concurrent requests arrive
        report = run_probes(suite, [cached], per_role=1, repeats=4)
        sent = Counter(json.dumps(r.body["messages"]) for r in server.requests)
    (answer, decline) = report.self_agreement
    assert answer.requests == decline.requests == 1 and answer.repeats == 4
    # every repeat reached the server (the cache would have answered three of the four)
    repeated = [rec for rec in report.checked if rec["llm"].startswith("probe/repeat-")]
    assert len(repeated) == 8
    assert all(sent[json.dumps(messages)] >= 4 for messages in _checker_messages(suite, repeated))
    # a checker that alternates between yes and no agrees with itself on half of the repeats of a request
    assert answer.agreement == decline.agreement == 0.5 and answer.unanimous == decline.unanimous == 0


def test_cli_probe_and_bad_input(cli: Any, suite: Path, tmp_path: Path) -> None:
    with ScriptedServer(oracle) as server:
        r = cli("probe", suite, "-o", tmp_path / "probes", "--checker", "local/oracle", "--items", "3",
                "--repeats", "2", "--base-url", server.base_url, "--no-cache")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0].startswith("probed with ") and lines[-1] == f"wrote 6 files to {tmp_path / 'probes'}"
    assert "  answer   yes            local/oracle: error rate 0.0% (0 of 3)" in lines
    html = (tmp_path / "probes" / "report.html").read_text(encoding="utf-8")
    assert "<svg" in html and "Self-agreement" in html
    checked = read_records(tmp_path / "probes" / "probes.checked.jsonl")
    assert {rec["llm"] for rec in checked} >= {"probe/yes", "probe/repeat-1", "probe/repeat-2"}
    # a suite without any check a checker answers: one error line, nothing written
    (tmp_path / "rules.jsonl").write_text('{"qid": "a", "tags": "", "query": "q", "pids": ["p"], "checks": '
                                          '[{"cid": "c", "query": "", "func": "affirmative", "metrics": ["m"]}]}\n')
    r = cli("probe", tmp_path / "rules.jsonl", "-o", tmp_path / "p2", "--checker", "local/x",
            "--base-url", "http://127.0.0.1:9/v1")
    assert r.exit_code == 1
    assert r.output == (f"error: {tmp_path / 'rules.jsonl'}: no item has a check a checker answers (an answer check "
                        "with check_for, a decline check without a query on an item tagged expect_conflict/"
                        "expect_noinfo/expect_no_context, or the WikiContradict judge): nothing to probe\n")
    assert not (tmp_path / "p2").exists()


def test_wikicontradict_judge_cases(cli: Any, tmp_path: Path) -> None:
    """The judge role: both answers of a conflict are correct, one is partially correct; conflict-detection
    checks (they have a query of their own) are not probed as declines."""
    sample = Path(__file__).parent / "data" / "wikicontradict" / "rag_qa_sample.csv"
    assert cli("convert", sample, "-o", tmp_path / "wc.jsonl", "-q").exit_code == 0
    picked = cases(read_records(tmp_path / "wc.jsonl"), per_role=50)
    # the sample's conflict-detection checks (t5.2, tagged expect_conflict) have a query: not declines
    assert any(c.get("cid") == "wc_conflict_detected" for rec in read_records(tmp_path / "wc.jsonl")
               for c in rec["checks"])
    assert {c.role for c in picked} == {"judge"}
    expected = {}
    for c in picked:
        if c.role == "judge":
            for name, (_, func) in PROBES.items():
                answer = func(c)
                if answer is not None:
                    expected.setdefault((c.conflict, name), set()).add(answer.expected)
    assert expected[(True, "hedge_both")] == expected[(True, "padded_right")] == {"correct"}
    assert expected[(True, "pasted_answer")] == {"partially correct"}
    assert expected[(False, "pasted_answer")] == expected[(False, "padded_right")] == {"correct"}
    assert expected[(True, "yes")] == expected[(False, "refusal")] == expected[(False, "padded_wrong")] == {"incorrect"}
    assert (False, "hedge_both") not in expected and (True, "padded_wrong") not in expected


def test_probe_file_is_what_the_command_does(suite: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with ScriptedServer(oracle) as server:
        report, names, out = probe_file(suite, checkers=["local/oracle"], per_role=3, repeats=0,
                                        llm_settings={"base_url": server.base_url, "cache": None})
    assert out == default_probe_dir(suite) == Path("demo-probes")
    assert sorted(names) == sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert report.results and all(r.wrong == 0 for r in report.results)
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "notes.txt").write_text("mine")
    with pytest.raises(InputError, match="notes.txt"):  # refused before any request is sent
        probe_file(suite, tmp_path / "full", ["local/x"], llm_settings={"base_url": "http://127.0.0.1:9/v1"})
