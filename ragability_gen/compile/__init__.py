"""Compile: canonical instances + a suite spec -> a test suite in the ragability format."""

from ragability_gen.compile.core import CompileSummary, Suite, compile_suite, expected_outcome

__all__ = ["CompileSummary", "Suite", "compile_suite", "expected_outcome"]
