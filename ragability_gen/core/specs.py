"""Loading converter specs, suite specs and prompt files, validated against their schemas."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ragability_gen.core import schemas
from ragability_gen.core.fileio import load_data
from ragability_gen.core.resources import resolve_spec
from ragability_gen.errors import InputError, SpecError


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


_KEY_EXPECTED = re.compile(r"^(?P<where>.+?): line (?P<line>\d+), column \d+: Found '[{\[]' where a key name was "
                           r"expected(?: \(check your syntax[^)]*\))?$")
_LITERAL = re.compile(r"^(true|false|null|-?\d+(\.\d+)?([eE][-+]?\d+)?)$")
_UNQUOTED = re.compile(r"[\w$-]+\s*:\s*(?P<value>[^\s\"'\[\]{},#][^,}\n]*?)\s*[,}]")


def explain_hjson_problem(problem: str) -> str:
    """The hjson error of an unquoted string inside an inline object, explained with its fix.

    In hjson an unquoted string runs to the end of its line, so in ``{id: a, column: doc_main}`` the
    value of ``id`` is ``a, column: doc_main}``; the object never closes, and the parser trips on the
    next ``{`` with "Found '{' where a key name was expected", a line after the real mistake. This
    names that earlier line, the value to quote and the fix. Other problems are returned unchanged.
    """
    m = _KEY_EXPECTED.match(problem)
    if m is None:
        return problem
    where, line = m["where"], int(m["line"])
    hint = "an unquoted string value runs to the end of its line in hjson, so an inline object {...} before it"
    try:
        lines = Path(where).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        lines = []
    for n in range(min(line - 1, len(lines)), 0, -1):
        text = lines[n - 1].strip()
        if not text or text.startswith(("#", "//")):
            continue
        found = next((f for f in _UNQUOTED.finditer(text) if not _LITERAL.match(f["value"])), None)
        if found is not None:
            value = found["value"]
            return (f"{problem.split(' (check your syntax', 1)[0]}: the unquoted string {value} on line {n} runs to "
                    f"the end of that line in hjson and swallows the rest of its inline object; quote it "
                    f"(\"{value}\")")
        break
    return f"{problem.split(' (check your syntax', 1)[0]}: {hint} never closed; quote its string values"


def _load_data(path: str | Path) -> Any:
    try:
        return load_data(path)
    except InputError as e:
        raise InputError([explain_hjson_problem(p) for p in e.problems]) from None


def _load(name_or_path: str | Path, folder: str, kind: str) -> Spec:
    path = resolve_spec(name_or_path, folder)
    data = _load_data(path)
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
    data = _load_data(path)
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
