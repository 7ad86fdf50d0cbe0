"""Passages -> atomic facts, and the quantities (numbers with units, dates) a fact states.

Two extractors: ``rule_facts`` takes every sentence that states a number or a date (what the rules
verifier can compare, and the commonest kind of inconsistency: numerical and temporal discrepancies
are more than half of WikiCollide's); ``llm_facts`` asks a model for the atomic facts of a passage
with a JSON Schema reply, cached by the LLM client, so a re-run costs nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ragability_gen.errors import LLMError
from ragability_gen.llm.client import LLM, complete_json

from .documents import Passage

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[\"'“(\[]?[A-Z0-9])|\n+")
_ABBREV = re.compile(r"\b(?:e\.g|i\.e|etc|No|Nr|approx|ca|Dr|Mr|Mrs|Ms|St|vs|Fig)\.$")

MONTHS = {m: i for i, m in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
     "november", "december"], 1)}
_MONTH = "|".join(MONTHS) + "|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
_NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_QUANTITY = re.compile(
    rf"(?P<date_dmy>\b(?P<d1>\d{{1,2}})\s+(?P<m1>{_MONTH})\.?\s+(?P<y1>\d{{4}})\b)"
    rf"|(?P<date_mdy>\b(?P<m2>{_MONTH})\.?\s+(?P<d2>\d{{1,2}}),?\s+(?P<y2>\d{{4}})\b)"
    rf"|(?P<date_iso>\b(?P<y3>\d{{4}})-(?P<m3>\d{{2}})-(?P<d3>\d{{2}})\b)"
    rf"|(?P<month_year>\b(?P<m4>{_MONTH})\.?\s+(?P<y4>\d{{4}})\b)"
    rf"|(?P<cur>[€$£])\s?(?P<cnum>{_NUM})"
    rf"|(?<![\w.-])(?P<num>{_NUM})(?![\w-]*\d)(?:\s?(?P<unit>%|°\s?[CF]\b|[A-Za-z]+(?:\s(?:per|a)\s[A-Za-z]+)?))?",
    re.IGNORECASE)
UNIT_ALIASES = {
    "percent": "%", "per cent": "%", "hrs": "hour", "hr": "hour", "h": "hour", "mins": "minute", "min": "minute",
    "secs": "second", "sec": "second", "s": "second", "kilograms": "kg", "kilogram": "kg", "grams": "g",
    "metres": "m", "meters": "m", "metre": "m", "meter": "m", "kilometres": "km", "kilometers": "km",
    "eur": "euro", "€": "euro", "usd": "dollar", "$": "dollar", "£": "pound", "gbp": "pound", "yrs": "year",
    "watts": "w", "watt": "w", "volts": "v", "volt": "v", "°c": "°c", "° c": "°c",
}
# Words after a number that say nothing about what is counted: the number is compared as a bare count.
_NOT_UNITS = {"and", "or", "to", "of", "in", "on", "at", "by", "for", "the", "a", "an", "is", "was", "are",
              "were", "with", "from", "as", "that", "which", "than", "after", "before", "per"}


@dataclass(frozen=True)
class Quantity:
    """A number or date in a sentence: its kind/unit (what is compared), value and span in the sentence."""

    unit: str
    value: float | tuple[int, ...]
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Fact:
    """An atomic fact: one statement of a passage."""

    id: str
    passage: Passage
    text: str


def sentences(text: str) -> list[str]:
    """Sentences of a passage (a regex split that keeps decimals and common abbreviations whole)."""
    out: list[str] = []
    for part in _SENTENCE.split(text):
        part = part.strip()
        if not part:
            continue
        if out and _ABBREV.search(out[-1]):
            out[-1] = f"{out[-1]} {part}"
        else:
            out.append(part)
    return out


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def _unit(word: str) -> str:
    w = word.lower().strip()
    w = UNIT_ALIASES.get(w, w)
    if " per " in w or " a " in w:
        head, _, rest = w.partition(" per " if " per " in w else " a ")
        return f"{_unit(head)}/{_unit(rest)}"
    if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
        w = w[:-1]  # plural
    return UNIT_ALIASES.get(w, w)


def quantities(sentence: str) -> list[Quantity]:
    """The numbers and dates a sentence states, each with the kind or unit it is compared under.

    Codes such as "IP68", "X200" or "AX-3" are no quantities (a digit glued to letters or a hyphen).
    A four-digit number between 1000 and 2199 with no unit is a year.
    """
    out: list[Quantity] = []
    for m in _QUANTITY.finditer(sentence):
        g = m.groupdict()
        text = m.group(0).strip()
        if g["date_dmy"] or g["date_mdy"] or g["date_iso"]:
            y = int(g["y1"] or g["y2"] or g["y3"])
            mon = g["m1"] or g["m2"] or g["m3"]
            month = int(mon) if mon.isdigit() else MONTHS.get(mon.lower(), 0) or _short_month(mon)
            day = int(g["d1"] or g["d2"] or g["d3"])
            out.append(Quantity("date", (y, month, day), m.start(), m.end(), text))
        elif g["month_year"]:
            out.append(Quantity("month", (int(g["y4"]), _short_month(g["m4"])), m.start(), m.end(), text))
        elif g["cur"]:
            out.append(Quantity(_unit(g["cur"]), _number(g["cnum"]), m.start(), m.end(), text))
        else:
            num = g["num"]
            unit = g["unit"] or ""
            first = unit.split()[0].lower() if unit else ""
            if first in _NOT_UNITS or not unit:
                end = m.start() + len(num)
                value = _number(num)
                is_year = re.fullmatch(r"\d{4}", num) and 1000 <= value <= 2199
                out.append(Quantity("calendar year" if is_year else "count", (int(value),) if is_year else value,
                                    m.start(), end, num))
            else:
                out.append(Quantity(_unit(unit), _number(num), m.start(), m.end(), text))
    return out


def _short_month(name: str) -> int:
    key = name.lower().rstrip(".")
    return next((i for m, i in MONTHS.items() if m.startswith(key[:3])), 0)


def rule_facts(passages: Sequence[Passage]) -> list[Fact]:
    """Every sentence that states a number or a date, as a fact of its passage."""
    out: list[Fact] = []
    for p in passages:
        for i, s in enumerate(sentences(p.text), 1):
            if quantities(s):
                out.append(Fact(f"{p.id}/{i}", p, s))
    return out


FACTS_SCHEMA = {
    "type": "object",
    "properties": {"facts": {"type": "array", "items": {"type": "string", "minLength": 1}, "maxItems": 30}},
    "required": ["facts"],
    "additionalProperties": False,
}

FACTS_PROMPT = (
    "Split the passage below into atomic facts: short, self-contained statements, each with one piece of "
    "information, with pronouns replaced by the names they stand for, in the passage's own words where "
    "possible. Leave out instructions and opinions.\n\nDocument: {file}\nSection: {heading}\nPassage:\n{text}\n\n"
    'Reply with a JSON object {{"facts": ["...", ...]}}.')


async def llm_facts(llm: LLM, passages: Sequence[Passage], on_done: Callable[[int], None] | None = None
                    ) -> tuple[list[Fact], list[str]]:
    """The atomic facts of every passage, asked of ``llm`` concurrently; and one line per failed passage."""
    import asyncio

    async def one(p: Passage) -> tuple[Passage, list[str] | str]:
        msg = [{"role": "user", "content": FACTS_PROMPT.format(file=p.file, heading=p.heading or "-", text=p.text)}]
        try:
            reply = await complete_json(llm, msg, FACTS_SCHEMA, schema_name="facts")
            return p, [f.strip() for f in reply.value["facts"] if f.strip()]
        except LLMError as e:
            return p, f"{p.id}: fact extraction failed: {e}"
        finally:
            if on_done:
                on_done(1)

    facts: list[Fact] = []
    failed: list[str] = []
    for p, got in await asyncio.gather(*(one(p) for p in passages)):
        if isinstance(got, str):
            failed.append(got)
        else:
            facts += [Fact(f"{p.id}/{i}", p, t) for i, t in enumerate(got, 1)]
    return facts, failed
