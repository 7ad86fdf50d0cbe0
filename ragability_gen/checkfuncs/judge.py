"""The WikiContradict judge verdict: correct / partially correct / incorrect.

The judge prompt (checks/wikicontradict-prompts.hjson, pid ``wc_judge``) is the paper's few-shot prompt
(Appendix C): it ends with ``comment:``, so a judge usually writes a comment and then
``evaluation: <verdict>``. Comments mention verdict words too ("... is partially correct as it only
matched one answer"), so the verdict is read in three tiers, the first tier that finds one wins:

1. labelled: ``evaluation:`` or ``evaluation -`` (or verdict, judgement, assessment, grade, label,
   rating) followed by a verdict;
2. a line that is only a verdict, or starts with one followed by punctuation ("Partially correct. The ...");
3. a concluding phrase "the response / answer / it is <verdict>".

Within a tier, every verdict found must agree; two different verdicts, or none at all, raise
``CheckParseError`` so the check is reported as an error, never silently as "incorrect".
"not correct" reads as incorrect; "partly correct" as partially correct.
"""

from __future__ import annotations

import re

from ragability_gen.checkfuncs.basic import CheckParseError, _show, register_check

VERDICTS = ("correct", "partially correct", "incorrect")

_TERM = r"(partially\s+correct|partly\s+correct|incorrect|correct)"
_TERM_RE = re.compile(r"\b" + _TERM + r"\b")
_LABEL = re.compile(r"\b(?:final\s+)?(?:evaluation|verdict|judgement|judgment|assessment|grade|label|rating)"
                    r"\s*[:=\u2013\u2014-]\s*")
_BARE_LINE = re.compile(r"^[\s\"'(\[-]*(?:not\s+)?" + _TERM + r"\s*(?:[.!:;,)\]\"'\u2013\u2014-]|$)")
_PHRASE = re.compile(r"\b(?:response|answer|it)(?:\s+is|\s+was|'s)(?:n't)?"
                     r"(?:\s+(?:thus|therefore|hence|overall|so|not|also))*\s+" + _TERM + r"\b")
_NEGATED = re.compile(r"(?:\bnot|n't|\bnever)\s+$")
_MARKUP = re.compile(r"\*+|`+|(?<!\w)_+|_+(?!\w)|^[ \t]*(?:#+|>+)[ \t]*", re.M)


def _verdict(text: str, start: int, term: str, response: str) -> str:
    """The canonical verdict of the term at ``start``; a negation before it flips "correct" only."""
    word = term.split()[0]
    verdict = "partially correct" if word in ("partially", "partly") else word
    if _NEGATED.search(text[max(0, start - 12):start]):
        if verdict != "correct":
            raise CheckParseError(f"negated verdict 'not {verdict}' in {_show(response)}")
        verdict = "incorrect"
    return verdict


def _agree(found: list[str], response: str, how: str) -> str | None:
    verdicts = list(dict.fromkeys(found))
    if not verdicts:
        return None
    if len(verdicts) > 1:
        raise CheckParseError(f"contradictory verdicts ({' vs '.join(verdicts)}) {how} in {_show(response)}")
    return verdicts[0]


def parse_verdict(response: str) -> str:
    """Read the judge's verdict from its response.

    Returns:
        One of "correct", "partially correct", "incorrect".

    Raises:
        CheckParseError: when no verdict is found, or the response gives two different verdicts.
    """
    text = _MARKUP.sub("", response.lower().replace("\u2019", "'"))
    text = re.sub(r"[ \t\u00a0]+", " ", text)
    labelled = []
    for m in _LABEL.finditer(text):
        line_end = text.find("\n", m.end())
        # the label's \s* may cross a line break: "evaluation:\ncorrect" reads the next line
        hit = _TERM_RE.search(text, m.end(), len(text) if line_end < 0 else line_end)
        if hit:
            labelled.append(_verdict(text, hit.start(1), hit.group(1), response))
    verdict = _agree(labelled, response, "after evaluation labels")
    if verdict is None:
        bare = []
        offset = 0
        for line in text.split("\n"):
            hit = _BARE_LINE.match(line)
            if hit:
                bare.append(_verdict(text, offset + hit.start(1), hit.group(1), response))
            offset += len(line) + 1
        verdict = _agree(bare, response, "on verdict lines")
    if verdict is None:
        found = [_verdict(text, m.start(1), m.group(1), response) for m in _PHRASE.finditer(text)]
        verdict = _agree(found, response, "in the comment")
    if verdict is None:
        raise CheckParseError(f"no verdict (correct, partially correct, incorrect) in {_show(response)}")
    return verdict


@register_check("wc_judge", "multiclass", target="correct", labels=VERDICTS,
                description="The WikiContradict judge's verdict: correct, partially correct or incorrect")
def wc_judge(response: str) -> str:
    return parse_verdict(response)
