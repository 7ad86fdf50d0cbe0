"""Convert a large corpus into a suite and read it back, against python-ragability's converter in the same run.

Targets (at the default 12,000 rows, 240,000 items): convert at least 10x faster than python-ragability's
``ragability_cc_wc1`` (the median of alternated runs, same corpus, same machine, same minutes), peak RSS
flat in the rows (at most 150 MB at 50,000 rows: ``--rows 50000``); ``read_suite`` (parse and validate every
item) at most 4 s with flat memory. Every step runs in a fresh interpreter; RSS is that process's peak.

The reference converter needs pandas and hjson. The script makes a virtualenv for it outside the
repository (``--peer-venv``, default ``~/.cache/ragability-gen/bench-peer-venv``) with pip: from PyPI
(``pip install ragability``), or from a local checkout given with ``--peer PATH``. It says so, and
reports no ratio, when neither works. Run:

    python benchmarks/bench_convert.py [--rows 12000] [--repeat 5] [--peer /path/to/python-ragability]
    python benchmarks/bench_convert.py --tiny     # 50 rows, one run, no targets: what the tests run
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from democorpus import cycle_demo

HERE = Path(__file__).resolve().parent
REPO = HERE.parent

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

IMPORTS = "import ragability_gen.cli"  # what `ragability-gen convert` imports before it reads a row

PEER = "import sys, runpy; sys.argv = ['ragability_cc_wc1', '-i', sys.argv[1], '-o', sys.argv[2]]; " \
       "runpy.run_module('ragability.ragability_cc_wc1', run_name='__main__')"


def make_corpus(path: Path, rows: int) -> None:
    """Rows cycle through the demo corpus's complete rows, each under a new contradiction_ID."""
    cycle_demo(path, rows, keep=lambda row: all(c.strip() for c in row.values()))


CPU: dict[int, float] = {}  # id of a run's result -> its CPU seconds (user + system)


def run(argv: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """Run a command; return (wall seconds, peak RSS in MB of that process alone); its CPU time goes in CPU."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"benchmark step failed: {' '.join(argv[:3])} ...\n{err.decode(errors='replace')}")
    result = (wall, usage.ru_maxrss / 1024)
    CPU[id(result)] = usage.ru_utime + usage.ru_stime
    return result


def peer_python(venv: Path, checkout: Path | None) -> tuple[list[str], dict[str, str]] | str:
    """The command prefix and environment that run python-ragability's converter, or why there is none."""
    py = venv / "bin" / "python"
    if not py.exists():
        made = subprocess.run([sys.executable, "-m", "venv", str(venv)], capture_output=True, text=True)
        if made.returncode != 0:
            return f"cannot make a virtualenv at {venv}: {made.stderr.strip()[-300:]}"
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    if checkout is not None:
        if not (checkout / "ragability" / "ragability_cc_wc1.py").is_file():
            return f"{checkout} is not a python-ragability checkout (no ragability/ragability_cc_wc1.py)"
        env["PYTHONPATH"] = str(checkout)
        wanted = ["pandas", "hjson"]
    else:
        wanted = ["ragability"]
    probe = "import pandas, hjson, ragability.ragability_cc_wc1"
    if subprocess.run([str(py), "-c", probe], env=env, capture_output=True).returncode != 0:
        pip = subprocess.run([str(py), "-m", "pip", "install", "-q", *wanted], capture_output=True, text=True)
        if pip.returncode != 0 or subprocess.run([str(py), "-c", probe], env=env, capture_output=True).returncode:
            where = f"the checkout {checkout}" if checkout else "PyPI (pip install ragability)"
            return f"cannot set up python-ragability from {where}: {pip.stderr.strip()[-300:] or 'import failed'}"
    return [str(py), "-c", PEER], env


def load() -> str:
    return "load average " + " / ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=12000)
    ap.add_argument("--repeat", type=int, default=5, help="alternated runs of each side (median reported)")
    ap.add_argument("--peer", type=Path, help="a python-ragability checkout (default: the package from PyPI)")
    ap.add_argument("--peer-venv", type=Path, default=Path.home() / ".cache" / "ragability-gen" / "bench-peer-venv",
                    help="virtualenv for the reference converter (made when missing)")
    ap.add_argument("--no-peer", action="store_true", help="measure this tool only")
    ap.add_argument("--tiny", action="store_true", help="50 rows, one run, no targets (the test suite runs this)")
    args = ap.parse_args()
    if args.tiny:
        args.rows, args.repeat = 50, 1
        args.no_peer = args.no_peer or args.peer is None
    items = args.rows * 20
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    ours = [sys.executable, "-c", CONVERT]
    peer = None if args.no_peer else peer_python(args.peer_venv, args.peer)
    if isinstance(peer, str):
        print(f"reference: {peer}; no ratio measured")
        peer = None
    print(f"rows={args.rows} items={items} (python {sys.version.split()[0]}, {os.cpu_count()} cpus); before: {load()}")
    with tempfile.TemporaryDirectory() as tmp:
        corpus, suite, ref = Path(tmp, "big.tsv"), Path(tmp, "big.hjson"), Path(tmp, "ref.hjson")
        make_corpus(corpus, args.rows)
        conv, base, read, start = [], [], [], []
        for _ in range(args.repeat):  # A and B alternate, so both see the same load
            conv.append(run([*ours, str(corpus), str(suite)], env))
            if peer is not None:
                base.append(run([*peer[0], str(corpus), str(ref)], peer[1]))
            start.append(run([sys.executable, "-c", IMPORTS], env))
        size = suite.stat().st_size / 1e6
        for _ in range(args.repeat):
            read.append(run([sys.executable, "-c", READ, str(suite), str(items)], env))
    med = statistics.median
    conv_wall, conv_rss = med(w for w, _ in conv), max(r for _, r in conv)
    read_wall, read_rss = med(w for w, _ in read), max(r for _, r in read)
    print(f"after: {load()}; suite {size:.0f} MB")
    print(f"convert: median of {args.repeat} {conv_wall:.2f} s wall ({', '.join(f'{w:.2f}' for w, _ in conv)}), "
          f"{med(CPU[id(a)] for a in conv):.2f} s CPU, peak RSS {conv_rss:.0f} MB")
    print(f"start-up: `{IMPORTS}` alone, median {med(CPU[id(a)] for a in start):.2f} s CPU "
          f"({med(w for w, _ in start):.2f} s wall), part of every convert")
    ok = True
    if base:
        base_wall = med(w for w, _ in base)
        ratio = med(b / a for (a, _), (b, _) in zip(conv, base, strict=True))
        print(f"python-ragability convert: median {base_wall:.2f} s wall ({', '.join(f'{w:.2f}' for w, _ in base)}), "
              f"{med(CPU[id(b)] for b in base):.2f} s CPU, peak RSS {max(r for _, r in base):.0f} MB")
        print(f"ratio (reference / this tool, median of the alternated pairs): {ratio:.1f}x (target >= 10x)")
        cpu_ratio = med(CPU[id(b)] / CPU[id(a)] for a, b in zip(conv, base, strict=True))
        print(f"CPU seconds (user + system), this tool: {', '.join(f'{CPU[id(a)]:.2f}' for a in conv)}; reference: "
              f"{', '.join(f'{CPU[id(b)]:.2f}' for b in base)}; ratio of the pairs, median: {cpu_ratio:.1f}x")
        ok = ratio >= 10
    print(f"read_suite: median of {args.repeat} {read_wall:.2f} s wall ({', '.join(f'{w:.2f}' for w, _ in read)}), "
          f"peak RSS {read_rss:.0f} MB (target 4 s); CPU seconds {', '.join(f'{CPU[id(r)]:.2f}' for r in read)}, "
          f"median {med(CPU[id(r)] for r in read):.2f}")
    if args.tiny:
        print("tiny run: no targets")
        return 0
    ok = ok and read_wall <= 4 and (args.rows < 50000 or conv_rss <= 150)
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
