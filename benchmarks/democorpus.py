"""Large corpora for the benchmarks, made by cycling through the rows of the shipped demo corpus."""

from __future__ import annotations

import csv
from collections.abc import Callable, Sequence
from pathlib import Path

DEMO = Path(__file__).resolve().parent.parent / "corpora" / "demo.tsv"


def cycle_demo(path: Path, rows: int, keep: Callable[[dict[str, str]], bool], numbered: Sequence[str] = ("query_text",),
               blank: Sequence[str] = ()) -> None:
    """Write ``rows`` rows cycling through the demo rows ``keep`` accepts, each under a new contradiction_ID.

    Args:
        numbered: Columns that get " (case N)" appended, so that rows differ (a query must be unique per id).
        blank: Columns emptied in every row.
    """
    with open(DEMO, encoding="utf-8", newline="") as fh:
        records = list(csv.reader(fh, delimiter="\t"))
    header = records[0]
    body = [r for r in records[1:] if keep(dict(zip(header, r, strict=True)))]
    with open(path, "w", encoding="utf-8", newline="") as fh:
        out = csv.writer(fh, delimiter="\t", lineterminator="\n")
        out.writerow(header)
        for i in range(rows):
            rec = dict(zip(header, body[i % len(body)], strict=True))
            rec["contradiction_ID"] = str(i + 1)
            for col in numbered:
                rec[col] += f" (case {i + 1})"
            for col in blank:
                rec[col] = ""
            out.writerow([rec[c] for c in header])
