"""The calibration report folder: report.md, a self-contained report.html, charts and TSV tables.

Rendered with the eval report's blocks, so both reports look alike and every text taken from the
data (check ids, responses, checker replies) is escaped in the HTML and in Markdown table cells.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ragability_gen.core.fileio import atomic_dir, write_records
from ragability_gen.core.table import write_table
from ragability_gen.evaluate import charts
from ragability_gen.evaluate.report import _Block, check_report_dir, to_html, to_markdown

from .core import Calibration, CheckerCalibration, calibrate
from .labels import Columns
from .metrics import RESAMPLES, Agreement
from .metrics import format_interval as _iv
from .verdicts import PairAgreement

if TYPE_CHECKING:
    from ragability_gen.run.probes import ProbeReport

EXCERPT = 300
"""Characters of a response or checker reply shown per disagreement in the report (the TSV has them whole)."""
MAX_DISAGREEMENTS = 200
"""Disagreements listed in report.md/report.html, in label file order; disagreements.tsv has them all."""

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
        shown = cal.disagreements[:MAX_DISAGREEMENTS]
        more = f"; the first {len(shown)} are shown" if len(shown) < len(cal.disagreements) else ""
        b.append(_Block("p", f"{len(cal.disagreements)} labelled checks where a checker's verdict differs from the "
                             f"human label{more} (disagreements.tsv has them all, with the full texts)."))
        b.append(_Block("table", header=["line", "check", "checker", "qid", "pid", "llm", "cid", "human",
                                         "checker says", "response", "checker reply"],
                        rows=[[str(d.line), d.kind, d.checker, d.qid, d.pid, d.llm, d.cid, d.human, d.verdict,
                               _excerpt(d.response), _excerpt(d.reply)] for d in shown]))
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


PROBES_HOW_TO_READ = (
    "Each probe sends dummy testee answers whose right verdict is known to the checker, through the same check "
    "code as the check command. The error rate is the share of verdicts that differ from the expected one, with its "
    "95% Wilson interval; a probe answer the checker gave no verdict on (failed request, unreadable reply) is counted "
    "apart. Roles: answer (the check asks whether the response gives the expected answer), decline (whether it "
    "declines or points out the conflict), judge (the WikiContradict judge). The repeat probe sends the right answer "
    "several times past the cache: self-agreement is the mean share of repeats that gave the most frequent verdict."
)


def _probe_document(report: ProbeReport) -> list[_Block]:
    from ragability_gen.evaluate.stats import wilson
    from ragability_gen.run.probes import PROBES, REPEAT

    described = {**{k: d for k, (d, _) in PROBES.items()}, REPEAT: "the right answer, sent several times"}
    b = [_Block("h1", "Checker probes"),
         _Block("p", f"Items from {report.source}: " + ", ".join(f"{n} {role}" for role, n in report.cases.items())
                + f" probe cases; {len(report.checked)} probe answers checked."),
         _Block("p", PROBES_HOW_TO_READ)]
    rows = []
    series: dict[str, list[charts.Interval | None]] = {}
    cats = list(dict.fromkeys(f"{r.role}: {r.probe}" for r in report.results))
    for r in report.results:
        n = r.cases - r.no_verdict
        ci = wilson(r.wrong, n)
        rate = r.error_rate
        series.setdefault(r.checker, [None] * len(cats))[cats.index(f"{r.role}: {r.probe}")] = \
            None if rate is None or ci is None else (rate, ci[0], ci[1])
        rows.append([r.role, r.probe, described.get(r.probe, ""), r.checker, r.expected, str(r.cases),
                     str(r.no_verdict),
                     "" if rate is None or ci is None else f"{100 * rate:.1f}% [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]",
                     ", ".join(f"{v}: {c}" for v, c in r.verdicts.most_common())])
    if cats:
        b.append(_Block("chart", "Error rate per probe", name="probes",
                        svg=charts.interval_bars("probes", "Checker error rate per probe", cats, series, "error rate")))
    b.append(_Block("table", header=["role", "probe", "answer", "checker", "expected", "cases", "no verdict",
                                     "error rate", "verdicts"], rows=rows))
    b.append(_Block("h2", "Self-agreement"))
    if report.self_agreement:
        b.append(_Block("table", header=["checker", "role", "requests", "repeats each", "self-agreement",
                                         "all repeats agree"],
                        rows=[[s.checker, s.role, str(s.requests), str(s.repeats),
                               "" if s.agreement is None else f"{100 * s.agreement:.1f}%",
                               f"{s.unanimous} of {s.requests}"] for s in report.self_agreement]))
    else:
        b.append(_Block("p", "Not measured (repeats below 2)."))
    return b


def write_probe_report(report: ProbeReport, outdir: str | Path) -> list[str]:
    """Write the probe report folder at once: report.md, report.html, probes.tsv, the checked probe answers."""
    check_report_dir(outdir)
    blocks = _probe_document(report)
    svgs = {b.name: b.svg for b in blocks if b.kind == "chart"}
    with atomic_dir(outdir) as tmp:
        write_table(tmp / "probes.tsv", ["role", "probe", "checker", "expected", "cases", "no_verdict", "wrong",
                                         "error_rate"],
                    ([r.role, r.probe, r.checker, r.expected, str(r.cases), str(r.no_verdict), str(r.wrong),
                      _num(r.error_rate)] for r in report.results))
        write_table(tmp / "self_agreement.tsv", ["checker", "role", "requests", "repeats", "self_agreement",
                                                 "unanimous"],
                    ([s.checker, s.role, str(s.requests), str(s.repeats), _num(s.agreement), str(s.unanimous)]
                     for s in report.self_agreement))
        write_records(report.checked, tmp / "probes.checked.jsonl")
        (tmp / "charts").mkdir()
        for name, svg in svgs.items():
            (tmp / "charts" / f"{name}.svg").write_text(svg, encoding="utf-8")
        (tmp / "report.md").write_text(to_markdown(blocks), encoding="utf-8")
        (tmp / "report.html").write_text(to_html(blocks, f"Checker probes: {report.source}"), encoding="utf-8")
    return ["probes.tsv", "self_agreement.tsv", "probes.checked.jsonl", *(f"charts/{n}.svg" for n in svgs),
            "report.md", "report.html"]


def probe_summary_lines(report: ProbeReport) -> list[str]:
    """One line per probe, role and checker: error rate; then self-agreement."""
    out = [f"probed with {len(report.checked)} answers: "
           + ", ".join(f"{n} {role} cases" for role, n in report.cases.items())]
    for r in report.results:
        rate = "no verdicts" if r.error_rate is None else f"error rate {100 * r.error_rate:.1f}%"
        out.append(f"  {r.role:<8} {r.probe:<14} {r.checker}: {rate} ({r.wrong} of {r.cases - r.no_verdict}"
                   + (f", {r.no_verdict} without a verdict)" if r.no_verdict else ")"))
    for s in report.self_agreement:
        agree = "" if s.agreement is None else f"{100 * s.agreement:.1f}%"
        out.append(f"  self-agreement {s.role} {s.checker}: {agree} over {s.requests} requests x {s.repeats}")
    return out


def default_calibration_dir(labels: str | Path) -> Path:
    """Where ``calibrate`` writes its report by default: the labels' name up to its first dot + ``-calibration``."""
    return Path(Path(labels).name.split(".")[0] + "-calibration")


def calibrate_file(checked: str | Path, labels: str | Path, output: str | Path | None = None,
                   columns: Columns | None = None, *, resamples: int = RESAMPLES,
                   seed: int = 0) -> tuple[Calibration, list[str], Path]:
    """What the ``calibrate`` command does: compare verdicts with labels and write the report folder.

    Args:
        output: The report folder (default: ``default_calibration_dir(labels)``); refused before any reading
            when it holds files a report does not write.

    Returns:
        The calibration, the names of the files written, and the folder.
    """
    out = Path(output) if output else default_calibration_dir(labels)
    check_report_dir(out)
    cal = calibrate(checked, labels, columns, resamples=resamples, seed=seed)
    return cal, write_calibration(cal, out), out
