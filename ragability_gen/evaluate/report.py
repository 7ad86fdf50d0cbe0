"""Writing a report folder: TSV tables, report.md, a self-contained report.html, charts/*.svg.

The Markdown and the HTML are rendered from one list of blocks (headings, paragraphs, tables,
charts), so they always say the same thing. The HTML inlines its charts and style and links to
nothing outside itself; the Markdown shows the same charts from ``charts/``. The folder is written
under a temporary name and put in place whole, so a failed run leaves the old report (or nothing).
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ragability_gen.core.fileio import atomic_dir
from ragability_gen.core.table import write_table
from ragability_gen.errors import InputError

from . import charts, clid, ranking
from .core import Report, StatRow, Table

MAX_GROUPS = 100
"""Groups shown per metric in report.md/report.html; the TSV table always has them all."""
CHARTED = ("ctx", "wc_template", "rank_variant")
"""Breakdowns that get charts besides the overall ones: per context combination, per template."""

TSV_COLUMNS = ("llm", "metric", "kind", "stat", "value", "ci_low", "ci_high", "count", "n", "query_errors",
               "check_errors")
_REPORT_FILE = re.compile(r"(report\.md|report\.html|[\w.,&+=-]+\.tsv|charts)$")

HOW_TO_READ = (
    "Binary metrics show accuracy: the share of checks with a result that passed, with its 95% Wilson score "
    "interval in brackets and n, the number of results. Multiclass metrics (such as the WikiContradict judge) show "
    "the share of each label, each with its Wilson interval. Score metrics show the mean with a 95% Student's t "
    "interval. A check without a result is an error: a query error when the testee LLM failed, a check error when "
    "the checker LLM failed or its reply could not be parsed. Errors are counted apart and shown next to n; they "
    "are never counted as passes or failures. In tag breakdowns an item counts once in every group whose tag it "
    "carries, and items carrying none of the group's tags are shown as (none)."
)


@dataclass
class _Block:
    kind: str  # h1, h2, h3, p, table, chart
    text: str = ""
    header: Sequence[str] = ()
    rows: Sequence[Sequence[str]] = ()
    name: str = ""
    svg: str = ""


def check_report_dir(path: str | Path) -> None:
    """Refuse a folder that exists and holds anything a report does not write (it would be replaced)."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise InputError(f"{p}: exists and is not a folder")
    if p.is_dir():
        foreign = sorted(e.name for e in p.iterdir() if not _REPORT_FILE.fullmatch(e.name))
        if foreign:
            raise InputError(f"{p}: the folder holds files a report does not write ({', '.join(foreign[:3])}"
                             f"{', ...' if len(foreign) > 3 else ''}); give a new or empty folder, or a "
                             "previous report folder")


def write_report(report: Report, outdir: str | Path) -> list[str]:
    """Write every report file into ``outdir`` at once; return their names relative to it."""
    check_report_dir(outdir)
    blocks = _document(report)
    svgs = {b.name: b.svg for b in blocks if b.kind == "chart"}
    with atomic_dir(outdir) as tmp:
        names = [_write_tsv(tmp / f"{_file_name(t.name)}.tsv", t) for t in report.tables]
        names.append(_write_errors(tmp / "errors.tsv", report))
        (tmp / "charts").mkdir()
        for name, svg in svgs.items():
            (tmp / "charts" / f"{name}.svg").write_text(svg, encoding="utf-8")
        (tmp / "report.md").write_text(to_markdown(blocks), encoding="utf-8")
        (tmp / "report.html").write_text(to_html(blocks, f"Evaluation report: {report.source}"), encoding="utf-8")
    return names + [f"charts/{n}.svg" for n in svgs] + ["report.md", "report.html"]


def _file_name(name: str) -> str:
    return re.sub(r"[^\w.,+=-]+", "_", name.replace(" & ", "_x_"))


def _num(x: float | None, kind: str = "binary") -> str:
    if x is None:
        return ""
    return f"{x:.6g}" if kind == "score" else f"{x:.4f}"


def _write_tsv(path: Path, table: Table) -> str:
    rows = ([*r.group, r.llm, r.metric, r.kind, r.stat, _num(r.value, r.kind), _num(r.ci_low, r.kind),
             _num(r.ci_high, r.kind), "" if r.count is None else str(r.count), str(r.n), str(r.query_errors),
             str(r.check_errors)] for r in table.rows)
    write_table(path, [*table.columns, *TSV_COLUMNS], rows)
    return path.name


def _write_errors(path: Path, report: Report) -> str:
    write_table(path, ["llm", "qid", "pid", "cid", "func", "source", "error"],
                ([e.llm, e.qid, e.pid, e.cid, e.func, e.source, e.error] for e in report.errors))
    return path.name


def _pct(x: float | None) -> str:
    return "" if x is None else f"{100 * x:.1f}%"


def _errors(r: StatRow) -> str:
    parts = [f"{r.query_errors} query" if r.query_errors else "", f"{r.check_errors} check" if r.check_errors else ""]
    text = " + ".join(p for p in parts if p)
    return f" ({text} errors)" if text else ""


def _cell(r: StatRow) -> str:
    """A binary or score statistic as one table cell: value [low, high] n=..., plus errors if any."""
    if r.value is None:
        return f"no results{_errors(r)}"
    if r.kind == "score":
        ci = f" [{r.ci_low:.3g}, {r.ci_high:.3g}]" if r.ci_low is not None and r.ci_high is not None else ""
        return f"{r.value:.3g}{ci} n={r.n}{_errors(r)}"
    return f"{_pct(r.value)} {_ci(r)} n={r.n}{_errors(r)}"


def _ci(r: StatRow) -> str:
    return f"[{100 * (r.ci_low or 0):.1f}, {100 * (r.ci_high or 0):.1f}]"


def _share(r: StatRow) -> str:
    return "" if r.value is None else f"{_pct(r.value)} ({r.count}) {_ci(r)}"


def _interval(r: StatRow | None) -> charts.Interval | None:
    return None if r is None or r.value is None else (r.value, r.ci_low, r.ci_high)


def _metric_blocks(report: Report, table: Table, metric: str, kind: str, chart_name: str | None) -> list[_Block]:
    """A metric's table within one breakdown, and its chart when ``chart_name`` is given."""
    rows = [r for r in table.rows if r.metric == metric]
    groups = list(dict.fromkeys(r.group for r in rows))
    label = (lambda g: " & ".join(g)) if table.columns else (lambda g: "all")
    blocks = []
    if len(groups) > MAX_GROUPS:
        blocks.append(_Block("p", f"Showing the first {MAX_GROUPS} of {len(groups)} groups; "
                                  f"{_file_name(table.name)}.tsv has them all."))
        groups = groups[:MAX_GROUPS]
        rows = [r for r in rows if r.group in set(groups)]
    if kind == "multiclass":
        labels = report.labels[metric]
        keys = [(g, llm) for g in groups for llm in report.llms if any(r.group == g and r.llm == llm for r in rows)]
        by = {(r.group, r.llm, r.stat): r for r in rows}
        if chart_name:
            cats = [f"{label(g)} · {llm}" if table.columns else llm for g, llm in keys]
            title = f"{metric} by {table.name}" if table.columns else f"{metric} per LLM"
            shares = [[(by[(g, llm, lab)].value or 0.0) for lab in labels] for g, llm in keys]
            svg = charts.stacked_shares(chart_name, title, cats, labels, shares)
            blocks.append(_Block("chart", title, name=chart_name, svg=svg))
        header = [*table.columns, "LLM", *labels, "n", "query errors", "check errors"]
        body = []
        for g, llm in keys:
            first = by[(g, llm, labels[0])]
            body.append([*g, llm, *(_share(by[(g, llm, lab)]) for lab in labels), str(first.n),
                         str(first.query_errors), str(first.check_errors)])
        blocks.append(_Block("table", header=header, rows=body))
        return blocks
    by2 = {(r.group, r.llm): r for r in rows}
    if chart_name:
        series = {llm: [_interval(by2.get((g, llm))) for g in groups] for llm in report.llms}
        svg = charts.interval_bars(chart_name, f"{metric} by {table.name}", [label(g) for g in groups], series,
                                   "accuracy" if kind == "binary" else "mean", kind == "binary")
        blocks.append(_Block("chart", f"{metric} by {table.name}", name=chart_name, svg=svg))
    body = [[*g, *(_cell(by2[(g, llm)]) if (g, llm) in by2 else "" for llm in report.llms)] for g in groups]
    blocks.append(_Block("table", header=[*table.columns, *report.llms], rows=body))
    return blocks


def _document(report: Report) -> list[_Block]:
    b = [_Block("h1", "Evaluation report"), _Block("p", _summary(report)), _Block("p", HOW_TO_READ),
         _Block("table", header=["LLM", "records", "failed queries", "checks", "results", "query errors",
                                 "check errors", "testee cost", "checker cost"],
                rows=[[llm, str(s.records), str(s.failed_queries), str(s.checks), str(s.results), str(s.query_errors),
                       str(s.check_errors), f"{s.cost:.4f}", f"{s.check_cost:.4f}"]
                      for llm, s in report.per_llm.items()])]
    overall = report.tables[0]
    b.append(_Block("h2", "Overall"))
    plain = [m for m, k in report.metrics.items() if k == "binary"]
    if plain:
        rows = {(r.metric, r.llm): r for r in overall.rows}
        series = {llm: [_interval(rows.get((m, llm))) for m in plain] for llm in report.llms}
        b.append(_Block("chart", "Accuracy per LLM", name="overall",
                        svg=charts.interval_bars("overall", "Accuracy per LLM", plain, series, "accuracy")))
        b.append(_Block("table", header=["metric", *report.llms],
                        rows=[[m, *(_cell(rows[(m, llm)]) if (m, llm) in rows else "" for llm in report.llms)]
                              for m in plain]))
    for metric, kind in report.metrics.items():
        if kind != "binary":
            b.append(_Block("h3", f"{metric} ({kind})"))
            b += _metric_blocks(report, overall, metric, kind, f"overall_{_file_name(metric)}")
    b += _ranking_blocks(report)
    for table in report.tables[1:]:
        b.append(_Block("h2", f"By {table.name}"))
        for metric, kind in report.metrics.items():
            if any(r.metric == metric for r in table.rows):
                chart = f"by_{_file_name(table.name)}_{_file_name(metric)}" if table.name in CHARTED else None
                b.append(_Block("h3", f"{metric} ({kind})"))
                b += _metric_blocks(report, table, metric, kind, chart)
    if report.clid is not None:
        b += [_Block(**d) for d in clid.report_blocks(report.clid)]
    from .checkers import checker_blocks  # imported here: it renders with this module's blocks

    return b + checker_blocks(report.checkers) + _error_blocks(report)


def _ranking_blocks(report: Report) -> list[_Block]:
    """Passage-ranking suites: their metrics side by side per LLM and variant (see evaluate/ranking.py)."""
    summary = ranking.ranking_summary(report)
    if summary is None:
        return []
    return [_Block("h2", "Passage ranking"), _Block("p", ranking.HOW_TO_READ),
            _Block("table", header=summary.header, rows=summary.rows)]


def summary_lines(report: Report) -> list[str]:
    """A short account for the terminal: what was read, and every overall figure per metric and LLM."""
    t = report.totals
    out = [f"evaluated {report.records} records ({report.items} items, {len(report.llms)} LLMs), {t.checks} checks: "
           f"{t.results} results, {t.query_errors} query errors, {t.check_errors} check errors"]
    if report.repeated:
        names = ", ".join(report.repeated[:5]) + (", ..." if len(report.repeated) > 5 else "")
        out.append(f"  {len(report.repeated)} qids occur more than once with the same pid and llm ({names}); each "
                   "repeat is counted as a record of its own (QID#2, QID#3, ...)")
    width = max((len(m) for m in report.metrics), default=0)
    lwidth = max((len(llm) for llm in report.llms), default=0)
    by: dict[tuple[str, str], list[StatRow]] = {}
    for r in report.tables[0].rows:
        by.setdefault((r.metric, r.llm), []).append(r)
    for (metric, llm), rows in by.items():
        if rows[0].kind == "multiclass":
            text = ", ".join(f"{r.stat} {_pct(r.value)}" for r in rows) + f" n={rows[0].n}{_errors(rows[0])}"
        else:
            text = _cell(rows[0])
        out.append(f"  {metric:<{width}}  {llm:<{lwidth}}  {text}")
    if report.clid is not None:
        out += clid.summary_lines(report.clid)
    return out


def _summary(report: Report) -> str:
    t = report.totals
    return (f"Input: {report.source}: {report.records} records ({report.items} items, {len(report.llms)} LLMs: "
            f"{', '.join(report.llms)}), {t.checks} checks, {t.results} with a result, "
            f"{t.query_errors + t.check_errors} without ({t.query_errors} query errors, {t.check_errors} check "
            "errors). Metrics: "
            + ", ".join(f"{m} ({k})" for m, k in report.metrics.items()) + "."
            + (f" {len(report.repeated)} qids occur more than once with the same pid and llm (as python-ragability's "
               "converter writes them); each repeat is counted as a record of its own." if report.repeated else ""))


def _error_blocks(report: Report) -> list[_Block]:
    blocks = [_Block("h2", "Errors")]
    if not report.errors:
        return blocks + [_Block("p", "Every check has a result.")]
    reasons = Counter((e.source, e.error if len(e.error) <= 160 else e.error[:157] + "...") for e in report.errors)
    llms: dict[tuple[str, str], set[str]] = {}
    for e in report.errors:
        llms.setdefault((e.source, e.error if len(e.error) <= 160 else e.error[:157] + "..."), set()).add(e.llm)
    blocks.append(_Block("p", f"{len(report.errors)} checks have no result; errors.tsv lists each of them. "
                              "The most frequent reasons:"))
    blocks.append(_Block("table", header=["source", "error", "checks", "LLMs"],
                         rows=[[src, err, str(n), ", ".join(sorted(llms[(src, err)]))]
                               for (src, err), n in reasons.most_common(15)]))
    return blocks


# What can start Markdown or HTML markup inside a line: emphasis (``*``, and ``_`` at a word's edge; inside
# a word it is inert), code, raw HTML and entities, table cells, strikethrough, headings' closers, and the
# ``](``, ``][``, ``]:`` that make a link, an image or a link definition (so ``[`` and ``!`` can stay as
# they are, and figures such as "[86.2, 100.0]" read as before).
_MD_SPECIAL = re.compile(r"[\\`*<>&|~#]|(?<!\w)_|_(?!\w)|\](?=[(\[:])")


def md_text(text: str) -> str:
    """Text from the data (model names, tags, prompt ids, metrics, errors) made inert in Markdown: each
    markup character backslash-escaped (CommonMark shows it as itself), line breaks turned to spaces,
    so ``<script>`` or ``![x](y)`` in a model's name is shown, never rendered."""
    return _MD_SPECIAL.sub(lambda m: "\\" + m.group(0), text.replace("\r", " ").replace("\n", " "))


def _md_cell(text: str) -> str:
    return md_text(text)


def to_markdown(blocks: Sequence[_Block]) -> str:
    """The report as GitHub-flavoured Markdown; charts are images in ``charts/``. All text is escaped."""
    out: list[str] = []
    for b in blocks:
        if b.kind in ("h1", "h2", "h3"):
            out.append("#" * int(b.kind[1]) + " " + md_text(b.text))
        elif b.kind == "p":
            out.append(md_text(b.text))
        elif b.kind == "chart":
            alt = md_text(b.text.replace("[", "(").replace("]", ")"))  # inside link text every bracket counts
            out.append(f"![{alt}](charts/{b.name}.svg)")
        else:
            lines = ["| " + " | ".join(_md_cell(h) for h in b.header) + " |", "|" + " --- |" * len(b.header)]
            lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in b.rows]
            out.append("\n".join(lines))
    return "\n\n".join(out) + "\n"


_CSS = """body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;max-width:1200px;margin:2em auto;
padding:0 1em;color:#222;line-height:1.45}table{border-collapse:collapse;margin:.6em 0 1.4em;font-size:.86em}
th,td{border:1px solid #ccc;padding:.25em .55em;text-align:left;vertical-align:top}th{background:#f3f3f3}
tr:nth-child(even) td{background:#fafafa}h2{border-bottom:2px solid #ddd;padding-bottom:.2em;margin-top:2em}
h3{margin-bottom:.3em}figure{margin:.5em 0}figure svg{max-width:100%;height:auto}nav a{margin-right:.8em}"""


def _anchor(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def to_html(blocks: Sequence[_Block], title: str) -> str:
    """The report as one HTML page with inline style and inline SVG charts, linking to nothing outside."""
    h2s = [b.text for b in blocks if b.kind == "h2"]
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>"]
    for b in blocks:
        if b.kind == "h1":
            out.append(f"<h1>{html.escape(b.text)}</h1>")
            out.append("<nav>" + "".join(f'<a href="#{_anchor(t)}">{html.escape(t)}</a>' for t in h2s) + "</nav>")
        elif b.kind == "h2":
            out.append(f'<h2 id="{_anchor(b.text)}">{html.escape(b.text)}</h2>')
        elif b.kind == "h3":
            out.append(f"<h3>{html.escape(b.text)}</h3>")
        elif b.kind == "p":
            out.append(f"<p>{html.escape(b.text)}</p>")
        elif b.kind == "chart":
            out.append(f'<figure aria-label="{html.escape(b.text)}">{b.svg}</figure>')
        else:
            head = "".join(f"<th>{html.escape(h)}</th>" for h in b.header)
            body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in b.rows)
            out.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"

