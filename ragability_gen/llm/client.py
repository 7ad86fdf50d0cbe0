"""The LLM layer: one small async interface over the ``openai`` client for any OpenAI-compatible endpoint.

Every stage that talks to a model (generate, query, check) goes through :class:`LLM`. It adds what the
stages need and the bare client lacks: bounded concurrency, token and cost accounting, an on-disk response
cache (so a re-run costs nothing, :mod:`~ragability_gen.llm.cache`), and JSON replies validated against a
JSON Schema (:mod:`~ragability_gen.llm.jsonreply`). Retries with exponential backoff on 429, 5xx and
timeouts, honouring Retry-After, are the ``openai`` client's own; the layer only counts them, through an
httpx event hook. How a request travels (aiohttp, plain JSON out, raw JSON back) is
:mod:`~ragability_gen.llm.transport`.

API keys are read from the environment when a client is made and are never stored in a spec, a cache
entry, an error message or a result.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import os
import random
from collections import Counter
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from ragability_gen.errors import LLMError, LLMSetupError
from ragability_gen.llm import transport
from ragability_gen.llm.cache import ResponseCache, default_cache_path
from ragability_gen.llm.jsonreply import JSONReply, complete_json, parse_json_reply, read_json_reply, schema_errors
from ragability_gen.llm.replies import NoAnswer, brief, reply_problem, scrub

__all__ = ["LLM", "PROVIDERS", "Completion", "JSONReply", "LLMSpec", "Message", "ResponseCache", "Usage",
           "complete_json", "connected", "default_cache_path", "parse_json_reply", "read_json_reply",
           "schema_errors", "spec_for", "usage_line"]

Message = dict[str, str]

#: Providers reachable through an OpenAI-compatible endpoint: default base URL and API-key variable.
#: A model named ``provider/model`` (python-ragability's naming) is sent to that endpoint as ``model``.
PROVIDERS: dict[str, tuple[str | None, str | None]] = {
    "openai": ("https://api.openai.com/v1", "OPENAI_API_KEY"),
    "anthropic": ("https://api.anthropic.com/v1/", "ANTHROPIC_API_KEY"),
    "gemini": ("https://generativelanguage.googleapis.com/v1beta/openai/", "GEMINI_API_KEY"),
    "groq": ("https://api.groq.com/openai/v1", "GROQ_API_KEY"),
    "mistral": ("https://api.mistral.ai/v1", "MISTRAL_API_KEY"),
    "deepseek": ("https://api.deepseek.com/v1", "DEEPSEEK_API_KEY"),
    "openrouter": ("https://openrouter.ai/api/v1", "OPENROUTER_API_KEY"),
    "together_ai": ("https://api.together.xyz/v1", "TOGETHERAI_API_KEY"),
    "ollama": ("http://localhost:11434/v1", None),
    "ollama_chat": ("http://localhost:11434/v1", None),
    "hosted_vllm": (None, None),
    "llamacpp": (None, None),
}


@dataclass(frozen=True)
class LLMSpec:
    """How to reach one model. ``alias`` names it in results; ``model`` is what the endpoint is sent."""

    alias: str
    model: str
    base_url: str
    api_key_env: str | None = None
    temperature: float | None = None
    max_tokens: int | None = None
    top_p: float | None = None
    seed: int | None = None
    timeout: float = 120.0
    max_retries: int = 8
    cost_per_prompt_token: float = 0.0
    cost_per_completion_token: float = 0.0
    #: None: ask for a JSON-schema reply format and fall back to none if the endpoint refuses it;
    #: "json_object": llama.cpp's form ({"type": "json_object", "schema": ...}); False: never ask.
    structured_output: bool | str | None = None

    def params(self) -> dict[str, Any]:
        """The sampling parameters sent with every request (unset ones are left to the endpoint)."""
        p = {"temperature": self.temperature, "max_tokens": self.max_tokens, "top_p": self.top_p, "seed": self.seed}
        return {k: v for k, v in p.items() if v is not None}


def spec_for(name: str, *, base_url: str | None = None, api_key_env: str | None = None,
             **settings: Any) -> LLMSpec:
    """Build a spec from a model name as given on the command line.

    ``provider/model`` with a known provider (``openai/gpt-4o-mini``) takes that provider's endpoint and
    key variable unless ``base_url``/``api_key_env`` are given; the provider prefix is not sent. Any other
    name is sent as is and needs ``base_url``.
    """
    provider, _, rest = name.partition("/")
    model = name
    default_url, default_env = None, None
    if rest and provider in PROVIDERS:
        model = rest
        default_url, default_env = PROVIDERS[provider]
    url = base_url or default_url
    if not url:
        raise LLMError(f"{name}: no endpoint: give --base-url (or api_url in the config), or name a known "
                       f"provider as provider/model ({', '.join(p for p, (u, _) in PROVIDERS.items() if u)})")
    return LLMSpec(alias=name, model=model, base_url=url, api_key_env=api_key_env or default_env,
                   **{k: v for k, v in settings.items() if v is not None})


@dataclass(frozen=True)
class Completion:
    """One reply: its text, its token usage and cost, and whether it came from the cache."""

    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0
    cached: bool = False
    finish_reason: str | None = None
    #: HTTP requests this call sent (retries and timed-out attempts included) and the statuses answered.
    http_requests: int = 0
    http_status: tuple[int, ...] = ()


@dataclass
class _CallHTTP:
    requests: int = 0
    status: list[int] = field(default_factory=list)


# The HTTP attempts of the call running in the current task; the client's event hooks run in that task.
_CALL_HTTP: contextvars.ContextVar[_CallHTTP | None] = contextvars.ContextVar("_CALL_HTTP", default=None)


@dataclass
class Usage:
    """What one model has cost so far: calls, cache hits, HTTP attempts by status, tokens and money."""

    calls: int = 0
    cache_hits: int = 0
    failed: int = 0
    http_requests: int = 0
    http_status: Counter[int] = field(default_factory=Counter)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0
    #: replies that carried no usable answer (no choices, null or empty content, content filter, a body
    #: that is not a chat completion); each is retried like a failed request
    no_answer: int = 0

    @property
    def retries(self) -> int:
        """HTTP attempts beyond the first of each call that reached the network."""
        return max(0, self.http_requests - (self.calls - self.cache_hits))

    @property
    def unanswered(self) -> int:
        """HTTP attempts that got no response at all (timeouts, dropped connections)."""
        return max(0, self.http_requests - sum(self.http_status.values()))

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["http_status"] = {str(k): v for k, v in sorted(self.http_status.items())}
        d["retries"] = self.retries
        d["unanswered"] = self.unanswered
        return d

    def line(self, alias: str) -> str:
        """The summary line of every command that talks to models (see :func:`usage_line`)."""
        return usage_line(alias, self.to_dict())


def usage_line(alias: str, u: Mapping[str, Any]) -> str:
    """One model's usage as every command's summary shows it, from :meth:`Usage.to_dict` (as audits keep it)."""
    status = ", ".join(f"{n}x{code}" for code, n in sorted(u["http_status"].items(), key=lambda kv: int(kv[0]))
                       if str(code) != "200")
    return (f"{alias}: {u['calls']} calls, {u['cache_hits']} from the cache, {u['http_requests']} HTTP requests "
            f"({u['retries']} retries; errors: {status or 'none'}, {u['unanswered']} unanswered, "
            f"{u['no_answer']} without an answer), {u['failed']} failed, "
            f"{u['prompt_tokens']}+{u['completion_tokens']} tokens, cost {u['cost']:.4f}")


class LLM:
    """One model behind an OpenAI-compatible endpoint, with bounded concurrency, retries, cache and usage.

    Args:
        spec: how to reach the model.
        cache: replies are looked up here first and stored after success; ``None`` disables caching.
        concurrency: at most this many requests to this model in flight.
    """

    def __init__(self, spec: LLMSpec, *, cache: ResponseCache | None = None, concurrency: int = 8):
        self.spec = spec
        self.cache = cache
        self.usage = Usage()
        self._concurrency = max(1, concurrency)
        self._sem: asyncio.Semaphore | None = None
        self._client: Any = None
        self._secret: str | None = None
        self._inflight: dict[str, asyncio.Future[Completion]] = {}
        # reply formats still to try, best first; the first is used until the endpoint refuses it
        self._formats: list[str] = {None: ["json_schema", "json_object"], True: ["json_schema"],
                                    "json_object": ["json_object"]}.get(spec.structured_output, [])  # type: ignore[call-overload]
        self._probing = spec.structured_output is None
        self._probe_lock: asyncio.Lock = asyncio.Lock()
        self._recalled = False  # whether the cache was asked which reply formats this endpoint refused before

    def _api_key(self) -> str:
        env = self.spec.api_key_env
        if env is None:
            return "no-key"  # local endpoints need none, but the client insists on a value
        key = os.environ.get(env)
        if not key:
            raise LLMSetupError(f"{self.spec.alias}: the API key variable {env} is not set in the environment")
        self._secret = key
        return key

    @property
    def concurrency(self) -> int:
        return self._concurrency

    def connect(self) -> None:
        """Make the client now, so a missing API key variable is reported before any work starts."""
        self._ensure_client()

    def client(self) -> Any:
        """The model's ``openai.AsyncOpenAI`` client (made on first use), for endpoints beyond chat: files, batches."""
        return self._ensure_client()

    def _ensure_client(self) -> Any:
        if self._client is None:
            import openai  # imported here so commands that never call a model start fast

            # Requests are counted when sent, so an attempt that timed out counts as one.
            async def sent(request: Any) -> None:
                self.usage.http_requests += 1
                if (call := _CALL_HTTP.get()) is not None:
                    call.requests += 1

            async def answered(response: Any) -> None:
                self.usage.http_status[response.status_code] += 1
                if (call := _CALL_HTTP.get()) is not None:
                    call.status.append(response.status_code)

            http = transport.http_client({"request": [sent], "response": [answered]})
            self._client = openai.AsyncOpenAI(base_url=self.spec.base_url, api_key=self._api_key(),
                                              timeout=transport.timeout(self.spec.timeout),
                                              max_retries=self.spec.max_retries, http_client=http)
            self._sem = asyncio.Semaphore(self._concurrency)
        return self._client

    def _scrub(self, text: str) -> str:
        return scrub(text, self._secret)

    def _format(self, schema: dict[str, Any] | None, schema_name: str, kind: str | None = None
                ) -> dict[str, Any] | None:
        """The reply format to ask for: ``kind``, by default the first one still to try."""
        kind = kind or (self._formats[0] if schema is not None and self._formats else None)
        if kind == "json_schema":
            return {"type": "json_schema", "json_schema": {"name": schema_name, "schema": schema}}
        if kind == "json_object":
            return {"type": "json_object", "schema": schema}
        return None

    async def complete(self, messages: Sequence[Message], *, schema: dict[str, Any] | None = None,
                       schema_name: str = "reply") -> Completion:
        """Send one chat request (or answer it from the cache) and return the reply.

        With ``schema``, structured output is requested where the endpoint supports it; the caller still
        validates the reply (see :func:`complete_json`).

        Raises:
            LLMSetupError: no API key, credentials refused (401/403), or no such model or path (404).
            LLMError: the endpoint failed after all retries, or refused the request.
        """
        client = self._ensure_client()
        self.usage.calls += 1
        http = _CallHTTP()
        token = _CALL_HTTP.set(http)
        try:
            return await self._complete(client, messages, schema, schema_name, http)
        finally:
            _CALL_HTTP.reset(token)

    def _refusal_key(self, kind: str) -> str:
        """The cache key under which a refusal of reply format ``kind`` by this endpoint and model is kept."""
        return ResponseCache.key(self.spec, [], {"refused_reply_format": kind})

    def _recall_refusals(self) -> None:
        """Drop the reply formats the cache says this endpoint refused in an earlier run, so a re-run neither
        asks with them again nor misses replies cached under the format that was accepted."""
        self._recalled = True
        while self._probing and len(self._formats) > 0 and self.cache is not None \
                and self.cache.get(self._refusal_key(self._formats[0])) is not None:
            self._formats.pop(0)

    def _cached(self, key: str) -> Completion | None:
        hit = self.cache.get(key) if self.cache is not None else None
        if hit is None:
            return None
        self.usage.cache_hits += 1
        return Completion(hit["text"], hit.get("prompt_tokens", 0), hit.get("completion_tokens", 0), 0.0, True,
                          hit.get("finish_reason"))

    def _undecided(self, schema: dict[str, Any] | None) -> bool:
        """Whether the reply format for ``schema`` is still to be found out (no request has been answered)."""
        return schema is not None and self._probing and len(self._formats) > 0

    async def _step(self, client: Any, messages: Sequence[Message], schema: dict[str, Any] | None,
                    schema_name: str) -> Completion | tuple[str, Any] | None:
        """One try with the reply format in use: a cached or shared reply, or the cache key and the endpoint's
        reply, or None when the endpoint refused the format (then dropped, and remembered in the cache)."""
        fmt = self._format(schema, schema_name)
        # the key (a sorted JSON dump and a SHA-256 of the whole request) is only needed with a cache
        key = ResponseCache.key(self.spec, messages, {"response_format": fmt} if fmt else {}) \
            if self.cache is not None else ""
        if self.cache is not None:
            if (hit := self._cached(key)) is not None:
                return hit
            for i, kind in enumerate(self._formats[1:] if self._probing and fmt else [], 1):
                # a reply cached under a later format: an earlier run found the ones before refused
                later = ResponseCache.key(self.spec, messages, {"response_format": self._format(
                    schema, schema_name, kind)})
                if (hit := self._cached(later)) is not None:
                    del self._formats[:i]
                    return hit
            if key in self._inflight:  # the same request is on its way: share its reply, as the cache would
                self.usage.cache_hits += 1
                return replace(await asyncio.shield(self._inflight[key]), cost=0.0, cached=True)
            self._inflight[key] = asyncio.get_running_loop().create_future()
        try:
            resp = await self._ask(client, messages, fmt)
        except LLMError as e:
            self.usage.failed += 1
            self._settle(key, error=e)
            raise
        if resp is not None:
            return key, resp
        self._settle(key, error=LLMError(f"{self.spec.alias}: reply format refused"))
        # the endpoint refused this reply format: drop it and ask with the next one, and remember it
        if self._formats and self._format(schema, schema_name) == fmt:
            refused = self._formats.pop(0)
            if self.cache is not None:
                self.cache.put(self._refusal_key(refused), {"refused": True})
        return None

    async def _complete(self, client: Any, messages: Sequence[Message], schema: dict[str, Any] | None,
                        schema_name: str, http: _CallHTTP) -> Completion:
        if not self._recalled and schema is not None:
            self._recall_refusals()
        while True:
            step: Completion | tuple[str, Any] | None = None
            stepped = False
            if self._undecided(schema):
                # one request at a time finds out which reply format the endpoint takes: the others wait for
                # the answer instead of all being refused at once
                async with self._probe_lock:
                    if self._undecided(schema):
                        step, stepped = await self._step(client, messages, schema, schema_name), True
            if not stepped:
                step = await self._step(client, messages, schema, schema_name)
            if isinstance(step, Completion):
                return step
            if step is not None:
                key, resp = step
                break
        choice = resp["choices"][0]  # reply_problem has checked its shape
        text = self._scrub(choice["message"]["content"])
        pt, ct = _tokens(resp.get("usage"), "prompt_tokens"), _tokens(resp.get("usage"), "completion_tokens")
        cost = pt * self.spec.cost_per_prompt_token + ct * self.spec.cost_per_completion_token
        self.usage.prompt_tokens += pt
        self.usage.completion_tokens += ct
        self.usage.cost += cost
        done = Completion(text, pt, ct, cost, False, choice.get("finish_reason"), http.requests, tuple(http.status))
        if self.cache is not None:
            self.cache.put(key, {"text": text, "prompt_tokens": pt, "completion_tokens": ct,
                                 "finish_reason": done.finish_reason})
            self._settle(key, done)
        return done

    def _settle(self, key: str, done: Completion | None = None, error: LLMError | None = None) -> None:
        future = self._inflight.pop(key, None)
        if future is not None and not future.done():
            if error is not None:
                future.set_exception(error)
                future.exception()  # marks it retrieved: nobody may be waiting
            elif done is not None:
                future.set_result(done)

    async def _ask(self, client: Any, messages: Sequence[Message], fmt: dict[str, Any] | None) -> Any:
        """One request whose reply carries a usable answer; a reply without one is retried like a failed
        request (``max_retries`` times, exponential backoff), then raised as an :class:`LLMError`.

        Returns None when the endpoint refused the reply format ``fmt``.
        """
        assert self._sem is not None
        problem = ""
        for attempt in range(self.spec.max_retries + 1):
            if attempt:
                # the openai client's own schedule: 0.5 s doubling up to 8 s, with jitter
                await asyncio.sleep(min(8.0, 0.5 * 2 ** (attempt - 1)) * (0.75 + random.random() / 4))
            async with self._sem:
                try:
                    resp = await self._create(client, messages, fmt)
                except NoAnswer as e:
                    resp, problem = e, e.reason
            if resp is None:
                return None
            if not isinstance(resp, NoAnswer):
                bad = reply_problem(resp)
                if bad is None:
                    return resp
                problem = bad
            self.usage.no_answer += 1
        raise LLMError(self._scrub(f"{self.spec.alias}: no usable answer after {self.spec.max_retries} retries: "
                                   f"{problem}"))

    async def _create(self, client: Any, messages: Sequence[Message], fmt: dict[str, Any] | None) -> Any:
        try:
            return await self._create_raw(client, messages, fmt)
        except ValueError as e:  # a 200 whose body is not JSON (cut short, an HTML error page, ...)
            raise NoAnswer(f"the reply body is not a JSON chat completion ({e})") from None

    async def _create_raw(self, client: Any, messages: Sequence[Message], fmt: dict[str, Any] | None) -> Any:
        import openai

        kwargs: dict[str, Any] = {"model": self.spec.model, "messages": list(messages), **self.spec.params()}
        if fmt:
            kwargs["response_format"] = fmt
        if fmt and self._probing:
            # Probe without retries: some servers answer an unknown reply format with a 500, which would
            # otherwise be retried for a minute before the fallback.
            try:
                done = await transport.post_chat(client.with_options(max_retries=0), kwargs)
                self._probing = False
                return done
            except openai.APIStatusError as e:
                if e.status_code in (400, 422) or "response_format" in str(e):
                    return None
            except (openai.APITimeoutError, openai.APIConnectionError):
                pass
        try:
            return await transport.post_chat(client, kwargs)
        except openai.BadRequestError as e:
            why = brief(e, self._secret)
            raise LLMError(self._scrub(f"{self.spec.alias}: request refused (HTTP 400): {why}")) from None
        except openai.APIStatusError as e:
            retried = e.status_code in (408, 409, 429) or e.status_code >= 500
            after = f" after {self.spec.max_retries} retries" if retried else ""
            # credentials refused or no such model/path: every request would fail the same way
            error = LLMSetupError if e.status_code in (401, 403, 404) else LLMError
            why = brief(e, self._secret)
            raise error(self._scrub(f"{self.spec.alias}: HTTP {e.status_code}{after}: {why}")) from None
        except openai.APITimeoutError as e:
            if transport.connection_failed(e):
                raise self._unreachable(e, "Connection error.") from None
            raise LLMError(f"{self.spec.alias}: timed out after {self.spec.timeout:g} s, "
                           f"{self.spec.max_retries} retries") from None
        except openai.APIConnectionError as e:
            raise self._unreachable(e, brief(e, self._secret)) from None

    def _unreachable(self, e: Exception, why: str) -> LLMError:
        """A connection refused, reset or dropped on every attempt: an endpoint that has never answered in
        this run is down or mistyped, so the run stops, as for a refused key."""
        error = LLMError if self.usage.http_status else LLMSetupError
        return error(self._scrub(f"{self.spec.alias}: cannot connect to {self.spec.base_url} after "
                                 f"{self.spec.max_retries} retries: {why}"))

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.close()
            self._client = None


def _tokens(usage: Any, name: str) -> int:
    """A token count from a reply's ``usage`` (0 when the endpoint sent none, or not a number)."""
    n = usage.get(name) if isinstance(usage, dict) else None
    return n if isinstance(n, int) else 0


@contextlib.asynccontextmanager
async def connected(llms: Sequence[LLM]) -> AsyncIterator[None]:
    """Models ready for a run: clients made first, so a missing key variable fails before any work, and
    closed afterwards, whatever happens."""
    try:
        for llm in llms:
            llm.connect()
        yield
    finally:
        for llm in llms:
            await llm.aclose()
