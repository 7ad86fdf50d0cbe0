"""Stage: checked results -> metrics per LLM, overall and broken down by tags and fields.

One pass over the records validates them and counts check outcomes under a compact key (LLM,
metric, the item's tag string, the field values the breakdowns need); breakdowns are then tabulated
from those counts, not from the records, so a 240,000-item file costs one pass however many
breakdowns are asked for. A check whose result is null is an error: counted per cell as a query
error (the testee failed) or a check error (the checker or the check function failed), never as a
pass or a failure.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from itertools import product
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragability_gen.checkfuncs import CHECKS, CheckFunc
from ragability_gen.core.fileio import RecordSource
from ragability_gen.core.validate import repeat_qid
from ragability_gen.errors import InputError

from . import stats
from .breakdowns import NONE, Breakdown, FieldPart, TagPart, group_label, parse_breakdowns
from .clid import ClidReport, evaluate_clid, has_clid_tags

if TYPE_CHECKING:
    from .checkers import CheckerFigures

MAX_PROBLEMS = 20
_QUERY_ERROR, _CHECK_ERROR = "\0query", "\0check"
_BINARY = {"1": "1", "0": "0", 1: "1", 0: "0"}


@dataclass(frozen=True)
class StatRow:
    """One statistic of one metric for one LLM in one group.

    ``stat`` is ``accuracy`` (binary: share of passes), ``mean`` (score) or a label (multiclass: its
    share). ``count`` is how many results gave the target or label, ``n`` how many results there
    were; checks without a result are counted apart in ``query_errors`` and ``check_errors``.
    """

    group: tuple[str, ...]
    llm: str
    metric: str
    kind: str
    stat: str
    value: float | None
    ci_low: float | None
    ci_high: float | None
    count: int | None
    n: int
    query_errors: int
    check_errors: int


@dataclass
class Table:
    """The rows of one breakdown (``overall`` has no group columns)."""

    name: str
    columns: tuple[str, ...]
    rows: list[StatRow]


@dataclass(frozen=True)
class CheckError:
    """A check without a result, and why: ``source`` is ``query`` (testee failed) or ``check``."""

    llm: str
    qid: str
    pid: str
    cid: str
    func: str
    source: str
    error: str


@dataclass
class LLMSummary:
    """Per testee LLM: records, failed queries, checks (each once, whatever its metrics), results, costs."""

    records: int = 0
    failed_queries: int = 0
    checks: int = 0
    query_errors: int = 0
    check_errors: int = 0
    cost: float = 0.0
    check_cost: float = 0.0

    @property
    def results(self) -> int:
        return self.checks - self.query_errors - self.check_errors


@dataclass
class Report:
    """Everything ``write_report`` renders: tables first overall, then one per breakdown.

    ``metrics`` maps each metric to its kind (binary, multiclass, score) in the order first seen;
    ``labels`` gives each multiclass metric's labels in report order (declared ones first).
    """

    source: str
    records: int
    items: int
    per_llm: dict[str, LLMSummary]
    metrics: dict[str, str]
    labels: dict[str, list[str]]
    errors: list[CheckError]
    tables: list[Table] = field(default_factory=list)
    checkers: CheckerFigures | None = None  # set when several checkers answered the checks
    clid: ClidReport | None = None  # inconsistency detection figures (AUROC, F1), when items carry CLID tags
    #: records whose qid, pid and llm repeat an earlier record's: counted as ``QID#2``, ``QID#3``, ...
    repeated: list[str] = field(default_factory=list)

    @property
    def llms(self) -> list[str]:
        return list(self.per_llm)

    @property
    def totals(self) -> LLMSummary:
        """The per-LLM summaries added up."""
        out = LLMSummary()
        for s in self.per_llm.values():
            for f in fields(LLMSummary):
                setattr(out, f.name, getattr(out, f.name) + getattr(s, f.name))
        return out

    def table(self, name: str) -> Table | None:
        return next((t for t in self.tables if t.name == name), None)

    def to_frames(self) -> dict[str, Any]:
        """The tables as pandas DataFrames by name, plus ``errors`` (see ``frames.report_frames``; needs pandas)."""
        from .frames import report_frames

        return report_frames(self)


class _Cell:
    __slots__ = ("counts", "total", "total_sq")

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.total = 0.0
        self.total_sq = 0.0

    def merge(self, other: _Cell) -> None:
        for k, v in other.counts.items():
            self.counts[k] = self.counts.get(k, 0) + v
        self.total += other.total
        self.total_sq += other.total_sq


class _Problems:
    """Collects problem lines, keeping the first MAX_PROBLEMS and counting the rest."""

    def __init__(self, source: str):
        self.source = source
        self.lines: list[str] = []
        self.more = 0

    def add(self, index: int, qid: Any, where: str, msg: str) -> None:
        if len(self.lines) >= MAX_PROBLEMS:
            self.more += 1
            return
        item = f"item {index} ({qid})" if isinstance(qid, str) and qid else f"item {index}"
        self.lines.append(f"{self.source}: {item}: {f'field {where}: ' if where else ''}{msg}")

    def raise_if_any(self) -> None:
        if self.lines:
            more = [f"{self.source}: ... and {self.more} more problems"] if self.more else []
            raise InputError(self.lines + more)


def evaluate_checked(checked: str | Path | Sequence[Mapping[str, Any]], by_tags: Sequence[str] | None = None,
                     by_fields: Sequence[str] | None = None, source: str | None = None) -> Report:
    """Compute the metrics of a checked file (or its records).

    Args:
        checked: Path of a checked file (hjson, json, jsonl), or its records.
        by_tags: Tag breakdown specs (see ``breakdowns``); None for the defaults.
        by_fields: Field breakdown specs; None for the defaults (per prompt id).
        source: Name used in messages; defaults to the path.

    Raises:
        InputError: when the input is empty, is not a checked file, or a record is malformed;
            one line per problem naming the item and field.
    """
    if isinstance(checked, (str, Path)):
        source = source or str(checked)
        records: Iterable[Mapping[str, Any]] = RecordSource(checked)  # streamed: memory flat in the records
    else:
        source, records = source or "<records>", checked
    breakdowns = parse_breakdowns(by_tags, by_fields)
    fields = list(dict.fromkeys(p.field for b in breakdowns for p in b.parts if isinstance(p, FieldPart)))
    fields = [f for f in fields if not f.startswith("check.")] + [f for f in fields if f.startswith("check.")]
    agg, report = _aggregate(records, source, fields)
    index = {f: i for i, f in enumerate(fields)}
    tag_cache: dict[tuple[int, str], list[str]] = {}
    for b in [Breakdown("overall", ()), *breakdowns]:
        table, unmatched = _tabulate(b, agg, report, index, tag_cache)
        if unmatched is None:
            report.tables.append(table)
        elif not b.optional:
            what = (f"tag matching {', '.join(unmatched.patterns)}" if isinstance(unmatched, TagPart)
                    else f"field {unmatched.field}")
            raise InputError(f"{source}: breakdown {b.name!r}: no item has a {what}")
    from .checkers import checker_figures  # imported here: it evaluates through this module

    report.checkers = checker_figures(records, source)
    if has_clid_tags({k[2] for k in agg}):  # a second pass over the records, for CLID files only
        report.clid = evaluate_clid(records, report.metrics)
    return report


def _not_checked(records: Iterable[Mapping[str, Any]], source: str) -> str | None:
    """Why the file is not a checked file at all, or None when some check has a result."""
    if next(iter(records), None) is None:
        return f"{source}: no records: nothing to evaluate"
    for rec in records:
        for c in rec.get("checks") or ():
            if isinstance(c, dict) and "result" in c:
                return None
    if not any("llm" in rec for rec in records):
        return (f"{source}: not a checked file: its records have no llm and no check results "
                "(a test suite? run query and check first)")
    return f"{source}: not a checked file: no check has a result (a results file? run check first)"


def _aggregate(records: Iterable[Mapping[str, Any]], source: str,
               fields: list[str]) -> tuple[dict[tuple[Any, ...], _Cell], Report]:
    """Validate every record and count outcomes per (llm, metric, tags, field values).

    ``fields`` are the item fields the breakdowns need, then the ``check.<key>`` ones.
    """
    whole = _not_checked(records, source)
    if whole:
        raise InputError(whole)
    counter = _Counter(source, fields)
    for i, rec in enumerate(records, 1):
        counter.add_record(i, rec)
    return counter.result()


class _Counter:
    """One pass of ``_aggregate``: each record is checked, summed per LLM, and its checks counted per cell."""

    def __init__(self, source: str, fields: list[str]):
        self.source = source
        self.rfields = [f for f in fields if not f.startswith("check.")]
        self.cfields = [f[6:] for f in fields if f.startswith("check.")]
        self.probs = _Problems(source)
        self.agg: dict[tuple[Any, ...], _Cell] = {}
        self.metric_kind: dict[str, str] = {}
        self.metric_funcs: dict[str, set[str]] = {}
        self.per_llm: dict[str, LLMSummary] = {}
        self.seen: dict[tuple[str, str, str], int] = {}
        self.repeats: dict[tuple[str, str, str], int] = {}
        self.errors: list[CheckError] = []
        self.qids: set[str] = set()
        self.n_records = 0

    def add_record(self, i: int, rec: Mapping[str, Any]) -> None:
        """Count record ``i`` (1-based), or note its problems and skip it."""
        self.n_records = i
        qid: Any = rec.get("qid")  # Any: checked by _record_problems, and the record skipped when wrong
        found = _record_problems(rec)
        for where, msg in found:
            self.probs.add(i, qid, where, msg)
        if found:
            return
        llm, pid, qerr = rec["llm"], rec.get("pid", ""), rec.get("error") or ""
        if "pid" in rec:  # without a pid, one item asked with two prompts legitimately repeats
            key = (qid, pid, llm)
            if key in self.seen:  # python-ragability's converter repeats qids: counted as QID#2, ... and named
                self.repeats[key] = self.repeats.get(key, 1) + 1
                qid = repeat_qid(qid, self.repeats[key])
            else:
                self.seen[key] = i
        self.qids.add(qid)
        summary = self.per_llm.get(llm)
        if summary is None:
            summary = self.per_llm[llm] = LLMSummary()
        summary.records += 1
        summary.failed_queries += bool(qerr)
        summary.cost += _cost(rec) or 0.0
        key_start = (llm, rec.get("tags", ""), tuple([group_label(rec.get(f)) for f in self.rfields]))
        for j, c in enumerate(rec["checks"]):
            self._add_check(i, rec, j, c, summary, key_start)

    def _add_check(self, i: int, rec: Mapping[str, Any], j: int, c: Any, summary: LLMSummary,
                   key_start: tuple[str, str, tuple[str, ...]]) -> None:
        """Count one check under each of its metrics: its outcome (an error when its result is null)."""
        qid, qerr = rec["qid"], rec.get("error") or ""
        problem = _check_problem(c, qerr)
        if problem:
            self.probs.add(i, qid, f"checks/{j}{problem[0]}", problem[1])
            return
        cf = CHECKS[c["func"]]
        summary.checks += 1
        summary.check_cost += _cost(c) or 0.0
        score = None
        if c["result"] is None:
            outcome = self._error(rec, c, cf, summary)
        else:
            outcome, score, msg = _outcome(cf, c["result"])
            if msg:
                self.probs.add(i, qid, f"checks/{j}/result", f"{cf.name} is a {cf.kind} check: {msg}")
                return
        llm, tags, fvals = key_start
        cvals = tuple([group_label(c.get(f)) for f in self.cfields])
        for m in c["metrics"]:
            kind = self.metric_kind.setdefault(m, cf.kind)
            if kind != cf.kind:
                self.probs.add(i, qid, f"checks/{j}/metrics", f"metric {m!r} gets {kind} results elsewhere but "
                               f"{cf.kind} results from {cf.name}")
                continue
            self.metric_funcs.setdefault(m, set()).add(cf.name)
            self._count((llm, m, tags, fvals + cvals), outcome, score)

    def _error(self, rec: Mapping[str, Any], c: dict[str, Any], cf: CheckFunc, summary: LLMSummary) -> str:
        """The outcome of a check without a result: a query error (the testee failed) or a check error."""
        qerr = rec.get("error") or ""
        if qerr:
            summary.query_errors += 1
        else:
            summary.check_errors += 1
        outcome = _QUERY_ERROR if qerr else _CHECK_ERROR
        self.errors.append(CheckError(rec["llm"], rec["qid"], rec.get("pid", ""), str(c.get("cid", "")), cf.name,
                                      outcome[1:], qerr or c.get("error") or "no result and no error given"))
        return outcome

    def _count(self, key: tuple[Any, ...], outcome: str, score: float | None) -> None:
        cell = self.agg.get(key)
        if cell is None:
            cell = self.agg[key] = _Cell()
        cell.counts[outcome] = cell.counts.get(outcome, 0) + 1
        if score is not None:
            cell.total += score
            cell.total_sq += score * score

    def result(self) -> tuple[dict[tuple[Any, ...], _Cell], Report]:
        """The cells and the report skeleton; raises with every problem found."""
        self.probs.raise_if_any()
        if not self.metric_kind:
            raise InputError(f"{self.source}: no check names a metric (field metrics): nothing to evaluate")
        labels = {m: _labels(funcs, self.agg, m) for m, funcs in self.metric_funcs.items()
                  if self.metric_kind[m] == "multiclass"}
        return self.agg, Report(self.source, self.n_records, len(self.qids), self.per_llm, self.metric_kind, labels,
                                self.errors, repeated=sorted({k[0] for k in self.repeats}))


def _record_problems(rec: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(field, message) for each record-level field eval needs that is missing or of the wrong type."""
    out = []
    qid, llm, checks = rec.get("qid"), rec.get("llm"), rec.get("checks")
    if not isinstance(qid, str) or not qid:
        out.append(("qid", "missing" if qid is None else "must be a non-empty string"))
    if not isinstance(llm, str) or not llm:
        out.append(("llm", "missing (the testee LLM)" if llm is None else "must be a non-empty string"))
    for name, what in (("pid", "a string"), ("tags", "a comma-separated string"), ("error", "a string")):
        if name in rec and not isinstance(rec[name], str) and not (name == "error" and rec[name] is None):
            out.append((name, f"must be {what}"))
    if _cost(rec) is None:
        out.append(("cost", f"must be a number, got {rec['cost']!r}"))
    if not isinstance(checks, list) or not checks:
        out.append(("checks", "missing" if checks is None else "must be a non-empty list of checks"))
    return out


def _check_problem(c: Any, qerr: str) -> tuple[str, str] | None:
    """(sub-field, message) for the first thing wrong with a check, None when it can be counted.

    Whether a non-null result fits the check's kind is for ``_outcome`` to say.
    """
    if not isinstance(c, dict):
        return "", "must be an object"
    func, metrics = c.get("func"), c.get("metrics")
    if func is None:
        return "/func", "missing"
    if not isinstance(func, str) or func not in CHECKS:
        return "/func", f"unknown check function {func!r}"
    if not isinstance(metrics, list) or not all(isinstance(m, str) and m for m in metrics):
        return "/metrics", "missing" if metrics is None else "must be a list of names"
    if "result" not in c:
        return "/result", "missing (every check of a checked file has a result, null when it could not be made)"
    cerr = c.get("error") or ""
    if not isinstance(cerr, str):
        return "/error", "must be a string"
    if _cost(c) is None:
        return "/cost", f"must be a number, got {c['cost']!r}"
    if c["result"] is not None and qerr:
        return "/result", f"the testee query failed ({qerr[:60]!r}) but the check has a result"
    if c["result"] is not None and cerr:
        return "/result", f"has both a result and an error ({cerr[:60]!r})"
    return None


def _cost(rec: Mapping[str, Any]) -> float | None:
    """The cost field as a number (0 when absent or null), or None when it is not a number."""
    cost = rec.get("cost")
    if cost is None:
        return 0.0
    if isinstance(cost, bool) or not isinstance(cost, (int, float)) or not math.isfinite(cost):
        return None
    return float(cost)


def _outcome(cf: CheckFunc, result: Any) -> tuple[str, float | None, str]:
    """(outcome key, score, problem): the outcome a result counts as, or why it cannot count.

    A binary result counts as a pass ("1") when it equals its function's target, whatever that is.
    """
    kind, labels = cf.kind, cf.labels
    if kind == "binary":
        label = _BINARY.get(result) if isinstance(result, (str, int)) else None
        if label is None:
            return "", None, f"result must be \"1\" or \"0\", got {result!r}"
        return ("1" if label == cf.target else "0"), None, ""
    if kind == "multiclass":
        if not isinstance(result, str) or (labels and result not in labels):
            allowed = f"one of {', '.join(labels)}" if labels else "a label string"
            return "", None, f"result must be {allowed}, got {result!r}"
        return result, None, ""
    try:
        value = float(result) if not isinstance(result, bool) else math.nan
    except (TypeError, ValueError):
        value = math.nan
    if not math.isfinite(value):
        return "", None, f"result must be a number, got {result!r}"
    return "=", value, ""


def _labels(funcs: set[str], agg: dict[tuple[Any, ...], _Cell], metric: str) -> list[str]:
    declared = [lab for f in sorted(funcs) for lab in CHECKS[f].labels]
    found = {k for key, cell in agg.items() if key[1] == metric for k in cell.counts if not k.startswith("\0")}
    # without declared labels and without a single result, one placeholder keeps the errors in the tables
    return list(dict.fromkeys(declared)) + sorted(found - set(declared)) or ["(no results)"]


def _tabulate(b: Breakdown, agg: dict[tuple[Any, ...], _Cell], report: Report, index: dict[str, int],
              tag_cache: dict[tuple[int, str], list[str]]) -> tuple[Table, TagPart | FieldPart | None]:
    """The breakdown's table, and the first part no item has a tag or field for (None if all match)."""
    cells: dict[tuple[tuple[str, ...], str, str], _Cell] = {}
    for (llm, metric, tags, vals), cell in agg.items():
        choices: list[list[str]] = []
        for part in b.parts:
            if isinstance(part, TagPart):
                matched = tag_cache.get((id(part), tags))
                if matched is None:  # the groups depend on the tag string only: match each string once per part
                    matched = tag_cache[(id(part), tags)] = part.groups([t.strip() for t in tags.split(",")
                                                                          if t.strip()])
                choices.append(matched)
            else:
                choices.append([vals[index[part.field]]])
        for group in product(*choices):
            target = cells.get((group, llm, metric))
            if target is None:
                target = cells[(group, llm, metric)] = _Cell()
            target.merge(cell)
    groups = {g for g, _, _ in cells}
    unmatched = next((p for i, p in enumerate(b.parts)
                      if all(g[i] == (p.absent if isinstance(p, TagPart) else NONE) for g in groups)), None)
    order = sorted(groups, key=lambda g: tuple(p.sort_key(v) for p, v in zip(b.parts, g, strict=True)))
    rows = [row for metric, kind in report.metrics.items() for g in order for llm in report.llms
            if (g, llm, metric) in cells
            for row in _rows(g, llm, metric, kind, report.labels.get(metric, []), cells[(g, llm, metric)])]
    return Table(b.name, b.columns, rows), unmatched


def _rows(group: tuple[str, ...], llm: str, metric: str, kind: str, labels: list[str], cell: _Cell) -> list[StatRow]:
    qerr, cerr = cell.counts.get(_QUERY_ERROR, 0), cell.counts.get(_CHECK_ERROR, 0)
    n = sum(cell.counts.values()) - qerr - cerr

    def row(stat: str, value: float | None, ci: tuple[float | None, float | None] | None,
            count: int | None) -> StatRow:
        low, high = ci or (None, None)
        return StatRow(group, llm, metric, kind, stat, value, low, high, count, n, qerr, cerr)

    if kind == "score":
        mean, low, high = stats.mean_interval(n, cell.total, cell.total_sq)
        return [row("mean", mean, (low, high), None)]
    targets = ["1"] if kind == "binary" else labels
    out = []
    for label in targets:
        k = cell.counts.get(label, 0)
        out.append(row("accuracy" if kind == "binary" else label, k / n if n else None, stats.wilson(k, n), k))
    return out
