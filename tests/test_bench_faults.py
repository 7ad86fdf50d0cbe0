"""The fault benchmark's tiny mode, so it cannot rot: every target it checks must hold."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_fault_benchmark_tiny_mode() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_faults.py"), "--tiny"],
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("faults: 40 records in ") and lines[0].endswith(
        "lost 0, duplicated 0, wrong 0, extra 0 (targets: all 0)")
    assert lines[1].startswith("concurrent: second run refused after ") and lines[1].endswith(
        "first run identical to a single run")
    assert lines[2].startswith("kill: SIGKILL after ") and lines[2].endswith(
        "byte-identical to an uninterrupted run; left behind: nothing")
