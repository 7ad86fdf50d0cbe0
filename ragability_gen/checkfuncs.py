"""Check functions: turn a (checker or testee) response into a result label or score.

Registered by decorator so suite specs can name them; the names and results ("1"/"0" for binary
checks) are those python-ragability uses, so suites stay interchangeable. Parsing is tolerant of
case, surrounding punctuation and a trailing explanation ("Yes. The passages disagree ..."), but a
response that says neither yes nor no is an error, never silently a "0".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


class CheckParseError(ValueError):
    """The response could not be read as the check expects."""


@dataclass(frozen=True)
class CheckFunc:
    """A registered check: the callable, its kind, positional-arg count, target and description."""

    name: str
    func: Callable[..., Any]
    kind: str
    nargs: int
    target: str
    description: str


CHECKS: dict[str, CheckFunc] = {}


def register_check(name: str, kind: str, nargs: int = 0, target: str = "1",
                   description: str = "") -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register a check function under ``name``; ``kind`` is binary, multiclass or score."""

    def deco(func: Callable[..., Any]) -> Callable[..., Any]:
        CHECKS[name] = CheckFunc(name, func, kind, nargs, target, description or (func.__doc__ or "").strip())
        return func

    return deco


_YES = {"yes", "true", "positive", "correct", "affirmative", "y"}
_NO = {"no", "false", "negative", "incorrect", "n"}
_WORD = re.compile(r"[a-z]+")


def yes_no(response: str) -> bool:
    """Read a yes/no answer from the first word of a response.

    Raises:
        CheckParseError: when the response starts with neither a yes nor a no word.
    """
    m = _WORD.search(response.strip().lower())
    word = m.group(0) if m else ""
    if word in _YES:
        return True
    if word in _NO:
        return False
    raise CheckParseError(f"expected a yes/no answer, got {response[:60]!r}")


@register_check("affirmative", "binary", description="1 if the response says yes (true, positive), else 0")
def affirmative(response: str) -> str:
    return "1" if yes_no(response) else "0"


@register_check("negative", "binary", description="1 if the response says no (false, negative), else 0")
def negative(response: str) -> str:
    return "0" if yes_no(response) else "1"


@register_check("unknown", "binary", description="1 if the response says it does not know")
def unknown(response: str) -> str:
    text = response.strip().lower().rstrip(".!")
    return "1" if text in {"unknown", "uncertain", "i do not know", "i don't know"} else "0"


@register_check("is_eq", "binary", 1, description="1 if the response equals the argument exactly")
def is_eq(response: str, target: str) -> str:
    return "1" if response == target else "0"


@register_check("is_textual_eq", "binary", 1, description="1 if equal ignoring case and surrounding space")
def is_textual_eq(response: str, target: str) -> str:
    return "1" if response.strip().lower() == target.strip().lower() else "0"


@register_check("contains", "binary", 1, description="1 if the response contains the argument")
def contains(response: str, target: str) -> str:
    return "1" if target in response else "0"


@register_check("extract_score", "score", description="the single number in the response")
def extract_score(response: str) -> float:
    numbers = re.findall(r"-?\d+(?:\.\d+)?", response)
    if len(numbers) != 1:
        raise CheckParseError(f"expected exactly one number, found {len(numbers)}")
    return float(numbers[0])
