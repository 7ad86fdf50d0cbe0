"""Generate 1,000 instances against a scripted server with 50 ms latency; then again from the cache.

Targets: every context accepted (after retries, if any); at least 20 requests in flight at the peak;
the second run, against the same cache, makes zero HTTP requests and writes the same files. The server
runs in its own process (``scripted_generate_server.py``) and so does each generate run. Run:

    python benchmarks/bench_generate.py [--rows 1000] [--latency 0.05] [--concurrency 32]
    python benchmarks/bench_generate.py --tiny   # 30 rows, 10 ms, concurrency 8: the test suite runs this

The tiny mode checks everything but the peak, which depends on the machine's timing.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from democorpus import DEMO, cycle_demo

HERE = Path(__file__).resolve().parent
GENERATE = """
import sys
from ragability_gen.cli import main
sys.argv = ["ragability-gen", "generate", *sys.argv[1:]]
main()
"""


def make_corpus(path: Path, rows: int) -> None:
    """Rows cycle through the demo rows whose context_3 and context_4 can exist (their relations can hold).

    Each row gets a new contradiction_ID and its own query and contexts 1 and 2 (a case number is appended),
    so no two requests are the same; context_3 and context_4 are emptied.
    """
    import dataclasses

    from ragability_gen import load_converter_spec, read_instances
    from ragability_gen.generate import context_task, layout_of

    layout = layout_of(load_converter_spec("ragability-v0.4"))
    demo, _ = read_instances(DEMO)
    possible = set()
    for inst in demo:
        blank = dataclasses.replace(inst, contexts={k: v for k, v in inst.contexts.items() if k in ("1", "2")})
        if all(not isinstance(context_task(blank, cid, layout), str) for cid in layout.fillable):
            possible.add(inst.query)
    cycle_demo(path, rows, keep=lambda row: row["query_text"] in possible,
               numbered=("query_text", "context_1", "context_2"), blank=("context_3_nc1_c2", "context_4_nc1_nc2_nc3"))


def stats(server: subprocess.Popen[str]) -> dict[str, Any]:
    assert server.stdin is not None and server.stdout is not None
    server.stdin.write("stats\n")
    server.stdin.flush()
    return dict(json.loads(server.stdout.readline()))


def generate(corpus: Path, out: Path, url: str, cache: Path, concurrency: int) -> tuple[float, float, str]:
    """One generate run in its own process: wall seconds, its CPU seconds (user + system), its stderr.

    CPU seconds say more than wall time on a machine shared with other jobs.
    """
    args = [str(corpus), "-o", str(out), "--llm", "scripted", "--base-url", url, "--cache", str(cache),
            "--concurrency", str(concurrency)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", GENERATE, *args], capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit(f"generate failed:\n{proc.stderr}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), proc.stderr


def _without_costs(record: dict[str, Any]) -> dict[str, Any]:
    """An audit record without what differs when replies come from the cache."""
    drop = ("cache_hits", "http_requests", "http_status", "cost")
    return {**record, "cost": None, "attempts": [{k: v for k, v in a.items() if k not in drop}
                                                 for a in record["attempts"]]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1000)
    ap.add_argument("--latency", type=float, default=0.05)
    ap.add_argument("--concurrency", type=int, default=32)
    ap.add_argument("--tiny", action="store_true", help="30 rows, 10 ms latency, concurrency 8; no peak target")
    args = ap.parse_args()
    if args.tiny:
        args.rows, args.latency, args.concurrency = 30, 0.01, 8
    with tempfile.TemporaryDirectory() as tmp:
        corpus, cache = Path(tmp, "big.tsv"), Path(tmp, "cache.sqlite")
        make_corpus(corpus, args.rows)
        server = subprocess.Popen([sys.executable, str(HERE / "scripted_generate_server.py"),
                                   "--latency", str(args.latency)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, env={**os.environ, "PYTHONPATH": str(HERE.parent)})
        try:
            assert server.stdout is not None
            url = server.stdout.readline().strip()
            first_wall, first_cpu, first_log = generate(corpus, Path(tmp, "first.tsv"), url, cache, args.concurrency)
            first = stats(server)
            second_wall, second_cpu, second_log = generate(corpus, Path(tmp, "second.tsv"), url, cache,
                                                           args.concurrency)
            second = stats(server)
        finally:
            if server.stdin:
                server.stdin.close()
            server.wait(timeout=10)
        same = all(Path(tmp, f"first{s}").read_bytes() == Path(tmp, f"second{s}").read_bytes()
                   for s in (".tsv", ".rejects.jsonl"))
        audits = [[_without_costs(json.loads(line)) for line in Path(tmp, f"{run}.audit.jsonl").open()]
                  for run in ("first", "second")]
        same_audit = audits[0] == audits[1]
    print(f"rows={args.rows} latency={args.latency * 1000:.0f} ms concurrency={args.concurrency} "
          f"(python {sys.version.split()[0]}, {os.cpu_count()} cpus)")
    print("first run summary:\n" + "".join(f"  {line}\n" for line in first_log.splitlines()[1:]), end="")
    peak_ok = args.tiny or first["peak_in_flight"] >= 20
    target = "no target in the tiny mode" if args.tiny else "target >= 20"
    print(f"first run: {first_wall:.2f} s wall, {first_cpu:.2f} s CPU, {args.rows / first_wall:.1f} instances/s, "
          f"{first['requests']} HTTP requests, peak {first['peak_in_flight']} in flight ({target}), "
          f"mean {first['busy_seconds'] / first_wall:.1f} in flight over the run")
    extra = second["requests"] - first["requests"]
    print(f"second run (same cache): {second_wall:.2f} s wall, {second_cpu:.2f} s CPU, {extra} HTTP requests "
          "(target 0), "
          f"same corpus and rejects files: {same}, same audit apart from cache hits and costs: {same_audit}")
    # a retry is allowed: the recognisability check may find two of the server's texts alike
    all_accepted = first_log.count(f"{args.rows} to generate (0 already filled, left as they are): "
                                   f"accepted {args.rows}, rejected 0") == 2
    print(f"every context accepted: {all_accepted}")
    ok = peak_ok and all_accepted and extra == 0 and same and same_audit
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
