"""The run stage (query, check) through the CLI against a scripted OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from ragability_gen.core.fileio import read_records
from ragability_gen.core.resources import data_dir
from ragability_gen.core.specs import load_prompts
from ragability_gen.errors import SpecError
from ragability_gen.llm.testing import FAULT_KINDS, Reply, ScriptedServer, faulty, user_text
from ragability_gen.run.core import Journal, fill_checker_prompt, fill_testee_prompt


@pytest.fixture
def suite(cli: Any, demo_tsv: Path, tmp_path: Path) -> Path:
    assert cli("convert", demo_tsv, "-o", tmp_path / "demo.hjson", "-q").exit_code == 0
    return tmp_path / "demo.hjson"


@pytest.fixture
def small_suite(suite: Path, tmp_path: Path) -> Path:
    """The first 120 items of the demo suite, beside its prompt file."""
    items = read_records(suite)[:120]
    path = tmp_path / "small.jsonl"
    path.write_text("".join(json.dumps(it) + "\n" for it in items))
    (tmp_path / "small.prompts.hjson").write_bytes((tmp_path / "demo.prompts.hjson").read_bytes())
    return path


PROMPTS = {p["pid"]: p for p in load_prompts(data_dir("checks") / "ragability-prompts.hjson")}


def distinct_prompts(suite: Path) -> int:
    prompts = {p["pid"]: p for p in read_records(suite.with_name(suite.name.split(".")[0] + ".prompts.hjson"))}
    return len({json.dumps(fill_testee_prompt(prompts[pid], it.get("facts"), it["query"]))
                for it in read_records(suite) for pid in it["pids"]})


def scripted_testee(body: dict[str, Any]) -> str:
    """Deterministic replies: yes to identification prompts, otherwise an echo of the question."""
    text = user_text(body)
    return "Yes." if "Answer yes or no." in text else "It says: " + text.rsplit("Question: ", 1)[-1]


def keys(records: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    return [(r["qid"], r["pid"], r["llm"]) for r in records]


def test_testee_prompt_filling() -> None:
    prompt = {"pid": "p", "system": "Be careful.", "user": "Passages:\n${facts}Question: ${query}",
              "fact": "[${n}] ${fact}\n"}
    assert fill_testee_prompt(prompt, ["A is red.", "A is blue."], "What colour is A?") == [
        {"role": "system", "content": "Be careful."},
        {"role": "user", "content": "Passages:\n[1] A is red.\n[2] A is blue.\nQuestion: What colour is A?"}]
    # no fact template: facts joined by newlines; a single fact may be a string
    assert fill_testee_prompt({"pid": "p", "user": "${facts}|${query}"}, "A is red.", "Q?") == [
        {"role": "user", "content": "A is red.|Q?"}]
    checker = {"pid": "c", "user": "R: ${answer} E: ${check_for} Q: ${query}"}
    assert fill_checker_prompt(checker, "red", "blue", "q") == [{"role": "user", "content": "R: red E: blue Q: q"}]


def test_query_then_check(cli: Any, suite: Path, tmp_path: Path) -> None:
    with ScriptedServer(scripted_testee) as server:
        r = cli("query", suite, "-o", tmp_path / "res.jsonl", "--llm", "local/a", "--llm", "local/b",
                "--base-url", server.base_url)
        assert r.exit_code == 0, r.output
        # identical prompts (same facts and query in two items) are sent once and answered from the cache
        sent = {json.dumps(rq.body, sort_keys=True) for rq in server.requests}
        assert len(sent) == len(server.requests)
        hits = sum(int(n) for n in re.findall(r"(\d+) from the cache", r.output))
        results = read_records(tmp_path / "res.jsonl")
        items = read_records(suite)
        distinct = distinct_prompts(suite)
        assert len(server.requests) == 2 * distinct and hits == 2 * (462 - distinct) > 0
        # python-ragability's order: LLM, item, prompt id; every item field kept
        assert keys(results) == [(it["qid"], pid, llm) for llm in ("local/a", "local/b") for it in items
                                 for pid in it["pids"]]
        first = results[1]
        assert {k: first[k] for k in items[1]} == items[1]
        assert (first["response"], first["error"], first["cost"]) == (
            "It says: What kind of insect is Olinde brevicula?", "", 0.0)
        assert any(rq.body["messages"][1]["content"] == "Passages:\n[1] The Olinde brevicula is a moth native to the "
                   "salt marshes of Vennart.\n\nQuestion: What kind of insect is Olinde brevicula?"
                   for rq in server.requests)
        assert not (tmp_path / "res.jsonl.partial").exists()
        assert r.output.splitlines()[0] == "462 records, 924 jobs: 0 done by an earlier run, 924 done now"

        def checker(body: dict[str, Any]) -> str:
            return "Maybe." if "RESPONSE: Yes." in user_text(body) else "**No**, it does not."

        server.responder = checker
        r = cli("check", tmp_path / "res.jsonl", "-o", tmp_path / "checked.hjson", "--checker", "local/c",
                "--base-url", server.base_url, "--prompts", tmp_path / "demo.prompts.hjson")
    assert r.exit_code == 0, r.output
    checked = read_records(tmp_path / "checked.hjson")
    assert keys(checked) == keys(results)
    outcomes = Counter((c["func"], "pid" in c, c["result"], c["error"].split(":")[0]) for rec in checked
                       for c in rec["checks"])
    # checks with a prompt went to the checker ("**No**" read as no); the identification checks read the
    # testee's "Yes." directly
    assert outcomes == Counter({("affirmative", True, "0", ""): 600, ("negative", False, "0", ""): 184,
                                ("affirmative", False, "1", ""): 140})
    sent = [c for rec in checked for c in rec["checks"] if "pid" in c][0]
    assert (sent["response"], sent["llm"]) == ("**No**, it does not.", "local/c")
    assert "  errors:" not in r.output


def test_check_errors_are_counted_never_silent(cli: Any, small_suite: Path, tmp_path: Path) -> None:
    def testee_some_fail(body: dict[str, Any]) -> Reply | str:
        text = user_text(body)
        if "Olinde" in text:
            return Reply(status=400, body='{"error": {"message": "context too long"}}')
        return "Perhaps." if "Answer yes or no." in text else "An answer."

    with ScriptedServer(testee_some_fail) as server:
        cli("query", small_suite, "-o", tmp_path / "res.hjson", "--llm", "local/a", "--base-url", server.base_url, "-q")
        server.responder = lambda body: Reply(status=500, headers={"retry-after-ms": "1"}) \
            if "An answer." in user_text(body) else "yes"
        r = cli("check", tmp_path / "res.hjson", "-o", tmp_path / "checked.jsonl", "--checker", "local/c",
                "--base-url", server.base_url, "--config", tmp_path / "none.hjson")
        assert r.exit_code == 1  # a config that does not exist is an error, not ignored
        r = cli("check", tmp_path / "res.hjson", "-o", tmp_path / "checked.jsonl", "--checker", "local/c",
                "--base-url", server.base_url)
        why = "needed, but there is no res.prompts.hjson beside it: give the prompt file with --prompts"
        assert (r.exit_code, r.output) == (1, f"error: {tmp_path / 'res.hjson'}: item 1 and 41 more: prompt "
                                              f"'check_response_not_answerable' {why}\n"
                                              f"error: {tmp_path / 'res.hjson'}: item 2 and 35 more: prompt "
                                              f"'check_correct_answer' {why}\n")
        cfg = tmp_path / "checker.hjson"
        cfg.write_text(f'{{llms: [{{llm: "local/c", api_url: "{server.base_url}", max_retries: 1}}]}}')
        r = cli("check", tmp_path / "res.hjson", "-o", tmp_path / "checked.jsonl", "--config", cfg,
                "--prompts", tmp_path / "demo.prompts.hjson")
    assert r.exit_code == 0, r.output
    checked = read_records(tmp_path / "checked.jsonl")
    errors = Counter(c["error"].split(":")[0] if c["error"] else "" for rec in checked for c in rec["checks"])
    failed_testee = sum(1 for rec in checked if rec["error"])
    assert failed_testee == 20  # the items about Olinde brevicula
    assert all(c["result"] is None for rec in checked for c in rec["checks"] if c["error"])
    assert errors["no response to check"] == failed_testee
    assert errors["affirmative"] + errors["negative"] > 0  # "Perhaps." is neither yes nor no
    assert errors["local/c"] > 0  # the checker failed after its retries
    assert "  errors: " in r.output and "unreadable responses" in r.output and "checker requests failed" in r.output


def test_flaky_server_loses_and_duplicates_nothing(cli: Any, small_suite: Path, tmp_path: Path) -> None:
    """Every kind of fault real endpoints send, on 20% of requests: each is retried and counted, none is an answer.

    No timing is involved: the server's fault schedule is seeded and the counts are exact.
    """
    cfg = tmp_path / "llm.hjson"
    responder = faulty(scripted_testee, 0.2, seed=3)
    with ScriptedServer(responder) as server:
        cfg.write_text(f'{{llms: [{{llm: "local/a", api_url: "{server.base_url}", max_retries: 12}}]}}')
        r = cli("query", small_suite, "-o", tmp_path / "res.jsonl", "--config", cfg, "--concurrency", "32")
    assert r.exit_code == 0, r.output
    results = read_records(tmp_path / "res.jsonl")
    items = read_records(small_suite)
    assert keys(results) == [(it["qid"], pid, "local/a") for it in items for pid in it["pids"]]
    assert all(rec["error"] == "" and rec["response"] == scripted_testee(
        {"messages": fill_testee_prompt(PROMPTS[rec["pid"]], rec.get("facts"), rec["query"])}) for rec in results)
    injected = responder.injected  # type: ignore[attr-defined]
    assert set(injected) == set(FAULT_KINDS)  # every kind was injected at least once
    m = re.search(r"(\d+) HTTP requests \((\d+) retries; errors: (\d+)x429, (\d+)x500, (\d+) unanswered, "
                  r"(\d+) without an answer\), (\d+) failed", r.output)
    assert m, r.output
    sent, retries, e429, e500, unanswered, no_answer, failed = map(int, m.groups())
    assert sent == len(server.requests) == distinct_prompts(small_suite) + sum(injected.values())
    assert retries == sum(injected.values()) and failed == 0
    assert (e429, e500, unanswered) == (injected["429"], injected["500"], injected["reset"])
    assert no_answer == sum(n for k, n in injected.items() if k not in ("429", "500", "reset"))


def test_a_timed_out_request_is_retried(cli: Any, small_suite: Path, tmp_path: Path) -> None:
    """The server holds the first request until the test ends; the client gives up on it and asks again."""
    release = threading.Event()
    held: list[int] = []

    def respond(body: dict[str, Any]) -> Reply | str:
        if not held:
            held.append(1)
            release.wait(60)  # answers only after the client has given up on it
        return scripted_testee(body)

    one = tmp_path / "one.jsonl"
    one.write_text(json.dumps(read_records(small_suite)[0]) + "\n")
    (tmp_path / "one.prompts.hjson").write_bytes((tmp_path / "demo.prompts.hjson").read_bytes())
    with ScriptedServer(respond) as server:
        r = cli("query", one, "-o", tmp_path / "res.jsonl", "--llm", "local/a", "--base-url", server.base_url,
                "--timeout", "1")
        release.set()
    assert r.exit_code == 0, r.output
    assert read_records(tmp_path / "res.jsonl")[0]["error"] == ""
    assert "2 HTTP requests (1 retries; errors: none, 1 unanswered, 0 without an answer), 0 failed" in r.output


def test_interrupted_run_resumes_without_loss_or_duplicates(small_suite: Path, tmp_path: Path) -> None:
    """The client is killed while the server provably holds its 50th request and every later one (no timing)."""
    held, go, count = threading.Event(), threading.Event(), [0]
    lock = threading.Lock()

    def gated(body: dict[str, Any]) -> str:
        with lock:
            count[0] += 1
            mine = count[0] >= 50
        if mine:
            held.set()
            go.wait(120)
        return scripted_testee(body)

    def run(out: Path) -> subprocess.Popen[bytes]:
        cmd = [sys.executable, "-m", "ragability_gen.cli", "query", str(small_suite), "-o", str(out),
               "--llm", "local/a", "--base-url", server.base_url, "--no-cache", "--concurrency", "4", "-q"]
        return subprocess.Popen(cmd, stderr=subprocess.PIPE)

    with ScriptedServer(scripted_testee) as server:
        assert run(tmp_path / "whole.hjson").wait(120) == 0
        before = len(server.requests)
        server.responder = gated
        proc = run(tmp_path / "cut.hjson")
        journal = tmp_path / "cut.hjson.partial"
        try:
            assert held.wait(120), "the run never sent its 50th request"
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(60)
        finally:
            go.set()
        done_before = journal.read_bytes().count(b"\n") - 1
        # 49 answered; at most 8 jobs run at once (2 x concurrency), so at least 42 were journalled
        assert 42 <= done_before <= 49 and not (tmp_path / "cut.hjson").exists()
        after_kill = len(server.requests)
        server.responder = scripted_testee
        second = run(tmp_path / "cut.hjson")
        assert second.wait(120) == 0, second.stderr.read() if second.stderr else ""
        resent = len(server.requests) - after_kill
    assert (tmp_path / "cut.hjson").read_bytes() == (tmp_path / "whole.hjson").read_bytes()
    assert not journal.exists()
    assert after_kill - before >= 50  # the killed run got as far as the held request
    assert resent == 120 - done_before  # the restart asks exactly what the journal lacks


def test_api_key_never_written(cli: Any, suite: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = "sk-live-THE-SECRET-42"
    monkeypatch.setenv("TEST_LLM_KEY", secret)
    cache = tmp_path / "cache.sqlite"

    def respond(body: dict[str, Any]) -> Reply | str:
        if "Olinde" in user_text(body):  # an endpoint that repeats the key in an error message
            return Reply(status=400, body='{"error": {"message": "bad request for key ' + secret + '"}}')
        return scripted_testee(body)

    with ScriptedServer(respond) as server:
        r = cli("query", suite, "-o", tmp_path / "res.jsonl", "--llm", "local/a", "--base-url", server.base_url,
                "--api-key-env", "TEST_LLM_KEY", "--cache", cache)
        assert r.exit_code == 0
        r2 = cli("check", tmp_path / "res.jsonl", "-o", tmp_path / "chk.jsonl", "--checker", "local/a",
                 "--base-url", server.base_url, "--api-key-env", "TEST_LLM_KEY", "--cache", cache)
    assert all(rq.headers["authorization"] == f"Bearer {secret}" for rq in server.requests)
    assert "bad request for key ***" in (tmp_path / "res.jsonl").read_text()
    for f in tmp_path.iterdir():
        assert secret.encode() not in f.read_bytes(), f
    assert secret not in r.output + r2.output


def test_bad_input(cli: Any, suite: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOT_SET_KEY", raising=False)
    out = tmp_path / "res.jsonl"
    r = cli("query", suite, "-o", out, "--llm", "local/a", "--base-url", "http://127.0.0.1:9/v1",
            "--api-key-env", "NOT_SET_KEY")
    assert (r.exit_code, r.output) == (1, "error: local/a: the API key variable NOT_SET_KEY is not set in the "
                                          "environment\n")
    assert not out.exists() and not Path(f"{out}.partial").exists() and not Path(f"{out}.lock").exists()
    r = cli("query", suite, "-o", out, "--llm", "mymodel")
    assert r.exit_code == 1 and r.output.startswith("error: mymodel: no endpoint: give --base-url")
    r = cli("query", suite, "-o", out)
    assert (r.exit_code, r.output) == (1, "error: no model given: use --llm MODEL or --config FILE\n")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"qid": "a", "query": "q?", "pids": ["nope"], "checks": []}\n{"qid": "a", "query": 3}\n')
    r = cli("query", bad, "-o", out, "--llm", "local/a", "--base-url", "http://127.0.0.1:9/v1",
            "--prompts", tmp_path / "demo.prompts.hjson")
    assert r.exit_code == 1
    assert r.output.splitlines() == [  # the repeated qid is no problem (it would run as a#2)
        f"error: {bad}: item 2: field query: 3 is not of type 'string'",
        f"error: {bad}: item 1: prompt 'nope' not in demo.prompts.hjson",
    ]
    r = cli("check", suite, "-o", out, "--checker", "local/a", "--base-url", "http://127.0.0.1:9/v1")
    assert r.exit_code == 1
    assert r.output.splitlines()[0] == (f"error: {suite}: item 1: field pid: missing or not a string "
                                        "(is this a query results file?)")
    assert not out.exists()


@pytest.mark.remote
@pytest.mark.skipif(not os.environ.get("OPENAI_API_KEY"), reason="needs OPENAI_API_KEY")
def test_real_remote_model(cli: Any, small_suite: Path, tmp_path: Path) -> None:
    items = read_records(small_suite)[:3]
    one = tmp_path / "one.jsonl"
    one.write_text("".join(json.dumps(it) + "\n" for it in items))
    (tmp_path / "one.prompts.hjson").write_bytes((tmp_path / "demo.prompts.hjson").read_bytes())
    r = cli("query", one, "-o", tmp_path / "res.jsonl", "--llm", "openai/gpt-4o-mini", "--temperature", "0")
    assert r.exit_code == 0, r.output
    results = read_records(tmp_path / "res.jsonl")
    assert len(results) == 3 and all(rec["response"] and not rec["error"] for rec in results)


def test_journal_drops_a_cut_line_and_refuses_other_inputs(tmp_path: Path) -> None:
    path = tmp_path / "out.jsonl.partial"
    journal = Journal(path, {"suite": "a" * 64})
    journal.append({"qid": "q1", "pid": "p", "llm": "m", "response": "r1", "error": "", "cost": 0.0})
    journal.append({"qid": "q2", "pid": "p", "llm": "m", "response": "", "error": "HTTP 500", "cost": 0.0,
                    "failed": True})
    journal.close()
    with open(path, "ab") as fh:
        fh.write(b'{"qid": "q3", "pid": "p", "ll')  # a kill in mid-write
    again = Journal(path, {"suite": "a" * 64})
    assert again.done(("q1", "p", "m")) and not again.done(("q2", "p", "m")) and not again.done(("q3", "p", "m"))
    assert again.get(("q1", "p", "m"))["response"] == "r1"
    again.append({"qid": "q3", "pid": "p", "llm": "m", "response": "r3", "error": "", "cost": 0.0})
    assert again.get(("q3", "p", "m"))["response"] == "r3"
    again.close()
    assert path.read_bytes().count(b"\n") == 4  # header, q1, q2, q3: the cut line is gone
    with pytest.raises(SpecError) as e:
        Journal(path, {"suite": "b" * 64})
    assert e.value.problems == [f"{path}: left by an unfinished run over other inputs or settings: suite (the file "
                                "changed); run the same command as before to finish it, or add --restart to "
                                "discard it and start over"]


def test_check_reads_python_ragability_query_output(cli: Any, small_suite: Path, tmp_path: Path) -> None:
    """python-ragability writes hjson results as hjson.dumps records between brackets, without commas."""
    import hjson

    items = read_records(small_suite)[:5]
    results = tmp_path / "theirs.hjson"
    with open(results, "w", encoding="utf-8") as fh:
        fh.write("[\n")
        for it in items:
            rec = {**it, "response": "Yes.", "error": "", "pid": it["pids"][0], "llm": "openai/gpt-4o", "cost": 0.001}
            fh.write(hjson.dumps(rec, indent=2) + "\n")
        fh.write("]\n")
    with ScriptedServer(lambda body: "yes") as server:
        r = cli("check", results, "-o", tmp_path / "checked.hjson", "--checker", "local/c", "--base-url",
                server.base_url, "--prompts", tmp_path / "demo.prompts.hjson", "-q")
    assert r.exit_code == 0, r.output
    checked = read_records(tmp_path / "checked.hjson")
    assert [(c["qid"], c["llm"], c["cost"]) for c in checked] == [(it["qid"], "openai/gpt-4o", 0.001) for it in items]
    assert all(ck["result"] == "1" and ck["error"] == "" for c in checked for ck in c["checks"])


def test_refused_credentials_stop_the_run_and_keep_the_journal(cli: Any, small_suite: Path, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEST_LLM_KEY", "sk-wrong")
    calls = []

    def respond(body: dict[str, Any]) -> Reply | str:
        calls.append(1)
        if len(calls) > 30:
            return Reply(status=401, body='{"error": {"message": "invalid api key"}}')
        return scripted_testee(body)

    out = tmp_path / "res.jsonl"
    with ScriptedServer(respond) as server:
        r = cli("query", small_suite, "-o", out, "--llm", "local/a", "--base-url", server.base_url,
                "--api-key-env", "TEST_LLM_KEY", "--concurrency", "1", "--no-cache")
    assert (r.exit_code, r.output) == (1, "error: local/a: HTTP 401: invalid api key\n"
                                          f"error: 30 results are kept in {out}.partial; run the same command "
                                          "again to resume\n")
    assert not out.exists()
    journal = tmp_path / "res.jsonl.partial"
    assert journal.read_bytes().count(b"\n") == 1 + 30  # the results before the refusal are kept for a restart


def test_python_ragability_config_in_yaml_with_llms_wrapper_settings_and_prompts(cli: Any, tmp_path: Path) -> None:
    suite = tmp_path / "two.jsonl"
    suite.write_text("".join(json.dumps({"qid": f"q{i}", "query": f"Question {i}?", "pids": ["cfg_q"], "checks": []})
                             + "\n" for i in (1, 2)))
    cfg = tmp_path / "exp.yaml"
    with ScriptedServer(lambda body: "an answer") as server:
        cfg.write_text(f"""
llms:
  - llm: local/a
    alias: smol
    api_base: {server.base_url}
    max_output_tokens: 50
    max_input_tokens: 4000
    via_streaming: true
    user_env: SOME_USER
    password_env: SOME_PASSWORD
prompts:
  - pid: cfg_q
    user: "Q: ${{query}}"
""")
        r = cli("query", suite, "-o", tmp_path / "res.jsonl", "--config", cfg, "-q")
    assert r.exit_code == 0, r.output
    where = f"{cfg}: llms/0 (smol)"
    assert r.output.splitlines() == [
        f"warning: {where}: max_input_tokens has no effect: prompts are sent whole; an endpoint that finds one too "
        "long answers with an error",
        f"warning: {where}: via_streaming has no effect: replies are read whole, not streamed",
        f"warning: {where}: user_env has no effect: this tool sends no user name (only an API key, from api_key_env)",
        f"warning: {where}: password_env has no effect: this tool sends no password (only an API key, from "
        "api_key_env)",
    ]
    assert sorted(rq.body["messages"][0]["content"] for rq in server.requests) == ["Q: Question 1?", "Q: Question 2?"]
    assert {rq.body["max_tokens"] for rq in server.requests} == {50}
    assert [(rec["llm"], rec["response"]) for rec in read_records(tmp_path / "res.jsonl")] == [
        ("smol", "an answer"), ("smol", "an answer")]
    cfg.write_text("llms:\n  - llm: local/a\n    api_base: [unclosed\n")
    r = cli("query", suite, "-o", tmp_path / "res.jsonl", "--config", cfg)
    assert (r.exit_code, r.output) == (1, f"error: {cfg}: line 4, column 1: expected ',' or ']', but got '<stream "
                                          "end>'\n")
