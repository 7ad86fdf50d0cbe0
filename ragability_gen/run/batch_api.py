"""The provider's side of batch runs: the batch folder's manifest, uploading, polling and downloading.

``run/batch.py`` writes the batch input files and reads the output back into a run's journal; this module
keeps what the folder records about each file (``batch.json``) and talks to the files and batches endpoints
through the openai client, so the local steps can be read without the remote ones.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from ragability_gen.core.fileio import atomic_output
from ragability_gen.errors import InputError, LLMError, SpecError
from ragability_gen.llm.client import LLM
from ragability_gen.run.core import RunSummary

__all__ = ["ENDPOINT", "MANIFEST", "BatchFile", "BatchSummary", "errors_name", "output_name", "poll",
           "read_manifest", "save_files", "submit_batch"]

MANIFEST = "batch.json"
ENDPOINT = "/v1/chat/completions"
_FINAL = ("completed", "failed", "expired", "cancelled")


@dataclass
class BatchFile:
    """One batch input file: its model, size, and (once submitted) the provider's ids and status."""

    file: str
    llm: str
    model: str
    requests: int = 0
    bytes: int = 0
    input_file_id: str | None = None
    batch_id: str | None = None
    status: str | None = None


@dataclass
class BatchSummary:
    """What a batch step did; ``finished`` when the output file was written."""

    kind: str
    folder: Path
    files: list[BatchFile] = field(default_factory=list)
    requests: int = 0
    done_before: int = 0
    collected: int = 0
    failed: int = 0
    pending: int = 0
    finished: bool = False
    run: RunSummary | None = None
    notes: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = list(self.notes)
        if self.run is not None and self.finished:
            out += self.run.lines()
        return out


def read_manifest(folder: Path) -> tuple[dict[str, Any], list[BatchFile]]:
    path = folder / MANIFEST
    if not path.is_file():
        raise InputError(f"{folder}: no {MANIFEST}: not a batch folder (write one with --batch write)")
    try:
        data = orjson.loads(path.read_bytes())
        files = [BatchFile(**f) for f in data["files"]]
    except (orjson.JSONDecodeError, KeyError, TypeError) as e:
        raise InputError(f"{path}: not a batch manifest ({e})") from None
    return data, files



def submit_batch(folder: str | Path, llms: Sequence[LLM]) -> BatchSummary:
    """Upload every file of ``folder`` not yet submitted and start a batch for it (24 h window).

    The manifest is updated after each file, so a failure part way leaves the submitted ones recorded.
    """
    folder = Path(folder)
    data, files = read_manifest(folder)
    by_alias = {llm.spec.alias: llm for llm in llms}
    summary = BatchSummary(str(data.get("kind")), folder, files)

    async def run() -> None:
        for f in files:
            if f.batch_id:
                continue
            llm = by_alias.get(f.llm)
            if llm is None:
                raise SpecError(f"{folder / f.file}: written for model {f.llm!r}: name it with --llm or --checker")
            client = llm.client()
            try:
                uploaded = await client.files.create(file=(f.file, (folder / f.file).read_bytes()), purpose="batch")
                batch = await client.batches.create(input_file_id=uploaded.id, endpoint=ENDPOINT,
                                                    completion_window="24h")
            except Exception as e:  # the openai client's errors: say which file, keep what is recorded
                raise LLMError(f"{folder / f.file}: cannot submit: {type(e).__name__}: {e}") from None
            f.input_file_id, f.batch_id, f.status = uploaded.id, batch.id, batch.status
            save_files(folder, data, files)
            summary.notes.append(f"submitted {f.file} ({f.requests} requests to {f.llm}): batch {batch.id}")

    asyncio.run(with_clients(llms, run))
    if not summary.notes:
        summary.notes.append(f"{folder}: every file was submitted already")
    return summary


async def with_clients(llms: Sequence[LLM], body: Callable[[], Awaitable[None]]) -> None:
    try:
        await body()
    finally:
        for llm in llms:
            await llm.aclose()


def save_files(folder: Path, data: dict[str, Any], files: list[BatchFile]) -> None:
    data = {**data, "files": [vars(f) for f in files]}
    with atomic_output(folder / MANIFEST) as fh:
        fh.write(orjson.dumps(data, option=orjson.OPT_INDENT_2).decode() + "\n")


def poll(folder: Path, data: dict[str, Any], files: list[BatchFile], llms: Sequence[LLM], notes: list[str]) -> None:
    """Ask once for every submitted batch without a downloaded output; download the finished ones."""
    by_alias = {llm.spec.alias: llm for llm in llms}

    async def run() -> None:
        for f in files:
            out = folder / output_name(f.file)
            if not f.batch_id or out.is_file():
                continue
            llm = by_alias.get(f.llm)
            if llm is None:
                raise SpecError(f"{folder / f.file}: batch {f.batch_id} of model {f.llm!r}: name it with --llm or "
                                f"--checker to collect it")
            client = llm.client()
            try:
                batch = await client.batches.retrieve(f.batch_id)
                f.status = batch.status
                if batch.status in _FINAL:
                    for file_id, name in ((batch.error_file_id, errors_name(f.file)),
                                          (batch.output_file_id, output_name(f.file))):
                        if file_id:
                            content = await client.files.content(file_id)
                            with atomic_output(folder / name) as fh:
                                fh.write(content.content.decode("utf-8"))
                    if not batch.output_file_id:  # nothing answered (failed, expired): no more to wait for
                        with atomic_output(out) as fh:
                            fh.write("")
            except Exception as e:
                raise LLMError(f"{folder / f.file}: cannot poll batch {f.batch_id}: {type(e).__name__}: {e}") from None
            counts = getattr(batch, "request_counts", None)
            done = f", {counts.completed} of {counts.total} done" if counts is not None else ""
            notes.append(f"batch {f.batch_id} ({f.file}): {batch.status}{done}")
        save_files(folder, data, files)

    asyncio.run(with_clients(llms, run))


def output_name(file: str) -> str:
    return file.removesuffix(".jsonl") + ".output.jsonl"


def errors_name(file: str) -> str:
    return file.removesuffix(".jsonl") + ".errors.jsonl"
