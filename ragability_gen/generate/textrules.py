"""Rule checks on a generated context: plain-text tests that need no model.

Every candidate context is checked here before a verifier model sees it, so obvious failures (too long,
a copy of another context, the wrong answer in it) cost no model call. All comparisons use normalised
text (:func:`normalise`): case-folded, punctuation dropped except inside numbers, white space collapsed.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

MAX_SENTENCES = 2
MIN_WORDS = 3

#: A candidate is a near-copy of a context when the difflib ratio of their normalised word sequences (or of
#: a sentence of each) is at or above this, or when it holds this share of the context's words as one
#: unbroken run. 0.8 means about one word in five changed: a light edit of a 10-word context (two words
#: swapped or replaced) is caught, and so is the context with a clause added before or after it.
NEAR_COPY = 0.8

#: Short answers (normalised) saying the context has none: no passage can state them as a fact.
NO_FACT_ANSWERS = frozenset({"none", "unknown", "not known", "not stated", "not given", "not mentioned",
                             "not specified", "no answer", "n a"})

#: Answers a passage cannot be tested for by string: the verifier judges them instead.
UNCHECKABLE_ANSWERS = NO_FACT_ANSWERS | {"yes", "no", "true", "false"}

#: Words before a full stop that do not end a sentence (lower case, without the stop).
ABBREVIATIONS = frozenset("""
    mr mrs ms messrs dr prof st mt ft jr sr snr jnr sen rep gov gen col capt cpt lt sgt maj cmdr adm rev hon fr br
    mme mlle no nos vol vols fig figs p pp ed eds ch chap sec art para approx ca cf etc vs al est dept univ inc
    ltd co corp bros assn ave blvd rd ln hwy jan feb mar apr jun jul aug sep sept oct nov dec e.g i.e a.m p.m
    u.s u.k viz
""".split())

_BOUNDARY = re.compile(r"([.!?]+|\.{3}|…)([\"'”’)\]]*)\s+(?=[\"'“‘(\[]?[A-Z0-9À-ÖØ-Þ])")
_SENTENCE = re.compile(r"^[\"'“‘(\[]?[A-Z0-9À-ÖØ-Þ].*[.!?][\"'”’)\]]*$", re.S)
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_DECIMAL = re.compile(r"(?<=\d)\.(?=\d)")
_PUNCT = re.compile(r"[^\w\s\x00]|_")
_ARTICLES = ("a", "an", "the")
_REFERENCE = re.compile(
    r"\b(?:contexts?|passages?|source texts?|snippets?)\s*(?:_|#|no\.?\s*)?\d+\b"
    r"|\b(?:above|given|provided|previous|following)\s+(?:contexts?|passages?|snippets?|texts?)\b"
    r"|\baccording to the (?:contexts?|passages?|snippets?|texts?)\b"
    r"|\bthe (?:question|query)\b",
    re.I)
#: Words that cite a source without naming one ("the records give", "several sources"): allowed only when the
#: instance's own text uses them ("customer records").
_GENERIC_SOURCE = re.compile(r"\b(?:records?|sources?|documents?|archives?|archival)\b", re.I)

#: A candidate leaks the question when it holds this share of the question's words as one unbroken run.
QUESTION_RUN = 0.7


def normalise(text: str) -> str:
    """Case-folded text without punctuation (kept inside numbers: 4.2, 15,000 -> 15000), one space apart."""
    t = unicodedata.normalize("NFKC", text).casefold()
    t = _THOUSANDS.sub("", t)
    t = _DECIMAL.sub("\x00", t)
    t = _PUNCT.sub(" ", t).replace("\x00", ".")
    return " ".join(t.split())


def words(text: str) -> list[str]:
    """The normalised words of ``text``."""
    return normalise(text).split()


def split_sentences(text: str) -> list[str]:
    """Sentences of ``text``, not fooled by abbreviations (Dr., St., e.g.), initials or decimals.

    A boundary is ., ! or ? (closing quotes or brackets may follow), then white space, then a capital
    letter or digit. A full stop after a known abbreviation or a single letter is not a boundary.
    """
    out: list[str] = []
    start = 0
    for m in _BOUNDARY.finditer(text):
        if m.group(1) == ".":
            before = text[start:m.start()].split()
            word = before[-1].lstrip("\"'“‘([").lower().rstrip(".") if before else ""
            if word in ABBREVIATIONS or re.fullmatch(r"[^\W\d_]", word) or re.fullmatch(r"(?:\w\.)+\w", word):
                continue
        out.append(text[start:m.end()].strip())
        start = m.end()
    tail = text[start:].strip()
    if tail:
        out.append(tail)
    return out


def similarity(a: str, b: str) -> float:
    """difflib's ratio of the normalised word sequences: 1.0 for the same words in the same order."""
    return SequenceMatcher(None, words(a), words(b), autojunk=False).ratio()


def copy_similarity(a: str, b: str) -> float:
    """The highest :func:`similarity` between ``a`` or one of its sentences and ``b`` or one of its sentences.

    Comparing sentences too catches a context copied into a longer candidate as one of its sentences.
    """
    parts_a = [a, *split_sentences(a)]
    parts_b = [b, *split_sentences(b)]
    return max(similarity(x, y) for x in parts_a for y in parts_b)


def copied_run(candidate: str, other: str) -> float:
    """The share of ``other``'s words that ``candidate`` holds as one unbroken run (1.0: all of it, verbatim)."""
    a, b = words(candidate), words(other)
    if not b:
        return 0.0
    match = SequenceMatcher(None, a, b, autojunk=False).find_longest_match(0, len(a), 0, len(b))
    return match.size / len(b)


def _complete(sentence: str) -> bool:
    return bool(_SENTENCE.match(sentence)) and len(words(sentence)) >= MIN_WORDS


def _clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."


def answer_words(answer: str) -> list[str]:
    """The words a passage must contain to carry ``answer``: normalised, a leading article dropped."""
    w = words(answer)
    return w[1:] if len(w) > 1 and w[0] in _ARTICLES else w


def checkable(answer: str) -> bool:
    """False for answers no passage can be tested for by string (yes, no, not stated, ...)."""
    return bool(answer_words(answer)) and normalise(answer) not in UNCHECKABLE_ANSWERS


def _same_word(a: str, b: str) -> bool:
    return a == b or a in (b + "s", b + "es") or b in (a + "s", a + "es")


def find_answer(text_words: Sequence[str], answer: str) -> list[tuple[int, int]]:
    """Word spans where ``answer`` occurs in ``text_words`` (a plural -s/-es on any word is allowed)."""
    target = answer_words(answer)
    n = len(target)
    return [(i, i + n) for i in range(len(text_words) - n + 1)
            if all(_same_word(text_words[i + k], target[k]) for k in range(n))]


@dataclass(frozen=True)
class RuleVerdict:
    """One rule check: its name, whether it passed, and why it failed or was not checked."""

    check: str
    passed: bool
    reason: str = ""

    def to_dict(self) -> dict[str, object]:
        return {"check": self.check, "passed": self.passed, **({"reason": self.reason} if self.reason else {})}


def _question_leak(candidate: str, query: str) -> str | None:
    """Why ``candidate`` quotes or repeats the question, or None."""
    if "?" in candidate:
        return "it contains a question mark: a context states facts and quotes no question"
    if query.strip() and (run := copied_run(candidate, query)) >= QUESTION_RUN:
        return f"it repeats the question ({run:.0%} of its words in one run; a leak from {QUESTION_RUN:.0%})"
    return None


def rule_checks(candidate: str, others: Mapping[str, str], carries: Mapping[str, str] | None = None,
                avoids: Mapping[str, str] | None = None, query: str = "") -> list[RuleVerdict]:
    """Check a candidate context against the rules every generated context must meet.

    Args:
        candidate: The generated text.
        others: The instance's other contexts by id; the candidate must not copy or nearly copy one.
        carries: Answers (by answer id) the candidate must contain.
        avoids: Answers the candidate must not contain (an occurrence inside a carried answer is allowed).
        query: The question. An answer it names (a choice: "Pellis or Vessaly?") is not tested for its
            absence, since naming an option does not answer the question; the verifier judges it.

    Returns:
        One verdict per rule, in a fixed order; the candidate passes when every verdict passed.
    """
    carries, avoids = carries or {}, avoids or {}
    if not candidate.strip():
        return [RuleVerdict("not_empty", False, "the passage is empty")]
    out = []
    sentences = split_sentences(candidate)
    n = len(sentences)
    out.append(RuleVerdict("sentences", n <= MAX_SENTENCES,
                           "" if n <= MAX_SENTENCES else f"{n} sentences; at most {MAX_SENTENCES} allowed"))
    broken = next((s for s in sentences if not _complete(s)), None)
    out.append(RuleVerdict("complete_sentences", broken is None, "" if broken is None else
                           f"not a complete sentence: {_clip(broken)!r} (a sentence starts with a capital letter "
                           f"or a digit, has at least {MIN_WORDS} words and ends with a full stop)"))
    question = candidate.rstrip().rstrip("\"'”’)").endswith("?")
    out.append(RuleVerdict("statement", not question, "it is a question, not a statement" if question else ""))
    ref = _REFERENCE.search(candidate)
    out.append(RuleVerdict("no_reference", ref is None,
                           f"it refers to the contexts ({ref.group(0)!r}) instead of stating facts" if ref else ""))
    leak = _question_leak(candidate, query)
    out.append(RuleVerdict("no_question", leak is None, leak or ""))
    own = set(words(" ".join([*others.values(), query])))
    generic = sorted({m.group(0).lower() for m in _GENERIC_SOURCE.finditer(candidate)
                      if normalise(m.group(0)) not in own})
    out.append(RuleVerdict("no_generic_source", not generic, f"it cites {', '.join(map(repr, generic))} without "
                                                             "naming a source the instance has" if generic else ""))
    copies = []
    for cid, text in others.items():
        if normalise(candidate) == normalise(text):
            copies.append(f"it copies context {cid}")
        elif (r := copy_similarity(candidate, text)) >= NEAR_COPY:
            copies.append(f"it is a near-copy of context {cid} (similarity {r:.2f}; near-copy from {NEAR_COPY})")
        elif (run := copied_run(candidate, text)) >= NEAR_COPY:
            copies.append(f"it repeats context {cid} ({run:.0%} of its words in one run; near-copy from "
                          f"{NEAR_COPY:.0%})")
    out.append(RuleVerdict("not_a_copy", not copies, "; ".join(copies)))
    cand_words = words(candidate)
    carried: list[tuple[int, int]] = []
    for aid, answer in carries.items():
        if not checkable(answer):
            out.append(RuleVerdict(f"carries_answer_{aid}", True, f"not checked: {answer!r} cannot be found by "
                                                                  "string; the verifier judges it"))
            continue
        spans = find_answer(cand_words, answer)
        carried += spans
        out.append(RuleVerdict(f"carries_answer_{aid}", bool(spans),
                               "" if spans else f"it does not contain answer {aid} ({answer!r})"))
    query_words = words(query)
    for aid, answer in avoids.items():
        if not checkable(answer):
            out.append(RuleVerdict(f"avoids_answer_{aid}", True, f"not checked: {answer!r} cannot be found by "
                                                                 "string; the verifier judges it"))
            continue
        if find_answer(query_words, answer):
            out.append(RuleVerdict(f"avoids_answer_{aid}", True, f"not checked: {answer!r} is named in the "
                                                                 "question; the verifier judges it"))
            continue
        spans = [s for s in find_answer(cand_words, answer)
                 if not any(a <= s[0] and s[1] <= b for a, b in carried)]
        out.append(RuleVerdict(f"avoids_answer_{aid}", not spans,
                               f"it contains answer {aid} ({answer!r})" if spans else ""))
    return out
