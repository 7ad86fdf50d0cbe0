"""Loading converter specs, suite specs and prompt files, validated against their schemas."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ragability_gen.core import schemas
from ragability_gen.core.fileio import load_data
from ragability_gen.core.resources import resolve_spec
from ragability_gen.errors import SpecError


@dataclass
class Spec:
    """A loaded spec: its data and the file it came from (relative paths resolve against it)."""

    path: Path
    data: dict[str, Any]

    @property
    def name(self) -> str:
        return str(self.data["name"])

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)


def _load(name_or_path: str | Path, folder: str, kind: str) -> Spec:
    path = resolve_spec(name_or_path, folder)
    data = load_data(path)
    problems = schemas.problems(data, kind, str(path))
    if problems:
        raise SpecError(problems)
    return Spec(path, data)


def load_converter_spec(name_or_path: str | Path) -> Spec:
    """Load a converter spec by shipped name (e.g. "ragability-v0.4") or path, and check its references."""
    spec = _load(name_or_path, "converters", "converter-spec")
    if spec["converter"] == "table":
        _check_table_spec(spec)
    return spec


def _check_table_spec(spec: Spec) -> None:
    where = str(spec.path)
    ctx_ids = [c["id"] for c in spec["contexts"]]
    ans_ids = {a["id"] for a in spec["answers"]}
    problems = []
    if len(set(ctx_ids)) != len(ctx_ids):
        problems.append(f"{where}: field contexts: context ids must be unique")
    for c in spec["contexts"]:
        given = [k for k in ("annotation_column", "annotation_from", "annotation") if k in c]
        if len(given) > 1:
            problems.append(f"{where}: context {c['id']}: give at most one of {', '.join(given)}")
        if c.get("answer") is not None and c["answer"] not in ans_ids:
            problems.append(f"{where}: context {c['id']}: field answer: unknown answer id {c['answer']!r}")
        if c.get("annotation_from") not in (None, *ctx_ids) or c.get("annotation_from") == c["id"]:
            problems.append(f"{where}: context {c['id']}: field annotation_from: "
                            f"no other context {c['annotation_from']!r}")
        for rel in ("agrees", "contradicts"):
            for other in c.get(rel, []):
                if other not in ctx_ids or other == c["id"]:
                    problems.append(f"{where}: context {c['id']}: field {rel}: no other context {other!r}")
        both = set(c.get("agrees", [])) & set(c.get("contradicts", []))
        if both:
            problems.append(f"{where}: context {c['id']}: agrees with and contradicts {sorted(both)}")
    if problems:
        raise SpecError(problems)


def load_suite_spec(name_or_path: str | Path) -> Spec:
    """Load a suite spec by shipped name (e.g. "ragability") or path."""
    return _load(name_or_path, "checks", "suite-spec")


def load_prompts(path: str | Path) -> list[dict[str, Any]]:
    """Load and validate a prompt file; pids must be unique."""
    data = load_data(path)
    problems = schemas.problems(data, "prompts", str(path))
    if not problems:
        seen: set[str] = set()
        for i, p in enumerate(data, 1):
            if p["pid"] in seen:
                problems.append(f"{path}: item {i}: field pid: duplicate pid {p['pid']!r}")
            seen.add(p["pid"])
    if problems:
        raise SpecError(problems)
    return list(data)
