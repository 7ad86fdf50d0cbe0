"""Batch APIs: requests written as batch input files, outputs read back with a live run's journal semantics."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ragability_gen.core.fileio import read_records
from ragability_gen.llm.testing import Reply, ScriptedServer, completion_body, user_text
from ragability_gen.llm.testing_batch import BatchServer


@pytest.fixture
def small_suite(cli: Any, demo_tsv: Path, tmp_path: Path) -> Path:
    """The first 60 items of the demo suite, beside its prompt file."""
    assert cli("convert", demo_tsv, "-o", tmp_path / "demo.hjson", "-q").exit_code == 0
    items = read_records(tmp_path / "demo.hjson")[:60]
    path = tmp_path / "small.jsonl"
    path.write_text("".join(json.dumps(it) + "\n" for it in items))
    (tmp_path / "small.prompts.hjson").write_bytes((tmp_path / "demo.prompts.hjson").read_bytes())
    return path


def scripted_reply(body: dict[str, Any]) -> str:
    text = user_text(body)
    return "Yes." if "Answer yes or no." in text else "It says: " + text.rsplit("Question: ", 1)[-1][:40]


def run_batch(requests: Path, output: Path, fail: set[int] = frozenset(), skip: set[int] = frozenset()) -> None:
    """What vLLM's run_batch does with a request file: one output line per request (some failed, some missing)."""
    lines = []
    for n, raw in enumerate(requests.read_text(encoding="utf-8").splitlines()):
        req = json.loads(raw)
        if n in skip:
            continue
        if n in fail:
            response = {"status_code": 500, "body": {"error": {"message": "engine overloaded"}}}
        else:
            response = {"status_code": 200, "body": completion_body(scripted_reply(req["body"]), req["body"]["model"])}
        lines.append(json.dumps({"id": f"r{n}", "custom_id": req["custom_id"], "response": response, "error": None}))
    output.write_text("\n".join(lines) + "\n", encoding="utf-8")


def live(cli: Any, *args: Any) -> list[dict[str, Any]]:
    with ScriptedServer(scripted_reply) as server:
        r = cli(*args, "--base-url", server.base_url, "--no-cache", "-q")
        assert r.exit_code == 0, r.output
    return read_records(args[3])


def test_write_splits_by_model_and_limits_with_ids_that_map_back(cli: Any, small_suite: Path, tmp_path: Path) -> None:
    r = cli("query", small_suite, "-o", "res.jsonl", "--llm", "local/a", "--llm", "local/b", "--base-url",
            "http://127.0.0.1:9/v1", "--temperature", "0", "--batch", "write", "--batch-max-requests", "25")
    assert r.exit_code == 0, r.output
    folder = tmp_path / "res.jsonl.batch"
    manifest = json.loads((folder / "batch.json").read_text())
    assert [(f["file"], f["llm"], f["requests"]) for f in manifest["files"]] == [
        ("requests-0001.jsonl", "local/a", 25), ("requests-0002.jsonl", "local/a", 25),
        ("requests-0003.jsonl", "local/a", 10), ("requests-0004.jsonl", "local/b", 25),
        ("requests-0005.jsonl", "local/b", 25), ("requests-0006.jsonl", "local/b", 10)]
    items = {it["qid"]: it for it in read_records(small_suite)}
    seen = set()
    for f in manifest["files"]:
        for raw in (folder / f["file"]).read_text().splitlines():
            line = json.loads(raw)
            qid, pid, llm = json.loads(line["custom_id"])
            assert (line["method"], line["url"], llm) == ("POST", "/v1/chat/completions", f["llm"])
            assert line["body"]["model"] == llm and line["body"]["temperature"] == 0
            assert pid in items[qid]["pids"]
            seen.add((qid, pid, llm))
    assert len(seen) == 120 and not (tmp_path / "res.jsonl.partial").exists()
    size = max(len(raw) for f in manifest["files"] for raw in (folder / f["file"]).read_bytes().splitlines(True))
    r = cli("query", small_suite, "-o", "res.jsonl", "--llm", "local/a", "--base-url", "http://127.0.0.1:9/v1",
            "--batch", "write", "--batch-max-bytes", str(2 * size))
    assert r.exit_code == 0, r.output
    manifest = json.loads((folder / "batch.json").read_text())
    files = manifest["files"]
    assert all(f["bytes"] <= 2 * size for f in files) and len(files) > 10
    for f, after in zip(files, files[1:], strict=False):  # a file ends only when the next line would not fit
        first = (folder / after["file"]).read_bytes().splitlines(True)[0]
        assert f["bytes"] + len(first) > 2 * size
    assert sum(f["requests"] for f in manifest["files"]) == 60


def test_collect_records_failures_and_leaves_them_for_a_live_retry(cli: Any, small_suite: Path,
                                                                   tmp_path: Path) -> None:
    base = ("query", small_suite, "-o", "res.jsonl", "--llm", "local/a")
    expected = live(cli, "query", small_suite, "-o", tmp_path / "live.jsonl", "--llm", "local/a")
    # one endpoint throughout: the journal's fingerprint covers it, so the live retry resumes the collect
    with ScriptedServer(scripted_reply) as server:
        url = server.base_url
        r = cli(*base, "--base-url", url, "--batch", "write")
        assert r.exit_code == 0, r.output
        folder = tmp_path / "res.jsonl.batch"
        run_batch(folder / "requests-0001.jsonl", folder / "requests-0001.output.jsonl", fail={3, 7}, skip={10})
        r = cli(*base, "--base-url", url, "--batch", "collect")
        assert r.exit_code == 0, r.output
        assert ("collected 59 results" in r.output
                and "(2 failed, recorded as errors); 1 still without a reply" in r.output)
        assert not (tmp_path / "res.jsonl").exists() and (tmp_path / "res.jsonl.partial").exists()
        # collecting again reads only the failed lines again (they are not done); nothing done is read twice
        r = cli(*base, "--base-url", url, "--batch", "collect")
        assert "collected 2 results from res.jsonl.batch (2 failed, recorded as errors); 1 still without" in r.output
        assert len(server.requests) == 0  # writing and collecting files sends nothing
        # a live run sends only the failed and the missing requests, then writes the output
        r = cli(*base, "--base-url", url, "--no-cache", "-q")
        assert r.exit_code == 0, r.output
        assert len(server.requests) == 3
    got = read_records(tmp_path / "res.jsonl")
    assert got == expected and len({(g["qid"], g["pid"]) for g in got}) == 60
    assert not (tmp_path / "res.jsonl.partial").exists()


def test_a_complete_batch_output_gives_the_live_run_file(cli: Any, small_suite: Path, tmp_path: Path) -> None:
    base = ("query", small_suite, "-o", "res.hjson", "--llm", "local/a", "--base-url", "http://127.0.0.1:9/v1")
    expected = live(cli, "query", small_suite, "-o", tmp_path / "live.hjson", "--llm", "local/a")
    assert cli(*base, "--batch", "write", "--batch-max-requests", "40").exit_code == 0
    folder = tmp_path / "res.hjson.batch"
    for name in ("requests-0001", "requests-0002"):
        run_batch(folder / f"{name}.jsonl", folder / f"{name}.output.jsonl")
    r = cli(*base, "--batch", "collect")
    assert r.exit_code == 0, r.output
    assert "collected 60 results from" in r.output and "wrote res.hjson" in r.output
    assert read_records(tmp_path / "res.hjson") == expected


def test_submit_and_collect_through_the_batches_endpoints(cli: Any, small_suite: Path, tmp_path: Path) -> None:
    expected = live(cli, "query", small_suite, "-o", tmp_path / "live.jsonl", "--llm", "local/a")
    flaky_once = {"n": 0}

    def respond(body: dict[str, Any]) -> Reply | str:
        flaky_once["n"] += 1
        return Reply(status=429) if flaky_once["n"] == 5 else scripted_reply(body)

    with BatchServer(respond) as server:
        base = ("query", small_suite, "-o", "res.jsonl", "--llm", "local/a", "--base-url", server.base_url)
        assert cli(*base, "--batch", "write", "--batch-max-requests", "50").exit_code == 0
        r = cli(*base, "--batch", "submit")
        assert r.exit_code == 0, r.output
        assert r.output.count("submitted requests-000") == 2 and len(server.batches) == 2
        r = cli(*base, "--batch", "submit")
        assert "every file was submitted already" in r.output and len(server.batches) == 2
        r = cli(*base, "--batch", "write")
        assert (r.exit_code, r.output) == (1, "error: res.jsonl.batch: holds submitted batches not collected yet: "
                                              "collect them (--batch collect) or delete the folder\n")
        r = cli(*base, "--batch", "collect")  # the first poll: still running
        assert r.exit_code == 0, r.output
        assert "in_progress" in r.output and "collected 0 results" in r.output
        r = cli(*base, "--batch", "collect")
        assert r.exit_code == 0, r.output
        assert "completed, 49 of 50 done" in r.output and "(1 failed, recorded as errors)" in r.output
        assert (tmp_path / "res.jsonl.batch" / "requests-0001.errors.jsonl").is_file()
        assert not (tmp_path / "res.jsonl").exists()
        # the folder's batches are all collected, so a new batch of what failed may replace it
        r = cli(*base, "--batch", "write")
        assert r.exit_code == 0, r.output
        assert "wrote 1 requests in 1 files" in r.output
        live_requests = len(server.requests)
        r = cli(*base, "--no-cache", "-q")  # the live retry of the one failed line
        assert r.exit_code == 0, r.output
        assert len(server.requests) == live_requests + 1
    assert read_records(tmp_path / "res.jsonl") == expected


def test_check_through_a_batch(cli: Any, small_suite: Path, tmp_path: Path) -> None:
    live(cli, "query", small_suite, "-o", tmp_path / "res.jsonl", "--llm", "local/a")

    def checker(body: dict[str, Any]) -> str:
        return "yes" if len(user_text(body)) % 2 else "no"

    prompts = ("--prompts", tmp_path / "small.prompts.hjson")
    with ScriptedServer(checker) as server:
        r = cli("check", "res.jsonl", "-o", "live.jsonl", "--checker", "local/c", "--base-url", server.base_url,
                "--no-cache", "-q", *prompts)
        assert r.exit_code == 0, r.output
    base = ("check", "res.jsonl", "-o", "checked.jsonl", "--checker", "local/c", "--base-url",
            "http://127.0.0.1:9/v1", *prompts)
    r = cli(*base, "--batch", "write")
    assert r.exit_code == 0, r.output
    folder = tmp_path / "checked.jsonl.batch"
    lines = []
    for raw in (folder / "requests-0001.jsonl").read_text().splitlines():
        req = json.loads(raw)
        assert len(json.loads(req["custom_id"])) == 4  # qid, pid, llm, check number
        body = completion_body(checker(req["body"]), req["body"]["model"])
        lines.append(json.dumps({"custom_id": req["custom_id"], "response": {"status_code": 200, "body": body}}))
    (folder / "requests-0001.output.jsonl").write_text("\n".join(lines) + "\n")
    r = cli(*base, "--batch", "collect")
    assert r.exit_code == 0, r.output
    assert read_records(tmp_path / "checked.jsonl") == read_records(tmp_path / "live.jsonl")


def test_bad_batch_folders_are_refused_with_one_line(cli: Any, small_suite: Path, tmp_path: Path) -> None:
    base = ("query", small_suite, "-o", "res.jsonl", "--llm", "local/a", "--base-url", "http://127.0.0.1:9/v1")
    r = cli(*base, "--batch", "collect")
    assert (r.exit_code, r.output) == (1, "error: res.jsonl.batch: no batch.json: not a batch folder "
                                          "(write one with --batch write)\n")
    assert cli(*base, "--batch", "write").exit_code == 0
    (tmp_path / "res.jsonl.batch" / "requests-0001.output.jsonl").write_text('{"custom_id": "x"}\nnot json\n')
    r = cli(*base, "--batch", "collect")
    assert (r.exit_code, r.output) == (1, "error: res.jsonl.batch/requests-0001.output.jsonl: line 2: "
                                          "not a batch output line (JSON object)\n")
    small_suite.write_text(small_suite.read_text().replace("?", "??", 1))
    r = cli(*base, "--batch", "collect")
    assert (r.exit_code, r.output) == (1, "error: res.jsonl.batch/batch.json: written for other inputs (query of "
                                          "small.jsonl, or the file, its prompts or the checker changed since)\n")
