"""Query and check through batch APIs: OpenAI's Batch API and vLLM's ``run_batch`` (the same JSONL format).

``write_batch`` writes the requests a live run would still send as batch input files in a folder, one
request per line: ``{"custom_id", "method": "POST", "url": "/v1/chat/completions", "body"}``. The
``custom_id`` is the JSON of ``[qid, pid, llm]`` (query) or ``[qid, pid, llm, check number]`` (check), so
every line maps back to its item, prompt and model. Files hold one model each and are split at the
providers' limits (requests and bytes per file). ``batch.json`` in the folder lists them, with the
fingerprint of the inputs.

``collect_batch`` reads the output files back (``requests-0001.output.jsonl`` beside
``requests-0001.jsonl``; failed lines may also be in ``requests-0001.errors.jsonl``) through the same
journal a live run keeps: each reply goes in as the live request's result would. A failed line is
recorded as an item error and, as in the journal of a live run, left for a retry: the next ``query`` (or
``check``) run, live or another batch, sends it again. A request with no output line yet stays pending.
When nothing is pending or failed, the output is written exactly as a live run writes it.

``submit_batch`` uploads the files and starts one batch each through the openai client's files and
batches endpoints; ``collect_batch`` then polls them once and downloads what has finished.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import orjson

from ragability_gen.core.fileio import RecordSource, atomic_dir, atomic_output
from ragability_gen.core.progress import Progress
from ragability_gen.errors import InputError, LLMError, SpecError
from ragability_gen.llm.client import LLM, Completion, Message
from ragability_gen.run.batch_api import (
    ENDPOINT,
    MANIFEST,
    BatchFile,
    BatchSummary,
    errors_name,
    output_name,
    poll,
    read_manifest,
    submit_batch,
)
from ragability_gen.run.checking import DEFAULT_CHECK_PROMPT, checker_job, fill_checker_prompt, needs_checker
from ragability_gen.run.core import (
    RunSummary,
    _asker,
    _drive,
    _numbered,
    _prompts,
    _scan,
    check_fingerprint,
    check_results,
    fill_testee_prompt,
    item_pids,
    query_fingerprint,
    query_suite,
)
from ragability_gen.run.journal import Journal, Key, journal_path

__all__ = ["MAX_BYTES", "MAX_REQUESTS", "BatchFile", "BatchSummary", "collect_batch", "submit_batch", "write_batch"]

#: OpenAI's Batch API: at most 50,000 requests and 200 MB per input file.
MAX_REQUESTS = 50_000
MAX_BYTES = 200_000_000


def _digest(model: str, messages: Sequence[Message]) -> str:
    return hashlib.sha256(model.encode() + b"\0" + orjson.dumps(list(messages))).hexdigest()


def _custom_id(key: Key, check: int | None = None) -> str:
    return orjson.dumps([*key, check] if check is not None else list(key)).decode()


# ----------------------------------------------------------------------------------------- the requests

@dataclass
class _Request:
    key: Key
    check: int | None
    llm: LLM
    messages: list[Message]


class _NoJournal:
    """No run has started yet: nothing is done."""

    def done(self, key: Key) -> bool:
        return False

    def close(self) -> None:
        pass


class _Inputs:
    """The suite (query) or the results (check) with their prompts, journal and pending requests."""

    def __init__(self, kind: str, source: Path, output: Path, llms: Sequence[LLM], prompts: Path | None):
        if kind not in ("query", "check"):
            raise SpecError(f"unknown batch kind {kind!r} (use query or check)")
        self.kind, self.source, self.output, self.llms = kind, Path(source), Path(output), list(llms)
        self.prompt_map, self.prompts_path, digest = _prompts(Path(prompts) if prompts else None, self.source)
        self.records = RecordSource(self.source)
        checks = _scan(self.records, self.prompt_map, self.prompts_path, results=kind == "check")
        if kind == "check" and checks.needs_checker and not self.llms:
            raise SpecError(f"{self.source}: some checks ask a checker model: give one with --checker MODEL")
        if kind == "query" and not self.llms:
            raise SpecError(f"{self.source}: no testee model: give one with --llm or --config")
        # the live run's fingerprint, so a live run resumes what a collect journalled, and the other way round
        self.fingerprint = (query_fingerprint(self.source, digest, self.llms) if kind == "query"
                            else check_fingerprint(self.source, digest, self.llms[:1], None))

    def journal(self, create: bool = True) -> Journal | _NoJournal:
        """The run's journal; with ``create`` False and none there yet, one where nothing is done."""
        path = journal_path(self.output)
        return Journal(path, self.fingerprint) if create or path.exists() else _NoJournal()

    def jobs(self, journal: Journal | _NoJournal,
             llms: Sequence[LLM]) -> Iterator[tuple[Key, list[_Request], dict[str, Any], str]]:
        """Every job not done yet: its key, the model requests it needs, the record and the prompt id."""
        if self.kind == "query":
            for llm in llms:
                for qid, item in _numbered(self.records, False):
                    for pid in item_pids(item, self.prompt_map):
                        key = (qid, pid, llm.spec.alias)
                        if not journal.done(key):
                            messages = fill_testee_prompt(self.prompt_map[pid], item.get("facts"),
                                                          item.get("query") or "")
                            yield key, [_Request(key, None, llm, messages)], item, pid
            return
        checker = llms[0] if llms else None
        for qid, rec in _numbered(self.records, True):
            key = (qid, rec["pid"], rec["llm"])
            if journal.done(key):
                continue
            needs = []
            for i, c in enumerate(rec.get("checks") or []):
                if not rec["error"] and needs_checker(c) and checker is not None:
                    prompt = self.prompt_map[c["pid"]] if c.get("pid") else DEFAULT_CHECK_PROMPT
                    messages = fill_checker_prompt(prompt, rec["response"], c.get("check_for"), c.get("query") or "")
                    needs.append(_Request(key, i, checker, messages))
            yield key, needs, rec, rec["pid"]


# ---------------------------------------------------------------------------------------------- write

def write_batch(kind: str, source: str | Path, output: str | Path, llms: Sequence[LLM], folder: str | Path, *,
                prompts: str | Path | None = None, max_requests: int = MAX_REQUESTS,
                max_bytes: int = MAX_BYTES) -> BatchSummary:
    """Write the requests a ``kind`` run (query or check) would still send as batch input files in ``folder``.

    Requests already answered in the run's journal (an interrupted live run, an earlier collect) are left
    out. The folder is written whole or not at all; one whose submitted batches were not collected yet is
    not replaced.

    Raises:
        SchemaError/SpecError: as the live run would, before anything is written.
        InputError: ``folder`` holds batches that were submitted and not collected.
    """
    inputs = _Inputs(kind, Path(source), Path(output), llms, Path(prompts) if prompts else None)
    folder = Path(folder)
    old = read_manifest(folder) if (folder / MANIFEST).is_file() else None
    if old is not None and any(f.batch_id and not (folder / output_name(f.file)).is_file() for f in old[1]):
        raise InputError(f"{folder}: holds submitted batches not collected yet: collect them (--batch collect) "
                         f"or delete the folder")
    summary = BatchSummary(kind, folder)
    journal = inputs.journal(create=False)
    try:
        with atomic_dir(folder) as tmp:
            writers: dict[str, _Splitter] = {}
            for _key, requests, _rec, _pid in inputs.jobs(journal, inputs.llms):
                for r in requests:
                    body = {"model": r.llm.spec.model, "messages": r.messages, **r.llm.spec.params()}
                    line = orjson.dumps({"custom_id": _custom_id(r.key, r.check), "method": "POST", "url": ENDPOINT,
                                         "body": body}) + b"\n"
                    w = writers.get(r.llm.spec.alias)
                    if w is None:
                        w = writers[r.llm.spec.alias] = _Splitter(tmp, r.llm, summary.files, max_requests, max_bytes)
                    w.add(line)
                    summary.requests += 1
            for w in writers.values():
                w.close()
            _write_manifest(tmp, inputs, summary.files)
    finally:
        journal.close()
    summary.notes.append(f"wrote {summary.requests} requests in {len(summary.files)} files to {folder}"
                         + (f" ({', '.join(f.file for f in summary.files)})" if summary.files else ""))
    return summary


class _Splitter:
    """Lines of one model into numbered files, a new file before one would pass either limit."""

    def __init__(self, folder: Path, llm: LLM, files: list[BatchFile], max_requests: int, max_bytes: int):
        self.folder, self.llm, self.files = folder, llm, files
        self.max_requests, self.max_bytes = max_requests, max_bytes
        self.fh: IO[bytes] | None = None
        self.current: BatchFile | None = None

    def add(self, line: bytes) -> None:
        if len(line) > self.max_bytes:
            raise InputError(f"one request of {self.llm.spec.alias} is {len(line)} bytes, over the "
                             f"{self.max_bytes} bytes allowed per batch file")
        cur = self.current
        if cur is None or cur.requests >= self.max_requests or cur.bytes + len(line) > self.max_bytes:
            self.close()
            cur = self.current = BatchFile(f"requests-{len(self.files) + 1:04d}.jsonl", self.llm.spec.alias,
                                           self.llm.spec.model)
            self.files.append(cur)
            self.fh = open(self.folder / cur.file, "wb")  # noqa: SIM115 - closed in close()
        assert self.fh is not None
        self.fh.write(line)
        cur.requests += 1
        cur.bytes += len(line)

    def close(self) -> None:
        if self.fh is not None:
            self.fh.close()
            self.fh = None


def _write_manifest(folder: Path, inputs: _Inputs, files: list[BatchFile]) -> None:
    data = {"ragability_gen_batch": 1, "kind": inputs.kind, "input": inputs.source.name,
            "fingerprint": inputs.fingerprint, "files": [vars(f) for f in files]}
    with atomic_output(folder / MANIFEST) as fh:
        fh.write(orjson.dumps(data, option=orjson.OPT_INDENT_2).decode() + "\n")


def _check_manifest(folder: Path, inputs: _Inputs) -> list[BatchFile]:
    data, files = read_manifest(folder)
    if data.get("kind") != inputs.kind or data.get("fingerprint") != inputs.fingerprint:
        raise SpecError(f"{folder / MANIFEST}: written for other inputs ({data.get('kind')} of {data.get('input')}, "
                        f"or the file, its prompts or the checker changed since)")
    return files


# -------------------------------------------------------------------------------------------- collect

class _Replies(LLM):
    """A model whose replies come from batch output lines (by model and messages), never the network."""

    def __init__(self, llm: LLM, index: dict[str, tuple[Path, int]]):
        super().__init__(llm.spec, cache=None, concurrency=64)
        self._index = index
        self._files: dict[Path, IO[bytes]] = {}

    def has(self, messages: Sequence[Message]) -> bool:
        return _digest(self.spec.model, messages) in self._index

    def connect(self) -> None:
        pass

    async def aclose(self) -> None:
        for fh in self._files.values():
            fh.close()
        self._files.clear()

    async def complete(self, messages: Sequence[Message], *, schema: dict[str, Any] | None = None,
                       schema_name: str = "reply") -> Completion:
        self.usage.calls += 1
        path, offset = self._index[_digest(self.spec.model, messages)]
        fh = self._files.get(path)
        if fh is None:
            fh = self._files[path] = open(path, "rb")  # noqa: SIM115 - closed in aclose()
        fh.seek(offset)
        line = orjson.loads(fh.readline())
        response: dict[str, Any] = _obj(line.get("response"))
        body: dict[str, Any] = _obj(response.get("body"))
        status = response.get("status_code")
        choices = body.get("choices") if isinstance(body.get("choices"), list) else None
        first: dict[str, Any] = _obj(choices[0] if choices else None)
        text = _obj(first.get("message")).get("content")
        if line.get("error") or status != 200 or not isinstance(text, str):
            self.usage.failed += 1
            error = line.get("error") or body.get("error") or {}
            why = error.get("message") if isinstance(error, dict) else str(error)
            raise LLMError(f"{self.spec.alias}: batch request failed (HTTP {status}): "
                           f"{' '.join(str(why or 'no reply in the output line').split())[:300]}")
        usage = _obj(body.get("usage"))
        pt, ct = int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0)
        cost = pt * self.spec.cost_per_prompt_token + ct * self.spec.cost_per_completion_token
        self.usage.prompt_tokens += pt
        self.usage.completion_tokens += ct
        self.usage.cost += cost
        return Completion(text, pt, ct, cost, False, first.get("finish_reason"))


def _obj(value: Any) -> dict[str, Any]:
    """``value`` when it is a JSON object, else an empty one: output lines are read without trusting them."""
    return value if isinstance(value, dict) else {}


def _index(folder: Path, files: list[BatchFile]) -> dict[str, dict[str, tuple[Path, int]]]:
    """Per model alias: digest of (model, messages) -> where its output line is. Offsets, not replies."""
    out: dict[str, dict[str, tuple[Path, int]]] = {}
    for f in files:
        lines: dict[str, tuple[Path, int]] = {}
        for name in (errors_name(f.file), output_name(f.file)):  # a reply in the output wins over an error
            path = folder / name
            if path.is_file():
                with open(path, "rb") as fh:
                    offset = 0
                    for n, raw in enumerate(fh, 1):
                        if raw.strip():
                            try:
                                cid = orjson.loads(raw).get("custom_id")
                            except (orjson.JSONDecodeError, AttributeError):
                                raise InputError(f"{path}: line {n}: not a batch output line (JSON object)") from None
                            if not isinstance(cid, str):
                                raise InputError(f"{path}: line {n}: field custom_id: missing or not a string")
                            lines[cid] = (path, offset)
                        offset += len(raw)
        found = out.setdefault(f.llm, {})
        with open(folder / f.file, "rb") as fh:
            for raw in fh:
                req = orjson.loads(raw)
                where = lines.get(req["custom_id"])
                if where is not None:
                    found[_digest(req["body"]["model"], req["body"]["messages"])] = where
    return out


def collect_batch(kind: str, source: str | Path, output: str | Path, llms: Sequence[LLM], folder: str | Path, *,
                  prompts: str | Path | None = None, on_progress: Progress | None = None) -> BatchSummary:
    """Read a batch folder's output files into the run's journal; write ``output`` when nothing is left.

    Submitted batches are polled once first, and the output of finished ones downloaded. ``on_progress``
    gets a ``ProgressEvent`` of stage ``kind`` as replies go into the journal, and one with ``done == total``
    when they are all in.
    """
    inputs = _Inputs(kind, Path(source), Path(output), llms, Path(prompts) if prompts else None)
    folder = Path(folder)
    files = _check_manifest(folder, inputs)
    summary = BatchSummary(kind, folder, files)
    if any(f.batch_id for f in files):
        data, _ = read_manifest(folder)
        poll(folder, data, files, llms, summary.notes)
    index = _index(folder, files)
    replies = [_Replies(llm, index.get(llm.spec.alias, {})) for llm in llms]
    run = RunSummary(records=0, llms={r.spec.alias: r for r in replies})
    journal = inputs.journal()

    def jobs() -> Iterator[tuple[Key, Callable[[], Awaitable[dict[str, Any]]]]]:
        for key, requests, rec, pid in inputs.jobs(journal, replies):
            if not all(isinstance(r.llm, _Replies) and r.llm.has(r.messages) for r in requests):
                summary.pending += 1
                continue
            if kind == "query":
                yield key, counted(_asker(requests[0].llm, rec, key[0], pid, inputs.prompt_map[pid]))
            else:
                yield key, counted(checker_job(replies[:1], rec, {"qid": key[0], "pid": key[1], "llm": key[2]},
                                               inputs.prompt_map))

    def counted(make: Callable[[], Awaitable[dict[str, Any]]]) -> Callable[[], Awaitable[dict[str, Any]]]:
        async def job() -> dict[str, Any]:
            rec = await make()
            summary.failed += bool(rec.get("failed"))
            return rec

        return job

    assert isinstance(journal, Journal)
    try:
        asyncio.run(_drive(jobs(), journal, run, 256, kind, on_progress))
    finally:
        journal.close()
    summary.collected = run.done
    summary.notes.append(f"collected {run.done} results from {folder} ({summary.failed} failed, recorded as errors)"
                         + (f"; {summary.pending} still without a reply" if summary.pending else ""))
    if summary.pending or _any_failed(inputs):
        summary.notes.append(f"{output} is written when every result is in: collect again when the batches have "
                             f"finished, or run {kind} live (the same command without --batch) to send what is "
                             f"missing or failed")
        return summary
    if kind == "query":
        summary.run = query_suite(inputs.source, inputs.output, replies, prompts=inputs.prompts_path)
    else:
        summary.run = check_results(inputs.source, inputs.output, replies[0] if replies else None,
                                    prompts=inputs.prompts_path)
    summary.finished = True
    summary.notes.append(f"wrote {output}")
    return summary


def _any_failed(inputs: _Inputs) -> bool:
    """Whether the journal holds a result that a run would send again (a failed request)."""
    journal = inputs.journal(create=False)
    try:
        return any(True for _ in inputs.jobs(journal, inputs.llms))
    finally:
        journal.close()
