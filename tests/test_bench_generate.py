"""The generate benchmark's tiny mode runs, so the benchmark cannot rot (figures: BENCHMARKS.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from ragability_gen.llm.testing import ScriptedServer

ROOT = Path(__file__).resolve().parent.parent


def test_bench_generate_tiny_mode_passes() -> None:
    proc = subprocess.run([sys.executable, "bench_generate.py", "--tiny"], cwd=ROOT / "benchmarks",
                          capture_output=True, text=True, timeout=900,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[-1] == "PASS"
    assert "every context accepted: True" in lines
    assert any(line.startswith("second run (same cache): ") and line.endswith(
        " 0 HTTP requests (target 0), same corpus and rejects files: True, same audit apart from cache hits and "
        "costs: True") for line in lines)


def test_bench_generate_smollm2_runs_against_any_endpoint() -> None:
    """The SmolLM2 acceptance script, pointed at a scripted endpoint that answers every request well."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from scripted_generate_server import candidate
    finally:
        sys.path.pop(0)

    def respond(body: dict[str, Any]) -> str:
        name = body["response_format"]["json_schema"]["name"]
        if name.startswith("verdict_"):
            verdict = "no" if name.endswith("does_not_answer_query") else "yes"
            return json.dumps({"reason": "Checked.", "verdict": verdict})
        return json.dumps({"context": candidate(body["messages"][1]["content"], name, len(body["messages"]))})

    with ScriptedServer(respond) as server:
        proc = subprocess.run([sys.executable, "bench_generate_smollm2.py", "--base-url", server.base_url, "--model",
                               "scripted"], cwd=ROOT / "benchmarks", capture_output=True, text=True, timeout=900,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert "acceptance: 43 of 43 contexts asked for (100%); 5 cannot exist" in lines
    assert "  context 3: 19 of 19" in lines and "  context 4: 24 of 24" in lines
