"""Checked results and eval tables as pandas DataFrames, for analysis in notebooks.

pandas is an optional dependency (``pip install "ragability-gen[pandas]"``): it is imported only when a
frame is asked for, and its absence is a :class:`DependencyError` saying what to install.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragability_gen.core.fileio import RecordSource
from ragability_gen.errors import DependencyError, InputError

from .export import CHECK_ORDER, ITEM_ORDER

if TYPE_CHECKING:
    import pandas as pd

    from .core import Report, Table

STAT_COLUMNS = ("llm", "metric", "kind", "stat", "value", "ci_low", "ci_high", "count", "n", "query_errors",
                "check_errors")
"""The columns of every eval table after its group columns (as in the report's TSV tables)."""


def pandas() -> Any:
    """The pandas module, or a DependencyError that says how to install it."""
    try:
        import pandas as pd
    except ImportError:
        raise DependencyError('pandas is not installed; install it with: pip install "ragability-gen[pandas]" '
                              "(or pip install pandas)") from None
    return pd


def checked_frame(checked: str | Path | Iterable[Mapping[str, Any]], source: str | None = None) -> pd.DataFrame:
    """One row per record x check of a suite, results or checked file (one row for a record without checks).

    Item fields come first (qid, llm, pid, tags, query, facts, ... then any others), then the check's as
    ``check.<key>`` (cid, func, metrics, ..., result, error), as ``ragability-gen export --all`` lays them
    out; values keep their JSON types (lists stay lists; a null or missing value is pandas' missing value,
    so test with ``isna()``).

    Raises:
        DependencyError: pandas is not installed.
        InputError: the file cannot be read, or a record's checks are not a list of objects.
    """
    pd = pandas()
    if isinstance(checked, (str, Path)):
        source = source or str(checked)
        checked = RecordSource(checked)
    source = source or "<records>"
    rows: list[dict[str, Any]] = []
    item_keys: dict[str, None] = {}
    check_keys: dict[str, None] = {}
    problems: list[str] = []
    for i, rec in enumerate(checked, 1):
        base = {k: v for k, v in rec.items() if k != "checks"}
        item_keys.update(dict.fromkeys(base))
        checks = rec.get("checks")
        if checks is not None and (not isinstance(checks, list) or not all(isinstance(c, dict) for c in checks)):
            qid = rec.get("qid")
            problems.append(f"{source}: item {i}{f' ({qid})' if isinstance(qid, str) and qid else ''}: field checks: "
                            "must be a list of objects")
            continue
        for c in checks or [{}]:
            check_keys.update(dict.fromkeys(c))
            rows.append({**base, **{f"check.{k}": v for k, v in c.items()}})
    if problems:
        raise InputError(problems)
    columns = _ordered(item_keys, ITEM_ORDER) + [f"check.{k}" for k in _ordered(check_keys, CHECK_ORDER)]
    return pd.DataFrame(rows, columns=columns)


def _ordered(found: dict[str, None], order: tuple[str, ...]) -> list[str]:
    return [k for k in order if k in found] + [k for k in found if k not in order]


def table_frame(table: Table) -> pd.DataFrame:
    """One eval table: its group columns, then :data:`STAT_COLUMNS`; a value without data is NaN."""
    pd = pandas()
    rows = [[*r.group, r.llm, r.metric, r.kind, r.stat, r.value, r.ci_low, r.ci_high, r.count, r.n, r.query_errors,
             r.check_errors] for r in table.rows]
    frame = pd.DataFrame(rows, columns=[*table.columns, *STAT_COLUMNS])
    for col in ("value", "ci_low", "ci_high"):
        frame[col] = frame[col].astype("float64")
    frame["count"] = frame["count"].astype("Int64")  # None for score metrics
    return frame


def report_frames(report: Report) -> dict[str, pd.DataFrame]:
    """Every table of a report by name (``overall`` first, then one per breakdown), plus ``errors``.

    ``errors`` lists the checks without a result: llm, qid, pid, cid, func, source (query or check), error.
    """
    pd = pandas()
    frames = {t.name: table_frame(t) for t in report.tables}
    frames["errors"] = pd.DataFrame([[e.llm, e.qid, e.pid, e.cid, e.func, e.source, e.error] for e in report.errors],
                                    columns=["llm", "qid", "pid", "cid", "func", "source", "error"])
    return frames
