"""Human labels: read a TSV, CSV or JSONL file of verdicts and match each to a checked result.

A label says which result one check *should* have given for one testee response: "1" (pass) or
"0" (fail) for a binary check, one of the check function's labels (e.g. ``correct``, ``partially
correct``, ``incorrect``) for a multiclass one. It is keyed by qid x prompt id x testee LLM x check
id, the same key a checked results file has, under column names the caller may change. Every problem
(a missing column, a label matching no record, a duplicate, a value the check cannot give) is
collected with its line and raised at once, so a labeller fixes the file in one go.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ragability_gen.core.fileio import read_text
from ragability_gen.core.table import read_table
from ragability_gen.errors import InputError

LabelKey = tuple[str, str, str, str]  # qid, pid, llm, cid
MAX_PROBLEMS = 20
BINARY_SYNONYMS = {"1": "1", "0": "0", "yes": "1", "no": "0", "true": "1", "false": "0", "pass": "1", "fail": "0"}
"""How a binary label may be written (case-insensitive); it is compared as "1" or "0"."""


@dataclass(frozen=True)
class Columns:
    """Which column (or JSONL field) of the label file holds each part of the key, and the label."""

    qid: str = "qid"
    pid: str = "pid"
    llm: str = "llm"
    cid: str = "cid"
    label: str = "label"


@dataclass(frozen=True)
class Label:
    """One human label as read, with the line it is on."""

    line: int
    key: LabelKey
    value: str


class Problems:
    """Problem lines, the first MAX_PROBLEMS kept and the rest counted; raised as one InputError."""

    def __init__(self, source: str):
        self.source = source
        self.lines: list[str] = []
        self.count = 0

    def add(self, line: int | None, msg: str) -> None:
        self.count += 1
        if len(self.lines) < MAX_PROBLEMS:
            self.lines.append(f"{self.source}: {f'line {line}: ' if line else ''}{msg}")

    def raise_if_any(self, total: int, what: str = "labels") -> None:
        if self.count:
            more = [f"{self.source}: ... and {self.count - len(self.lines)} more problems"] \
                if self.count > len(self.lines) else []
            raise InputError(self.lines + more + [f"{self.source}: {self.count} problems in {total} {what}; "
                                                  "nothing was written"])


def read_labels(path: str | Path, columns: Columns | None = None) -> list[Label]:
    """Read every label of a TSV (``.tsv``), CSV (``.csv``) or JSON Lines (``.jsonl``) file.

    Raises:
        InputError: the file cannot be parsed, lacks a column, or a row has an empty key or label;
            one line per problem, with the line number.
    """
    path, columns = Path(path), columns or Columns()
    suffix = path.suffix.lower()
    names = (columns.qid, columns.pid, columns.llm, columns.cid, columns.label)
    problems = Problems(str(path))
    rows: list[tuple[int, dict[str, object]]] = []
    if suffix == ".jsonl":
        for n, line in enumerate(read_text(path).split("\n"), 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as e:
                problems.add(n, f"column {e.colno}: {e.msg}")
                continue
            if not isinstance(rec, dict):
                problems.add(n, f"expected an object, got {type(rec).__name__}")
                continue
            rows.append((n, rec))
    elif suffix in (".tsv", ".csv", ".tab", ".txt"):
        table = read_table(path, "," if suffix == ".csv" else "\t")
        missing = [c for c in names if c not in table.header]
        if missing:
            raise InputError(f"{path}: line 1: no column {', '.join(repr(c) for c in missing)} "
                             f"(columns: {', '.join(table.header)}); name the columns with the --*-column options")
        rows = [(n, dict(zip(table.header, cells, strict=True))) for n, cells in table.rows]
    else:
        raise InputError(f"{path}: unknown label file format {suffix or '(no suffix)'!r}: use .tsv, .csv or .jsonl")
    labels = []
    for n, rec in rows:
        values = []
        for name in names:
            v = rec.get(name)
            if isinstance(v, (int, float)) and not isinstance(v, bool) and name == columns.label:
                v = str(int(v)) if float(v).is_integer() else str(v)
            if not isinstance(v, str) or not v.strip():
                problems.add(n, f"field {name}: missing or empty")
                break
            values.append(v.strip())
        else:
            labels.append(Label(n, (values[0], values[1], values[2], values[3]), values[4]))
    problems.raise_if_any(len(rows), "rows")
    if not labels:
        raise InputError(f"{path}: no labels")
    return labels


def normalise(value: str, kind: str, allowed: tuple[str, ...]) -> str | None:
    """The label as the check writes its result ("1"/"0", or the multiclass label); None if it cannot be one."""
    v = " ".join(value.lower().split())
    if kind == "binary":
        return BINARY_SYNONYMS.get(v)
    return next((a for a in allowed if a.lower() == v), None)
