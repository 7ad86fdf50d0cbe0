"""A scripted OpenAI-compatible HTTP server on 127.0.0.1, for tests, benchmarks and offline demos.

The server speaks ``POST /v1/chat/completions`` and ``GET /v1/models`` like any OpenAI-compatible
endpoint, so the code under test talks to it through the real ``openai`` client. What it answers is
decided by a Python function (``responder``) that sees each request body and returns a :class:`Reply`:
text, an HTTP error status with headers (429 with Retry-After), a delay (latency, timeouts) or a raw body
(malformed JSON). Every request is recorded, headers included, so tests can count and inspect them.

Run ``python -m ragability_gen.llm.testing --latency 0.1`` to serve a canned responder from a separate
process (benchmarks use this so server and client do not share one interpreter); ``--server asyncio``
serves it from one event loop instead of a thread per connection (see :mod:`.testing_async`).
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import socket
import struct
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class _Server(ThreadingHTTPServer):
    request_queue_size = 128  # the default, 5, drops connections when many clients connect at once
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that hung up (a timeout under test) is not the server's error


@dataclass
class Reply:
    """What the server answers to one request."""

    content: str = ""
    status: int = 200
    delay: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    body: str | None = None  # sent verbatim instead of a chat completion (status still applies)
    prompt_tokens: int = 10
    completion_tokens: int = 5
    reset: bool = False  # close the connection without answering (a connection reset)
    finish_reason: str = "stop"
    null_content: bool = False  # "content": null in the completion


Responder = Callable[[dict[str, Any]], "Reply | str"]


@dataclass
class Recorded:
    """One request as the server saw it."""

    body: dict[str, Any]
    headers: dict[str, str]
    time: float


def completion_body(content: str | None, model: str, prompt_tokens: int = 10, completion_tokens: int = 5,
                    finish_reason: str = "stop") -> dict[str, Any]:
    """A chat-completion response body as OpenAI-compatible servers send it."""
    return {
        "id": "chatcmpl-scripted", "object": "chat.completion", "created": 0, "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                     "finish_reason": finish_reason}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
    }


def answer(responder: Responder, body: dict[str, Any]) -> Reply:
    """The responder's reply to one request; a responder that raises answers 500, so a broken script shows
    as a server error, not a hung client."""
    try:
        reply = responder(body)
    except Exception as e:
        reply = Reply(status=500, body=json.dumps({"error": {"message": f"responder failed: {e}"}}))
    return Reply(reply) if isinstance(reply, str) else reply


def reply_text(reply: Reply, body: dict[str, Any]) -> str:
    """The response body the server sends for ``reply`` to the request ``body``."""
    if reply.body is not None:
        return reply.body
    if reply.status != 200:
        return json.dumps({"error": {"message": f"scripted error {reply.status}", "type": "scripted",
                                     "code": reply.status}})
    return json.dumps(completion_body(None if reply.null_content else reply.content, str(body.get("model", "")),
                                      reply.prompt_tokens, reply.completion_tokens, reply.finish_reason))


class ScriptedServer:
    """An OpenAI-compatible server whose replies come from ``responder``; use as a context manager.

    Args:
        responder: called with each request body (a dict); returns a :class:`Reply` or plain reply text.
    """

    def __init__(self, responder: Responder, host: str = "127.0.0.1", port: int = 0, record: bool = True):
        self.responder = responder
        self.requests: list[Recorded] = []
        self.count = 0  # requests served, recorded or not
        self._record = record
        self._lock = threading.Lock()
        self._httpd = _Server((host, port), self._handler_class())
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def start(self) -> ScriptedServer:
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> ScriptedServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # headers and body go out in two writes; with Nagle's algorithm the body waits ~40 ms for an ACK
            disable_nagle_algorithm = True

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
                pass

            def _send(self, status: int, body: str, headers: dict[str, str] | None = None) -> None:
                data = body.encode("utf-8")
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for k, v in (headers or {}).items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout under test)

            def do_GET(self) -> None:  # noqa: N802 - http.server's naming
                if self.path.rstrip("/").endswith("/models"):
                    self._send(200, json.dumps({"object": "list", "data": [{"id": "scripted", "object": "model"}]}))
                else:
                    self._send(404, json.dumps({"error": {"message": "not found"}}))

            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._send(404, json.dumps({"error": {"message": "not found"}}))
                    return
                try:
                    body = json.loads(raw)
                except json.JSONDecodeError:
                    self._send(400, json.dumps({"error": {"message": "request is not JSON"}}))
                    return
                headers = {k.lower(): v for k, v in self.headers.items()}
                with server._lock:
                    server.count += 1
                    if server._record:
                        server.requests.append(Recorded(body, headers, time.monotonic()))
                reply = answer(server.responder, body)
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.reset:
                    # SO_LINGER with a zero timeout: close() sends a TCP reset instead of a clean close
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    self.close_connection = True
                    self.connection.close()
                    return
                self._send(reply.status, reply_text(reply, body), reply.headers)

        return Handler


def user_text(body: dict[str, Any]) -> str:
    """The text of the last user message of a request body."""
    for m in reversed(body.get("messages", [])):
        if m.get("role") == "user":
            content = m.get("content", "")
            return content if isinstance(content, str) else json.dumps(content)
    return ""


def flaky(responder: Responder, rate: float, seed: int = 0, timeout_delay: float = 0.0) -> Responder:
    """Wrap ``responder`` so a share ``rate`` of requests fail: 429 (with Retry-After), 500 or a timeout.

    A timeout is a reply delayed by ``timeout_delay`` seconds (set it above the client's timeout); with
    ``timeout_delay`` 0 the failures are 429 and 500 only.
    """
    rng = random.Random(seed)
    lock = threading.Lock()
    injected: Counter[str] = Counter()

    def respond(body: dict[str, Any]) -> Reply | str:
        with lock:
            roll, kind = rng.random(), rng.randrange(3 if timeout_delay else 2)
            if roll < rate:
                injected[("429", "500", "timeout")[kind]] += 1
        if roll >= rate:
            return responder(body)
        if kind == 0:
            return Reply(status=429, headers={"Retry-After": "0", "retry-after-ms": "20"})
        if kind == 1:
            return Reply(status=500, headers={"retry-after-ms": "20"})
        reply = responder(body)
        reply = Reply(reply) if isinstance(reply, str) else reply
        return Reply(reply.content, delay=timeout_delay)

    respond.injected = injected  # type: ignore[attr-defined]  # what was injected, for the caller to check
    return respond


#: Replies that arrive but carry no usable answer, as real endpoints send them now and then.
NO_ANSWER_FAULTS: dict[str, Callable[[], Reply]] = {
    "no_choices": lambda: Reply(body=json.dumps({"id": "x", "object": "chat.completion", "created": 0,
                                                  "model": "m", "choices": []})),
    "null_content": lambda: Reply(null_content=True, finish_reason="stop"),
    "content_filter": lambda: Reply(null_content=True, finish_reason="content_filter"),
    "empty_length": lambda: Reply("", finish_reason="length"),
    "truncated_body": lambda: Reply(body='{"id": "chatcmpl-x", "object": "chat.completion", "choi'),
    "html_body": lambda: Reply(body="<html><body>502 Bad Gateway</body></html>"),
    "reset": lambda: Reply(reset=True),
}
#: Every fault :func:`faulty` injects: the replies without an answer, and the HTTP errors.
FAULT_KINDS = (*NO_ANSWER_FAULTS, "429", "500")


def faulty(responder: Responder, rate: float, seed: int = 0, kinds: tuple[str, ...] = FAULT_KINDS) -> Responder:
    """Wrap ``responder`` so a share ``rate`` of requests get a fault, each of ``kinds`` equally often.

    The faults are those of real endpoints: 200 replies with no choices, null or empty content, a
    content filter, a body cut short or not JSON, a connection reset, 429 and 500. What was injected is
    counted in the wrapper's ``injected`` attribute.
    """
    rng = random.Random(seed)
    lock = threading.Lock()
    injected: Counter[str] = Counter()

    def respond(body: dict[str, Any]) -> Reply | str:
        with lock:
            roll, kind = rng.random(), kinds[rng.randrange(len(kinds))]
            if roll < rate:
                injected[kind] += 1
        if roll >= rate:
            return responder(body)
        if kind == "429":
            return Reply(status=429, headers={"Retry-After": "0", "retry-after-ms": "20"})
        if kind == "500":
            return Reply(status=500, headers={"retry-after-ms": "20"})
        return NO_ANSWER_FAULTS[kind]()

    respond.injected = injected  # type: ignore[attr-defined]
    return respond


def _main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--latency", type=float, default=0.0, help="seconds before each reply")
    parser.add_argument("--fail-rate", type=float, default=0.0, help="share of requests answered 429/500/late")
    parser.add_argument("--timeout-delay", type=float, default=0.0, help="delay of 'late' failures (0: none)")
    parser.add_argument("--faults", type=float, default=0.0,
                        help="share of requests answered with a fault of every kind real endpoints send "
                             "(see FAULT_KINDS)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the fault schedule")
    parser.add_argument("--server", choices=("threads", "asyncio"), default="threads",
                        help="a thread per connection (ScriptedServer, as the tests use it), or one asyncio event "
                             "loop (AsyncScriptedServer: hundreds of connections without a thread each)")
    args = parser.parse_args()

    def respond(body: dict[str, Any]) -> Reply:
        text = user_text(body)
        return Reply(f"Answer about: {text[-60:]}", delay=args.latency)

    responder: Responder = respond
    if args.fail_rate:
        responder = flaky(respond, args.fail_rate, seed=args.seed, timeout_delay=args.timeout_delay)
    elif args.faults:
        responder = faulty(respond, args.faults, seed=args.seed)
    server: Any
    if args.server == "asyncio":
        from ragability_gen.llm.testing_async import AsyncScriptedServer

        server = AsyncScriptedServer(responder, port=args.port, record=False).start()
    else:
        server = ScriptedServer(responder, port=args.port, record=False).start()
    print(server.base_url, flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        while not stop.wait(0.2):
            pass
    except KeyboardInterrupt:
        pass
    server.stop()
    injected = dict(getattr(responder, "injected", {}))
    print(json.dumps({"requests": server.count, "injected": injected}), flush=True)


if __name__ == "__main__":
    _main()
