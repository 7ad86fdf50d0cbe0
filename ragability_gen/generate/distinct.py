"""Recognisability: does a generated context share an obvious template with other rows?

A testee that learns "the passage shaped like X is the generated one" can game a suite, so a generated
context must not share its sentence skeleton with the same context of other rows. The skeleton of a text
is its normalised words with the instance's own material masked: a word that occurs in the instance's
query, contexts or answers becomes ``_`` (runs of them one ``_``), a number becomes ``#``, and function
words stay. What is left is the template. Only 3-grams holding a word of the writer's own (neither the
instance's material nor a function word) count: "_ was crowned in #" is any sentence's shape, "the name _
appears in several archival records" is a template. Two texts share a template when most of one's
counted 3-grams (of the one with fewer) occur in the other's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from ragability_gen.core.model import Instance
from ragability_gen.generate.textrules import words

N = 3
"""Skeleton n-grams are 3-grams: long enough that "_ is a _" alone is no template."""

SHARED_TEMPLATE = 0.5
"""Two texts share a template when at least this share of the shorter one's skeleton 3-grams is in the other's."""

MIN_SHARED = 1
"""... and at least this many of them."""

MIN_SAME = 3
"""Two skeletons of at least this many tokens that are equal are one template."""

# Kept in skeletons even when the instance's own text has them: they carry the sentence shape.
FUNCTION_WORDS = frozenset("""
    a an the this that these those it its it's they them their there here he she his her him we our you your
    i me my of in on at by for from to with without into onto over under about after before during since until
    within between among through across against along around beyond than as and or but nor so yet if then
    because while when where which who whom whose what how why is are was were be been being am do does did
    has have had having can could may might must shall should will would not no never also only just even
    more most less least very much many some any all each every both either neither other another such same
    one two three first s
""".split())


@lru_cache(maxsize=4096)
def _material_words(material: tuple[str, ...]) -> frozenset[str]:
    """The instance's own words: computed once per instance and context, not once per candidate."""
    return frozenset(w for m in material for w in words(m)) - FUNCTION_WORDS


def skeleton(text: str, material: Iterable[str]) -> tuple[str, ...]:
    """The sentence skeleton of ``text``: the instance's material masked, function words and the rest kept."""
    own = _material_words(tuple(material))
    out: list[str] = []
    for w in words(text):
        tok = "#" if any(ch.isdigit() for ch in w) else "_" if w in own else w
        if not (tok == "_" and out and out[-1] == "_"):
            out.append(tok)
    return tuple(out)


def material_of(inst: Instance, leave_out: str | None = None) -> list[str]:
    """The instance's own texts: query, answers, and every context but ``leave_out``."""
    texts = [inst.query, *(t for a in inst.answers.values() for t in (a.short, a.long))]
    return texts + [c.text for cid, c in inst.contexts.items() if cid != leave_out]


def _own(token: str) -> bool:
    return token not in ("_", "#") and token not in FUNCTION_WORDS


def grams(skel: Sequence[str]) -> frozenset[tuple[str, ...]]:
    """The skeleton's 3-grams that hold at least one word of the writer's own."""
    all_grams = (tuple(skel[i:i + N]) for i in range(len(skel) - N + 1))
    return frozenset(g for g in all_grams if any(_own(t) for t in g))


def overlap(a: frozenset[tuple[str, ...]], b: frozenset[tuple[str, ...]]) -> float:
    """The shared 3-grams over those of the text with fewer (0.0 when one has none): the same both ways."""
    return len(a & b) / min(len(a), len(b)) if a and b else 0.0


def shares_template(a: frozenset[tuple[str, ...]], b: frozenset[tuple[str, ...]]) -> bool:
    return len(a & b) >= MIN_SHARED and overlap(a, b) >= SHARED_TEMPLATE


@dataclass(frozen=True)
class Shaped:
    """One row's text for one context id, with its skeleton 3-grams."""

    row: str  # the instance id: rows of one id share contexts, so they are not compared
    where: str  # how a reason names the row
    skeleton: tuple[str, ...]
    grams: frozenset[tuple[str, ...]]


def shaped(inst: Instance, cid: str, text: str) -> Shaped:
    where = inst.id if inst.variation == 1 else f"{inst.id} (query {inst.variation})"
    skel = skeleton(text, material_of(inst, cid))
    return Shaped(inst.id, where, skel, grams(skel))


def template_clash(candidate: Shaped, others: Iterable[Shaped]) -> str | None:
    """Why ``candidate`` shares a template with one of ``others`` (the first), or None.

    Two texts with the very same skeleton share a template too, even one made of the instance's material
    and function words only ("_ is a _"): a reader sees the same sentence with other names in it.
    """
    for o in others:
        if o.row == candidate.row:
            continue
        if len(candidate.skeleton) >= MIN_SAME and candidate.skeleton == o.skeleton:
            return f"it has the same sentence skeleton as row {o.where} ({' '.join(o.skeleton)!r})"
        if shares_template(candidate.grams, o.grams):
            return (f"it shares its sentence skeleton with row {o.where} (3-gram overlap "
                    f"{overlap(candidate.grams, o.grams):.2f}; a template from {SHARED_TEMPLATE})")
    return None


class TemplateIndex:
    """Shaped texts indexed by skeleton and by 3-gram, so a check looks only at texts that share something.

    Comparing every new text with every other would cost quadratic time over a corpus; with the index a
    check costs about the number of texts it shares a 3-gram or its skeleton with. Answers are the same as
    :func:`template_clash` and :func:`closest` over the texts in the order they were added.
    """

    def __init__(self, shapes: Iterable[Shaped] = ()):
        self.shapes: list[Shaped] = []
        self._by_skeleton: dict[tuple[str, ...], list[int]] = {}
        self._by_gram: dict[tuple[str, ...], list[int]] = {}
        for shape in shapes:
            self.add(shape)

    def add(self, shape: Shaped) -> None:
        n = len(self.shapes)
        self.shapes.append(shape)
        self._by_skeleton.setdefault(shape.skeleton, []).append(n)
        for g in shape.grams:
            self._by_gram.setdefault(g, []).append(n)

    def _near(self, shape: Shaped) -> list[Shaped]:
        found = set(self._by_skeleton.get(shape.skeleton, ()))
        for g in shape.grams:
            found.update(self._by_gram.get(g, ()))
        return [self.shapes[i] for i in sorted(found)]

    def clash(self, shape: Shaped) -> str | None:
        return template_clash(shape, self._near(shape))

    def closest(self, shape: Shaped) -> float:
        return closest(shape, self._near(shape))


def closest(candidate: Shaped, others: Iterable[Shaped]) -> float:
    """The skeleton 3-gram overlap of ``candidate`` with the closest row of another instance id."""
    return max((1.0 if candidate.skeleton == o.skeleton else overlap(candidate.grams, o.grams)
                for o in others if o.row != candidate.row), default=0.0)
