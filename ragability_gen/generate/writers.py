"""Who writes a generated context: one small writer interface, selected by name.

A writer proposes one candidate per attempt; on a retry it sees its earlier replies and why each was
rejected (for the LLM writer, as the continued conversation). Writers that need no model register
themselves by name with :func:`register_writer` (the offline ``rules`` writer is one); any other name is
a model, reached through the one LLM layer. So the command never branches on a writer's name, and a test
plugs in a scripted OpenAI-compatible server exactly as a user plugs in a real endpoint.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ragability_gen.generate.tasks import ContextTask
from ragability_gen.generate.textrules import checkable
from ragability_gen.llm.client import LLM, Completion, Message, read_json_reply

CANDIDATE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"context": {"type": "string", "minLength": 1, "maxLength": 600}},
    "required": ["context"],
    "additionalProperties": False,
}

# No placeholder reply such as {"context": "<the passage>"}: small models copy it verbatim.
WRITER_SYSTEM = (
    "You write short passages for a test set that checks how language models deal with contradicting "
    'sources. Follow every requirement exactly. Reply with only a JSON object whose one field, "context", '
    "holds the passage you wrote.")

STYLE_RULES = (
    "- is one or two sentences long;\n"
    "- is worded differently from every context above: not a copy and not a light edit;\n"
    "- states facts directly: it does not mention contexts, passages, sources, records or the question, "
    "and does not repeat the question.")


def shown(contexts: Mapping[str, str]) -> str:
    """The contexts as the writer and the verifier see them: one ``Context <id>: <text>`` line each."""
    return "\n".join(f"Context {cid}: {text}" for cid, text in contexts.items())


def writer_prompt(task: ContextTask) -> str:
    """The user message asking for the context, stating every constraint it will be checked against."""
    head = f"Question: {task.query}\n\n{shown(task.contexts)}\n\n"
    if task.carries is not None:
        aid, answer = task.carries
        said = "".join(f"According to context {cid} the answer is: {a.short} ({a.long})\n"
                       for cid, a in task.context_answers.items())
        wants = "".join(f"- agrees with context {c}: everything it says is compatible with context {c};\n"
                        for c in task.agrees)
        wants += "".join(f"- contradicts context {c}: it cannot be true if context {c} is true;\n"
                         for c in task.contradicts)
        carry = (f'- contains the exact words "{answer.short}";\n' if checkable(answer.short)
                 else f'- supports the answer "{answer.short}" ({answer.long});\n')
        banned = [f'"{a.short}"' for a in task.avoids.values() if checkable(a.short)]
        avoid = f"- does not contain the words {' or '.join(banned)};\n" if banned else ""
        return (head + (said + "\n" if said else "") + f"Write context {task.cid}, a new passage that:\n"
                + wants + carry + avoid + STYLE_RULES)
    banned = [f'"{a.short}"' for a in task.avoids.values() if checkable(a.short)]
    avoid = f"- does not contain the words {' or '.join(banned)};\n" if banned else ""
    return (head + "Some of these contexts contradict each other on purpose.\n\n"
            f"Write context {task.cid}, a new passage that:\n"
            "- gives a plausible background fact about the people, places or things the question is about;\n"
            "- is compatible with every context above: it contradicts none of them;\n"
            "- does not answer the question, not even partly;\n"
            f"{avoid}{STYLE_RULES}")


@dataclass(frozen=True)
class Turn:
    """An earlier attempt, as a writer sees it on a retry."""

    reply: str
    problems: tuple[str, ...]
    invalid: bool


def feedback(task: ContextTask, turn: Turn) -> str:
    """The message that sends a rejected reply back: the errors of an invalid one, or why a candidate failed."""
    if turn.invalid:
        return ("That reply is not valid: " + "; ".join(turn.problems)
                + '. Reply again with only a JSON object whose one field, "context", holds the passage.')
    reasons = "\n".join(f"- {p}" for p in turn.problems)
    return (f"That context {task.cid} was rejected:\n{reasons}\n"
            f"Write a new context {task.cid} that fixes these problems and meets every requirement. "
            "Reply with only the JSON object.")


@dataclass
class Draft:
    """One attempt's candidate (None when the reply is not a valid JSON object) and the raw reply."""

    text: str | None
    reply: str
    problems: list[str]
    completion: Completion | None = None
    exhausted: bool = False  # the writer has no further candidate to offer


class Writer(Protocol):
    """Proposes candidates for a context; ``history`` holds the earlier, rejected attempts."""

    name: str

    async def write(self, task: ContextTask, history: Sequence[Turn]) -> Draft: ...


WRITERS: dict[str, Callable[[], Writer]] = {}
"""Writers that need no model, by the name ``--llm`` selects them with."""


def register_writer(name: str) -> Callable[[Callable[[], Writer]], Callable[[], Writer]]:
    """Register a writer that needs no model (a class or factory taking no arguments) under ``name``."""
    def deco(make: Callable[[], Writer]) -> Callable[[], Writer]:
        WRITERS[name] = make
        return make
    return deco


def needs_model(name: str) -> bool:
    """True when ``name`` is a model (any name no offline writer is registered under)."""
    return name not in WRITERS


def open_writer(name: str, models: Mapping[str, LLM]) -> Writer:
    """The writer called ``name``: a registered offline writer, else the LLM writer over ``models[name]``."""
    make = WRITERS.get(name)
    return make() if make is not None else LLMWriter(models[name])


class LLMWriter:
    """Asks a model for the context as a JSON object; a retry continues the conversation with the reasons."""

    def __init__(self, llm: LLM):
        self.llm = llm
        self.name = llm.spec.alias

    async def write(self, task: ContextTask, history: Sequence[Turn]) -> Draft:
        messages: list[Message] = [{"role": "system", "content": WRITER_SYSTEM},
                                   {"role": "user", "content": writer_prompt(task)}]
        for turn in history:
            messages += [{"role": "assistant", "content": turn.reply},
                         {"role": "user", "content": feedback(task, turn)}]
        done = await self.llm.complete(messages, schema=CANDIDATE_SCHEMA, schema_name=f"context_{task.cid}")
        value, errors = read_json_reply(done.text, CANDIDATE_SCHEMA)
        if errors:
            return Draft(None, done.text, [f"invalid reply: {'; '.join(errors)}"], done)
        return Draft(" ".join(value["context"].split()), done.text, [], done)
