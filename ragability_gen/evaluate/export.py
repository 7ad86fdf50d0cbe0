"""Stage helper: a suite, results or checked file as a flat TSV, one row per item x check.

For reading results in a spreadsheet or pandas. Item fields come first, then the check's fields as
``check.<key>``: the known ones in a fixed order, then the others in the order first met. Cells: facts
one passage per line, other lists of plain values joined with ", ", objects and nested lists as
compact JSON, null as empty.
Columns holding the same value in every row (say ``check.query`` = "" throughout) say nothing and
are dropped unless asked for; ``qid`` and ``check.cid`` are kept since they name the row.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ragability_gen.core.fileio import RecordSource
from ragability_gen.core.table import write_table
from ragability_gen.errors import InputError

KEEP = ("qid", "check.cid")
ITEM_ORDER = ("qid", "llm", "pid", "tags", "query", "facts", "pids", "response", "error", "cost")
CHECK_ORDER = ("cid", "func", "metrics", "pid", "query", "check_for", "args", "kwargs", "llm", "response", "result",
               "error", "cost")
"""Known fields come first in this order, whatever order a file has them in; others follow as first met."""


@dataclass
class ExportSummary:
    """What an export wrote: rows, the columns kept, and the constant columns dropped with their value."""

    records: int
    rows: int
    columns: list[str]
    dropped: list[tuple[str, str]] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = [f"exported {self.records} records as {self.rows} rows x {len(self.columns)} columns"]
        if self.dropped:
            shown = ", ".join(f"{c}={v[:20] + '...' if len(v) > 20 else v!r}" for c, v in self.dropped)
            out.append(f"  dropped {len(self.dropped)} constant column(s) (--all keeps them): {shown}")
        return out


def cell(value: Any, key: str = "") -> str:
    """One value as TSV cell text (see the module docstring)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, list) and all(isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in value):
        return ("\n" if key == "facts" else ", ").join(v if isinstance(v, str) else repr(v) for v in value)
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def export_rows(records: Iterable[Mapping[str, Any]], keep_constant: bool = False, source: str = "<records>"
                ) -> tuple[list[str], list[list[str]], list[tuple[str, str]]]:
    """Flatten records into (header, rows, dropped constant columns with their value).

    ``records`` is iterated three times (columns, constant columns, rows); pass a ``RecordSource`` to
    keep memory flat in the number of records, as ``export_tsv`` does.

    Raises:
        InputError: when a record's checks are not a list of objects (one line per item).
    """
    header, keep, dropped = _layout(records, keep_constant, source)
    return [header[j] for j in keep], [[r[j] for j in keep] for r in _rows(records, header)], dropped


def _layout(records: Iterable[Mapping[str, Any]], keep_constant: bool, source: str
            ) -> tuple[list[str], list[int], list[tuple[str, str]]]:
    """The full header, the indices of the columns to keep, and the dropped constant columns."""
    problems = []
    item_cols: dict[str, None] = {}
    check_cols: dict[str, None] = {}
    for i, rec in enumerate(records, 1):
        item_cols.update(dict.fromkeys(k for k in rec if k != "checks"))
        checks = rec.get("checks")
        if checks is not None and (not isinstance(checks, list) or not all(isinstance(c, dict) for c in checks)):
            qid = rec.get("qid")
            name = f"item {i} ({qid})" if isinstance(qid, str) and qid else f"item {i}"
            problems.append(f"{source}: {name}: field checks: must be a list of objects")
            continue
        for c in checks or ():
            check_cols.update(dict.fromkeys(c))
    if problems:
        raise InputError(problems)
    item_keys, check_keys = _ordered(item_cols, ITEM_ORDER), _ordered(check_cols, CHECK_ORDER)
    header = item_keys + [f"check.{k}" for k in check_keys]
    if keep_constant:
        return header, list(range(len(header))), []
    first: list[str] | None = None
    varies = [name in KEEP for name in header]
    n = 0
    for row in _rows(records, header):
        n += 1
        if first is None:
            first = row
        else:
            varies = [v or row[j] != first[j] for j, v in enumerate(varies)]
    if n <= 1 or first is None:
        return header, list(range(len(header))), []
    keep = [j for j, v in enumerate(varies) if v]
    return header, keep, [(name, first[j]) for j, name in enumerate(header) if not varies[j]]


def _rows(records: Iterable[Mapping[str, Any]], header: list[str]) -> Iterator[list[str]]:
    """One row of cells per item x check (one per item without checks), in ``header``'s columns."""
    item_keys = [k for k in header if not k.startswith("check.")]
    check_keys = [k[6:] for k in header if k.startswith("check.")]
    for rec in records:
        base = [cell(rec.get(k), k) for k in item_keys]
        for c in rec.get("checks") or [{}]:
            yield base + [cell(c.get(k), k) for k in check_keys]


def _ordered(found: dict[str, None], order: Sequence[str]) -> list[str]:
    return [k for k in order if k in found] + [k for k in found if k not in order]


def export_tsv(source: str | Path, output: str | Path, keep_constant: bool = False) -> ExportSummary:
    """Write a suite, results or checked file as a TSV, atomically.

    Raises:
        InputError: when the file cannot be read, holds no records, or its checks are malformed.
    """
    records = RecordSource(source)  # streamed on each pass: memory stays flat in the number of records
    if next(iter(records), None) is None:
        raise InputError(f"{source}: no records: nothing to export")
    header, keep, dropped = _layout(records, keep_constant, str(source))
    n_records = 0

    def rows() -> Iterator[list[str]]:
        nonlocal n_records
        for rec in records:
            n_records += 1
            for r in _rows((rec,), header):
                yield [r[j] for j in keep]

    n_rows = write_table(output, [header[j] for j in keep], rows())
    return ExportSummary(n_records, n_rows, [header[j] for j in keep], dropped)
