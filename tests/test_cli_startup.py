"""Start-up cost: a command imports only the stages it needs (``ragability-gen convert`` pays for convert)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("spacy", "pandas", "numpy", "openai", "httpx", "sklearn", "matplotlib", "scipy", "faker", "bm25s", "tqdm")
"""Third-party packages that cost tenths of a second or more, none of which convert uses."""
OTHER_STAGES = ("calibrate", "evaluate", "generate", "llm", "mine", "run", "substitute")

# Runs in a fresh interpreter: optionally stands in for ragability_gen/__init__.py (so what is measured is
# what the CLI's own modules import, whatever the package re-exports), runs convert in-process, and prints
# the modules it left loaded.
SCRIPT = """
import importlib.util, json, pathlib, sys
root, stub, demo, out = pathlib.Path(sys.argv[1]), sys.argv[2] == "stub", sys.argv[3], sys.argv[4]
if stub:
    spec = importlib.util.spec_from_file_location("ragability_gen", root / "__init__.py",
                                                  submodule_search_locations=[str(root)])
    sys.modules["ragability_gen"] = importlib.util.module_from_spec(spec)
from click.testing import CliRunner
from ragability_gen.cli import main
result = CliRunner().invoke(main, ["convert", demo, "-o", out, "-q"])
print(json.dumps({"exit": result.exit_code, "output": result.output, "modules": sorted(sys.modules)}))
"""


def run_convert(tmp_path: Path, stub: bool) -> set[str]:
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(ROOT / "ragability_gen"), "stub" if stub else "real",
                           str(ROOT / "corpora" / "demo.tsv"), str(tmp_path / "demo.hjson")],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert (report["exit"], report["output"]) == (0, "")
    assert (tmp_path / "demo.hjson").is_file() and (tmp_path / "demo.prompts.hjson").is_file()
    return set(report["modules"])


@pytest.mark.parametrize("stub", [True, False], ids=["cli-modules", "whole-package"])
def test_convert_loads_no_heavy_package(tmp_path: Path, stub: bool) -> None:
    loaded = run_convert(tmp_path, stub)
    assert sorted(m for m in HEAVY if m in loaded) == []


def test_convert_loads_no_other_stage(tmp_path: Path) -> None:
    """The CLI's modules and convert's library import no other stage (the package's own ``__init__``
    re-exports every stage, so this is measured without it)."""
    loaded = run_convert(tmp_path, stub=True)
    assert sorted(s for s in OTHER_STAGES if f"ragability_gen.{s}" in loaded) == []
    assert sorted(m for m in loaded if m.startswith("ragability_gen.cli.")) == ["ragability_gen.cli.common",
                                                                              "ragability_gen.cli.convert"]


def test_python_dash_m_runs_the_cli(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "ragability_gen.cli", "convert", "--help"], capture_output=True,
                          text=True, timeout=300, cwd=tmp_path, env={**os.environ,
                                                                     "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Usage: python -m ragability_gen.cli convert [OPTIONS] INPUT")


def test_bench_startup_tiny() -> None:
    bench = ROOT / "benchmarks"
    done = subprocess.run([sys.executable, str(bench / "bench_startup.py"), "--tiny"], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=bench, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    for line in ("convert --help (as installed), this tree: median of 1:",
                 "convert demo.tsv (package __init__ stood in for), this tree: median of 1:",
                 "imports of convert --help (package __init__ stood in for), this tree:"):
        assert line in done.stdout, done.stdout
