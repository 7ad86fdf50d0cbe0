"""Reading and writing the record files that cross stage boundaries (hjson, json, jsonl).

Writing: the hjson writer emits a fixed layout (unquoted keys, JSON-quoted values, one member per
line, commas between members). That layout is valid hjson, far faster to produce than the ``hjson``
library's writer, and strings never span lines, so every line start is structural.

Reading: JSON is tried first; then, for hjson, the layout above is turned into JSON by quoting the
keys at line starts (the only difference) and parsed with the C JSON parser; anything else (comments,
quoteless or multi-line strings, hand edits) falls back to the ``hjson`` library. The fast path only
ever accepts text that the slow path reads the same way: the transformed text is valid JSON, so every
quoted line-start key was a key, and hjson reads JSON as JSON.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any

import hjson

from .errors import InputError

FORMATS = ("hjson", "json", "jsonl")

_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_.+\-]*\Z")
_LINE_KEY = re.compile(r"^([ \t]*)([A-Za-z_][A-Za-z0-9_.+\-]*):", re.M)
_encode = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": ")).encode


def format_for(path: str | Path, default: str = "hjson") -> str:
    """The record format implied by a file name's suffix."""
    suffix = Path(path).suffix.lower().lstrip(".")
    return suffix if suffix in FORMATS else default


@contextlib.contextmanager
def atomic_output(path: str | Path, newline: str | None = None) -> Iterator[IO[str]]:
    """Open a temporary file beside ``path``; rename it over ``path`` only if the block succeeds.

    Nothing half-written is ever left at ``path``: on any exception the temporary file is removed.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline=newline) as fh:
            yield fh
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def _key(name: str, quote_all: bool) -> str:
    return name if not quote_all and _PLAIN_KEY.match(name) else _encode(name)


def _member(name: str, value: Any, quote_all: bool, indent: str) -> str:
    key = _key(name, quote_all)
    if isinstance(value, list) and value:
        inline = _encode(value)
        if all(isinstance(v, str) for v in value) and len(inline) <= 80:
            return f"{indent}{key}: {inline}"
        inner = ",\n".join(f"{indent}  {_encode(v)}" for v in value)
        return f"{indent}{key}: [\n{inner}\n{indent}]"
    return f"{indent}{key}: {_encode(value)}"


def format_record(record: dict[str, Any], quote_keys: bool = False) -> str:
    """One record in the fixed hjson (or, with ``quote_keys``, JSON) layout, indented for a list."""
    body = ",\n".join(_member(k, v, quote_keys, "    ") for k, v in record.items())
    return "  {\n" + body + "\n  }"


def write_records(records: Iterable[dict[str, Any]], path: str | Path, fmt: str | None = None,
                  on_chunk: Callable[[int], None] | None = None) -> int:
    """Stream records to ``path`` atomically; return how many were written.

    Args:
        records: Records to write; consumed lazily, so memory stays flat for large suites.
        path: Output file; replaced only when every record was written.
        fmt: "hjson", "json" or "jsonl"; defaults to the suffix of ``path``.
        on_chunk: Called with the running count after each chunk, for progress display.
    """
    fmt = fmt or format_for(path)
    if fmt not in FORMATS:
        raise InputError(f"{path}: unknown output format {fmt!r} (use one of {', '.join(FORMATS)})")
    n = 0
    chunk: list[str] = []
    with atomic_output(path) as fh:
        if fmt == "jsonl":
            dumps = json.JSONEncoder(ensure_ascii=False).encode
            for rec in records:
                chunk.append(dumps(rec))
                n += 1
                if len(chunk) >= 2000:
                    fh.write("\n".join(chunk) + "\n")
                    chunk.clear()
                    if on_chunk:
                        on_chunk(n)
            if chunk:
                fh.write("\n".join(chunk) + "\n")
        else:
            quote = fmt == "json"
            fh.write("[")
            sep = "\n"
            for rec in records:
                chunk.append(sep + format_record(rec, quote))
                sep = ",\n"
                n += 1
                if len(chunk) >= 2000:
                    fh.write("".join(chunk))
                    chunk.clear()
                    if on_chunk:
                        on_chunk(n)
            fh.write("".join(chunk) + "\n]\n")
    if on_chunk:
        on_chunk(n)
    return n


def read_text(path: str | Path) -> str:
    """Read a UTF-8 file (a BOM is allowed); non-UTF-8 bytes raise InputError naming line and column."""
    data = Path(path).read_bytes() if Path(path).is_file() else None
    if data is None:
        raise InputError(f"{path}: no such file")
    bom = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    try:
        return data[bom:].decode("utf-8")
    except UnicodeDecodeError as e:
        start = e.start + bom
        line = data.count(b"\n", 0, start) + 1
        col = start - (data.rfind(b"\n", 0, start) + 1) + 1
        raise InputError(f"{path}: line {line}, byte column {col}: not valid UTF-8 "
                         f"(byte 0x{data[start]:02x})") from None


def loads_hjson(text: str, source: str) -> Any:
    """Parse hjson (or JSON) text; syntax errors raise InputError naming the line and column."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    if text.lstrip().startswith("["):
        try:
            return json.loads(_LINE_KEY.sub(r'\1"\2":', text))
        except json.JSONDecodeError:
            pass
    try:
        return hjson.loads(text, object_pairs_hook=dict)
    except hjson.HjsonDecodeError as e:
        raise InputError(f"{source}: line {e.lineno}, column {e.colno}: {e.msg}") from None


def load_data(path: str | Path) -> Any:
    """Load one hjson/json document (a spec, a prompt file, a suite)."""
    text = read_text(path)
    if format_for(path, "") == "json":
        try:
            return json.loads(text)
        except json.JSONDecodeError as e:
            raise InputError(f"{path}: line {e.lineno}, column {e.colno}: {e.msg}") from None
    return loads_hjson(text, str(path))


def read_records(path: str | Path, fmt: str | None = None) -> list[dict[str, Any]]:
    """Read a list of records from an hjson, json or jsonl file.

    Raises:
        InputError: naming the file and line for syntax errors, or the item number when an entry
            is not an object or the document is not a list.
    """
    fmt = fmt or format_for(path)
    if fmt == "jsonl":
        text = read_text(path)
        out: list[dict[str, Any]] = []
        problems: list[str] = []
        for lineno, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as e:
                problems.append(f"{path}: line {lineno}, column {e.colno}: {e.msg}")
                continue
            if not isinstance(rec, dict):
                problems.append(f"{path}: line {lineno}: expected an object, got {type(rec).__name__}")
                continue
            out.append(rec)
        if problems:
            raise InputError(problems)
        return out
    data = load_data(path)
    if not isinstance(data, list):
        raise InputError(f"{path}: expected a list of records, got {type(data).__name__}")
    bad = [f"{path}: item {i}: expected an object, got {type(r).__name__}"
           for i, r in enumerate(data, 1) if not isinstance(r, dict)]
    if bad:
        raise InputError(bad)
    return data
