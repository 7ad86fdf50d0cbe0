"""An optional LLM reviewer of substituted instances (``--reviewer MODEL``).

The reviewer reads each substituted instance (every distinct text of one id) and answers, under a
JSON Schema, with the real-world names or recognisable facts it still finds, and the words that no
longer read as English (an ordinary word that was replaced by an invented name). Its findings are
not applied as free text edits: a name is applied only if it occurs in the original instance, as a
further entity of the same consistent mapping (all fields), and a broken word only if it is an
invented part, whose original is then kept. The instance is then rewritten and verified again like
any other, and the audit record says what the reviewer found and what changed. An instance whose
mapping was edited by hand (``--mapping-in``) keeps it: the reviewer's findings are recorded as ignored.

Requests go through the shared LLM layer: concurrent (the model's own limit), cached, retried, and
checked against the schema (an invalid reply is sent back once more with the errors).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ragability_gen.core.progress import Progress, emit
from ragability_gen.errors import LLMError
from ragability_gen.llm.client import LLM, complete_json

from .names import is_word

REVIEW_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["names", "not_english"],
    "properties": {
        "names": {"type": "array", "items": {"type": "string", "minLength": 1},
                  "description": "Real-world names or recognisable facts still in the texts, exactly as written."},
        "not_english": {"type": "array", "items": {"type": "string", "minLength": 1},
                        "description": "Words that do not read as English where they stand, exactly as written."},
    },
    "additionalProperties": False,
}

SYSTEM = (
    "You check texts that were anonymised: every real person, place, organisation, work, event and date was meant "
    "to be replaced by invented ones, so that nobody can tell which real-world case the texts are about. Invented "
    "names look like real names but name nothing real; leave them alone.\n"
    "Report, exactly as written in the texts:\n"
    "- names: every real-world name still present (people, places, countries, nationalities, organisations, "
    "titles of works, events, species), and any wording that still identifies the real case;\n"
    "- not_english: every word that no longer reads as English where it stands, because an ordinary English word "
    "(such as 'born', 'distance', 'their', 'winner') was replaced by an invented name.\n"
    "Reply with only a JSON object: {\"names\": [...], \"not_english\": [...]}; empty lists when all is well."
)


@dataclass
class Finding:
    """What the reviewer said about one instance id, and what of it was applied."""

    names: list[str] = field(default_factory=list)
    not_english: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    restored: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    error: str | None = None

    def record(self, model: str) -> dict[str, Any]:
        return {"model": model, "names": self.names, "not_english": self.not_english, "added": self.added,
                "restored": self.restored, "ignored": self.ignored, "error": self.error}


def messages(texts: Sequence[tuple[str, str]]) -> list[dict[str, str]]:
    """The request for one instance: its texts, each with its field name."""
    body = "\n\n".join(f"[{name}]\n{text}" for name, text in texts)
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": body}]


async def _review_one(llm: LLM, texts: Sequence[tuple[str, str]]) -> Finding:
    try:
        reply = await complete_json(llm, messages(texts), REVIEW_SCHEMA, attempts=2, schema_name="review")
    except LLMError as e:  # one instance without a review is no reason to stop the run
        return Finding(error=str(e))
    value = reply.value
    return Finding(names=list(dict.fromkeys(value["names"])), not_english=list(dict.fromkeys(value["not_english"])))


def review(llm: LLM, batches: Mapping[str, Sequence[tuple[str, str]]],
           on_progress: Progress | None = None) -> dict[str, Finding]:
    """Ask the reviewer about every instance id at once (the model bounds its own concurrency)."""

    async def run() -> dict[str, Finding]:
        done = 0

        async def one(key: str) -> tuple[str, Finding]:
            nonlocal done
            found = await _review_one(llm, batches[key])
            done += 1
            emit(on_progress, "review", done, len(batches))
            return key, found

        llm.connect()
        try:
            return dict(await asyncio.gather(*(one(k) for k in batches)))
        finally:
            await llm.aclose()

    return asyncio.run(run())


def occurs(phrase: str, texts: Iterable[str]) -> bool:
    """True when ``phrase`` occurs word-bounded, in any case, in one of ``texts``."""
    pattern = re.compile(r"(?<!\w)" + re.escape(phrase) + r"(?!\w)", re.IGNORECASE)
    return any(pattern.search(t) for t in texts)


def plan(finding: Finding, originals: Sequence[str], part_map: Mapping[str, str]) -> tuple[list[str], set[str]]:
    """The names to add and the original parts to keep, from one finding; fills its added/restored/ignored.

    A name counts when it occurs in the original texts; a broken word when it is an invented part whose
    original the dictionary writes in lower case ("born" taken for a name: it is then kept as it was). An
    invented part that stands for a name ("Charles", "Isaura") stays, however the reviewer reads it:
    restoring it would put the real name back.
    """
    inverse: dict[str, str] = {}
    for old, new in part_map.items():
        for w in new.split():
            inverse.setdefault(w.casefold(), old)
    add, keep = [], set()
    for name in finding.names:
        if occurs(name, originals):
            add.append(name)
            finding.added.append(name)
        else:
            finding.ignored.append(name)
    for word in finding.not_english:
        original = inverse.get(word.strip(".,;:!?\"'()").casefold())
        if original is not None and is_word(original):
            keep.add(original)
            finding.restored.append(word)
        else:
            finding.ignored.append(word)
    return add, keep

