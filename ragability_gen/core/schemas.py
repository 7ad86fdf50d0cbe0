"""JSON Schemas for every file format, and validation that reports every problem at once.

Validation runs in tiers: ``jsonschema-rs`` (Rust, about a microsecond per record) on every record; a
``fastjsonschema``-compiled check to confirm its "no" (or for values it cannot take); and ``jsonschema``'s
``iter_errors`` only for records that fail, to name each problem.
Large suites (hundreds of thousands of items) can so be validated on every read.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

import jsonschema_rs

from ragability_gen.core.resources import data_dir

KINDS: dict[str, str] = {
    "corpus-row": "corpus_row.schema.json",
    "instance": "instance.schema.json",
    "test-item": "test_item.schema.json",
    "prompts": "prompts.schema.json",
    "suite-spec": "suite_spec.schema.json",
    "converter-spec": "converter_spec.schema.json",
    "llm-config": "llm_config.schema.json",
    "mapping": "mapping.schema.json",
    "generation-audit": "generation_audit.schema.json",
    "generation-rejects": "generation_rejects.schema.json",
}


@cache
def load_schema(kind: str) -> dict[str, Any]:
    """The shipped schema for ``kind`` (one of KINDS)."""
    if kind not in KINDS:
        raise ValueError(f"unknown schema kind {kind!r}")
    with open(data_dir("schemas") / KINDS[kind], encoding="utf-8") as fh:
        schema: dict[str, Any] = json.load(fh)
    return schema


class Validator:
    """A schema with a fast yes/no check and a full, all-problems report."""

    def __init__(self, schema: dict[str, Any]):
        self.schema = schema
        self._full: Any = None  # jsonschema's validator, made for the first record that fails
        self._compiled: Callable[[Any], Any] | None = None
        # jsonschema-rs (Rust) checks a suite item in about 1 us, fastjsonschema's generated code in about
        # 10 us (its anyOf raises an exception per branch tried); its "no" is confirmed by jsonschema below.
        try:
            self._rs: Any = jsonschema_rs.validator_for(schema)
        except (ValueError, jsonschema_rs.ValidationError):  # a schema it cannot compile
            self._rs = None

    def _fast(self, obj: Any) -> Any:
        """fastjsonschema's check, compiled when first needed: generating and compiling its code costs
        a tenth of a second per schema, more than a whole small convert, and valid data never needs it."""
        if self._compiled is None:
            import fastjsonschema

            self._compiled = fastjsonschema.compile(self.schema)
        return self._compiled(obj)

    def is_valid(self, obj: Any) -> bool:
        if self._rs is not None:
            try:
                if self._rs.is_valid(obj):
                    return True
            except (ValueError, TypeError):  # a value it cannot take (not JSON data): ask fastjsonschema
                pass
        from fastjsonschema import JsonSchemaException  # imported with the compiled check, never earlier

        try:
            self._fast(obj)
        except JsonSchemaException:
            return False
        return True

    def problems(self, obj: Any) -> list[tuple[str, str]]:
        """Every problem as (field path, message); empty when ``obj`` is valid."""
        if self.is_valid(obj):
            return []
        if self._full is None:
            from jsonschema import Draft7Validator  # a tenth of a second to import: only when something is wrong

            self._full = Draft7Validator(self.schema)
        out = []
        for err in sorted(self._full.iter_errors(obj), key=lambda e: [str(p) for p in e.absolute_path]):
            path = "/".join(str(p) for p in err.absolute_path)
            out.append((path, _message(err)))
        return out


def _message(err: Any) -> str:
    custom = err.schema.get("x-message") if isinstance(err.schema, dict) else None
    if custom:
        return str(custom).format(value=_short(err.instance))
    if err.validator in ("anyOf", "oneOf"):
        kinds = " or ".join(_describe(s) for s in err.validator_value)
        return f"{_short(err.instance)} is not {kinds}"
    if err.validator == "pattern" and err.validator_value == "\\S":
        return "must not be empty"
    return _short_message(err.message)


def _describe(sub: dict[str, Any]) -> str:
    if "type" in sub:
        t = sub["type"]
        if t == "array" and isinstance(sub.get("items"), dict) and "type" in sub["items"]:
            return f"an array of {sub['items']['type']}s"
        return f"a {t}" if isinstance(t, str) else " or ".join(t)
    if "required" in sub:
        return "an object with " + "/".join(sub["required"])
    return "the allowed form"


def _short(value: Any, limit: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _short_message(msg: str, limit: int = 240) -> str:
    return msg if len(msg) <= limit else msg[: limit - 3] + "..."


@cache
def validator(kind: str) -> Validator:
    """The cached validator for a shipped schema kind."""
    return Validator(load_schema(kind))


def problems(obj: Any, kind: str, where: str) -> list[str]:
    """Problems of one object against a shipped schema, each prefixed with ``where``."""
    return [f"{where}: {_field(p)}{m}" for p, m in validator(kind).problems(obj)]


def record_problems(records: Iterable[Any], kind: str, where: Callable[[int], str]) -> list[str]:
    """Problems of many records; ``where(i)`` names record ``i`` (0-based) in messages."""
    v = validator(kind)
    out: list[str] = []
    for i, rec in enumerate(records):
        if not v.is_valid(rec):
            out.extend(f"{where(i)}: {_field(p)}{m}" for p, m in v.problems(rec))
    return out


def _field(path: str) -> str:
    return f"field {path}: " if path else ""
