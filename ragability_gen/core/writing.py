"""Writing the record files that cross stage boundaries (hjson, json, jsonl), streamed and atomic.

The layout is python-ragability's: records indented as elements of a top-level list, one member per
line, values as compact JSON with a space after ``,`` and ``:``; long lists of strings (several
passages) and lists of objects (checks) one element per line. hjson files start with ``#`` comment
lines saying what made them. That layout is valid hjson (and, without the comment, valid JSON), and
every file is written byte for byte as before.

Two encoders give that layout. :func:`format_record` takes any record, value by value, with the
standard library's encoder (its float forms and ``NaN`` included). Records whose values are all
strings or :func:`member` fragments (what the compiler makes) are written by orjson, in C, a chunk
of thousands of records per call: orjson encodes a string exactly as the standard library does, and a
fragment is copied as it is, so the bytes are the same at a fraction of the cost.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import islice
from json.encoder import encode_basestring  # the standard library's C string encoder (ensure_ascii=False)
from pathlib import Path
from typing import IO, Any

import orjson

from ragability_gen.core.staging import FORMATS, atomic_output, format_for
from ragability_gen.errors import InputError

# Compact JSON with a space after ``,`` and ``:``, as python-ragability writes; one encoder made once.
_compact = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "), check_circular=False).encode
_KEYS: dict[str, str] = {}


def _value_text(v: Any) -> str:
    """A member's value as :func:`format_record` lays it out."""
    t = type(v)
    if t is str:
        return encode_basestring(v)  # what _compact does for a str, without its Python-level dispatch
    if t is list and len(v) > 1 and all(type(x) is str for x in v) and sum(map(len, v)) > 70:
        return "[\n      " + ",\n      ".join([encode_basestring(x) for x in v]) + "\n    ]"
    if t is list and v and type(v[0]) is dict:
        return "[\n      " + ",\n      ".join([_compact(x) for x in v]) + "\n    ]"
    return _compact(v)


def format_record(record: Mapping[str, Any]) -> str:
    """One record, one member per line, indented as an element of a top-level list.

    Long lists of strings (several passages) and lists of objects (checks) get one element per line.
    """
    parts = []
    for k, v in record.items():
        key = _KEYS.get(k)
        if key is None:
            key = _KEYS[k] = "    " + _compact(k) + ": "
        parts.append(key + (encode_basestring(v) if type(v) is str else _value_text(v)))
    return "  {\n" + ",\n".join(parts) + "\n  }"


def member(value: Any) -> str | orjson.Fragment:
    """``value`` ready for a record written with ``laid_out=True`` (see :func:`write_records`).

    A string stays as it is; anything else becomes an orjson fragment holding exactly the text
    :func:`format_record` gives it. Values many records share (a variant's checks, an instance's
    passages) are worth making once and reusing.
    """
    if type(value) is str:
        return value
    return orjson.Fragment(_value_text(value).encode())


def _records_bytes(records: Sequence[Mapping[str, Any]]) -> bytes:
    """Records indented as elements of a top-level list, joined by ``,\\n``, without the brackets."""
    return ",\n".join([format_record(r) for r in records]).encode()


def _laid_out_bytes(records: Sequence[Mapping[str, Any]]) -> memoryview:
    """The same layout from orjson in one call: its two-space indentation of a list of records whose
    values are strings or fragments is the layout above, brackets and all (cut off here, without a copy)."""
    return memoryview(orjson.dumps(records, option=orjson.OPT_INDENT_2))[2:-2]


def _jsonl_bytes(records: Sequence[Mapping[str, Any]]) -> bytes:
    return "".join([_line(r) + "\n" for r in records]).encode()


_line = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode


def write_records(records: Iterable[Mapping[str, Any]], path: str | Path, fmt: str | None = None,
                  on_chunk: Callable[[int], None] | None = None, header: Sequence[str] = (),
                  laid_out: bool = False) -> int:
    """Stream records to ``path`` atomically; return how many were written.

    Args:
        records: Records to write; consumed lazily, so memory stays flat for large suites.
        path: Output file; replaced only when every record was written.
        fmt: "hjson", "json" or "jsonl"; defaults to the suffix of ``path``.
        on_chunk: Called with the running count after each chunk, for progress display.
        header: Lines written as ``#`` comments at the top of an hjson file.
        laid_out: Every record is non-empty and every value is a string or made by :func:`member`, so
            orjson can write them (hjson and json; jsonl records need plain values).
    """
    fmt = fmt or format_for(path)
    if fmt not in FORMATS:
        raise InputError(f"{path}: unknown output format {fmt!r} (use one of {', '.join(FORMATS)})")
    n = 0
    jsonl = fmt == "jsonl"
    if laid_out and jsonl:
        raise ValueError("laid-out records are written as hjson or json, not jsonl")
    encode = _jsonl_bytes if jsonl else _laid_out_bytes if laid_out else _records_bytes
    with atomic_output(path) as fh:
        if fmt == "hjson":
            fh.write("".join(f"# {line}\n" for line in header))
        fh.flush()
        out: IO[bytes] = fh.buffer  # type: ignore[attr-defined]  # UTF-8 bytes, written as they are
        sep = b"" if jsonl else b"[\n"
        stream = iter(records)
        while chunk := list(islice(stream, 2000)):
            n += len(chunk)
            out.write(sep)
            out.write(encode(chunk))
            sep = b"" if jsonl else b",\n"
            if on_chunk and len(chunk) == 2000:
                on_chunk(n)
        if not jsonl:
            out.write(b"\n]\n" if n else b"[]\n")
    if on_chunk:
        on_chunk(n)
    return n
