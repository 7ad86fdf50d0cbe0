"""How requests travel (aiohttp under the openai client, raw JSON replies), the asyncio scripted server, and
the run stage's worker pool: the same answers and the same errors as before, at any concurrency."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from ragability_gen.errors import LLMError, LLMSetupError
from ragability_gen.llm import transport
from ragability_gen.llm.client import LLM, LLMSpec
from ragability_gen.llm.testing import Reply, ScriptedServer, user_text
from ragability_gen.llm.testing_async import AsyncScriptedServer
from ragability_gen.run.core import RunSummary, _drive
from ragability_gen.run.journal import Journal

SERVERS = [ScriptedServer, AsyncScriptedServer]


def ask(server: Any, text: str, **kw: Any) -> tuple[Any, LLM]:
    url = server if isinstance(server, str) else server.base_url
    llm = LLM(LLMSpec(alias="s/m", model="m", base_url=url, **kw), concurrency=4)

    async def go() -> Any:
        try:
            return await llm.complete([{"role": "user", "content": text}])
        except LLMError as e:
            return e
        finally:
            await llm.aclose()

    return asyncio.run(go()), llm


def scripted(body: dict[str, Any]) -> Reply | str:
    text = user_text(body)
    if text == "reset":
        return Reply(reset=True)
    if text == "busy":
        return Reply(status=429, headers={"retry-after-ms": "10"})
    if text == "late":
        return Reply("late", delay=30.0)
    if text.startswith("body:"):
        return Reply(body=text[5:])
    return Reply(f"echo {text}", prompt_tokens=7, completion_tokens=2, finish_reason="length")


@pytest.mark.parametrize("server_class", SERVERS)
def test_a_reply_is_read_from_raw_json(server_class: Any) -> None:
    with server_class(scripted) as server:
        done, llm = ask(server, "Zarnok?", temperature=0, max_tokens=9)
        recorded = server.requests[0]
    assert (done.text, done.prompt_tokens, done.completion_tokens, done.finish_reason) == (
        "echo Zarnok?", 7, 2, "length")
    assert (done.http_requests, done.http_status) == (1, (200,))
    # the body goes out as JSON bytes with the client's usual headers
    assert recorded.body == {"model": "m", "messages": [{"role": "user", "content": "Zarnok?"}], "temperature": 0,
                             "max_tokens": 9}
    assert recorded.headers["content-type"] == "application/json"
    assert recorded.headers["authorization"] == "Bearer no-key"


@pytest.mark.parametrize("server_class", SERVERS)
@pytest.mark.parametrize(("text", "problem"), [
    ("reset", "s/m: cannot connect to {url} after 1 retries: Connection error."),
    ("busy", "s/m: HTTP 429 after 1 retries: scripted error 429"),
    ("late", "s/m: timed out after 1 s, 1 retries"),
    ("body:[1, 2]", "s/m: no usable answer after 1 retries: the reply has no choices"),
    ('body:{"choices": "none"}', "s/m: no usable answer after 1 retries: the reply has no choices"),
    ('body:{"choices": [{"message": "x"}]}',
     "s/m: no usable answer after 1 retries: the reply has no content (content: null, finish_reason: None)"),
    ("body:<html>502</html>", "s/m: no usable answer after 1 retries: the reply body is not a JSON chat completion "
                              "(*"),  # the rest is the JSON decoder's own words
])
def test_failures_are_told_apart(server_class: Any, text: str, problem: str) -> None:
    with server_class(scripted) as server:
        got, llm = ask(server, text, max_retries=1, timeout=1)
        url = server.base_url
    assert isinstance(got, LLMError) and len(got.problems) == 1
    assert got.problems[0].startswith(problem.format(url=url)[:-1]) if problem.endswith("*") else \
        got.problems == [problem.format(url=url)]
    assert llm.usage.http_requests == 2  # every attempt counted, answered or not


def test_a_port_with_nothing_listening_stops_the_run() -> None:
    got, llm = ask("http://127.0.0.1:9/v1", "x", max_retries=0)
    assert isinstance(got, LLMSetupError)
    assert got.problems == ["s/m: cannot connect to http://127.0.0.1:9/v1 after 0 retries: Connection error."]
    assert (llm.usage.http_requests, llm.usage.unanswered) == (1, 1)


def chain(outer: BaseException, inner: BaseException) -> BaseException:
    outer.__cause__ = inner
    return outer


@pytest.mark.parametrize(("error", "failed"), [
    (chain(TimeoutError("timed out"), aiohttp.ServerDisconnectedError()), True),
    (chain(TimeoutError("timed out"), chain(RuntimeError("mapped"), aiohttp.ClientOSError(104, "reset"))), True),
    (chain(TimeoutError("timed out"), aiohttp.SocketTimeoutError("read")), False),
    (chain(TimeoutError("timed out"), aiohttp.ConnectionTimeoutError("connect")), False),
    (TimeoutError("timed out"), False),
])
def test_connection_failed_tells_a_reset_from_a_timeout(error: BaseException, failed: bool) -> None:
    assert transport.connection_failed(error) is failed


def test_the_async_server_answers_the_models_list_and_unknown_paths() -> None:
    async def get(url: str) -> tuple[int, Any]:
        async with aiohttp.ClientSession() as session, session.get(url) as resp:
            return resp.status, await resp.json()

    with AsyncScriptedServer(scripted) as server:
        assert asyncio.run(get(server.base_url + "/models")) == (
            200, {"object": "list", "data": [{"id": "scripted", "object": "model"}]})
        assert asyncio.run(get(server.base_url + "/nothing")) == (404, {"error": {"message": "not found"}})
        assert server.count == 0


def journal(tmp_path: Path) -> Journal:
    return Journal(tmp_path / "out.partial", {"suite": "x"})


def test_the_worker_pool_keeps_at_most_limit_jobs_in_flight(tmp_path: Path) -> None:
    state = {"now": 0, "max": 0}

    def job(i: int) -> Any:
        async def run() -> dict[str, Any]:
            state["now"] += 1
            state["max"] = max(state["max"], state["now"])
            for _ in range(i % 3 + 1):
                await asyncio.sleep(0)
            state["now"] -= 1
            return {"qid": f"q{i}", "pid": "p", "llm": "m", "response": str(i)}
        return run

    j, summary = journal(tmp_path), RunSummary()
    seen: list[int] = []
    asyncio.run(_drive((((f"q{i}", "p", "m"), job(i)) for i in range(100)), j, summary, 7, "query",
                       lambda e: seen.append(e.done)))
    assert state["max"] == 7 and (summary.jobs, summary.done) == (100, 100)
    assert seen == list(range(1, 101)) + [100]  # progress after every result, and once when all are done
    assert sorted(j.get((f"q{i}", "p", "m"))["response"] for i in range(100)) == sorted(map(str, range(100)))
    # resumed: every key is done, nothing runs
    again = RunSummary()
    asyncio.run(_drive((((f"q{i}", "p", "m"), job(i)) for i in range(100)), j, again, 7, "query", None))
    assert (again.jobs, again.resumed, again.done) == (100, 100, 0)
    j.close()


def test_the_first_error_stops_the_pool_and_in_flight_jobs_are_cancelled(tmp_path: Path) -> None:
    cancelled: list[int] = []

    def job(i: int) -> Any:
        async def run() -> dict[str, Any]:
            await asyncio.sleep(0)
            if i == 5:
                for _ in range(3):
                    await asyncio.sleep(0)
                raise LLMSetupError("s/m: HTTP 401: invalid key")
            if i > 5:
                try:
                    await asyncio.Event().wait()  # never answered
                except asyncio.CancelledError:
                    cancelled.append(i)
                    raise
            return {"qid": f"q{i}", "pid": "p", "llm": "m", "response": str(i)}
        return run

    j, summary = journal(tmp_path), RunSummary()
    with pytest.raises(LLMSetupError) as e:
        asyncio.run(_drive((((f"q{i}", "p", "m"), job(i)) for i in range(50)), j, summary, 4, "query", None))
    assert e.value.problems == ["s/m: HTTP 401: invalid key"]
    # every result that arrived is journalled; every job pulled after them was cancelled, none left running
    assert [i for i in range(50) if j.done((f"q{i}", "p", "m"))] == [0, 1, 2, 3, 4]
    assert cancelled and sorted(cancelled) == list(range(6, summary.jobs))
    j.close()


def test_bench_query_tiny_with_the_threaded_server() -> None:
    bench = Path(__file__).resolve().parent.parent / "benchmarks"
    proc = subprocess.run([sys.executable, str(bench / "bench_query.py"), "--tiny", "--server", "threads",
                           "--phases", "throughput,cpu"], capture_output=True, text=True, cwd=bench, timeout=600,
                          env={**__import__("os").environ, "PYTHONPATH": str(bench.parent)})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "server: threads" in proc.stdout and "server (threads): " in proc.stdout
    assert json.dumps("cpu: client CPU per request")[1:-1] in proc.stdout
