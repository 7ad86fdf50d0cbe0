"""The ``ragability-gen`` command line: thin commands over the library functions."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .compile import compile_suite
from .convert import read_instances, write_corpus
from .errors import RagabilityGenError
from .evaluate import check_report_dir, evaluate_checked, summary_lines, write_report
from .export import export_tsv
from .fileio import FORMATS, format_for
from .validate import FILE_KINDS, validate_file


class Problems(click.ClickException):
    """Prints one 'error:' line per problem and exits with status 1."""

    def __init__(self, problems: list[str]):
        super().__init__("\n".join(problems))
        self.problems = problems

    def show(self, file=None) -> None:  # type: ignore[no-untyped-def]
        for line in self.problems:
            click.echo(f"error: {line}", err=True)


def _fail(e: RagabilityGenError | OSError) -> Problems:
    if isinstance(e, OSError):
        return Problems([f"{e.filename or ''}: {e.strerror or e}".lstrip(": ")])
    return Problems(e.problems)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ragability-gen")
def main() -> None:
    """Build and run test suites for LLMs facing contradicting passages."""


@main.command()
@click.argument("input_file", metavar="INPUT", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Suite file to write (default: INPUT with the format's suffix, in the current folder).")
@click.option("--suite", metavar="NAME|PATH",
              help="Suite spec: a shipped name (see checks/) or a path (default: the converter spec's "
                   "default_suite, else ragability).")
@click.option("--prompts", "prompts_out", type=click.Path(dir_okay=False, path_type=Path),
              help="Where to write the prompt file the suite needs (default: OUTPUT stem + .prompts.hjson).")
@click.option("--format", "fmt", type=click.Choice(FORMATS),
              help="Suite format (default: from the OUTPUT suffix, else hjson).")
@click.option("--converter", metavar="NAME|PATH",
              help="Converter spec for INPUT: a shipped name (see converters/) or a path "
                   "(default: recognised from INPUT, else ragability-v0.4).")
@click.option("--to-corpus", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the instances as a corpus instead of compiling a suite: a .jsonl path gets "
                   "canonical instances, any other path a TSV in the Ragability v0.4 columns.")
@click.option("--conflict", type=click.Choice(["explicit", "implicit"]),
              help="Keep only explicit or only implicit contradictions (WikiContradict input).")
@click.option("--different-passages-only", is_flag=True,
              help="Keep only questions whose two statements are in different passages "
                   "(WikiContradict input).")
@click.option("-q", "--quiet", is_flag=True, help="Do not print the summary.")
def convert(input_file: Path, output: Path | None, suite: str | None, prompts_out: Path | None, fmt: str | None,
            converter: str | None, to_corpus: Path | None, conflict: str | None,
            different_passages_only: bool, quiet: bool) -> None:
    """Convert a corpus INPUT (e.g. v0d4.tsv) into a test suite (v0d4.hjson) and its prompt file."""
    options = {"conflict": conflict, "passages": "different" if different_passages_only else None}
    try:
        instances, conv_summary = read_instances(
            input_file, converter, **{k: v for k, v in options.items() if v is not None})
        lines = conv_summary.lines()
        if to_corpus:
            n = write_corpus(instances, to_corpus)
            lines.append(f"wrote {n} rows to {to_corpus}")
        else:
            fmt = fmt or (format_for(output) if output else "hjson")
            out = output or Path(input_file.stem + "." + fmt)
            suite = suite or conv_summary.default_suite or "ragability"
            summary, prompts_path = compile_suite(instances, out, suite, fmt, prompts_out)
            lines += summary.lines()
            lines.append(f"wrote {summary.items} items to {out} and prompts to {prompts_path}")
    except (RagabilityGenError, OSError) as e:
        raise _fail(e) from None
    if not quiet:
        for line in lines:
            click.echo(line, err=True)


@main.command()
@click.argument("files", metavar="FILE...", nargs=-1, required=True,
                type=click.Path(dir_okay=False, path_type=Path))
@click.option("--kind", type=click.Choice(FILE_KINDS), help="What the files are (default: guessed).")
@click.option("--converter", metavar="NAME|PATH", help="Converter spec for corpus files.")
def validate(files: tuple[Path, ...], kind: str | None, converter: str | None) -> None:
    """Validate corpora, instance files, suites, prompt files and specs; report every problem."""
    problems: list[str] = []
    for f in files:
        try:
            found, probs, what = validate_file(f, kind, converter)
        except (RagabilityGenError, OSError) as e:
            problems += _fail(e).problems
            continue
        if probs:
            problems += probs
        else:
            click.echo(f"{f}: valid {found} ({what})")
    if problems:
        raise Problems(problems)


@main.command("eval")
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
    out = output or Path(checked.stem + "-report")
    try:
        check_report_dir(out)
        report = evaluate_checked(checked, by_tags or None, by_fields or None)
        names = write_report(report, out)
    except (RagabilityGenError, OSError) as e:
        raise _fail(e) from None
    if not quiet:
        for line in summary_lines(report) + [f"wrote {len(names)} files to {out}: report.html, report.md, "
                                             f"{sum(n.endswith('.tsv') for n in names)} TSV tables, "
                                             f"{sum(n.endswith('.svg') for n in names)} charts"]:
            click.echo(line, err=True)


@main.command("export")
@click.argument("file", metavar="FILE", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="TSV file to write (default: FILE's name with .export.tsv for its suffix, in the current folder).")
@click.option("--all", "keep_all", is_flag=True, help="Keep columns whose value is the same in every row.")
@click.option("-q", "--quiet", is_flag=True, help="Do not print the summary.")
def export_command(file: Path, output: Path | None, keep_all: bool, quiet: bool) -> None:
    """Write a suite, results or checked FILE as a TSV: one row per item x check."""
    out = output or Path(file.stem + ".export.tsv")
    try:
        summary = export_tsv(file, out, keep_all)
    except (RagabilityGenError, OSError) as e:
        raise _fail(e) from None
    if not quiet:
        for line in summary.lines() + [f"wrote {out}"]:
            click.echo(line, err=True)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
