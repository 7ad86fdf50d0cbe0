"""Rewriting one text with an instance's mapping and date offset, and checking the result.

A rewrite is a list of edits over the original text (each invented name part, each shifted date
number). Keeping the edits, rather than only the new text, lets a check map any old position to the
new text: that is how an answer lost from its context is taken from the rewritten context again.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .dates import Slot, interval_problems, read, render
from .kinds import named_by_day
from .mapping import Table, edited

_DIGITS = re.compile(r"\d+")


@dataclass(frozen=True)
class Edit:
    """One replaced stretch: old span, new text, and new span; ``key`` is the entity key or "date"."""

    start: int
    end: int
    new: str
    key: str
    new_start: int = 0


@dataclass
class Rewrite:
    """One text before and after, with its edits, its date slots and what the checks found.

    Attributes:
        hits: (old mention, new mention, entity key) of every name mention replaced, for the audit.
        slots: The date slots of the old text; ``dates`` pairs each with its new text (None if lost).
        problems: (reason, detail) of what the checks found and could not repair.
        repairs: (reason, detail) of what was repaired.
    """

    old: str
    new: str = ""
    edits: list[Edit] = field(default_factory=list)
    hits: list[tuple[str, str, str]] = field(default_factory=list)
    slots: list[Slot] = field(default_factory=list)
    dates: list[tuple[Slot, str | None]] = field(default_factory=list)
    problems: list[tuple[str, str]] = field(default_factory=list)
    repairs: list[tuple[str, str]] = field(default_factory=list)

    def map(self, pos: int) -> int | None:
        """The new offset of old offset ``pos``; None when it falls inside an edit."""
        delta = 0
        for e in self.edits:
            if pos <= e.start:
                break
            if pos < e.end:
                return None
            delta += len(e.new) - (e.end - e.start)
        return pos + delta

    def number_in_date(self, pos: int, old: str) -> str | None:
        """The new form of the number ``old`` at old offset ``pos`` inside a shifted date, which ``map`` cannot
        follow: "1600" of "1600 B.C.E." (shifted as a whole to "1543 B.C.E.") is "1543"; None otherwise."""
        if not old.isdigit():
            return None
        for e in self.edits:
            if e.key == "date" and e.start <= pos and pos + len(old) <= e.end:
                olds = [m.span() for m in _DIGITS.finditer(self.old, e.start, e.end)]
                news = _DIGITS.findall(e.new)
                if (pos, pos + len(old)) in olds and len(olds) == len(news):
                    return news[olds.index((pos, pos + len(old)))]
        return None


def rewrite(text: str, table: Table, slots: Sequence[Slot], offset: int | None,
            is_name: Callable[[int], bool] | None, cells: bool = True) -> Rewrite:
    """Apply the name mapping and the date shift to ``text``.

    Args:
        slots: The text's date slots, shifted by ``offset`` (ignored when offset is None).
        is_name: Name test for "proper" aliases (see ``entities.NameTest``); None accepts every mention.
        cells: Whether bars make table cells (see ``Table.matches``); not in metadata.
    """
    rw = Rewrite(text, slots=list(slots) if offset is not None else [])
    edits = [Edit(s.start, s.end, render(s, text[s.start:s.end], offset), "date")
             for s in rw.slots if offset is not None]
    for hit in table.matches(text, is_name, cells):
        parts, new = hit.parts, hit.new
        if any(hit.start < s.expr[1] and s.expr[0] < hit.end for s in rw.slots):
            # a name and a date overlap: the date edit wins where they do ("May 2019"), and the name's other
            # parts change ("Index of Economic Freedom 2008" -> "Ekersen of Economic Freedom 1982")
            parts = tuple(p for p in parts if not any(p[0] < s.expr[1] and s.expr[0] < p[1] for s in rw.slots))
            if not parts:
                continue
            new = edited(text, hit.start, hit.end, parts)
        if not hit.in_host:
            rw.hits.append((text[hit.start:hit.end], new, hit.key))
        edits += [Edit(a, *_possessive(text, b, part), hit.key) for a, b, part in parts]
    out, last, size, placed = [], 0, 0, []
    for e in sorted(edits, key=lambda e: e.start):
        out += [text[last:e.start], e.new]
        size += e.start - last
        placed.append(Edit(e.start, e.end, e.new, e.key, size))
        size += len(e.new)
        last = e.end
    out.append(text[last:])
    rw.new, rw.edits = "".join(out), placed
    at = {e.start: (e.new_start, e.new_start + len(e.new)) for e in placed if e.key == "date"}
    rw.dates = [(s, rw.new[slice(*at[s.start])] if s.start in at else None) for s in rw.slots]  # as the new text has it
    return rw


def _possessive(text: str, end: int, new: str) -> tuple[int, str]:
    """The end and the text of an edit replacing a word that ends at ``end``: a plural's possessive ("The Beatles'
    manager", "Thirty Years' War") takes its apostrophe along and gets "'s" where the new word has no "s" at its end
    ("The Badiblova's manager", not "The Badiblova' manager")."""
    if (end < len(text) and text[end] in "'’" and text[end - 1:end] in ("s", "S") and new[-1:] not in ("s", "S")
            and not (end + 1 < len(text) and _word_char(text[end + 1]))):
        return end + 1, new + text[end] + "s"  # "The SES' Laura Goodin": "The GCZ's Laura ..."
    return end, new


NUMBERS_CHANGED = "a number that is no date changed"


def check_numbers(rw: Rewrite) -> list[tuple[str, str]]:
    """Durations and counts must survive: the numbers outside date slots and events named by their day ("9/11") are
    the same before and after."""
    date_new = [(e.new_start, e.new_start + len(e.new)) for e in rw.edits if e.key == "date"]
    days = [(e.start, e.end) for e in rw.edits if e.key != "date" and named_by_day(rw.old[e.start:e.end])]
    old = [m[0] for m in _DIGITS.finditer(rw.old) if not any(s.start <= m.start() < s.end for s in rw.slots)
           and not any(a <= m.start() < b for a, b in days)]
    new = [m[0] for m in _DIGITS.finditer(rw.new) if not any(a <= m.start() < b for a, b in date_new)]
    return [] if old == new else [(NUMBERS_CHANGED, f"{' '.join(old)} became {' '.join(new)}")]


def check_dates(rewrites: Sequence[Rewrite], offset: int) -> list[str]:
    """Every date of the given texts read back as its old value plus ``offset``, day intervals kept."""
    return interval_problems([(s, None if new is None else read(s, new, offset))
                              for rw in rewrites for s, new in rw.dates], offset)


def word_in(part: str, text: str) -> int | None:
    """Offset of the first word-bounded occurrence of ``part`` in ``text``, or None."""
    if not part.strip():
        return None
    i = text.find(part)
    while i >= 0:
        before, after = text[i - 1:i], text[i + len(part):i + len(part) + 1]
        if not (_word_char(before) and _word_char(part[0])) and not (_word_char(after) and _word_char(part[-1])):
            return i
        i = text.find(part, i + 1)
    return None


def _word_char(c: str) -> bool:
    return bool(c) and (c.isalnum() or c == "_")
