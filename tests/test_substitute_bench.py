"""The substitution benchmarks run in their tiny modes, so they never rot."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_bench_substitute_tiny_mode() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_substitute.py"), "--tiny"],
                          capture_output=True, text=True, cwd=ROOT / "benchmarks", timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    first, second = proc.stdout.splitlines()[:2]
    assert first.startswith("rows=20 written=20 audit={'substituted': 20}")
    assert second.startswith("substitute: best of 1 ") and "peak RSS" in second


def test_bench_leaks_tiny_mode() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_leaks.py"), "--tiny"],
                          capture_output=True, text=True, cwd=ROOT / "benchmarks", timeout=900)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("demo.tsv: read 24, written 24; free of any original name: broad ")
    assert re.search(r"NER \d+ \(\d+%\), known names \d+ \(\d+%\), capitalised runs \d+ \(\d+%; kept most: .*\); "
                     r"ordinary words lost \d+", lines[0]), lines[0]
    assert lines[-1] == "hard cases: 3 of 3 pass"


def test_bench_leaks_counts_changed_first_rows_of_tables() -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_leaks import first_rows

    old = {"query": "q", "contexts/1": "Year | Apps\n2011 | 14", "contexts/2": "Year | Apps\n2012 | 20",
           "contexts/3": "No table here."}
    new = {**old, "contexts/1": "Year | Abiellint\n2041 | 14", "contexts/2": "Year | Apps\n2042 | 20"}
    assert first_rows(old, new) == (1, 2)


def test_bench_leaks_finds_capitalised_runs_kept() -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_leaks import capitalised_runs
    from spacy.lang.en.stop_words import STOP_WORDS

    text = 'The album Brothers in Arms sold well. The Band won "Hide and Seek" for Prime Minister Lee.'
    assert capitalised_runs(text, STOP_WORDS) == ["Brothers in Arms", "Hide and Seek", "Prime Minister Lee"]
    text = "In London the Second World War ended. Houses of the Holy is an album by the BBC."
    assert capitalised_runs(text, STOP_WORDS) == ["Second World War", "Houses of the Holy"]


def test_bench_leaks_known_places_need_two_capitalised_words() -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_leaks import kept_places

    new = "He was born in the Fall of 1944 in the United States, near Lake Ovid."
    assert kept_places(["the Fall of 1974", "United States", "Lake Erie"], new) == ["United States"]
