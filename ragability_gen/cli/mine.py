"""``ragability-gen mine``: candidate conflicts from a folder of documents, for review."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from ragability_gen.cli.common import (
    Problems,
    ProgressBars,
    corpus_output,
    fail,
    llm_options,
    llm_settings,
    print_lines,
)
from ragability_gen.errors import RagabilityGenError


@click.command("mine")
@click.argument("inputs", metavar="DOCS...", nargs=-1, required=True, type=click.Path(path_type=Path))
@corpus_output
@click.option("--verifier", type=click.Choice(["rules", "llm"]), default="rules", show_default=True,
              help="rules: numbers and dates that disagree about the same subject (no model); llm: the --llm "
                   "model's verdict per fact and passage.")
@click.option("--facts", type=click.Choice(["rules", "llm"]), default=None,
              help="rules: every sentence stating a number or date; llm: atomic facts from the --llm model "
                   "(default: llm with --verifier llm, else rules).")
@click.option("--llm", "llm", metavar="MODEL", help="The model for --verifier llm and --facts llm.")
@click.option("--retriever", type=click.Choice(["bm25", "embeddings"]), default="bm25", show_default=True,
              help="How related passages are found for each fact.")
@click.option("--embedding-model", metavar="MODEL",
              help="Embedding model for --retriever embeddings, at --base-url's /v1/embeddings.")
@click.option("--top-k", type=click.IntRange(min=1), default=3, show_default=True,
              help="Related passages verified per fact.")
@click.option("--min-score", type=click.FloatRange(0, 100), default=50, show_default=True,
              help="Inconsistent verdicts scoring lower are dropped (counted).")
@click.option("--review", type=click.Path(dir_okay=False, path_type=Path),
              help="Review page (default: OUTPUT stem + .review.html).")
@llm_options
@click.option("-q", "--quiet", is_flag=True, help="Print neither progress nor the summary.")
def mine_command(inputs: tuple[Path, ...], output: Path, verifier: str, facts: str | None, llm: str | None,
                 retriever: str, embedding_model: str | None, top_k: int, min_score: float, review: Path | None,
                 quiet: bool, **kw: Any) -> None:
    """Find candidate conflicts in a folder of documents (txt, md, html, docx, pdf) for review."""
    from ragability_gen.mine import mine_files

    settings = llm_settings(kw)
    facts = facts or ("llm" if verifier == "llm" else "rules")
    if (verifier == "llm" or facts == "llm") and not llm:
        raise Problems([f"--verifier {verifier} --facts {facts} needs a model: give --llm"])
    options = {"verifier": verifier, "facts": facts, "retriever": retriever, "top_k": top_k, "min_score": min_score}
    try:
        with ProgressBars(quiet) as bars:
            result, written = mine_files(inputs, output, llm=llm, embedding_model=embedding_model, review=review,
                                         mine_options=options, on_progress=bars, **settings)
    except (RagabilityGenError, OSError) as e:
        raise fail(e) from None
    print_lines(result.summary.lines() + [f"wrote {len(result.instances)} candidates to "
                                          f"{', '.join(str(p) for p in written)}"], quiet)
