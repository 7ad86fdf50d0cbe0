"""generate: candidates from a scripted OpenAI-compatible server on 127.0.0.1, through the real client."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import re
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
from ragability_gen.core.progress import ProgressEvent
from ragability_gen.generate import RuleWriter
from ragability_gen.generate.core import agenerate
from ragability_gen.generate.textrules import copied_run
from ragability_gen.generate.verifier import VERDICT_SCHEMA
from ragability_gen.generate.writers import CANDIDATE_SCHEMA
from ragability_gen.llm.testing import Reply, ScriptedServer, user_text

GOOD3 = "Field guides list the Cap Squirrel among the suricates of the dry plains."
GOOD4 = "The Cap Squirrel lives in burrows on the dry plains of Orvane."
VERDICTS = {"consistent_with_context_1": "yes", "contradicts_context_2": "yes", "gives_answer_1": "yes",
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
        "  distinctness context 3: 1 of 1 generated texts have a sentence skeleton no other row shares (3-gram "
        "overlap with the closest other row: mean 0.00, max 0.00)",
        "  distinctness context 4: 1 of 1 generated texts have a sentence skeleton no other row shares (3-gram "
        "overlap with the closest other row: mean 0.00, max 0.00)",
        "  m: 7 calls, 0 from the cache, 7 HTTP requests (0 retries; errors: none, 0 unanswered, 0 without an "
        "answer), 0 failed, 70+35 tokens, cost 0.0000",
        "  LLM calls per accepted context: 3.5",
        "wrote 1 instances to out.tsv, 2 audit records to out.audit.jsonl, 0 instances with a context not generated "
        "to out.rejects.jsonl",
    ]
    (out,) = corpus_rows(tmp_path / "out.tsv")
    assert (out["context_3_nc1_c2"], out["context_4_nc1_nc2_nc3"]) == (GOOD3, GOOD4)
    assert out == {**ROW, "context_3_nc1_c2": GOOD3, "context_4_nc1_nc2_nc3": GOOD4}
    audit, rejects = outputs(tmp_path)
    assert rejects == []
    assert [(a["context"], a["accepted"], a["text"], len(a["attempts"]), a["calls"]) for a in audit] == [
        ("3", True, GOOD3, 1, 4), ("4", True, GOOD4, 1, 3)]
    assert [(m["check"], m["verdict"], m["passed"]) for m in audit[0]["attempts"][0]["model_checks"]] == [
        ("consistent_with_context_1", "yes", True), ("contradicts_context_2", "yes", True),
        ("gives_answer_1", "yes", True)]
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
    assert (result.exit_code, result.stderr) == (
        1, "error: in.tsv: generate accepted 1 of 2 contexts asked for; 1 rejected (rows listed in the summary and "
           "the rejects report); --allow-partial accepts this\n")
    audit, rejects = outputs(tmp_path)
    copy = ("rule not_a_copy: it copies context 1; it is a near-copy of context 2 (similarity 0.83; near-copy "
            "from 0.8)")
    reasons = [f"attempt 1: {copy}", f"attempt 2: {copy}"]
    assert (audit[0]["accepted"], audit[0]["reasons"]) == (False, reasons)
    assert audit[0]["attempts"][0]["model_checks"] is None
    assert audit[0]["attempts"][0]["model_checks_note"] == "not run: a rule check failed"
    assert rejects == [{"instance": "13", "variation": 1, "query": ROW["query_text"], "source": "in.tsv",
                        "line": 2, "rejected": [{"context": "3", "reasons": reasons, "kept_previous": False,
                                                 "possible": True}]}]
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
    assert "  m: 7 calls, 0 from the cache, 8 HTTP requests (1 retries; errors: " in result.stderr
    audit, _ = outputs(tmp_path)
    first = audit[0]["attempts"][0]
    assert (audit[0]["accepted"], first["candidate"], first["http_requests"], first["http_status"]) == (
        True, GOOD3, 5, [429, 200, 200, 200, 200])  # the writer's two requests, then the three verdicts


def config(tmp_path: Path, server: ScriptedServer, **settings: Any) -> Path:
    path = tmp_path / "llms.json"
    path.write_text(json.dumps({"llms": [{"llm": "m", "api_url": server.base_url, **settings}]}))
    return path


def test_timeouts_retried_then_rejected_without_stopping_the_run(cli: Any, tmp_path: Path) -> None:
    (tmp_path / "in.tsv").write_text(tsv_text([row(**EMPTY), row(**OTHER)]), encoding="utf-8")
    late: Counter[str] = Counter()

    def writer3(body: dict[str, Any]) -> Reply | str:
        if "Where does" in user_text(body):
            return Reply(ctx(GOOD3), delay=30.0)  # always too late
        late["13"] += 1
        return Reply(ctx(GOOD3), delay=30.0) if late["13"] == 1 else ctx(GOOD3)  # late once

    def writer4(body: dict[str, Any]) -> str:
        return ctx("Cap Squirrel colonies dig their burrows under thorn bushes." if "Where does" in user_text(body)
                   else GOOD4)

    with ScriptedServer(Script(context_3=writer3, context_4=writer4)) as server:
        cfg = config(tmp_path, server, timeout=1, max_retries=1)
        result = cli("generate", "in.tsv", "-o", "out.tsv", "--config", cfg, "--llm", "m", "--no-cache", "-q",
                     "--allow-partial")
    assert (result.exit_code, result.stderr) == (0, "")
    audit, rejects = outputs(tmp_path)
    by = {(a["instance"], a["context"]): a for a in audit}
    retried = by[("13", "3")]["attempts"][0]
    # the writer's request timed out once and was sent again; then the three verdicts
    assert (by[("13", "3")]["accepted"], retried["http_requests"], retried["http_status"]) == (True, 5, [200] * 4)
    failed = by[("14", "3")]
    assert failed["reasons"] == ["attempt 1: m: timed out after 1 s, 1 retries"]
    assert failed["attempts"][0]["error"] == "m: timed out after 1 s, 1 retries"
    assert [(r["instance"], r["rejected"][0]["reasons"]) for r in rejects] == [("14", failed["reasons"])]
    assert [a["accepted"] for a in audit] == [True, True, False, True]  # 14's context 4 still generated


def test_verifier_without_a_valid_verdict_rejects_the_context(cli: Any, corpus: Path, tmp_path: Path) -> None:
    with ScriptedServer(Script(verdict_contradicts_context_2='{"verdict": "maybe"}')) as server:
        result = generate(cli, server, "-q", "--attempts", "2", "--allow-partial")
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
    assert [(i.contexts["3"].text, i.contexts["4"].text) for i in after[-2:]] == [
        ("Before the Vellmoor Observatory opened, the Guild of Lanternwrights was founded.",
         "The Lanternwrights had a guild of their own."),
        ("Without its battery, the Pellifex Aero-7 survey drone weighs 1.8 kilograms.",
         "Pellifex sells a survey drone called the Aero-7."),
    ]
    last = after[-1]
    c3, c4 = last.contexts["3"], last.contexts["4"]
    assert (c3.annotation, c3.answer, c3.agrees, c3.contradicts) == ("qeu", "1", ("1",), ("2",))
    assert (c4.annotation, c4.answer, c4.agrees, c4.contradicts) == ("qn", None, (), ())
    assert [i.to_dict() for i in after[:-2]] == [i.to_dict() for i in before[:-2]]
    was, _ = compile_suite(before, tmp_path / "before.hjson")
    now, _ = compile_suite(after, tmp_path / "after.hjson")
    assert sum(was.skipped.values()) == 18 and not now.skipped
    assert now.items == was.items + 18 == 24 * 20
    assert now.per_variant["ctx1234q"] == 24


def test_rules_writer_never_quotes_the_question_or_cites_records(demo_tsv: Path) -> None:
    instances, _ = read_instances(demo_tsv)
    blank = [dataclasses.replace(i, contexts={k: v for k, v in i.contexts.items() if k in ("1", "2")})
             for i in instances]
    gen = asyncio.run(agenerate(blank, RuleWriter()))
    texts = [a.text for a in gen.audits if a.accepted]
    assert len(texts) == 34  # of 48: 5 cannot be generated, 9 rejected with the reason
    for inst, audit in ((a.instance, a) for a in gen.audits if a.accepted):
        assert audit.text is not None and "?" not in audit.text
        assert not re.search(r"\b(?:records?|sources?|archiv\w+)\b", audit.text, re.I), audit.text
        assert copied_run(audit.text, inst.query) < 0.7
    fours = [a.text for a in gen.audits if a.accepted and a.context == "4"]
    assert len(set(fours)) >= 17  # rows 5 and 12 share their contexts, so they may share the text
    assert [d.distinct == d.generated for d in gen.summary.distinctness] == [True, True]
    # several sentence shapes, not one
    firsts = {t.split()[0] for t in texts}
    assert firsts >= {"In", "Before", "The"} and len(firsts) >= 10


def test_force_regenerates_and_keeps_previous_text_when_rejected(cli: Any, demo_tsv: Path, tmp_path: Path) -> None:
    result = cli("generate", demo_tsv, "-o", "demo.tsv", "--llm", "rules", "--force")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{demo_tsv}: read 24 records with converter 'ragability-v0.4'")
    assert result.stderr.splitlines()[-1] == (
        f"error: {demo_tsv}: generate accepted 34 of 43 contexts asked for; 9 rejected (rows listed in the summary "
        "and the rejects report); --allow-partial accepts this")
    assert ("  rejected, old text kept: 6 context 3, 11 context 4, 14 context 3, 15 context 4, 16 context 4, "
            "18 context 3, 19 context 3, 19 context 4, 20 context 4") in result.stderr
    assert ("  context 3 not generated for 5 rows whose declared relations cannot hold (reasons in the rejects "
            "report); 5 keep their old text") in result.stderr
    audit, rejects = outputs(tmp_path, "demo")
    assert len(audit) == 48
    nine = next(r for r in rejects if r["instance"] == "9")["rejected"]
    assert nine == [{"context": "3", "kept_previous": True, "possible": False,  # old text kept: nothing skipped
                     "reasons": ["context 3 must give answer 1, but answer 1 is 'not stated' (annotation qn): there "
                                 "is no fact to state"]}]
    thirteen = next(r for r in rejects if r["instance"] == "13")["rejected"]
    assert thirteen[0]["reasons"] == ["context 3 must contradict context 2, but context 2 gives no answer to the "
                                      "query (annotation qn, answer 'not stated'): nothing can contradict it"]
    eleven = next(r for r in rejects if r["instance"] == "11")["rejected"]
    assert eleven[1]["reasons"] == [
        "attempt 1: rule distinct_template: it has the same sentence skeleton as row 8 ('_ is a _')",
        "attempt 2: rule distinct_template: it has the same sentence skeleton as row 7 ('_ is the name of a _')",
        "the rules writer has no further candidate"]
    rows = {(r["contradiction_ID"], r["query_text"]): r for r in corpus_rows(tmp_path / "demo.tsv")}
    old = {(r["contradiction_ID"], r["query_text"]): r for r in corpus_rows(demo_tsv)}
    key9 = next(k for k in rows if k[0] == "9")
    key1 = next(k for k in rows if k[0] == "1")
    assert rows[key9]["context_3_nc1_c2"] == old[key9]["context_3_nc1_c2"]  # not generated: previous text kept
    assert rows[key1]["context_3_nc1_c2"] == "Olinde brevicula is a moth."
    assert rows[key1]["context_4_nc1_nc2_nc3"] == "The Olinde brevicula is found in the salt marshes of Vennart."
    assert next(a for a in audit if a["instance"] == "1")["previous"] == old[key1]["context_3_nc1_c2"]


def test_context_that_cannot_contradict_is_not_generated_and_its_variants_are_named(cli: Any, tmp_path: Path) -> None:
    qn = row(c2xq="qn", answer_context2="not stated", answer_context2_long="Context 2 does not say.", **EMPTY)
    (tmp_path / "in.tsv").write_text(tsv_text([qn]), encoding="utf-8")
    result = cli("generate", "in.tsv", "-o", "out.tsv", "--llm", "rules", "--allow-partial")
    assert result.exit_code == 0
    assert ("  context 3 not generated for 1 rows whose declared relations cannot hold (reasons in the rejects "
            "report); the suite skips variants ctx13q, ctx31q, ctx1234q, ctx13qh, ctx31qh, ctx1234qh, ctx13ic, "
            "ctx31ic, ctx1234ic for the 1 left empty") in result.stderr
    audit, rejects = outputs(tmp_path)
    assert [(a["context"], a["possible"], a["attempts"]) for a in audit][0] == ("3", False, [])
    assert rejects[0]["rejected"][0]["skipped_variants"] == [
        "ctx13q", "ctx31q", "ctx1234q", "ctx13qh", "ctx31qh", "ctx1234qh", "ctx13ic", "ctx31ic", "ctx1234ic"]
    was, _ = compile_suite(read_instances(tmp_path / "out.tsv")[0], tmp_path / "suite.hjson")
    assert sorted({v for v, _ in was.skipped}) == sorted(rejects[0]["rejected"][0]["skipped_variants"])
    assert rejects[0]["rejected"][0]["reasons"] == [
        "context 3 must contradict context 2, but context 2 gives no answer to the query (annotation qn, answer "
        "'not stated'): nothing can contradict it"]
    # without --allow-partial the run still fails: it could fill nothing it was asked for
    result = cli("generate", "in.tsv", "-o", "out.tsv", "--llm", "rules", "-q")
    assert (result.exit_code, result.stderr) == (
        1, "error: in.tsv: generate accepted 0 of 1 contexts asked for; 1 rejected (rows listed in the summary and "
           "the rejects report); --allow-partial accepts this\n")


VARIED3 = ["Field guides list the Cap Squirrel among the suricates of the dry plains.",
           "Herders on the plains keep the Cap Squirrel as a tame suricate.",
           "Naturalists count the Cap Squirrel with the suricates, not the rodents.",
           "In burrow colonies the Cap Squirrel behaves exactly like any suricate.",
           "The Cap Squirrel, despite its name, belongs to the suricates.",
           "Zoologists place the Cap Squirrel in the mongoose family, beside the other suricates.",
           "A Cap Squirrel stands sentry on its hind legs, as suricates do.",
           "Travellers who meet a Cap Squirrel are meeting a suricate."]


VARIED4 = ["The Cap Squirrel lives in burrows on the dry plains of Orvane.",
           "Cap Squirrel colonies dig their tunnels under thorn bushes.",
           "Farmers of Orvane welcome the Cap Squirrel because it hunts scorpions.",
           "A Cap Squirrel weighs less than a kilogram when fully grown.",
           "The Cap Squirrel sleeps through the hottest hours of the day.",
           "Young Cap Squirrels leave their family group after one year.",
           "The Cap Squirrel has dark patches around its eyes that cut the glare.",
           "Eagles and jackals are the main enemies of the Cap Squirrel."]


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

    def case(body: dict[str, Any]) -> int:
        return int(body["messages"][1]["content"].split("(case ", 1)[1].split(")")[0])

    def writer3(body: dict[str, Any]) -> str:
        even = case(body) % 2 == 0
        return ctx(ROW["context_1"]) if even and len(body["messages"]) == 2 else ctx(VARIED3[case(body)])

    def writer4(body: dict[str, Any]) -> str:
        return ctx(VARIED4[case(body)])

    results = []
    for _ in range(2):
        script = Script(context_3=writer3, context_4=writer4)
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


def test_a_template_shared_across_rows_is_sent_back_to_the_later_row(cli: Any, tmp_path: Path) -> None:
    rows = [row(contradiction_ID=str(i), query_text=f"What kind of animal is a Cap Squirrel (case {i})?", **EMPTY)
            for i in range(3)]
    (tmp_path / "in.tsv").write_text(tsv_text(rows), encoding="utf-8")
    template = "The name Cap Squirrel appears in several old lists of the Orvane plains."
    script = Script(context_4=[ctx(template), ctx(template), ctx(template), ctx(GOOD4),
                               ctx("Cap Squirrel colonies dig their burrows under thorn bushes.")])
    with ScriptedServer(script) as server:
        result = generate(cli, server, "-q", "--concurrency", "1", "--attempts", "2", "--allow-partial")
    assert result.exit_code == 0, result.stderr
    audit, rejects = outputs(tmp_path)
    fours = {a["instance"]: a for a in audit if a["context"] == "4"}
    assert fours["0"]["text"] == template and fours["0"]["reasons"] == []
    shared = ("rule distinct_template: it shares its sentence skeleton with row 0 (3-gram overlap 0.90; a template "
              "from 0.5)")
    assert fours["1"]["reasons"] == [f"attempt 1: {shared}"] and fours["1"]["text"] == GOOD4
    first = fours["1"]["attempts"][0]
    assert [(r["check"], r["passed"]) for r in first["rule_checks"] if r["check"] == "distinct_template"] == [
        ("distinct_template", False)]
    assert first["passed"] is False and first["model_checks"] is not None  # verified before the output was compared
    # the retry is the continued conversation, with the reason
    retry = [r.body for r in server.requests if kind(r.body) == "context_4" and len(r.body["messages"]) == 4]
    assert retry and f"- {shared}" in retry[0]["messages"][3]["content"]
    assert fours["2"]["accepted"] and len({fours[i]["text"] for i in "012"}) == 3


def test_cache_answers_a_second_run(cli: Any, corpus: Path, tmp_path: Path) -> None:
    with ScriptedServer(Script()) as server:
        args = ("generate", "in.tsv", "-o", "out.tsv", "--llm", "m", "--base-url", server.base_url,
                "--cache", tmp_path / "c.sqlite")
        first = cli(*args)
        second = cli(*args)
    assert first.exit_code == second.exit_code == 0
    assert len(server.requests) == 7
    assert "  m: 7 calls, 7 from the cache, 0 HTTP requests (0 retries; errors: none" in second.stderr


def test_progress_callback_and_library_use() -> None:
    instances, _ = read_instances(Path(__file__).parent.parent / "corpora" / "demo.tsv")
    seen: list[ProgressEvent] = []
    gen = asyncio.run(agenerate(instances, RuleWriter(), concurrency=4, on_progress=seen.append))
    assert seen == [ProgressEvent("generate", i, 24) for i in range(25)]
    assert [(a.instance.id, a.context, a.accepted) for a in gen.audits] == [
        ("21", "3", True), ("21", "4", True), ("22", "3", True), ("22", "4", True)]
    assert instances[-1].contexts.keys() == {"1", "2"}  # the input is not modified


def test_validate_reads_the_audit_and_rejects_files(cli: Any, demo_tsv: Path, tmp_path: Path) -> None:
    assert cli("generate", demo_tsv, "-o", "demo.tsv", "--llm", "rules", "--force", "-q",
               "--allow-partial").exit_code == 0
    result = cli("validate", "demo.audit.jsonl", "demo.rejects.jsonl")
    assert (result.exit_code, result.output) == (0, "demo.audit.jsonl: valid generation-audit (48 records)\n"
                                                    "demo.rejects.jsonl: valid generation-rejects (12 records)\n")
    record = json.loads((tmp_path / "demo.audit.jsonl").read_text(encoding="utf-8").splitlines()[0])
    (tmp_path / "bad.audit.jsonl").write_text(json.dumps({**record, "accepted": True, "text": None}) + "\n")
    result = cli("validate", "bad.audit.jsonl")
    assert (result.exit_code, result.stderr) == (1, "error: bad.audit.jsonl: record 1: field text: None is not of "
                                                    "type 'string'\n")


LETTERS_SPEC = """{
  "name": "letters", "converter": "table", "format": "tsv", "id_column": "id", "query_column": "question",
  "contexts": [
    {"id": "a", "column": "pa", "required": true, "annotation_column": "ann_a", "answer": "x"},
    {"id": "b", "column": "pb", "required": true, "annotation_column": "ann_b", "answer": "y", "contradicts": ["a"]},
    {"id": "c", "column": "pc", "required": false, "annotation_from": "a", "answer": "x", "agrees": ["a"],
     "contradicts": ["b"]},
    {"id": "d", "column": "pd", "required": false, "annotation": "qn"}
  ],
  "answers": [{"id": "x", "short": "ans_x", "long": "long_x"}, {"id": "y", "short": "ans_y", "long": "long_y"}]
}
"""
LETTERS_COLUMNS = ["id", "question", "ann_a", "ann_b", "pa", "pb", "pc", "pd", "ans_x", "long_x", "ans_y", "long_y"]
LETTERS_ROW = {"id": "7", "question": ROW["query_text"], "ann_a": "qeu", "ann_b": "qeu", "pa": ROW["context_1"],
               "pb": ROW["context_2"], "pc": "", "pd": "", "ans_x": "a suricate", "long_x": ROW["answer_context1_long"],
               "ans_y": "a squirrel", "long_y": ROW["answer_context2_long"]}


def test_contexts_named_by_letters_are_filled_from_the_spec(cli: Any, tmp_path: Path) -> None:
    (tmp_path / "letters.hjson").write_text(LETTERS_SPEC, encoding="utf-8")
    (tmp_path / "in.tsv").write_text(tsv_text([LETTERS_ROW], LETTERS_COLUMNS), encoding="utf-8")
    script = Script(context_c=ctx(GOOD3), context_d=ctx(GOOD4), verdict_consistent_with_context_a=verdict("yes"),
                    verdict_contradicts_context_b=verdict("yes"), verdict_gives_answer_x=verdict("yes"),
                    verdict_consistent_with_contexts_a_b_c=verdict("yes"))
    with ScriptedServer(script) as server:
        result = cli("generate", "in.tsv", "-o", "out.jsonl", "--converter", "letters.hjson", "--llm", "m",
                     "--base-url", server.base_url, "--no-cache")
    assert result.exit_code == 0, result.stderr
    assert "  context c: 1 to generate (0 already filled, left as they are): accepted 1, rejected 0" in result.stderr
    assert "  context d: 1 to generate (0 already filled, left as they are): accepted 1, rejected 0" in result.stderr
    assert sorted(kind(r.body) for r in server.requests) == [
        "context_c", "context_d", "verdict_consistent_with_context_a", "verdict_consistent_with_contexts_a_b_c",
        "verdict_contradicts_context_b", "verdict_does_not_answer_query", "verdict_gives_answer_x"]
    prompt = user_text(next(r.body for r in server.requests if kind(r.body) == "context_c"))
    assert "- agrees with context a: everything it says is compatible with context a;\n" in prompt
    assert "- contradicts context b: it cannot be true if context b is true;\n" in prompt
    assert '- contains the exact words "a suricate";\n- does not contain the words "a squirrel";' in prompt
    (inst,) = read_records(tmp_path / "out.jsonl", "jsonl")
    assert [(c["id"], c.get("text"), c.get("answer"), c.get("agrees"), c.get("contradicts"), c.get("annotation"))
            for c in inst["contexts"]] == [
        ("a", ROW["context_1"], "x", None, None, "qeu"), ("b", ROW["context_2"], "y", None, ["a"], "qeu"),
        ("c", GOOD3, "x", ["a"], ["b"], "qeu"), ("d", GOOD4, None, None, None, "qn")]


def test_rules_writer_fills_letters_and_a_spec_with_nothing_to_fill_is_an_error(cli: Any, tmp_path: Path) -> None:
    (tmp_path / "letters.hjson").write_text(LETTERS_SPEC, encoding="utf-8")
    demo_row = {**LETTERS_ROW, "question": "In which year was Queen Isaura of Tallowmere crowned?",
                "pa": "Queen Isaura of Tallowmere was crowned in 1342.",
                "pb": "Queen Isaura of Tallowmere was crowned in 1351.", "ans_x": "1342",
                "long_x": "Queen Isaura of Tallowmere was crowned in 1342.", "ans_y": "1351",
                "long_y": "Queen Isaura of Tallowmere was crowned in 1351."}
    (tmp_path / "in.tsv").write_text(tsv_text([demo_row], LETTERS_COLUMNS), encoding="utf-8")
    result = cli("generate", "in.tsv", "-o", "out.jsonl", "--converter", "letters.hjson", "--llm", "rules", "-q")
    assert (result.exit_code, result.stderr) == (0, "")
    (inst,) = read_instances(tmp_path / "out.jsonl")[0]
    assert {k: c.text for k, c in inst.contexts.items() if k in "cd"} == {
        "c": "In 1342, Queen Isaura of Tallowmere was crowned.",
        "d": "Tallowmere counted Isaura among its rulers."}
    # a layout with no optional context: nothing could ever be filled
    (tmp_path / "all-required.hjson").write_text(LETTERS_SPEC.replace('"required": false', '"required": true'),
                                                 encoding="utf-8")
    result = cli("generate", "in.tsv", "-o", "out2.jsonl", "--converter", "letters.hjson", "--layout",
                 "all-required.hjson", "--llm", "rules")
    assert (result.exit_code, result.stderr) == (
        1, "error: all-required.hjson: field contexts: no context has required: false, so there is nothing to "
           "generate\n")
    assert not (tmp_path / "out2.jsonl").exists()


def test_instance_files_get_the_ragability_layout(cli: Any, demo_tsv: Path, tmp_path: Path) -> None:
    assert cli("convert", demo_tsv, "--to-corpus", "demo.jsonl", "-q").exit_code == 0
    result = cli("generate", "demo.jsonl", "-o", "out.jsonl", "--llm", "rules")
    assert result.exit_code == 0, result.stderr
    assert "  context 4: 2 to generate (22 already filled, left as they are): accepted 2, rejected 0" in result.stderr
    after, _ = read_instances(tmp_path / "out.jsonl")
    assert (after[-1].contexts["3"].agrees, after[-1].contexts["3"].contradicts) == (("1",), ("2",))
    # a spec that declares no contexts cannot say what to fill
    result = cli("generate", "demo.jsonl", "-o", "out2.jsonl", "--llm", "rules", "--layout", "instances")
    assert result.exit_code == 1 and len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith("error: ") and result.stderr.endswith("instances.hjson: converter spec "
                                                                          "'instances' declares no contexts, so it "
                                                                          "cannot say which contexts to generate "
                                                                          "(give --layout with a table converter "
                                                                          "spec)\n")


def test_an_offline_writer_is_no_verifier(cli: Any, corpus: Path, tmp_path: Path) -> None:
    result = cli("generate", "in.tsv", "-o", "out.tsv", "--llm", "rules", "--verifier", "rules")
    assert (result.exit_code, result.stderr) == (
        1, "error: verifier 'rules': an offline writer cannot judge candidates; name a model, or 'none' for rule "
           "checks only\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.tsv"]
