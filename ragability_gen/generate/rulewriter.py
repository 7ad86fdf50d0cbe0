"""The offline rules writer: passages rebuilt from the instance's own material, no model.

Without a model the writer cannot invent facts, so it restates facts the instance already holds, in other
sentence shapes, so a passage reads like a passage and not like a form:

- A context that gives an answer restates the answer's long form (a leading "Yes,"/"No," dropped) by
  moving its closing phrase to the front ("In 1342, ..."), from passive to active ("The navy launched
  ..."), or as it is; failing those, as a cleft ("It was in 1342 that ..."). The rule checks drop shapes
  too close to the original.
- A neutral context states a background fact the contexts agree on and that touches no answer: where
  an entity lies ("X, in the province of P," -> "X lies in P."), what else it is called ("The Fennick lily
  (Lirrosa fennica)" -> "Lirrosa fennica is another name for the Fennick lily."), who made it ("built by
  Y" -> "Y built X."), where it is native. An instance whose texts hold no such fact gets no candidate,
  and the context is rejected with that reason: the writer never falls back to a stock sentence.

Shapes are tried in an order that depends on the row (a hash of its id and query), so rows do not all
start with the same shape; the recognisability check rejects any that another row already uses.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from typing import TypeVar

from ragability_gen.core.model import Answer
from ragability_gen.generate.tasks import ContextTask
from ragability_gen.generate.textrules import answer_words, find_answer, normalise, split_sentences, words
from ragability_gen.generate.writers import Draft, Turn, register_writer

T = TypeVar("T")

_LEADING_YES_NO = re.compile(r"^\s*(?:yes|no)\s*[,;:.!-]\s*", re.I)
_NAME_WORD = r"[A-ZÀ-ÖØ-Þ][\w’'-]*"
_NAME = re.compile(rf"{_NAME_WORD}(?:\s+(?:(?:of|the|de|von|van|and)\s+)*{_NAME_WORD})*")
_QUESTION_WORDS = frozenset("""what which who whom whose when where why how in on at for from by to of is are was were
    do does did have has had can could may might must shall should will would according""".split())
_PREPOSITIONS = ("in", "on", "at", "by", "from", "for", "with", "without", "after", "before", "during", "since",
                 "within", "over", "under", "between", "until", "across", "along", "near", "off")
_TRAILING_PP = re.compile(rf"^(?P<head>.+?\S)\s+(?P<pp>(?:{'|'.join(_PREPOSITIONS)})\s+[^,;]+?)\s*[.!]?$", re.I)
_PASSIVE = re.compile(r"^(?P<obj>.+?)\s+(?P<aux>was|were|has been|had been)\s+(?P<verb>\w+ed|built|made|written|"
                      r"drawn|found|founded|given|run|held|led|won|taken|set up)\s+by\s+(?P<agent>[^,;.]+?)"
                      r"(?P<rest>(?:\s+(?:in|on|at|during)\s+[^,;.]+?)?)(?=\s*$|\s*[,;.]|\s+and\s)")
_APPOSITIVE_PLACE = re.compile(r"^(?P<x>(?:The\s+)?[A-ZÀ-ÖØ-Þ][^,]+?),\s+(?P<pp>in\s+(?:the\s+)?[^,]+?),")
_ALIAS = re.compile(r"(?P<x>(?:[Tt]he\s+)?[A-ZÀ-ÖØ-Þ][\w’'-]*(?:\s+[A-ZÀ-ÖØ-Þa-z][\w’'-]*){0,3})\s+"
                    r"\((?P<alias>[A-ZÀ-ÖØ-Þ][^()]{2,40})\)")
_NATIVE = re.compile(r"(?P<x>(?:The\s+)?[A-ZÀ-ÖØ-Þ][\w’' -]+?)\s+(?:is|are)\s+(?:[^,.]*?\s)?native to\s+"
                     r"(?P<place>[^,.;]+)")
_OVER = re.compile(r"(?P<x>(?:The\s+)?[A-ZÀ-ÖØ-Þ][\w’' -]+?)\s+(?:over|on|across)\s+the\s+(?P<kind>river|lake|sea|"
                   r"bay|island)\s+(?P<place>[A-ZÀ-ÖØ-Þ][\w’'-]+)")


def query_subject(query: str, avoid: Sequence[str] = ()) -> str | None:
    """The longest proper name in ``query`` (the first among equals) that holds none of ``avoid``."""
    names = []
    for m in _NAME.finditer(query):
        name = m.group(0)
        first, _, rest = name.partition(" ")
        if m.start() == 0 and first.lower() in _QUESTION_WORDS:
            name = re.sub(r"^(?:(?:of|the|de|von|van|and)\s+)*", "", rest)
        name = re.sub(r"[’']s$", "", name).strip()
        if name and not any(a and normalise(a) in normalise(name) for a in avoid):
            names.append(name)
    return max(names, key=lambda n: len(n.split()), default=None)


def _sentence(text: str) -> str:
    text = " ".join(text.split()).strip().rstrip(",;:")
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!" else text + "."


def _inner(text: str) -> str:
    """``text`` to follow other words: a leading article or pronoun lower-cased, the full stop dropped."""
    text = text.rstrip(".!")
    return re.sub(r"^(The|An?|It|Its|This|These|Those)\b", lambda m: m.group(0).lower(), text)


def _statement(answer: Answer) -> str:
    """The long answer as a statement: a leading "Yes,"/"No," dropped."""
    return _sentence(_LEADING_YES_NO.sub("", answer.long))


def _movable(statement: str) -> re.Match[str] | None:
    """The statement's closing phrase, when it says when or where (a number, a name, before/after ...)."""
    m = _TRAILING_PP.match(statement.rstrip(".!"))
    if not m or len(m.group("pp").split()) > 8 or len(m.group("head").split()) < 3:
        return None
    pp = m.group("pp")
    first = pp.split()[0].lower()
    if not (re.search(r"\d", pp) or re.search(r"\s[A-ZÀ-ÖØ-Þ]", pp)
            or first in ("before", "after", "during", "since", "until", "without", "within")):
        return None
    return m


def fronted(statement: str) -> str | None:
    """The closing prepositional phrase moved to the front: "X was crowned in 1342." -> "In 1342, x was ..."."""
    m = _movable(statement)
    if m is None:
        return None
    return _sentence(f"{m.group('pp')}, {_inner(m.group('head'))}")


def cleft(statement: str) -> str | None:
    """The closing phrase stressed: "X was crowned in 1342." -> "It was in 1342 that x was crowned."."""
    m = _movable(statement)
    if m is None or not re.search(r"\b(?:was|were|had|did)\b|\w+ed\b", m.group("head")):
        return None  # a cleft in the past tense only: "It was ... that it weighs" does not read
    return _sentence(f"It was {m.group('pp')[0].lower() + m.group('pp')[1:]} that {_inner(m.group('head'))}")


def active(statement: str) -> str | None:
    """A passive statement made active: "X was launched by the navy in 1523." -> "The navy launched X in 1523."."""
    m = _PASSIVE.match(statement.rstrip(".!"))
    if not m or m.group("aux") not in ("was", "were"):
        return None
    agent = m.group("agent").strip()
    return _sentence(f"{agent} {m.group('verb')} {_inner(m.group('obj'))}{m.group('rest')}")


_TITLE = re.compile(r"\b(?P<title>Queen|King|Lord|Lady|Prince|Princess|Duke|Duchess|Count|Countess|Earl|Baron)\s+"
                    r"(?P<name>[A-ZÀ-ÖØ-Þ][\w’'-]+)\s+of\s+(?P<place>[A-ZÀ-ÖØ-Þ][\w’'-]+)")
_KIND_OF = re.compile(r"\bthe\s+(?:(?P<adj>northern|southern|eastern|western|small|old)\s+)?(?P<kind>town|city|village|"
                      r"province|island|kingdom|duchy|county|region|valley|river|planet|moon|comet)\s+(?:of\s+)?"
                      r"(?P<name>[A-ZÀ-ÖØ-Þ][\w’'-]+)", re.I)
_POSSESSIVE = re.compile(r"(?P<owner>(?:The\s+)?[A-ZÀ-ÖØ-Þ][\w-]*(?:\s+[A-ZÀ-ÖØ-Þ][\w-]*)*)[’']s\s+"
                         r"(?P<thing>(?:[a-z]+\s+){0,2}?[a-z]+)\s+(?:has|have|is|was|were|are|stands|lies)\b")
_MODEL = re.compile(r"\b(?:The\s+)?(?P<brand>[A-ZÀ-ÖØ-Þ][a-z]+)\s+(?P<model>[A-Z][\w]*-\d[\w]*)\s+"
                    r"(?P<kind>(?:[a-z]+\s+){0,2}?[a-z]+?)\s+(?:is|was|has|must|can|lasts|weighs|comes|recharges|may)\b")
_APPOSITIVE = re.compile(r"(?P<x>(?:The\s+)?[A-ZÀ-ÖØ-Þ][\w’'-]*(?:\s+[A-ZÀ-ÖØ-Þ][\w’'-]*)*),\s+an?\s+"
                         r"(?P<what>[a-z][^,]+?),")
_EVENT = re.compile(r"\bthe\s+(?P<kind>Siege|Battle|Treaty|Guild)\s+of\s+"
                    r"(?P<place>[A-ZÀ-ÖØ-Þ][\w’'-]+(?:\s+[A-ZÀ-ÖØ-Þ][\w’'-]+)*)")
_OWNED = re.compile(r"\bthe\s+(?P<owner>[A-ZÀ-ÖØ-Þ][\w’'-]+(?:\s+[A-ZÀ-ÖØ-Þ][\w’'-]+)*)\s+(?P<thing>(?:compliance|"
                    r"product|operating|safety|building|trade)\s+[a-z]+|logbook|navy|fleet|charter)\b")
_SHAPES = {  # per shape, phrasings to choose from by row
    "place": ["{x} lies {pp}", "{x} is found {pp}", "{x} is situated {pp}"],
    "alias": ["{alias} is another name for {x_}", "{x} is also known as {alias}",
              "{x} goes by the name {alias}"],
    "native": ["{place} {be} home to {x_}", "{x} is native to {place_}", "{x} is found in {place_}"],
    "river": ["{x} crosses the river {place}", "{x} spans the river {place}"],
    "agent": ["{agent} {verb} {obj_}"],
    "title": ["{name} was {title_} of {place}", "{name} bore the title of {Title} of {place}",
              "{place} counted {name} among its rulers"],
    "kind": ["{name} is {a} {adj}{kind}", "{name} is the name of {a} {adj}{kind}"],
    "has": ["{owner} has {a} {thing}", "{owner} maintains {a} {thing}"],
    "appositive": ["{x} {be} {a} {what}", "{x} {be} known as {a} {what}"],
    "siege": ["{place} was once under siege", "{place} has withstood a siege"],
    "battle": ["A battle is named after {place}", "{place} gave its name to a battle"],
    "treaty": ["{place} gave its name to a treaty", "A treaty bears the name of {place}"],
    "guild": ["The {trade} had a guild of their own", "The {trade} formed a guild"],
    "model": ["{brand} makes the {model}, {a} {kind}", "The {model} is {a} {kind} made by {brand}",
              "{brand} sells {a} {kind} called the {model}"],
}


def _plural(phrase: str) -> bool:
    """A guess good enough for names: "The Harriers", "the salt marshes" are plural, "Pellis" is not."""
    ws = phrase.split()
    return len(ws) > 1 and ws[0].lower() == "the" and ws[-1].endswith("s") and not ws[-1].endswith("ss")


def _a(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def _phrase(shape: str, key: str, **parts: str) -> list[str]:
    """Every phrasing of ``shape`` with ``parts`` filled in, the row's own first."""
    filled = [_sentence(c.format(**parts, **{f"{n}_": _inner(v) for n, v in parts.items()})) for c in _SHAPES[shape]]
    return _rotate(filled, f"{key}\x00{shape}")


def _facts_of(sentence: str, key: str) -> Iterable[tuple[str, list[str]]]:
    s = sentence
    if m := _APPOSITIVE_PLACE.match(s):
        yield "place", _phrase("place", key, x=m.group("x"), pp=m.group("pp"))
    for m in _ALIAS.finditer(s):
        yield "alias", _phrase("alias", key, x=m.group("x"), alias=m.group("alias"))
    for m in _NATIVE.finditer(s):
        place = m.group("place").strip()
        be = "are" if _plural(place.split(" of ")[0]) else "is"
        yield "native", _phrase("native", key, x=m.group("x"), place=place, be=be)
    for m in _OVER.finditer(s):
        if m.group("kind") == "river":
            yield "river", _phrase("river", key, x=m.group("x"), place=m.group("place"))
    if (m := _PASSIVE.match(s.rstrip("."))) and m.group("aux") in ("was", "were"):
        yield "agent", _phrase("agent", key, agent=m.group("agent"), verb=m.group("verb"), obj=m.group("obj"))
    for m in _TITLE.finditer(s):
        title = m.group("title").lower()
        yield "title", _phrase("title", key, name=m.group("name"), title=title, Title=m.group("title"),
                              place=m.group("place"))
    for m in _KIND_OF.finditer(s):
        kind = m.group("kind").lower()
        adj = f"{m.group('adj').lower()} " if m.group("adj") else ""
        yield "kind", _phrase("kind", key, name=m.group("name"), kind=kind, adj=adj, a=_a(adj or kind))
    for m in _POSSESSIVE.finditer(s):
        yield "has", _phrase("has", key, owner=m.group("owner"), thing=m.group("thing"), a=_a(m.group("thing")))
    for m in _APPOSITIVE.finditer(s):
        what = m.group("what").split()
        what = [what[what.index("of") - 1], *what[what.index("of"):]] if "of" in what[1:] else what[-2:]
        x = m.group("x")
        be = "are" if _plural(x) else "is"
        yield "appositive", _phrase("appositive", key, x=x, be=be, what=" ".join(what), a=_a(what[0]))
    for m in _EVENT.finditer(s):
        kind, place = m.group("kind").lower(), m.group("place")
        if kind == "guild":
            yield "guild", _phrase("guild", key, trade=place)
        else:
            yield kind, _phrase(kind, key, place=place)
    for m in _OWNED.finditer(s):
        yield "has", _phrase("has", key, owner=m.group("owner"), thing=m.group("thing"), a=_a(m.group("thing")))
    for m in _MODEL.finditer(s):
        yield "model", _phrase("model", key, brand=m.group("brand"), model=m.group("model"), kind=m.group("kind"),
                               a=_a(m.group("kind")))


def background_facts(texts: Iterable[str], key: str = "", min_sources: int = 2) -> list[tuple[str, list[str]]]:
    """Facts at least ``min_sources`` of ``texts`` state in passing, as (shape, phrasings), in the order found.

    A fact only one of two contradicting texts states may be the contested one; two texts that both state
    it agree on it. ``key`` orders each fact's phrasings, so rows phrase the same shape differently.
    """
    seen: dict[str, tuple[str, list[str], set[int]]] = {}
    for n, text in enumerate(texts):
        for s in split_sentences(text):
            for shape, phrasings in _facts_of(s, key):
                seen.setdefault(phrasings[0], (shape, phrasings, set()))[2].add(n)
    return [(shape, phrasings) for shape, phrasings, where in seen.values() if len(where) >= min_sources]


def _touches(text: str, answers: Iterable[Answer]) -> bool:
    ws = words(text)
    return any(answer_words(a.short) and find_answer(ws, a.short) for a in answers)


def _rotate(items: list[T], key: str) -> list[T]:
    """``items`` rotated by a stable hash of ``key``: rows start at different shapes, the same row always alike."""
    if not items:
        return items
    k = int(hashlib.sha256(key.encode()).hexdigest(), 16) % len(items)
    return items[k:] + items[:k]


def _unique(items: Iterable[str | None]) -> list[str]:
    return list(dict.fromkeys(i for i in items if i))


def rule_candidates(task: ContextTask) -> list[str]:
    """The rules writer's candidates, in the row's order (see the module docstring)."""
    key = f"{task.instance}\x00{task.query}\x00{task.cid}"
    if task.carries is not None:
        answer = task.carries[1]
        statement = _statement(answer)
        # a long answer that is only the short one ("Medical sales rep.") or opens with a pronoun whose
        # referent is elsewhere ("It is held ...") is no statement to restate
        if (len(words(statement)) < 4 or normalise(statement) == normalise(answer.short)
                or re.match(r"(?:It|He|She|They|This|These|Those|Its|His|Her|Their)\b", statement)):
            return []
        # the cleft last: "It was ... that ..." in many rows would itself be a recognisable frame
        return _unique([*_rotate(_unique([fronted(statement), active(statement), statement]), key), cleft(statement)])
    named = [a for a in task.answers.values() if not find_answer(words(task.query), a.short)]
    facts = _rotate([p for _, p in background_facts([*task.others.values(), task.query], key)], key)
    # each fact in the row's own phrasing first, then the other phrasings
    rounds = max((len(p) for p in facts), default=0)
    return _unique(p[n] for n in range(rounds) for p in facts if n < len(p) and not _touches(p[n], named))


@register_writer("rules")
class RuleWriter:
    """The offline writer (``--llm rules``): candidates rebuilt from the instance's own text, no model.

    It tries every candidate it has unless ``--attempts`` says otherwise.
    """

    name = "rules"
    attempts = 12

    async def write(self, task: ContextTask, history: Sequence[Turn]) -> Draft:
        candidates = rule_candidates(task)
        if len(history) >= len(candidates):
            why = ("the rules writer has no further candidate" if candidates else
                   "the rules writer found no fact in the instance's own text to restate")
            return Draft(None, "", [why], exhausted=True)
        return Draft(candidates[len(history)], "", [])
