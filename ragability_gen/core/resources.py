"""Locating the data folders (schemas, corpora, converters, checks) shipped with the package.

In an installed package the folders live inside ``ragability_gen/``; in a source checkout (or an
editable install) they sit beside the package at the repository top level.
"""

from __future__ import annotations

from pathlib import Path

from ragability_gen.errors import InputError

_PKG = Path(__file__).resolve().parent.parent
DATA_FOLDERS = ("schemas", "corpora", "converters", "checks")


def data_dir(name: str) -> Path:
    """Return the folder that holds the shipped files of one data folder."""
    if name not in DATA_FOLDERS:
        raise ValueError(f"unknown data folder {name!r}")
    for base in (_PKG, _PKG.parent):
        candidate = base / name
        if candidate.is_dir():
            return candidate
    raise InputError(f"data folder {name!r} is missing from the installation ({_PKG})")


def resolve_spec(name_or_path: str | Path, folder: str, suffix: str = ".hjson") -> Path:
    """Resolve a spec given by file path or by the name of a shipped spec in ``folder``."""
    path = Path(name_or_path)
    if path.is_file():
        return path
    text = str(name_or_path)
    if "/" not in text and "\\" not in text and not text.endswith(suffix):
        shipped = data_dir(folder) / f"{text}{suffix}"
        if shipped.is_file():
            return shipped
        known = sorted(p.stem for p in data_dir(folder).glob(f"*{suffix}") if not p.stem.endswith("-prompts"))
        raise InputError(f"{text}: no such file, and no shipped {folder} spec of that name "
                         f"(shipped: {', '.join(known)})")
    raise InputError(f"{text}: no such file")
