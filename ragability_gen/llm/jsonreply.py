"""JSON replies: read a JSON value from a model's text, check it against a JSON Schema, ask again if it fails."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import jsonschema

from ragability_gen.errors import LLMError

if TYPE_CHECKING:
    from ragability_gen.llm.client import LLM, Completion, Message

_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.S)


def parse_json_reply(text: str) -> Any:
    """Read a JSON value from a reply, tolerating a Markdown code fence and text around one object.

    Raises:
        ValueError: no JSON value can be read.
    """
    body = text.strip()
    if m := _FENCE.match(body):
        body = m.group(1)
    try:
        return json.loads(body, strict=False)  # strict=False: a raw line break inside a string is common
    except json.JSONDecodeError as e:
        start, end = body.find("{"), body.rfind("}")
        if 0 <= start < end:
            try:
                return json.loads(body[start:end + 1], strict=False)
            except json.JSONDecodeError:
                pass
        raise ValueError(f"not JSON ({e.msg} at line {e.lineno}, column {e.colno})") from None


@functools.lru_cache(maxsize=32)
def _validator(schema_json: str) -> jsonschema.Draft7Validator:
    return jsonschema.Draft7Validator(json.loads(schema_json))


def schema_errors(value: Any, schema: dict[str, Any]) -> list[str]:
    """Every way ``value`` breaks ``schema``, as short messages naming the field."""
    validator = _validator(json.dumps(schema))  # built once per schema, not per reply (key order kept)
    out = []
    for err in sorted(validator.iter_errors(value), key=lambda e: list(e.absolute_path)):
        where = "/".join(str(p) for p in err.absolute_path)
        out.append(f"{where}: {err.message}" if where else err.message)
    return out


def read_json_reply(text: str, schema: dict[str, Any]) -> tuple[Any, list[str]]:
    """The JSON value of a reply and every way it breaks ``schema`` (unreadable JSON is one problem)."""
    try:
        value = parse_json_reply(text)
    except ValueError as e:
        return None, [str(e)]
    return value, schema_errors(value, schema)


@dataclass
class JSONReply:
    """A schema-valid JSON reply, the completions it took, and why the rejected ones were rejected."""

    value: Any
    completions: list[Completion]
    problems: list[str]


async def complete_json(llm: LLM, messages: Sequence[Message], schema: dict[str, Any], *, attempts: int = 3,
                        schema_name: str = "reply") -> JSONReply:
    """Ask for a JSON object matching ``schema``; an invalid reply is sent back with the errors and retried.

    Raises:
        LLMError: no valid reply within ``attempts`` (the message lists why each was rejected).
    """
    convo = list(messages)
    completions: list[Completion] = []
    problems: list[str] = []
    for attempt in range(1, attempts + 1):
        done = await llm.complete(convo, schema=schema, schema_name=schema_name)
        completions.append(done)
        value, errors = read_json_reply(done.text, schema)
        if not errors:
            return JSONReply(value, completions, problems)
        problems.append(f"attempt {attempt}: invalid reply: {'; '.join(errors)}")
        convo = [*convo, {"role": "assistant", "content": done.text},
                 {"role": "user", "content": "That reply is not valid: " + "; ".join(errors)
                  + ". Reply again with only a JSON object that matches the schema."}]
    raise LLMError(f"{llm.spec.alias}: no valid JSON reply in {attempts} attempts ({'; '.join(problems)})")
