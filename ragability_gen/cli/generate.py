"""``ragability-gen generate``: fill the empty contexts of a corpus with checked passages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from ragability_gen.cli.common import ProgressBars, corpus_output, fail, llm_options, llm_settings, print_lines
from ragability_gen.errors import RagabilityGenError


@click.command()
@click.argument("input_file", metavar="INPUT", type=click.Path(dir_okay=False, path_type=Path))
@corpus_output
@click.option("--llm", "llm", required=True, metavar="MODEL|rules",
              help="The writer: 'rules' for the offline rules writer (no model), else the model that writes the "
                   "contexts (a config alias or provider/model).")
@click.option("--verifier", metavar="MODEL",
              help="The model for the model checks (default: the --llm model; none with --llm rules); "
                   "'none' for rule checks only.")
@click.option("--attempts", type=click.IntRange(min=1),
              help="Candidates per context at most; a rejected one is retried with the reasons "
                   "(default: 3 for a model, 12 for the rules writer).")
@click.option("--force", is_flag=True, help="Regenerate the fillable contexts even where they are filled.")
@click.option("--converter", metavar="NAME|PATH",
              help="Converter spec for INPUT (default: recognised from INPUT, else ragability-v0.4).")
@click.option("--layout", metavar="NAME|PATH",
              help="Converter spec whose contexts with required: false are filled, with the relations it declares "
                   "(default: INPUT's converter spec when it declares contexts, else ragability-v0.4).")
@click.option("--suite", metavar="NAME|PATH",
              help="Suite spec whose variants are named as skipped where a context cannot be generated "
                   "(default: the converter spec's default_suite, else ragability).")
@click.option("--allow-partial", is_flag=True,
              help="Exit 0 even when fewer contexts were accepted than asked for.")
@click.option("--audit", "audit_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Audit file, one JSON record per generated context (default: OUTPUT stem + .audit.jsonl).")
@click.option("--rejects", "rejects_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Rejects report, one JSON record per instance with a context not generated "
                   "(default: OUTPUT stem + .rejects.jsonl).")
@llm_options
@click.option("-q", "--quiet", is_flag=True, help="Print neither progress nor the summary.")
def generate(input_file: Path, output: Path, llm: str, verifier: str | None, attempts: int | None, force: bool,
             converter: str | None, layout: str | None, suite: str | None, allow_partial: bool,
             audit_path: Path | None, rejects_path: Path | None, quiet: bool, **kw: Any) -> None:
    """Fill in the empty generated contexts (context_3/context_4) of a corpus INPUT with checked passages.

    Exits 1 when fewer contexts were accepted than asked for (the files are still written), unless
    --allow-partial is given.
    """
    from ragability_gen.generate.core import GenerationShortfall, generate_file

    settings = llm_settings(kw)
    try:
        with ProgressBars(quiet) as bars:
            read, summary = generate_file(input_file, output, llm, verifier=verifier, attempts=attempts,
                                          force=force, converter=converter, layout=layout, suite=suite,
                                          allow_partial=allow_partial, audit=audit_path, rejects=rejects_path,
                                          on_progress=bars, **settings)
    except GenerationShortfall as e:
        print_lines(e.lines(), quiet)
        raise fail(e) from None
    except (RagabilityGenError, OSError) as e:
        raise fail(e) from None
    print_lines(read.lines() + summary.lines(), quiet)
