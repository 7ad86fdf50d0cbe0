"""``ragability-gen eval`` and ``export``: metrics and reports from checked results; TSV exports."""

from __future__ import annotations

from pathlib import Path

import click

from ragability_gen.cli.common import fail, print_lines
from ragability_gen.errors import RagabilityGenError


@click.command("eval")
@click.argument("checked", metavar="CHECKED", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path),
              help="Report folder to write (default: CHECKED's name without its suffix + '-report', in the "
                   "current folder). "
                   "A previous report there is replaced; a folder holding other files is refused.")
@click.option("--by-tags", multiple=True, metavar="SPEC",
              help="Break results down by tags; repeatable. SPEC: [NAME=]PATTERN[,PATTERN...] with * and ? "
                   "wildcards, several joined by & for their cross product (e.g. 'ctx_*', 'hint,nohint', "
                   "'wc_template_*&wc_explicit,wc_implicit'). 'default' stands for the shipped tag groups, "
                   "'none' for no tag breakdowns. Default: default.")
@click.option("--by-fields", multiple=True, metavar="SPEC",
              help="Break results down by item fields; repeatable. SPEC: [NAME=]FIELD[,FIELD...] (combined); "
                   "check.KEY for a field of the check (e.g. check.cid). 'default' stands for pid, 'none' for "
                   "no field breakdowns. Default: pid.")
@click.option("-q", "--quiet", is_flag=True, help="Do not print the summary.")
def eval_command(checked: Path, output: Path | None, by_tags: tuple[str, ...], by_fields: tuple[str, ...],
                 quiet: bool) -> None:
    """Compute metrics from a CHECKED file and write TSV tables, report.md and report.html."""
    from ragability_gen.evaluate.files import eval_file

    try:
        result = eval_file(checked, output, by_tags, by_fields)
    except (RagabilityGenError, OSError) as e:
        raise fail(e) from None
    print_lines(result.lines(), quiet)


@click.command("export")
@click.argument("file", metavar="FILE", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="TSV file to write (default: FILE's name with .export.tsv for its suffix, in the current folder).")
@click.option("--all", "keep_all", is_flag=True, help="Keep columns whose value is the same in every row.")
@click.option("-q", "--quiet", is_flag=True, help="Do not print the summary.")
def export_command(file: Path, output: Path | None, keep_all: bool, quiet: bool) -> None:
    """Write a suite, results or checked FILE as a TSV: one row per item x check."""
    from ragability_gen.evaluate.files import export_file

    try:
        summary, out = export_file(file, output, keep_all)
    except (RagabilityGenError, OSError) as e:
        raise fail(e) from None
    print_lines(summary.lines() + [f"wrote {out}"], quiet)
