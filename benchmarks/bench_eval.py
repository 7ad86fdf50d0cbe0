"""Evaluate a 240,000-record checked file (6,000 corpus rows x 20 variants x 2 testee LLMs); target 20 s.

The checked file is built first (not timed): the demo corpus cycled to ``--rows`` rows is compiled with
the default suite, and every item gets, for two LLMs, a testee response of 80-800 characters, checker
replies, costs, and seeded failures: about 2% failed queries (their checks null with an error) and 1%
unparseable checker replies. ``ragability-gen eval`` then runs in a fresh interpreter with the default
breakdowns, writing the full report (TSV tables, Markdown, HTML, charts). Run:

    python benchmarks/bench_eval.py [--rows 6000] [--repeat 3] [--format hjson|jsonl]
    python benchmarks/bench_eval.py --tiny     # 50 rows, one run, no target: what the tests run
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_convert import REPO, load, make_corpus, run

from ragability_gen import compile_suite, read_instances, read_records, write_records

EVAL = """
import sys
from ragability_gen.cli import main
sys.argv = ["ragability-gen", "eval", sys.argv[1], "-o", sys.argv[2], "-q"]
main()
"""

FILLER = ("The passages give different accounts of this. ", "Passage 1 states it plainly. ",
          "Passage 2 says something else, so the answer depends on which source is right. ",
          "Based on the information provided, ", "I cannot be certain, but ")


def make_checked(suite: Path, path: Path, fmt: str, seed: int = 42) -> int:
    """Results and checks for two testee LLMs with seeded passes, failures and errors."""
    rng = random.Random(seed)
    items = read_records(suite)
    llms = {"openai/gpt-4o-mini": 0.78, "local/llama-3.1-8b": 0.61}

    def records() -> Any:
        for llm, skill in llms.items():
            for item in items:
                rec = dict(item, pid=item["pids"][0], llm=llm, cost=round(rng.uniform(1e-5, 4e-4), 6))
                failed = rng.random() < 0.02
                text = "".join(rng.choice(FILLER) for _ in range(rng.randint(2, 16)))
                rec["response"], rec["error"] = ("", "Error code: 500 - upstream timeout") if failed else (text, "")
                checks = []
                for c in item["checks"]:
                    c = dict(c)
                    if failed:
                        c.update(result=None, error="the testee query failed")
                    elif rng.random() < 0.01:
                        c.update(result=None, error="expected a yes/no answer, got 'Possibly.'", response="Possibly.",
                                 llm="openai/gpt-4o", cost=0.0001)
                    else:
                        ok = rng.random() < skill
                        c.update(result="1" if ok else "0", error="", response="Yes." if ok else "No.",
                                 llm="openai/gpt-4o", cost=0.0001)
                    checks.append(c)
                rec["checks"] = checks
                yield rec

    return write_records(records(), path, fmt)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=6000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--format", choices=["hjson", "jsonl"], default="hjson")
    ap.add_argument("--tiny", action="store_true", help="50 rows, one run, no target (the test suite runs this)")
    args = ap.parse_args()
    if args.tiny:
        args.rows, args.repeat = 50, 1
    print(f"before: {load()}")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    with tempfile.TemporaryDirectory() as tmp:
        corpus, suite = Path(tmp, "big.tsv"), Path(tmp, "big.hjson")
        checked = Path(tmp, f"big.checked.{args.format}")
        make_corpus(corpus, args.rows)
        compile_suite(read_instances(corpus)[0], suite)
        start = time.perf_counter()
        n = make_checked(suite, checked, args.format)
        built = time.perf_counter() - start
        size = checked.stat().st_size / 1e6
        runs = [run([sys.executable, "-c", EVAL, str(checked), str(Path(tmp, "report"))], env)
                for _ in range(args.repeat)]
        files = sorted(str(p.relative_to(Path(tmp, "report"))) for p in Path(tmp, "report").rglob("*") if p.is_file())
    wall = statistics.median(w for w, _ in runs)
    rss = max(r for _, r in runs)
    print(f"records={n} checked file={size:.0f} MB {args.format} (built in {built:.1f} s; "
          f"python {sys.version.split()[0]}, {os.cpu_count()} cpus)")
    print(f"after: {load()}")
    print(f"eval: median of {args.repeat} {wall:.2f} s wall (all: {', '.join(f'{w:.2f}' for w, _ in runs)}; "
          f"target 20 s), peak RSS {rss:.0f} MB; {len(files)} report files")
    if args.tiny:
        print("tiny run: no target")
        return 0
    ok = wall <= 20
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
