"""The LLM layer against a scripted OpenAI-compatible server on 127.0.0.1, through the real client."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from ragability_gen.errors import LLMError, LLMSetupError, SpecError
from ragability_gen.llm.client import LLM, LLMSpec, ResponseCache, complete_json, parse_json_reply, spec_for
from ragability_gen.llm.config import load_llm_config, resolve_llms
from ragability_gen.llm.testing import Reply, ScriptedServer, user_text

MSG = [{"role": "user", "content": "What colour is the Zarnok?"}]


def spec(server: ScriptedServer, **kw: Any) -> LLMSpec:
    return LLMSpec(alias="scripted/m", model="m", base_url=server.base_url, **kw)


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def ask(llm: LLM, messages: list[dict[str, str]] = MSG, **kw: Any) -> Any:
    try:
        return await llm.complete(messages, **kw)
    finally:
        await llm.aclose()


def test_reply_usage_and_cost() -> None:
    with ScriptedServer(lambda body: Reply("Blue.", prompt_tokens=12, completion_tokens=3)) as server:
        llm = LLM(spec(server, cost_per_prompt_token=0.5, cost_per_completion_token=2.0, temperature=0, seed=7))
        done = run(ask(llm))
    got = (done.text, done.prompt_tokens, done.completion_tokens, done.cost, done.cached)
    assert got == ("Blue.", 12, 3, 12.0, False)
    assert llm.usage.to_dict() == {"calls": 1, "cache_hits": 0, "failed": 0, "http_requests": 1,
                                   "http_status": {"200": 1}, "prompt_tokens": 12, "completion_tokens": 3,
                                   "cost": 12.0, "no_answer": 0, "retries": 0, "unanswered": 0}
    sent = server.requests[0].body
    assert (sent["model"], sent["messages"], sent["temperature"], sent["seed"]) == ("m", MSG, 0, 7)
    assert "max_tokens" not in sent  # unset settings are left to the endpoint


def test_cache_answers_a_rerun_without_requests(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "c.sqlite")
    with ScriptedServer(lambda body: "Blue.") as server:
        first = run(ask(LLM(spec(server), cache=cache)))
        llm2 = LLM(spec(server), cache=cache)
        second = run(ask(llm2))
        llm3 = LLM(spec(server, temperature=0.7), cache=cache)  # other parameters: another key
        run(ask(llm3))
    assert len(server.requests) == 2
    assert (first.cached, second.cached, second.text, second.cost) == (False, True, "Blue.", 0.0)
    assert (llm2.usage.cache_hits, llm2.usage.http_requests) == (1, 0)
    assert len(cache) == 2


def test_429_then_success_honours_retry_after() -> None:
    calls: list[float] = []

    def respond(body: dict[str, Any]) -> Reply:
        calls.append(time.monotonic())
        if len(calls) == 1:
            return Reply(status=429, headers={"Retry-After": "1"})
        return Reply("ok")

    with ScriptedServer(respond) as server:
        llm = LLM(spec(server))
        done = run(ask(llm))
    assert (done.text, done.http_requests, done.http_status) == ("ok", 2, (429, 200))
    assert calls[1] - calls[0] >= 0.95  # waited as told, not the client's 0.5 s first backoff
    assert (llm.usage.http_requests, llm.usage.retries, dict(llm.usage.http_status)) == (2, 1, {429: 1, 200: 1})


def test_server_error_gives_up_after_the_retries() -> None:
    with ScriptedServer(lambda body: Reply(status=503, headers={"retry-after-ms": "10"})) as server:
        llm = LLM(spec(server, max_retries=2))
        with pytest.raises(LLMError) as e:
            run(ask(llm))
    assert e.value.problems == ["scripted/m: HTTP 503 after 2 retries: scripted error 503"]
    assert (len(server.requests), llm.usage.failed) == (3, 1)


def test_timeout_is_retried() -> None:
    n = []

    def respond(body: dict[str, Any]) -> Reply:
        n.append(1)
        return Reply("late", delay=30.0) if len(n) == 1 else Reply("on time")

    with ScriptedServer(respond) as server:
        llm = LLM(spec(server, timeout=1, max_retries=2))
        done = run(ask(llm))
    assert done.text == "on time" and len(server.requests) == 2
    # the timed-out attempt was sent but never answered
    assert (done.http_requests, done.http_status, llm.usage.retries) == (2, (200,), 1)


@pytest.mark.parametrize("status", [401, 403, 404])
def test_unusable_model_is_a_setup_error(status: int) -> None:
    with ScriptedServer(lambda body: Reply(status=status)) as server:
        with pytest.raises(LLMSetupError) as e:
            run(ask(LLM(spec(server))))
    assert e.value.problems == [f"scripted/m: HTTP {status}: scripted error {status}"]
    assert len(server.requests) == 1  # not retried


def test_timeout_every_time_is_an_error() -> None:
    with ScriptedServer(lambda body: Reply("late", delay=30.0)) as server:
        with pytest.raises(LLMError) as e:
            run(ask(LLM(spec(server, timeout=1, max_retries=1))))
    assert e.value.problems == ["scripted/m: timed out after 1 s, 1 retries"]


def test_concurrency_is_bounded() -> None:
    lock = threading.Lock()
    state = {"now": 0, "max": 0}

    def respond(body: dict[str, Any]) -> Reply:
        with lock:
            state["now"] += 1
            state["max"] = max(state["max"], state["now"])
        time.sleep(0.1)
        with lock:
            state["now"] -= 1
        return Reply(user_text(body))

    async def many(llm: LLM) -> list[str]:
        try:
            done = await asyncio.gather(*(llm.complete([{"role": "user", "content": str(i)}]) for i in range(12)))
            return [d.text for d in done]
        finally:
            await llm.aclose()

    with ScriptedServer(respond) as server:
        texts = run(many(LLM(spec(server), concurrency=3)))
    assert texts == [str(i) for i in range(12)]
    assert state["max"] == 3


def test_api_key_sent_but_never_stored_or_shown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = "sk-test-SECRET-0123456789"
    monkeypatch.setenv("SCRIPTED_KEY", secret)

    def respond(body: dict[str, Any]) -> Reply:
        if user_text(body) == "fail":
            return Reply(status=401, body=json.dumps({"error": {"message": f"Incorrect API key provided: {secret}"}}))
        return Reply("fine")

    cache_path = tmp_path / "c.sqlite"
    with ScriptedServer(respond) as server:
        llm = LLM(spec(server, api_key_env="SCRIPTED_KEY"), cache=ResponseCache(cache_path))
        run(ask(llm))
        with pytest.raises(LLMError) as e:
            run(ask(llm, [{"role": "user", "content": "fail"}]))
    assert server.requests[0].headers["authorization"] == f"Bearer {secret}"
    assert e.value.problems == ["scripted/m: HTTP 401: Incorrect API key provided: ***"]
    assert secret not in repr(llm.spec)
    for f in tmp_path.iterdir():
        assert secret.encode() not in f.read_bytes()


def test_missing_key_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_SUCH_KEY_VAR", raising=False)
    llm = LLM(LLMSpec("a", "m", "http://127.0.0.1:9/v1", api_key_env="NO_SUCH_KEY_VAR"))
    with pytest.raises(LLMError) as e:
        run(ask(llm))
    assert e.value.problems == ["a: the API key variable NO_SUCH_KEY_VAR is not set in the environment"]


SCHEMA = {"type": "object", "required": ["colour"], "properties": {"colour": {"type": "string"}},
          "additionalProperties": False}


def test_structured_output_requested_and_fallback_when_refused() -> None:
    def refuse_formats(body: dict[str, Any]) -> Reply:
        if "response_format" in body:
            return Reply(status=400, body=json.dumps({"error": {"message": "response_format not supported"}}))
        return Reply('{"colour": "blue"}')

    with ScriptedServer(refuse_formats) as server:
        llm = LLM(spec(server))

        async def twice() -> tuple[Any, Any]:
            try:
                return (await complete_json(llm, MSG, SCHEMA), await complete_json(llm, MSG, SCHEMA))
            finally:
                await llm.aclose()

        first, second = run(twice())
    assert first.value == second.value == {"colour": "blue"}
    fmt = server.requests[0].body["response_format"]
    assert fmt == {"type": "json_schema", "json_schema": {"name": "reply", "schema": SCHEMA}}
    # json_schema refused, then llama.cpp's json_object form refused, then never asked for again
    assert [r.body.get("response_format", {}).get("type") for r in server.requests] == [
        "json_schema", "json_object", None, None]


def test_llama_cpp_reply_format() -> None:
    def llama_cpp(body: dict[str, Any]) -> Reply:
        if body.get("response_format", {}).get("type") != "json_object":  # as llama-cpp-python's server does
            return Reply(status=500, body=json.dumps({"error": {"message": "response_format: Input should be "
                                                                           "'text' or 'json_object'"}}))
        return Reply('{"colour": "red"}')

    with ScriptedServer(llama_cpp) as server:
        llm = LLM(spec(server))

        async def go() -> Any:
            try:
                return await complete_json(llm, MSG, SCHEMA)
            finally:
                await llm.aclose()

        assert run(go()).value == {"colour": "red"}
    assert [r.body["response_format"] for r in server.requests] == [
        {"type": "json_schema", "json_schema": {"name": "reply", "schema": SCHEMA}},
        {"type": "json_object", "schema": SCHEMA}]


def test_a_refused_reply_format_is_remembered_by_the_cache(tmp_path: Path) -> None:
    """A re-run answers from the cache with the endpoint down, and a new request is not first sent with the
    reply format the endpoint refused in an earlier run."""
    def llama_cpp(body: dict[str, Any]) -> Reply:
        if body.get("response_format", {}).get("type") != "json_object":
            return Reply(status=500, body=json.dumps({"error": {"message": "response_format: Input should be "
                                                                           "'text' or 'json_object'"}}))
        return Reply('{"colour": "red"}')

    async def go(llm: LLM, messages: list[dict[str, str]]) -> Any:
        try:
            return await complete_json(llm, messages, SCHEMA)
        finally:
            await llm.aclose()

    cache = ResponseCache(tmp_path / "c.sqlite")
    with ScriptedServer(llama_cpp) as server:
        assert run(go(LLM(spec(server), cache=cache), MSG)).value == {"colour": "red"}
        url = server.base_url
    assert [r.body["response_format"]["type"] for r in server.requests] == ["json_schema", "json_object"]

    down = LLM(LLMSpec(alias="scripted/m", model="m", base_url=url), cache=cache)  # the server is gone
    assert run(go(down, MSG)).value == {"colour": "red"}
    assert (down.usage.cache_hits, down.usage.http_requests) == (1, 0)

    older = ResponseCache(tmp_path / "older.sqlite")  # a cache that holds the reply but not the refusal
    reply_key = next(k for k, in cache._db.execute("SELECT key FROM replies WHERE value LIKE '%colour%'"))
    older.put(reply_key, cache.get(reply_key) or {})
    down = LLM(LLMSpec(alias="scripted/m", model="m", base_url=url), cache=older)
    assert run(go(down, MSG)).value == {"colour": "red"}
    assert (down.usage.cache_hits, down.usage.http_requests) == (1, 0)

    port = int(url.rsplit(":", 1)[1].split("/")[0])
    with ScriptedServer(llama_cpp, port=port) as server:  # the endpoint is back: a request not cached yet
        assert run(go(LLM(spec(server), cache=cache), [{"role": "user", "content": "And the sky?"}])).value == {
            "colour": "red"}
    assert [r.body["response_format"]["type"] for r in server.requests] == ["json_object"]


def test_concurrent_requests_find_out_the_reply_format_once() -> None:
    def llama_cpp(body: dict[str, Any]) -> Reply:
        if body.get("response_format", {}).get("type") != "json_object":
            return Reply(status=500, body=json.dumps({"error": {"message": "response_format: Input should be "
                                                                           "'text' or 'json_object'"}}))
        return Reply('{"colour": "red"}')

    with ScriptedServer(llama_cpp) as server:
        llm = LLM(spec(server), concurrency=8)

        async def many() -> list[Any]:
            try:
                return await asyncio.gather(*(complete_json(llm, [{"role": "user", "content": f"Sky {i}?"}], SCHEMA)
                                              for i in range(6)))
            finally:
                await llm.aclose()

        assert [r.value for r in run(many())] == [{"colour": "red"}] * 6
    kinds = [r.body["response_format"]["type"] for r in server.requests]
    assert kinds == ["json_schema"] + ["json_object"] * 6  # one refusal, not one per request in flight


def test_invalid_json_is_sent_back_with_the_error() -> None:
    replies = iter(["Sure! colour is blue", '```json\n{"colour": 3}\n```', '{"colour": "blue"}'])
    with ScriptedServer(lambda body: next(replies)) as server:
        llm = LLM(spec(server, structured_output=False))

        async def go() -> Any:
            try:
                return await complete_json(llm, MSG, SCHEMA, attempts=3)
            finally:
                await llm.aclose()

        got = run(go())
    assert got.value == {"colour": "blue"}
    assert got.problems == ["attempt 1: invalid reply: not JSON (Expecting value at line 1, column 1)",
                            "attempt 2: invalid reply: colour: 3 is not of type 'string'"]
    last = server.requests[2].body["messages"]
    assert last[-2] == {"role": "assistant", "content": '```json\n{"colour": 3}\n```'}
    assert last[-1]["content"].startswith("That reply is not valid: colour: 3 is not of type 'string'.")


def test_no_valid_json_within_the_attempts() -> None:
    with ScriptedServer(lambda body: "no") as server:
        llm = LLM(spec(server, structured_output=False))

        async def go() -> Any:
            try:
                return await complete_json(llm, MSG, SCHEMA, attempts=2)
            finally:
                await llm.aclose()

        with pytest.raises(LLMError) as e:
            run(go())
    assert e.value.problems == [
        "scripted/m: no valid JSON reply in 2 attempts (attempt 1: invalid reply: not JSON (Expecting value at line 1, "
        "column 1); attempt 2: invalid reply: not JSON (Expecting value at line 1, column 1))"]


@pytest.mark.parametrize("text, value", [
    ('{"a": 1}', {"a": 1}), ('```json\n{"a": 1}\n```', {"a": 1}), ('Here: {"a": [1, 2]} done', {"a": [1, 2]}),
    ('{"a": "two\nlines"}', {"a": "two\nlines"}),  # a raw line break inside a string, as small models write
])
def test_parse_json_reply(text: str, value: Any) -> None:
    assert parse_json_reply(text) == value


def test_spec_for_providers() -> None:
    s = spec_for("openai/gpt-4o-mini", temperature=0.0)
    assert (s.alias, s.model, s.base_url, s.api_key_env, s.temperature) == (
        "openai/gpt-4o-mini", "gpt-4o-mini", "https://api.openai.com/v1", "OPENAI_API_KEY", 0.0)
    local = spec_for("HuggingFaceTB/SmolLM2", base_url="http://127.0.0.1:8000/v1")
    assert (local.model, local.api_key_env) == ("HuggingFaceTB/SmolLM2", None)
    with pytest.raises(LLMError) as e:
        spec_for("mymodel")
    assert e.value.problems[0].startswith("mymodel: no endpoint: give --base-url (or api_url in the config)")


def test_config_file_in_python_ragability_layout(tmp_path: Path) -> None:
    cfg = tmp_path / "llms.hjson"
    cfg.write_text("""{
      # python-ragability keeps input/output here too; they are ignored
      input: suite.hjson
      llms: [
        "openai/gpt-4o-mini"
        {llm: "openai/smol", alias: "smol", api_url: "http://127.0.0.1:8000/v1", temperature: 0,
         cost_per_prompt_token: 1e-6, cost_per_output_token: 2e-6}
      ]
      providers: {openai: {api_key_env: "MY_OPENAI_KEY"}}
    }""")
    a, b = load_llm_config(cfg)
    assert (a.alias, a.model, a.api_key_env) == ("openai/gpt-4o-mini", "gpt-4o-mini", "MY_OPENAI_KEY")
    assert (b.alias, b.model, b.base_url, b.temperature, b.cost_per_prompt_token, b.cost_per_completion_token) == (
        "smol", "smol", "http://127.0.0.1:8000/v1", 0, 1e-6, 2e-6)
    got = resolve_llms(["smol", "openai/other"], cfg, temperature=0.5)
    assert [(s.alias, s.temperature) for s in got] == [("smol", 0), ("openai/other", 0.5)]
    assert [s.alias for s in resolve_llms([], cfg)] == ["openai/gpt-4o-mini", "smol"]



def test_open_checkers_named_else_the_configs_first_else_none(tmp_path: Path) -> None:
    from ragability_gen.llm.config import open_checkers

    cfg = tmp_path / "llms.hjson"
    cfg.write_text('{llms: [{llm: "openai/judge", alias: "judge", api_url: "http://127.0.0.1:9/v1"}, '
                   '{llm: "openai/other", alias: "other", api_url: "http://127.0.0.1:9/v1"}]}')
    assert [m.spec.alias for m in open_checkers(["other", "judge"], cfg)] == ["other", "judge"]
    assert [m.spec.alias for m in open_checkers([], cfg)] == ["judge"]
    assert open_checkers([]) == []

def test_config_file_problems(tmp_path: Path) -> None:
    cfg = tmp_path / "llms.hjson"
    cfg.write_text('{llms: ["openai/a", {llm: "b", api_key: "sk-1", tempreature: 1}, {llm: "c"}, "openai/a"]}')
    with pytest.raises(SpecError) as e:
        load_llm_config(cfg)
    assert e.value.problems == [
        f'{cfg}: field llms/1: unknown setting "tempreature"',
        f"{cfg}: field llms/1/api_key: API keys are not read from config files; name the environment variable "
        "that holds it with api_key_env"]
    cfg.write_text('{llms: ["openai/a", "openai/a"]}')
    with pytest.raises(SpecError) as e:
        load_llm_config(cfg)
    assert e.value.problems == [f"{cfg}: the model name 'openai/a' is given twice (set a distinct alias)"]
    with pytest.raises(SpecError) as e:
        resolve_llms([], None)
    assert e.value.problems == ["no model given: use --llm MODEL or --config FILE"]
