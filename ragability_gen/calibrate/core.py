"""Stage: how far a checker agrees with human labels (``calibrate``).

The checked results are read in one streaming pass; the check each label names is looked up there,
and each checker's verdict (and the majority vote, when several checkers answered) is compared
with the human label, per kind of check (its checker prompt id, else its function) and checker.
Every label problem is collected and raised before anything is computed or written.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ragability_gen.core.fileio import RecordSource
from ragability_gen.errors import InputError

from .labels import Columns, Label, LabelKey, Problems, normalise, read_labels
from .metrics import RESAMPLES, Agreement, compare
from .verdicts import MAJORITY, PairAgreement, between_checkers, check_labels, kind_of, verdicts


@dataclass(frozen=True)
class Disagreement:
    """A labelled check where a checker's verdict differs from the human label, for reading."""

    kind: str
    checker: str
    qid: str
    pid: str
    llm: str
    cid: str
    human: str
    verdict: str
    line: int  # of the label
    response: str  # the testee's
    reply: str  # the checker's, when there is one


@dataclass(frozen=True)
class CheckerCalibration:
    """One checker on one kind of check: its agreement with the human labels, and labels it gave no verdict on."""

    kind: str
    check_kind: str  # binary or multiclass
    checker: str
    agreement: Agreement
    no_verdict: int


@dataclass
class Calibration:
    """Everything the calibration report shows."""

    source: str
    labels_source: str
    labels: int
    records: int
    rows: list[CheckerCalibration] = field(default_factory=list)
    disagreements: list[Disagreement] = field(default_factory=list)
    between: list[PairAgreement] = field(default_factory=list)


@dataclass
class _Matched:
    label: Label
    kind: str
    check_kind: str
    labels: tuple[str, ...]
    human: str
    verdicts: dict[str, str | None]
    response: str
    replies: dict[str, str]


def calibrate(checked: str | Path, labels: str | Path, columns: Columns | None = None, *,
              resamples: int = RESAMPLES, seed: int = 0) -> Calibration:
    """Compare each checker's verdicts in ``checked`` with the human ``labels``.

    Args:
        checked: A checked results file (the output of ``check``).
        labels: The human labels (TSV, CSV or JSONL), one per qid x pid x testee LLM x check id.
        columns: The label file's column names.
        resamples: Bootstrap resamples for the 95% intervals.
        seed: Seed of the bootstrap.

    Raises:
        InputError: a label names no checked result, is given twice, or is not a value the check can
            give; the checked file is not a checked file. Every problem, with its line, at once.
    """
    checked, labels = Path(checked), Path(labels)
    read = read_labels(labels, columns or Columns())
    problems = Problems(str(labels))
    index: dict[LabelKey, Label] = {}
    for lab in read:
        if lab.key in index:
            problems.add(lab.line, f"duplicate label for qid {lab.key[0]!r} pid {lab.key[1]!r} llm {lab.key[2]!r} "
                                   f"cid {lab.key[3]!r} (first on line {index[lab.key].line})")
        else:
            index[lab.key] = lab
    matched: dict[LabelKey, _Matched] = {}
    records = []
    n = 0
    for n, rec in enumerate(RecordSource(checked), 1):
        records.append({"checks": rec.get("checks")})  # only the checks: enough for the inter-checker figures
        for check in rec.get("checks") or []:
            if not isinstance(check, Mapping):
                continue
            key = (str(rec.get("qid")), str(rec.get("pid")), str(rec.get("llm")), str(check.get("cid")))
            hit = index.get(key)
            if hit is None or key in matched:
                continue
            if "result" not in check:
                raise InputError(f"{checked}: item {n} ({key[0]}): field checks.result: missing (is this the "
                                 "output of check?)")
            known = check_labels(check)
            if known is None:
                problems.add(hit.line, f"the check {key[3]!r} of {key[0]!r} gives scores, not labels: it cannot "
                                       "be calibrated against labels")
                matched[key] = _Matched(hit, "", "", (), "", {}, "", {})
                continue
            human = normalise(hit.value, *known)
            if human is None:
                shown = "1, 0 (or yes, no)" if known[0] == "binary" else ", ".join(known[1])
                problems.add(hit.line, f"field label: {hit.value!r} is not a label of check {key[3]!r} "
                                       f"({check.get('func')}): use one of {shown}")
            replies = {str(e.get("llm")): str(e.get("response") or "") for e in check.get("checkers") or []
                       if isinstance(e, Mapping)} or {str(check.get("llm")): str(check.get("response") or "")}
            matched[key] = _Matched(hit, kind_of(check), known[0], known[1], human or "", verdicts(check),
                                    str(rec.get("response") or ""), replies)
    if n == 0:
        raise InputError(f"{checked}: no records")
    for key, lab in index.items():
        if key not in matched:
            problems.add(lab.line, f"matches no checked result: no record has qid {key[0]!r} pid {key[1]!r} "
                                   f"llm {key[2]!r} with a check {key[3]!r}")
    problems.raise_if_any(len(read))
    out = Calibration(str(checked), str(labels), len(read), n)
    groups: dict[tuple[str, str], list[_Matched]] = {}
    for m in sorted(matched.values(), key=lambda m: m.label.line):
        for checker in m.verdicts:
            groups.setdefault((m.kind, checker), []).append(m)
    for (kind, checker), ms in sorted(groups.items(), key=lambda g: (g[0][0], g[0][1] == MAJORITY, g[0][1])):
        rated = [m for m in ms if m.verdicts[checker] in m.labels]
        agreement = compare([m.human for m in rated], [str(m.verdicts[checker]) for m in rated], ms[0].labels,
                            resamples=resamples, seed=seed)
        out.rows.append(CheckerCalibration(kind, ms[0].check_kind, checker, agreement, len(ms) - len(rated)))
        out.disagreements += [
            Disagreement(kind, checker, *m.label.key, m.human, str(m.verdicts[checker]), m.label.line, m.response,
                         m.replies.get(checker, "")) for m in rated if m.verdicts[checker] != m.human]
    out.between = between_checkers(records, resamples=resamples, seed=seed)
    return out


def summary_lines(cal: Calibration) -> list[str]:
    """One line per kind of check and checker: n, agreement and kappa with their intervals."""
    out = [f"calibrated {cal.labels} labels against {cal.records} checked records"]
    for row in cal.rows:
        a = row.agreement
        out.append(f"  {row.kind}  {row.checker}: n={a.n} agreement {_fmt(a.agreement)} kappa {_fmt(a.kappa)}"
                   + (f" ({row.no_verdict} without a verdict)" if row.no_verdict else ""))
    for p in cal.between:
        out.append(f"  {p.kind}  {p.first} vs {p.second}: n={p.agreement.n} kappa {_fmt(p.agreement.kappa)}")
    return out


def _fmt(x: tuple[Any, Any, Any]) -> str:
    v, lo, hi = x
    if v is None:
        return "undefined"
    return f"{v:.3f}" + (f" [{lo:.3f}, {hi:.3f}]" if lo is not None and hi is not None else "")
