"""Mappings given from outside: an audit file edited by hand (``--mapping-in``), and a reviewer's findings.

A domain team reads the audit file, changes a replacement, adds an entry (a name the tool missed)
or removes one (a word that is no name), and runs ``substitute`` again with the edited file and the
same seed. Each instance id in the file then gets exactly the entities listed there, with the given
replacements, and its recorded date offset; instances the file does not list are substituted as
usual. The result is deterministic, and verified like any other.

An edit that cannot be applied is an error naming the file, the line and the entry: a record the
schema rejects, an id that is not in the input, two different mappings for one id, an original
listed twice, an original that does not occur in its instance.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ragability_gen.core.fileio import read_text
from ragability_gen.core.schemas import problems as schema_problems
from ragability_gen.errors import InputError

from .entities import norm


@dataclass(frozen=True)
class Entry:
    """One entity of an edited mapping, and where it was written (for error messages)."""

    original: str
    fantasy: str
    type: str
    where: str
    forms: tuple[str, ...] = ()
    """The spellings the run that wrote the file replaced ("Albedo", "albedo"): found as written."""


@dataclass(frozen=True)
class Adjust:
    """What to change in the mapping of one instance id.

    Attributes:
        entries: Exactly these entities with these replacements (an edited mapping); None: as found.
        offset: The date offset to use (None: chosen as usual).
        add: More names, as written in the input (a reviewer's findings).
        keep: Case-folded words never to replace (a reviewer found them no names).
        pinned: Part key -> replacement of the pass before, kept.
        where: Where the edited mapping of this id was written.
    """

    entries: tuple[Entry, ...] | None = None
    offset: int | None = None
    add: tuple[str, ...] = ()
    keep: frozenset[str] = frozenset()
    pinned: Mapping[str, str] = field(default_factory=dict)
    where: str = ""

    def fixed(self) -> dict[str, str] | None:
        """Entity key -> given replacement, for ``build_table``; None without entries."""
        return None if self.entries is None else {norm(e.original): e.fantasy for e in self.entries}


def read_mapping(path: str | Path) -> dict[str, Adjust]:
    """Read an (edited) audit file: instance id -> its entities and date offset.

    Raises:
        InputError: listing every problem, each naming the file, line and field.
    """
    problems: list[str] = []
    out: dict[str, Adjust] = {}
    first_line: dict[str, int] = {}
    for lineno, line in enumerate(read_text(path).split("\n"), 1):
        if not line.strip():
            continue
        where = f"{path}: line {lineno}"
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as e:
            problems.append(f"{where}, column {e.colno}: {e.msg}")
            continue
        found = schema_problems(rec, "mapping", where)
        if found:
            problems += found
            continue
        entries: list[Entry] = []
        seen: dict[str, int] = {}
        for k, ent in enumerate(rec["entities"]):
            at = f"{where}: entities/{k}"
            if norm(ent["original"]) in seen:
                problems.append(f"{at}: original {ent['original']!r} is already entities/{seen[norm(ent['original'])]}")
                continue
            seen[norm(ent["original"])] = k
            if not ent["fantasy"].strip():
                problems.append(f"{at}: fantasy is empty")
                continue
            entries.append(Entry(ent["original"], ent["fantasy"], ent["type"], at, tuple(ent.get("forms") or ())))
        adjust = Adjust(tuple(entries), rec["date_offset"], where=where)
        iid = rec["id"]
        if iid in out:  # another variation of the same contradiction: one mapping per id
            if _differs(out[iid], adjust):
                problems.append(f"{where}: id {iid!r} has another mapping on line {first_line[iid]}")
            continue
        out[iid], first_line[iid] = adjust, lineno
    if problems:
        raise InputError(problems)
    return out


def _differs(a: Adjust, b: Adjust) -> bool:
    def pairs(adj: Adjust) -> list[tuple[str, str, str]]:
        return sorted((e.original, e.fantasy, e.type) for e in adj.entries or ())

    return pairs(a) != pairs(b) or a.offset != b.offset
