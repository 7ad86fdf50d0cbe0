"""Validating any file the tool reads or writes, reporting every problem at once."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from ragability_gen.checkfuncs import CHECKS, CheckFunc
from ragability_gen.compile.core import metric_kind_problem, prompts_path_for
from ragability_gen.compile.ranking import ready_suite
from ragability_gen.convert.core import read_instances, sniff_converter_spec
from ragability_gen.core import schemas
from ragability_gen.core.fileio import load_data, read_records
from ragability_gen.core.specs import Spec, load_converter_spec, load_prompts
from ragability_gen.errors import RagabilityGenError, SchemaError
from ragability_gen.llm.config import load_llm_config

FILE_KINDS = ("corpus", "instances", "suite", "prompts", "suite-spec", "converter-spec", "llm-config", "mapping",
              "generation-audit", "generation-rejects")
_RECORD_KINDS = {"qid": "suite", "attempts": "generation-audit", "rejected": "generation-rejects",
                 "date_offset": "mapping"}


def detect_kind(path: str | Path) -> str:
    """Guess what kind of file ``path`` is from its suffix and content."""
    return _detect(path)[0]


def _detect(path: str | Path) -> tuple[str, Any]:
    """The kind of file, and its parsed content when telling the kind needed it (so it is read once)."""
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix in (".tsv", ".csv") or sniff_converter_spec(p) is not None:
        return "corpus", None
    if p.name.endswith((".audit.jsonl", ".rejects.jsonl")):  # the names generate gives them
        return ("generation-audit" if p.name.endswith(".audit.jsonl") else "generation-rejects"), None
    if suffix == ".jsonl":
        with open(p, encoding="utf-8", errors="replace") as fh:
            first = next((line for line in fh if line.strip()), "{}")
        try:
            record = json.loads(first)
        except json.JSONDecodeError:
            record = {}
        found = [kind for key, kind in _RECORD_KINDS.items() if isinstance(record, dict) and key in record]
        return (found[0] if found else "instances"), None
    data = load_data(p)
    if isinstance(data, dict):
        if "variants" in data:
            return "suite-spec", None
        if "converter" in data:
            return "converter-spec", None
        if "llms" in data:
            return "llm-config", None
    if isinstance(data, list) and data and isinstance(data[0], dict):
        if "qid" in data[0]:
            return "suite", data
        if "pid" in data[0]:
            return "prompts", None
        if "contexts" in data[0]:
            return "instances", None
    raise RagabilityGenError(f"{path}: cannot tell what kind of file this is; give --kind "
                             f"({', '.join(FILE_KINDS)})")


def validate_file(path: str | Path, kind: str | None = None,
                  converter: str | Path | None = None) -> tuple[str, list[str], str]:
    """Validate one file.

    Returns:
        (kind, problems, description): problems is empty when the file is valid; description
        says what was checked, e.g. "24 rows".
    """
    data = None
    if kind is None:
        kind, data = _detect(path)
    try:
        if kind == "corpus":
            instances, summary = read_instances(path, converter)
            return kind, [], f"{summary.records_read} rows, {len(instances)} instances"
        if kind == "instances":
            instances, _ = read_instances(path, "instances")
            return kind, [], f"{len(instances)} instances"
        if kind == "suite":
            recs = data if data is not None else read_records(path)
            return kind, suite_problems(recs, str(path)), f"{len(recs)} items"
        if kind in ("generation-audit", "generation-rejects"):
            recs = read_records(path, "jsonl")
            probs = schemas.record_problems(recs, kind, lambda i: f"{path}: record {i + 1}")
            return kind, probs, f"{len(recs)} records"
        if kind == "prompts":
            prompts = load_prompts(path)
            return kind, [], f"{len(prompts)} prompts"
        if kind == "suite-spec":
            suite = ready_suite(Spec(Path(path), _checked(path, "suite-spec")))
            return kind, [], f"{len(suite.spec['variants'])} variants"
        if kind == "converter-spec":
            spec = load_converter_spec(path)
            return kind, [], f"converter {spec['converter']!r}"
        if kind == "llm-config":
            llms = load_llm_config(path)
            return kind, [], f"{len(llms)} models"
        if kind == "mapping":
            records = read_records(path, "jsonl")
            probs = schemas.record_problems(records, "mapping", lambda i: f"{path}: record {i + 1}")
            return kind, probs, f"{len(records)} instance records"
    except RagabilityGenError as e:
        return kind, e.problems, ""
    raise RagabilityGenError(f"unknown kind {kind!r} (use one of {', '.join(FILE_KINDS)})")


def _checked(path: str | Path, kind: str) -> dict[str, Any]:
    data = load_data(path)
    probs = schemas.problems(data, kind, str(path))
    if probs:
        raise RagabilityGenError(probs)
    return dict(data)


def check_problems(item: dict[str, Any], at: str) -> list[str]:
    """Checks of one item that name an unknown check function or give it the wrong arguments."""
    probs = []
    for j, c in enumerate(item.get("checks") or []):
        if not isinstance(c, dict) or not isinstance(c.get("func"), str):
            continue
        if c["func"] not in CHECKS:
            probs.append(f"{at}: field checks/{j}/func: unknown check function {c['func']!r}")
        elif (bad := CHECKS[c["func"]].args_problem(c.get("args", []))) is not None:
            probs.append(f"{at}: field checks/{j}/args: {bad}")
    return probs


def metric_kind_problems(items: list[dict[str, Any]], where: str) -> list[str]:
    """Metrics fed by check functions of different kinds (binary, multiclass, score), once per metric and function.

    A suite file declares no metric kinds, so the first check function naming a metric sets its kind.
    """
    first: dict[str, CheckFunc] = {}
    probs: list[str] = []
    told: set[tuple[str, str]] = set()
    for i, it in enumerate(items, 1):
        for j, c in enumerate(it.get("checks") or [] if isinstance(it, dict) else []):
            cf = CHECKS.get(c["func"]) if isinstance(c, dict) and isinstance(c.get("func"), str) else None
            if cf is None or not isinstance(c.get("metrics"), list):
                continue
            for m in c["metrics"]:
                if not isinstance(m, str) or (m, cf.name) in told:
                    continue
                seen = first.setdefault(m, cf)
                if (bad := metric_kind_problem(m, seen.kind, cf)) is not None:
                    told.add((m, cf.name))
                    probs.append(f"{where}: item {i}: field checks/{j}/metrics: {bad} (check function "
                                 f"{seen.name!r} gives it {seen.kind} results)")
    return probs


def suite_problems(items: list[dict[str, Any]], where: str) -> list[str]:
    """Schema problems of every item, duplicate qids, unknown check functions, metric kinds, unknown pids."""
    probs = schemas.record_problems(items, "test-item", lambda i: f"{where}: item {i + 1}")
    qids = Counter(it.get("qid") for it in items)
    for i, it in enumerate(items, 1):
        q = it.get("qid")
        if isinstance(q, str) and qids[q] > 1:
            probs.append(f"{where}: item {i}: field qid: duplicate qid {q!r}")
        probs += check_problems(it, f"{where}: item {i}")
    probs += metric_kind_problems(items, where)
    prompts_file = prompts_path_for(where)
    if Path(prompts_file).is_file():
        pids = {p["pid"] for p in load_prompts(prompts_file)}
        for i, it in enumerate(items, 1):
            used = list(it.get("pids") or []) + [c.get("pid") for c in it.get("checks") or []
                                                   if isinstance(c, dict) and c.get("pid")]
            used += list(it.get("turns") or [])
            for pid in used:
                if isinstance(pid, str) and pid not in pids:
                    probs.append(f"{where}: item {i}: no prompt {pid!r} in {prompts_file.name}")
    return probs


def read_suite(path: str | Path) -> list[dict[str, Any]]:
    """Read a suite (hjson, json or jsonl) and validate every item.

    Raises:
        SchemaError: listing every problem (item number and field) when any item is invalid.
    """
    items = read_records(path)
    probs = suite_problems(items, str(path))
    if probs:
        raise SchemaError(probs)
    return items
