"""Run: query testee LLMs over a suite, check their replies (check functions, checker LLMs)."""

from ragability_gen.run.core import RunSummary, check_results, query_suite

__all__ = ["RunSummary", "check_results", "query_suite"]
