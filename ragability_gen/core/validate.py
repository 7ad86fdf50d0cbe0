"""Validating any file the tool reads or writes, reporting every problem at once."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ragability_gen.checkfuncs import CHECKS, CheckFunc
from ragability_gen.compile.core import metric_kind_problem, prompts_path_for
from ragability_gen.compile.ranking import ready_suite
from ragability_gen.convert.core import read_instances, sniff_converter_spec
from ragability_gen.core import schemas
from ragability_gen.core.fileio import NotStreamable, RecordSource, load_data, read_records, stream_records
from ragability_gen.core.specs import Spec, load_converter_spec, load_prompts
from ragability_gen.errors import InputError, RagabilityGenError, SchemaError
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
    if _first_record_has(p, "qid"):  # a suite, told from its first item without reading it all
        return "suite", None
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


def _first_record_has(path: Path, key: str) -> bool:
    try:
        with contextlib.closing(stream_records(path)) as records:
            first = next(records, None)
    except (NotStreamable, UnicodeDecodeError, InputError):
        return False
    return first is not None and key in first


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
            n, probs = _scan_suite(data if data is not None else RecordSource(path), str(path))
            return kind, probs, f"{n} items"
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


class _MetricKinds:
    """Metrics fed by check functions of different kinds (binary, multiclass, score), once per metric and function.

    A suite file declares no metric kinds, so the first check function naming a metric sets its kind.
    Items are fed one at a time, so a streamed suite is read once.
    """

    def __init__(self, where: str):
        self.where = where
        self.first: dict[str, CheckFunc] = {}
        self.told: set[tuple[str, str]] = set()

    def item(self, i: int, it: Any) -> list[str]:
        probs: list[str] = []
        for j, c in enumerate(it.get("checks") or [] if isinstance(it, dict) else []):
            cf = CHECKS.get(c["func"]) if isinstance(c, dict) and isinstance(c.get("func"), str) else None
            if cf is None or not isinstance(c.get("metrics"), list):
                continue
            for m in c["metrics"]:
                if not isinstance(m, str) or (m, cf.name) in self.told:
                    continue
                seen = self.first.setdefault(m, cf)
                if (bad := metric_kind_problem(m, seen.kind, cf)) is not None:
                    self.told.add((m, cf.name))
                    probs.append(f"{self.where}: item {i}: field checks/{j}/metrics: {bad} (check function "
                                 f"{seen.name!r} gives it {seen.kind} results)")
        return probs


def metric_kind_problems(items: Iterable[dict[str, Any]], where: str) -> list[str]:
    """Metrics fed by check functions of different kinds, once per metric and function (see :class:`_MetricKinds`)."""
    kinds = _MetricKinds(where)
    return [p for i, it in enumerate(items, 1) for p in kinds.item(i, it)]


def suite_problems(items: Iterable[dict[str, Any]], where: str) -> list[str]:
    """Schema problems of every item, duplicate qids, unknown check functions, unknown pids.

    ``items`` is iterated once, and a second time only when two qids may be the same, so a
    :class:`RecordSource` keeps memory flat: per item only a hash of its qid is kept.
    """
    return _scan_suite(items, where)[1]


def _scan_suite(items: Iterable[dict[str, Any]], where: str) -> tuple[int, list[str]]:
    """(number of items, problems): schema problems first, then per item its duplicate qid and check
    problems, then prompt ids missing from the prompt file beside the suite."""
    prompts_file = prompts_path_for(where)
    pids = {p["pid"] for p in load_prompts(prompts_file)} if Path(prompts_file).is_file() else None
    v = schemas.validator("test-item")
    schema_probs: list[str] = []
    item_probs: list[tuple[int, int, str]] = []
    pid_probs: list[str] = []
    kinds = _MetricKinds(where)
    kind_probs: list[str] = []
    seen: set[int] = set()
    suspects: set[int] = set()
    n = 0
    for n, it in enumerate(items, 1):
        if not v.is_valid(it):
            schema_probs += [f"{where}: item {n}: {'field ' + p + ': ' if p else ''}{m}" for p, m in v.problems(it)]
        q = it.get("qid")
        if isinstance(q, str):
            h = hash(q)
            if h in seen:
                suspects.add(h)
            seen.add(h)
        checks = it.get("checks")
        if checks:
            item_probs += [(n, 1, p) for p in check_problems(it, f"{where}: item {n}")]
            kind_probs += kinds.item(n, it)
        if pids is not None:
            used = list(it.get("pids") or []) + [c.get("pid") for c in checks or []
                                                  if isinstance(c, dict) and c.get("pid")]
            used += list(it.get("turns") or [])
            pid_probs += [f"{where}: item {n}: no prompt {pid!r} in {prompts_file.name}"
                          for pid in used if isinstance(pid, str) and pid not in pids]
    if suspects:  # a second pass tells true duplicates from hash collisions and names every item
        at: dict[str, list[int]] = {}
        for i, it in enumerate(items, 1):
            q = it.get("qid")
            if isinstance(q, str) and hash(q) in suspects:
                at.setdefault(q, []).append(i)
        item_probs += [(i, 0, f"{where}: item {i}: field qid: duplicate qid {q!r}")
                       for q, found in at.items() if len(found) > 1 for i in found]
    item_probs.sort(key=lambda t: (t[0], t[1]))
    return n, schema_probs + [m for _, _, m in item_probs] + kind_probs + pid_probs


class SuiteFile(RecordSource):
    """The items of a suite file that passed validation, streamed on every pass (memory stays flat)."""

    def __init__(self, path: str | Path, items: int):
        super().__init__(path)
        self.items = items

    def __len__(self) -> int:
        return self.items


def read_suite(path: str | Path) -> SuiteFile:
    """Validate a suite (hjson, json or jsonl) in one streaming pass; return its items, to iterate.

    Raises:
        SchemaError: listing every problem (item number and field) when any item is invalid.
    """
    source = RecordSource(path)
    n, probs = _scan_suite(source, str(path))
    if probs:
        raise SchemaError(probs)
    return SuiteFile(path, n)
