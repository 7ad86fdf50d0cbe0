"""Several checkers at once: check keeps each verdict; eval and calibrate report them and the majority vote."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ragability_gen.core.fileio import read_records
from ragability_gen.evaluate import evaluate_checked
from ragability_gen.llm.testing import ScriptedServer, user_text


@pytest.fixture
def results(cli: Any, demo_tsv: Path, tmp_path: Path) -> Path:
    """Testee results for the first 40 demo items: yes to identification prompts, an echo otherwise."""
    assert cli("convert", demo_tsv, "-o", tmp_path / "demo.hjson", "-q").exit_code == 0
    items = read_records(tmp_path / "demo.hjson")[:40]
    (tmp_path / "small.jsonl").write_text("".join(json.dumps(it) + "\n" for it in items))
    (tmp_path / "small.prompts.hjson").write_bytes((tmp_path / "demo.prompts.hjson").read_bytes())

    def testee(body: dict[str, Any]) -> str:
        text = user_text(body)
        return "Yes." if "Answer yes or no." in text else "It says: " + text.rsplit("Question: ", 1)[-1]

    with ScriptedServer(testee) as server:
        r = cli("query", tmp_path / "small.jsonl", "-o", tmp_path / "small.results.jsonl", "--llm", "local/t",
                "--base-url", server.base_url, "--no-cache")
        assert r.exit_code == 0, r.output
    return tmp_path / "small.results.jsonl"


def checker_replies(body: dict[str, Any]) -> str:
    """x always says yes, y always no, z yes to the answer check and no to the refusal check."""
    model = body["model"]
    if model == "local/x":
        return "Yes"
    if model == "local/y":
        return "No"
    return "Yes" if "CORRECT ANSWER" in user_text(body) else "No"


def test_several_checkers_keep_each_verdict(cli: Any, results: Path, tmp_path: Path) -> None:
    with ScriptedServer(checker_replies) as server:
        r = cli("check", results, "-o", tmp_path / "multi.jsonl", "--checker", "local/x", "--checker", "local/y",
                "--checker", "local/z", "--base-url", server.base_url, "--no-cache", "-q")
        assert r.exit_code == 0, r.output
        r = cli("check", results, "-o", tmp_path / "single.jsonl", "--checker", "local/x",
                "--base-url", server.base_url, "--no-cache", "-q")
        assert r.exit_code == 0, r.output
    multi, single = read_records(tmp_path / "multi.jsonl"), read_records(tmp_path / "single.jsonl")
    asked = [c for rec in multi for c in rec["checks"] if c.get("pid")]
    assert asked and all([e["llm"] for e in c["checkers"]] == ["local/x", "local/y", "local/z"] for c in asked)
    for c in asked:
        verdict = {e["llm"]: e["result"] for e in c["checkers"]}
        assert verdict["local/x"] == "1" and verdict["local/y"] == "0"
        assert verdict["local/z"] == ("1" if c["pid"] == "check_correct_answer" else "0")
        assert (c["result"], c["llm"], c["response"]) == ("1", "local/x", "Yes")  # the first checker's fields
    # rule checks (no checker prompt) have no checkers field
    assert all("checkers" not in c for rec in multi for c in rec["checks"] if not c.get("pid"))
    # without the checkers field the file reads as one checked by the first checker alone
    stripped = [{**rec, "checks": [{k: v for k, v in c.items() if k != "checkers"} for c in rec["checks"]]}
                for rec in multi]
    assert [(r.metric, r.value, r.n) for r in evaluate_checked(stripped).tables[0].rows] == \
        [(r.metric, r.value, r.n) for r in evaluate_checked(single).tables[0].rows]

    report = evaluate_checked(tmp_path / "multi.jsonl")
    assert report.checkers is not None and report.checkers.checkers == ["local/x", "local/y", "local/z"]
    refusal = {name: next(r for r in rows if r.metric == "refusal_not_answerable")
               for name, rows in report.checkers.overall.items()}
    # x says yes to everything, y and z say no to the refusal check: the majority sides with y and z
    assert {name: r.value for name, r in refusal.items()} == {"local/x": 1.0, "local/y": 0.0, "local/z": 0.0,
                                                              "majority": 0.0}
    kappas = {(p.kind, p.first, p.second): p.agreement for p in report.checkers.between}
    same = kappas[("check_response_not_answerable", "local/y", "local/z")]
    assert same.agreement[0] == 1.0 and same.n == refusal["local/y"].n
    r = cli("eval", tmp_path / "multi.jsonl", "-o", tmp_path / "report", "-q")
    assert r.exit_code == 0, r.output
    md = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    assert "## Checkers" in md and "| metric | LLM | local/x | local/y | local/z | majority |" in md
    assert "| check_response_not_answerable | local/y | local/z |" in md
    # a file checked by one checker gets no such section
    assert evaluate_checked(single).checkers is None

    # calibrate: labels for the refusal checks (the echoing testee never declines: every label is 0)
    lines = ["qid\tpid\tllm\tcid\tlabel"] + [f"{rec['qid']}\t{rec['pid']}\t{rec['llm']}\t{c['cid']}\t0"
                                             for rec in multi for c in rec["checks"]
                                             if c.get("pid") == "check_response_not_answerable"]
    (tmp_path / "labels.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = cli("calibrate", tmp_path / "multi.jsonl", tmp_path / "labels.tsv", "-o", tmp_path / "cal", "-q")
    assert r.exit_code == 0, r.output
    table = (tmp_path / "cal" / "calibration.tsv").read_text(encoding="utf-8").splitlines()
    n = len(lines) - 1
    assert f"check_response_not_answerable\tlocal/x\tagreement\t\t0.0000\t0.0000\t0.0000\t{n}" in table
    assert f"check_response_not_answerable\tmajority\tagreement\t\t1.0000\t1.0000\t1.0000\t{n}" in table
