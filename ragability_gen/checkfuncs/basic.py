"""Check functions: turn a (checker or testee) response into a result label or score.

Registered by decorator so suite specs can name them; the names, argument conventions and results
("1"/"0" for binary checks) are those python-ragability uses, so suites stay interchangeable. Yes/no
parsing tolerates what LLMs write around a verdict (markdown emphasis, quotes, a leading "Answer:",
a trailing explanation), but a response that says neither yes nor no, or both, raises
``CheckParseError``: an unreadable reply is a check error, never silently a "0" or a "1".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ragability_gen.core.registry import Registry


class CheckParseError(ValueError):
    """The response could not be read as the check expects."""


@dataclass(frozen=True)
class CheckFunc:
    """A registered check: the callable, its kind, positional-arg count, target and description.

    ``labels`` lists the results a multiclass check can give, in report order (empty: not fixed);
    ``argtypes`` says what each positional argument must be: "text" (a string) or "texts" (a
    non-empty list of strings), so a suite is checked before any check runs.
    """

    name: str
    func: Callable[..., Any]
    kind: str
    nargs: int
    target: str
    description: str
    labels: tuple[str, ...] = ()
    argtypes: tuple[str, ...] = ()
    #: for arguments "text"/"texts" cannot describe: says what is wrong with them, or None
    args_check: Callable[[list[Any]], str | None] | None = None

    def args_problem(self, args: Any) -> str | None:
        """Why ``args`` (a check's ``args`` field) cannot be given to this function, or None."""
        if not isinstance(args, list) or len(args) != self.nargs:
            return f"{self.name} takes {self.nargs} argument(s)"
        for i, (arg, kind) in enumerate(zip(args, self.argtypes, strict=False), 1):
            if kind == "text" and not isinstance(arg, str):
                return f"{self.name}: argument {i} must be a string, got {arg!r}"
            if kind == "texts" and not _is_texts(arg):
                return f"{self.name}: argument {i} must be a non-empty list of strings, got {arg!r}"
        return self.args_check(args) if self.args_check is not None else None


CHECKS: Registry[CheckFunc] = Registry("ragability_gen.checks", builtins=("ragability_gen.checkfuncs.judge",))
"""Check functions by name: these built-ins, the WikiContradict judge, and plugins (see core/registry.py)."""
CHECK_KINDS = ("binary", "multiclass", "score")


def register_check(name: str, kind: str, nargs: int = 0, target: str = "1", description: str = "",
                   labels: Sequence[str] = (), argtypes: Sequence[str] = (),
                   args_check: Callable[[list[Any]], str | None] | None = None,
                   ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register a check function under ``name``; ``kind`` is binary, multiclass or score."""
    if kind not in CHECK_KINDS:
        raise ValueError(f"check {name}: unknown kind {kind!r} (use one of {', '.join(CHECK_KINDS)})")
    if argtypes and (len(argtypes) != nargs or not set(argtypes) <= {"text", "texts"}):
        raise ValueError(f"check {name}: argtypes must name \"text\" or \"texts\" for each of its {nargs} arguments")

    def deco(func: Callable[..., Any]) -> Callable[..., Any]:
        CHECKS[name] = CheckFunc(name, func, kind, nargs, target, description or (func.__doc__ or "").strip(),
                                 tuple(labels), tuple(argtypes), args_check)
        return func

    return deco


_YES = {"yes", "yeah", "yep", "true", "positive", "correct", "affirmative"}
_NO = {"no", "nope", "false", "negative", "incorrect"}
_VERDICT = "yes|yeah|yep|true|positive|correct|affirmative|no|nope|false|negative|incorrect"
# Markdown emphasis, code ticks, headings, quote marks and list bullets around or before a verdict.
_MARKUP = re.compile(r"[*_`~]+|^[ \t]*(?:#+|>+|[-+\u2022]|\d+[.)])[ \t]+", re.M)
_LABEL = r"(?:final\s+)?(?:answer|response|verdict|result|decision|conclusion)"
_LEADING_LABELS = re.compile(r"^(?:[\s\"'(\[]*" + _LABEL + r"\s*[:=\u2013\u2014-]+)+")
# "The answer is yes." / "Answer: No" anywhere, the verdict ending its clause.
_LABELLED = re.compile(r"\b" + _LABEL + r"\s*(?:is|:|=|\u2013|\u2014|-)\s*[\"'(\[]*(" + _VERDICT
                       + r")(?=\s*(?:[.!?;:,)\]\"'\n]|$))")
# A leading verdict word counts only when its clause ends there ("Yes.", "No, ...", "Yes\n") or goes on
# as a sentence about the passages ("Yes it is", "No there is not", "No contradiction"). "No idea",
# "No way to tell", "No comment", "Yes and no" do not give a verdict.
_LEADING = re.compile(r"^[\W_]*(" + _VERDICT + r")(?=$|\s*[.!?;:,)\]\"'\n/\u2013\u2014-]|\s+(?:it|this|that|these|"
                      r"those|the|there|they|he|she|i|we|both|each|all|a|an|because|since|as|according|based|and|or|but|"
                      r"contradiction|conflict|inconsistency|discrepancy)\b)")
# A verdict standing alone as a clause ("Yes. ... No.", "yes and no", "yes/no", "No, wait, yes.").
_STANDALONE = re.compile(r"(?:^|[.!?;:,\n/]|\band\b|\bor\b|\bbut\b)\s*[\"'(\[]*(" + _VERDICT
                         + r")[\"')\]]*(?=\s*(?:[.!?;:,\n/]|$))")
# Hedges in the sentence that carries the verdict: "Yes it is impossible to say" is no verdict. Only the
# checker's own doubt counts (first person, "hard to say", "maybe"): a reason that describes the response
# ("No, the response says the question cannot be answered") is a reason, and checkers give it all the time.
_HEDGE = re.compile(
    r"\b(?:impossible|not possible|hard|difficult) to (?:say|tell|decide)\b|"
    r"\b(?:i|we) (?:cannot|can't|can not|could not|couldn't|am unable to|are unable to|don't|do not) "
    r"(?:say|tell|determine|know|decide|answer|be sure)\b|\bnot (?:sure|certain)\b|\bunsure\b|"
    r"\bit depends\b|\bno idea\b|\bmaybe\b|\bperhaps\b|\bpossibly\b")


def _normalise(response: str) -> str:
    text = response.lower().replace("\u2019", "'").replace("\u201c", '"').replace("\u201d", '"')
    return re.sub(r"[ \t\u00a0]+", " ", _MARKUP.sub("", text)).strip()


def _show(response: str) -> str:
    return repr(response if len(response) <= 80 else response[:77] + "...")


def _first_sentence(text: str) -> str:
    m = re.search(r"[.!?\n](?:\s|$)", text)
    return text[:m.start()] if m else text


def yes_no(response: str) -> bool:
    """Read a yes/no verdict: a leading verdict word, or a labelled verdict ("The answer is no.").

    Every verdict that stands as its own clause must agree, so "Yes and no" or "Yes. ... No." are
    errors, while "Yes, because there is no conflict" is a yes. A verdict word that does not end its
    clause ("No idea", "No comment") is no verdict, and neither is one hedged in the same sentence
    ("Yes, it is impossible to say").

    Raises:
        CheckParseError: when the response gives no verdict, hedges, or gives both.
    """
    text = _normalise(response)
    if text.rstrip(".!") in ("y", "n"):
        return text.startswith("y")
    found = [m.group(1) for m in _LABELLED.finditer(text)]
    body = _LEADING_LABELS.sub("", text).lstrip()
    lead = _LEADING.match(body)
    if lead:
        found.append(lead.group(1))
    if not found:
        raise CheckParseError(f"expected a yes/no answer, got {_show(response)}")
    if _HEDGE.search(_first_sentence(body)):
        raise CheckParseError(f"the response hedges instead of giving a verdict: {_show(response)}")
    found += [m.group(1) for m in _STANDALONE.finditer(text)]
    verdicts = {w in _YES for w in found}
    if len(verdicts) > 1:
        raise CheckParseError(f"the response says both yes and no: {_show(response)}")
    return verdicts.pop()


@register_check("affirmative", "binary", description="1 if the response says yes (true, positive), else 0")
def affirmative(response: str) -> str:
    return "1" if yes_no(response) else "0"


@register_check("negative", "binary", description="1 if the response says no (false, negative), else 0")
def negative(response: str) -> str:
    return "0" if yes_no(response) else "1"


@register_check("unknown", "binary", description="1 if the response says it does not know")
def unknown(response: str) -> str:
    text = _normalise(response).strip("\"' ").rstrip(".!")
    return "1" if text in {"unknown", "uncertain", "i do not know", "i don't know"} else "0"


def _is_texts(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(t, str) for t in value)


def _targets(name: str, targets: Any) -> list[str]:
    """The list argument of the *_oneof / contains_all checks; compile and validate catch a bad one
    earlier (``args_problem``), this guards direct calls."""
    if not _is_texts(targets):
        raise TypeError(f"{name}: the argument must be a non-empty list of strings, got {targets!r}")
    return targets


@register_check("is_eq", "binary", 1, argtypes=["text"], description="1 if the response equals the argument exactly")
def is_eq(response: str, target: str) -> str:
    return "1" if response == target else "0"


@register_check("is_textual_eq", "binary", 1, argtypes=["text"],
                description="1 if equal ignoring case and surrounding space")
def is_textual_eq(response: str, target: str) -> str:
    return "1" if response.strip().lower() == target.strip().lower() else "0"


@register_check("is_eq_oneof", "binary", 1, argtypes=["texts"],
                description="1 if the response equals one of a list of strings")
def is_eq_oneof(response: str, targets: list[str]) -> str:
    return "1" if response in _targets("is_eq_oneof", targets) else "0"


@register_check("is_textual_eq_oneof", "binary", 1, argtypes=["texts"],
                description="1 if the response equals one of a list of strings, ignoring case and surrounding space")
def is_textual_eq_oneof(response: str, targets: list[str]) -> str:
    text = response.strip().lower()
    return "1" if any(text == t.strip().lower() for t in _targets("is_textual_eq_oneof", targets)) else "0"


@register_check("contains", "binary", 1, argtypes=["text"], description="1 if the response contains the argument")
def contains(response: str, target: str) -> str:
    return "1" if target in response else "0"


@register_check("contains_oneof", "binary", 1, argtypes=["texts"],
                description="1 if the response contains one of a list of strings")
def contains_oneof(response: str, targets: list[str]) -> str:
    return "1" if any(t in response for t in _targets("contains_oneof", targets)) else "0"


@register_check("contains_all", "binary", 1, argtypes=["texts"],
                description="1 if the response contains every one of a list of strings")
def contains_all(response: str, targets: list[str]) -> str:
    return "1" if all(t in response for t in _targets("contains_all", targets)) else "0"


@register_check("extract_score", "score", description="the single number in the response")
def extract_score(response: str) -> float:
    numbers = re.findall(r"-?\d+(?:\.\d+)?", response)
    if len(numbers) != 1:
        raise CheckParseError(f"expected exactly one number, found {len(numbers)} in {_show(response)}")
    return float(numbers[0])


# python-ragability's readings (ragability/checks.py), for ``check --compat python-ragability``: a yes/no
# check is true only for a reply that is exactly the word, and every other reply is a silent "0".
def _compat_affirmative(response: str) -> str:
    return "1" if response.strip().lower() in ["yes", "true", "positive"] else "0"


def _compat_negative(response: str) -> str:
    return "1" if response.strip().lower() in ["no", "false", "negative"] else "0"


def _compat_extract_score(response: str) -> float:
    numbers = [float(s) for s in re.findall(r"-?\d+\.?\d*", response)]
    if len(numbers) != 1:
        raise CheckParseError(f"Expected exactly one number in the answer, got {len(numbers)}")
    return numbers[0]


#: The functions whose reading differs from python-ragability's, as python-ragability reads.
COMPAT_FUNCS: dict[str, Callable[..., Any]] = {
    "affirmative": _compat_affirmative, "negative": _compat_negative, "extract_score": _compat_extract_score,
}
