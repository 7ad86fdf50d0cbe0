"""Asking one check of several checker models, keeping each verdict.

The first checker's verdict fills the check's usual fields (``result``, ``error``, ``response``,
``llm``, ``cost``), so eval and python-ragability read a file checked by several checkers as one
checked by the first. With more than one checker, ``checkers`` lists every checker's verdict, the
first included, as ``{llm, result, error, response, cost}``; ``cost`` in the usual fields is then the
sum over the checkers. ``ragability_gen.calibrate.verdicts`` reads them back, with the majority vote.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

from ragability_gen.errors import LLMError, LLMSetupError
from ragability_gen.llm.client import LLM, Message

Apply = Callable[[dict[str, Any], str], tuple[Any, str]]
"""Runs a check's function on a reply: (result, "") or (None, why it could not be read)."""


async def _ask_one(checker: LLM, check: dict[str, Any], messages: Sequence[Message],
                   apply: Apply) -> tuple[dict[str, Any], str | None]:
    try:
        done = await checker.complete(messages)
    except LLMSetupError:
        raise  # every request would fail the same way: stop the run (the journal keeps what is done)
    except LLMError as e:
        return {"result": None, "error": e.problems[0], "llm": checker.spec.alias, "cost": 0.0}, \
            "checker requests failed"
    result, error = apply(check, done.text)
    return ({"result": result, "error": error, "response": done.text, "llm": checker.spec.alias, "cost": done.cost},
            "unreadable checker replies" if error else None)


async def ask_checkers(checkers: Sequence[LLM], check: dict[str, Any], messages: Sequence[Message],
                       apply: Apply) -> tuple[dict[str, Any], list[str]]:
    """Send one filled checker prompt to every checker at once.

    Returns:
        The check's result fields (the first checker's, plus ``checkers`` when there are several) and
        the error kinds met, one per failing checker, for the run summary.
    """
    got = await asyncio.gather(*(_ask_one(c, check, messages, apply) for c in checkers))
    first, kinds = dict(got[0][0]), [k for _, k in got if k]
    if len(checkers) > 1:
        first["cost"] = sum(g["cost"] for g, _ in got)
        first["checkers"] = [{"llm": g["llm"], "result": g["result"], "error": g["error"],
                              "response": g.get("response", ""), "cost": g["cost"]} for g, _ in got]
    return first, kinds
