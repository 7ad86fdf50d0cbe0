"""generate: candidates from a scripted OpenAI-compatible server on 127.0.0.1, through the real client."""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from conftest import ROW, row, tsv_text

from ragability_gen import compile_suite, read_instances
from ragability_gen.core import schemas
from ragability_gen.core.fileio import read_records
from ragability_gen.generate.core import agenerate
from ragability_gen.generate.writers import CANDIDATE_SCHEMA, VERDICT_SCHEMA, RuleWriter
from ragability_gen.llm.testing import Reply, ScriptedServer, user_text

GOOD3 = "Field guides list the Cap Squirrel among the suricates of the dry plains."
GOOD4 = "The Cap Squirrel lives in burrows on the dry plains of Orvane."
VERDICTS = {"consistent_with_context_1": "yes", "contradicts_context_2": "yes",
            "consistent_with_contexts_1_2_3": "yes", "consistent_with_contexts_1_2": "yes",
            "does_not_answer_query": "no"}
EMPTY = {"context_3_nc1_c2": "", "context_4_nc1_nc2_nc3": ""}
OTHER = {"contradiction_ID": "14", "query_text": "Where does the Cap Squirrel live?", **EMPTY}


def ctx(text: str) -> str:
    return json.dumps({"context": text})


def verdict(v: str, reason: str = "Checked.") -> str:
    return json.dumps({"reason": reason, "verdict": v})


def kind(body: dict[str, Any]) -> str:
    return str(body["response_format"]["json_schema"]["name"])


class Script:
    """Replies by request kind (context_3, context_4, verdict_<check>); a list is used in turn, its last repeats."""

    def __init__(self, **replies: Any):
        self.replies = {"context_3": ctx(GOOD3), "context_4": ctx(GOOD4),
                        **{f"verdict_{k}": verdict(v) for k, v in VERDICTS.items()}, **replies}
        self.seen: Counter[str] = Counter()
        self.lock = threading.Lock()

    def __call__(self, body: dict[str, Any]) -> Reply | str:
        name = kind(body)
        with self.lock:
            n = self.seen[name]
            self.seen[name] += 1
        reply = self.replies[name]
        if isinstance(reply, list):
            reply = reply[min(n, len(reply) - 1)]
        return reply(body) if callable(reply) else reply


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    path = tmp_path / "in.tsv"
    path.write_text(tsv_text([row(**EMPTY)]), encoding="utf-8")
    return path


def outputs(tmp_path: Path, stem: str = "out") -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The audit and rejects records beside an output, each checked against its schema."""
    audit = read_records(tmp_path / f"{stem}.audit.jsonl", "jsonl")
    rejects = read_records(tmp_path / f"{stem}.rejects.jsonl", "jsonl")
    assert schemas.record_problems(audit, "generation-audit", str) == []
    assert schemas.record_problems(rejects, "generation-rejects", str) == []
    return audit, rejects


def generate(cli: Any, server: ScriptedServer, *extra: str, src: str = "in.tsv") -> Any:
    return cli("generate", src, "-o", "out.tsv", "--llm", "m", "--base-url", server.base_url, "--no-cache", *extra)


def corpus_rows(path: Path) -> list[dict[str, str]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    return [dict(zip(header, line.split("\t"), strict=True)) for line in lines[1:]]


def test_good_replies_are_accepted(cli: Any, corpus: Path, tmp_path: Path) -> None:
    with ScriptedServer(Script()) as server:
        result = generate(cli, server)
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        "in.tsv: read 1 records with converter 'ragability-v0.4', kept 1 instances",
        "generate: 1 instances, writer m, verified by m",
        "  context 3: 1 to generate (0 already filled, left as they are): accepted 1, rejected 0",
        "  context 4: 1 to generate (0 already filled, left as they are): accepted 1, rejected 0",
        "  candidates 2: accepted 2",
        "  m: 6 calls (0 from the cache, 0 failed), 6 HTTP requests (0 retries), tokens 60 prompt + 30 completion, "
        "cost 0.0000",
        "  LLM calls per accepted context: 3.0",
        "wrote 1 instances to out.tsv, 2 audit records to out.audit.jsonl, 0 instances with a rejected context "
        "to out.rejects.jsonl",
    ]
    (out,) = corpus_rows(tmp_path / "out.tsv")
    assert (out["context_3_nc1_c2"], out["context_4_nc1_nc2_nc3"]) == (GOOD3, GOOD4)
    assert out == {**ROW, "context_3_nc1_c2": GOOD3, "context_4_nc1_nc2_nc3": GOOD4}
    audit, rejects = outputs(tmp_path)
    assert rejects == []
    assert [(a["context"], a["accepted"], a["text"], len(a["attempts"]), a["calls"]) for a in audit] == [
        ("3", True, GOOD3, 1, 3), ("4", True, GOOD4, 1, 3)]
    assert [(m["check"], m["verdict"], m["passed"]) for m in audit[0]["attempts"][0]["model_checks"]] == [
        ("consistent_with_context_1", "yes", True), ("contradicts_context_2", "yes", True)]
    assert [(m["check"], m["verdict"], m["passed"]) for m in audit[1]["attempts"][0]["model_checks"]] == [
        ("consistent_with_contexts_1_2_3", "yes", True), ("does_not_answer_query", "no", True)]
    first = server.requests[0].body
    assert first["response_format"] == {"type": "json_schema",
                                        "json_schema": {"name": "context_3", "schema": CANDIDATE_SCHEMA}}
    prompt = user_text(first)
    assert prompt.startswith(f"Question: {ROW['query_text']}\n\nContext 1: {ROW['context_1']}\n")
    assert '- contains the exact words "a suricate";\n- does not contain the words "a squirrel";' in prompt
    verdicts = [r.body for r in server.requests if kind(r.body).startswith("verdict_")]
    assert all(b["response_format"]["json_schema"]["schema"] == VERDICT_SCHEMA for b in verdicts)
    # context 4 is written, and checked, against the accepted context 3
    c4 = next(r.body for r in server.requests if kind(r.body) == "context_4")
    assert f"Context 3: {GOOD3}\n" in user_text(c4)


def test_candidate_contradicting_context_1_is_retried_with_the_reason(cli: Any, corpus: Path,
                                                                      tmp_path: Path) -> None:
    bad = "Unlike a suricate, the Cap Squirrel climbs trees and eats nuts."
    script = Script(context_3=[ctx(bad), ctx(GOOD3)],
                    verdict_consistent_with_context_1=[verdict("no", "Context 1 says it is a suricate."),
                                                       verdict("yes")])
    with ScriptedServer(script) as server:
        result = generate(cli, server, "-q")
    assert result.exit_code == 0 and result.output == ""
    audit, rejects = outputs(tmp_path)
    a3 = audit[0]
    assert (a3["accepted"], a3["text"], [a["candidate"] for a in a3["attempts"]]) == (True, GOOD3, [bad, GOOD3])
    expected = ("verifier consistent_with_context_1: answered no, expected yes (Context 1 says it is a suricate.)")
    assert a3["reasons"] == [f"attempt 1: {expected}"]
    assert a3["attempts"][0]["problems"] == [expected]
    # the retry continues the conversation: the rejected reply, then why it was rejected
    retry = [r.body for r in server.requests if kind(r.body) == "context_3"][1]["messages"]
    assert retry[2] == {"role": "assistant", "content": ctx(bad)}
    assert retry[3]["content"] == (f"That context 3 was rejected:\n- {expected}\nWrite a new context 3 that fixes "
                                   "these problems and meets every requirement. Reply with only the JSON object.")
    assert rejects == []


def test_copy_of_context_1_is_rejected_without_asking_the_verifier(cli: Any, corpus: Path, tmp_path: Path) -> None:
    with ScriptedServer(Script(context_3=ctx(ROW["context_1"]))) as server:
        result = generate(cli, server, "-q", "--attempts", "2")
    assert result.exit_code == 0
    audit, rejects = outputs(tmp_path)
    copy = ("rule not_a_copy: it copies context 1; it is a near-copy of context 2 (similarity 0.83; near-copy "
            "from 0.8)")
    reasons = [f"attempt 1: {copy}", f"attempt 2: {copy}"]
    assert (audit[0]["accepted"], audit[0]["reasons"]) == (False, reasons)
    assert audit[0]["attempts"][0]["model_checks"] is None
    assert audit[0]["attempts"][0]["model_checks_note"] == "not run: a rule check failed"
    assert rejects == [{"instance": "13", "variation": 1, "query": ROW["query_text"], "source": "in.tsv",
                        "line": 2, "rejected": [{"context": "3", "reasons": reasons, "kept_previous": False}]}]
    assert not any(kind(r.body) == "verdict_consistent_with_context_1" for r in server.requests)
    (out,) = corpus_rows(tmp_path / "out.tsv")
    assert (out["context_3_nc1_c2"], out["context_4_nc1_nc2_nc3"]) == ("", GOOD4)  # context 4 still generated


def test_near_copy_and_answer_leaking_into_context_4(cli: Any, corpus: Path, tmp_path: Path) -> None:
    near = "A Cap Squirrel is really a suricate."
    leak = "Zoologists of Orvane count the Cap Squirrel as a suricate."
    with ScriptedServer(Script(context_3=[ctx(near), ctx(GOOD3)], context_4=[ctx(leak), ctx(GOOD4)])) as server:
        result = generate(cli, server, "-q")
    assert result.exit_code == 0
    audit, _ = outputs(tmp_path)
    assert [a["reasons"] for a in audit] == [
        ["attempt 1: rule not_a_copy: it is a near-copy of context 1 (similarity 0.92; near-copy from 0.8)"],
        ["attempt 1: rule avoids_answer_1: it contains answer 1 ('a suricate')"]]
    assert [a["accepted"] for a in audit] == [True, True]


def test_invalid_json_is_retried_with_the_error(cli: Any, corpus: Path, tmp_path: Path) -> None:
    script = Script(context_3=["Sure! The Cap Squirrel is a suricate.", '{"text": "wrong field"}', ctx(GOOD3)])
    with ScriptedServer(script) as server:
        result = generate(cli, server, "-q")
    assert result.exit_code == 0
    audit, _ = outputs(tmp_path)
    a3 = audit[0]
    assert a3["reasons"] == [
        "attempt 1: invalid reply: not JSON (Expecting value at line 1, column 1)",
        "attempt 2: invalid reply: 'context' is a required property; Additional properties are not allowed "
        "('text' was unexpected)"]
    assert [(a["candidate"], a["reply"]) for a in a3["attempts"]] == [
        (None, "Sure! The Cap Squirrel is a suricate."), (None, '{"text": "wrong field"}'), (GOOD3, None)]
    assert a3["accepted"] is True
    retry = [r.body for r in server.requests if kind(r.body) == "context_3"][1]["messages"]
    assert retry[-1]["content"] == ("That reply is not valid: invalid reply: not JSON (Expecting value at line 1, "
                                    'column 1). Reply again with only a JSON object whose one field, "context", '
                                    "holds the passage.")


def test_429_then_success_is_retried_and_recorded(cli: Any, corpus: Path, tmp_path: Path) -> None:
    script = Script(context_3=[Reply(status=429, headers={"retry-after-ms": "10"}), ctx(GOOD3)])
    with ScriptedServer(script) as server:
        result = generate(cli, server)
    assert result.exit_code == 0
    assert "  m: 6 calls (0 from the cache, 0 failed), 7 HTTP requests (1 retries)" in result.stderr
    audit, _ = outputs(tmp_path)
    first = audit[0]["attempts"][0]
    assert (audit[0]["accepted"], first["candidate"], first["http_requests"], first["http_status"]) == (
        True, GOOD3, 4, [429, 200, 200, 200])  # the writer's two requests, then the two verdicts


def config(tmp_path: Path, server: ScriptedServer, **settings: Any) -> Path:
    path = tmp_path / "llms.json"
    path.write_text(json.dumps({"llms": [{"llm": "m", "api_url": server.base_url, **settings}]}))
    return path


def test_timeouts_retried_then_rejected_without_stopping_the_run(cli: Any, tmp_path: Path) -> None:
    (tmp_path / "in.tsv").write_text(tsv_text([row(**EMPTY), row(**OTHER)]), encoding="utf-8")
    late: Counter[str] = Counter()

    def writer3(body: dict[str, Any]) -> Reply | str:
        if "Where does" in user_text(body):
            return Reply(ctx(GOOD3), delay=0.6)  # always too late
        late["13"] += 1
        return Reply(ctx(GOOD3), delay=0.6) if late["13"] == 1 else ctx(GOOD3)  # late once

    with ScriptedServer(Script(context_3=writer3)) as server:
        cfg = config(tmp_path, server, timeout=0.2, max_retries=1)
        result = cli("generate", "in.tsv", "-o", "out.tsv", "--config", cfg, "--llm", "m", "--no-cache", "-q")
    assert result.exit_code == 0
    audit, rejects = outputs(tmp_path)
    by = {(a["instance"], a["context"]): a for a in audit}
    retried = by[("13", "3")]["attempts"][0]
    # the writer's request timed out once and was sent again; then the two verdicts
    assert (by[("13", "3")]["accepted"], retried["http_requests"], retried["http_status"]) == (True, 4, [200] * 3)
    failed = by[("14", "3")]
    assert failed["reasons"] == ["attempt 1: m: timed out after 0.2 s, 1 retries"]
    assert failed["attempts"][0]["error"] == "m: timed out after 0.2 s, 1 retries"
    assert [(r["instance"], r["rejected"][0]["reasons"]) for r in rejects] == [("14", failed["reasons"])]
    assert [a["accepted"] for a in audit] == [True, True, False, True]  # 14's context 4 still generated


def test_verifier_without_a_valid_verdict_rejects_the_context(cli: Any, corpus: Path, tmp_path: Path) -> None:
    with ScriptedServer(Script(verdict_contradicts_context_2='{"verdict": "maybe"}')) as server:
        result = generate(cli, server, "-q", "--attempts", "2")
    assert result.exit_code == 0
    audit, _ = outputs(tmp_path)
    assert audit[0]["reasons"] == [
        "attempt 1: m: no valid JSON reply in 2 attempts (attempt 1: invalid reply: 'reason' is a required property; "
        "verdict: 'maybe' is not one of ['yes', 'no']; attempt 2: invalid reply: 'reason' is a required property; "
        "verdict: 'maybe' is not one of ['yes', 'no'])"]
    assert len(audit[0]["attempts"]) == 1  # an endpoint failure is not retried with another candidate


def test_verifier_none_runs_rule_checks_only(cli: Any, corpus: Path, tmp_path: Path) -> None:
    with ScriptedServer(Script()) as server:
        result = generate(cli, server, "-q", "--verifier", "none")
    assert result.exit_code == 0
    assert [kind(r.body) for r in server.requests] == ["context_3", "context_4"]
    audit, _ = outputs(tmp_path)
    assert [(a["verifier"], a["attempts"][0]["model_checks_note"]) for a in audit] == [
        (None, "no verifier: rule checks only")] * 2


@pytest.mark.parametrize("status", [401, 404])
def test_unusable_model_stops_the_run_and_writes_nothing(cli: Any, corpus: Path, tmp_path: Path,
                                                         status: int) -> None:
    with ScriptedServer(lambda body: Reply(status=status)) as server:
        result = generate(cli, server)
    assert (result.exit_code, result.stderr) == (1, f"error: m: HTTP {status}: scripted error {status}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.tsv"]


def test_missing_key_variable(cli: Any, corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_SUCH_KEY_VAR", raising=False)
    with ScriptedServer(Script()) as server:
        result = generate(cli, server, "--api-key-env", "NO_SUCH_KEY_VAR")
    assert (result.exit_code, result.stderr) == (
        1, "error: m: the API key variable NO_SUCH_KEY_VAR is not set in the environment\n")
    assert server.requests == [] and sorted(p.name for p in tmp_path.iterdir()) == ["in.tsv"]


def test_model_without_endpoint(cli: Any, corpus: Path, tmp_path: Path) -> None:
    result = cli("generate", "in.tsv", "-o", "out.tsv", "--llm", "mymodel")
    assert result.exit_code == 1
    assert result.stderr.startswith("error: mymodel: no endpoint: give --base-url (or api_url in the config), or "
                                    "name a known provider as provider/model (openai, ")
    assert len(result.stderr.splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.tsv"]


def test_bad_input_and_clashing_outputs(cli: Any, tmp_path: Path) -> None:
    result = cli("generate", "nope.tsv", "-o", "out.tsv", "--llm", "rules")
    assert (result.exit_code, result.stderr) == (1, "error: nope.tsv: no such file\n")
    (tmp_path / "bad.tsv").write_text(tsv_text([row(c1xq="qxx", **EMPTY)]), encoding="utf-8")
    result = cli("generate", "bad.tsv", "-o", "out.tsv", "--llm", "rules")
    assert (result.exit_code, result.stderr) == (
        1, 'error: bad.tsv: line 2, column 4 (c1xq): unknown annotation "qxx" (allowed: qeu, qea, qiu, qia, qn)\n')
    result = cli("generate", "bad.tsv", "-o", "out.tsv", "--llm", "rules", "--rejects", "out.tsv")
    assert (result.exit_code, result.stderr) == (
        1, "error: out.tsv: the output, audit and rejects files must be three different files "
           "(got out.tsv, out.audit.jsonl, out.tsv)\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.tsv"]


def test_rules_generator_fills_the_demo_and_the_suite_gains_the_skipped_variants(
        cli: Any, demo_tsv: Path, tmp_path: Path) -> None:
    result = cli("generate", demo_tsv, "-o", "demo.jsonl", "--llm", "rules")
    assert result.exit_code == 0, result.output
    assert "  context 3: 2 to generate (22 already filled, left as they are): accepted 2, rejected 0" in result.stderr
    assert "LLM calls" not in result.stderr  # no model, no calls
    audit, rejects = outputs(tmp_path, "demo")
    assert rejects == [] and [(a["generator"], a["verifier"]) for a in audit] == [("rules", None)] * 4
    assert all(r["passed"] for a in audit for r in a["attempts"][-1]["rule_checks"])
    before, _ = read_instances(demo_tsv)
    after, _ = read_instances(tmp_path / "demo.jsonl")
    last = after[-1]
    assert (last.contexts["3"].text, last.contexts["4"].text) == (
        'Asked "How much does the Pellifex Aero-7 survey drone weigh without its battery?", the records give this '
        "answer: 1.8 kilograms.",
        "The name Pellifex Aero-7 appears in several archival records.")
    # the long answer repeats context 1, and so does the long answer framed
    assert [a["reasons"] for a in audit][2] == [
        "attempt 1: rule not_a_copy: it copies context 1; it is a near-copy of context 2 (similarity 0.92; "
        "near-copy from 0.8)",
        "attempt 2: rule not_a_copy: it is a near-copy of context 1 (similarity 0.83; near-copy from 0.8)"]
    c3, c4 = last.contexts["3"], last.contexts["4"]
    assert (c3.annotation, c3.answer, c3.agrees, c3.contradicts) == ("qeu", "1", ("1",), ("2",))
    assert (c4.annotation, c4.answer, c4.agrees, c4.contradicts) == ("qn", None, (), ())
    assert [i.to_dict() for i in after[:-2]] == [i.to_dict() for i in before[:-2]]
    was, _ = compile_suite(before, tmp_path / "before.hjson")
    now, _ = compile_suite(after, tmp_path / "after.hjson")
    assert sum(was.skipped.values()) == 18 and not now.skipped
    assert now.items == was.items + 18 == 24 * 20
    assert now.per_variant["ctx1234q"] == 24


def test_force_regenerates_and_keeps_previous_text_when_rejected(cli: Any, demo_tsv: Path, tmp_path: Path) -> None:
    result = cli("generate", demo_tsv, "-o", "demo.tsv", "--llm", "rules", "--force", "-q")
    assert result.exit_code == 0
    audit, rejects = outputs(tmp_path, "demo")
    assert len(audit) == 48
    kept = [(r["instance"], c["context"], c["kept_previous"]) for r in rejects for c in r["rejected"]]
    assert kept == [("9", "3", True), ("10", "3", True), ("11", "3", True)]
    nine = next(r for r in rejects if r["instance"] == "9")["rejected"][0]["reasons"]
    assert nine[0] == "attempt 1: rule no_reference: it refers to the contexts ('Context 1') instead of stating facts"
    rows = {(r["contradiction_ID"], r["query_text"]): r for r in corpus_rows(tmp_path / "demo.tsv")}
    old = {(r["contradiction_ID"], r["query_text"]): r for r in corpus_rows(demo_tsv)}
    key9 = next(k for k in rows if k[0] == "9")
    key1 = next(k for k in rows if k[0] == "1")
    assert rows[key9]["context_3_nc1_c2"] == old[key9]["context_3_nc1_c2"]  # rejected: previous text kept
    assert rows[key1]["context_3_nc1_c2"] == "Olinde brevicula is a moth."
    assert rows[key1]["context_4_nc1_nc2_nc3"] == "The name Olinde appears in several archival records."
    assert next(a for a in audit if a["instance"] == "1")["previous"] == old[key1]["context_3_nc1_c2"]


def test_output_is_deterministic_and_in_input_order(cli: Any, tmp_path: Path) -> None:
    rows = [row(contradiction_ID=str(i), query_text=f"What kind of animal is a Cap Squirrel (case {i})?", **EMPTY)
            for i in range(8)]
    (tmp_path / "in.tsv").write_text(tsv_text(rows), encoding="utf-8")
    rng = random.Random(7)
    lock = threading.Lock()

    def jittered(body: dict[str, Any]) -> Reply | str:
        with lock:
            delay = rng.random() * 0.01
        time.sleep(delay)  # replies arrive in another order each run
        return script(body)

    def writer3(body: dict[str, Any]) -> str:
        even = int(body["messages"][1]["content"].split("(case ", 1)[1].split(")")[0]) % 2 == 0
        return ctx(ROW["context_1"]) if even and len(body["messages"]) == 2 else ctx(GOOD3)  # even: one retry

    results = []
    for _ in range(2):
        script = Script(context_3=writer3)
        with ScriptedServer(jittered) as server:
            assert generate(cli, server, "-q", "--concurrency", "8").exit_code == 0
        results.append([(tmp_path / n).read_bytes() for n in ("out.tsv", "out.audit.jsonl", "out.rejects.jsonl")])
    assert results[0] == results[1]
    audit, _ = outputs(tmp_path)
    assert [a["instance"] for a in audit] == [str(i) for i in range(8) for _ in (3, 4)]
    assert [len(a["attempts"]) for a in audit if a["context"] == "3"] == [2, 1] * 4
    assert all(a["accepted"] and a["reasons"] == ([] if int(a["instance"]) % 2 or a["context"] == "4" else [
        "attempt 1: rule not_a_copy: it copies context 1; it is a near-copy of context 2 (similarity 0.83; near-copy "
        "from 0.8)"]) for a in audit)


def test_cache_answers_a_second_run(cli: Any, corpus: Path, tmp_path: Path) -> None:
    with ScriptedServer(Script()) as server:
        args = ("generate", "in.tsv", "-o", "out.tsv", "--llm", "m", "--base-url", server.base_url,
                "--cache", tmp_path / "c.sqlite")
        first = cli(*args)
        second = cli(*args)
    assert first.exit_code == second.exit_code == 0
    assert len(server.requests) == 6
    assert "  m: 6 calls (6 from the cache, 0 failed), 0 HTTP requests (0 retries)" in second.stderr


def test_progress_callback_and_library_use() -> None:
    instances, _ = read_instances(Path(__file__).parent.parent / "corpora" / "demo.tsv")
    seen: list[tuple[int, int]] = []
    gen = asyncio.run(agenerate(instances, RuleWriter(), concurrency=4,
                                on_progress=lambda done, total: seen.append((done, total))))
    assert seen == [(i, 24) for i in range(25)]
    assert [(a.instance.id, a.context, a.accepted) for a in gen.audits] == [
        ("21", "3", True), ("21", "4", True), ("22", "3", True), ("22", "4", True)]
    assert instances[-1].contexts.keys() == {"1", "2"}  # the input is not modified


def test_validate_reads_the_audit_and_rejects_files(cli: Any, demo_tsv: Path, tmp_path: Path) -> None:
    assert cli("generate", demo_tsv, "-o", "demo.tsv", "--llm", "rules", "--force", "-q").exit_code == 0
    result = cli("validate", "demo.audit.jsonl", "demo.rejects.jsonl")
    assert (result.exit_code, result.output) == (0, "demo.audit.jsonl: valid generation-audit (48 records)\n"
                                                    "demo.rejects.jsonl: valid generation-rejects (3 records)\n")
    record = json.loads((tmp_path / "demo.audit.jsonl").read_text(encoding="utf-8").splitlines()[0])
    (tmp_path / "bad.audit.jsonl").write_text(json.dumps({**record, "accepted": True, "text": None}) + "\n")
    result = cli("validate", "bad.audit.jsonl")
    assert (result.exit_code, result.stderr) == (1, "error: bad.audit.jsonl: record 1: field text: None is not of "
                                                    "type 'string'\n")
