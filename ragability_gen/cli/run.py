"""``ragability-gen query`` and ``check``: live runs with a journal, or through batch APIs (``--batch``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from ragability_gen.cli.common import ProgressBars, fail, llm_options, llm_settings, print_lines
from ragability_gen.errors import RagabilityGenError
from ragability_gen.llm.config import config_prompts, open_checkers, open_llms
from ragability_gen.run.core import COMPAT_MODES, RunSummary, check_results, query_suite


def batch_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Options of query and check for batch APIs (OpenAI's Batch API, vLLM run_batch)."""
    options = [
        click.option("--batch", type=click.Choice(["write", "submit", "collect"]),
                     help="Instead of a live run: write the pending requests as batch input files, submit them "
                          "through the files and batches endpoints, or collect the batch output into OUTPUT."),
        click.option("--batch-dir", type=click.Path(file_okay=False, path_type=Path),
                     help="Folder of the batch files (default: OUTPUT + .batch)."),
        click.option("--batch-max-requests", type=click.IntRange(min=1), default=50_000, show_default=True,
                     help="Requests per batch input file."),
        click.option("--batch-max-bytes", type=click.IntRange(min=1), default=200_000_000, show_default=True,
                     help="Bytes per batch input file."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def _batch_stage(kw: dict[str, Any], kind: str, source: Path, output: Path, llms: Callable[[], list[Any]],
                 prompts: Path | None, quiet: bool) -> bool:
    """Run the --batch step if one is asked for; False when the command should run live."""
    step, folder = kw.pop("batch"), kw.pop("batch_dir") or output.with_name(output.name + ".batch")
    max_requests, max_bytes = kw.pop("batch_max_requests"), kw.pop("batch_max_bytes")
    if step is None:
        return False
    from ragability_gen.run.batch import collect_batch, submit_batch, write_batch

    try:
        if step == "write":
            done = write_batch(kind, source, output, llms(), folder, prompts=prompts, max_requests=max_requests,
                               max_bytes=max_bytes)
        elif step == "submit":
            done = submit_batch(folder, llms())
        else:
            with ProgressBars(quiet) as bars:
                done = collect_batch(kind, source, output, llms(), folder, prompts=prompts, on_progress=bars)
    except (RagabilityGenError, OSError) as e:
        raise fail(e) from None
    print_lines(done.lines(), quiet)
    return True


def _run_stage(quiet: bool, body: Callable[[ProgressBars], RunSummary]) -> None:
    """Run a live query or check with progress bars; print its summary."""
    try:
        with ProgressBars(quiet) as bars:
            summary = body(bars)
    except (RagabilityGenError, OSError) as e:
        raise fail(e) from None
    print_lines(summary.lines(), quiet)


@click.command()
@click.argument("suite", metavar="SUITE", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="Results file (hjson, json or jsonl by suffix).")
@click.option("--llm", "llms", metavar="MODEL", multiple=True,
              help="Testee model; repeat for several (default: every model in --config).")
@click.option("--prompts", type=click.Path(dir_okay=False, path_type=Path),
              help="Prompt file (default: the <stem>.prompts.hjson beside SUITE).")
@llm_options
@batch_options
@click.option("--restart", is_flag=True,
              help="Discard the journal of an unfinished run over other inputs or settings and start over.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar and no summary.")
def query(suite: Path, output: Path, llms: tuple[str, ...], prompts: Path | None, restart: bool, quiet: bool,
          **kw: Any) -> None:
    """Send every item x prompt id x testee model of SUITE; write the responses to OUTPUT.

    An interrupted run continues where it stopped when started again with the same command.
    """
    settings = llm_settings(kw)
    if _batch_stage(kw, "query", suite, output, lambda: open_llms(llms, **settings), prompts, quiet):
        return
    _run_stage(quiet, lambda bars: query_suite(
        suite, output, open_llms(llms, **settings), prompts=prompts, on_progress=bars, restart=restart,
        more_prompts=config_prompts(settings["config"]) if settings["config"] else ()))


@click.command()
@click.argument("results", metavar="RESULTS", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="Checked results file (hjson, json or jsonl by suffix).")
@click.option("--checker", "checkers", metavar="MODEL", multiple=True,
              help="The checker model (a name, or an alias in --config; default: the config's first model). "
                   "Not needed when no check asks a model. Repeat for several checkers: each verdict is kept, "
                   "the first one's in the usual fields.")
@click.option("--prompts", type=click.Path(dir_okay=False, path_type=Path),
              help="Prompt file with the checker prompts (default: the <stem>.prompts.hjson beside RESULTS).")
@llm_options
@batch_options
@click.option("--restart", is_flag=True,
              help="Discard the journal of an unfinished run over other inputs or settings and start over.")
@click.option("--compat", type=click.Choice(COMPAT_MODES),
              help="Read replies and route checks as python-ragability does, to compare with its numbers.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar and no summary.")
def check(results: Path, output: Path, checkers: tuple[str, ...], prompts: Path | None, restart: bool,
          compat: str | None, quiet: bool, **kw: Any) -> None:
    """Check the responses in RESULTS (a query output) with the suite's checks; write them to OUTPUT."""
    settings = llm_settings(kw)

    if kw.get("batch") and len(checkers) > 1:
        raise click.UsageError("--batch checks with one checker at a time; give one --checker")

    if _batch_stage(kw, "check", results, output, lambda: open_checkers(checkers, **settings), prompts, quiet):
        return

    def body(bars: ProgressBars) -> RunSummary:
        return check_results(results, output, open_checkers(checkers, **settings), prompts=prompts,
                             on_progress=bars, restart=restart,
                             compat=compat,
                             more_prompts=config_prompts(settings["config"]) if settings["config"] else ())

    _run_stage(quiet, body)
