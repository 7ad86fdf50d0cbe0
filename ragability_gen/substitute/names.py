"""Invented names that look like names of their kind but name nothing real.

Faker supplies the material: its name and place lists for several locales train letter-trigram models
(so a family name sounds like a family name, a place like a place), and its place suffixes ("-burgh",
"-haven") finish some place names. All randomness comes from the Faker instance's seeded generator, so
the same seed gives the same names. A candidate is rejected when it is a real word or a well-known
name (any word in wordfreq's English list, or any name in Faker's lists), when it resembles the name it
replaces, or when it clashes with a word of the instance or another invented name.
"""

from __future__ import annotations

import importlib
import math
import re
import string
import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Iterable
from functools import cache, lru_cache
from importlib.resources import files
from itertools import accumulate
from typing import Any

STYLES = ("given", "family", "place", "org", "demonym", "acronym", "lower", "state")
_PERSON_LOCALES = ("en_US", "en_GB", "en_IE", "de_DE", "fr_FR", "it_IT", "es_ES", "nl_NL", "sv_SE", "pl_PL",
                   "cs_CZ", "pt_PT")
_PLACE_LOCALES = ("en_US", "en_GB", "en_IE", "de_DE", "fr_FR", "nl_NL", "sv_SE", "pl_PL", "cs_CZ", "pt_PT")
_DEMONYM_ENDINGS = ("ians", "ans", "ese", "ish", "ian", "ic", "an", "i")
_VOWELS = set("aeiouAEIOU")
COMMON_ZIPF = 3.3
"""wordfreq Zipf frequency from which a word counts as common (3.3: about 2 per million words)."""
RARE_ZIPF = 2.5
"""... and below this as rare (1 in 3 million words): "kwanza", "Habsburg"; a name part that rare is the name
also in lower case."""
VERY_COMMON_ZIPF = 4.5
"""... and as very common (30 per million): "Notes", "Liberal", "India"; not "Bremen" (3.5)."""


class TrigramModel:
    """Letter-trigram model of a list of words: generates new words with the same letter patterns."""

    def __init__(self, words: Iterable[str]):
        counts: dict[str, dict[str, int]] = {}
        for w in words:
            padded = "^^" + w + "$"
            for i in range(2, len(padded)):
                nxt = counts.setdefault(padded[i - 2:i], {})
                nxt[padded[i]] = nxt.get(padded[i], 0) + 1
        self.table: dict[tuple[str, str], tuple[tuple[str, ...], list[int], float, int]] = {}
        for state, n in counts.items():
            for kind, keep in (("any", lambda c: True), ("go", lambda c: c != "$"), ("vowel", _VOWELS.__contains__),
                               ("consonant", lambda c: c != "$" and c not in _VOWELS)):
                chars = tuple(sorted(c for c in n if keep(c)))
                if chars:
                    cum = list(accumulate(n[c] for c in chars))
                    self.table[state, kind] = (chars, cum, cum[-1] + 0.0, len(chars) - 1)

    def generate(self, rng: Any, min_len: int, max_len: int, vowel: bool | None = None) -> str | None:
        """One word of min_len..max_len letters (starting with a vowel or not, if given), or None."""
        state, out = "^^", ""
        while len(out) <= max_len:
            if not out and vowel is not None:
                kind = "vowel" if vowel else "consonant"
            else:
                kind = "go" if len(out) < min_len else "any"
            entry = self.table.get((state, kind))
            if entry is None:
                return None
            chars, cum, total, hi = entry  # what rng.choices(chars, cum_weights=cum) does, without its overhead
            c = chars[bisect_right(cum, rng.random() * total, 0, hi)]
            if c == "$":
                return out
            out += c
            state = state[1] + c
        return None


def ascii_fold(text: str) -> str:
    """``text`` in lower case ASCII, accents dropped ("Şanlıurfa" -> "sanlurfa")."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()


def _ascii_words(values: Iterable[str]) -> list[str]:
    out = []
    for v in values:
        out += ["".join(ch for ch in w if ch.isalpha()) for w in ascii_fold(v).replace("-", " ").split()]
    return [w for w in out if len(w) >= 3]


def _faker_lists(kind: str, attrs: tuple[str, ...]) -> list[str]:
    values: list[str] = []
    for loc in _PERSON_LOCALES if kind == "person" else _PLACE_LOCALES:
        try:
            provider = importlib.import_module(f"faker.providers.{kind}.{loc}").Provider
        except ImportError:  # pragma: no cover - a locale missing from some Faker release
            continue
        for attr in attrs:
            values += list(getattr(provider, attr, ()) or ())
    return values


@cache
def _name_words() -> dict[str, frozenset[str]]:
    """Faker's given, family and place names as lower-case ASCII words, read once for every use below."""
    return {
        "given": frozenset(_ascii_words(_faker_lists("person", ("first_names", "first_names_male",
                                                                 "first_names_female")))),
        "family": frozenset(_ascii_words(_faker_lists("person", ("last_names",)))),
        "place": frozenset(_ascii_words(_faker_lists("address", ("cities", "counties", "states", "countries",
                                                                  "regions"))
                                           + list(_region_words()))),
    }


def _world_regions() -> list[str]:
    """The continents and regions countryinfo files its countries under ("Europe", "Melanesia", "Caribbean"; their
    ordinary words, "Eastern", "Sub", stay out)."""
    import countryinfo

    return sorted({str(r) for c in countryinfo.all_countries() for k in ("region", "subregion")
                   if (r := c.info().get(k))})


@cache
def _region_words() -> frozenset[str]:
    return frozenset(w for w in _ascii_words(_world_regions()) if not is_word(w))


def is_region(word: str) -> bool:
    """True for a word of a continent or region's name that is no dictionary word ("Asia", "Melanesia")."""
    return word.casefold() in _region_words()


@cache
def _models() -> dict[str, TrigramModel]:
    return {kind: TrigramModel(sorted(words)) for kind, words in _name_words().items()}


@cache
def _known_names() -> frozenset[str]:
    return frozenset().union(*_name_words().values())


def _surnames() -> frozenset[str]:
    return _name_words()["family"]


@cache
def _given_names() -> frozenset[str]:
    """Given names that are no place names ("Emil", not "Victoria")."""
    return _name_words()["given"] - _name_words()["place"]


def person_shaped(words: list[str]) -> bool:
    """True for "Given Family" where NER saw an organisation: "Emil Post", "Alonzo Church" (a given name,
    or an uncommon word that is no place, then a family name), whose second word is no designator there
    but a surname."""
    if len(words) != 2 or not words[1][:1].isupper() or not is_surname(words[1]) \
            or words[1].casefold() in _BUILDINGS:
        return False
    first = words[0].casefold()
    return first in _given_names() or (words[0][1:].islower() and not is_common(first)
                                       and first not in _name_words()["place"]
                                       and words[1].casefold() not in _FEATURES)


_FEATURES = frozenset("rivers lakes hills mountains islands falls springs heights plains woods fields".split())
"""Plural designators that are family names too, and after a word that is no given name name a place: "the Hudson
and Mohawk Rivers" ("Joan Rivers" is a person)."""


_BUILDINGS = frozenset("hall park street square station bridge tower house college school road gate gardens "
                       "garden court lane place".split())
"""Designators that follow a given name in place names ("Albert Hall", "Victoria Park"): those stay places."""


def is_given_name(word: str) -> bool:
    """True for a given name in Faker's lists that is no place name ("Bill", "Glen"; not "Victoria")."""
    return word.casefold() in _given_names()


def is_place_name(word: str) -> bool:
    """True for a place name in Faker's lists or a region countryinfo knows ("Turkey", "Europe")."""
    return word.casefold() in _name_words()["place"]


def is_surname(word: str) -> bool:
    """True for a family name in Faker's lists ("Hill", "Church"; not "Chapel" or "Castle")."""
    return word.casefold() in _surnames()


def is_real(word: str) -> bool:
    """True for an English word or well-known name: in wordfreq's English list or Faker's name lists."""
    parts = [p for p in word.replace("-", " ").split() if p]
    return any(p.lower() in _known_names() or _listed(p) for p in parts)


_LETTERS = re.compile(r"[A-Za-z]+")


def _listed(part: str) -> bool:
    """True when wordfreq gives ``part`` an English frequency above zero.

    Invented candidates are runs of ASCII letters, which wordfreq reads as one lower-cased token: such
    a word has a frequency exactly when its list holds it (every listed word is above Zipf 1), so a
    set lookup answers without wordfreq's tokenizer, the cost of most of a candidate's checks.
    """
    if _LETTERS.fullmatch(part):
        return part.lower() in _en_words()
    return zipf_en(part) > 0


@cache
def _en_words() -> dict[str, float]:
    from wordfreq import get_frequency_dict

    return get_frequency_dict("en", "best")  # type: ignore[no-any-return]  # as wordfreq asks: one cached copy


def is_known_name(word: str) -> bool:
    """True for a given name, family name or place name in Faker's lists ("Amber", "Rodriguez")."""
    return word.casefold() in _known_names()


@cache
def _web2() -> frozenset[str]:
    """Webster's Second International as the ``english-words`` package ships it (capitals kept there: common
    nouns and adjectives are written in lower case, proper names capitalised)."""
    from english_words import get_english_words_set

    return frozenset(get_english_words_set(["web2"], alpha=True))


@cache
def web2_lexicon() -> frozenset[str]:
    """The lower-case entries of Webster's Second."""
    return frozenset(w for w in _web2() if w.islower())


@cache
def _lexicon() -> frozenset[str]:
    """``web2_lexicon`` and the modern words it lacks ("indie", "megapixel", "playoff": ``data/modern-words.txt``,
    from SCOWL's en_US dictionary, made by ``tools/make_modern_words.py``)."""
    modern = (files(__package__) / "data" / "modern-words.txt").read_text(encoding="utf-8")
    return web2_lexicon() | frozenset(line for line in modern.splitlines() if line and not line.startswith("#"))


def is_proper_entry(word: str) -> bool:
    """True for a word the dictionary also has as a proper name, capitalised: "Atlas", "Mercury", "Pandora"
    (beside "atlas", "mercury"); not "Keeper", "Registrar", which it writes in lower case only."""
    return word[:1].upper() + word[1:].lower() in _web2()


def english_plural(word: str) -> bool:
    """True for the plural of an English noun ("lynxes", "emigres", "brewers"): a word ending in "s" whose singular the
    dictionary has."""
    return word.endswith("s") and is_word(word) and any(s != word and is_word(s) for s in singulars(word))


def singulars(word: str) -> list[str]:
    """The forms ``word`` may be the plural of, by the regular endings ("ambulatories": "ambulatory",
    "ambulatori", "ambulatorie") and "-men" ("militiamen": "militiaman"); none for another word."""
    if word.endswith("men") and len(word) > 5:
        return [word[:-3] + "man"]
    if not word.endswith("s"):
        return []
    if word.endswith("ies"):
        return [word[:-3] + "y", word[:-2], word[:-1]]
    return [word[:-2], word[:-1]] if word.endswith("es") else [word[:-1]]


@lru_cache(maxsize=1 << 16)  # asked for every word a name test or label test looks at
def capitalised_only(word: str) -> bool:
    """True for a word the dictionary writes capitalised and never in lower case, itself or its singular
    ("Britain", "European", "Americans"; not "Atlas", "Distance"), or an acronym ("AFP"): its capital is its
    own, also where a sentence opens."""
    if len(word) > 1 and word.isupper() and word.isalpha():
        return True
    return any(is_proper_entry(f) and not is_word(f) for f in (word, *singulars(word)))


@lru_cache(maxsize=1 << 17)
def is_word(word: str) -> bool:
    """True for a word English writes in lower case: its lower-case form, or its singular or stem, is a
    lower-case dictionary entry ("Appeal", "Provinces", "Located"; not "Plato", "Normandy", "Sikh", which
    wordfreq's case-blind counts rate as common as ordinary words)."""
    low = word.lower()
    lexicon, old = _lexicon(), web2_lexicon()
    return any(f in lexicon for f in (low, *singulars(low))) or any(f in old for f in stems(low))


def modern_only(word: str) -> bool:
    """True for an ``is_word`` that only the modern words make one ("Airbus", "Smartphone"; not "Gate"): coined or
    borrowed since 1934, brands among them."""
    low = word.lower()
    old = web2_lexicon()
    return is_word(word) and not any(f in old for f in (low, *singulars(low), *stems(low)))


def stems(low: str) -> list[str]:
    """The stems a dictionary may list the lower-case "-ed" or "-ing" form ``low`` under ("located": "locate",
    "locat"). Only Webster's Second is asked for them: a short modern word would make a name a form of it
    ("Peking" of "peke")."""
    if low.endswith("ed"):
        return [low[:-1], low[:-2]]
    if low.endswith("ing"):
        return [low[:-3], low[:-3] + "e"]
    return []


def is_common(word: str, level: float = COMMON_ZIPF) -> bool:
    """True for a common English word ("Liberal", "Records"), which a capital does not make a name.

    wordfreq counts are case-blind, so well-known names count too: "Bremen" is as common as "hurling".
    """
    return zipf_en(word) >= level


@lru_cache(maxsize=1 << 17)
def zipf_en(word: str) -> float:
    """wordfreq's English Zipf frequency of ``word``, cached: the same words are asked about again and again.

    A run of ASCII letters is one lower-cased token to wordfreq, so its frequency is read from the list
    and rounded as ``wordfreq.zipf_frequency`` rounds it (the same value for every such word of the list
    and for words not in it), without wordfreq's tokenizer, which costs a fifth of a millisecond a word.
    """
    if _LETTERS.fullmatch(word):
        freq = max(_en_words().get(word.lower(), 0.0), _FREQ_MIN)
        freq = round(freq, math.floor(-math.log(freq, 10)) + 3)  # as wordfreq: three significant digits
        return round(math.log(freq, 10) + 9, 2)
    return _zipf()(word, "en")


_FREQ_MIN = 1e-9
"""wordfreq's frequency for Zipf 0, the least ``zipf_frequency`` gives."""


@cache
def _zipf() -> Callable[[str, str], float]:
    """wordfreq's lookup, imported on first use (not when the package is imported) and only once."""
    from wordfreq import zipf_frequency

    return zipf_frequency  # type: ignore[no-any-return]


def _distance(a: str, b: str) -> int:
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def _near(a: str, b: str) -> bool:
    """True when at most two edits turn ``a`` into ``b``; never so when the lengths differ by more."""
    return abs(len(a) - len(b)) <= 2 and _distance(a, b) <= 2


PLURAL = re.compile(r"(?<![siu])s$")
"""A regular plural ending: not "-ss", "-is", "-us" of a singular ("abacus", "pubis", "Swiss")."""
_SINGULAR_ZIPF = 2.0
"""A word in "-s" is a plural when its singular is at least this common ("kurd" 2.5; not "gange" 1.7)."""


def _demonym_ending(original: str) -> str:
    """The original's demonym ending; "ian", or "ians" after a plural whose singular is a word ("Muslims" ->
    "Gamians", not "Gamian"; "Hindus", whose "-us" a singular's may be; but "Ganges" and "Pyrenees", which NER may
    call nationalities, and "Belarus" are no plurals)."""
    low = original.lower()
    plural = (PLURAL.search(low) is not None or low.endswith("us")) and is_common(low[:-1], _SINGULAR_ZIPF)
    return next((e for e in _DEMONYM_ENDINGS if low.endswith(e)), "ians" if plural else "ian")


_AN_LETTERS = frozenset("AEFHILMNORSX")
"""Letters whose names open with a vowel: "an FBI agent", "an NP-complete problem"; "a CIA agent", "a U.S. citizen"."""


def vowel_sound(word: str) -> bool:
    """True where "an" goes before ``word``, by how its letters are read: a word opening with a vowel ("an Irish
    poet", "an Old Man", "an Ulster town", "an Émile Zola fan"), not "eu", "one" or a "u" read "you" before one
    consonant and a vowel ("a European", "a Union", "a Ugandan", "a Ukrainian"); letters read one by one by the
    first one's name ("an FBI agent", "a CIA agent", "a U.S. citizen"; "a NASA engineer" and "a UNESCO site" are
    read as words). Invented words keep the sound of the words they replace, so the article before them stays
    right."""
    letters = word.replace(".", "")
    if len(letters) > 1 and letters.isupper() and letters.isalpha() and not (
            len(letters) >= 4 and any(c in "AEIOU" for c in letters[1:3])):
        return letter_sound(letters)
    low = ascii_fold(letters)
    you = low[:1] == "u" and len(low) > 2 and low[1] not in _VOWELS and low[2] in _VOWELS  # "Union", "Ugandan"
    return low[:1] in _VOWELS and not you and not low.startswith(("eu", "one", "uk"))


def letter_sound(word: str) -> bool:
    """True where the name of the first letter of ``word`` opens with a vowel ("F" is read "ef": "an FBI agent"),
    the sound its initial has in an initialism."""
    return ascii_fold(word)[:1].upper() in _AN_LETTERS


def _candidate(fake: Any, style: str, original: str, attempt: int) -> str | None:
    rng = fake.random
    models = _models()
    vowel = vowel_sound(original)
    if style == "acronym":  # short ones are nearly all taken: later attempts grow longer
        return "".join(rng.choice("BCDFGHJKLMNPRSTVWZ") for _ in range(len(original) + attempt // 50))
    if style == "state":  # a state's two letters: no real state's, no word ("OK"), no country's ("UK")
        return rng.choice(string.ascii_uppercase) + rng.choice(string.ascii_uppercase)
    if style == "demonym":
        stem = models["place"].generate(rng, 3, 6, vowel)
        return None if stem is None else (stem.rstrip("aeiouy") or stem) + _demonym_ending(original)
    if style == "org":
        style = rng.choice(("family", "place"))
    if style == "place" and rng.random() < 0.4:
        stem = models["place"].generate(rng, 3, 6, vowel)
        return None if stem is None else stem + fake.city_suffix()
    model = models["given" if style == "given" else "place" if style == "place" else "family"]
    return model.generate(rng, 4, 8 if style == "given" else 9, vowel)


def state_letters_taken(letters: str) -> bool:
    """True for two letters a replaced state's code may not become: a real state's ("TX"), a country's ("UK", "DE")
    or a word ("OX")."""
    from .places import codes, us_states

    return letters in us_states() or letters in codes() or letters.lower() in web2_lexicon()


_PAIR_ZIPF = 3.3
"""Two letters at least this common are a known code or word ("TV", "UK", "ok"): wordfreq lists every pair."""


def _free_pair(word: str, original: str) -> bool:
    """True for two capitals that may stand for a replaced code of two letters: no common code or word
    (``_PAIR_ZIPF``), no state's or country's code (``state_letters_taken``), no letter twice, and neither letter
    where the original has it ("US" -> "VK", not "UK", "UZ" or "VV")."""
    return (zipf_en(word) < _PAIR_ZIPF and not state_letters_taken(word) and word[0] != word[1]
            and all(a != b for a, b in zip(word, original.upper(), strict=False)))


def invent(fake: Any, style: str, original: str, taken: set[str], tries: int = 500) -> str:
    """A new name part in ``style`` (one of STYLES) to replace ``original``.

    Args:
        fake: A seeded Faker instance; its generator drives every choice.
        style: What kind of name to make (one of STYLES), or "word": a common English word for an ordinary word
            of a title of a work (see ``english``; an invented family name where no word fits); "state" makes the
            two capitals of a state's code (``state_letters_taken``).
        original: The part replaced; the new one opens with a vowel's sound exactly when it does (``vowel_sound``:
            "an Irish poet", "a European", "an FBI agent" stay grammatical), keeps its case style, and is not
            similar to it. Its first letter is also read like the original's where a candidate allows
            (``letter_sound``), so the letters of a name follow its new words with the same article ("an EU
            directive" beside "the Lostan Union" is "an LU directive", never "an BU directive").
        taken: Lower-cased words the new part must not equal (the instance's words, other inventions).
    """
    if style == "word":  # an ordinary word of a title of a work: another English word
        from .english import english_word

        found = english_word(fake.random, original, taken)
        if found is not None:
            return found
        style = "family"
    low_original = original.lower()
    vowel = vowel_sound(original)
    letter = letter_sound(original)
    for attempt in range(tries):
        word = _candidate(fake, style, original, attempt)
        if style == "state" and word:
            if word != original and word.lower() not in taken and not state_letters_taken(word):
                return word
            continue
        pair = style == "acronym" and word is not None and len(word) == 2  # "U.S." -> "V.K.": two letters stay two
        if not word or len(word) < 3 and not pair or word.lower() in taken or word.lower().startswith("mc"):
            continue
        if vowel_sound(word) != vowel or attempt < tries // 2 and style != "acronym" and letter_sound(word) != letter:
            continue
        if pair:
            if _free_pair(word, original):
                return word
            continue
        if any(c * 3 in word for c in set(word)) or _near(word, low_original) or is_real(word):
            continue
        if style == "acronym":
            return word
        return word if style == "lower" else word.capitalize()
    raise RuntimeError(f"could not invent a {style} name for {original!r}")  # pragma: no cover
