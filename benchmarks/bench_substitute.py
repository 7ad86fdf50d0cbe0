"""Substitute 1,000 instances (four contexts, a query and two short and two long answers each); check the targets.

Targets: at most 20 s wall and at most 1 GB peak RSS for the whole command (interpreter start, spaCy
model load, NER over every distinct text, mapping, verification, writing both files). The corpus is
built with Faker (seeded): every row has its own people, places, organisations, nationalities and
dates, in varied sentences with day dates, month dates, years, decades, ranges, durations and counts.
The run is in a fresh interpreter so the figures include start-up. CPU seconds (user + system of the
run) are printed beside wall seconds: on a shared machine the wall time says more about the other
loads than about the code. ``--baseline DIR`` runs another checkout of the package (a folder holding
``ragability_gen``) alternately with this one, on the same corpus, and prints the ratios. ``--tiny``
runs 20 rows once and checks only that every row is written (the test suite runs it). Run:

    python benchmarks/bench_substitute.py [--rows 1000] [--repeat 3] [--baseline DIR] [--tiny]
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from faker import Faker

HERE = Path(__file__).resolve().parent

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

# Four shapes of instance (a founding year, a birth date, a tenure, a whereabouts), each with distractor
# dates, durations and counts: context_1..4, query, short and long answer 1, short and long answer 2.
SHAPES = [
    ["{org} was founded in {city} in {year} by the {nation} engineer {person}.",
     "{org} was founded in {city} in {year7}, seven years after {person} had left {town}.",
     "In {year}, {person} opened the first workshop of {org} near the harbour of {city}.",
     "During the {decade}s, {org} employed about {staff} people in {city}.",
     "In which year was {org} founded?",
     "{year}", "{org} was founded in {year}.", "{year7}", "{org} was founded in {year7}."],
    ["{person} was born on {when} in {town}, the youngest of {children} children.",
     "{person} was born in {town} in {month} {born2} and moved to {city} at the age of twelve.",
     "Parish records of {town} list the baptism of {person} a few days after {when}.",
     "{person} later studied law in {city} under the {nation} jurist {rival}.",
     "In which year was {person} born?",
     "{born}", "{person} was born in {born}.", "{born2}", "{person} was born in {born2}."],
    ["{person} led {org} from {year} to {end}, for {span} years in all.",
     "{person} led {org} for {span5} years, from {year} until {end5}.",
     "After {span} years at the head of {org}, {person} handed over to {rival} in {end}.",
     "{rival}, {a_nation} economist, had worked in {city} since the early {decade}s.",
     "For how many years did {person} lead {org}?",
     "{span}", "{person} led {org} for {span} years.", "{span5}", "{person} led {org} for {span5} years."],
    ["The {nation} painter {person} spent the winter of {year} in {city}, where {org} bought six canvases.",
     "The {nation} painter {person} spent the winter of {year} in {town} and never visited {city}.",
     "Letters sent from {city} in January {year1} show that {person} was still living there.",
     "{org} has owned works by {person} and {rival} since {later}.",
     "Where did {person} spend the winter of {year}?",
     "in {city}", "{person} spent the winter of {year} in {city}.", "in {town}",
     "{person} spent the winter of {year} in {town}."],
]


def _row(fake: Faker, rng: random.Random, i: int) -> dict[str, str]:
    """Row ``i``: its shape's sentences filled with this row's own people, places, organisation and dates."""
    year, span = rng.randint(1700, 2010), rng.randint(4, 30)
    day = dt.date(1800, 1, 1) + dt.timedelta(days=rng.randint(0, 69000))
    values = {
        "person": fake.name(), "rival": fake.name(), "city": fake.city(), "town": fake.city(), "org": fake.company(),
        "nation": (nation := rng.choice(NATIONS)), "a_nation": ("an " if nation[0] in "AEIOU" else "a ") + nation,
        "year": year, "year1": year + 1, "year7": year + 7, "decade": year // 10 * 10,
        "later": year + rng.randint(20, 90), "staff": rng.randint(40, 900), "children": rng.randint(3, 9),
        "when": f"{day.day} {day:%B} {day.year}", "month": f"{day:%B}", "born": day.year, "born2": day.year + 2,
        "span": span, "span5": span + 5, "end": year + span, "end5": year + span + 5,
    }
    cells = [t.format(**values) for t in SHAPES[i % len(SHAPES)]]
    return dict(zip(COLUMNS, [str(i + 1), str(1000 + i), "categorical", "qeu", "qeu", *cells], strict=True))


def make_corpus(path: Path, rows: int, seed: int = 7) -> None:
    fake = Faker("en_US")
    fake.seed_instance(seed)
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8", newline="") as fh:
        out = csv.DictWriter(fh, COLUMNS, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
        out.writeheader()
        for i in range(rows):
            out.writerow(_row(fake, rng, i))


def run(package: Path, corpus: Path, out: Path) -> tuple[float, float, float]:
    """Substitute in a fresh interpreter importing ``package``'s ragability_gen: (wall s, CPU s, peak RSS MB)."""
    env = {**os.environ, "PYTHONPATH": str(package)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    # run in the corpus's folder: ``python -c`` puts the working directory first on sys.path, so run from a
    # checkout it would import that checkout's package whatever PYTHONPATH says
    proc = subprocess.run([sys.executable, "-c", SUBSTITUTE, str(corpus), str(out)], capture_output=True, text=True,
                          env=env, cwd=corpus.parent)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"benchmark step failed:\n{proc.stderr}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu, after.ru_maxrss / 1024  # the largest child so far: runs are alike, so that is this one's


def audit_counts(path: Path) -> tuple[dict[str, int], int]:
    """Statuses of the audit file, and the number of instances with leak-scan suspects."""
    statuses: dict[str, int] = {}
    suspected = 0
    for line in open(path, encoding="utf-8"):
        rec = json.loads(line)
        statuses[rec["status"]] = statuses.get(rec["status"], 0) + 1
        suspected += bool(rec.get("suspects"))
    return statuses, suspected


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--baseline", type=Path, help="Another checkout (folder holding ragability_gen) to compare with.")
    ap.add_argument("--tiny", action="store_true", help="20 rows once; only check that every row is written.")
    args = ap.parse_args()
    rows, repeat = (20, 1) if args.tiny else (args.rows, args.repeat)
    this = HERE.parent
    with tempfile.TemporaryDirectory() as tmp:
        corpus, out, base_out = Path(tmp, "big.tsv"), Path(tmp, "big.out.tsv"), Path(tmp, "base.out.tsv")
        make_corpus(corpus, rows)
        runs, base_runs = [], []
        for k in range(repeat):  # alternating, so both meet the same machine load; each goes first in turn,
            if args.baseline and k % 2:  # as the first of a pair has been seen to take some 5% more CPU
                base_runs.append(run(args.baseline, corpus, base_out))
            runs.append(run(this, corpus, out))
            if args.baseline and not k % 2:
                base_runs.append(run(args.baseline, corpus, base_out))
        written = sum(1 for _ in open(out, encoding="utf-8")) - 1
        statuses, suspected = audit_counts(Path(tmp, "big.out.mapping.jsonl"))
    wall, cpu, rss = min(r[0] for r in runs), min(r[1] for r in runs), max(r[2] for r in runs)
    mid = statistics.median(r[1] for r in runs)
    print(f"rows={rows} written={written} audit={statuses} with suspects={suspected} "
          f"(python {sys.version.split()[0]}, {os.cpu_count()} cpus, load {os.getloadavg()[0]:.1f})")
    print(f"substitute: best of {repeat} {wall:.2f} s wall (target 20 s), {cpu:.2f} s CPU, peak RSS {rss:.0f} MB "
          f"(target 1024 MB)")
    if base_runs:
        bwall, bcpu = min(r[0] for r in base_runs), min(r[1] for r in base_runs)
        bmid = statistics.median(r[1] for r in base_runs)
        print(f"baseline {args.baseline}: best of {repeat} {bwall:.2f} s wall, {bcpu:.2f} s CPU; "
              f"ratio this/baseline {wall / bwall:.2f} wall, {cpu / bcpu:.2f} CPU")
        print(f"CPU per run, this: {' '.join(f'{r[1]:.2f}' for r in runs)} (median {mid:.2f}); baseline: "
              f"{' '.join(f'{r[1]:.2f}' for r in base_runs)} (median {bmid:.2f}); ratio of medians {mid / bmid:.2f}")
    if args.tiny:
        return 0 if written == rows else 1
    ok = wall <= 20 and rss <= 1024
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
