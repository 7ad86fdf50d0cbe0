"""Reading the record files that cross stage boundaries (hjson, json, jsonl), whole or streamed.

Leading ``#``/``//`` comment lines are skipped and the rest is parsed with orjson; only when that fails
(quoteless strings, inner comments, hand edits) does the ``hjson`` library parse the whole text. The
fast path accepts only text the slow path reads the same way: hjson ignores comments and reads JSON as
JSON. Streaming cuts the file at record boundaries and parses many records per orjson call, so memory
stays flat and most of the time is spent in C.
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import IO, Any

import orjson

from ragability_gen.core.staging import format_for
from ragability_gen.errors import InputError

_RECORD_END = b"\n  }"  # how every record of an indented top-level array ends (nested ones end deeper)


_CHUNK = 1 << 16
"""Bytes read and parsed at a time. Small chunks stay in the processor's caches: reading a 240 MB suite
took 0.56 s of CPU with 64 KB chunks against 1.1 s (and 0.3 s more of page faults) with 4 MB ones."""
_MAX_RECORD = 1 << 24
"""Bytes read without finding a record's end before the layout is taken to be another one."""


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


def _skip_comment_lines(text: str) -> int:
    """Offset of the first line that is neither blank nor a ``#``/``//`` comment."""
    pos = 0
    while pos < len(text):
        end = text.find("\n", pos)
        end = len(text) if end < 0 else end + 1
        line = text[pos:end].strip()
        if line and not line.startswith(("#", "//")):
            return pos
        pos = end
    return pos


def loads_hjson(text: str, source: str) -> Any:
    """Parse hjson (or JSON) text; syntax errors raise InputError naming the line and column."""
    try:
        return orjson.loads(text[_skip_comment_lines(text):] if text[:1] in "#/" else text)
    except orjson.JSONDecodeError:
        pass
    import hjson  # the slow path only: most files are JSON to orjson

    try:
        return hjson.loads(text, object_pairs_hook=dict)
    except hjson.HjsonDecodeError as e:
        raise InputError(f"{source}: line {e.lineno}, column {e.colno}: {e.msg}") from None


def _json_error(text: str) -> tuple[int, int, str]:
    """Line, column and message of the first syntax error in ``text`` (orjson's messages name neither)."""
    try:
        json.loads(text)
    except json.JSONDecodeError as e:
        return e.lineno, e.colno, e.msg
    return 1, 1, "not valid JSON"


def load_data(path: str | Path) -> Any:
    """Load one hjson/json document (a spec, a prompt file, a suite)."""
    text = read_text(path)
    if format_for(path, "") == "json":
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            line, col, msg = _json_error(text)
            raise InputError(f"{path}: line {line}, column {col}: {msg}") from None
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
        for lineno, line in enumerate(text.split("\n"), 1):
            if not line.strip():
                continue
            try:
                rec = orjson.loads(line)
            except orjson.JSONDecodeError:
                _, col, msg = _json_error(line)
                problems.append(f"{path}: line {lineno}, column {col}: {msg}")
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
    bad = [f"{path}: record {i}: expected an object, got {type(r).__name__}"
           for i, r in enumerate(data, 1) if not isinstance(r, dict)]
    if bad:
        raise InputError(bad)
    return data


class NotStreamable(Exception):
    """The file is not plain JSON/JSONL records (hand-written hjson, say): read it whole instead."""


def stream_records(path: str | Path, fmt: str | None = None,
                   chunk_size: int = _CHUNK) -> Generator[dict[str, Any], None, None]:
    """Yield the records of a JSONL file, or of a JSON array (hjson files as this tool writes them), one at a time.

    Memory stays flat in the number of records. Use :func:`record_source` for files of any layout.

    Raises:
        NotStreamable: the text is not JSON records (possibly after some were yielded).
    """
    fmt = fmt or format_for(path)
    if not Path(path).is_file():
        raise InputError(f"{path}: no such file")
    with open(path, "rb") as fh:
        if fmt == "jsonl":
            yield from _stream_lines(fh, str(path), chunk_size)
            return
        yield from _stream_array(fh, str(path), chunk_size)


def _stream_lines(fh: IO[bytes], where: str, chunk_size: int) -> Iterator[dict[str, Any]]:
    rest = fh.read(3)
    if rest == codecs.BOM_UTF8:
        rest = b""
    while True:
        chunk = fh.read(chunk_size)
        buf = rest + chunk
        cut = buf.rfind(b"\n") + 1 if chunk else len(buf)
        for line in buf[:cut].split(b"\n"):
            if line.strip():
                try:
                    rec = orjson.loads(line)
                except orjson.JSONDecodeError:
                    raise NotStreamable(where) from None
                if type(rec) is not dict:
                    raise NotStreamable(where)
                yield rec
        rest = buf[cut:]
        if not chunk:
            return


def _stream_array(fh: IO[bytes], where: str, chunk_size: int) -> Iterator[dict[str, Any]]:
    """Records of a top-level JSON array, parsed a chunk of whole records per orjson call.

    A chunk is cut after the last ``\\n  }`` in the buffer: where an element of an indented array ends.
    The cut text is parsed only when ``[`` + text + ``]`` is a JSON array of objects, which no cut
    inside a record can be (its braces would not balance, and JSON strings hold no raw line break).
    Other layouts (one line, other indentation) go to the standard library's incremental decoder.
    """
    buf = fh.read(chunk_size)
    if buf.startswith(codecs.BOM_UTF8):
        buf = buf[3:]
    pos = 0
    while True:  # skip blank and comment lines
        while pos >= len(buf) or buf.find(b"\n", pos) < 0:
            more = fh.read(chunk_size)
            if not more:
                break
            buf += more
        end = buf.find(b"\n", pos)
        end = len(buf) if end < 0 else end + 1
        line = buf[pos:end].strip()
        if line and not line.startswith((b"#", b"//")):
            break
        if end >= len(buf):
            raise NotStreamable(where)
        pos = end
    pos = _skip_ws(buf, pos)
    if buf[pos:pos + 1] != b"[":
        raise NotStreamable(where)
    buf, pos, eof, empty = buf[pos + 1:], 0, False, True
    while True:
        cut = buf.rfind(_RECORD_END)
        if cut >= 0:
            try:
                recs = orjson.loads(b"[" + buf[:cut + 4] + b"]")
            except orjson.JSONDecodeError:
                break  # not this layout after all: read the rest another way
            if not all(type(r) is dict for r in recs):
                raise NotStreamable(where)
            if recs:
                empty = False
                yield from recs
                buf = buf[cut + 4:]
                pos = _skip_ws(buf, 0)
                while pos >= len(buf) and not eof:
                    more = fh.read(chunk_size)
                    eof = not more
                    buf, pos = buf[pos:] + more, 0
                    pos = _skip_ws(buf, 0)
                if buf[pos:pos + 1] == b"]":
                    if buf[pos + 1:].strip() or fh.read().strip():
                        raise NotStreamable(where)
                    return
                if buf[pos:pos + 1] != b",":
                    raise NotStreamable(where)
                buf = buf[pos + 1:]
                continue
        if eof or len(buf) > max(4 * chunk_size, _MAX_RECORD):
            break  # no record ends where the layout says: read the rest another way
        more = fh.read(max(chunk_size, len(buf)))  # a long record: read twice as much each time, not a chunk
        eof = not more
        buf += more
    yield from _stream_array_text(buf, fh, where, chunk_size, empty)


def _skip_ws(buf: bytes, pos: int) -> int:
    n = len(buf)
    while pos < n and buf[pos] in b" \t\r\n":
        pos += 1
    return pos


def _stream_array_text(start: bytes, fh: IO[bytes], where: str, chunk_size: int,
                       empty: bool) -> Iterator[dict[str, Any]]:
    """The rest of an array (after ``[`` and any records already read), one ``raw_decode`` per record."""
    decode = json.JSONDecoder().raw_decode
    utf8 = codecs.getincrementaldecoder("utf-8")()
    buf, pos, eof = utf8.decode(start), 0, False

    def skip_ws(p: int) -> int:
        while p < len(buf) and buf[p] in " \t\r\n":
            p += 1
        return p

    def more() -> bool:
        nonlocal buf, pos, eof
        if eof:
            return False
        chunk = fh.read(chunk_size)
        eof = not chunk
        buf = buf[pos:] + utf8.decode(chunk, final=eof)
        pos = 0
        return bool(chunk)

    expect_value = True
    while True:
        pos = skip_ws(pos)
        if pos >= len(buf):
            if not more():
                raise NotStreamable(where)
            continue
        ch = buf[pos]
        if ch == "]" and (not expect_value or empty):
            if buf[pos + 1:].strip() or (not eof and fh.read().strip()):
                raise NotStreamable(where)
            return
        if not expect_value:
            if ch != ",":
                raise NotStreamable(where)
            pos += 1
            expect_value = True
            continue
        try:
            rec, end = decode(buf, pos)
        except json.JSONDecodeError:
            if more():
                continue
            raise NotStreamable(where) from None
        if end == len(buf) and more():  # a value that ends the buffer may be cut short (a number)
            continue
        if not isinstance(rec, dict):
            raise NotStreamable(where)
        pos = end
        expect_value = empty = False
        yield rec


class RecordSource:
    """The records of one file, iterable any number of times.

    Files in the layouts this tool writes (JSONL, JSON, its own hjson) are streamed on every pass, so
    memory stays flat; any other hjson is read once and kept in memory.
    """

    def __init__(self, path: str | Path, fmt: str | None = None):
        self.path = Path(path)
        self.fmt = fmt or format_for(path)
        self._records: list[dict[str, Any]] | None = None

    def __iter__(self) -> Iterator[dict[str, Any]]:
        if self._records is not None:
            yield from self._records
            return
        n = 0
        try:
            for rec in stream_records(self.path, self.fmt):
                n += 1
                yield rec
        except (NotStreamable, UnicodeDecodeError):
            # Read the whole file: hjson beyond JSON, or a precise error. The records already yielded
            # are the same either way (hjson reads JSON as JSON).
            self._records = read_records(self.path, self.fmt)
            yield from self._records[n:]
