"""The ``instances`` converter: canonical instance files, one JSON object per line.

What ``write_corpus`` writes to a ``.jsonl`` path, read back losslessly (contexts beyond the four
Ragability columns, their relations, provenance).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ragability_gen.convert.core import ConvertSummary, register_converter
from ragability_gen.core import schemas
from ragability_gen.core.fileio import read_records
from ragability_gen.core.model import Instance
from ragability_gen.core.specs import Spec
from ragability_gen.errors import InputError

# ------------------------------------------------------------------------- canonical instance files

def _sniff_instances(path: Path, spec: Spec) -> bool:
    if path.suffix.lower() != ".jsonl":
        return False
    with open(path, encoding="utf-8", errors="replace") as fh:
        first = next((line for line in fh if line.strip()), "")
    try:
        rec = json.loads(first)
    except json.JSONDecodeError:
        return False
    return isinstance(rec, dict) and "contexts" in rec and "qid" not in rec


@register_converter("instances", sniff=_sniff_instances)
def convert_instances(path: Path, spec: Spec, options: dict[str, Any]) -> tuple[list[Instance], ConvertSummary]:
    """Read canonical instances, one JSON object per line (what ``write_corpus`` writes to ``.jsonl``)."""
    name = str(path)
    records = read_records(path, "jsonl")
    problems = schemas.record_problems(records, "instance", lambda i: f"{name}: record {i + 1}")
    if problems:
        raise InputError(problems)
    summary = ConvertSummary(name, spec.name, records_read=len(records))
    seen: dict[tuple[str, str], int] = {}
    instances = []
    for n, rec in enumerate(records, 1):
        inst = Instance.from_dict(rec)
        where = f"{name}: record {n} (id {inst.id})"
        ids = set(inst.contexts)
        if len(ids) != len(rec["contexts"]):
            problems.append(f"{where}: field contexts: context ids must be unique")
        for c in inst.contexts.values():
            for other in (*c.agrees, *c.contradicts):
                if other not in ids:
                    problems.append(f"{where}: context {c.id}: relation to unknown context {other!r}")
            if c.answer is not None and c.answer not in inst.answers:
                problems.append(f"{where}: context {c.id}: field answer: unknown answer id {c.answer!r}")
        key = (inst.id, inst.query.strip())
        if key in seen:
            problems.append(f"{where}: duplicate (id, query) pair, first in record {seen[key]}")
        seen[key] = n
        instances.append(inst)
    if problems:
        raise InputError(problems)
    summary.instances = len(instances)
    summary.merged = len(instances) - len({i.id for i in instances})
    return instances, summary
