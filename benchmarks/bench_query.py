"""The run stage against a local OpenAI-compatible server: throughput, memory, failures and kills.

Phases (each client run is `ragability-gen query` in a fresh process; the server runs in another process):
- throughput: fixed 100 ms latency; a sequential client (--concurrency 1) against --concurrency 64.
  Targets: >= 40x the sequential rate and >= 300 items/s.
- memory: a 240,000-item suite (no latency). Target: peak RSS <= 500 MB.
- failures: 10,000 items, 20% of requests answered 429, 500 or too late (a client timeout). Target: every
  item has a response, none is lost or duplicated, and every failed attempt is counted.
- kill: 10,000 items, the client killed with SIGKILL at a random point and restarted. Target: the final
  file is byte-identical to an uninterrupted run's.

Run:

    python benchmarks/bench_query.py [--phases throughput,memory,failures,kill] [--memory-items 240000] [--tiny]

``--tiny`` runs every phase on a few hundred items and checks correctness only (no speed or memory
target), so a test can keep the script working.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_convert import make_corpus  # noqa: E402

ITEMS_PER_ROW = 20  # the default suite's variants for a complete demo row


def suite(folder: Path, items: int) -> Path:
    """A suite of at least ``items`` items compiled from the demo rows, cut to exactly ``items``."""
    rows = -(-items // ITEMS_PER_ROW)
    tsv, out = folder / f"c{rows}.tsv", folder / f"s{items}.jsonl"
    if not out.exists():
        make_corpus(tsv, rows)
        subprocess.run([sys.executable, "-m", "ragability_gen.cli", "convert", str(tsv), "-o",
                        str(folder / f"c{rows}.jsonl"), "-q"], check=True)
        with open(folder / f"c{rows}.jsonl", encoding="utf-8") as src, open(out, "w", encoding="utf-8") as dst:
            for i, line in enumerate(src):
                if i == items:
                    break
                dst.write(line)
        (folder / f"s{items}.prompts.hjson").write_bytes((folder / f"c{rows}.prompts.hjson").read_bytes())
    return out


class Server:
    """``python -m ragability_gen.llm.testing`` in its own process."""

    def __init__(self, *args: str):
        self.proc = subprocess.Popen([sys.executable, "-m", "ragability_gen.llm.testing", *args],
                                     stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        self.url = self.proc.stdout.readline().strip()

    def stop(self) -> dict:
        self.proc.send_signal(signal.SIGTERM)
        out, _ = self.proc.communicate(timeout=30)
        return json.loads(out.strip().splitlines()[-1])


def query(suite_path: Path, out: Path, url: str, *extra: str, config: Path | None = None) -> tuple[float, float, str]:
    """Run the query command; return (wall seconds, peak RSS MB of the client, its stderr)."""
    cmd = [sys.executable, "-m", "ragability_gen.cli", "query", str(suite_path), "-o", str(out), "--no-cache", *extra]
    cmd += ["--config", str(config)] if config else ["--llm", "local/m", "--base-url", url]
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if proc.returncode:
        sys.exit(f"query failed: {proc.stderr[-2000:]}")
    peak = max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024
    return wall, peak, proc.stderr


def check_results(path: Path, expected: int) -> None:
    keys = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            assert rec["response"] and not rec["error"], rec
            keys.append((rec["qid"], rec["pid"], rec["llm"]))
    assert len(keys) == expected, (len(keys), expected)
    assert len(set(keys)) == expected, "duplicated results"


TINY = False


def throughput(folder: Path) -> bool:
    server = Server("--latency", "0.1")
    seq_items, par_items = (5, 100) if TINY else (100, 8000)
    wall1, _, _ = query(suite(folder, seq_items), folder / "seq.jsonl", server.url, "--concurrency", "1", "-q")
    wall64, _, _ = query(suite(folder, par_items), folder / "par.jsonl", server.url, "--concurrency", "64", "-q")
    server.stop()
    check_results(folder / "par.jsonl", par_items)
    seq_rate, par_rate = seq_items / wall1, par_items / wall64
    ratio = par_rate / seq_rate
    print(f"throughput, 100 ms latency: sequential {seq_rate:.1f} items/s ({seq_items} items, {wall1:.1f} s); "
          f"concurrency 64: {par_rate:.0f} items/s ({par_items} items, {wall64:.1f} s); ratio {ratio:.1f}x "
          f"(targets >= 40x, >= 300 items/s)")
    return TINY or (ratio >= 40 and par_rate >= 300)


def memory(folder: Path, items: int) -> bool:
    server = Server()
    wall, peak, _ = query(suite(folder, items), folder / "mem.jsonl", server.url, "--concurrency", "64", "-q")
    server.stop()
    check_results(folder / "mem.jsonl", items)
    print(f"memory: {items} items in {wall:.0f} s ({items / wall:.0f} items/s), client peak RSS {peak:.0f} MB "
          f"(target <= 500 MB)")
    return TINY or peak <= 500


def failures(folder: Path) -> bool:
    items = 100 if TINY else 10000
    server = Server("--fail-rate", "0.2", "--timeout-delay", "2")
    cfg = folder / "flaky.hjson"
    cfg.write_text(json.dumps({"llms": [{"llm": "local/m", "api_url": server.url, "timeout": 1, "max_retries": 20}]}))
    wall, _, err = query(suite(folder, items), folder / "flaky.jsonl", server.url, "--concurrency", "64",
                         config=cfg)
    stats = server.stop()
    check_results(folder / "flaky.jsonl", items)
    m = re.search(r"(\d+) HTTP requests \((\d+) retries; errors: (\d+)x429, (\d+)x500, (\d+) unanswered,", err)
    assert m, err
    sent, retries, e429, e500, late = map(int, m.groups())
    inj = stats["injected"]
    ok = (retries == e429 + e500 + late and e429 == inj.get("429", 0) and e500 == inj.get("500", 0)
          and late == inj.get("timeout", 0) and "  errors:" not in err)
    print(f"failures: {items} items in {wall:.0f} s; server: {stats['requests']} requests, injected {inj}; "
          f"client: {sent} requests, {retries} retries = {e429}x429 + {e500}x500 + {late} unanswered; "
          f"0 lost, 0 duplicated; counts {'match' if ok else 'DO NOT match'}")
    return ok


def kill(folder: Path, seed: int) -> bool:
    items = 300 if TINY else 10000
    server = Server("--latency", "0.01")
    s = suite(folder, items)
    query(s, folder / "whole.jsonl", server.url, "--concurrency", "32", "-q")
    cut, journal = folder / "cut.jsonl", folder / "cut.jsonl.partial"
    at = random.Random(seed).randrange(items // 20, items // 2)
    cmd = [sys.executable, "-m", "ragability_gen.cli", "query", str(s), "-o", str(cut), "--no-cache",
           "--llm", "local/m", "--base-url", server.url, "--concurrency", "32", "-q"]
    proc = subprocess.Popen(cmd)
    while proc.poll() is None and (not journal.exists() or journal.read_bytes().count(b"\n") < at + 1):
        time.sleep(0.005)
    if proc.poll() is not None:
        server.stop()
        print(f"kill: the run ended before {at} results could be cut; nothing measured")
        return TINY  # a tiny run can outpace the watcher on a busy machine; the full run must not
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    done = journal.read_bytes().count(b"\n") - 1
    query(s, cut, server.url, "--concurrency", "32", "-q")
    server.stop()
    same = cut.read_bytes() == (folder / "whole.jsonl").read_bytes()
    print(f"kill: SIGKILL after {done} of {items} results, restarted: final file "
          f"{'byte-identical to' if same else 'DIFFERENT from'} an uninterrupted run; journal removed: "
          f"{not journal.exists()}")
    return same and not journal.exists()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phases", default="throughput,memory,failures,kill")
    parser.add_argument("--memory-items", type=int, default=240000)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--tiny", action="store_true", help="a few hundred items, correctness only")
    args = parser.parse_args()
    global TINY
    TINY = args.tiny
    if TINY and args.memory_items == 240000:
        args.memory_items = 500
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for phase in args.phases.split(","):
            if phase == "throughput":
                ok &= throughput(folder)
            elif phase == "memory":
                ok &= memory(folder, args.memory_items)
            elif phase == "failures":
                ok &= failures(folder)
            elif phase == "kill":
                ok &= kill(folder, args.seed)
            else:
                sys.exit(f"unknown phase {phase!r}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
