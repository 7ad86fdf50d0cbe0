"""Eval for files checked by several checkers: each checker's metrics, the majority vote's, and their kappa.

A checked file keeps every checker's verdict in a check's ``checkers`` field (see
``ragability_gen.run.multicheck``). The main report counts the first checker's verdict, the one in the
usual fields. This module evaluates the same records once per checker, and once with the majority
vote as the checker (the verdict more than half of the checkers gave; none on a tie, counted as a
check error), through the same ``evaluate_checked``, so every checker's figures are computed alike.
Checks answered by one checker only (rule checks) keep their result under every checker.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ragability_gen.calibrate.metrics import format_interval as _iv
from ragability_gen.calibrate.verdicts import MAJORITY, PairAgreement, between_checkers, verdicts

if TYPE_CHECKING:
    from .core import StatRow


@dataclass
class CheckerFigures:
    """The overall metrics per testee LLM under each checker (the majority vote last), and checker kappas."""

    checkers: list[str]
    overall: dict[str, list[StatRow]]
    between: list[PairAgreement]


def checker_names(records: Iterable[Mapping[str, Any]]) -> list[str]:
    """The checkers named in ``checkers`` fields, in first-seen order; empty for a one-checker file.

    ``check`` gives every check it sends to checkers the same fields, so the first check answered by a
    checker model tells: without ``checkers`` the file is a one-checker file, and the rest is not read
    (eval of a large file pays nothing for this).
    """
    names: dict[str, None] = {}
    for rec in records:
        for check in rec.get("checks") or ():
            if isinstance(check, Mapping) and isinstance(check.get("checkers"), list):
                names.update((str(e.get("llm")), None) for e in check["checkers"] if isinstance(e, Mapping))
            elif isinstance(check, Mapping) and check.get("llm") and not names:
                return []
    return list(names)


def as_checker(records: Iterable[Mapping[str, Any]], name: str) -> Iterator[dict[str, Any]]:
    """The records with each several-checker check's result replaced by ``name``'s verdict."""
    for rec in records:
        checks = []
        for check in rec.get("checks") or ():
            if isinstance(check, Mapping) and isinstance(check.get("checkers"), list) and not rec.get("error"):
                verdict = verdicts(check).get(name)
                why = "" if verdict is not None else (
                    "no majority among the checkers" if name == MAJORITY else f"no verdict from {name}")
                checks.append({**{k: v for k, v in check.items() if k != "checkers"}, "result": verdict,
                               "error": why})
            else:
                checks.append(check)
        yield {**rec, "checks": checks}


def checker_figures(records: Sequence[Mapping[str, Any]] | Iterable[Mapping[str, Any]],
                    source: str) -> CheckerFigures | None:
    """Each checker's overall figures and the kappa between checkers; None when one checker answered each check.

    ``records`` must be iterable more than once (a list, or a ``RecordSource``).
    """
    from .core import evaluate_checked

    names = checker_names(records)
    if not names:
        return None
    overall = {}
    for name in [*names, MAJORITY]:
        report = evaluate_checked(list(as_checker(records, name)), ["none"], ["none"], source=source)
        overall[name] = report.tables[0].rows
    return CheckerFigures(names, overall, between_checkers(records))


def checker_blocks(figures: CheckerFigures | None) -> list[Any]:
    """The report section: figures per checker side by side, then Cohen's kappa between checkers."""
    from .report import _Block, _cell, _pct

    if figures is None:
        return []
    names = [*figures.checkers, MAJORITY]
    rows: dict[tuple[str, str, str], dict[str, str]] = {}
    for name in names:
        for r in figures.overall[name]:
            text = _cell(r) if r.kind != "multiclass" else f"{_pct(r.value)} n={r.n}"
            stat = "" if r.kind != "multiclass" else f": {r.stat}"
            rows.setdefault((r.metric + stat, r.llm, r.kind), {})[name] = text
    out = [_Block("h2", "Checkers"),
           _Block("p", "The checks were answered by several checkers. The tables above count the first checker's "
                       f"verdicts ({figures.checkers[0]}). Here are the overall figures under each checker, and "
                       "under the majority vote (the verdict more than half of the checkers gave; a tie is counted "
                       "as a check error), then Cohen's kappa between each pair of checkers, with 95% bootstrap "
                       "intervals."),
           _Block("table", header=["metric", "LLM", *names],
                  rows=[[m, llm, *(cells.get(n, "") for n in names)] for (m, llm, _), cells in rows.items()])]
    if figures.between:
        out.append(_Block("table", header=["check", "checker", "checker", "n", "agreement", "Cohen's kappa"],
                          rows=[[p.kind, p.first, p.second, str(p.agreement.n), _iv(p.agreement.agreement, True),
                                 _iv(p.agreement.kappa)] for p in figures.between]))
    return out

