"""Passage-ranking metrics: nDCG@k, Top-k error, pair detection, and their summary table.

Per item, the check functions of ``checkfuncs/ranking.py`` turn a parsed reply into a number with the
functions here: nDCG@k with linear gain (the gain of a passage is its relevance grade, discounted by
log2(rank + 1), as trec_eval and the ContraPRT paper's TREC-style setup compute it), normalised by the
ideal ordering of every candidate's grade; a passage the reply leaves out gains nothing. Top-k error is
whether a conflicting passage is among the first k ranked.

Over items, the eval stage already counts these results per LLM and per tag group with 95% intervals
(Student's t for nDCG means, Wilson for the error and detection shares); :func:`ranking_summary` lays the
overall figures side by side per LLM and variant, like Tables 1 and 2 of the paper, for the report.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .core import Report, StatRow

RANKING_METRICS = ("ndcg_1", "ndcg_5", "ndcg_10", "top1_error", "top5_error", "top10_error", "pair_detection")
"""The metric names the shipped ranking suite declares, in the order the summary shows them."""

HOW_TO_READ = (
    "nDCG@k (mean, 95% Student's t interval): how close each ranking comes to the ideal order of the "
    "passages' relevance grades in its first k places (1 is ideal; the conflicting passage and distractors "
    "gain nothing). Top-k error (share, 95% Wilson interval; lower is better): rankings with the conflicting "
    "passage among the first k. Pair detection: detect items whose reply names a conflicting pair (or None "
    "when there is none). A reply that cannot be read as a ranking or a pair is a check error, left out of n."
)


def dcg(grades: Sequence[float], k: int) -> float:
    """Discounted cumulative gain of the first ``k`` grades, in rank order (linear gain)."""
    return sum(g / math.log2(i + 2) for i, g in enumerate(grades[:k]))


def ndcg(ranking: Sequence[int], relevance: Sequence[float], k: int) -> float:
    """nDCG@k of a ranking of 1-based passage ids against per-passage grades (``relevance[id - 1]``).

    Ids the ranking leaves out gain nothing. When no passage has a positive grade the ideal gain is 0
    and every ranking scores 0 (there is nothing to find).
    """
    ideal = dcg(sorted(relevance, reverse=True), k)
    if ideal <= 0:
        return 0.0
    return dcg([relevance[i - 1] for i in ranking], k) / ideal


def in_top(ranking: Sequence[int], ids: Sequence[int], k: int) -> bool:
    """True when one of ``ids`` is among the first ``k`` of ``ranking``: a Top-k error for conflicting ids."""
    return any(i in ids for i in ranking[:k])


def pair_correct(found: tuple[int, int] | None, pairs: Sequence[Sequence[int]]) -> bool:
    """True when the detected pair (or None) is one of the expected pairs (or None when none is expected)."""
    if found is None:
        return not pairs
    return any(sorted(found) == sorted(p) for p in pairs)


@dataclass(frozen=True)
class RankingSummary:
    """Overall ranking figures side by side: one row per (LLM, variant), one cell per metric."""

    metrics: tuple[str, ...]
    header: tuple[str, ...]
    rows: list[tuple[str, ...]]


def _cell(r: StatRow | None) -> str:
    if r is None or r.value is None:
        return ""
    ci = f" [{r.ci_low:.3f}, {r.ci_high:.3f}]" if r.ci_low is not None and r.ci_high is not None else ""
    errors = r.query_errors + r.check_errors
    return f"{r.value:.3f}{ci} n={r.n}" + (f" ({errors} errors)" if errors else "")


def ranking_summary(report: Report) -> RankingSummary | None:
    """The ranking metrics of a report per LLM and variant, or None when it has no ranking metric.

    Rows come from the report's ``rank_variant`` tag breakdown when it has one (per variant), else from
    the overall table; each cell shows the value with its 95% interval, n and the errors left out of n.
    """
    metrics = tuple(m for m in RANKING_METRICS if m in report.metrics)
    if not metrics:
        return None
    table = report.table("rank_variant") or report.tables[0]
    by: dict[tuple[tuple[str, ...], str, str], StatRow] = {}
    for r in table.rows:
        if r.metric in metrics:
            by[(r.group, r.llm, r.metric)] = r
    groups = list(dict.fromkeys(g for g, _, _ in by))
    rows = []
    for llm in report.llms:
        for g in groups:
            cells = [by.get((g, llm, m)) for m in metrics]
            if any(c is not None for c in cells):
                rows.append((llm, " & ".join(g) or "all", *(_cell(c) for c in cells)))
    return RankingSummary(metrics, ("LLM", "variant", *metrics), rows)
