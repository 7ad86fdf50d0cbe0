"""Who writes and who judges a generated context: the LLM writer, the offline rules writer, the verifier.

A writer proposes one candidate per attempt; on a retry it sees its earlier replies and why each was
rejected (for the LLM writer, as the continued conversation). The verifier answers one yes/no question
per model check, bound to a JSON Schema, so every verdict comes with a reason that lands in the audit.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ragability_gen.core.model import Answer
from ragability_gen.generate.textrules import NO_FACT_ANSWERS, RuleVerdict, checkable, normalise, rule_checks
from ragability_gen.llm.client import LLM, Completion, Message, complete_json, read_json_reply

CANDIDATE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"context": {"type": "string", "minLength": 1, "maxLength": 600}},
    "required": ["context"],
    "additionalProperties": False,
}

# The reason comes first so that a model writing left to right reasons before it decides.
VERDICT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"reason": {"type": "string", "maxLength": 400},
                   "verdict": {"type": "string", "enum": ["yes", "no"]}},
    "required": ["reason", "verdict"],
    "additionalProperties": False,
}

# No placeholder reply such as {"context": "<the passage>"}: small models copy it verbatim.
WRITER_SYSTEM = (
    "You write short passages for a test set that checks how language models deal with contradicting "
    'sources. Follow every requirement exactly. Reply with only a JSON object whose one field, "context", '
    "holds the passage you wrote.")

VERIFIER_SYSTEM = (
    "You check passages for a test set. Read them, then answer the question about them. Reply with only a "
    'JSON object with two fields: "reason", one short sentence that explains your judgement, and "verdict", '
    'either "yes" or "no".')

STYLE_RULES = (
    "- is one or two sentences long;\n"
    "- is worded differently from every context above: not a copy and not a light edit;\n"
    "- states facts directly: it does not mention contexts, passages, sources or the question.")


@dataclass(frozen=True)
class ContextTask:
    """What one generated context must be.

    Attributes:
        cid: The id of the context to write ("3" or "4").
        kind: "agree" (agrees with context 1, contradicts context 2) or "neutral" (contradicts nothing,
            answers nothing).
        query: The instance's question.
        contexts: The contexts the new one relates to, by id (shown to the writer and the verifier).
        others: Every other context of the instance, by id: the new one must copy none of them.
        answer1: The answer context 1 supports.
        answer2: The answer context 2 supports.
    """

    cid: str
    kind: str
    query: str
    contexts: dict[str, str]
    others: dict[str, str]
    answer1: Answer
    answer2: Answer

    def rules(self, candidate: str) -> list[RuleVerdict]:
        """The rule checks for this context (see :func:`textrules.rule_checks`)."""
        answers = {"1": self.answer1.short, "2": self.answer2.short}
        if self.kind == "agree":
            return rule_checks(candidate, self.others, carries={"1": answers["1"]}, avoids={"2": answers["2"]},
                               query=self.query)
        return rule_checks(candidate, self.others, avoids=answers, query=self.query)


def _shown(contexts: dict[str, str]) -> str:
    return "\n".join(f"Context {cid}: {text}" for cid, text in contexts.items())


def writer_prompt(task: ContextTask) -> str:
    """The user message asking for the context, stating every constraint it will be checked against."""
    a1, a2 = task.answer1, task.answer2
    head = f"Question: {task.query}\n\n{_shown(task.contexts)}\n\n"
    if task.kind == "agree":
        carry = (f'- contains the exact words "{a1.short}";\n' if checkable(a1.short)
                 else f'- supports the answer of context 1 ("{a1.short}");\n')
        avoid = f'- does not contain the words "{a2.short}";\n' if checkable(a2.short) else ""
        return (head + f"According to context 1 the answer is: {a1.short} ({a1.long})\n"
                f"According to context 2 the answer is: {a2.short} ({a2.long})\n\n"
                f"Write context {task.cid}, a new passage that:\n"
                "- agrees with context 1: everything it says is compatible with context 1;\n"
                "- contradicts context 2: it cannot be true if context 2 is true;\n"
                f"{carry}{avoid}{STYLE_RULES}")
    banned = [f'"{a}"' for a in (a1.short, a2.short) if checkable(a)]
    avoid = f"- does not contain the words {' or '.join(banned)};\n" if banned else ""
    return (head + "Contexts 1 and 2 contradict each other on purpose.\n\n"
            f"Write context {task.cid}, a new passage that:\n"
            "- gives neutral background about the subject of the question;\n"
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
    name: str

    async def write(self, task: ContextTask, history: Sequence[Turn]) -> Draft: ...


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


_LEADING_YES_NO = re.compile(r"^\s*(?:yes|no)\s*[,;:.!-]\s*", re.I)
_NAME_WORD = r"[A-ZÀ-ÖØ-Þ][\w’'-]*"
_NAME = re.compile(rf"{_NAME_WORD}(?:\s+(?:(?:of|the|de|von|van|and)\s+)*{_NAME_WORD})*")
_QUESTION_WORDS = frozenset("""what which who whom whose when where why how in on at for from by to of is are was were
    do does did have has had can could may might must shall should will would according""".split())


def query_subject(query: str, avoid: Sequence[str] = ()) -> str | None:
    """The longest proper name in ``query`` (the first among equals) that holds none of ``avoid``."""
    names = []
    for m in _NAME.finditer(query):
        name = m.group(0)
        first, _, rest = name.partition(" ")
        if m.start() == 0 and first.lower() in _QUESTION_WORDS:
            name = re.sub(r"^(?:(?:of|the|de|von|van|and)\s+)*", "", rest)
        name = re.sub(r"[’']s$", "", name).strip()
        if name and not any(a and normalise(a) in normalise(name) for a in avoid):
            names.append(name)
    return max(names, key=lambda n: len(n.split()), default=None)


def rule_candidates(task: ContextTask) -> list[str]:
    """The rules writer's candidates, best first.

    Context 3 restates the long answer for context 1 (a leading "Yes,"/"No," dropped), then frames it in
    words of its own. The long answer often repeats context 1, so both can be near-copies; the last
    candidate then quotes the question with the short answer (unless that answer is "not stated" or the
    like: there is no fact to state). Context 4 names the query's subject in a statement that asserts
    nothing about it.
    """
    if task.kind == "agree":
        base = _LEADING_YES_NO.sub("", task.answer1.long).strip()
        if not base:
            return []
        base = base[0].upper() + base[1:]
        base = base if base[-1] in ".!" else base + "."
        inner = re.sub(r"^(The|An?) ", lambda m: m.group(0).lower(), base)
        out = [base, f"Independent records settle the matter: {inner}"]
        if normalise(task.answer1.short) not in NO_FACT_ANSWERS:
            out.append(f'Asked "{task.query.strip()}", the records give this answer: {task.answer1.short}.')
        return out
    subject = query_subject(task.query, [task.answer1.short, task.answer2.short])
    if subject is None:
        return ["This subject is covered in several archival records."]
    return [f"The name {subject} appears in several archival records.",
            f"Several archival records mention the name {subject}.",
            f"The name {subject} is recorded in more than one archive."]


class RuleWriter:
    """The offline writer (``--llm rules``): deterministic candidates from the instance's own fields."""

    name = "rules"

    async def write(self, task: ContextTask, history: Sequence[Turn]) -> Draft:
        candidates = rule_candidates(task)
        if len(history) >= len(candidates):
            return Draft(None, "", ["the rules generator has no further candidate"], exhausted=True)
        return Draft(candidates[len(history)], "", [])


@dataclass(frozen=True)
class ModelVerdict:
    """The verifier's answer to one model check."""

    check: str
    expected: str
    verdict: str
    reason: str

    @property
    def passed(self) -> bool:
        return self.verdict == self.expected

    def to_dict(self) -> dict[str, Any]:
        return {"check": self.check, "expected": self.expected, "verdict": self.verdict, "reason": self.reason,
                "passed": self.passed}


def model_checks(task: ContextTask, candidate: str) -> list[tuple[str, str, str]]:
    """The model checks for a candidate: (name, expected verdict, question with the passages)."""
    if task.kind == "agree":
        c1, c2 = task.contexts["1"], task.contexts["2"]
        return [
            ("consistent_with_context_1", "yes",
             f"Context 1: {c1}\nNew passage: {candidate}\n\nCan context 1 and the new passage both be true at the "
             "same time? Answer no only if they state conflicting facts."),
            ("contradicts_context_2", "yes",
             f"Context 2: {c2}\nNew passage: {candidate}\n\nDo context 2 and the new passage contradict each "
             "other, so that they cannot both be true?"),
        ]
    ids = "_".join(task.contexts)
    return [
        (f"consistent_with_contexts_{ids}", "yes",
         f"{_shown(task.contexts)}\nNew passage: {candidate}\n\nContexts 1 and 2 contradict each other on purpose. "
         "Is the new passage compatible with every context above, contradicting none of them?"),
        ("does_not_answer_query", "no",
         f"Question: {task.query}\nPassage: {candidate}\n\nCan the question be answered, fully or partly, from "
         "this passage alone?"),
    ]


class Verifier:
    """Runs the model checks of a candidate with one schema-bound question each, concurrently."""

    def __init__(self, llm: LLM, attempts: int = 3):
        self.llm = llm
        self.name = llm.spec.alias
        self.attempts = attempts

    async def verify(self, task: ContextTask, candidate: str) -> tuple[list[ModelVerdict], list[Completion]]:
        """Every model check's verdict and the completions they took.

        Raises:
            LLMError: a check got no valid verdict within the attempts, or the endpoint failed.
        """
        checks = model_checks(task, candidate)
        replies = await asyncio.gather(*(
            complete_json(self.llm, [{"role": "system", "content": VERIFIER_SYSTEM},
                                     {"role": "user", "content": question}],
                          VERDICT_SCHEMA, attempts=self.attempts, schema_name=f"verdict_{name}")
            for name, _, question in checks), return_exceptions=True)
        for r in replies:
            if isinstance(r, BaseException):
                raise r
        verdicts, completions = [], []
        for (name, expected, _), reply in zip(checks, replies, strict=True):
            assert not isinstance(reply, BaseException)
            verdicts.append(ModelVerdict(name, expected, reply.value["verdict"], reply.value["reason"].strip()))
            completions += reply.completions
        return verdicts, completions


def describe(verdict: ModelVerdict) -> str:
    """A failed model check as a reason line."""
    return f"verifier {verdict.check}: answered {verdict.verdict}, expected {verdict.expected} ({verdict.reason})"
