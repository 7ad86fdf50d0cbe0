"""Substitute 1,000 instances (four contexts, a query and two short and two long answers each); check the targets.

Targets: at most 20 s wall and at most 1 GB peak RSS for the whole command (interpreter start, spaCy
model load, NER over every distinct text, mapping, verification, writing both files). The corpus is
built with Faker (seeded): every row has its own people, places, organisations, nationalities and
dates, in varied sentences with day dates, month dates, years, decades, ranges, durations and counts.
The run is in a fresh interpreter so the figures include start-up. Run:

    python benchmarks/bench_substitute.py [--rows 1000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from faker import Faker

COLUMNS = ["contradiction_ID", "WikiContradict_ID", "reasoning_required_c1c2", "c1xq", "c2xq", "context_1",
           "context_2", "context_3_nc1_c2", "context_4_nc1_nc2_nc3", "query_text", "answer_context1",
           "answer_context1_long", "answer_context2", "answer_context2_long"]

SUBSTITUTE = """
import sys
from ragability_gen.cli import main
sys.argv = ["ragability-gen", "substitute", sys.argv[1], "-o", sys.argv[2], "-q"]
main()
"""

NATIONS = ["French", "German", "Italian", "Spanish", "Dutch", "Swedish", "Polish", "Irish", "Scottish", "Danish",
           "Norwegian", "Portuguese", "Austrian", "Hungarian", "Greek", "Japanese", "Brazilian", "Canadian"]


def _row(fake: Faker, rng: random.Random, i: int) -> dict[str, str]:
    """One instance in one of four shapes: a founding year, a birth date, a tenure, a place; all with distractors."""
    person, rival = fake.name(), fake.name()
    city, town = fake.city(), fake.city()
    org = fake.company()
    nation = rng.choice(NATIONS)
    year = rng.randint(1700, 2010)
    day = dt.date(1800, 1, 1) + dt.timedelta(days=rng.randint(0, 69000))
    when = f"{day.day} {day:%B} {day.year}"
    shape = i % 4
    if shape == 0:
        c1 = f"{org} was founded in {city} in {year} by the {nation} engineer {person}."
        c2 = f"{org} was founded in {city} in {year + 7}, seven years after {person} had left {town}."
        c3 = f"In {year}, {person} opened the first workshop of {org} near the harbour of {city}."
        c4 = f"During the {year // 10 * 10}s, {org} employed about {rng.randint(40, 900)} people in {city}."
        q = f"In which year was {org} founded?"
        a1, a2 = str(year), str(year + 7)
        l1, l2 = f"{org} was founded in {year}.", f"{org} was founded in {year + 7}."
    elif shape == 1:
        c1 = f"{person} was born on {when} in {town}, the youngest of {rng.randint(3, 9)} children."
        c2 = f"{person} was born in {town} in {day:%B} {day.year + 2} and moved to {city} at the age of twelve."
        c3 = f"Parish records of {town} list the baptism of {person} a few days after {when}."
        c4 = f"{person} later studied law in {city} under the {nation} jurist {rival}."
        q = f"In which year was {person} born?"
        a1, a2 = str(day.year), str(day.year + 2)
        l1, l2 = f"{person} was born in {day.year}.", f"{person} was born in {day.year + 2}."
    elif shape == 2:
        span = rng.randint(4, 30)
        c1 = f"{person} led {org} from {year} to {year + span}, for {span} years in all."
        c2 = f"{person} led {org} for {span + 5} years, from {year} until {year + span + 5}."
        c3 = f"After {span} years at the head of {org}, {person} handed over to {rival} in {year + span}."
        c4 = f"{rival}, a {nation} economist, had worked in {city} since the early {year // 10 * 10}s."
        q = f"For how many years did {person} lead {org}?"
        a1, a2 = str(span), str(span + 5)
        l1, l2 = f"{person} led {org} for {span} years.", f"{person} led {org} for {span + 5} years."
    else:
        c1 = f"The {nation} painter {person} spent the winter of {year} in {city}, where {org} bought six canvases."
        c2 = f"The {nation} painter {person} spent the winter of {year} in {town} and never visited {city}."
        c3 = f"Letters sent from {city} in January {year + 1} show that {person} was still living there."
        c4 = f"{org} has owned works by {person} and {rival} since {year + rng.randint(20, 90)}."
        q = f"Where did {person} spend the winter of {year}?"
        a1, a2 = f"in {city}", f"in {town}"
        l1, l2 = f"{person} spent the winter of {year} in {city}.", f"{person} spent the winter of {year} in {town}."
    return dict(zip(COLUMNS, [str(i + 1), str(1000 + i), "categorical", "qeu", "qeu", c1, c2, c3, c4, q, a1, l1,
                              a2, l2], strict=True))


def make_corpus(path: Path, rows: int, seed: int = 7) -> None:
    fake = Faker("en_US")
    fake.seed_instance(seed)
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8", newline="") as fh:
        out = csv.DictWriter(fh, COLUMNS, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
        out.writeheader()
        for i in range(rows):
            out.writerow(_row(fake, rng, i))


def run(code: str, *args: str) -> tuple[float, float]:
    """Run code in a fresh interpreter; return (wall seconds, peak RSS in MB of the largest child so far)."""
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"benchmark step failed:\n{proc.stderr}")
    return wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        corpus, out = Path(tmp, "big.tsv"), Path(tmp, "big.out.tsv")
        make_corpus(corpus, args.rows)
        runs = [run(SUBSTITUTE, str(corpus), str(out)) for _ in range(args.repeat)]
        written = sum(1 for _ in open(out, encoding="utf-8")) - 1
        audit = Path(tmp, "big.out.mapping.jsonl")
        statuses: dict[str, int] = {}
        for line in open(audit, encoding="utf-8"):
            status = json.loads(line)["status"]
            statuses[status] = statuses.get(status, 0) + 1
    wall = min(w for w, _ in runs)
    rss = max(r for _, r in runs)
    print(f"rows={args.rows} written={written} audit={statuses} (python {sys.version.split()[0]}, "
          f"{os.cpu_count()} cpus)")
    print(f"substitute: best of {args.repeat} {wall:.2f} s wall (target 20 s), peak RSS {rss:.0f} MB "
          f"(target 1024 MB)")
    ok = wall <= 20 and rss <= 1024
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
