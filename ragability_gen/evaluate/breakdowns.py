"""Breakdowns: which slices of the results a report shows, parsed from ``--by-tags``/``--by-fields``.

A tag breakdown is one or more parts joined by ``&`` (their cross product); a part is a
comma-separated list of tag patterns (``*`` and ``?`` are wildcards), optionally named ``NAME=``.
Each tag of an item that matches a part is one group of that part, so an item carrying ``qeu`` and
``qia`` counts in both groups; an item with no matching tag falls in the group ``(none)``, or
``TAG:no`` for a part that is a single tag (python-ragability's ``--by_tags TAG``).
A field breakdown is a comma-separated list of item fields (``check.<key>`` for a field of the
check), grouped by their value combination, as python-ragability's ``--by_qfields`` does.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Any

from ragability_gen.errors import InputError

NONE = "(none)"
EMPTY = "(empty)"

DEFAULT_TAGS = (
    "ctx=ctx_*", "hint=hint,nohint", "reasoning=reasoning_*", "annotation=qeu,qea,qiu,qia,qn", "expect=expect_*",
    "task=task_*", "contradiction=contradiction_in_facts,no_contradiction_in_facts", "wc_template=wc_template_*",
    "wc_conflict=wc_explicit,wc_implicit", "wc_template=wc_template_*&wc_conflict=wc_explicit,wc_implicit",
    "rank_variant=rank_variant_*", "layout=layout_*",
    # the tags python-ragability's converter puts on its items (ours carry them too)
    "answerable=answerable,not_answerable", "contexts=kind_no_context,kind_1context,kind_2contexts,kind_4contexts",
    "kind_context=kind_no_context,kind_context1,kind_context2,kind_context1+2,kind_context2+1,kind_context1+3,"
    "kind_context3+1,kind_context1+2+3+4",
    "kind_hint=kind_2contexts_q-h,kind_2contexts_q+h,kind_4contexts_q-h,kind_4contexts_q+h",
)
"""The tag groups the shipped suites and python-ragability's converter put on their items; a group no item
has is left out."""

DEFAULT_FIELDS = ("pid",)
"""Per prompt id, always meaningful: every results record names the prompt it was asked with."""


@dataclass(frozen=True)
class TagPart:
    """Groups by the tags that match one of ``patterns``; listed tags keep their listed order.

    Items with no matching tag fall in ``absent``: ``(none)``, or ``TAG:no`` when the part is one tag
    without wildcards (python-ragability's tag-absent group), so ``--by-tags hint`` compares ``hint``
    with ``hint:no``.
    """

    name: str
    patterns: tuple[str, ...]

    @property
    def absent(self) -> str:
        if len(self.patterns) == 1 and not any(c in self.patterns[0] for c in "*?["):
            return f"{self.patterns[0]}:no"
        return NONE

    def groups(self, tags: Sequence[str]) -> list[str]:
        found = [t for t in tags if any(fnmatchcase(t, p) for p in self.patterns)]
        return list(dict.fromkeys(found)) or [self.absent]

    def sort_key(self, group: str) -> tuple[Any, ...]:
        if group in self.patterns:
            return (0, self.patterns.index(group))
        return (1 if group != self.absent else 2, natural_key(group))


@dataclass(frozen=True)
class FieldPart:
    """Groups by the value of an item field, or of a check field when ``field`` starts with ``check.``."""

    name: str
    field: str

    @property
    def on_check(self) -> bool:
        return self.field.startswith("check.")

    @property
    def key(self) -> str:
        return self.field[6:] if self.on_check else self.field

    def sort_key(self, group: str) -> tuple[Any, ...]:
        return (1 if group in (NONE, EMPTY) else 0, natural_key(group))


@dataclass(frozen=True)
class Breakdown:
    """A named slicing of the results; ``optional`` ones are dropped when no item has their tags or fields."""

    name: str
    parts: tuple[TagPart | FieldPart, ...]
    optional: bool = False

    @property
    def columns(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.parts)


def natural_key(text: str) -> tuple[Any, ...]:
    """Sort key that orders embedded numbers by value: wc_template_2 before wc_template_10."""
    return tuple((0, int(s), "") if s.isdigit() else (1, 0, s) for s in re.split(r"(\d+)", text) if s)


def group_label(value: Any) -> str:
    """How a field value names its group: lists joined, objects as compact JSON, missing as (none)."""
    if value is None:
        return NONE
    if isinstance(value, str):
        return value if value.strip() else EMPTY
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return ", ".join(value) if value else EMPTY
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return str(value)


def _split_name(spec: str, option: str) -> tuple[str | None, str]:
    name, sep, rest = spec.partition("=")
    if not sep:
        return None, spec
    if not name.strip() or not rest.strip():
        raise InputError(f"{option} {spec!r}: write NAME=... with a name and something after the '='")
    return name.strip(), rest


def _part_name(patterns: Sequence[str]) -> str:
    if len(patterns) == 1:
        return re.sub(r"[_*?]+$", "", patterns[0]) or patterns[0]
    return ",".join(patterns)


def tag_breakdown(spec: str, optional: bool = False) -> Breakdown:
    """Parse ``[NAME=]PATTERN[,PATTERN...][&[NAME=]PATTERN...]`` (see the module docstring)."""
    parts: list[TagPart | FieldPart] = []
    for chunk in spec.split("&"):
        name, rest = _split_name(chunk.strip(), "by-tags part")
        patterns = tuple(p.strip() for p in rest.split(","))
        if not all(patterns):
            raise InputError(f"by-tags {spec!r}: empty tag pattern (write tags separated by single commas)")
        parts.append(TagPart(name or _part_name(patterns), patterns))
    return Breakdown(" & ".join(p.name for p in parts), tuple(parts), optional)


def field_breakdown(spec: str, optional: bool = False) -> Breakdown:
    """Parse ``[NAME=]FIELD[,FIELD...]``: one group per combination of the fields' values."""
    name, rest = _split_name(spec.strip(), "by-fields")
    fields = tuple(f.strip() for f in rest.split(","))
    if not all(fields) or any(f == "check." for f in fields):
        raise InputError(f"by-fields {spec!r}: empty field name (write fields separated by single commas)")
    parts = tuple(FieldPart(f, f) for f in fields)
    return Breakdown(name or ",".join(fields), parts, optional)


def parse_breakdowns(by_tags: Sequence[str] | None = None, by_fields: Sequence[str] | None = None) -> list[Breakdown]:
    """The breakdowns for the given specs; None means the defaults.

    The word ``default`` among the specs stands for the default list and ``none`` for nothing, so
    ``["default", "kind_*"]`` adds to the defaults and ``["none"]`` turns a kind of breakdown off.
    """
    out: list[Breakdown] = []
    for specs, defaults, parse in ((by_fields, DEFAULT_FIELDS, field_breakdown),
                                   (by_tags, DEFAULT_TAGS, tag_breakdown)):
        for spec in (["default"] if specs is None else specs):
            if spec.strip() == "default":
                out += [parse(d, True) for d in defaults]
            elif spec.strip() != "none":
                out.append(parse(spec))
    seen: dict[str, Breakdown] = {}
    for b in out:
        if b.name in seen and seen[b.name].parts != b.parts:
            raise InputError(f"two breakdowns are named {b.name!r}; name one of them with NAME=")
        seen.setdefault(b.name, b)
    return list(seen.values())
