"""Reading and writing the record files that cross stage boundaries (hjson, json, jsonl).

Writing: records are encoded with orjson (a C encoder, several times faster than the standard
library's for whole records), indented two spaces: one member per line, each record's closing brace
alone at the start of a line as ``  }``. hjson files start with ``#`` comment lines saying what made
them. That layout is valid hjson (and, without the comment, valid JSON).

Reading: leading ``#``/``//`` comment lines are skipped and the rest is parsed with orjson; only when
that fails (quoteless strings, inner comments, hand edits) does the ``hjson`` library parse the whole
text. The fast path accepts only text the slow path reads the same way: hjson ignores comments and
reads JSON as JSON. Streaming cuts the file at record boundaries and parses many records per orjson
call, so memory stays flat and most of the time is spent in C.
"""

from __future__ import annotations

import codecs
import contextlib
import glob
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

import hjson
import orjson

from ragability_gen.errors import InputError

FORMATS = ("hjson", "json", "jsonl")

_RECORD_END = b"\n  }"  # how every record of an indented top-level array ends (nested ones end deeper)


def beside(path: str | Path, suffix: str) -> Path:
    """A companion file of ``path``: ``v0d4.hjson`` + ``.prompts.hjson`` -> ``v0d4.prompts.hjson``."""
    p = Path(path)
    return p.with_name(p.stem + suffix)


def format_for(path: str | Path, default: str = "hjson") -> str:
    """The record format implied by a file name's suffix."""
    suffix = Path(path).suffix.lower().lstrip(".")
    return suffix if suffix in FORMATS else default


def _default_mode(full: int) -> int:
    """The mode a plain open() would give a new file (0o666) or mkdir a folder (0o777) under the umask.

    mkstemp and mkdtemp make private (0o600/0o700) temporaries; outputs should not stay private.
    """
    mask = os.umask(0)
    os.umask(mask)
    return full & ~mask


def _temp_prefix(target: Path) -> str:
    """Temporary names carry the writer's pid: ``.out.hjson.4242.k3j2.tmp``, so a later run can tell
    the leftovers of a killed writer from the files of one still at work."""
    return f".{target.name}.{os.getpid()}."


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True


def clean_orphans(target: str | Path) -> list[Path]:
    """Remove the temporary files and folders a killed writer of ``target`` left beside it; return them.

    Only names this module gives (``.NAME.PID.xxxx.tmp``, ``.NAME.PID.xxxx.old``) whose process is gone are
    removed: a writer still at work keeps its files, and nothing else in the folder is touched.
    """
    t = Path(target)
    removed = []
    try:
        entries = list(t.parent.glob(f".{glob.escape(t.name)}.*"))
    except OSError:
        return []
    for p in entries:
        rest = p.name[len(t.name) + 2:]
        pid, _, tail = rest.partition(".")
        if not (pid.isdigit() and tail.endswith((".tmp", ".old"))) or int(pid) == os.getpid() or _alive(int(pid)):
            continue
        with contextlib.suppress(OSError):
            if p.is_dir() and not p.is_symlink():
                shutil.rmtree(p)
            else:
                p.unlink()
            removed.append(p)
    return removed


@contextlib.contextmanager
def atomic_output(path: str | Path, newline: str | None = None) -> Iterator[IO[str]]:
    """Open a temporary file beside ``path``; rename it over ``path`` only if the block succeeds.

    Nothing half-written is ever left at ``path``: on any exception the temporary file is removed.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    clean_orphans(target)
    fd, tmp = tempfile.mkstemp(prefix=_temp_prefix(target), suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline=newline) as fh:
            yield fh
        os.chmod(tmp, _default_mode(0o666))
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


@contextlib.contextmanager
def atomic_dir(path: str | Path) -> Iterator[Path]:
    """Yield an empty temporary folder beside ``path``; it becomes ``path`` only if the block succeeds.

    An existing ``path`` is replaced as a whole (the caller decides whether it may be), so a reader
    sees the old folder or the new one, never a mix; on any exception the temporary folder is removed.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    clean_orphans(target)
    tmp = Path(tempfile.mkdtemp(prefix=_temp_prefix(target), suffix=".tmp", dir=target.parent))
    try:
        os.chmod(tmp, _default_mode(0o777))
        yield tmp
        if not target.exists():
            os.rename(tmp, target)
            return
        old = Path(tempfile.mkdtemp(prefix=_temp_prefix(target), suffix=".old", dir=target.parent))
        os.replace(target, old)
        try:
            os.rename(tmp, target)
        except BaseException:
            os.replace(old, target)
            raise
        shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


@contextlib.contextmanager
def staged_outputs(*paths: str | Path) -> Iterator[list[Path]]:
    """Stage several outputs that belong together: all or none of them reach their paths.

    Yields one temporary path per target, with the target's file name (so writers that look at the
    suffix behave the same) inside a hidden folder beside it. Only when the block succeeds are they
    renamed over the targets; the folders are always removed.
    """
    staged: list[tuple[Path, Path, Path]] = []
    try:
        for p in paths:
            target = Path(p)
            target.parent.mkdir(parents=True, exist_ok=True)
            clean_orphans(target)
            folder = Path(tempfile.mkdtemp(prefix=_temp_prefix(target), suffix=".tmp", dir=target.parent))
            staged.append((folder, folder / target.name, target))
        yield [tmp for _, tmp, _ in staged]
        for _, tmp, target in staged:
            os.chmod(tmp, _default_mode(0o666))  # mkdtemp's files are private; outputs follow the umask
            os.replace(tmp, target)
    finally:
        for folder, _, _ in staged:
            shutil.rmtree(folder, ignore_errors=True)


# Compact JSON with a space after ``,`` and ``:``, as python-ragability writes; one encoder made once.
# (orjson, used for reading, writes no spaces and other float forms, so files would no longer be the same.)
_compact = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "), check_circular=False).encode
_KEYS: dict[str, str] = {}


def format_record(record: Mapping[str, Any]) -> str:
    """One record, one member per line, indented as an element of a top-level list.

    Long lists of strings (several passages) and lists of objects (checks) get one element per line.
    """
    parts = []
    for k, v in record.items():
        key = _KEYS.get(k)
        if key is None:
            key = _KEYS[k] = "    " + _compact(k) + ": "
        t = type(v)
        if t is str:
            parts.append(key + _compact(v))
        elif t is list and len(v) > 1 and all(type(x) is str for x in v) and sum(map(len, v)) > 70:
            parts.append(key + "[\n      " + ",\n      ".join([_compact(x) for x in v]) + "\n    ]")
        elif t is list and v and type(v[0]) is dict:
            parts.append(key + "[\n      " + ",\n      ".join([_compact(x) for x in v]) + "\n    ]")
        else:
            parts.append(key + _compact(v))
    return "  {\n" + ",\n".join(parts) + "\n  }"


def _records_bytes(records: Sequence[Mapping[str, Any]]) -> bytes:
    """Records indented as elements of a top-level list, joined by ``,\\n``, without the brackets."""
    return ",\n".join([format_record(r) for r in records]).encode()


def _jsonl_bytes(records: Sequence[Mapping[str, Any]]) -> bytes:
    return "".join([_line(r) + "\n" for r in records]).encode()


_line = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode


def write_records(records: Iterable[Mapping[str, Any]], path: str | Path, fmt: str | None = None,
                  on_chunk: Callable[[int], None] | None = None, header: Sequence[str] = ()) -> int:
    """Stream records to ``path`` atomically; return how many were written.

    Args:
        records: Records to write; consumed lazily, so memory stays flat for large suites.
        path: Output file; replaced only when every record was written.
        fmt: "hjson", "json" or "jsonl"; defaults to the suffix of ``path``.
        on_chunk: Called with the running count after each chunk, for progress display.
        header: Lines written as ``#`` comments at the top of an hjson file.
    """
    fmt = fmt or format_for(path)
    if fmt not in FORMATS:
        raise InputError(f"{path}: unknown output format {fmt!r} (use one of {', '.join(FORMATS)})")
    n = 0
    jsonl = fmt == "jsonl"
    encode = _jsonl_bytes if jsonl else _records_bytes
    with atomic_output(path) as fh:
        if fmt == "hjson":
            fh.write("".join(f"# {line}\n" for line in header))
        fh.flush()
        out: IO[bytes] = fh.buffer  # type: ignore[attr-defined]  # orjson gives UTF-8 bytes: written as they are, not decoded and encoded again
        sep = b"" if jsonl else b"[\n"
        chunk: list[Mapping[str, Any]] = []
        for rec in records:
            chunk.append(rec)
            n += 1
            if len(chunk) >= 2000:
                out.write(sep + encode(chunk))
                sep = b"" if jsonl else b",\n"
                chunk = []
                if on_chunk:
                    on_chunk(n)
        if chunk:
            out.write(sep + encode(chunk))
        if not jsonl:
            out.write(b"\n]\n" if n else b"[]\n")
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
                   chunk_size: int = 1 << 22) -> Generator[dict[str, Any], None, None]:
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
        if eof or len(buf) > 4 * chunk_size:
            break  # no record ends where the layout says: read the rest another way
        more = fh.read(chunk_size)
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
