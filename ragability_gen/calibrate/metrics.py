"""Agreement between two raters (a human and a checker, or two checkers) with bootstrap intervals.

Point estimates come from scikit-learn (confusion matrix, Cohen's kappa, precision/recall/F1 per
class). Their 95% intervals come from a paired percentile bootstrap. Every figure depends on the
labelled pairs only through their confusion matrix, and resampling n pairs with replacement gives a
confusion matrix drawn from the multinomial over its k x k cells (n draws, cell probabilities the
observed shares). So the resampled matrices are drawn directly, all at once, and every figure is
derived from them: one set of resamples serves every figure, and 1,000 resamples cost the same for
200 labels as for 200,000. A test checks that this derivation gives scikit-learn's figures.
``scipy.stats.bootstrap`` is not used: it resamples the n pairs (n times the work), and its
interval is NaN as soon as one resample leaves a figure undefined (a resample of a small set that
holds one label only has no kappa); here such resamples are left out of that figure's percentiles.

Kappa, not percent agreement, is the honest headline: two raters who both say "yes" 90% of the
time agree 82% of the time by chance alone. Kappa is undefined (None) when the chance agreement is
1 (both raters gave one and the same label to everything); a precision is undefined for a label
the rater never gave, a recall for a label the reference never has.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

CONFIDENCE = 0.95
RESAMPLES = 1000

Interval = tuple[float | None, float | None, float | None]
"""A figure with its lower and upper bound; None where undefined."""


@dataclass(frozen=True)
class ClassScores:
    """Precision, recall and F1 of one label, taking the first rater (the reference) as the truth."""

    label: str
    support: int  # how often the reference gave the label
    predicted: int  # how often the compared rater gave it
    precision: Interval
    recall: Interval
    f1: Interval


@dataclass(frozen=True)
class Agreement:
    """How far a rater agrees with a reference on the same n items.

    ``confusion[i][j]`` counts items the reference labelled ``labels[i]`` and the rater ``labels[j]``.
    """

    labels: tuple[str, ...]
    n: int
    confusion: tuple[tuple[int, ...], ...]
    agreement: Interval
    kappa: Interval
    classes: tuple[ClassScores, ...]


def _figures(counts: np.ndarray) -> np.ndarray:
    """Every figure from confusion matrices of shape (..., k, k): agreement, kappa, then P, R, F1 per label.

    Undefined figures are NaN. Works on any leading batch shape, so one call covers all resamples.
    """
    import numpy as np

    with np.errstate(divide="ignore", invalid="ignore"):
        n = counts.sum(axis=(-2, -1))
        diag = np.diagonal(counts, axis1=-2, axis2=-1)
        rows, cols = counts.sum(axis=-1), counts.sum(axis=-2)  # reference totals, rater totals
        observed = diag.sum(axis=-1) / n
        chance = (rows * cols).sum(axis=-1) / (n * n)
        kappa = np.where(chance < 1, (observed - chance) / (1 - chance), np.nan)
        precision = np.where(cols > 0, diag / cols, np.nan)
        recall = np.where(rows > 0, diag / rows, np.nan)
        f1 = np.where(rows + cols > 0, 2 * diag / (rows + cols), np.nan)
    return np.concatenate([observed[..., None], kappa[..., None], precision, recall, f1], axis=-1)


def format_interval(x: Interval, pct: bool = False) -> str:
    """A figure and its interval as text: ``0.412 [0.301, 0.520]``, or percentages; "undefined" for None."""
    v, lo, hi = x
    if v is None:
        return "undefined"
    f = (lambda y: f"{100 * y:.1f}%") if pct else (lambda y: f"{y:.3f}")
    return f(v) + (f" [{f(lo)}, {f(hi)}]" if lo is not None and hi is not None else "")


def _opt(x: float) -> float | None:
    return None if x != x else float(x)  # NaN is the only value unequal to itself


def compare(reference: Sequence[str], rater: Sequence[str], labels: Sequence[str] | None = None, *,
            resamples: int = RESAMPLES, seed: int = 0) -> Agreement:
    """Agreement, Cohen's kappa and per-label scores of ``rater`` against ``reference``, with 95% intervals.

    Args:
        reference: The reference labels (human labels, or a first checker's verdicts).
        rater: The compared labels, one per reference label.
        labels: Every label in report order (default: those seen, sorted); the confusion matrix is k x k.
        resamples: Bootstrap resamples; 0 for point estimates only.
        seed: Seed of the resampling, so a report is reproducible.
    """
    import numpy as np  # numpy and scikit-learn are imported on first use: every other command would pay for them
    from sklearn.metrics import cohen_kappa_score, confusion_matrix, precision_recall_fscore_support

    if len(reference) != len(rater):
        raise ValueError("compare needs one rater label per reference label")
    labs = list(labels) if labels is not None else sorted(set(reference) | set(rater))
    code = {lab: i for i, lab in enumerate(labs)}
    ref = np.array([code[x] for x in reference], dtype=np.int64)
    oth = np.array([code[x] for x in rater], dtype=np.int64)
    n, k = len(ref), len(labs)
    if n == 0:
        none: Interval = (None, None, None)
        return Agreement(tuple(labs), 0, tuple(tuple(0 for _ in labs) for _ in labs), none, none,
                         tuple(ClassScores(lab, 0, 0, none, none, none) for lab in labs))
    codes = list(range(k))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # undefined figures are reported as None, not warned about
        confusion = confusion_matrix(ref, oth, labels=codes)
        kappa = cohen_kappa_score(ref, oth, labels=codes)
        precision, recall, f1, _ = precision_recall_fscore_support(ref, oth, labels=codes, zero_division=np.nan)
    point = np.concatenate([[float((ref == oth).mean()), kappa], precision, recall, f1])
    low = high = np.full(point.shape, np.nan)
    if resamples and n > 1:
        cells = np.random.default_rng(seed).multinomial(n, confusion.ravel() / n, size=resamples)
        figures = _figures(cells.reshape(resamples, k, k))
        tail = 100 * (1 - CONFIDENCE) / 2
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a figure undefined in every resample stays NaN, reported as None
            low, high = np.nanpercentile(figures, [tail, 100 - tail], axis=0)
    rows, cols = confusion.sum(axis=1), confusion.sum(axis=0)

    def interval(i: int) -> Interval:
        value = _opt(point[i])
        if value is None:
            return None, None, None
        return value, _opt(low[i]), _opt(high[i])

    classes = tuple(ClassScores(lab, int(rows[j]), int(cols[j]), interval(2 + j), interval(2 + k + j),
                                interval(2 + 2 * k + j)) for j, lab in enumerate(labs))
    return Agreement(tuple(labs), n, tuple(tuple(int(c) for c in row) for row in confusion), interval(0),
                     interval(1), classes)
