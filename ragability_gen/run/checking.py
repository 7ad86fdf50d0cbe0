"""Checking one result record: checker prompts, check functions, and python-ragability's way of doing both.

By default a check function reads replies strictly (see :mod:`ragability_gen.checkfuncs.basic`): a
reply that gives no clear verdict is a check error. ``compat="python-ragability"`` reproduces
python-ragability's ``ragability_check`` instead, for side-by-side comparison with published numbers:
its check functions (``affirmative`` is true only for a reply that is exactly "yes", "true" or
"positive"), its routing (a check goes to the checker when it has a ``query``, even an empty one), and
its prompt filling (``${check_for}`` left as it is when the check has none; its default checker prompt).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from ragability_gen.checkfuncs import CHECKS, CheckParseError
from ragability_gen.checkfuncs.basic import COMPAT_FUNCS
from ragability_gen.llm.client import LLM, Message
from ragability_gen.run.multicheck import ask_checkers

COMPAT_MODES = ("python-ragability",)

#: python-ragability's checker prompt, for checks that have a query but no prompt id.
DEFAULT_CHECK_PROMPT = {
    "pid": "default_check",
    "system": "You are an expert analyzing responses and how they related to desired facts or properties of the "
              "responses. You will be given the response following RESPONSE: and before QUERY:, and a query "
              "telling you what to analyze after QUERY:",
    "user": "RESPONSE: ${answer} QUERY: ${query}",
}
# python-ragability's own default prompt names the response ${response}, which it never fills in.
_COMPAT_DEFAULT_PROMPT = {**DEFAULT_CHECK_PROMPT, "user": "RESPONSE: ${response} QUERY: ${query}"}
_ROLES = ("system", "user", "assistant")


def fill_checker_prompt(prompt: dict[str, Any], answer: str, check_for: str | None, query: str,
                        compat: str | None = None) -> list[Message]:
    """Fill a checker prompt: ``${answer}`` (the testee's response), ``${check_for}``, ``${query}`` (the check's).

    With ``compat``, a check without ``check_for`` leaves ``${check_for}`` in the text, as python-ragability does.
    """
    out = []
    for role in _ROLES:
        if role in prompt:
            content = prompt[role].replace("${query}", query).replace("${answer}", answer)
            if check_for or not compat:
                content = content.replace("${check_for}", check_for or "")
            out.append({"role": role, "content": content})
    return out


def needs_checker(check: dict[str, Any], compat: str | None = None) -> bool:
    """Whether a check is answered by the checker model (else its function reads the testee's response)."""
    if compat:
        return check.get("query") is not None  # python-ragability: a query, even "", asks the checker
    return bool(check.get("pid") or check.get("query"))


def apply_check(check: dict[str, Any], text: str, compat: str | None = None) -> tuple[Any, str]:
    """Run a check's function on ``text``: (result, "") or (None, why it could not be read)."""
    name = check["func"]
    func = COMPAT_FUNCS.get(name, CHECKS[name].func) if compat else CHECKS[name].func
    try:
        return func(text, *(check.get("args") or []), **(check.get("kwargs") or {})), ""
    except CheckParseError as e:
        return None, f"{name}: cannot read the reply: {e}"


def checker_job(checkers: Sequence[LLM], rec: dict[str, Any], key: dict[str, str],
                prompt_map: dict[str, dict[str, Any]],
                compat: str | None = None) -> Callable[[], Awaitable[dict[str, Any]]]:
    """The job that runs every check of one result record and returns its journal entry.

    Several checkers each answer every check that asks a model (``multicheck``: the first one's verdict
    in the usual fields, all of them in ``checkers``).
    """
    async def one(check: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
        if rec["error"]:
            return {"result": None, "error": f"no response to check: {rec['error']}"}, ["checks without a response"]
        if not needs_checker(check, compat):
            result, error = apply_check(check, rec["response"], compat)
            return {"result": result, "error": error}, ["unreadable responses"] if error else []
        default = _COMPAT_DEFAULT_PROMPT if compat else DEFAULT_CHECK_PROMPT
        prompt = prompt_map[check["pid"]] if check.get("pid") else default
        messages = fill_checker_prompt(prompt, rec["response"], check.get("check_for"), check.get("query") or "",
                                       compat)
        return await ask_checkers(checkers, check, messages, lambda c, text: apply_check(c, text, compat))

    async def run() -> dict[str, Any]:
        got = await asyncio.gather(*(one(c) for c in rec.get("checks") or []))
        kinds = [k for _, ks in got for k in ks]
        return {**key, "checks": [g for g, _ in got], "failed": "checker requests failed" in kinds, "kinds": kinds}

    return run
