"""The query benchmark's tiny mode, so the script keeps working (correctness checks only, no speed targets)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_query_benchmark_tiny_mode() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_query.py"), "--tiny", "--seed", "1"],
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert [line.split(":")[0].split(",")[0] for line in lines] == ["throughput", "memory", "failures", "kill"]
    assert "0 lost, 0 duplicated; counts match" in lines[2]
    assert lines[3].endswith("nothing measured") or "byte-identical to an uninterrupted run; journal removed: True" \
        in lines[3]
