"""Start-up cost of the command line: `convert --help` and a real `convert` of the demo corpus.

Each command runs in a fresh interpreter; wall time is measured around the process, CPU time (user +
system) from the child's rusage. With ``--baseline DIR`` (a checkout of another revision, e.g. made with
``git archive``) the two trees take turns, A then B, ``--repeat`` times, so both see the same load; the ratio
is baseline / this tree of the medians. ``--stub`` also measures both with ``ragability_gen/__init__.py``
stood in for by an empty package, which shows what the CLI's own modules import whatever the package
re-exports. ``-X importtime`` gives the import time of ``convert --help`` once per tree.

    python benchmarks/bench_startup.py --baseline /tmp/head --repeat 5 --stub
    python benchmarks/bench_startup.py --tiny          # one run of this tree, for the test suite
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Runs the CLI with the package's __init__ replaced by an empty module (argv: package folder, CLI args...).
STUB = """
import importlib.util, sys
root = sys.argv[1]
spec = importlib.util.spec_from_file_location("ragability_gen", root + "/__init__.py",
                                              submodule_search_locations=[root])
sys.modules["ragability_gen"] = importlib.util.module_from_spec(spec)
from ragability_gen.cli import main
sys.argv = ["ragability-gen", *sys.argv[2:]]
main()
"""


def command(tree: Path, stub: bool, args: list[str]) -> list[str]:
    if stub:
        return [sys.executable, "-c", STUB, str(tree / "ragability_gen"), *args]
    return [sys.executable, "-m", "ragability_gen.cli", *args]


class Failed(Exception):
    """The CLI of a tree did not run (a baseline may not run without its package ``__init__``)."""


def timed(tree: Path, stub: bool, args: list[str], work: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one run of the CLI from ``tree``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command(tree, stub, args), cwd=work, env={**os.environ, "PYTHONPATH": str(tree)},
                          capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise Failed((done.stderr.strip().splitlines() or ["no output"])[-1])
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def import_time(tree: Path, stub: bool, work: Path) -> tuple[float, int]:
    """Seconds of imports (the sum of every module's own time) and modules imported, for ``convert --help``."""
    cmd = command(tree, stub, ["convert", "--help"])
    done = subprocess.run([cmd[0], "-X", "importtime", *cmd[1:]], cwd=work, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(tree)})
    rows = [m for line in done.stderr.splitlines() if (m := re.match(r"import time:\s+(\d+) \|", line))]
    return sum(int(m.group(1)) for m in rows) / 1e6, len(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", type=Path, help="another checkout to alternate with (A); this tree is B")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--stub", action="store_true", help="also measure with the package __init__ stood in for")
    parser.add_argument("--tiny", action="store_true", help="one run of this tree only")
    opts = parser.parse_args()
    repeat = 1 if opts.tiny else opts.repeat
    trees = [("this tree", ROOT)] if opts.tiny or opts.baseline is None else [
        ("baseline", opts.baseline.resolve()), ("this tree", ROOT)]
    modes = [False, True] if opts.stub or opts.tiny else [False]
    demo = str(ROOT / "corpora" / "demo.tsv")
    cases = {"convert --help": ["convert", "--help"], "convert demo.tsv": ["convert", demo, "-o", "x.hjson", "-q"]}
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} (1, 5, 15 min)")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for stub in modes:
            label = "package __init__ stood in for" if stub else "as installed"
            runnable = list(trees)
            for name, tree in trees:
                try:
                    timed(tree, stub, ["convert", "--help"], work)
                except Failed as e:
                    print(f"{name} ({label}) does not run: {e}")
                    runnable.remove((name, tree))
            for case, args in cases.items():
                got: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in runnable}
                for _ in range(repeat):
                    for name, tree in runnable:  # A, B, A, B, ...
                        got[name].append(timed(tree, stub, args, work))
                medians = {}
                for name, runs in got.items():
                    wall = statistics.median(w for w, _ in runs)
                    cpu = statistics.median(c for _, c in runs)
                    medians[name] = (wall, cpu)
                    print(f"{case} ({label}), {name}: median of {len(runs)}: wall {wall:.3f} s, CPU {cpu:.3f} s "
                          f"(walls {', '.join(f'{w:.2f}' for w, _ in runs)})")
                if len(runnable) == 2:
                    (wa, ca), (wb, cb) = medians["baseline"], medians["this tree"]
                    print(f"{case} ({label}): ratio baseline / this tree: {wa / wb:.2f}x wall, {ca / cb:.2f}x CPU")
            for name, tree in runnable:
                seconds, count = import_time(tree, stub, work)
                print(f"imports of convert --help ({label}), {name}: {count} modules, {seconds:.3f} s (-X importtime)")


if __name__ == "__main__":
    main()
