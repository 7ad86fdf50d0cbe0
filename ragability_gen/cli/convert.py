"""``ragability-gen convert``: a corpus into a test suite and its prompt file, or into another corpus."""

from __future__ import annotations

from pathlib import Path

import click

from ragability_gen.cli.common import fail, print_lines
from ragability_gen.core.fileio import FORMATS
from ragability_gen.errors import RagabilityGenError


@click.command()
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
                   "canonical instances, any other path a table in the columns of --out-converter, else of "
                   "INPUT's own table spec, else the Ragability v0.4 columns.")
@click.option("--out-converter", metavar="NAME|PATH",
              help="Table converter spec whose columns the --to-corpus table is written in "
                   "(default: INPUT's, when a table spec, else ragability-v0.4).")
@click.option("--drop-unmapped", is_flag=True,
              help="With --to-corpus: write the table even when fields of the instances have no column in "
                   "its spec (e.g. WikiContradict's title and url in the Ragability columns), and list them; "
                   "by default that is refused.")
@click.option("--conflict", type=click.Choice(["explicit", "implicit"]),
              help="Keep only explicit or only implicit contradictions (WikiContradict input).")
@click.option("--different-passages-only", is_flag=True,
              help="Keep only questions whose two statements are in different passages "
                   "(WikiContradict input).")
@click.option("-q", "--quiet", is_flag=True, help="Do not print the summary.")
def convert(input_file: Path, output: Path | None, suite: str | None, prompts_out: Path | None, fmt: str | None,
            converter: str | None, to_corpus: Path | None, out_converter: str | None, drop_unmapped: bool,
            conflict: str | None, different_passages_only: bool, quiet: bool) -> None:
    """Convert a corpus INPUT (e.g. v0d4.tsv) into a test suite (v0d4.hjson) and its prompt file."""
    if (out_converter or drop_unmapped) and not to_corpus:
        raise click.UsageError("--out-converter and --drop-unmapped apply to a corpus: give --to-corpus PATH")
    from ragability_gen.convert.files import convert_file

    try:
        result = convert_file(input_file, output, suite=suite, prompts=prompts_out, fmt=fmt, converter=converter,
                              to_corpus=to_corpus, out_converter=out_converter, drop_unmapped=drop_unmapped,
                              conflict=conflict, passages="different" if different_passages_only else None)
    except (RagabilityGenError, OSError) as e:
        raise fail(e) from None
    print_lines(result.lines(), quiet)
