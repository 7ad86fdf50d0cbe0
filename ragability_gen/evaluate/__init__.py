"""Stage: evaluate checked results (metrics with confidence intervals, breakdowns, reports)."""

from .breakdowns import DEFAULT_FIELDS, DEFAULT_TAGS, Breakdown, field_breakdown, parse_breakdowns, tag_breakdown
from .core import CheckError, LLMSummary, Report, StatRow, Table, evaluate_checked
from .report import check_report_dir, summary_lines, write_report

__all__ = [
    "DEFAULT_FIELDS", "DEFAULT_TAGS", "Breakdown", "CheckError", "LLMSummary", "Report", "StatRow", "Table",
    "check_report_dir", "evaluate_checked", "field_breakdown", "parse_breakdowns", "summary_lines", "tag_breakdown",
    "write_report",
]
