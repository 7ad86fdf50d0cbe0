"""The run stage under real faults: no result lost, duplicated or wrong; one run per output; kills resumed.

Phases (each client run is `ragability-gen query --no-cache` in a fresh process; the scripted server runs in
another process and answers each prompt with a text derived from it, so every response can be verified):
- faults: a 2,310-item suite; 20% of requests get a fault, every kind real endpoints send equally often (429,
  500, a 200 with no choices, null content, a content filter, an empty unfinished reply, a body cut short, an
  HTML body, a connection reset). Targets: records lost, duplicated and wrong all 0; no error left.
- concurrent: a second run on the same output, started while the first provably holds it (its journal
  exists). Targets: the second is refused with one line naming the first; the first's file is identical
  to a single run's.
- kill: SIGKILL at 30% of the results, restart, SIGKILL at 70%, restart to the end (faults still on).
  Target: the final file is byte-identical to an uninterrupted run's.

Run:

    python benchmarks/bench_faults.py [--items 2310] [--tiny]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_query import Server, suite  # noqa: E402

from ragability_gen.core.fileio import read_records  # noqa: E402
from ragability_gen.core.specs import load_prompts  # noqa: E402
from ragability_gen.run.core import fill_testee_prompt  # noqa: E402


def command(suite_path: Path, out: Path, url: str, concurrency: int) -> list[str]:
    cfg = out.with_suffix(".llm.json")
    cfg.write_text(json.dumps({"llms": [{"llm": "local/m", "api_url": url, "max_retries": 12}]}))
    return [sys.executable, "-m", "ragability_gen.cli", "query", str(suite_path), "-o", str(out), "--no-cache",
            "--config", str(cfg), "--concurrency", str(concurrency), "-q"]


def run(cmd: list[str]) -> tuple[int, str, float]:
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    return proc.returncode, proc.stderr, time.perf_counter() - start


def audit(out: Path, suite_path: Path) -> dict[str, int]:
    """Records lost, duplicated, wrong (response not the server's answer to its prompt, or an error), extra."""
    prompts = {p["pid"]: p for p in load_prompts(suite_path.with_name(suite_path.stem + ".prompts.hjson"))}
    expected = {}
    for it in read_records(suite_path):
        for pid in it["pids"]:
            text = fill_testee_prompt(prompts[pid], it.get("facts"), it["query"])[-1]["content"]
            expected[(it["qid"], pid, "local/m")] = f"Answer about: {text[-60:]}"
    got = Counter()
    wrong = 0
    for rec in read_records(out):
        key = (rec["qid"], rec["pid"], rec["llm"])
        got[key] += 1
        wrong += rec["error"] != "" or rec["response"] != expected.get(key)
    return {"records": sum(got.values()), "lost": sum(1 for k in expected if k not in got),
            "duplicated": sum(n - 1 for n in got.values() if n > 1), "wrong": wrong,
            "extra": sum(1 for k in got if k not in expected)}


def faults(folder: Path, s: Path, url: str, concurrency: int) -> tuple[bool, Path]:
    out = folder / "faults.jsonl"
    code, err, wall = run(command(s, out, url, concurrency))
    if code:
        print(f"faults: query failed: {err[-1500:]}")
        return False, out
    a = audit(out, s)
    ok = a["lost"] == a["duplicated"] == a["wrong"] == a["extra"] == 0
    print(f"faults: {a['records']} records in {wall:.1f} s; lost {a['lost']}, duplicated {a['duplicated']}, "
          f"wrong {a['wrong']}, extra {a['extra']} (targets: all 0)")
    return ok, out


def concurrent(folder: Path, s: Path, url: str, reference: Path, concurrency: int) -> bool:
    out = folder / "shared.jsonl"
    first = subprocess.Popen(command(s, out, url, concurrency), stderr=subprocess.PIPE, text=True)
    journal = Path(f"{out}.partial")
    while first.poll() is None and not journal.exists():
        time.sleep(0.002)
    if not journal.exists():
        print("concurrent: the first run ended before its journal was seen; nothing measured")
        return False
    code, err, wall = run(command(s, out, url, concurrency))
    _, first_err = first.communicate()
    refused = code == 1 and err == (f"error: {out}: another run (process {first.pid}) is writing this output; wait "
                                    f"for it to finish or stop it (lock file {out.name}.lock)\n")
    same = first.returncode == 0 and out.read_bytes() == reference.read_bytes()
    print(f"concurrent: second run {'refused' if refused else 'NOT refused'} after {wall:.2f} s "
          f"({err.strip()!r}); first run {'identical to' if same else 'DIFFERENT from'} a single run")
    return refused and same


def kill(folder: Path, s: Path, url: str, reference: Path, concurrency: int, jobs: int) -> bool:
    out, journal = folder / "killed.jsonl", folder / "killed.jsonl.partial"
    cuts = []
    for share in (0.3, 0.7):
        proc = subprocess.Popen(command(s, out, url, concurrency), stderr=subprocess.DEVNULL)
        target = int(jobs * share) + 1  # header + results
        while proc.poll() is None and (not journal.exists() or journal.read_bytes().count(b"\n") < target):
            time.sleep(0.002)
        if proc.poll() is not None:
            print(f"kill: the run ended before {share:.0%} of its results could be cut; nothing measured")
            return False
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        cuts.append(journal.read_bytes().count(b"\n") - 1)
    code, err, _ = run(command(s, out, url, concurrency))
    same = code == 0 and out.read_bytes() == reference.read_bytes()
    left = sorted(p.name for p in folder.iterdir() if p.name.startswith(("killed.jsonl.", ".killed")))
    print(f"kill: SIGKILL after {cuts[0]} and {cuts[1]} of {jobs} results, restarted: final file "
          f"{'byte-identical to' if same else 'DIFFERENT from'} an uninterrupted run; left behind: {left or 'nothing'}")
    return same and not left


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--items", type=int, default=2310)
    parser.add_argument("--rate", type=float, default=0.2, help="share of requests answered with a fault")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--tiny", action="store_true", help="40 items, fewer requests in flight (for the tests)")
    args = parser.parse_args()
    items, concurrency, latency = (40, 4, "0.03") if args.tiny else (args.items, 32, "0.01")
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        s = suite(folder, items)
        server = Server("--faults", str(args.rate), "--seed", str(args.seed), "--latency", latency)
        try:
            good, reference = faults(folder, s, server.url, concurrency)
            ok &= good
            ok &= concurrent(folder, s, server.url, reference, concurrency)
            ok &= kill(folder, s, server.url, reference, concurrency, items)
        finally:
            stats = server.stop()
        print(f"server: {stats['requests']} requests, faults injected: "
              f"{dict(sorted(stats['injected'].items()))}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
