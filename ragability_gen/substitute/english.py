"""English words for the ordinary words of a title of a work.

A title such as "Brothers in Arms" or "Why Evolution Is True" is a name made of ordinary words. Kept, it names the
work; replaced by invented words ("Why Eserwich Is Noblaborough") it no longer reads as English. Each of its
ordinary words gets instead another common English word that can stand where it stood: one with the same readings
(noun, verb, adjective, adverb) in the same form (a plural, "-ing", a past, a comparative), so that whichever
reading the title meant still holds ("Love" -> "Answer", "Hits" -> "Accounts", "Breaking" -> "Arriving").

The words come from Faker's list of common English words; lemminflect gives every word's readings and forms.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from functools import cache, lru_cache
from typing import Any

from .names import is_common, vowel_sound
from .words import CONTENT_STOP_WORDS

_UPOS = ("NOUN", "VERB", "ADJ", "ADV")
"""The parts of speech a replaced word may have; function words (pronouns, auxiliaries) stay in titles."""
_COMMON_FORM = 3.0
"""The least Zipf frequency of a form in the pool: "agencies", not the rare plural "monies"."""

Reading = tuple[str, str]
"""A part of speech and a Penn tag: ("NOUN", "NNS"), ("VERB", "VBG")."""
_GERUND: Reading = ("VERB", "VBG")
_DROPPED_G = re.compile(r"([^\W\d_]+in)(['’])")
"""A word ending in "-in'" for "-ing" ("Talkin'", "lovin'")."""


def spoken(word: str) -> str | None:
    """The standard word a spoken spelling in one word stands for, in lower case: a dropped "g" ("Talkin'":
    "talking") or one of spaCy's tokenizer exceptions that stays one token ("Ol'": "old", "'Bout": "about");
    None for any other word, and for a contraction of two words ("Don't", "Gonna"; see ``contracted``)."""
    if "'" not in word and "’" not in word:
        return None
    from spacy.symbols import NORM

    pieces = _exception(word)
    if pieces and len(pieces) == 1:
        norm = str(pieces[0].get(NORM, "")).lower()
        return norm if norm.isalpha() else None  # not "o'clock", which is its own norm
    m = _DROPPED_G.fullmatch(word)
    return m[1].lower() + "g" if m and readings(m[1] + "g") else None


_RUN_TOGETHER = frozenset("gonna gotta wanna".split())
"""Two spoken words run together with no apostrophe: spaCy's exceptions also hold apostrophes dropped by mistake,
which are words of their own ("wed", "cant", "wont")."""


def contracted(word: str) -> bool:
    """True for a contraction of two words that spaCy's tokenizer splits ("Don't", "I'm", "C'mon", "Y'all"), or one
    of ``_RUN_TOGETHER`` ("Gonna"): a title keeps it as it keeps function words."""
    if "'" not in word and "’" not in word:
        return word.lower() in _RUN_TOGETHER
    pieces = _exception(word)
    return pieces is not None and len(pieces) >= 2


def _exception(word: str) -> list[dict[Any, Any]] | None:
    """The tokens spaCy's English tokenizer splits ``word`` into by its exceptions, as written or in lower case."""
    from spacy.lang.en.tokenizer_exceptions import TOKENIZER_EXCEPTIONS

    return TOKENIZER_EXCEPTIONS.get(word) or TOKENIZER_EXCEPTIONS.get(word.lower())


@lru_cache(maxsize=1 << 14)
def readings(word: str) -> frozenset[Reading]:
    """Every (part of speech, form) ``word`` can be, in lower case; a word lemminflect's lexicon lacks is a noun, in the
    form its ending says ("thriller", "thrillers"); a function word ("the", "over"; not "show", see
    ``words.CONTENT_STOP_WORDS``) or a word of other characters has none."""
    from lemminflect import getAllInflections, getAllInflectionsOOV, getAllLemmas, getAllLemmasOOV
    from spacy.lang.en.stop_words import STOP_WORDS

    low = word.lower()
    if low in STOP_WORDS and low not in CONTENT_STOP_WORDS or not low.isalpha():
        return frozenset()
    out: set[Reading] = set()
    for upos, lemmas in (getAllLemmas(low) or getAllLemmasOOV(low, "NOUN")).items():  # "thriller": a noun
        if upos in _UPOS:
            for lemma in lemmas:
                known = getAllInflections(lemma, upos) or getAllInflectionsOOV(lemma, upos)
                out.update((upos, tag) for tag, forms in known.items() if low in forms)
    return frozenset(out)


@cache
def _pool() -> dict[frozenset[Reading], tuple[str, ...]]:
    """The words to choose from, by their readings: every common form of each word of Faker's list that is no
    function word, in a fixed order."""
    from faker.providers.lorem.en_US import Provider
    from lemminflect import getAllInflections
    from spacy.lang.en.stop_words import STOP_WORDS

    forms: dict[str, None] = {}
    for lemma in Provider.word_list:
        if lemma.islower() and lemma.isalpha() and len(lemma) >= 3 and lemma not in STOP_WORDS:
            for tags in getAllInflections(lemma).values():
                forms.update(dict.fromkeys(f for f in tags if f.isalpha() and f not in STOP_WORDS
                                           and is_common(f, _COMMON_FORM)))
    pool: dict[frozenset[Reading], list[str]] = {}
    for form in forms:
        found = readings(form)
        if found:
            pool.setdefault(found, []).append(form)
    return {k: tuple(v) for k, v in pool.items()}


@cache
def _by_reading() -> dict[Reading, tuple[str, ...]]:
    """The pool by each single reading, in the pool's order: the words sharing an original's first reading."""
    out: dict[Reading, list[str]] = {}
    for found, words in _pool().items():
        for reading in found:
            out.setdefault(reading, []).extend(words)
    return {k: tuple(v) for k, v in out.items()}


@lru_cache(maxsize=1 << 14)
def _lemmas(word: str) -> frozenset[str]:
    """The lemmas of a word: a form of a word taken is taken too ("cultures" once "culture" replaced another word:
    two words of a title never become one; nor "loves" where the instance writes "love")."""
    from lemminflect import getAllLemmas

    return frozenset(lemma for lemmas in getAllLemmas(word).values() for lemma in lemmas)


def known(word: str) -> bool:
    """True for a word lemminflect's English lexicon holds as a noun, verb, adjective or adverb ("greatest",
    "shrugged", which an old dictionary's entries miss)."""
    from lemminflect import getAllLemmas

    return any(upos in _UPOS for upos in getAllLemmas(word.lower()))


_SIBILANT = ("s", "x", "z", "ch", "sh")


def plural(word: str, ending: str) -> str:
    """The plural of ``word``, a replacement standing where a name stood with the plural ``ending`` ("s", "es"): an
    English noun's own plural ("Heroes" with "Hero" -> "Door": "Doors", not "Doores"; "child": "children"), a name's
    by the regular rule ("Felix": "Felixes", "Schen": "Schens"), in the word's case; an acronym keeps the ending as
    written ("CDs" -> "XQs")."""
    from lemminflect import getInflection

    if len(word) > 1 and word.isupper() and not ending.isupper():
        return word + ending
    low = word.lower()
    forms = getInflection(low, "NNS") if known(low) and ("NOUN", "NN") in readings(low) else ()
    new = forms[0] if forms and forms[0].isalpha() else low + ("es" if low.endswith(_SIBILANT) else "s")
    if word.isupper():
        return new.upper()
    if new.startswith(low):
        return word + new[len(low):]
    return new[:1].upper() + new[1:] if word[:1].isupper() else new


def english_word(rng: Any, original: str, taken: Collection[str]) -> str | None:
    """A common English word to stand for ``original`` in a title, in lower case: the same readings where the pool
    has such a word, else one sharing its first reading; opening with a vowel's sound exactly when the original does
    (``names.vowel_sound``: "an Old Man" stays grammatical) where it can. None for a word with no reading to match.

    Args:
        rng: The instance's seeded generator (``random.Random``); the same seed gives the same word.
        taken: Lower-case words the new word must not equal (the instance's words, other new words).
    """
    standard = spoken(original)
    dropped = _DROPPED_G.fullmatch(original)
    if dropped and standard is not None:  # "Talkin'" -> "Runnin'", "Darlin'" -> "Buildin'": another verb's "-ing"
        found = readings(standard)  # form, of the same readings where one has them, its "g" dropped
        if not found:
            return None
        first = min(found, key=lambda r: (_UPOS.index(r[0]), r[1]))
        pools = (_pool().get(found, ()), _by_reading().get(first, ()), _by_reading().get(_GERUND, ()))
        new = _choose(rng, standard, taken, [[w for w in pool if _GERUND in readings(w)] for pool in pools])
        return new[:-1] + dropped[2] if new is not None else None
    if standard is not None:  # "Ol'" -> "New"
        return english_word(rng, standard, taken)
    low = original.lower()
    found = readings(low)
    if not found:
        return None
    first = min(found, key=lambda r: (_UPOS.index(r[0]), r[1]))
    return _choose(rng, low, taken, (_pool().get(found, ()), _by_reading().get(first, ())))


def _choose(rng: Any, low: str, taken: Collection[str], pools: Sequence[Sequence[str]]) -> str | None:
    """A word of the first of ``pools`` that has one fitting: not ``low``, no word or lemma ``taken``, and opening with
    ``low``'s vowel sound where one does."""
    used = {lemma for w in taken for lemma in _lemmas(w)}
    for candidates in pools:
        fitting = [w for w in candidates if w != low and w not in taken and not _lemmas(w) & used]
        same_start = [w for w in fitting if vowel_sound(w) == vowel_sound(low)]
        if same_start or fitting:
            return str(rng.choice(same_start or fitting))
    return None
