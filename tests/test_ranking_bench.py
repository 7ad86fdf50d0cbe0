"""The ranking benchmark's tiny mode runs (against a scripted local server), so the script cannot rot."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_ranking_smollm2.py"


def test_tiny_mode_reports_plain_and_chain(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, str(BENCH), "--tiny", "--keep", str(tmp_path)], capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    # two rank items (one request each) and two chain items (three turns each)
    assert lines[0].startswith("query: 4 items in ") and ", 8 calls (0 from the cache), 8 HTTP requests, " in lines[0]
    assert lines[2] == "| variant | ndcg_1 | ndcg_5 | ndcg_10 | top1_error | top5_error | top10_error |"
    assert [line.split(" | ")[0] for line in lines[4:]] == ["| rank", "| chain"]
    assert all(line.count(" n=2") == 6 for line in lines[4:])
    kept = [json.loads(line) for line in (tmp_path / "bench.checked.jsonl").read_text().splitlines()]
    # suite order: instance by instance, a rank item then a chain item; chains keep their conversation
    assert [(r["qid"].split("-")[1], len(r.get("transcript", []))) for r in kept] == [
        ("rank", 0), ("chain", 7), ("rank", 0), ("chain", 7)]
