"""The run stage under real faults: every result is right or visibly an error, never silently wrong.

Each test reproduces a failure seen against a misbehaving endpoint. Concurrency is made deterministic
by a gate: the scripted server holds one request until the test says go, so a second process provably
starts while the first one holds the output. Nothing waits on wall-clock time except generous timeouts.
"""

from __future__ import annotations

import json
import resource
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from ragability_gen.core.fileio import read_records
from ragability_gen.core.resources import data_dir
from ragability_gen.core.specs import load_prompts
from ragability_gen.llm.testing import NO_ANSWER_FAULTS, Reply, Responder, ScriptedServer, user_text
from ragability_gen.run.core import EMPTY_ANSWER_NOTE, fill_testee_prompt

PROMPTS = {p["pid"]: p for p in load_prompts(data_dir("checks") / "ragability-prompts.hjson")}


@pytest.fixture
def suite(cli: Any, demo_tsv: Path, tmp_path: Path) -> Path:
    """The first 40 items of the demo suite, beside its prompt file."""
    assert cli("convert", demo_tsv, "-o", tmp_path / "demo.hjson", "-q").exit_code == 0
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(it) + "\n" for it in read_records(tmp_path / "demo.hjson")[:40]))
    (tmp_path / "s.prompts.hjson").write_bytes((tmp_path / "demo.prompts.hjson").read_bytes())
    return path


def answer(body: dict[str, Any]) -> str:
    text = user_text(body)
    return "Yes." if "Answer yes or no." in text else "It says: " + text.rsplit("Question: ", 1)[-1]


def text_of(suite: Path, n: int) -> str:
    """The user message the n-th item (1-based) of a suite is sent with."""
    item = read_records(suite)[n - 1]
    return fill_testee_prompt(PROMPTS[item["pids"][0]], item.get("facts"), item["query"])[-1]["content"]


def failing(suite: Path, n: int, fault: Responder | Reply, then: Responder = answer) -> Responder:
    """A responder that answers item ``n`` with ``fault`` (a Reply, or a function of the body)."""
    target = text_of(suite, n)

    def respond(body: dict[str, Any]) -> Reply | str:
        if user_text(body) == target:
            return fault(body) if callable(fault) else fault
        return then(body)

    return respond


class Gate:
    """Holds the ``n``-th request until ``go`` is set; ``held`` is set once that request has arrived."""

    def __init__(self, n: int, inner: Responder = answer):
        self.n, self.inner, self.count = n, inner, 0
        self.held, self.go = threading.Event(), threading.Event()
        self._lock = threading.Lock()

    def __call__(self, body: dict[str, Any]) -> Reply | str:
        with self._lock:
            self.count += 1
            mine = self.count == self.n
        if mine:
            self.held.set()
            self.go.wait(120)
        return self.inner(body)


_CTRL_C_ON = ("import runpy, signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
              "runpy.run_module('ragability_gen.cli', run_name='__main__', alter_sys=True)")
"""Runs the CLI with Ctrl-C handled as in a terminal, also where the tests themselves run with SIGINT ignored (a
background job of a script, ``nohup``): a child inherits an ignored SIGINT, and Python then never raises
KeyboardInterrupt."""


def cli_process(*args: Any, **kw: Any) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", _CTRL_C_ON, *map(str, args)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **kw)


def config(tmp_path: Path, url: str, **settings: Any) -> Path:
    path = tmp_path / "llm.json"
    path.write_text(json.dumps({"llms": [{"llm": "local/a", "api_url": url, **settings}]}))
    return path


@pytest.mark.parametrize("kind", list(NO_ANSWER_FAULTS))
def test_a_reply_without_an_answer_is_an_error_never_an_empty_answer(cli: Any, suite: Path, tmp_path: Path,
                                                                     kind: str) -> None:
    out, checked = tmp_path / "res.jsonl", tmp_path / "checked.jsonl"
    with ScriptedServer(failing(suite, 3, lambda body: NO_ANSWER_FAULTS[kind]())) as server:
        r = cli("query", suite, "-o", out, "--config", config(tmp_path, server.base_url, max_retries=1),
                "--concurrency", "1")
        assert r.exit_code == 0, r.output
        sent_for_3 = sum(user_text(rq.body) == text_of(suite, 3) for rq in server.requests)
        server.responder = lambda body: "yes"
        assert cli("check", out, "-o", checked, "--checker", "local/c", "--base-url", server.base_url,
                   "--prompts", tmp_path / "s.prompts.hjson", "-q").exit_code == 0
    results = read_records(out)
    assert [bool(rec["error"]) for rec in results] == [i == 2 for i in range(40)]
    why = {"reset": "cannot connect to", "no_choices": "no usable answer after 1 retries: the reply has no choices"}
    assert why.get(kind, "no usable answer after 1 retries: ") in results[2]["error"]
    assert results[2]["response"] == "" and sent_for_3 == 2  # asked, retried once, then an error
    assert "  errors: 1 testee requests failed" in r.output
    ev = cli("eval", checked, "-o", tmp_path / "report")
    n_checks = len(results[2]["checks"])
    assert f"{n_checks} query errors" in ev.output.splitlines()[0]


def test_a_restart_retries_a_reply_without_an_answer(cli: Any, suite: Path, tmp_path: Path) -> None:
    out = tmp_path / "res.jsonl"
    stop = failing(suite, 5, Reply(status=401, body='{"error": {"message": "key revoked"}}'))
    with ScriptedServer(failing(suite, 2, Reply(null_content=True, finish_reason="content_filter"), stop)) as server:
        r = cli("query", suite, "-o", out, "--config", config(tmp_path, server.base_url, max_retries=0),
                "--concurrency", "1")
        assert r.exit_code == 1
        journal = [json.loads(line) for line in (tmp_path / "res.jsonl.partial").read_text().splitlines()[1:]]
        assert [(j["error"] != "", j.get("failed", False)) for j in journal] == [
            (False, False), (True, True), (False, False), (False, False)]
        server.responder = answer
        r = cli("query", suite, "-o", out, "--config", config(tmp_path, server.base_url, max_retries=0),
                "--concurrency", "1")
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[0] == "40 records, 40 jobs: 3 done by an earlier run, 37 done now"
    assert all(rec["error"] == "" and rec["response"] for rec in read_records(out))


def test_an_empty_answer_with_finish_reason_stop_is_an_answer_and_says_so(cli: Any, suite: Path,
                                                                         tmp_path: Path) -> None:
    out = tmp_path / "res.jsonl"
    with ScriptedServer(failing(suite, 4, Reply("", finish_reason="stop"))) as server:
        r = cli("query", suite, "-o", out, "--llm", "local/a", "--base-url", server.base_url)
    assert r.exit_code == 0, r.output
    rec = read_records(out)[3]
    assert (rec["response"], rec["error"], rec["note"]) == ("", "", EMPTY_ANSWER_NOTE)
    noted = [rec for rec in read_records(out) if "note" in rec]  # item 4 and any item asked the same prompt
    assert all(rec["response"] == "" for rec in noted)
    assert all(rec["response"] for rec in read_records(out) if "note" not in rec)
    assert f'  {len(noted)} empty answers: the model returned "" and said it had finished; recorded as answers, ' \
        "with a note" in r.output


@pytest.mark.parametrize("command", ["query", "check"])
def test_a_second_run_on_the_same_output_is_refused_at_once(cli: Any, suite: Path, tmp_path: Path,
                                                            command: str) -> None:
    gate = Gate(3)
    with ScriptedServer(answer) as server:
        res = tmp_path / "res.jsonl"
        assert cli("query", suite, "-o", res, "--llm", "local/a", "--base-url", server.base_url, "-q").exit_code == 0
        inp, out = (suite, tmp_path / "out.jsonl") if command == "query" else (res, tmp_path / "chk.jsonl")
        model = "--llm" if command == "query" else "--checker"
        args = [command, inp, model, "local/b", "--base-url", server.base_url, "--no-cache", "-q",
                "--prompts", tmp_path / "s.prompts.hjson"]
        server.responder = gate
        first = cli_process(*args, "-o", out, "--concurrency", "1")
        try:
            assert gate.held.wait(120), "the first run never sent its third request"
            second = cli(*args, "-o", out)  # while the first provably holds the output
            assert (second.exit_code, second.output) == (
                1, f"error: {out}: another run (process {first.pid}) is writing this output; wait for it to finish "
                   f"or stop it (lock file {out.name}.lock)\n")
        finally:
            gate.go.set()
        assert first.wait(120) == 0, first.communicate()[1]
        server.responder = answer
        assert cli(*args, "-o", tmp_path / "single.jsonl").exit_code == 0
    assert out.read_bytes() == (tmp_path / "single.jsonl").read_bytes()
    assert not Path(f"{out}.lock").exists() and not Path(f"{out}.partial").exists()


def test_a_lock_left_by_a_killed_run_is_taken_over(cli: Any, suite: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    gate = Gate(5)
    with ScriptedServer(gate) as server:
        args = ["query", suite, "-o", out, "--llm", "local/a", "--base-url", server.base_url, "--no-cache"]
        first = cli_process(*args, "--concurrency", "1", "-q")
        try:
            assert gate.held.wait(120)
            first.send_signal(signal.SIGKILL)
            first.wait(60)
        finally:
            gate.go.set()
        assert Path(f"{out}.lock").read_text().split() == [str(first.pid)]
        # 4 answered; the 4th may not be journalled yet when the 5th is sent (two jobs run at once)
        kept = Path(f"{out}.partial").read_bytes().count(b"\n") - 1
        assert kept in (3, 4)
        r = cli(*args)
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[:2] == [
        f"40 records, 40 jobs: {kept} done by an earlier run, {40 - kept} done now",
        f"  took over the lock left by process {first.pid}, which is no longer running"]
    assert len(read_records(out)) == 40 and not Path(f"{out}.lock").exists()


def test_ctrl_c_says_what_was_kept_and_how_to_resume(suite: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    gate = Gate(5)
    with ScriptedServer(gate) as server:
        proc = cli_process("query", suite, "-o", out, "--llm", "local/a", "--base-url", server.base_url,
                           "--no-cache", "--concurrency", "1", "-q")
        try:
            assert gate.held.wait(120)
            proc.send_signal(signal.SIGINT)
            _, err = proc.communicate(timeout=120)
        finally:
            gate.go.set()
    kept = Path(f"{out}.partial").read_bytes().count(b"\n") - 1
    assert kept in (3, 4)  # 4 answered; the 4th may not be journalled yet when the 5th is sent
    assert (proc.returncode, err) == (1, f"error: interrupted: {kept} results are kept in {out}.partial; run the "
                                         "same command again to resume\n")
    assert not out.exists() and Path(f"{out}.partial").exists()


def test_refused_credentials_print_one_error_and_no_traceback(suite: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    journal = Path(f"{out}.partial")

    def respond(body: dict[str, Any]) -> Reply | str:
        # refused once a result is journalled: requests beyond the first 32 in flight come after that
        if journal.exists() and journal.read_bytes().count(b"\n") >= 2:
            return Reply(status=401, body='{"error": {"message": "invalid key"}}')
        return answer(body)

    with ScriptedServer(respond) as server:
        proc = cli_process("query", suite, "-o", out, "--llm", "local/a", "--base-url", server.base_url,
                           "--no-cache", "--concurrency", "16", "-q")
        _, err = proc.communicate(timeout=120)
    kept = len(journal.read_text().splitlines()) - 1
    assert (proc.returncode, err) == (1, "error: local/a: HTTP 401: invalid key\n"
                                         f"error: {kept} results are kept in {out}.partial; run the same command "
                                         "again to resume\n")
    assert kept >= 1 and not out.exists()


@pytest.mark.parametrize(("reply", "message"), [
    (Reply(status=404, body='{"error": {"message": "model not found"}}'), "local/a: HTTP 404: model not found"),
    (None, "local/a: cannot connect to http://127.0.0.1:9/v1 after 0 retries: Connection error."),
])
def test_a_run_that_fails_before_its_first_answer_leaves_nothing(suite: Path, tmp_path: Path, reply: Reply | None,
                                                                 message: str) -> None:
    out = tmp_path / "out.jsonl"
    with ScriptedServer(lambda body: reply or "x") as server:
        url = server.base_url if reply else "http://127.0.0.1:9/v1"
        proc = cli_process("query", suite, "-o", out, "--config", config(tmp_path, url, max_retries=0),
                           "--no-cache", "-q")
        _, err = proc.communicate(timeout=120)
    assert (proc.returncode, err) == (1, f"error: {message}\n")
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("out")) == []


@pytest.mark.parametrize(("limit", "message"), [
    (2000, "{out}.partial: cannot write the run's journal: no room for the next line: is the disk full?"),
    (8000, "{out}: cannot write: File too large; 40 results are kept in {out}.partial"),
])
def test_a_full_disk_is_one_error_naming_the_file(suite: Path, tmp_path: Path, limit: int, message: str) -> None:
    out = tmp_path / "out.jsonl"

    def small_files() -> None:  # every file this process writes is cut at ``limit`` bytes, as on a full disk
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    with ScriptedServer(answer) as server:
        proc = cli_process("query", suite, "-o", out, "--llm", "local/a", "--base-url", server.base_url,
                           "--no-cache", "-q", preexec_fn=small_files)
        _, err = proc.communicate(timeout=120)
    assert (proc.returncode, err) == (1, f"error: {message.format(out=out)}\n")
    assert Path(f"{out}.partial").exists() and not out.exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary file left


def test_no_piece_of_the_key_leaks(cli: Any, suite: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = "sk-live-THE-SECRET-KEY-0123456789"
    monkeypatch.setenv("TEST_LLM_KEY", secret)
    cache = tmp_path / "cache.sqlite"
    echoes = {
        2: f'{{"error": {{"message": "{"x" * 270} Authorization: Bearer {secret}"}}}}',  # the cut falls in the key
        3: f'{{"error": {{"message": "bad key {secret[:12]}..."}}}}',  # the endpoint cut it itself
    }

    def respond(body: dict[str, Any]) -> Reply | str:
        for n, text in echoes.items():
            if user_text(body) == text_of(suite, n):
                return Reply(status=400, body=text)
        return f"I was called with {secret[:8]}" if user_text(body) == text_of(suite, 4) else answer(body)

    with ScriptedServer(respond) as server:
        r = cli("query", suite, "-o", tmp_path / "res.jsonl", "--llm", "local/a", "--base-url", server.base_url,
                "--api-key-env", "TEST_LLM_KEY", "--cache", cache)
    assert r.exit_code == 0, r.output
    results = read_records(tmp_path / "res.jsonl")
    assert results[1]["error"].endswith("Authorization: Bearer ***") and results[2]["error"].endswith("bad key ***...")
    assert results[3]["response"] == "I was called with ***"
    for f in tmp_path.rglob("*"):
        if f.is_file():
            assert secret[:4].encode() not in f.read_bytes(), f
    assert secret[:4] not in r.output


def test_resuming_against_another_endpoint_or_settings_is_refused(cli: Any, suite: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    stop = failing(suite, 5, Reply(status=401, body='{"error": {"message": "no"}}'))
    with ScriptedServer(stop) as first, ScriptedServer(answer) as second:
        args = ["query", suite, "-o", out, "--llm", "local/a", "--concurrency", "1"]
        assert cli(*args, "--base-url", first.base_url).exit_code == 1
        r = cli(*args, "--base-url", second.base_url, "--temperature", "0.5")
        assert (r.exit_code, r.output) == (
            1, f"error: {out}.partial: left by an unfinished run over other inputs or settings: llm local/a (base_url "
               f"'{first.base_url}' -> '{second.base_url}', temperature None -> 0.5); run the same command as before "
               "to finish it, or add --restart to discard it and start over\n")
        r = cli(*args, "--base-url", second.base_url, "--temperature", "0.5", "--restart")
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[0] == "40 records, 40 jobs: 0 done by an earlier run, 40 done now"


def test_repeated_qids_from_python_ragability_run_under_a_suffix(cli: Any, suite: Path, tmp_path: Path) -> None:
    items = read_records(suite)[:6]
    for it in items[3:]:
        it["qid"] = items[0]["qid"]  # python-ragability's converter repeats a qid for each row of one contradiction
    rep = tmp_path / "rep.jsonl"
    rep.write_text("".join(json.dumps(it) + "\n" for it in items))
    (tmp_path / "rep.prompts.hjson").write_bytes((tmp_path / "s.prompts.hjson").read_bytes())
    q = items[0]["qid"]
    assert cli("validate", rep).output == (f"{rep}: valid suite (6 items; 1 qids occur more than once ({q}); their "
                                           "repeats run as QID#2, QID#3, ... (3 records))\n")
    with ScriptedServer(lambda body: "yes") as server:
        r = cli("query", rep, "-o", tmp_path / "res.jsonl", "--llm", "local/a", "--base-url", server.base_url)
        assert r.exit_code == 0, r.output
        assert r.output.splitlines()[1] == (f"  1 qids occur more than once ({q}); their repeats run as QID#2, "
                                            "QID#3, ... (3 records)")
        assert [rec["qid"] for rec in read_records(tmp_path / "res.jsonl")] == [
            q, items[1]["qid"], items[2]["qid"], f"{q}#2", f"{q}#3", f"{q}#4"]
        r = cli("check", tmp_path / "res.jsonl", "-o", tmp_path / "chk.jsonl", "--checker", "local/a",
                "--base-url", server.base_url, "--prompts", tmp_path / "s.prompts.hjson")
    assert r.exit_code == 0, r.output
    assert cli("eval", tmp_path / "chk.jsonl", "-o", tmp_path / "rep-report").exit_code == 0


def test_our_converter_never_repeats_a_qid(suite: Path, tmp_path: Path) -> None:
    items = read_records(tmp_path / "demo.hjson")
    assert len({it["qid"] for it in items}) == len(items) == 462


def test_an_output_that_cannot_be_written_is_one_error(cli: Any, suite: Path, tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("not a folder")
    out = tmp_path / "afile" / "out.jsonl"
    with ScriptedServer(answer) as server:
        r = cli("query", suite, "-o", out, "--llm", "local/a", "--base-url", server.base_url)
    assert (r.exit_code, r.output) == (1, f"error: {out}.lock: cannot take the output's lock: File exists\n")
