"""One call from a checked file to a report folder, or from a suite/results file to a TSV.

What ``ragability-gen eval`` and ``ragability-gen export`` decide, reachable from Python: the default
output names (in the current folder, from the input's name) and the refusal to overwrite a folder
that is not a report.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .core import Report, evaluate_checked
from .export import ExportSummary, export_tsv
from .report import check_report_dir, summary_lines, write_report


def default_report_dir(checked: str | Path) -> Path:
    """Where a report goes when no folder is named: ``run.checked.jsonl`` -> ``run.checked-report``."""
    return Path(Path(checked).stem + "-report")


def default_export_path(file: str | Path) -> Path:
    """Where an export goes when no file is named: ``run.checked.jsonl`` -> ``run.checked.export.tsv``."""
    return Path(Path(file).stem + ".export.tsv")


@dataclass
class EvalResult:
    """What :func:`eval_file` computed and wrote."""

    report: Report
    output: Path
    files: list[str]
    """The files written, relative to ``output``."""

    def lines(self) -> list[str]:
        """The summary the command prints."""
        names = self.files
        return summary_lines(self.report) + [
            f"wrote {len(names)} files to {self.output}: report.html, report.md, "
            f"{sum(n.endswith('.tsv') for n in names)} TSV tables, {sum(n.endswith('.svg') for n in names)} charts"]


def eval_file(checked: str | Path, output: str | Path | None = None, by_tags: Sequence[str] | None = None,
              by_fields: Sequence[str] | None = None) -> EvalResult:
    """Compute the metrics of a checked file and write the report folder (TSV tables, report.md, report.html).

    Args:
        checked: The checked file (hjson, json or jsonl).
        output: The report folder; default :func:`default_report_dir`. A previous report there is
            replaced; a folder holding other files is refused before anything is computed.
        by_tags: Tag breakdown specs (None: the defaults); see ``parse_breakdowns``.
        by_fields: Field breakdown specs (None: per prompt id).

    Raises:
        InputError: bad input or breakdowns, or an output folder that is not a report.
    """
    out = Path(output) if output is not None else default_report_dir(checked)
    check_report_dir(out)
    report = evaluate_checked(checked, by_tags or None, by_fields or None)
    return EvalResult(report, out, write_report(report, out))


def export_file(file: str | Path, output: str | Path | None = None,
                keep_all: bool = False) -> tuple[ExportSummary, Path]:
    """Write a suite, results or checked file as a TSV (one row per item x check); return the summary and path.

    ``output`` defaults to :func:`default_export_path`; ``keep_all`` keeps constant columns.
    """
    out = Path(output) if output is not None else default_export_path(file)
    return export_tsv(file, out, keep_all), out
