"""``ragability-gen validate``: every kind of file the tool reads or writes, all problems at once."""

from __future__ import annotations

from pathlib import Path

import click

from ragability_gen.cli.common import Problems, fail, say_config_warnings
from ragability_gen.core.specs import explain_hjson_problem
from ragability_gen.core.validate import FILE_KINDS, validate_file
from ragability_gen.errors import RagabilityGenError


@click.command()
@click.argument("files", metavar="FILE...", nargs=-1, required=True,
                type=click.Path(dir_okay=False, path_type=Path))
@click.option("--kind", type=click.Choice(FILE_KINDS), help="What the files are (default: guessed).")
@click.option("--converter", metavar="NAME|PATH", help="Converter spec for corpus files.")
def validate(files: tuple[Path, ...], kind: str | None, converter: str | None) -> None:
    """Validate corpora, instance files, suites, prompt files and specs; report every problem."""
    say_config_warnings()
    problems: list[str] = []
    for f in files:
        try:
            found, probs, what = validate_file(f, kind, converter)
        except (RagabilityGenError, OSError) as e:
            problems += fail(e).problems
            continue
        if probs:
            problems += [explain_hjson_problem(p) for p in probs]
        else:
            click.echo(f"{f}: valid {found} ({what})")
    if problems:
        raise Problems(problems)
