"""The verifier: a checker model as an NLI-style judge of each relation a generated context must meet.

One yes/no question per declared relation (agrees with, contradicts, gives the answer, answers nothing),
asked through the one LLM layer and bound to a JSON Schema, so every verdict comes with a reason that
lands in the audit. It runs only on candidates that passed the rule checks.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from ragability_gen.generate.tasks import ContextTask
from ragability_gen.generate.writers import shown
from ragability_gen.llm.client import LLM, Completion, complete_json

# The reason comes first so that a model writing left to right reasons before it decides.
VERDICT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"reason": {"type": "string", "maxLength": 400},
                   "verdict": {"type": "string", "enum": ["yes", "no"]}},
    "required": ["reason", "verdict"],
    "additionalProperties": False,
}

VERIFIER_SYSTEM = (
    "You check passages for a test set. Read them, then answer the question about them. Reply with only a "
    'JSON object with two fields: "reason", one short sentence that explains your judgement, and "verdict", '
    'either "yes" or "no".')


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
    """The model checks for a candidate, one per declared relation: (name, expected verdict, question)."""
    out = []
    for cid in task.agrees:
        out.append((f"consistent_with_context_{cid}", "yes",
                    f"Context {cid}: {task.contexts[cid]}\nNew passage: {candidate}\n\nCan context {cid} and the new "
                    "passage both be true at the same time? Answer no only if they state conflicting facts."))
    for cid in task.contradicts:
        out.append((f"contradicts_context_{cid}", "yes",
                    f"Context {cid}: {task.contexts[cid]}\nNew passage: {candidate}\n\nDo context {cid} and the new "
                    "passage contradict each other, so that they cannot both be true?"))
    if task.carries is not None:
        aid, answer = task.carries
        out.append((f"gives_answer_{aid}", "yes",
                    f"Question: {task.query}\nPassage: {candidate}\n\nRead alone, does the passage answer the "
                    f"question with this answer: {answer.short} ({answer.long})?"))
        return out
    ids = "_".join(task.contexts)
    out += [
        (f"consistent_with_contexts_{ids}", "yes",
         f"{shown(task.contexts)}\nNew passage: {candidate}\n\nSome of these contexts contradict each other on "
         "purpose. Is the new passage compatible with every context above, contradicting none of them?"),
        ("does_not_answer_query", "no",
         f"Question: {task.query}\nPassage: {candidate}\n\nCan the question be answered, fully or partly, from "
         "this passage alone?"),
    ]
    return out


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
