"""The calibration report folder: report.md, a self-contained report.html, charts and TSV tables.

Rendered with the eval report's blocks, so both reports look alike and every text taken from the
data (check ids, responses, checker replies) is escaped in the HTML and in Markdown table cells.
"""

from __future__ import annotations

from pathlib import Path

from ragability_gen.core.fileio import atomic_dir
from ragability_gen.core.table import write_table
from ragability_gen.evaluate import charts
from ragability_gen.evaluate.report import _Block, check_report_dir, to_html, to_markdown

from .core import Calibration, CheckerCalibration
from .metrics import Agreement
from .metrics import format_interval as _iv
from .verdicts import PairAgreement

EXCERPT = 300
"""Characters of a response or checker reply shown per disagreement in the report (the TSV has them whole)."""

HOW_TO_READ = (
    "Each row compares one checker's verdicts on one kind of check (named by its checker prompt id, or by its "
    "function when no checker model is asked) with the human labels. Agreement is the share of labels the checker "
    "matched; Cohen's kappa corrects it for the agreement expected by chance (0: no better than chance, 1: "
    "perfect) and is the figure to trust. Precision, recall and F1 take the human label as the truth. Brackets "
    "give 95% percentile-bootstrap intervals (paired resampling of the labelled checks). A label whose check has "
    "no verdict from the checker (the checker failed or its reply could not be read) is counted apart, not as a "
    "disagreement. 'majority' is the verdict more than half of the checkers gave (none on a tie)."
)


def _num(x: float | None) -> str:
    return "" if x is None else f"{x:.4f}"


def _confusion_block(a: Agreement) -> _Block:
    header = ["human \\ checker", *a.labels, "total"]
    rows = [[lab, *(str(c) for c in row), str(sum(row))] for lab, row in zip(a.labels, a.confusion, strict=True)]
    return _Block("table", header=header, rows=rows)


def _classes_block(a: Agreement) -> _Block:
    return _Block("table", header=["label", "human", "checker", "precision", "recall", "F1"],
                  rows=[[c.label, str(c.support), str(c.predicted), _iv(c.precision), _iv(c.recall), _iv(c.f1)]
                        for c in a.classes])


def _chart_rows(cal: Calibration) -> tuple[list[str], dict[str, list[charts.Interval | None]],
                                            dict[str, list[charts.Interval | None]]]:
    kinds = list(dict.fromkeys(r.kind for r in cal.rows))
    checkers = list(dict.fromkeys(r.checker for r in cal.rows))
    by = {(r.kind, r.checker): r.agreement for r in cal.rows}

    def series(stat: str) -> dict[str, list[charts.Interval | None]]:
        out: dict[str, list[charts.Interval | None]] = {}
        for c in checkers:
            vals: list[charts.Interval | None] = []
            for k in kinds:
                a = by.get((k, c))
                iv = getattr(a, stat) if a else (None, None, None)
                vals.append(None if iv[0] is None else (iv[0], iv[1], iv[2]))
            out[c] = vals
        return out

    return kinds, series("kappa"), series("agreement")


def _document(cal: Calibration) -> list[_Block]:
    b = [_Block("h1", "Checker calibration"),
         _Block("p", f"Checked results: {cal.source} ({cal.records} records). Human labels: {cal.labels_source} "
                     f"({cal.labels} labels). {len(cal.disagreements)} disagreements."),
         _Block("p", HOW_TO_READ),
         _Block("table", header=["check", "checker", "n", "agreement", "Cohen's kappa", "no verdict"],
                rows=[[r.kind, r.checker, str(r.agreement.n), _iv(r.agreement.agreement, True), _iv(r.agreement.kappa),
                       str(r.no_verdict)] for r in cal.rows])]
    if cal.rows:
        kinds, kappa, agreement = _chart_rows(cal)
        b.append(_Block("chart", "Cohen's kappa per check and checker", name="kappa",
                        svg=charts.interval_bars("kappa", "Cohen's kappa with the human labels", kinds, kappa,
                                                 "Cohen's kappa", share=False)))
        b.append(_Block("chart", "Agreement per check and checker", name="agreement",
                        svg=charts.interval_bars("agreement", "Agreement with the human labels", kinds, agreement,
                                                 "agreement")))
    for r in cal.rows:
        b.append(_Block("h2", f"{r.kind}: {r.checker}"))
        b.append(_Block("p", f"{r.check_kind} check, {r.agreement.n} labels with a verdict"
                             f"{f', {r.no_verdict} without' if r.no_verdict else ''}: agreement "
                             f"{_iv(r.agreement.agreement, True)}, Cohen's kappa {_iv(r.agreement.kappa)}."))
        b.append(_confusion_block(r.agreement))
        b.append(_classes_block(r.agreement))
    b.append(_Block("h2", "Agreement between checkers"))
    if cal.between:
        b.append(_Block("table", header=["check", "checker", "checker", "n", "agreement", "Cohen's kappa"],
                        rows=[[p.kind, p.first, p.second, str(p.agreement.n), _iv(p.agreement.agreement, True),
                               _iv(p.agreement.kappa)] for p in cal.between]))
    else:
        b.append(_Block("p", "The checks were answered by one checker each."))
    b.append(_Block("h2", "Disagreements"))
    if cal.disagreements:
        b.append(_Block("p", f"{len(cal.disagreements)} labelled checks where a checker's verdict differs from the "
                             "human label (disagreements.tsv has the full texts)."))
        b.append(_Block("table", header=["line", "check", "checker", "qid", "pid", "llm", "cid", "human",
                                         "checker says", "response", "checker reply"],
                        rows=[[str(d.line), d.kind, d.checker, d.qid, d.pid, d.llm, d.cid, d.human, d.verdict,
                               _excerpt(d.response), _excerpt(d.reply)] for d in cal.disagreements]))
    else:
        b.append(_Block("p", "None: every verdict matches its human label."))
    return b


def _excerpt(text: str) -> str:
    return text if len(text) <= EXCERPT else text[:EXCERPT - 3] + "..."


def _rows(r: CheckerCalibration | PairAgreement) -> list[list[str]]:
    a = r.agreement
    head = [r.kind, r.checker] if isinstance(r, CheckerCalibration) else [r.kind, f"{r.first} vs {r.second}"]
    out = [[*head, "agreement", "", _num(a.agreement[0]), _num(a.agreement[1]), _num(a.agreement[2]), str(a.n)],
           [*head, "kappa", "", _num(a.kappa[0]), _num(a.kappa[1]), _num(a.kappa[2]), str(a.n)]]
    for c in a.classes:
        for stat in ("precision", "recall", "f1"):
            v, lo, hi = getattr(c, stat)
            out.append([*head, stat, c.label, _num(v), _num(lo), _num(hi), str(c.support)])
    return out


def write_calibration(cal: Calibration, outdir: str | Path) -> list[str]:
    """Write the report folder at once (nothing is left behind on failure); return the file names."""
    check_report_dir(outdir)
    blocks = _document(cal)
    svgs = {b.name: b.svg for b in blocks if b.kind == "chart"}
    header = ["check", "checker", "stat", "label", "value", "ci_low", "ci_high", "n"]
    with atomic_dir(outdir) as tmp:
        write_table(tmp / "calibration.tsv", header, (row for r in cal.rows for row in _rows(r)))
        write_table(tmp / "checker_agreement.tsv", header, (row for p in cal.between for row in _rows(p)))
        write_table(tmp / "confusion.tsv", ["check", "checker", "human", "checker_verdict", "count"],
                    ([r.kind, r.checker, h, c, str(n)] for r in cal.rows
                     for h, row in zip(r.agreement.labels, r.agreement.confusion, strict=True)
                     for c, n in zip(r.agreement.labels, row, strict=True)))
        write_table(tmp / "disagreements.tsv", ["line", "check", "checker", "qid", "pid", "llm", "cid", "human",
                                                "checker_verdict", "response", "checker_reply"],
                    ([str(d.line), d.kind, d.checker, d.qid, d.pid, d.llm, d.cid, d.human, d.verdict, d.response,
                      d.reply] for d in cal.disagreements))
        (tmp / "charts").mkdir()
        for name, svg in svgs.items():
            (tmp / "charts" / f"{name}.svg").write_text(svg, encoding="utf-8")
        (tmp / "report.md").write_text(to_markdown(blocks), encoding="utf-8")
        (tmp / "report.html").write_text(to_html(blocks, f"Checker calibration: {cal.source}"), encoding="utf-8")
    return ["calibration.tsv", "checker_agreement.tsv", "confusion.tsv", "disagreements.tsv",
            *(f"charts/{n}.svg" for n in svgs), "report.md", "report.html"]
