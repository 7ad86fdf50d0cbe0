"""``ragability-gen calibrate`` and ``probe``: how far a checker can be trusted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from ragability_gen.cli.common import ProgressBars, fail, llm_options, llm_settings, print_lines
from ragability_gen.errors import RagabilityGenError


@click.command("calibrate")
@click.argument("checked", metavar="CHECKED", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("labels", metavar="LABELS", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path),
              help="Report folder to write (default: LABELS's name without its suffix + '-calibration', in the "
                   "current folder). A previous report there is replaced; a folder holding other files is refused.")
@click.option("--qid-column", default="qid", show_default=True, help="Column of LABELS holding the item id.")
@click.option("--pid-column", default="pid", show_default=True, help="Column holding the testee prompt id.")
@click.option("--llm-column", default="llm", show_default=True, help="Column holding the testee model.")
@click.option("--cid-column", default="cid", show_default=True, help="Column holding the check id.")
@click.option("--label-column", default="label", show_default=True,
              help="Column holding the human label: 1/0 (or yes/no) for binary checks, the verdict for multiclass.")
@click.option("--resamples", type=click.IntRange(min=0), default=1000, show_default=True,
              help="Bootstrap resamples for the 95% intervals (0: none).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the bootstrap resampling.")
@click.option("-q", "--quiet", is_flag=True, help="Do not print the summary.")
def calibrate_command(checked: Path, labels: Path, output: Path | None, qid_column: str, pid_column: str,
                      llm_column: str, cid_column: str, label_column: str, resamples: int, seed: int,
                      quiet: bool) -> None:
    """Compare the checker verdicts in CHECKED with human LABELS (TSV, CSV or JSONL): agreement, kappa, report."""
    from ragability_gen.calibrate import Columns, calibrate_file
    from ragability_gen.calibrate import summary_lines as calibration_lines

    try:
        cal, names, out = calibrate_file(checked, labels, output,
                                         Columns(qid_column, pid_column, llm_column, cid_column, label_column),
                                         resamples=resamples, seed=seed)
    except (RagabilityGenError, OSError) as e:
        raise fail(e) from None
    print_lines(calibration_lines(cal) + [f"wrote {len(names)} files to {out}"], quiet)


@click.command("probe")
@click.argument("source", metavar="SUITE_OR_RESULTS", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path),
              help="Report folder to write (default: SUITE_OR_RESULTS's name up to its first dot + '-probes', in the "
                   "current folder). A previous report there is replaced; a folder holding other files is refused.")
@click.option("--checker", "checkers", metavar="MODEL", multiple=True,
              help="The checker model to probe (default: the config's first model); repeat to probe several.")
@click.option("--prompts", type=click.Path(dir_okay=False, path_type=Path),
              help="Prompt file with the checker prompts (default: the <stem>.prompts.hjson beside the input).")
@click.option("--items", "per_role", type=click.IntRange(min=1), default=20, show_default=True,
              help="Items probed per role (answer, decline, judge), chosen at random with --probe-seed.")
@click.option("--repeats", type=click.IntRange(min=0), default=5, show_default=True,
              help="How often the repeat probe sends one request past the cache (self-agreement); 0 for none.")
@click.option("--probe-seed", type=int, default=0, show_default=True, help="Seed of the choice of items.")
@llm_options
@click.option("-q", "--quiet", is_flag=True, help="No progress bar and no summary.")
def probe_command(source: Path, output: Path | None, checkers: tuple[str, ...], prompts: Path | None, per_role: int,
                  repeats: int, probe_seed: int, quiet: bool, **kw: Any) -> None:
    """Probe a checker with dummy answers whose right verdict is known ("Yes", "Sure", a refusal, padding, ...)."""
    from ragability_gen.calibrate.report import probe_summary_lines
    from ragability_gen.run.probes import probe_file

    settings = llm_settings(kw)
    try:
        with ProgressBars(quiet) as bars:
            report, names, out = probe_file(source, output, checkers, prompts=prompts, per_role=per_role,
                                            repeats=repeats, seed=probe_seed, on_progress=bars, llm_settings=settings)
    except (RagabilityGenError, OSError) as e:
        raise fail(e) from None
    print_lines(probe_summary_lines(report) + [f"wrote {len(names)} files to {out}"], quiet)
