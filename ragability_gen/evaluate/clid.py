"""Metrics of corpus-level inconsistency detection (CLID): AUROC, accuracy and F1 per label and type.

The WikiCollide paper's main metric is the area under the ROC curve of an inconsistency score, "since
a primary use of CLID systems is flagging potential inconsistencies for human review", alongside
accuracy and F1. These need each item's truth and score side by side, which the count-based tables
of ``core`` do not keep, so this module reads the checked records once more, and only when their tags
say they hold CLID items. The truth comes from tags (``clid_inconsistent`` / ``clid_consistent``, set
by the wikicollide suite), the inconsistency type from ``wcl_type_*`` tags, the condition (metadata
shown or hidden) from ``metadata_*`` tags.

Confidence intervals: the AUROC gets Hanley & McNeil's closed-form interval, F1 a stratified
percentile bootstrap (2,000 resamples, vectorised, fixed seed, so the report is reproducible), and
shares (accuracy, recall per type) Wilson intervals, as everywhere else in eval.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from . import stats

POSITIVE_TAG, NEGATIVE_TAG = "clid_inconsistent", "clid_consistent"
TYPE_PREFIX, CONDITION_PREFIX = "wcl_type_", "metadata_"
ALL = "all"
BOOTSTRAP = 2000
SEED = 0


@dataclass(frozen=True)
class Interval:
    """A statistic with its 95% interval (bounds None when undefined)."""

    value: float | None
    low: float | None = None
    high: float | None = None


@dataclass(frozen=True)
class RocResult:
    """The AUROC of one score metric for one LLM under one condition, and its curve."""

    llm: str
    metric: str
    condition: str
    positives: int
    negatives: int
    unscored: int
    auroc: Interval
    fpr: tuple[float, ...] = ()
    tpr: tuple[float, ...] = ()


@dataclass(frozen=True)
class LabelStats:
    """Precision, recall and F1 of one label (a yes/no reply counts as predicting a label)."""

    label: str
    support: int
    precision: float | None
    recall: float | None
    f1: Interval


@dataclass(frozen=True)
class TypeStats:
    """Detection of one inconsistency type: recall (share detected) and F1 against all consistent items."""

    type: str
    n: int
    recall: Interval
    f1: Interval


@dataclass(frozen=True)
class DetectionResult:
    """A binary CLID metric (the yes/no reply) for one LLM under one condition."""

    llm: str
    metric: str
    condition: str
    n: int
    unanswered: int
    accuracy: Interval
    labels: tuple[LabelStats, ...]
    types: tuple[TypeStats, ...]


@dataclass
class ClidReport:
    """Every CLID figure of a checked file."""

    roc: list[RocResult] = field(default_factory=list)
    detection: list[DetectionResult] = field(default_factory=list)


def has_clid_tags(tag_strings: Iterable[str]) -> bool:
    """True when some item carries a CLID truth tag (cheap: looks at the distinct tag strings only)."""
    return any(POSITIVE_TAG in t or NEGATIVE_TAG in t for t in tag_strings)


@dataclass
class _Series:
    truth: list[int] = field(default_factory=list)
    value: list[float] = field(default_factory=list)
    types: list[str] = field(default_factory=list)
    missing: int = 0


def evaluate_clid(records: Iterable[Mapping[str, Any]], kinds: Mapping[str, str]) -> ClidReport | None:
    """The CLID metrics of checked records already validated by ``evaluate_checked``.

    Args:
        records: The checked records.
        kinds: Metric -> kind (binary, score, multiclass), as ``Report.metrics`` has them.

    Returns:
        None when no item carries a truth tag.
    """
    import numpy as np  # here, not at import: only CLID files need it
    series: dict[tuple[str, str, str, str], _Series] = {}
    for rec in records:
        tags = [t.strip() for t in str(rec.get("tags") or "").split(",")]
        truth = 1 if POSITIVE_TAG in tags else 0 if NEGATIVE_TAG in tags else None
        if truth is None:
            continue
        itype = next((t[len(TYPE_PREFIX):] for t in tags if t.startswith(TYPE_PREFIX)), "")
        conditions = [ALL, *[t for t in tags if t.startswith(CONDITION_PREFIX)]]
        for c in rec.get("checks") or ():
            for m in c.get("metrics") or ():
                kind = kinds.get(m)
                if kind not in ("binary", "score"):
                    continue
                for cond in conditions:
                    s = series.setdefault((rec["llm"], m, kind, cond), _Series())
                    result = c.get("result")
                    if result is None:
                        s.missing += 1
                        continue
                    value = float(result) if kind == "score" else float(str(result) == "1")
                    s.truth.append(truth)
                    s.value.append(value)
                    s.types.append(itype)
    if not series:
        return None
    out = ClidReport()
    rng = np.random.default_rng(SEED)
    for (llm, metric, kind, cond), s in series.items():
        y = np.array(s.truth, dtype=int)
        if kind == "score":
            out.roc.append(_roc(llm, metric, cond, y, np.array(s.value), s.missing, rng))
        else:
            passed = np.array(s.value, dtype=int)
            pred = np.where(passed == 1, y, 1 - y)  # a passed check predicted the truth
            out.detection.append(_detection(llm, metric, cond, y, pred, s.types, s.missing, rng))
    return out


def _roc(llm: str, metric: str, cond: str, y: Any, score: Any, missing: int, rng: Any) -> RocResult:
    from sklearn.metrics import roc_auc_score, roc_curve

    pos, neg = int(y.sum()), int(len(y) - y.sum())
    if pos == 0 or neg == 0:
        return RocResult(llm, metric, cond, pos, neg, missing, Interval(None))
    auc = float(roc_auc_score(y, score))
    fpr, tpr, _ = roc_curve(y, score)
    return RocResult(llm, metric, cond, pos, neg, missing, Interval(auc, *_auc_interval(auc, pos, neg)),
                     tuple(float(x) for x in fpr), tuple(float(x) for x in tpr))


def _auc_interval(auc: float, pos: int, neg: int) -> tuple[float, float]:
    """Hanley & McNeil's (1982) standard error of the AUROC, as a normal interval clipped to [0, 1].

    Closed form, so a report over thousands of items costs nothing; a bootstrap of the AUROC would
    call the ranking thousands of times per LLM and condition.
    """
    q1, q2 = auc / (2 - auc), 2 * auc * auc / (1 + auc)
    var = (auc * (1 - auc) + (pos - 1) * (q1 - auc * auc) + (neg - 1) * (q2 - auc * auc)) / (pos * neg)
    half = stats.Z * math.sqrt(max(var, 0.0))
    return max(0.0, auc - half), min(1.0, auc + half)


def _f1(y: Any, pred: Any, label: int, rng: Any) -> Interval:
    """F1 of ``label`` with a stratified percentile bootstrap interval, vectorised over the resamples."""
    import numpy as np  # here, not at import: only CLID files need it
    from sklearn.metrics import f1_score

    if not (y == label).any():
        return Interval(None)
    value = float(f1_score(y, pred, pos_label=label, zero_division=0))
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    if len(pos) == 0 or len(neg) == 0 or len(y) < 3:
        return Interval(value)
    parts = []
    step = max(1, 10_000_000 // len(y))  # resamples per block: memory stays flat in the number of items
    for start in range(0, BOOTSTRAP, step):
        k = min(step, BOOTSTRAP - start)
        idx = np.concatenate([rng.choice(pos, (k, len(pos))), rng.choice(neg, (k, len(neg)))], axis=1)
        yy, pp = y[idx] == label, pred[idx] == label
        tp = (yy & pp).sum(axis=1)
        wrong = (yy ^ pp).sum(axis=1)
        parts.append(np.where(tp > 0, 2 * tp / np.maximum(2 * tp + wrong, 1), 0.0))
    f1 = np.concatenate(parts)
    low, high = np.percentile(f1, [100 * (1 - stats.CONFIDENCE) / 2, 100 * (1 + stats.CONFIDENCE) / 2])
    return Interval(value, float(low), float(high))


def _share(k: int, n: int) -> Interval:
    ci = stats.wilson(k, n)
    return Interval(k / n if n else None, *(ci or (None, None)))


def _detection(llm: str, metric: str, cond: str, y: Any, pred: Any, types: list[str], missing: int,
               rng: Any) -> DetectionResult:
    import numpy as np  # here, not at import: only CLID files need it
    from sklearn.metrics import precision_recall_fscore_support

    n = len(y)
    labels = []
    if n:
        prec, rec, _f, support = precision_recall_fscore_support(y, pred, labels=[1, 0], zero_division=0)
        for i, (name, lab) in enumerate((("inconsistent", 1), ("consistent", 0))):
            has = int(support[i]) > 0
            labels.append(LabelStats(name, int(support[i]), float(prec[i]) if (pred == lab).any() else None,
                                     float(rec[i]) if has else None, _f1(y, pred, lab, rng)))
    per_type = []
    tarr = np.array(types)
    for t in sorted({t for t, truth in zip(types, y, strict=True) if truth == 1 and t}):
        sel = (tarr == t) & (y == 1)
        detected = int(pred[sel].sum())
        keep = sel | (y == 0)
        per_type.append(TypeStats(t, int(sel.sum()), _share(detected, int(sel.sum())),
                                  _f1(y[keep], pred[keep], 1, rng)))
    return DetectionResult(llm, metric, cond, n, missing, _share(int((y == pred).sum()), n), tuple(labels),
                           tuple(per_type))


# ----------------------------------------------------------------------------------- report blocks

def _fmt(iv: Interval) -> str:
    if iv.value is None:
        return "n/a"
    ci = f" [{100 * iv.low:.1f}, {100 * iv.high:.1f}]" if iv.low is not None and iv.high is not None else ""
    return f"{100 * iv.value:.1f}%{ci}"


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


def report_blocks(clid: ClidReport) -> list[dict[str, Any]]:
    """The report section as plain block fields (kind, text, header, rows, name, svg) for ``report``."""
    from .charts import roc_curves

    out: list[dict[str, Any]] = [
        {"kind": "h2", "text": "Inconsistency detection (CLID)"},
        {"kind": "p", "text": "Truth from the tags clid_inconsistent / clid_consistent. AUROC of each score metric "
                              "(the WikiCollide paper's main metric) with a 95% Hanley-McNeil interval; a "
                              "score check without a result is left out and counted as unscored. Yes/no metrics: "
                              "accuracy (Wilson interval), precision, recall and F1 (bootstrap interval) per label, "
                              "and per inconsistency type the share detected and F1 against all consistent items."}]
    if clid.roc:
        out.append({"kind": "h3", "text": "AUROC"})
        out.append({"kind": "table", "header": ["LLM", "metric", "condition", "AUROC [95% CI]", "inconsistent",
                                                 "consistent", "unscored"],
                    "rows": [[r.llm, r.metric, r.condition, _fmt(r.auroc), str(r.positives), str(r.negatives),
                              str(r.unscored)] for r in clid.roc]})
        curves = {f"{r.llm} {r.metric} {r.condition} (AUROC {_pct(r.auroc.value)})": (r.fpr, r.tpr)
                  for r in clid.roc if r.fpr}
        if curves:
            out.append({"kind": "chart", "text": "ROC curves", "name": "clid_roc",
                        "svg": roc_curves("clid_roc", "ROC curves", curves)})
    if clid.detection:
        out.append({"kind": "h3", "text": "Yes/no detection"})
        out.append({"kind": "table", "header": ["LLM", "metric", "condition", "n", "unanswered", "accuracy [95% CI]",
                                                 "label", "support", "precision", "recall", "F1 [95% CI]"],
                    "rows": [[d.llm, d.metric, d.condition, str(d.n), str(d.unanswered), _fmt(d.accuracy), s.label,
                              str(s.support), _pct(s.precision), _pct(s.recall), _fmt(s.f1)]
                             for d in clid.detection for s in d.labels]
                    + [[d.llm, d.metric, d.condition, "0", str(d.unanswered), "n/a", "", "", "", "", ""]
                       for d in clid.detection if not d.labels]})
        rows = [[d.llm, d.metric, d.condition, t.type, str(t.n), _fmt(t.recall), _fmt(t.f1)]
                for d in clid.detection for t in d.types]
        if rows:
            out.append({"kind": "h3", "text": "Per inconsistency type"})
            out.append({"kind": "table", "header": ["LLM", "metric", "condition", "type", "n", "detected [95% CI]",
                                                     "F1 [95% CI]"], "rows": rows})
    return out


def summary_lines(clid: ClidReport) -> list[str]:
    """One line per AUROC and per yes/no accuracy, for the terminal."""
    out = [f"  AUROC {r.metric} {r.llm} {r.condition}: {_fmt(r.auroc)} ({r.positives} inconsistent, "
           f"{r.negatives} consistent, {r.unscored} unscored)" for r in clid.roc]
    for d in clid.detection:
        f1 = next((s.f1 for s in d.labels if s.label == "inconsistent"), Interval(None))
        out.append(f"  CLID {d.metric} {d.llm} {d.condition}: accuracy {_fmt(d.accuracy)}, "
                   f"F1(inconsistent) {_fmt(f1)}, n={d.n}")
    return out
