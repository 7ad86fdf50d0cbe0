"""The run stage against a local OpenAI-compatible server: throughput, memory, failures and kills.

Phases (each client run is `ragability-gen query` in a fresh process; the server, `python -m
ragability_gen.llm.testing`, runs in another process: with `--server asyncio` (the default) on one event loop,
with `--server threads` a thread per connection, as the tests' ScriptedServer; the server's own CPU per
request is printed, so time spent serving is not read as the client's):
- throughput: fixed 100 ms latency; a sequential client (--concurrency 1), --concurrency 64 and 256, run
  alternately --repeat times (medians). Targets: 64 >= 50x the sequential rate; 256 no slower than 64 (>= 95%).
- cpu: the client's CPU per request (user + system time of the query process), as the difference of a large
  and a small run against a server without latency, so start-up and suite reading cancel out. Target: <= 1 ms.
- transport: in one process, the openai client alone against the same server, alternating its httpx and
  aiohttp backends, ``chat.completions.create``, a plain-JSON ``post`` into a ``ChatCompletion``, ``raw``
  (what the tool does: ``llm.transport.post_chat``, JSON bytes out, raw JSON back) and ``raw-bytes`` (the same
  written out by hand): CPU per request of each.
- memory: a 240,000-item suite (no latency). Target: peak RSS <= 500 MB.
- failures: 10,000 items, 20% of requests answered 429, 500 or too late (a client timeout). Target: every
  item has a response, none is lost or duplicated, and every failed attempt is counted.
- kill: 10,000 items, the client killed with SIGKILL at a random point and restarted. Target: the final
  file is byte-identical to an uninterrupted run's.

Run:

    python benchmarks/bench_query.py [--phases throughput,cpu,transport,memory,failures,kill] [--repeat 3]
                                     [--server asyncio|threads]
    python benchmarks/bench_query.py --tiny    # every phase on a few hundred items, no targets (the tests run it)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import statistics
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
    """``python -m ragability_gen.llm.testing`` in its own process (``--server`` as the benchmark was given)."""

    kind = "asyncio"

    def __init__(self, *args: str):
        self.proc = subprocess.Popen([sys.executable, "-m", "ragability_gen.llm.testing", "--server", self.kind,
                                      *args], stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        self.url = self.proc.stdout.readline().strip()
        self.cpu = 0.0  # user + system seconds of the server process, once stopped

    def stop(self) -> dict:
        self.proc.send_signal(signal.SIGTERM)
        assert self.proc.stdout is not None
        out = self.proc.stdout.read()
        _, _, usage = os.wait4(self.proc.pid, 0)
        self.proc.returncode = 0
        self.cpu = usage.ru_utime + usage.ru_stime
        return json.loads(out.strip().splitlines()[-1])


def query(suite_path: Path, out: Path, url: str, *extra: str, config: Path | None = None) -> tuple[float, float, str]:
    """Run the query command; return (wall seconds, peak RSS MB of the client, its stderr)."""
    wall, peak, _, err = query_usage(suite_path, out, url, *extra, config=config)
    return wall, peak, err


def query_usage(suite_path: Path, out: Path, url: str, *extra: str,
                config: Path | None = None) -> tuple[float, float, float, str]:
    """Run the query command; return (wall s, peak RSS MB, CPU s (user + system) of that process, stderr)."""
    cmd = [sys.executable, "-m", "ragability_gen.cli", "query", str(suite_path), "-o", str(out), "--no-cache", *extra]
    cmd += ["--config", str(config)] if config else ["--llm", "local/m", "--base-url", url]
    out.unlink(missing_ok=True)
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    err = proc.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status):
        sys.exit(f"query failed: {err[-2000:]}")
    return wall, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime, err


def check_results(path: Path, expected: int) -> None:
    keys = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            assert rec["response"] and not rec["error"], rec
            keys.append((rec["qid"], rec["pid"], rec["llm"]))
    assert len(keys) == expected, (len(keys), expected)
    assert len(set(keys)) == expected, "duplicated results"


def throughput(folder: Path, repeat: int, tiny: bool) -> bool:
    server = Server("--latency", "0.02" if tiny else "0.1")
    seq_items, par_items = (20, 300) if tiny else (100, 8000)
    rates: dict[int, list[float]] = {1: [], 64: [], 256: []}
    for _ in range(repeat):  # alternated, so every setting sees the same load
        for conc, items in ((1, seq_items), (64, par_items), (256, par_items)):
            wall, _, _, _ = query_usage(suite(folder, items), folder / f"c{conc}.jsonl", server.url,
                                        "--concurrency", str(conc), "-q")
            rates[conc].append(items / wall)
            if conc > 1:
                check_results(folder / f"c{conc}.jsonl", items)
    stats = server.stop()
    med = {c: statistics.median(r) for c, r in rates.items()}
    ratio, scale = med[64] / med[1], med[256] / med[64]
    shown = "; ".join(f"concurrency {c}: median {med[c]:.1f} items/s ({', '.join(f'{x:.1f}' for x in r)})"
                      for c, r in rates.items())
    print(f"throughput, {'20' if tiny else '100'} ms latency, {repeat} alternated runs: {shown}")
    print(f"  concurrency 64 / sequential: {ratio:.1f}x (target >= 50x); 256 / 64: {scale:.2f} (target >= 0.95)")
    print(f"  server ({Server.kind}): {stats['requests']} requests, {server.cpu / stats['requests'] * 1000:.2f} ms "
          f"CPU per request")
    return ratio >= 50 and scale >= 0.95


def cpu(folder: Path, repeat: int, tiny: bool) -> bool:
    server = Server()
    small, large = (50, 400) if tiny else (500, 8000)
    per: list[float] = []
    for _ in range(repeat):
        _, _, cpu_small, _ = query_usage(suite(folder, small), folder / "cpu-s.jsonl", server.url,
                                         "--concurrency", "64", "-q")
        _, _, cpu_large, _ = query_usage(suite(folder, large), folder / "cpu-l.jsonl", server.url,
                                         "--concurrency", "64", "-q")
        per.append((cpu_large - cpu_small) / (large - small) * 1000)
    stats = server.stop()
    ms = statistics.median(per)
    print(f"cpu: client CPU per request, ({large} - {small} items) at concurrency 64, no latency: median {ms:.2f} ms "
          f"({', '.join(f'{x:.2f}' for x in per)}) (target <= 1 ms); server ({Server.kind}): "
          f"{server.cpu / stats['requests'] * 1000:.2f} ms CPU per request")
    return ms <= 1


TRANSPORT = """
import asyncio, statistics, sys, time
import openai, orjson
from openai.types.chat import ChatCompletion
from ragability_gen.llm.transport import post_chat, _httpx
url, n, repeat = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
msgs = [{"role": "system", "content": "Answer from the passages only. " * 4},
        {"role": "user", "content": "Passages: " + "The Vellmoor Observatory has a 4.2 m mirror. " * 8 + "Question: ?"}]

async def run(backend, call):
    http = openai.DefaultAioHttpClient() if backend == "aiohttp" else openai.DefaultAsyncHttpxClient()
    client = openai.AsyncOpenAI(base_url=url, api_key="none", http_client=http, max_retries=0)
    sem = asyncio.Semaphore(64)
    async def one(i):
        async with sem:
            m = [*msgs, {"role": "user", "content": str(i)}]
            if call == "create":
                return await client.chat.completions.create(model="m", messages=m)
            if call == "post":
                return await client.post("/chat/completions", body={"model": "m", "messages": m},
                                         cast_to=ChatCompletion)
            if call == "raw":  # what the tool sends: plain-JSON post, the reply read with orjson
                return await post_chat(client, {"model": "m", "messages": m})
            body = orjson.dumps({"model": "m", "messages": m})
            return orjson.loads((await client.post("/chat/completions", content=body,
                                                   cast_to=_httpx.Response)).content)
    await asyncio.gather(*(one(i) for i in range(64)))
    start = time.process_time()
    await asyncio.gather(*(one(i) for i in range(n)))
    used = time.process_time() - start
    await client.close()
    return used / n * 1000

CALLS = [("httpx", "create"), ("httpx", "post"), ("httpx", "raw"), ("aiohttp", "create"), ("aiohttp", "post"),
         ("aiohttp", "raw"), ("aiohttp", "raw-bytes")]
got = {}
for _ in range(repeat):
    for backend, call in CALLS:
        got.setdefault((backend, call), []).append(asyncio.run(run(backend, call)))
for (backend, call), ms in got.items():
    runs = ", ".join(f"{x:.2f}" for x in ms)
    print(f"  {backend:8s} {call:9s} median {statistics.median(ms):.2f} ms CPU/request ({runs})")
"""


def transport(folder: Path, repeat: int, tiny: bool) -> bool:
    server = Server()
    proc = subprocess.run([sys.executable, "-c", TRANSPORT, server.url, "200" if tiny else "3000", str(repeat)],
                          capture_output=True, text=True)
    server.stop()
    if proc.returncode:
        sys.exit(f"transport phase failed: {proc.stderr[-2000:]}")
    print(f"transport: the openai client alone, concurrency 64, {repeat} alternated runs of each:")
    print(proc.stdout.rstrip())
    return True


def memory(folder: Path, items: int) -> bool:
    server = Server()
    wall, peak, _ = query(suite(folder, items), folder / "mem.jsonl", server.url, "--concurrency", "64", "-q")
    server.stop()
    check_results(folder / "mem.jsonl", items)
    print(f"memory: {items} items in {wall:.0f} s ({items / wall:.0f} items/s), client peak RSS {peak:.0f} MB "
          f"(target <= 500 MB)")
    return peak <= 500


def failures(folder: Path, items: int, timeout: float) -> bool:
    """``timeout`` is the client's; a late reply comes far after it (60 s more), and an answered request must come
    well within it, or it is counted as unanswered and the counts cannot match: the tiny run (the tests, on a
    busy machine) gives 5 s, where the server answers in milliseconds."""
    server = Server("--fail-rate", "0.2", "--timeout-delay", str(timeout + 60))
    cfg = folder / "flaky.hjson"
    cfg.write_text(json.dumps({"llms": [{"llm": "local/m", "api_url": server.url, "timeout": timeout,
                                         "max_retries": 20}]}))
    wall, _, err = query(suite(folder, items), folder / "flaky.jsonl", server.url, "--concurrency", "64",
                         config=cfg)
    stats = server.stop()
    check_results(folder / "flaky.jsonl", items)
    m = re.search(r"(\d+) HTTP requests \((\d+) retries; errors: (\d+)x429, (\d+)x500, (\d+) unanswered[,)]", err)
    assert m, err
    sent, retries, e429, e500, late = map(int, m.groups())
    inj = stats["injected"]
    ok = (retries == e429 + e500 + late and e429 == inj.get("429", 0) and e500 == inj.get("500", 0)
          and late == inj.get("timeout", 0) and "  errors:" not in err)
    print(f"failures: {items} items in {wall:.0f} s; server: {stats['requests']} requests, injected {inj}; "
          f"client: {sent} requests, {retries} retries = {e429}x429 + {e500}x500 + {late} unanswered; "
          f"0 lost, 0 duplicated; counts {'match' if ok else 'DO NOT match'}")
    return ok


def kill(folder: Path, seed: int, items: int) -> bool:
    server = Server("--latency", "0.01")
    s = suite(folder, items)
    query(s, folder / "whole.jsonl", server.url, "--concurrency", "32", "-q")
    cut, journal = folder / "cut.jsonl", folder / "cut.jsonl.partial"
    at = random.Random(seed).randrange(items // 20, items - items // 20)
    cmd = [sys.executable, "-m", "ragability_gen.cli", "query", str(s), "-o", str(cut), "--no-cache",
           "--llm", "local/m", "--base-url", server.url, "--concurrency", "32", "-q"]
    proc = subprocess.Popen(cmd)
    while proc.poll() is None and (not journal.exists() or journal.read_bytes().count(b"\n") < at + 1):
        time.sleep(0.005)
    if proc.poll() is None:  # a tiny run may finish before the cut
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
    parser.add_argument("--phases", default="throughput,cpu,transport,memory,failures,kill")
    parser.add_argument("--memory-items", type=int, default=240000)
    parser.add_argument("--repeat", type=int, default=3, help="alternated runs for throughput, cpu and transport")
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--tiny", action="store_true", help="every phase on a few hundred items, no targets")
    parser.add_argument("--server", choices=("asyncio", "threads"), default="asyncio",
                        help="the scripted server's kind: one event loop, or a thread per connection")
    args = parser.parse_args()
    Server.kind = args.server
    if args.tiny:
        args.memory_items, args.repeat = 300, 1
    print(f"load average before: {' / '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} cpus); "
          f"server: {args.server}")
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for phase in args.phases.split(","):
            if phase == "throughput":
                ok &= throughput(folder, args.repeat, args.tiny)
            elif phase == "cpu":
                ok &= cpu(folder, args.repeat, args.tiny)
            elif phase == "transport":
                ok &= transport(folder, args.repeat, args.tiny)
            elif phase == "memory":
                ok &= memory(folder, args.memory_items)
            elif phase == "failures":
                ok &= failures(folder, 300 if args.tiny else 10000, 5.0 if args.tiny else 1.0)
            elif phase == "kill":
                ok &= kill(folder, args.seed, 300 if args.tiny else 10000)
            else:
                sys.exit(f"unknown phase {phase!r}")
    print(f"load average after: {' / '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.tiny:
        print("tiny run: no targets")
        sys.exit(0)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
