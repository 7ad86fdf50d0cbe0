"""The scripted OpenAI-compatible server on one asyncio event loop (aiohttp.web), for load benchmarks.

:class:`~ragability_gen.llm.testing.ScriptedServer` runs a Python thread per connection: simple, and right
for tests, but at hundreds of connections on a small machine its threads compete for the interpreter
with each other and with the client under test, so a benchmark would blame the server's limits on the
client. :class:`AsyncScriptedServer` answers the same requests with the same responders and the same
:class:`~ragability_gen.llm.testing.Reply` (status, headers, raw body, delay, reset) on one event loop,
where a delay is a timer, not a sleeping thread.

``python -m ragability_gen.llm.testing --server asyncio`` serves it from a separate process.
"""

from __future__ import annotations

import asyncio
import json
import socket
import struct
import threading
import time

from aiohttp import web

from ragability_gen.llm.testing import Recorded, Responder, answer, reply_text


class AsyncScriptedServer:
    """An OpenAI-compatible server whose replies come from ``responder``, on an event loop in its own thread.

    The interface of :class:`~ragability_gen.llm.testing.ScriptedServer`: ``base_url``, ``count``,
    ``requests`` (when ``record``), ``start``/``stop`` or a ``with`` block.
    """

    def __init__(self, responder: Responder, host: str = "127.0.0.1", port: int = 0, record: bool = True):
        self.responder = responder
        self.requests: list[Recorded] = []
        self.count = 0
        self._record = record
        self._host, self._port = host, port
        self._loop = asyncio.new_event_loop()
        self._runner: web.ServerRunner | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        return f"http://{self._host}:{self._port}/v1"

    def start(self) -> AsyncScriptedServer:
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._serve(), self._loop).result(timeout=60)
        return self

    def stop(self) -> None:
        if self._runner is not None:
            asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop).result(timeout=60)
        self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join(timeout=60)
        self._loop.close()

    def __enter__(self) -> AsyncScriptedServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    async def _serve(self) -> None:
        # the low-level server: no routing or middleware on the way to the one handler
        # stopping does not wait for replies still delayed (a late reply the client has given up on), as the
        # threaded server does not
        self._runner = web.ServerRunner(web.Server(self._handle), handle_signals=False, access_log=None,
                                        shutdown_timeout=0.5)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self._host, self._port, backlog=1024)
        await site.start()
        self._port = self._runner.addresses[0][1]

    async def _handle(self, request: web.BaseRequest) -> web.StreamResponse:
        path = request.path.rstrip("/")
        if request.method == "GET" and path.endswith("/models"):
            return _json(200, json.dumps({"object": "list", "data": [{"id": "scripted", "object": "model"}]}))
        if request.method != "POST" or not path.endswith("/chat/completions"):
            return _json(404, json.dumps({"error": {"message": "not found"}}))
        try:
            body = json.loads(await request.read())
        except json.JSONDecodeError:
            return _json(400, json.dumps({"error": {"message": "request is not JSON"}}))
        self.count += 1
        if self._record:
            self.requests.append(Recorded(body, {k.lower(): v for k, v in request.headers.items()},
                                          time.monotonic()))
        reply = answer(self.responder, body)
        if reply.delay:
            await asyncio.sleep(reply.delay)
        if reply.reset and request.transport is not None:
            # SO_LINGER with a zero timeout: closing sends a TCP reset instead of a clean close
            sock = request.transport.get_extra_info("socket")
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            request.transport.abort()
            raise asyncio.CancelledError  # nothing is answered: the connection is gone
        return _json(reply.status, reply_text(reply, body), reply.headers)


def _json(status: int, text: str, headers: dict[str, str] | None = None) -> web.Response:
    return web.Response(status=status, body=text.encode(), headers={"Content-Type": "application/json",
                                                                    **(headers or {})})
