"""The generate benchmark's tiny mode runs, so the benchmark cannot rot (figures: BENCHMARKS.md)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_bench_generate_tiny_mode_passes() -> None:
    proc = subprocess.run([sys.executable, "bench_generate.py", "--tiny"], cwd=ROOT / "benchmarks",
                          capture_output=True, text=True, timeout=900,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[-1] == "PASS"
    assert "every context accepted at the first attempt: True" in lines
    assert any(line.startswith("second run (same cache): ") and "0 HTTP requests (target 0), same corpus and "
               "rejects files: True, same audit apart from cache hits and costs: True" in line for line in lines)
