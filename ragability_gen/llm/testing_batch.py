"""The scripted server with OpenAI's files and batches endpoints, for testing batch submission offline.

:class:`BatchServer` is a :class:`~ragability_gen.llm.testing.ScriptedServer` that also speaks
``POST /v1/files`` (multipart upload), ``GET /v1/files/{id}/content``, ``POST /v1/batches`` and
``GET /v1/batches/{id}``. A batch runs every line of its input file through the same ``responder`` as
live requests: replies with status 200 go to the output file, others to the error file, in OpenAI's
line format. A batch reports ``in_progress`` for its first ``polls_before_done`` retrievals, then
``completed``, so a test sees both.
"""

from __future__ import annotations

import email.parser
import itertools
import json
import threading
from http.server import BaseHTTPRequestHandler
from typing import Any

from ragability_gen.llm.testing import Reply, Responder, ScriptedServer, completion_body


class BatchServer(ScriptedServer):
    """A scripted server with the files and batches endpoints; ``files`` and ``batches`` hold what it got."""

    def __init__(self, responder: Responder, host: str = "127.0.0.1", port: int = 0, polls_before_done: int = 1):
        super().__init__(responder, host, port)
        self.polls_before_done = polls_before_done
        self.files: dict[str, bytes] = {}
        self.batches: dict[str, dict[str, Any]] = {}
        self._polls: dict[str, int] = {}
        self._ids = itertools.count(1)
        self._batch_lock = threading.Lock()

    def _new_id(self, prefix: str) -> str:
        return f"{prefix}-{next(self._ids)}"

    def _run_batch(self, input_id: str) -> tuple[str | None, str | None, int, int]:
        """Answer every line of an input file; return (output file id, error file id, completed, failed)."""
        out, err = [], []
        for n, raw in enumerate(self.files[input_id].splitlines(), 1):
            if not raw.strip():
                continue
            req = json.loads(raw)
            body = req["body"]
            try:
                reply = self.responder(body)
            except Exception as e:
                reply = Reply(status=500, body=json.dumps({"error": {"message": f"responder failed: {e}"}}))
            reply = Reply(reply) if isinstance(reply, str) else reply
            line: dict[str, Any] = {"id": f"batch_req_{n}", "custom_id": req["custom_id"], "error": None}
            if reply.status == 200 and reply.body is None:
                line["response"] = {"status_code": 200, "request_id": f"req_{n}",
                                    "body": completion_body(reply.content, str(body.get("model", "")),
                                                            reply.prompt_tokens, reply.completion_tokens)}
                out.append(json.dumps(line))
            else:
                message = f"scripted error {reply.status}"
                line["response"] = {"status_code": reply.status, "request_id": f"req_{n}",
                                    "body": {"error": {"message": message, "type": "scripted"}}}
                err.append(json.dumps(line))
        ids: list[str | None] = []
        for lines in (out, err):
            if lines:
                file_id = self._new_id("file")
                self.files[file_id] = ("\n".join(lines) + "\n").encode()
                ids.append(file_id)
            else:
                ids.append(None)
        return ids[0], ids[1], len(out), len(err)

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        base = super()._handler_class()
        server = self

        class Handler(base):  # type: ignore[valid-type,misc]
            def _json(self, status: int, obj: Any) -> None:
                self._send(status, json.dumps(obj))

            def do_GET(self) -> None:  # noqa: N802 - http.server's naming
                path = self.path.split("?")[0].rstrip("/")
                parts = path.split("/")
                if len(parts) >= 3 and parts[-3] == "files" and parts[-1] == "content":
                    data = server.files.get(parts[-2])
                    if data is None:
                        return self._json(404, {"error": {"message": "no such file"}})
                    self.send_response(200)
                    self.send_header("Content-Type", "application/octet-stream")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                    return None
                if len(parts) >= 2 and parts[-2] == "batches":
                    with server._batch_lock:
                        batch = server.batches.get(parts[-1])
                        if batch is None:
                            return self._json(404, {"error": {"message": "no such batch"}})
                        polls = server._polls[batch["id"]] = server._polls.get(batch["id"], 0) + 1
                        if polls > server.polls_before_done and batch["status"] == "in_progress":
                            out, err, ok, failed = server._run_batch(batch["input_file_id"])
                            batch.update(status="completed", output_file_id=out, error_file_id=err,
                                         request_counts={"total": ok + failed, "completed": ok, "failed": failed})
                        return self._json(200, batch)
                return super().do_GET()

            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                path = self.path.split("?")[0].rstrip("/")
                if not path.endswith(("/files", "/batches")):
                    return super().do_POST()
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if path.endswith("/files"):
                    msg = email.parser.BytesParser().parsebytes(
                        b"Content-Type: " + self.headers["Content-Type"].encode() + b"\r\n\r\n" + raw)
                    fields: dict[str, bytes] = {}
                    for part in msg.walk():
                        name = part.get_param("name", header="content-disposition")
                        if name:
                            payload = part.get_payload(decode=True)
                            fields[str(name)] = payload if isinstance(payload, bytes) else b""
                    if fields.get("purpose") != b"batch" or "file" not in fields:
                        return self._json(400, {"error": {"message": "expected a file with purpose batch"}})
                    file_id = server._new_id("file")
                    server.files[file_id] = fields["file"]
                    return self._json(200, {"id": file_id, "object": "file", "bytes": len(fields["file"]),
                                            "created_at": 0, "filename": "input.jsonl", "purpose": "batch"})
                body = json.loads(raw)
                if body.get("input_file_id") not in server.files:
                    return self._json(400, {"error": {"message": "no such input file"}})
                batch_id = server._new_id("batch")
                with server._batch_lock:
                    server.batches[batch_id] = {
                        "id": batch_id, "object": "batch", "endpoint": body.get("endpoint"), "errors": None,
                        "input_file_id": body["input_file_id"], "completion_window": body.get("completion_window"),
                        "status": "in_progress", "output_file_id": None, "error_file_id": None, "created_at": 0,
                        "request_counts": {"total": 0, "completed": 0, "failed": 0}}
                    return self._json(200, server.batches[batch_id])

        return Handler

