"""Every benchmark of the convert, read, query and eval paths runs in its tiny mode, so none can rot unnoticed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"


def run_tiny(script: str, *args: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(BENCH.parent)}
    proc = subprocess.run([sys.executable, str(BENCH / script), "--tiny", *args], capture_output=True, text=True,
                          env=env, cwd=BENCH, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def test_bench_convert_tiny() -> None:
    out = run_tiny("bench_convert.py")
    assert "rows=50 items=1000" in out
    assert "convert: median of 1 " in out and "read_suite: median of 1 " in out


def test_bench_query_tiny() -> None:
    out = run_tiny("bench_query.py")
    for phase in ("throughput, 20 ms latency", "cpu: client CPU per request", "transport: the openai client alone",
                  "memory: 300 items", "failures: 300 items", "kill: SIGKILL after"):
        assert phase in out, out
    assert "counts match" in out and "byte-identical" in out


def test_bench_eval_tiny() -> None:
    out = run_tiny("bench_eval.py")
    assert "records=2000" in out and "eval: median of 1 " in out
