"""Output paths and atomic staging: nothing half-written ever reaches an output's path.

Every output is written to a temporary name beside its target and renamed over it only when complete
(``atomic_output`` for one file, ``atomic_dir`` for a folder, ``staged_outputs`` for files that belong
together). Temporary names carry the writer's pid, so a later writer of the same output removes what
a killed one left (``clean_orphans``) and never touches the files of one still at work.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

FORMATS = ("hjson", "json", "jsonl")


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
