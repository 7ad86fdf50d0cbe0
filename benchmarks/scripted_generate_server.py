"""A scripted OpenAI-compatible server that answers ``generate``'s requests well, with a fixed latency.

Each writer request gets a candidate that passes the rule checks: for a context that must give an answer,
the row's short answer among filler words; for a neutral one, filler words only. The server numbers the
writer requests and picks the filler words from the number so that no two candidates share a pair of
neighbouring filler words; so no two rows share a sentence template and the recognisability check passes
too. Every verifier request gets the
expected verdict. The server counts requests and the peak number in flight. Run:

    python benchmarks/scripted_generate_server.py [--latency 0.05]

It prints its base URL, then answers "stats" on stdin with a JSON line (requests so far, the peak number in
flight, and the seconds spent answering, summed over requests); it stops at end of input.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import sys
import threading
import time
from typing import Any

from ragability_gen.llm.testing import Reply, ScriptedServer

FILLER = """amber basalt cobalt dune ember fjord glacier harbour indigo juniper kelp lagoon meadow nectar orchard
    pebble quarry reed saffron tundra umber valley willow yarrow zinnia alder birch cedar delta estuary fern grove
    heath inlet jetty knoll loam marsh nettle oasis prairie quay ridge shoal thicket upland vale weald bracken
    copse dell fen glen holm islet kame ledge moor nook outcrop pass rill scree tarn vetch wold brook cairn crag
    dingle eyot firth gorge hollow ings kyle linn mere ness oxbow pike rivulet spur tor""".split()


def _words(seed: str, n: int) -> list[str]:
    rng = random.Random(hashlib.sha256(seed.encode()).hexdigest())
    return rng.sample(FILLER, n)


def _numbered(k: int) -> list[str]:
    """Five filler words for candidate ``k``: each neighbouring pair tells ``k`` apart (for k < 90 * 90)."""
    n = len(FILLER)
    lo, hi = k % n, (k // n) % n
    return [FILLER[lo], FILLER[(hi + lo) % n], FILLER[(lo + 45) % n], FILLER[(hi + 2 * lo + 11) % n],
            FILLER[(hi + 3 * lo + 29) % n]]


def candidate(prompt: str, cid: str, turn: int = 0, number: int | None = None) -> str:
    """A passing candidate for the writer prompt ``prompt`` (see the module docstring).

    With ``number`` the filler words come from it; else they are drawn, seeded by the question, the context
    and the turn (a retry gets other words).
    """
    query = prompt.split("\n", 1)[0].removeprefix("Question: ")
    w = _numbered(number) if number is not None else _words(f"{query}\x00{cid}\x00{turn}", 5)
    carry = re.search(r'- contains the exact words "([^"]+)"', prompt)
    if carry:
        return f"{w[0].capitalize()} {w[1]} {carry.group(1)} {w[2]} {w[3]}."
    return f"{w[0].capitalize()} {w[1]} {w[2]} {w[3]} {w[4]}."


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--latency", type=float, default=0.05)
    args = ap.parse_args()
    lock = threading.Lock()
    state = {"now": 0, "peak": 0, "busy": 0.0, "written": 0}

    def respond(body: dict[str, Any]) -> Reply:
        start = time.monotonic()
        with lock:
            state["now"] += 1
            state["peak"] = max(state["peak"], state["now"])
        try:
            time.sleep(args.latency)  # the latency being simulated, not synchronisation
            name = body["response_format"]["json_schema"]["name"]
            if name.startswith("verdict_"):
                verdict = "no" if name == "verdict_does_not_answer_query" else "yes"
                return Reply(json.dumps({"reason": "Checked.", "verdict": verdict}))
            prompt = body["messages"][1]["content"]
            with lock:
                number = int(state["written"])
                state["written"] += 1
            text = candidate(prompt, name.removeprefix("context_"), number=number)
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
