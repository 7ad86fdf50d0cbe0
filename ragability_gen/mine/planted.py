"""Scoring mined candidates against a list of planted conflicts (the demo collection's ground truth).

A planted conflict names two files and a snippet of each side's statement; a candidate finds it when
its fact and the conflicting sentence come from those files (either way round) and hold the two
snippets, so a candidate counts for the one conflict it points at, not for every statement its passages
happen to hold. Recall is the
share of planted conflicts found, precision the share of candidates that find one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ragability_gen.core.fileio import read_records
from ragability_gen.errors import InputError

from .core import Candidate

PLANTED_FIELDS = ("id", "kind", "file_1", "text_1", "file_2", "text_2")


@dataclass(frozen=True)
class PlantedScore:
    """Which planted conflicts were found, and which candidates found none."""

    planted: int
    found: tuple[str, ...]
    missed: tuple[str, ...]
    candidates: int
    false_candidates: int

    @property
    def recall(self) -> float:
        return len(self.found) / self.planted if self.planted else 0.0

    @property
    def precision(self) -> float:
        return (self.candidates - self.false_candidates) / self.candidates if self.candidates else 0.0


def read_planted(path: str | Path) -> list[dict[str, Any]]:
    """The planted conflicts of a JSON Lines file, each with the fields of PLANTED_FIELDS."""
    records = read_records(path, "jsonl")  # syntax problems: one line each, naming line and column
    problems = [f"{path}: record {n}: field {missing[0]}: missing or not a string"
                for n, rec in enumerate(records, 1)
                if (missing := [f for f in PLANTED_FIELDS if not isinstance(rec.get(f), str)])]
    if problems:
        raise InputError(problems)
    return records


def _finds(c: Candidate, p: dict[str, Any]) -> bool:
    sides = [(c.fact.passage.file, c.fact.text), (c.evidence.file, c.evidence_sentence)]
    want = [(p["file_1"], p["text_1"]), (p["file_2"], p["text_2"])]
    for a, b in (want, want[::-1]):
        if all(f == wf and t in text for (f, text), (wf, t) in zip(sides, (a, b), strict=True)):
            return True
    return False


def score_planted(candidates: Sequence[Candidate], planted: Sequence[dict[str, Any]],
                  kinds: Sequence[str] | None = None) -> PlantedScore:
    """Recall over the planted conflicts (of ``kinds`` only, when given) and precision of the candidates."""
    chosen = [p for p in planted if kinds is None or p["kind"] in kinds]
    found = tuple(p["id"] for p in chosen if any(_finds(c, p) for c in candidates))
    missed = tuple(p["id"] for p in chosen if p["id"] not in found)
    false = sum(1 for c in candidates if not any(_finds(c, p) for p in planted))
    return PlantedScore(len(chosen), found, missed, len(candidates), false)
