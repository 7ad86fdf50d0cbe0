"""The verdicts of one check: each checker's, and the majority vote as a checker of its own.

A check answered by several checkers keeps the first checker's verdict in the usual ``result``,
``error``, ``response`` and ``llm`` fields (so eval and python-ragability read it as a
single-checker file) and every checker's verdict, the first included, in ``checkers``: a list of
``{llm, result, error, response, cost}``. A check without ``checkers`` has one verdict, by its
``llm`` or, for a check applied to the testee response directly, by the rules (``rules``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from ragability_gen.checkfuncs import CHECKS

from .metrics import RESAMPLES, Agreement, compare

MAJORITY = "majority"
"""The name under which the majority vote of several checkers is reported."""
RULES = "rules"
"""The name of the 'checker' of checks applied without a checker model."""


def kind_of(check: Mapping[str, Any]) -> str:
    """What a check asks, for grouping: its checker prompt id, else its function name."""
    return str(check.get("pid") or check.get("func") or "?")


def label_of(result: Any) -> str | None:
    """A check result as a label: binary 1/0 as "1"/"0", a multiclass label as itself; None for no result."""
    if result is None or isinstance(result, bool):
        return None
    if isinstance(result, (int, float)):
        return str(int(result)) if float(result).is_integer() else str(result)
    return str(result) if isinstance(result, str) else None


def majority(votes: Sequence[str | None]) -> str | None:
    """The verdict more than half of the checkers with a verdict gave; None on a tie or with no verdict."""
    counts = Counter(v for v in votes if v is not None)
    if not counts:
        return None
    (top, n), *rest = counts.most_common()
    return top if n * 2 > sum(counts.values()) else None


def verdicts(check: Mapping[str, Any]) -> dict[str, str | None]:
    """Each checker's verdict of one check, plus ``majority`` when there are several checkers."""
    entries = check.get("checkers")
    if isinstance(entries, list) and entries:
        out = {str(e.get("llm")): label_of(e.get("result")) for e in entries if isinstance(e, Mapping)}
    else:
        out = {str(check.get("llm") or RULES): label_of(check.get("result"))}
    if len(out) >= 2:
        out[MAJORITY] = majority(list(out.values()))
    return out


def check_labels(check: Mapping[str, Any]) -> tuple[str, tuple[str, ...]] | None:
    """The kind (binary, multiclass) and label set of a check's function; None for scores or unknown functions."""
    func = CHECKS.get(str(check.get("func")))
    if func is None or func.kind == "score":
        return None
    return func.kind, (("1", "0") if func.kind == "binary" else func.labels)


@dataclass(frozen=True)
class PairAgreement:
    """How two checkers agree on one kind of check (checks where both gave a verdict)."""

    kind: str
    first: str
    second: str
    agreement: Agreement


def between_checkers(records: Iterable[Mapping[str, Any]], *, resamples: int = RESAMPLES,
                     seed: int = 0) -> list[PairAgreement]:
    """Cohen's kappa (and the rest) between every pair of checkers, per kind of check.

    Only checks answered by several checkers count; a file checked by one checker gives an empty list.
    The majority vote is left out: it is made of the checkers compared.
    """
    pairs: dict[tuple[str, str, str], tuple[list[str], list[str]]] = {}
    labels: dict[str, tuple[str, ...]] = {}
    for rec in records:
        for check in rec.get("checks") or []:
            if not isinstance(check, Mapping) or not isinstance(check.get("checkers"), list):
                continue
            known = check_labels(check)
            if known is None:
                continue
            kind = kind_of(check)
            labels.setdefault(kind, known[1])
            votes = {k: v for k, v in verdicts(check).items() if k != MAJORITY}
            for a, b in combinations(votes, 2):
                va, vb = votes[a], votes[b]
                if va in labels[kind] and vb in labels[kind]:
                    got = pairs.setdefault((kind, a, b), ([], []))
                    got[0].append(va)
                    got[1].append(vb)
    return [PairAgreement(kind, a, b, compare(x, y, labels[kind], resamples=resamples, seed=seed))
            for (kind, a, b), (x, y) in pairs.items()]
