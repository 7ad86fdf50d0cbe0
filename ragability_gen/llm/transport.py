"""How a chat request reaches an endpoint: the openai client over aiohttp, a plain-JSON body, a raw reply.

The ``openai`` client stays the one way to talk to an endpoint (its retries with backoff on 429, 5xx and
timeouts, honouring Retry-After; its errors). Three choices here keep its CPU cost per request low enough
for hundreds of requests in flight on one core (``benchmarks/bench_query.py`` measures each):

- **aiohttp under it** (``openai.DefaultAioHttpClient``, the ``openai[aiohttp]`` extra), not httpx's own
  transport, which checks every pooled connection on every request.
- **The body posted as JSON bytes** (orjson) through the client's ``post``: ``chat.completions.create``
  first walks every request through its type transform, and the client's JSON encoder is slow.
- **The reply read as raw JSON** (orjson), not built into pydantic models.

aiohttp's connection errors reach the openai client as httpx timeouts (a refused or reset connection
becomes ``ConnectTimeout``); :func:`connection_failed` tells them apart again, so an endpoint that is not
listening is reported as unreachable, as under httpx, and never as slow.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
from typing import Any

import orjson

try:  # the HTTP library of the installed openai client: httpx2 from openai 3, httpx before
    import httpx2 as _httpx
except ImportError:  # pragma: no cover - older openai clients
    import httpx as _httpx  # type: ignore[no-redef]


def http_client(event_hooks: dict[str, list[Any]]) -> Any:
    """The HTTP layer under the openai client: httpx's interface (so event hooks count attempts) over aiohttp."""
    import openai

    return openai.DefaultAioHttpClient(event_hooks=event_hooks)


def timeout(seconds: float) -> Any:
    """The spec's timeout for connecting, sending and each read; none for waiting on our own pool.

    A request waiting for one of the pool's connections (all busy at high concurrency) has not reached
    the endpoint yet: timing it out would count an attempt the endpoint never saw.
    """
    import openai

    return openai.Timeout(seconds, pool=None)


async def post_chat(client: Any, params: dict[str, Any]) -> Any:
    """POST a chat completion through the openai client (its retries, timeouts and errors); the reply's JSON.

    The body goes out as bytes encoded by orjson (the client's own encoder costs about a third of a
    millisecond per request more); the client still sends its usual headers, JSON content type included.

    Raises:
        ValueError: the reply body is not JSON (a body cut short, an HTML error page).
    """
    if _posts_bytes():
        response = await client.post("/chat/completions", content=orjson.dumps(params), cast_to=_httpx.Response)
    else:  # pragma: no cover - openai clients before ``post(content=...)``
        response = await client.post("/chat/completions", body=params, cast_to=_httpx.Response)
    return orjson.loads(response.content)


@functools.cache
def _posts_bytes() -> bool:
    """Whether the installed openai client's ``post`` takes a ready-made body (``content``)."""
    import openai

    return "content" in inspect.signature(openai.AsyncOpenAI.post).parameters


def connection_failed(error: BaseException) -> bool:
    """True when an error the openai client reports as a timeout was a refused, reset or dropped connection.

    aiohttp's own timeouts are ``asyncio.TimeoutError``s; its other connection errors are not timeouts,
    whatever the transport mapped them to.
    """
    import aiohttp

    seen: set[int] = set()
    cause: BaseException | None = error
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if isinstance(cause, aiohttp.ClientConnectionError):
            return not isinstance(cause, asyncio.TimeoutError)
        cause = cause.__cause__ or cause.__context__
    return False
