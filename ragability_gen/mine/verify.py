"""Verification: does a retrieved passage contradict a fact?

``RulesVerifier`` works offline for the commonest kind of inconsistency: numbers and dates that
disagree about the same subject. A sentence of the evidence passage is about the same subject when
it shares enough of the fact's content words, weighted by how rare each word is in the collection
(so the company name that every sentence repeats counts for little, and a product name much); it
disagrees when it states a quantity of the same unit or kind (kg, euro/day, year, date, ...) and none
of its values equals the fact's. ``LLMVerifier`` asks a model for a verdict with a JSON Schema reply; a reply that stays
invalid after the client's retries is counted as unparseable, never guessed.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from ragability_gen.errors import LLMError, LLMSetupError
from ragability_gen.llm.client import LLM, complete_json

from .documents import Passage
from .facts import MONTHS, Fact, Quantity, quantities, sentences

VERDICTS = ("consistent", "inconsistent", "not enough info")
TEMPORAL_UNITS = {"date", "month", "calendar year"}


@dataclass(frozen=True)
class Verdict:
    """A verifier's judgement of one fact against one evidence passage.

    Attributes:
        verdict: One of VERDICTS.
        score: 0-100, how sure the verifier is that the passage contradicts the fact.
        fact_span: The conflicting words in the fact ("" when none).
        evidence_span: The conflicting words in the evidence passage.
        explanation: Why, in one or two sentences.
        reasoning: The reasoning type the conflict needs (numerical, temporal.numerical, categorical).
        query: A drafted question both places answer differently ("" when the verifier drafts none).
        answer_fact: The answer the fact's passage gives to ``query``.
        answer_evidence: The answer the evidence passage gives.
    """

    verdict: str
    score: float
    fact_span: str = ""
    evidence_span: str = ""
    explanation: str = ""
    reasoning: str = "categorical"
    query: str = ""
    answer_fact: str = ""
    answer_evidence: str = ""


_WORD = re.compile(r"[A-Za-z][\w'’-]*[A-Za-z0-9]|[A-Za-z]")  # codes such as X200 or IP68 are words here


def _stop_words() -> frozenset[str]:
    from spacy.lang.en.stop_words import STOP_WORDS  # a plain word list: no model is loaded

    return frozenset(STOP_WORDS) | frozenset(MONTHS)


class RulesVerifier:
    """Numbers and dates that disagree about the same subject (no model needed).

    Args:
        passages: The whole collection: word weights (inverse sentence frequency) come from it.
        min_similarity: Share of the fact's (weighted) content words the evidence sentence must share.
    """

    name = "rules"

    def __init__(self, passages: Iterable[Passage], min_similarity: float = 0.6):
        import Stemmer

        self.stop = _stop_words()
        self.stem = Stemmer.Stemmer("english").stemWords
        self.min_similarity = min_similarity
        self._sentences: dict[str, list[tuple[str, list[Quantity], set[str]]]] = {}
        df: Counter[str] = Counter()
        n = 0
        for p in passages:
            rows = []
            for s in sentences(p.text):
                qs = quantities(s)
                words = self.words(s, qs)
                rows.append((s, qs, words))
                df.update(words)
                n += 1
            self._sentences[p.id] = rows
        self.idf = {w: math.log((n + 1) / (c + 0.5)) for w, c in df.items()}

    def words(self, sentence: str, qs: list[Quantity]) -> set[str]:
        """Content words of a sentence outside its quantities, lower-cased and stemmed (Snowball)."""
        text = sentence
        for q in reversed(qs):
            text = text[:q.start] + " " + text[q.end:]
        words = [w.lower().replace("’", "'") for w in _WORD.findall(text)]
        return set(self.stem([w for w in words if w not in self.stop and len(w) > 1]))

    def _surface(self, text: str, stems: list[str]) -> list[str]:
        """The words of ``text`` as written whose stems are ``stems``, in the stems' order."""
        found: dict[str, str] = {}
        for w in _WORD.findall(text):
            found.setdefault(self.stem([w.lower().replace("’", "'")])[0], w)
        return [found.get(s, s) for s in stems]

    def _similarity(self, fact: set[str], other: set[str]) -> float:
        """Share of the fact's content words (weighted by rarity) that the other sentence has too.

        Measured on the fact's side only: an evidence sentence may say more, but a distinctive word of
        the fact (a product or person name) that it lacks means it is about something else.
        """
        shared = fact & other
        if len(shared) < 2:
            return 0.0
        return sum(self.idf.get(w, 1.0) for w in shared) / max(1e-9, sum(self.idf.get(w, 1.0) for w in fact))

    def verify(self, fact: Fact, evidence: Passage) -> Verdict:
        """The best-supported disagreement between the fact and a sentence of the evidence passage."""
        fq = quantities(fact.text)
        if not fq:
            return Verdict("not enough info", 0.0, explanation="the fact states no number or date")
        fwords = self.words(fact.text, fq)
        rows = self._sentences.get(evidence.id)
        if rows is None:
            rows = [(s, quantities(s), set()) for s in sentences(evidence.text)]
            rows = [(s, q, self.words(s, q)) for s, q, _ in rows]
        best: tuple[float, Quantity, Quantity, str, set[str]] | None = None
        agree = 0.0
        for sentence, sq, swords in rows:
            if sentence == fact.text:
                agree = max(agree, 1.0)
                continue
            sim = self._similarity(fwords, swords)
            if sim < self.min_similarity:
                continue
            for unit in {q.unit for q in fq} & {q.unit for q in sq}:
                fvals = [q for q in fq if q.unit == unit]
                svals = [q for q in sq if q.unit == unit]
                if {q.value for q in fvals} & {q.value for q in svals}:
                    agree = max(agree, sim)
                elif best is None or sim > best[0]:
                    best = (sim, fvals[0], svals[0], sentence, fwords & swords)
        if best is None:
            if agree:
                return Verdict("consistent", 0.0, explanation="a sentence on the same subject states the same value")
            return Verdict("not enough info", 0.0,
                           explanation="no sentence on the same subject states a comparable value")
        sim, fq1, sq1, sentence, shared = best
        kind = "temporal.numerical" if fq1.unit in TEMPORAL_UNITS else "numerical"
        top = sorted(shared, key=lambda w: (-self.idf.get(w, 1.0), w))[:5]
        terms = ", ".join(self._surface(fact.text, top))
        where = f"{evidence.file}" + (f" ({evidence.heading})" if evidence.heading else "")
        explanation = (f"\"{fq1.text}\" here but \"{sq1.text}\" in {where}, in a sentence about the same subject "
                       f"(shared terms: {terms}).")
        return Verdict("inconsistent", round(min(1.0, sim) * 100, 1), fq1.text, sq1.text, explanation, kind,
                       _draft_query(fact.text, fq1), fq1.text, sq1.text)


def _draft_query(sentence: str, q: Quantity) -> str:
    """A question whose answer is the quantity: the sentence with the value replaced by a blank."""
    blank = (sentence[:q.start] + "___" + sentence[q.end:]).rstrip(" .")
    return f"Fill in the blank according to the documents: \"{blank}\""


VERIFY_SCHEMA = {
    "type": "object",
    "properties": {
        "verdict": {"enum": list(VERDICTS)},
        "score": {"type": "integer", "minimum": 0, "maximum": 100},
        "fact_span": {"type": "string"},
        "evidence_span": {"type": "string"},
        "explanation": {"type": "string"},
        "reasoning": {"enum": ["categorical", "numerical", "temporal.numerical", "temporal.relational"]},
        "question": {"type": "string"},
        "answer_fact": {"type": "string"},
        "answer_evidence": {"type": "string"},
    },
    "required": ["verdict", "score", "fact_span", "evidence_span", "explanation", "reasoning", "question",
                 "answer_fact", "answer_evidence"],
    "additionalProperties": False,
}

VERIFY_PROMPT = """You check company documents for conflicting information.

Fact (from {fact_file}, section "{fact_heading}"): {fact}

Evidence passage (from {ev_file}, section "{ev_heading}"):
{evidence}

Does the evidence passage contradict the fact? Both cannot be true at the same time about the same thing.
Reply with a JSON object:
- "verdict": "inconsistent", "consistent" or "not enough info"
- "score": 0-100, how likely the evidence contradicts the fact
- "fact_span": the conflicting words of the fact, "evidence_span": the conflicting words of the evidence ("" if none)
- "explanation": one or two sentences
- "reasoning": "numerical", "temporal.numerical", "temporal.relational" or "categorical"
- "question": a question the two passages answer differently ("" if none)
- "answer_fact", "answer_evidence": the short answers the fact and the evidence give to that question"""


class LLMVerifier:
    """A model's verdict per fact and evidence passage, JSON Schema enforced and cached by the client."""

    name = "llm"

    def __init__(self, llm: LLM):
        self.llm = llm
        self.unparseable = 0
        self.failed = 0

    async def averify(self, fact: Fact, evidence: Passage) -> Verdict | None:
        """The verdict, or None when no valid reply came (counted in ``unparseable`` or, when the
        request itself failed after the client's retries, in ``failed``)."""
        prompt = VERIFY_PROMPT.format(fact_file=fact.passage.file, fact_heading=fact.passage.heading or "-",
                                      fact=fact.text, ev_file=evidence.file, ev_heading=evidence.heading or "-",
                                      evidence=evidence.text)
        try:
            reply = await complete_json(self.llm, [{"role": "user", "content": prompt}], VERIFY_SCHEMA,
                                        schema_name="verdict")
        except LLMSetupError:
            raise  # every request would fail the same way: stop the run
        except LLMError as e:
            if "no valid JSON reply" in str(e):
                self.unparseable += 1
            else:
                self.failed += 1
            return None
        v = reply.value
        return Verdict(v["verdict"], float(v["score"]), v["fact_span"], v["evidence_span"], v["explanation"],
                       v["reasoning"], v["question"], v["answer_fact"], v["answer_evidence"])
