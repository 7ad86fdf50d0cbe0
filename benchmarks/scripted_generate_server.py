"""A scripted OpenAI-compatible server that answers ``generate``'s requests well, with a fixed latency.

It reads the corpus being generated so that it can answer each writer request with a candidate that passes
the rule checks (the row's hand-written context when it does, else the rules writer's), and each verifier
request with the expected verdict. It counts requests and the peak number in flight. Run:

    python benchmarks/scripted_generate_server.py CORPUS.tsv [--latency 0.05]

It prints its base URL, then answers "stats" on stdin with a JSON line (requests so far, the peak number in
flight, and the seconds spent answering, summed over requests);
it stops at end of input.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from pathlib import Path
from typing import Any

from ragability_gen.core.model import Instance
from ragability_gen.generate.core import context_task
from ragability_gen.generate.writers import rule_candidates
from ragability_gen.llm.testing import Reply, ScriptedServer

DEMO = Path(__file__).resolve().parent.parent / "corpora" / "demo.tsv"


def good_contexts(instances: list[Instance], originals: dict[str, Instance]) -> dict[tuple[str, str], str]:
    """For each (query, context id), a text that passes the rule checks, if one is known."""
    out = {}
    for inst in instances:
        orig = originals.get(inst.query.split(" (case ")[0])
        for cid in ("3", "4"):
            task = context_task(inst, cid)
            if isinstance(task, str):
                continue
            human = [orig.contexts[cid].text] if orig and cid in orig.contexts else []
            for text in human + rule_candidates(task):
                if all(v.passed for v in task.rules(text)):
                    out[(inst.query, cid)] = text
                    break
    return out


def main() -> None:
    from ragability_gen import read_instances

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus")
    ap.add_argument("--latency", type=float, default=0.05)
    args = ap.parse_args()
    instances, _ = read_instances(args.corpus)
    originals = {i.query: i for i in read_instances(DEMO)[0]}
    good = good_contexts(instances, originals)
    lock = threading.Lock()
    state = {"now": 0, "peak": 0, "busy": 0.0}

    def respond(body: dict[str, Any]) -> Reply:
        start = time.monotonic()
        with lock:
            state["now"] += 1
            state["peak"] = max(state["peak"], state["now"])
        try:
            time.sleep(args.latency)
            name = body["response_format"]["json_schema"]["name"]
            if name.startswith("verdict_"):
                verdict = "no" if name == "verdict_does_not_answer_query" else "yes"
                return Reply(json.dumps({"reason": "Checked.", "verdict": verdict}))
            prompt = body["messages"][1]["content"]
            query = prompt.split("\n", 1)[0].removeprefix("Question: ")
            text = good.get((query, name.removeprefix("context_")), "No candidate.")
            return Reply(json.dumps({"context": text}), prompt_tokens=len(prompt) // 4)
        finally:
            with lock:
                state["now"] -= 1
                state["busy"] += time.monotonic() - start

    server = ScriptedServer(respond).start()
    print(server.base_url, flush=True)
    for line in sys.stdin:
        if line.strip() == "stats":
            print(json.dumps({"requests": len(server.requests), "peak_in_flight": state["peak"],
                              "busy_seconds": state["busy"]}), flush=True)
    server.stop()


if __name__ == "__main__":
    main()
