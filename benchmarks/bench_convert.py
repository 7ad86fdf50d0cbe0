"""Convert a 12,000-row corpus (240,000 items) and read the suite back; check the speed and memory targets.

Targets: convert <= 4 s wall with peak RSS <= 300 MB; read back (parse + schema-validate) <= 10 s.
Each phase runs in its own process so peak RSS is that phase's alone. Run:

    python benchmarks/bench_convert.py [--rows 12000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from democorpus import cycle_demo

HERE = Path(__file__).resolve().parent

CONVERT = """
import sys
from ragability_gen.cli import main
sys.argv = ["ragability-gen", "convert", sys.argv[1], "-o", sys.argv[2], "-q"]
main()
"""

READ = """
import sys
from ragability_gen.core.validate import read_suite
items = read_suite(sys.argv[1])
assert len(items) == int(sys.argv[2]), len(items)
"""


def make_corpus(path: Path, rows: int) -> None:
    """Rows cycle through the demo corpus's complete rows, each under a new contradiction_ID."""
    cycle_demo(path, rows, keep=lambda row: all(c.strip() for c in row.values()))


def run(code: str, *args: str) -> tuple[float, float]:
    """Run code in a fresh interpreter; return (wall seconds, peak RSS in MB of that process)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"benchmark step failed:\n{proc.stderr}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return wall, max(peak, before) / 1024


def best(runs: list[tuple[float, float]]) -> tuple[float, float]:
    """(best wall seconds, largest peak RSS) of repeated runs."""
    return min(w for w, _ in runs), max(r for _, r in runs)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=12000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    items = args.rows * 20
    with tempfile.TemporaryDirectory() as tmp:
        corpus, suite = Path(tmp, "big.tsv"), Path(tmp, "big.hjson")
        make_corpus(corpus, args.rows)
        conv = [run(CONVERT, str(corpus), str(suite)) for _ in range(args.repeat)]
        size = suite.stat().st_size / 1e6
        read = [run(READ, str(suite), str(items)) for _ in range(args.repeat)]
    # ru_maxrss of RUSAGE_CHILDREN is the largest child so far: the convert runs come first, so their
    # figure is theirs alone; the read figure is the max over all children.
    (conv_wall, conv_rss), (read_wall, read_rss) = best(conv), best(read)
    print(f"rows={args.rows} items={items} suite={size:.0f} MB "
          f"(python {sys.version.split()[0]}, {os.cpu_count()} cpus)")
    print(f"convert: best of {args.repeat} {conv_wall:.2f} s wall (target 4 s), "
          f"peak RSS {conv_rss:.0f} MB (target 300 MB)")
    print(f"read back + validate: best of {args.repeat} {read_wall:.2f} s wall (target 10 s), "
          f"peak RSS {read_rss:.0f} MB")
    ok = conv_wall <= 4 and conv_rss <= 300 and read_wall <= 10
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
