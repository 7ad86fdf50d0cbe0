"""The canonical instance every stage passes along, and the typed shape of test items.

An instance is one query over a set of contexts whose relations to each other (agrees with,
contradicts) and to the query (the cXxq annotation, the answer a context supports) are declared,
not guessed. Converters build instances; substitution and generation rewrite them; compilation turns
them into test items.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict

if sys.version_info >= (3, 11):
    from typing import NotRequired
else:  # pragma: no cover
    from typing_extensions import NotRequired

if TYPE_CHECKING:
    from ragability_gen.core.specs import Spec

ANNOTATIONS = ("qeu", "qea", "qiu", "qia", "qn")
"""How a context relates to the query: explicit/implicit x unequivocal/ambiguous, or no information."""

REASONING_TYPES = ("categorical", "numerical", "temporal.numerical", "temporal.relational")


@dataclass(frozen=True)
class Context:
    """One passage of an instance.

    Attributes:
        id: Stable short id ("1", "2", ...); variants in a suite spec refer to contexts by it.
        text: The passage.
        annotation: Relation to the query (one of ANNOTATIONS), or None when not annotated.
        answer: Id of the answer this context supports, or None when it supports none.
        agrees: Ids of contexts this one agrees with.
        contradicts: Ids of contexts this one contradicts.
    """

    id: str
    text: str
    annotation: str | None = None
    answer: str | None = None
    agrees: tuple[str, ...] = ()
    contradicts: tuple[str, ...] = ()

    @property
    def answers_query(self) -> bool:
        """True when the context supports an answer and is not annotated as giving no information."""
        return self.answer is not None and self.annotation != "qn"


@dataclass(frozen=True)
class Answer:
    """The short (minimal) and long (maximal) answer a checker compares a response with."""

    short: str
    long: str


@dataclass(frozen=True)
class Provenance:
    """Where an instance came from: the source file, its first line or row, and the converter.

    ``spec`` is the loaded converter spec itself (never saved in files): it travels with the instance
    through substitution and generation, so a corpus is written back in the columns it came from.
    """

    source: str
    line: int
    converter: str
    spec: Spec | None = field(default=None, compare=False, repr=False)


@dataclass
class Instance:
    """One query over a set of related contexts.

    Attributes:
        id: The contradiction id; several instances (different queries) may share it.
        query: The question.
        contexts: Contexts by id, in declaration order; a context not filled in yet is absent.
        answers: Answers by id.
        reasoning: Reasoning types needed to see the contradiction.
        source_ids: Ids in the source data set (e.g. {"WikiContradict_ID": "42"}).
        metadata: Source fields copied verbatim onto every test item.
        tags: Extra tags the converter attaches to every test item.
        provenance: Where the instance was read from.
        variation: 1-based position among instances sharing ``id``.
    """

    id: str
    query: str
    contexts: dict[str, Context]
    answers: dict[str, Answer]
    reasoning: tuple[str, ...] = ()
    source_ids: dict[str, str] = field(default_factory=dict)
    metadata: dict[str, str] = field(default_factory=dict)
    tags: tuple[str, ...] = ()
    provenance: Provenance | None = None
    variation: int = 1

    def contradicting(self, a: str, b: str) -> bool:
        """True when context ``a`` and context ``b`` are declared to contradict (either direction)."""
        ca, cb = self.contexts.get(a), self.contexts.get(b)
        if ca is None or cb is None:
            return False
        return b in ca.contradicts or a in cb.contradicts

    def to_dict(self) -> dict[str, Any]:
        """The JSON form used in JSONL instance files (see schemas/instance.schema.json)."""
        out: dict[str, Any] = {
            "id": self.id,
            "query": self.query,
            "contexts": [
                {k: v for k, v in (
                    ("id", c.id), ("text", c.text), ("annotation", c.annotation), ("answer", c.answer),
                    ("agrees", list(c.agrees)), ("contradicts", list(c.contradicts)),
                ) if v not in (None, [])}
                for c in self.contexts.values()
            ],
            "answers": {k: {"short": a.short, "long": a.long} for k, a in self.answers.items()},
            "reasoning": list(self.reasoning),
            "source_ids": dict(self.source_ids),
            "metadata": dict(self.metadata),
            "tags": list(self.tags),
            "variation": self.variation,
        }
        if self.provenance is not None:
            p = self.provenance
            out["provenance"] = {"source": p.source, "line": p.line, "converter": p.converter}
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Instance:
        """Inverse of :meth:`to_dict`; ``d`` must already be schema-valid."""
        prov = d.get("provenance")
        return cls(
            id=d["id"],
            query=d["query"],
            contexts={
                c["id"]: Context(
                    id=c["id"], text=c["text"], annotation=c.get("annotation"), answer=c.get("answer"),
                    agrees=tuple(c.get("agrees", ())), contradicts=tuple(c.get("contradicts", ())),
                )
                for c in d["contexts"]
            },
            answers={k: Answer(a["short"], a["long"]) for k, a in d["answers"].items()},
            reasoning=tuple(d.get("reasoning", ())),
            source_ids=dict(d.get("source_ids", {})),
            metadata=dict(d.get("metadata", {})),
            tags=tuple(d.get("tags", ())),
            provenance=Provenance(prov["source"], prov["line"], prov["converter"]) if prov else None,
            variation=d.get("variation", 1),
        )


class Check(TypedDict):
    """One check of a test item, in the ragability format."""

    cid: str
    func: str
    metrics: list[str]
    query: NotRequired[str]
    pid: NotRequired[str]
    check_for: NotRequired[str]
    args: NotRequired[list[Any]]
    kwargs: NotRequired[dict[str, Any]]


class SuiteItem(TypedDict, total=False):
    """One test item in the ragability format; metadata fields copied from the corpus may follow."""

    qid: str
    tags: str
    facts: str | list[str]
    query: str
    pids: list[str]
    checks: list[Check]
