"""Multi-turn items: send an item's turn prompts one after another in one conversation.

An item with a ``turns`` field (prompt ids) is one task in several steps, such as the ranking suite's
detect -> select -> rank chain: turn 1 is sent, its reply is kept in the conversation as the
assistant's message, turn 2 follows it, and so on. The last reply is the item's response, checked like
any other; the whole conversation is kept in the result as ``transcript`` so a reader can see what the
earlier turns said. A turn that fails ends the conversation: the item gets the error, and the run's
resume retries the whole conversation (a half conversation would be checked against the wrong reply).

The query stage fills each turn's prompt (``run/core.py``) and calls :func:`converse`; this module
only holds the conversation, so the item's facts and query placeholders work in any turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ragability_gen.errors import LLMError, LLMSetupError
from ragability_gen.llm.client import LLM, Message


@dataclass
class Conversation:
    """The outcome of a multi-turn item: the last reply, every message sent and received, the cost, any error."""

    response: str = ""
    transcript: list[Message] = field(default_factory=list)
    cost: float = 0.0
    error: str = ""


def follow_up(messages: Sequence[Message]) -> list[Message]:
    """The messages of a later turn: a system message only opens a conversation, so it is dropped."""
    return [m for m in messages if m["role"] != "system"]


async def converse(llm: LLM, turns: Sequence[Sequence[Message]]) -> Conversation:
    """Send ``turns`` (each the filled messages of one turn prompt) in one conversation.

    Raises:
        LLMSetupError: the model cannot be used at all (missing key, refused credentials): every item
            would fail the same way, so the run stops.
    """
    out = Conversation()
    for n, turn in enumerate(turns, 1):
        out.transcript += list(turn) if n == 1 else follow_up(turn)
        try:
            done = await llm.complete(out.transcript)
        except LLMSetupError:
            raise
        except LLMError as e:
            out.error, out.response = f"turn {n} of {len(turns)}: {e.problems[0]}", ""
            return out
        out.cost += done.cost
        out.transcript.append({"role": "assistant", "content": done.text})
        out.response = done.text
    return out


def journal_record(key: dict[str, Any], talk: Conversation) -> dict[str, Any]:
    """The query stage's journal record of one multi-turn item (same fields as a single-turn one)."""
    if talk.error:
        return {**key, "response": "", "error": talk.error, "cost": talk.cost, "failed": True,
                "kinds": ["testee requests failed"], "transcript": talk.transcript}
    return {**key, "response": talk.response, "error": "", "cost": talk.cost, "transcript": talk.transcript}
