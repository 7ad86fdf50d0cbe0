"""Check functions for passage-ranking items: read a ranking or a conflicting pair from a reply.

A ranking reply lists passage ids, best first (RankGPT style ``[2] > [1] > [3]``). Ids are read in
three tiers, the first that finds any wins: bracketed ids (``[2]``), then named ids (``Passage 2``,
``paragraph 2``, ``passages 2 and 3``), then a reply that is only numbers (``2 > 1 > 3``, ``2, 1, 3``);
numbers elsewhere in free text ("the 10 passages") are never read as ids. A repeated id counts at its first place, ids
outside 1..m are dropped, and ids left out are ranked below every listed one (they gain nothing). A
reply with no id in range is an error (``CheckParseError``), never an empty ranking.

A pair reply names two passages (``[1] and [4]``) or says ``None``; one id, three ids, or both ids and
"None" are errors. The metric arithmetic lives in ``evaluate/ranking.py``.
"""

from __future__ import annotations

import re
from typing import Any

from ragability_gen.checkfuncs.basic import CheckParseError, _show, register_check

_BRACKETED = re.compile(r"\[\s*(?:passage\s*|id\s*)?(\d+)\s*\]", re.I)
# "Passage 2", and "Passages 2 and 3" / "passages 3, 1, 2": every number of the list after the word
_NAMED = re.compile(r"\b(?:passages?|paragraphs?|documents?|docs?|candidates?)\s*(?:#|no\.?|number)?\s*"
                    r"(\d+(?:\s*(?:,|;|>|&|\band\b)\s*\d+\b)*)", re.I)
_ONLY_NUMBERS = re.compile(r"^[\s\"'`*]*\d+(?:\s*(?:>+|,|;|\band\b|&|\s)\s*\d+)*[\s\"'`*.]*$", re.I)
_NONE = re.compile(r"\b(?:none|no\s+(?:conflict|conflicting|contradiction|pair))\b", re.I)


def passage_ids(response: str) -> list[int]:
    """Every passage id the reply names, in order, duplicates kept (see the module notes for the tiers)."""
    found = [int(m.group(1)) for m in _BRACKETED.finditer(response)]
    if not found:
        found = [int(n) for m in _NAMED.finditer(response) for n in re.findall(r"\d+", m.group(1))]
    if found:
        return found
    text = response.strip()
    if _ONLY_NUMBERS.match(text):
        return [int(n) for n in re.findall(r"\d+", text)]
    return []


def parse_ranking(response: str, m: int) -> list[int]:
    """The ranking a reply gives of passages 1..m: distinct ids in range, best first.

    Raises:
        CheckParseError: when the reply names no passage id in 1..m.
    """
    ranking = list(dict.fromkeys(i for i in passage_ids(response) if 1 <= i <= m))
    if not ranking:
        raise CheckParseError(f"expected a ranking of passages [1]..[{m}], got {_show(response)}")
    return ranking


def parse_pair(response: str, m: int) -> tuple[int, int] | None:
    """The conflicting pair a reply names among passages 1..m, or None when it says there is none.

    Raises:
        CheckParseError: when the reply names no pair and does not say None, names one id or more than
            two, or both names a pair and says None.
    """
    ids = list(dict.fromkeys(i for i in passage_ids(response) if 1 <= i <= m))
    says_none = bool(_NONE.search(response))
    if says_none and not ids:
        return None
    if says_none:
        raise CheckParseError(f"the reply names passages and also says none: {_show(response)}")
    if len(ids) != 2:
        what = "no passage id" if not ids else f"{len(ids)} passage ids"
        raise CheckParseError(f"expected one pair of passages in [1]..[{m}] or None, got {what} in {_show(response)}")
    return ids[0], ids[1]


def _is_int(x: Any, low: int = 1) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and x >= low


def _grades_problem(args: list[Any]) -> str | None:
    grades, k = args
    if not isinstance(grades, list) or not grades or not all(
            isinstance(g, (int, float)) and not isinstance(g, bool) and g >= 0 for g in grades):
        return f"rank_ndcg: argument 1 must be a non-empty list of relevance grades >= 0, got {grades!r}"
    if not _is_int(k):
        return f"rank_ndcg: argument 2 must be a cut-off k >= 1, got {k!r}"
    return None


def _top_problem(args: list[Any]) -> str | None:
    ids, m, k = args
    if not _is_int(m) or not _is_int(k):
        return f"rank_top_error: arguments 2 and 3 must be the passage count and k >= 1, got {m!r}, {k!r}"
    if not isinstance(ids, list) or not ids or not all(_is_int(i) and i <= m for i in ids):
        return f"rank_top_error: argument 1 must be a non-empty list of passage ids in 1..{m}, got {ids!r}"
    return None


def _pair_problem(args: list[Any]) -> str | None:
    pairs, m = args
    if not _is_int(m, 2):
        return f"pair_detected: argument 2 must be the passage count (>= 2), got {m!r}"
    ok = isinstance(pairs, list) and all(
        isinstance(p, list) and len(p) == 2 and all(_is_int(i) and i <= m for i in p) and p[0] != p[1] for p in pairs)
    if not ok:
        return f"pair_detected: argument 1 must be a list of pairs of distinct passage ids in 1..{m}, got {pairs!r}"
    return None


@register_check("rank_ndcg", "score", 2, args_check=_grades_problem,
                description="nDCG@k of the ranking in the response; args: relevance grades per passage, k")
def rank_ndcg(response: str, relevance: list[float], k: int) -> float:
    from ragability_gen.evaluate.ranking import ndcg  # here: the evaluate package is slow to import

    return ndcg(parse_ranking(response, len(relevance)), relevance, k)


@register_check("rank_top_error", "binary", 3, args_check=_top_problem,
                description="1 if a conflicting passage is in the top k of the ranking; args: conflicting ids, "
                            "passage count, k")
def rank_top_error(response: str, conflicting: list[int], m: int, k: int) -> str:
    from ragability_gen.evaluate.ranking import in_top

    return "1" if in_top(parse_ranking(response, m), conflicting, k) else "0"


@register_check("pair_detected", "binary", 2, args_check=_pair_problem,
                description="1 if the response names an expected conflicting pair (or None when none is "
                            "expected); args: expected pairs, passage count")
def pair_detected(response: str, pairs: list[list[int]], m: int) -> str:
    from ragability_gen.evaluate.ranking import pair_correct

    return "1" if pair_correct(parse_pair(response, m), pairs) else "0"
