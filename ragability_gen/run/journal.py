"""What makes a run resumable and safe: the journal of results, its fingerprint, and one lock per output.

The journal (``OUTPUT.partial``) holds one JSON line per finished job, flushed as it arrives, so a run
that is interrupted, even killed, continues where it stopped. Its first line fingerprints everything
the results depend on (input files, prompts, endpoint, model and generation settings); a journal left
by a run over anything else is refused, naming what changed, unless the caller asks to start over.

The lock (``OUTPUT.lock``) makes sure only one run writes an output and its journal at a time. It is
an OS-level lock (``filelock``), so the kernel releases it when its process dies, however it dies; the
file records the holder's pid, so a second run names the process it waits for, and a run that takes
over a lock a killed process left can say so.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
from pathlib import Path
from typing import Any

import orjson
from filelock import FileLock, Timeout

from ragability_gen.errors import OutputError, SpecError

Key = tuple[str, str, str]  # qid, pid, llm
JOURNAL_VERSION = 2


def journal_path(output: Path) -> Path:
    return output.with_name(output.name + ".partial")


def file_digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def _describe(key: str, old: Any, new: Any) -> str:
    if isinstance(old, dict) and isinstance(new, dict):
        changed = [f"{k} {old.get(k)!r} -> {new.get(k)!r}" for k in sorted(set(old) | set(new))
                   if old.get(k) != new.get(k)]
        return f"{key} ({', '.join(changed)})"
    if old is None:
        return f"{key} (new)"
    if new is None:
        return f"{key} (no longer given)"
    return f"{key} (the file changed)" if isinstance(old, str) and len(old) == 64 else f"{key} ({old!r} -> {new!r})"


_NO_ROOM = (errno.ENOSPC, errno.EFBIG, errno.EDQUOT)
"""A full disk, a file size limit, a full quota: the journal cannot take another line."""

class Journal:
    """Results appended as they arrive (one JSON line each, flushed), read back by the next run.

    The first line fingerprints the inputs; a journal left by a run over other inputs is refused rather
    than mixed in (or, with ``restart``, discarded). A last line cut short by a kill is dropped.
    """

    def __init__(self, path: Path, fingerprint: dict[str, Any], *, restart: bool = False):
        self.path = path
        self.created = False
        self.records = 0
        self._index: dict[Key, int] = {}
        self._failed: set[Key] = set()
        self._fingerprint = fingerprint
        header = json.dumps({"ragability_gen_journal": JOURNAL_VERSION, "inputs": fingerprint}, sort_keys=True)
        try:
            if path.exists() and restart:
                path.unlink()
            if path.exists():
                self._load()
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(header + "\n", encoding="utf-8")
                self.created = True
            # unbuffered: each line is one write, so nothing is left to flush (and fail) at close
            self._fh = open(path, "ab", buffering=0)  # noqa: SIM115 - kept open for the run's appends
            self._reader = open(path, "rb")  # noqa: SIM115
        except OSError as e:
            raise OutputError(f"{path}: cannot write the run's journal: {e.strerror or e}") from None

    def _load(self) -> None:
        with open(self.path, "rb") as fh:
            first = fh.readline()
            try:
                head = json.loads(first)
            except json.JSONDecodeError:
                head = {}
            old = head.get("inputs") if isinstance(head, dict) and \
                head.get("ragability_gen_journal") == JOURNAL_VERSION else None
            if old != self._fingerprint:
                if isinstance(old, dict):
                    what = "; ".join(_describe(k, old.get(k), self._fingerprint.get(k))
                                     for k in sorted(set(old) | set(self._fingerprint))
                                     if old.get(k) != self._fingerprint.get(k))
                else:
                    what = "a journal of another version"
                raise SpecError(f"{self.path}: left by an unfinished run over other inputs or settings: {what}; "
                                f"run the same command as before to finish it, or add --restart to discard it "
                                f"and start over")
            good = fh.tell()
            while line := fh.readline():
                if not line.endswith(b"\n"):
                    break
                try:
                    rec = orjson.loads(line)  # its errors are json.JSONDecodeErrors too
                except json.JSONDecodeError:
                    break
                self._note(rec, good)
                good = fh.tell()
        os.truncate(self.path, good)

    def _note(self, rec: dict[str, Any], offset: int) -> None:
        key = (rec["qid"], rec["pid"], rec["llm"])
        if key not in self._index:
            self.records += 1
        self._index[key] = offset
        if rec.get("failed"):
            self._failed.add(key)
        else:
            self._failed.discard(key)

    def done(self, key: Key) -> bool:
        """True when the key has a result that needs no retry (a failed request is retried)."""
        return key in self._index and key not in self._failed

    def append(self, rec: dict[str, Any]) -> None:
        try:
            offset = self._fh.tell()
            line = orjson.dumps(rec, option=orjson.OPT_APPEND_NEWLINE)  # one write per result, no buffer to lose
            if self._fh.write(line) != len(line):  # the rest did not fit: the same as no room at all
                raise OSError(errno.ENOSPC, "no room")
        except OSError as e:
            # a line cut short or not written at all depends only on where the limit falls: one message for both
            reason = "no room for the next line: is the disk full?" if e.errno in _NO_ROOM else e.strerror or e
            raise OutputError(f"{self.path}: cannot write the run's journal: {reason}") from None
        self._note(rec, offset)

    def get(self, key: Key) -> dict[str, Any]:
        self._reader.seek(self._index[key])
        rec: dict[str, Any] = orjson.loads(self._reader.readline())
        return rec

    def close(self) -> None:
        for fh in (self._fh, self._reader):
            with contextlib.suppress(OSError):
                fh.close()

    def remove(self) -> None:
        self.close()
        self.path.unlink()


class OutputLock:
    """One run per output: held from before the journal is read until the output is in place.

    Raises:
        OutputError: another live process holds the lock (its pid is named).
    """

    def __init__(self, output: Path):
        self.output = output
        self.path = output.with_name(output.name + ".lock")
        #: the pid a killed run left in the lock file, when this run took the lock over from it
        self.took_over: int | None = None
        self._lock = FileLock(self.path, timeout=0, on_acquired=self._record)

    def _record(self, fd: int) -> None:
        old = os.pread(fd, 64, 0).decode("ascii", "replace").split()
        if old and old[0].isdigit() and int(old[0]) != os.getpid():
            self.took_over = int(old[0])  # we hold the OS lock, so that process is gone
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)

    def holder(self) -> str:
        try:
            pid = self.path.read_text(encoding="ascii", errors="replace").split()[0]
        except (OSError, IndexError):
            return "another process"
        return f"process {pid}"

    def __enter__(self) -> OutputLock:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._lock.acquire()
        except Timeout:
            raise OutputError(f"{self.output}: another run ({self.holder()}) is writing this output; wait for it "
                              f"to finish or stop it (lock file {self.path.name})") from None
        except OSError as e:
            raise OutputError(f"{self.path}: cannot take the output's lock: {e.strerror or e}") from None
        return self

    def __exit__(self, *exc: object) -> None:
        # Removed while still held: filelock sees a contender that opened the old file and retries.
        self.path.unlink(missing_ok=True)
        self._lock.release()
