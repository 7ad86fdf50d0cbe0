"""Entities of one instance: which NER mentions count, and the words of names (parts, designators, titles).

A mention counts when it names something: not a lone month, weekday, stop word, number word, era
marker or unit, not an ordinary word filling a table cell or opening a sentence, line or list item
(see ``words``). Proper nouns NER missed are added as PROPN. What each becomes is ``mapping``'s work.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from .dates import MONTHS, SHORT_WEEKDAYS, WEEKDAYS, century_names
from .english import contracted, known, readings
from .names import (
    VERY_COMMON_ZIPF,
    capitalised_only,
    english_plural,
    is_common,
    is_given_name,
    is_known_name,
    is_place_name,
    is_proper_entry,
    is_region,
    is_surname,
    is_word,
    modern_only,
    singulars,
)
from .places import (
    city_names,
    country_of,
    demonym_or_language,
    faith_word,
    holiday_names,
    nationality,
    place_names,
    region_after,
    town_names,
    unaccented,
)
from .words import (
    ERAS,
    MARKS,
    cell_span,
    column_cells,
    fills_cell,
    header_row,
    in_degree,
    in_row,
    key_cell,
    key_column,
    key_label,
    label_cell,
    line_cells,
    measure_at,
    never_name,
    row_bracket,
    sentence_start,
    unit_at,
)

RARE_NAME_ZIPF = 1.5
"""Below this Zipf frequency a capitalised word is a name even where a sentence starts ("Tamazight" 1.3)."""

ENTITY_TYPES = ("PERSON", "TITLE", "NORP", "FAC", "ORG", "GPE", "LOC", "PRODUCT", "EVENT", "WORK_OF_ART", "LAW",
                "LANGUAGE", "PROPN", "TAXON", "SCRIPT", "CURRENCY", "TERM")
"""Labels of the names that are replaced, in the order their parts get a style (persons first, then titles, so
that "Songs" of "Songs from the Big Chair" becomes an English word also where NER calls it an organisation):
spaCy's entity labels, TITLE for titles of works that their context marks (see ``titles``), PROPN for proper
nouns the NER model missed (see ``propn_mentions``), TAXON and SCRIPT for binomials and non-Latin or IPA
renderings, CURRENCY for currency units and TERM for rare common nouns (see ``kinds``)."""

FUNCTION = frozenset("of the and & de la le les du des au aux der den van von da di del della y al el bin ibn for on "
                     "in at upon to a an all".split())
ABBREVIATED_TITLES = frozenset("mr mrs ms dr prof rev st sgt cpl pvt lt col gen capt maj adm cmdr supt insp".split())
"""Titles written short ("Dr.", "Sgt."): in a title of a work too they stay what they are ("Dr. No")."""
TITLES = ABBREVIATED_TITLES | frozenset(
                   "miss professor sir dame lord lady king queen prince princess duke duchess "
                   "count countess baron baroness baronet earl bishop archbishop pope saint st father brother "
                   "sister president general colonel captain admiral senator governor emperor empress patriarch "
                   "archpriest rev reverend cardinal chief judge justice major lieutenant sergeant marshal sultan "
                   "shah tsar czar khan rabbi imam sheikh mayor minister chancellor spokesman spokeswoman "
                   "spokesperson skipper coach coroner commissioner inspector detective constable superintendent "
                   "premier treasurer secretary ambassador envoy deputy chairman chairwoman magistrate sheriff "
                   "councillor councilor alderman congressman congresswoman commander commodore brigadier corporal "
                   "dean provost rector vicar pastor deacon abbot friar doctor emir caliph raja maharaja kaiser "
                   "pharaoh consul registrar comptroller bursar solicitor prosecutor attorney auditor curator "
                   "librarian headmaster headmistress uncle aunt auntie emeritus".split())
_NAMING_TITLES = ABBREVIATED_TITLES | frozenset("king queen lady lord".split())
"""Titles that end names of ordinary words as often as offices ("The Lion King", "Electric Lady", "Lake Shore Dr")."""
SUFFIXES = frozenset("jr sr jnr snr".split())
SPORTS = frozenset("""football rugby cricket golf tennis hockey soccer netball lacrosse baseball basketball athletic
    athletics rowing yacht racing reserve oval hurling camogie shinty curling volleyball handball softball badminton
    cycling swimming boxing wrestling skating skiing snooker archery fencing judo gymnastics triathlon motorsport
    chess futsal bandy""".split())
"""A sport's or ground's word: it stays in a name another word names ("Eltham Football Club", "Yulong Reserve") and
changes in one it alone names ("National Football League", "Federal Reserve")."""
PREFIXES = frozenset("anti pro non mid ex proto pseudo semi ultra counter co".split())
"""Prefixes written before a name or word with a dash, kept as they are: "Anti-Taliban forces", "Ex-Bond girl",
"Security and Co-operation"; not
"Post" or "Neo", which are names too ("Emil Post")."""
PERIOD_DESIGNATORS = frozenset("age ages era eras period periods epoch epochs dynasty dynasties".split())
"""Designators of named periods ("Triassic Period", "Iron Age", "Ming dynasty"): a period named by designators alone
("the Open Era", "the Early Period") is no name."""
_COMPOUND_POINTS = "northeast northwest southeast southwest northeastern northwestern southeastern southwestern"
"""The compass points between two others, and their adjectives: designators, positions and compass points alike."""
GENERIC = frozenset(("""
    fall
    sea ocean river lake bay gulf strait island islands isle mountain mountains mount mt hill hills valley desert
    forest park peninsula cape coast canal falls creek glacier plain plains basin vale glen heights springs beach
    point ridge pass marsh marshes canyon dam reservoir lighthouse peak reef atoll lagoon estuary fjord plateau volcano
    crater
    north south east west northern southern eastern western central upper lower new old great little free early late
    """ + _COMPOUND_POINTS + """
    city town village county province state states district region republic kingdom empire federation union
    territory viceroyalty duchy principality chamber chambers
    street road avenue square lane bridge tower castle fort palace cathedral church chapel abbey temple mosque
    highway highways expressway parkway turnpike freeway motorway boulevard causeway tunnel exit exits interchange
    day
    monastery museum library gallery zoo garden gardens airport station terminus port harbour harbor hall house
    building stadium arena theatre theater hospital clinic center centre school college university institute
    academy observatory laboratory laboratories railway railways hotel motel resort casino plaza mall pier cemetery
    memorial raceway prison penitentiary jail
    company corporation corp inc ltd llc plc group sons brothers partners associates bank club team party council
    committee commission court parliament congress senate assembly army navy force forces guard guards corps marine
    marines fleet battalion battalions regiment regiments brigade brigades squadron squadrons platoon division
    divisions infantry cavalry artillery airborne armoured armored ministry department office bureau
    agency society association foundation trust board guild order league united national international royal
    federal senior junior airlines airways motors works flight flights line lines route routes greater
    weekly daily express superfast times post news press review journal gazette herald tribune chronicle magazine
    radio television tv fm network studios orchestra choir ensemble ep lp dj
    language languages dialect dialects
    war battle siege treaty act law convention agreement accord conference revolution rebellion uprising campaign
    capture invasion conquest restoration census
    expedition crisis championship championships cup final games festival fest grand award prize medal trophy
    tournament marathon derby hurricane typhoon cyclone operation flood earthquake famine plague riot riots disaster
    tsunami eruption
    open time bill code charter constitution amendment statute decree edict resolution directive regulation
    declaration covenant protocol pact compact
    rms hms uss ss mv hmas
    article section chapter clause paragraph part volume appendix annex figure verse episode season list lists
    round stage phase side end police ombudsman authority service government governments administration cabinet
    seas rivers lakes bays gulfs straits isles valleys deserts forests parks peninsulas capes coasts canals creeks
    glaciers basins ridges canyons dams cities towns villages counties provinces districts regions republics
    kingdoms empires territories streets roads avenues squares bridges towers castles forts palaces churches
    temples mosques museums stations schools colleges universities wars battles treaties prizes festivals
    tournaments cups series medals trophies
    """).split()) | PERIOD_DESIGNATORS
"""Designators kept as they are inside names ("RMS Lusitania", "Tobolsk Viceroyalty", "Free City of Oskel")."""
AWARDS = frozenset("award awards prize prizes medal medals trophy trophies cup cups".split())
"""Designators of awards: an award's name changes, its field stays ("Nobel Prize in Physics", see ``mapping``)."""
_VENUES = frozenset("stadium arena center centre hall theatre theater coliseum dome ballpark speedway".split())
"""Designators of a venue: NER's organisation of capitalised words before one is a venue's name, named by its
designator as a place is ("| Citizens Business Bank Arena |"; not "| Town Hall |", designators alone)."""
CATEGORY_OPENERS = frozenset("best outstanding most favourite favorite".split())
_PERIODS = frozenset("old middle medieval mediaeval ancient classical vulgar late early modern archaic koine biblical "
                     "standard contemporary colloquial literary".split())
"""Words naming a period or register of a language ("Medieval Latin", "Early Modern English"): they stay, and the
language after them is the name."""
_OF_THE_YEAR = re.compile(r"\bof the Year$")
"""An award's category: "Best Picture", "Outstanding Drama Series", "Most Valuable Player", "Album of the Year"."""
_OF_THE_YEAR_AFTER = re.compile(r"(?i)[ \t]+of[ \t]+the[ \t]+year\b")
"""What follows a category's words that NER cut from it: "New Artist" of "Top 40 New Artist Of The Year"."""
_OF_THE_BEFORE = re.compile(r"(?i)\bof[ \t]+the[ \t]+\Z")
"""What precedes the "Year ..." that NER cut from a category: "Woman Of The Year Awards"."""
_SETTLEMENT_AFTER = re.compile(r"(?:,[ \t]+|[ \t]+(?:is|was)[ \t]+)(?:a|an|the)[ \t]+(?:[a-z-]+[ \t]+){0,3}?"
                               r"(?:city|town|village|commune|municipality|borough|suburb|hamlet|settlement|"
                               r"market[ \t]+town|seaside[ \t]+resort|port[ \t]+city)[ \t]+(?:in|on|of|near)\b")
"""A settlement named before it: "Nice is a city on the Riviera", "Reading, a large town in Berkshire"."""
HEADS = frozenset("government governments cabinet opposition treasury test tests".split())
"""Words that stay in a name as designators do where another word names it ("Queensland Government", "Test in
Adelaide"), and change as a name's first word does where none does ("Government College University", see
``mapping``); alone they name nothing ("the Government will wait", "a security Cabinet meeting", "the Opposition's
push", "the Treasury", "the Test starts")."""
POSITIONS = frozenset(("north south east west northern southern eastern western central upper lower middle new old "
                       "great little " + _COMPOUND_POINTS).split())
"""The designators that tell a compass point or position: "North-East" and "Upper West" name no one place."""
_COMPASS = frozenset(("north south east west northern southern eastern western central middle " + _COMPOUND_POINTS)
                     .split())
"""The ``POSITIONS`` that tell a compass point: "| West Indies |" names a place, "| New Flyer |" need not."""
_EAST = re.compile(r"(?:Middle|Near|Far)[ \t]+East")
"""The regions English names by their distance east, which no other words name: "the Middle East", "Far East"."""
MONTHS_DAYS = frozenset("january february march april may june july august september october november december "
                         "monday tuesday wednesday thursday friday saturday sunday".split())
_WEEKDAYS_PLURAL = frozenset(f"{d}s" for d in WEEKDAYS)
_CALENDAR = MONTHS_DAYS | _WEEKDAYS_PLURAL | frozenset(
    "morning mornings afternoon afternoons evening evenings night nights noon midnight weekend weekends".split())
"""Words that tell a date or a time of day or week: months, weekdays and their plurals, parts of the day."""
_ORDINAL_NUMBER = re.compile(r"\d+(?:st|nd|rd|th)?")


def calendar_words(words: Sequence[str]) -> bool:
    """True for words that only tell when: a month or weekday (or weekdays) with numbers or a part of the day ("the
    September 13 episode", "broadcast on Sunday Night", "playing on Sundays"); not "Bloody Sunday", "Theresa May"."""
    lows = [w.casefold().rstrip(".") for w in words]
    return any(w in MONTHS_DAYS or w[:-1] in WEEKDAYS for w in lows) and all(
        w in _CALENDAR or _ORDINAL_NUMBER.fullmatch(w) is not None for w in lows)


EVENT_AFTER = re.compile(r"[ \t]+(?:attacks?|bombings?|hijack\w*|terror\w*|Commission|[Mm]emorial|victims|era|"
                         r"generation|conspiracy|truth\w*)\b")
"""A word for an attack or its aftermath after the day that names it ("the 9/11 attacks", "the September 11
attacks", "the 9/11 Commission")."""


def only_when(text: str, end: int, words: Sequence[str]) -> bool:
    """True for ``calendar_words`` ending at ``end`` of ``text`` that name no event after them: "the September 13
    episode"; not "the September 11 attacks", an event named by its day (which changes)."""
    return calendar_words(words) and EVENT_AFTER.match(text, end) is None


_PART = re.compile(rf"(?:[^\W\d_]\.){{2,}}|[^\W_](?:[^\W_]|{MARKS})*(?:['’][^\W_](?:[^\W_]|{MARKS})*)*")
"""A part of a name: an initialism ("U.S."), or letters and digits with the marks that join them ("बुद्ध", whose
vowel signs are no letters), apostrophes inside."""
_DOTTED = re.compile(r"(?:[^\W\d_]\.){2,}")
_PARTICLE = re.compile(r"(?:d|l|dell|dall|de)['’](?=[^\W\d_])")
_ROMAN = re.compile(r"(?=[IVXLC])C{0,3}(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})")
_TRAIL = re.compile(r"(?:['’]s|['’]|[^\w.]+|(?<=[^\W\d_]{2})\.)$")


_CUT_AFTER = frozenset("of the and a an".split())
"""Function words that end no name: an NER span ending with one was cut short ("New Artist Of"); not "On" or "In",
which may end a title ("You Keep Me Hangin' On")."""
_POSSESSIVE = re.compile(r"['’]s$")
_NONSPACE = re.compile(r"\S+")
_SHAPE = str.maketrans({"’": "'", "–": "-", "—": "-"})


@lru_cache(maxsize=1 << 16)
def shape(text: str) -> str:
    """``text`` with one apostrophe, one dash and single spaces: how alias spellings are compared."""
    return " ".join(text.translate(_SHAPE).split())


@lru_cache(maxsize=1 << 16)
def norm(text: str) -> str:
    """The key two spellings of one name share: ``shape``, case-folded and without the accents of Latin letters
    ("México" and "Mexico", "Dōngníng" and "Dongning" are one name)."""
    return unaccented(shape(text).casefold())


def parts(text: str) -> list[tuple[int, int]]:
    """Spans of the name parts of ``text``; a lower-case particle ("d'" in "d'Albret") is no part."""
    return list(_parts(text))


@lru_cache(maxsize=1 << 16)  # the same names are split again and again
def _parts(text: str) -> tuple[tuple[int, int], ...]:
    out = []
    for m in _PART.finditer(text):
        start, word = m.start(), m[0]
        p = _PARTICLE.match(word)
        if p:
            start, word = start + p.end(), word[p.end():]
        if _POSSESSIVE.search(word) and len(word) > 3:
            word = word[:-2]
        out.append((start, start + len(word)))
    return tuple(out)


@lru_cache(maxsize=1 << 16)
def ordinary(word: str) -> bool:
    """True for a word that is more likely an ordinary English word than a name: common in English, and
    either very common ("White", "Will") or no given, family or place name that the dictionary writes in
    lower case ("Liberal"; not "Amber", "Rodriguez", "Munich", "Plato", which are common in wordfreq's
    case-blind counts because they are frequent names). Acronyms and abbreviations ("URL", "PhD", "Fr")
    are judged by their frequency alone."""
    return is_common(word) and (is_common(word, VERY_COMMON_ZIPF) or (not is_known_name(word) and (
        is_word(word) or len(word) <= 2 or any(c.isupper() for c in word[1:]))))


STAGES = frozenset("""finals quarterfinal quarterfinals semifinal semifinals playoff playoffs qualifier qualifiers
    qualifying qualification knockout""".split())
"""The stages of a competition, kept in the names they end ("AFC U-16 Championship (Quarterfinal)", "2019 Nitto ATP
Finals") and never a name alone; unlike a designator (``GENERIC``) they make no words before them a name
("Quarter-Finals")."""
KEPT_WORDS = GENERIC | STAGES | TITLES | MONTHS_DAYS | _WEEKDAYS_PLURAL | SPORTS
"""Designators, stages, titles, months, weekdays (also plural) and sports' words: words that name nothing alone,
which the leak scan never suspects (``scan``); ``_kept`` keeps all but the sports' words inside names with a person's
exceptions (a sport's word stays where another word names the club, see ``mapping``)."""


def _kept(part: str, first: bool, person: bool = False) -> bool:
    """True for a part that stays as it is: an initial, particle, title, prefix ("Anti-"), number, lower-case word,
    contraction ("You're" of NER's person "Glad You're"), a Roman numeral after the first part, or a designator
    ("Article 158" too), unless in a person's name it is also a known family name ("Damon Hill"; but "Castle
    Donington", which NER may call a person, keeps "Castle"), or a given name opening it ("Bill Gates")."""
    low = part.casefold()
    return (len(part) == 1 or low in FUNCTION or low in TITLES or low in SUFFIXES or contracted(part)
            or low in PREFIXES and not part.isupper()  # "Co-operation", "MGM Distribution Co"; not the state "CO"
            or (never_name(part) and not (person and is_known_name(low)))
            or (low in GENERIC and not (person and (is_surname(low) or (first and is_given_name(low)))))
            or low in STAGES
            or (low in WEEKDAYS and not first and not person)  # "Bloody Sunday" -> "Wohns Sunday"
            or any(c.isdigit() for c in part) or (part[:1].islower() and not _camel(part))
            or (not first and numeral_part(part)))


def numeral_part(part: str) -> bool:
    """True for a Roman numeral, maybe possessive ("VIII's" of "Henry VIII's wives", "I's" of "Charles I's reign"):
    after a name's first part, the number of a monarch, pope or sequel, which stays."""
    return _ROMAN.fullmatch(_POSSESSIVE.sub("", part)) is not None


_INNER_WORD = re.compile(r"[A-Z][a-z]")


def _camel(word: str) -> bool:
    """True for a brand written in lower case with a capitalised word inside ("iPhone", "eBay"): a name, not a
    lower-case word; not a symbol or abbreviation ("mRNA", "pH")."""
    return word[:1].islower() and word.isalpha() and _INNER_WORD.search(word, 1) is not None


def styled(new: str, old: str) -> str:
    """``new`` in the case style of ``old``: capitals stay capitals, lower case stays lower case."""
    if len(old) > 1 and old.isupper() and not new.isupper():
        return new.upper()
    if old.islower():
        return new.lower()
    if old[:1].isupper() and new[:1].islower():  # a lower-case part opening a sentence: "Kroon", "Alteri"
        return new[:1].upper() + new[1:]
    return new


WORD_START, WORD_END = r"(?<![^\W\d_])(?<!__)", r"(?![^\W\d_])(?!__)(?!['’]t(?![^\W\d_]))"
"""Where a name found in a text starts and ends: no letter right before or after it, where a digit is no part of
a word ("ロード88", "一本漫畫闖天涯2之妙想天開", "Boeing747", "$US3000") and neither is an underscore (a letter lost in
a scraped text: "Grabar-Kitarovi_ is", "Tangerine_Microtan_65"), unless doubled as markup has it ("__TOC__"); nor a
contraction's "'t" ("Don't" holds no "Don")."""


def alias_pattern(text: str) -> str:
    """A regex for ``text`` that accepts either apostrophe, any dash and any run of white space."""
    out = []
    for chunk in re.split(r"(\s+|['’]|[-–—])", text):
        if not chunk:
            continue
        out.append(r"\s+" if chunk.isspace() else "['’]" if chunk in "'’" else "[-–—]" if chunk in "-–—"
                   else re.escape(chunk))
    return "".join(out)


@dataclass(frozen=True)
class Mention:
    """One entity mention NER found, trimmed to the name (no "the", possessive, or trailing words)."""

    field: str
    start: int
    end: int
    text: str
    label: str


_SYLLABLE = re.compile(r"\\?-([a-z]{2,})(?![\w'’-]|\.\w)")


def syllable_end(text: str, end: int) -> int | None:
    """Where the lower-case syllable after a dash at ``end`` ends, when it ends a romanised name there ("hoon" of
    "Lee Seung-hoon", "ichi" of "Jun-ichi", "nin" of "Ngo Ka-nin", also escaped: "Seung\\-yeol"); None for an
    English word ("Shih Tzu-like", "Lion-hearted", "Blu-ray", "Co-operation"), a function word, a syllable the name
    goes on after ("des" of "Saint-Maur-des-Fosses") and a domain's label ("Archimedes-lab.org"); nor a syllable as
    common as the lower-case words that stay (``TERM_ZIPF``: "jun" of "Min-jun", "ho", "il", "ji")."""
    m = _SYLLABLE.match(text, end)
    if (m is None or m[1] in FUNCTION or known(m[1]) or is_word(m[1]) and len(m[1]) > 4
            or is_common(m[1], TERM_ZIPF)):
        return None
    return m.end()


def trim(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The name inside an NER span: without leading articles, numbers and lower-case words, and without
    trailing lower-case words, a possessive or punctuation; None when nothing is left."""
    words = [(start + m.start(), start + m.end()) for m in _NONSPACE.finditer(text[start:end])]

    def core(a: int, b: int) -> str:
        return text[a:b].strip("\"'“”‘’()[],;:!?")

    def lower(a: int, b: int) -> bool:  # "l'amène", "nom"; not "d'Albret", not "98"
        return any(c.isalpha() for c in text[a:b]) and not any(c.isupper() for c in text[a:b])

    while words and (not core(*words[0]) or core(*words[0]).casefold() in ("the", "a", "an")
                     or any(c.isdigit() for c in text[slice(*words[0])]) or lower(*words[0])):
        words.pop(0)
    while words and (not core(*words[-1]) or lower(*words[-1]) or core(*words[-1]).casefold() in _CUT_AFTER):
        words.pop()  # "New Artist Of" of "Top 40 New Artist Of The Year": NER cut the name
    if not words:
        return None
    start, end = words[0][0], words[-1][1]
    while start < end and not text[start].isalnum():
        start += 1
    while start < end:
        m = _TRAIL.search(text, start, end)
        if not m or not m.group():
            break
        end = m.start()
    return (start, end) if start < end else None


TERM_ZIPF = 3.0
"""A word the instance writes in lower case and capitalises only where sentences open is an ordinary word
from this Zipf frequency on ("alchemy" 3.2: it stays in every case); a rarer one is a term that tells what the
instance is about ("albedo" 2.6, "aardwolf" 1.1: it is replaced in every case)."""


@lru_cache(maxsize=1 << 12)
def whole_word(word: str, possessive: bool = False) -> re.Pattern[str]:
    """``word`` as written and whole: not inside a longer, hyphenated or elided word ("albedos", "pre-albedo",
    "l'albedo", "albedo's"), or with ``possessive`` also before an apostrophe ("albedo's")."""
    return re.compile(r"(?<![\w'’-])" + re.escape(word) + (r"(?![\w-])" if possessive else r"(?![\w'’-])"))


def written_words(candidates: Iterable[str], texts: Sequence[str]) -> set[str]:
    """The capitalised dictionary words among ``candidates`` that the instance also writes in lower case and
    capitalises only where a sentence, line or cell opens: "Albedo () or reflection coefficient, from Latin
    albedo ..." is about the word, and replacing "Albedo" alone would lose a word and leave the other ("Male: Ivory
    silk frock coat" beside "ivory silk"; a family name too); so is a rarer word the dictionary lacks ("Aikido
    derives from ..." beside "approaches to aikido"), but a name it writes capitalised and a common word. A given
    name or a place ("Reading", "Turkey") and a word capitalised inside a sentence anywhere in the instance stay
    names; a given name or a place of Faker's lists only where its phrase is written in lower case too (``_echoed``:
    "Genres | Indie rock, indie folk")."""
    words = set()
    for w in candidates:
        if len(w) <= 2 or not (w[:1].isupper() and w[1:].islower() and w.isalpha()):
            continue
        named = is_given_name(w) or is_place_name(w)
        if (not is_word(w.lower()) and (capitalised_only(w) or is_known_name(w) or is_common(w, TERM_ZIPF))
                or known_place(w) or (named and not _echoed(w, texts))):
            continue
        if not any(whole_word(w.lower()).search(t) for t in texts):
            continue
        if all(sentence_start(t, m.start()) or in_degree(t, m.start())  # "Bachelor of Social Work" and "social work"
               for t in texts for m in whole_word(w).finditer(t)):
            words.add(w)
    return words


def misnamed_people(found: Collection[Mention], texts: Sequence[str]) -> set[str]:
    """The texts of the one-word mentions in ``found`` of a capitalised dictionary word that NER called a
    nationality, religious or political group, that names no people and that a text with capitals also writes in
    lower case: an ordinary word a writer capitalised, wherever that happens ("Is it true that Social workers ..."
    beside "social work", "A Psychiatrist needs" beside "psychiatrists", "the Cycling events" beside "18 cycling
    events"); with its plural or singular found as another kind ("Psychiatrists"). Not a people's or a language's
    word ("French", "Hindu"), a name the dictionary writes capitalised, a given name or a place, nor a word of a
    longer name ("Marines" beside "Marine Corps"); a text wholly in lower case (a question as typed: "how many
    democrats ...") and a web address ("www.crufts.org.uk") tell nothing."""
    in_names = {m.text[a:b].casefold() for m in found if len(ps := parts(m.text)) > 1 for a, b in ps}
    words = set()
    for w in {m.text for m in found if m.label == "NORP"}:
        if not (len(w) > 2 and w[:1].isupper() and w[1:].islower() and w.isalpha()) or not is_word(w.lower()):
            continue
        if (nationality(w) or demonym_or_language(w) or is_proper_entry(w) or is_given_name(w) or is_place_name(w)
                or known_place(w) or any(f in in_names for f in (w.casefold(), *singulars(w.casefold())))):
            continue
        written = re.compile(rf"(?<![\w./@-]){w.lower()}(?![\w@-]|\.\w)")
        if any(not t.islower() and written.search(t) for t in texts):
            words.add(w)
    return words | {m.text for m in found if any(f in words for f in singulars(m.text))
                    or any(m.text in singulars(w) for w in words)}


_NEXT = re.compile(r"[ \t]+([a-z]+)\b")


def _echoed(word: str, texts: Sequence[str]) -> bool:
    """True when every capitalised ``word`` of the instance is followed by a lower-case word, and its line writes
    ``word`` in lower case too ("Genres | Indie rock, blues rock, indie folk"), or the instance writes the pair in
    lower case ("Indie rock" and "an indie rock album"): a phrase of ordinary words, not a name."""
    low, seen = word.lower(), False
    for t in texts:
        for m in whole_word(word).finditer(t):
            after = _NEXT.match(t, m.end())
            if after is None:
                return False
            line = t[t.rfind("\n", 0, m.start()) + 1:t.find("\n", m.end()) % (len(t) + 1)]
            pair = re.compile(rf"(?<![\w'’-]){low}[ \t]+{after[1]}\b")
            if not whole_word(low).search(line) and not any(pair.search(x) for x in texts):
                return False
            seen = True
    return seen  # a name the instance never capitalises ("camilla" of a question in lower case) is no phrase


def ordinary_written_words(candidates: Iterable[str], texts: Sequence[str]) -> set[str]:
    """The ``written_words`` that are ``plain_written``: ordinary words, kept in every case ("Alchemy ... alchemy");
    the others are terms."""
    return {w for w in written_words(candidates, texts) if plain_written(w)}


def plain_written(word: str) -> bool:
    """True for a ``written_words`` word that is no term: at least as common as ``TERM_ZIPF``, or no noun in the
    lexicon ("Authenticated." opening a cell beside "the first authenticated 100 mph", "Unmodified")."""
    found = readings(word)  # none for a word the lexicon lacks: a noun, as terms are
    return is_common(word, TERM_ZIPF) or bool(found) and all(upos != "NOUN" for upos, _ in found)


@lru_cache(maxsize=1 << 16)
def _column_word(word: str) -> bool:
    """True for a word that names a column in a table's header row: a dictionary word, also with an accent the
    dictionary lacks ("Holder", "| OPPONENT |", "| Première date |"), or a common word that is no known name or place
    and not written only capitalised ("Apps"; not "Nixon", "Hebrew", "Michigan"), no country."""
    if word.casefold() in MONTHS_DAYS or word.casefold().rstrip(".") in MONTHS:
        return True  # "| Month | Jan | Feb | Mar |"
    if word.isupper() and len(word) <= 4 and not is_common(word, VERY_COMMON_ZIPF):
        return False  # a code: "| Peak chart positions GER |" ("| DATE |", "| TEAM |" are words)
    return country_of(word) is None and not known_place(word) and (
        is_word(word) or is_word(unaccented(word)) or is_common(word) and not is_known_name(word)
        and not capitalised_only(word) and not _name_shaped(word))


def _header_name(text: str, start: int, end: int, words: Sequence[str]) -> bool:
    """True for one ``_name_shaped`` word filling a cell of a table's header row: a column named after someone ("|
    County | Obama | Votes | McCain |"), which the rows' labels do not make a label."""
    return (len(words) == 1 and _name_shaped(words[0]) and not _column_word(words[0]) and header_row(text, start, end)
            and cell_span(text, start, end) == (start, end))


@lru_cache(maxsize=1 << 16)
def _name_shaped(word: str) -> bool:
    """True for a word of five letters or more, letters only, that no dictionary has in any of its English forms
    (superlative, British spelling, "-ied", plural) nor writes as two words run together: a name that names a column
    after someone ("| County | Obama | Votes | McCain |"), not a label ("Oldest", "Metres", "Colour", "Ratified",
    "Rankings", "Headcoach"; "Apps", "Pts" are short)."""
    if len(word) < 5 or not word.isalpha():
        return False
    low = word.lower()
    forms = [low]
    if low.endswith("est"):
        forms += [low[:-3], low[:-2], low[:-4]]  # "oldest", "latest", "biggest"
    if low.endswith("re"):
        forms.append(low[:-2] + "er")  # "metres"
    if low.endswith("res"):
        forms.append(low[:-3] + "ers")  # "centres"
    if "our" in low:
        forms.append(low.replace("our", "or"))  # "colour", "honours"
    if low.endswith(("ied", "ies")):
        forms.append(low[:-3] + "y")  # "ratified"
    if low.endswith("s"):
        forms.append(low[:-1])  # "rankings"
    return not any(is_word(f) for f in forms if f) and not any(  # nor two words run together: "Headcoach"
        is_word(low[:i]) and is_word(low[i:]) for i in range(3, len(low) - 2))


def _plain_key(word: str) -> bool:
    """True for a word in lower case after its capital that is no known name, given name, place or country, and that
    the dictionary does not write only capitalised: opening an infobox's key, it names the value even where the
    dictionary lacks it ("Demonym(s) | ...", "Ridership | ..."). Not in a header row: an infobox's first row,
    "title | Bridgeport, Connecticut", reads as one."""
    return (len(word) >= 3 and word.isalpha() and word[:1].isupper() and word[1:].islower()
            and country_of(word) is None and not (is_known_name(word) or is_given_name(word) or is_place_name(word)
                                                  or known_place(word) or capitalised_only(word)))


def _column_word_at(text: str, start: int, end: int) -> bool:
    """``_column_word`` for the word ``text[start:end]``, or a ``_plain_key`` where the word opens an infobox's key
    that is a ``_key`` ("Demonym(s)"; not "Tydings" of "Tydings-McDuffie Act")."""
    word = text[start:end]
    if _column_word(word):
        return True
    if acronym_key_cell(text, start, end):
        return True  # "GPU | Adreno 530", "ISBN | 978-...": an infobox key, a label however it is written
    if _header_abbreviation(text, start, end):
        return True  # "| Train | Arr. | Power |"
    return _plain_key(word) and _opens_key_cell(text, start, end)


def _header_abbreviation(text: str, start: int, end: int) -> bool:
    """True for a short capitalised word filling a cell of a table's header row: a column's name written short, with
    its period ("| Arr. |", "| Pts. |", "| Pos. |") or without one where it is no word and no given or family name
    ("| Rnd |", "| Qual |"), and no known name, place or country either way."""
    word = text[start:end]
    stop = text[end:end + 1] == "."
    return (2 <= len(word) <= (5 if stop else 4) and word[:1].isupper() and word[1:].islower()
            and cell_span(text, start, end + stop) == (start, end + stop) and header_row(text, start, end)
            and not is_known_name(word) and not known_place(word) and country_of(word) is None
            and (stop or not (is_word(word.lower()) or is_given_name(word) or is_surname(word)
                              or is_place_name(word))))


def _opens_key_cell(text: str, start: int, end: int) -> bool:
    """True when ``text[start:end]`` opens a cell that is an infobox's key and a ``_key``."""
    a, b = cell_span(text, start, end)
    return a == start and key_cell(text, start, end) != () and _key(text[a:b])


def key_word_at(text: str, start: int, end: int) -> bool:
    """True for a word English has (a dictionary word or a common one) opening an infobox's key that is a ``_key``:
    "Grandsire | Bull Dog", "Inker | ...", "Default user interface | Unix"; not a rare name opening a row ("Swedbank |
    1,234 |"). Such a word is no name where a question asks about it ("its Grandsire was Bull Dog")."""
    word = text[start:end]
    return (is_word(word) or is_common(word)) and _opens_key_cell(text, start, end)  # not "Swedbank | 1,234 |"


def acronym_key_cell(text: str, start: int, end: int) -> bool:
    """True for an acronym that is an infobox's key on its own ("GPU | Adreno 530", ``_acronym_key``). Not in a
    table's header row ("| Year | MVP |", "| PGA | Total |": a column may be named after a tournament), nor before
    words of a key ("NBA draft", "ISTAT code": an organisation the value comes from)."""
    return (cell_span(text, start, end) == (start, end) and _acronym_key(text[start:end]) and _infobox(text, start)
            and key_cell(text, start, end) != ())


def _acronym_key(word: str) -> bool:
    """True for an acronym that is no country or place ("GPU"; "USA" is a value)."""
    return (2 <= len(word) <= 5 and word.isupper() and word.isalpha() and country_of(word) is None
            and not known_place(word))


def _key(cell: str) -> bool:
    """True when ``cell`` has words and its capitalised ones name a value: ``_column_word``s, or a ``_plain_key``
    opening a key with no other capital ("Born", "2018 date", "Demonym(s)", "Capitaland largest city"; not "2023",
    "---", "Nixon", "Gihon Spring settlement", nor a place of column words, "Middle East"), also as a possessive
    ("Manufacturer's points")."""
    words = [_POSSESSIVE.sub("", m[0]) for m in _PART.finditer(cell) if not m[0].isdigit()]
    capitals = [w for w in words if w[:1].isupper()]
    return bool(words) and not _place(cell.strip()) and (all(map(_column_word, capitals))
                            or capitals == words[:1] and _plain_key(words[0]))


def _opens_key(cell: str) -> bool:
    """True when the first word of ``cell`` is a ``_column_word`` ("Born", "2018 date", "Lowest elevation- at Lake
    Michigan"; not "2023", "---", "John Smith", "Swedbank"), and the cell is no person's name (``_person_cell``: "Mark
    Smith", "Harry Oliver", although the dictionary has every word of them)."""
    words = [m[0] for m in _PART.finditer(cell) if not m[0].isdigit()]
    return bool(words) and _column_word(words[0]) and not _person_cell(words)


def _person_cell(words: Sequence[str]) -> bool:
    """True for the two or three words of a cell that read as a person's name: a given name, then capitalised family
    names or words that name no column ("Mark Smith", "John Brown", "Hans Dreier")."""
    return 2 <= len(words) <= 3 and is_given_name(words[0]) and all(
        w[:1].isupper() and (is_surname(w) or not _column_word(w)) for w in words[1:])


@lru_cache(maxsize=1 << 10)
def _keys(column: tuple[str, ...]) -> bool:
    """True when two in three of a ``key_column``'s cells open as keys (``_opens_key``): an infobox, not a
    two-column table of names ("Nixon | 1972", "Swedbank | 354.5"). Cells that are an acronym alone ("GPU", "SPD")
    are left out of the count, and at least two other cells must be left to decide ("| Party | Seats |" over
    "| SPD | 120 |" is a table)."""
    plain = [c for c in column if not _acronym_key(c.strip())]  # "CPU | ...", "GPU | ...": no evidence either way
    if len(plain) < len(column) and len(plain) < 2:
        return False  # the other keys must show an infobox
    return 3 * sum(map(_opens_key, plain)) >= 2 * len(plain)


def column_cell(text: str, start: int, end: int) -> bool:
    """True when ``text[start:end]`` lies in a cell that names what the cells beside it hold: the key of an infobox
    row ("Locale | Fairfax County", "Electrification | 1928": the first cell of a block of two-cell rows whose first
    cells read as keys), or a table's header row (``header_row``). An infobox has no header row: its first row is a
    key and a value like the others ("title | Johannesburg" over "City | 957,441")."""
    if _infobox(text, start):
        return key_cell(text, start, end) != ()
    return header_row(text, start, end)


def _infobox(text: str, pos: int) -> bool:
    """True when the line holding ``pos`` is a row of an infobox: a block of two-cell rows whose first cells read as
    keys (``_keys``)."""
    column = key_column(text, text.rfind("\n", 0, pos) + 1)
    return bool(column) and _keys(column)


def column_words_at(text: str, start: int, end: int) -> bool:
    """True when ``text[start:end]`` lies in a ``column_cell`` and its words name a column (``_column_word``): such
    words stay there even where an instance's name shares them ("| Year | Winner | Song |" beside the person NER saw
    in "Best Modern Rock Song"; "Flight origin | ..." beside "Ethiopian Airlines Flight 302")."""
    return (column_cell(text, start, end) and not _place(text[start:end])
            and all(_column_word_at(text, m.start(), m.end()) for m in _PART.finditer(text, start, end)))


def _old_style_date(words: Sequence[str]) -> bool:
    """True for the words of a date in the Old Style, "O.S.", a day and a month ("O.S. 24 March", "O.S. December 25"):
    NER's name, no name; "September 11" alone may be an event's."""
    lows = [w.casefold() for w in words]
    return ("o.s." in lows and any(w in MONTHS_DAYS for w in lows)
            and all(w in ERAS or w.isdigit() or w in MONTHS_DAYS for w in lows))


_NO_TOPIC = GENERIC | TITLES
"""Words that designate or entitle before "of" ("Bank of England", "King of Spain"): no topic's."""


def _topic_of_place(text: str, ps: Sequence[tuple[int, int]], words: Sequence[str]) -> int | None:
    """The index of the place's first word where ``words`` are an ordinary word, "of" or "in", maybe "the", and a
    place (``_place``, or a city the lists know): "Economy of Estonia", "Politics of Angola", "History of the United
    States", "Transport in Angola", a topic of Wikipedia's; not where the word designates ("Bank of England",
    "University of Melbourne") or is a title ("King of Spain"), nor where the place of one word is a dictionary word
    ("Declaration of Independence")."""
    if len(words) < 3 or words[1] not in ("of", "in") or words[0].casefold() in _NO_TOPIC or not (
            ordinary(words[0]) and is_word(words[0])):
        return None
    i = 3 if words[2] == "the" else 2
    if i >= len(ps):
        return None
    place = text[ps[i][0]:ps[-1][1]]
    if " " not in place and is_word(place):
        return None
    return i if _place(place) or place in city_names() else None


_TOPIC_AFTER = re.compile(r"[ \t]+of[ \t]+([a-z][\w'’-]*)")
_PEOPLE_OR_PLACE = frozenset({"PERSON", "NORP", "LANGUAGE", "GPE", "LOC", "FAC"})


def _topic_before(text: str, end: int, word: str) -> bool:
    """True for an ordinary word, no designator or title (``_NO_TOPIC``), before "of" and a word in lower case: an
    article's topic ("Analysis of variance", "History of art"), which NER may split to call its first word a body.
    Not before "in" ("Apple in talks", "Apple in California" are the company)."""
    m = _TOPIC_AFTER.match(text, end)
    return (m is not None and m[1] not in FUNCTION and word.casefold() not in _NO_TOPIC
            and ordinary(word) and is_word(word))


def _place(name: str) -> bool:
    """True for a country or a place ``countryinfo`` knows, however many words it has ("United States"), or a region
    named by its distance east (``_EAST``: "Middle East")."""
    return country_of(name) is not None or name in place_names() or east_region(name)


def east_region(name: str) -> bool:
    """True for a region named by its distance east (``_EAST``: "Middle East", "Far East")."""
    return _EAST.fullmatch(name) is not None


def label_words(words: Sequence[str], text: str, start: int, end: int, named: bool = False) -> bool:
    """True when ``words``, filling ``text[start:end]``, are a label, not a name.

    - In a table's header row (``header_row``): words that name columns (``_column_word``: "| Apps |", "Oldest
      Living President"; not "| Nixon |", "| Hebrew |", "| China |").
    - In a "Key:" label, or an ordinary word alone before a colon anywhere ("(shoes) Male: ..."): words that are no
      known names ("Boroughs:", "Demonym:"); a known name that is a dictionary word too counts as a word ("Best
      Rebounder:"; "Paris:" is a name).
    - Dictionary words at least as common as ``TERM_ZIPF`` filling a bracket in a table row ("| 10-15 minutes (Rush
      Hour) |"; not "(Japan)", "(Telluride)", nor a designated place, "(Uptown Theater)").
    - Ordinary words alone in a table cell or a label ("Total distance", "Born"), or filling an item of a list in a
      cell whose capitalised words are all ordinary and no known names ("| Leg 1, Home |"); not where ``named`` (a
      person of NER's of two words or more whose first word is a given name or no dictionary word, or whose family
      name follows a proper noun; a designated place of two words or more; a place NER saw named by a compass point
      before another word; a country: "Chuck Porter", "Lake Superior", "| West Indies |", "South
      Africa"; not "Best Newcomer", "Brought Down", "| North East |"), nor where a word is a known place or a known
      name that is no dictionary word ("| Washington Redskins |", "| Europe |", "| Steve Young |").

    Countries and words the dictionary writes only capitalised are no label ("| China |", "| Great Britain |")."""
    if column_cell(text, start, end):
        first = whole_word(words[0]).search(text, start, end)  # not where ``words`` leave out a kept word before
        at = first.start() if first else start  # them: "Europe" of "| Western Europe |" (not "Wester")
        return (not _place(" ".join(words)) and all(map(_column_word, words[1:]))
                and _column_word_at(text, at, at + len(words[0])))
    if all(country_of(w) is not None or capitalised_only(w) for w in words):
        return False
    if key_label(text, start, end) or (text.startswith(": ", end) and len(words) == 1 and end - start == len(words[0])
                                       and ordinary(words[0])):
        return not any(is_known_name(w) and not is_word(w.lower()) for w in words)
    if (row_bracket(text, start, end) and not named
            and not any(m[0].casefold() in GENERIC for m in _PART.finditer(text, start, end))
            and all(is_word(w.lower()) and is_common(w, TERM_ZIPF) and not known_place(w) for w in words)):
        return True  # "| 10-15 minutes (Rush Hour) |": dictionary words qualifying a cell's value, no designator
    if not all(ordinary(w) for w in words) or named or any(
            known_place(w) or is_known_name(w) and not is_word(w) for w in words):
        return False
    if label_cell(text, start, end):
        return True
    a, b = cell_span(text, start, end)  # "| Leg 1, Home |": a list of ordinary words in a cell
    fills = text[a:start].rstrip().endswith(",") or a == start
    fills = fills and (text[end:b].lstrip().startswith(",") or end == b)
    return (a, b) != (start, end) and fills and all(ordinary(m[0]) and not is_known_name(m[0])
                                                    for m in _PART.finditer(text, a, b) if m[0][:1].isupper())


class NameTest:
    """Whether a capitalised word at an offset of ``text`` is a name.

    It is when capitalised where no sentence starts, or else when tagged a proper noun. ``proper``
    gives the proper-noun token spans; it is only called (and the tagger only run) when a decision
    needs the tag. ``classes`` gives the word classes English has for a word (``Annotations.classes``).
    """

    def __init__(self, text: str, proper: Callable[[], Sequence[tuple[int, int]]],
                 classes: Callable[[str], frozenset[str]] = lambda word: frozenset()):
        self.text = text
        self.proper = proper
        self.classes = classes

    def tagged(self, pos: int) -> bool:
        """True when the tagger calls the token at ``pos`` a proper noun."""
        spans = self.proper()
        i = bisect_right(spans, (pos, float("inf"))) - 1
        return i >= 0 and pos < spans[i][1]

    def __call__(self, pos: int) -> bool:
        if sentence_start(self.text, pos):
            return (self.tagged(pos) or self.rare(pos) or self.own_capital(pos)) and not self.in_label(pos)
        return not self.in_label(pos)

    def own_capital(self, pos: int) -> bool:
        """True for a word at ``pos`` that the dictionary writes only capitalised ("Boeotian", "Britain"):
        a name, even where the tagger calls it an adjective."""
        m = _PART.match(self.text, pos)
        return m is not None and capitalised_only(m[0])

    def rare(self, pos: int) -> bool:
        """True for a word at ``pos`` that English hardly has (Zipf below 1.5): a name, wherever it stands,
        even where the small model's tagger calls it a noun ("Tamazight and other varieties ...")."""
        m = _PART.match(self.text, pos)
        return m is not None and len(m[0]) >= 4 and m[0][1:].islower() and not is_common(m[0], RARE_NAME_ZIPF)

    def in_label(self, pos: int) -> bool:
        """True when the word at ``pos`` is an ordinary word filling a table cell or a label, or a common
        dictionary word in a table's header row ("Holder", a family name too)."""
        m = _PART.match(self.text, pos)
        return m is not None and label_words([m[0]], self.text, pos, m.end())


def mentions(field_name: str, text: str, ents: Sequence[tuple[int, int, str]], capitals: Sequence[tuple[int, int]],
             is_name: NameTest, labels: Iterable[str]) -> list[Mention]:
    """The mentions of ``labels`` in ``text`` that name something.

    A lone month, weekday or generic word never counts. A single word counts when the tagger calls it
    a proper noun or it is not a very common English word: NER's "Notes" in "Notes and coins" and
    "Located" in "is Located at" are no names, while "Bremen" opening a sentence is one although the
    small model's tagger calls it a plural noun. A longer mention, or a nationality or language
    ("Irish" is tagged an adjective), counts when a capitalised part is a name by ``is_name`` or is no
    common word. With PROPN among the labels, proper nouns NER missed are added (``propn_mentions``).
    """
    wanted = set(labels)
    out = [] if "PROPN" not in wanted else [m for m in propn_mentions(field_name, text, ents, capitals, is_name)
                                            if m.label in wanted]
    if "ORG" in wanted and "Century" in text:  # "20th Century Fox": a name, where NER sees a date and "Fox"
        out += [Mention(field_name, s, e, text[s:e], "ORG") for s, e in century_names(text)]
    for s, e, label in (p for ent in ents for p in _pieces(text, *ent, is_name.classes)):
        if label not in wanted:
            continue
        span = trim(text, s, e)
        if span is None:
            continue
        s, e = span
        ps, first = _parts_at(text, s, e), 0
        while not (label != "NORP" and fills_cell(text, s, e)) and _opener(text, ps[first:], is_name):
            first += 1  # "Following World War II": the name starts after "Following"; a cell's "| Left Wing |" is
            # one thing, but a people's word after an adjective is the people's ("| Regional American |")
        if label in ("GPE", "LOC") and _adjective_before_place(text, ps[first:], is_name.classes):
            first += 1  # "a carpenter in Mysterious New Mexico": the place is "New Mexico"
        if first:
            span = trim(text, ps[first][0], e)
            if span is None:
                continue
            s, e = span
        if len(ps) - first >= 2 and column_cell(text, s, e):  # "| Chart Positions US Country |": "US" is the name
            names = [i for i in range(first, len(ps)) if not _column_word_at(text, *ps[i])]
            if names and (names[0] > first or names[-1] < len(ps) - 1):
                s, e = ps[names[0]][0], ps[names[-1]][1]
                ps, first = ps[names[0]:names[-1] + 1], 0
        if label == "PERSON":
            if _verb_after(text, s, ps[first:], is_name) or _noun_after(text, ps[first:]):  # "Who did Emma Marry?",
                e = ps[-2][1]  # "another Spielberg Film"
            s = _given_before(text, s, ents)
        ps = _parts_at(text, s, e)
        words = [text[a:b] for a, b in ps]
        if not any(w[:1].isalpha() for w in words) or only_when(text, e, words):
            continue  # "the September 13 episode" (NER's event), "on Sunday Night": a date
        if _variety(words):
            (s, e), label = ps[-1], "NORP"  # "Medieval Latin" (PERSON): the language, named as it is alone
            ps, words = [ps[-1]], [words[-1]]
        elif label not in ("NORP", "LANGUAGE") and (i := _nationality_in(text, ps)) is not None:
            (s, e), label = ps[i], "NORP"  # "| Debut Hindi Film |": a language before ordinary words, no name of them
            ps, words = [ps[i]], [words[i]]
        if (i := _topic_of_place(text, ps, words)) is not None:
            (s, e), label = (ps[i][0], e), "GPE"  # "Economy of Estonia", "History of the United States": the
            ps, words = ps[i:], words[i:]  # place; an article's topic is no name
        if len(words) == 1 and label not in _PEOPLE_OR_PLACE and _topic_before(text, e, words[0]):
            continue  # "about Analysis of variance": NER's body is a topic's word
        if (k := _office_end(text, s, words)) is not None:
            if k == len(words):
                continue  # "Vice-President in Charge of Operations": an office's words
            s, ps, words = ps[k][0], ps[k:], words[k:]  # "... Operations for Hale Freight": the body after it
        if field_before_unit(text, e, words):
            continue  # "the Human Resources committee": a unit's field
        if (rest := _outside_offices(text, ps)) is not None:
            if not rest:
                continue  # "Maid of Honour", "joined its board of Directors": an office and its field
            ps = rest  # "Aberystwyth" of "the Chair of Mathematics at Aberystwyth", "Spanish" of "Spanish Literature"
            s, e, words = ps[0][0], ps[-1][1], [text[a:b] for a, b in ps]
        if _SEASON.match(text, s) and all(w.isdigit() or w.casefold() == "of" for w in words[1:]):
            continue  # "born in the Fall of 1974": a date
        if _old_style_date(words):
            continue  # "3 April [O.S. 24 March] 1693": a date
        if len(words) == 1 and words[0].casefold() in GENERIC and words[0] in city_names() and label in _PLACE_OR_BODY:
            out.append(Mention(field_name, s, e, text[s:e], label))  # "Derby is a city": a designator ("Kentucky
            continue  # Derby") that names a city of its own, alone
        if len(words) == 1 and (words[0].casefold() in MONTHS_DAYS or words[0].casefold() in HEADS
                                or _kept(words[0], True) or unit_at(text, s, e) or counted(text, s, e)
                                or opens_plain_item(text, s, e)  # "Known for | Oldest living cat" (NER's people)
                                or before_title(text, s, e)  # "Crown" of "Crown Princess Victoria"
                                or short_date(text, s, e)
                                or _NUMBERED.match(text, e) is not None and len(words[0]) <= 4  # "Op. 125"
                                or numbered_thing(text, s, e)):
            continue
        if len(words) == 1 and label not in ("NORP", "LANGUAGE") and (demonym_or_language(words[0])
                                                                      or faith_word(words[0])):
            label = "NORP"  # "Ancient Egyptians" (ORG) without "Ancient" are a people, named as one; so are a
            # faith's followers ("Lutheran", "Sikh" NER calls a person)
        if (len(words) == 1 and label == "NORP" and sentence_start(text, s) and not in_row(text, s)
                and is_word(words[0]) and not nationality(words[0]) and not is_proper_entry(words[0])
                and "noun" not in is_name.classes(words[0])):
            continue  # "Creepy and scary": an adjective opening a sentence, NER's people; not "Republican", "Catholic",
            # nor a party's "| Democratic |" in a table
        content = [w for w in words if not _kept(w, False)]
        if work_kind_at(text, s, e):
            continue  # "String Quartet No. 8"
        if len(ps) >= 2 and text[ps[0][1]:ps[0][1] + 2] in ("'s", "’s") and work_kind_at(text, ps[1][0], e):
            span = trim(text, *ps[0])  # "Dvořák's Symphony No. 9": the composer is the name
            if span is not None:
                out.append(Mention(field_name, *span, text[slice(*span)], label))
            continue
        if label != "PERSON" and _holiday(words):
            continue  # "on New Year's Eve", "Boxing Day": a day of the calendar, no name; not "Mark Day"
        if len(words) == 2 and (words[1].isdigit() or _ROMAN.fullmatch(words[1].rstrip("*"))) \
                and numbered_thing(text, *ps[0]):
            continue  # "leaves from Platform 4"
        if (len(words) >= 2 and words[-1].casefold() in TITLES and words[-1].casefold() not in _NAMING_TITLES
                and all(ordinary(w) and is_word(w) and not is_given_name(w) for w in words[:-1])):
            continue  # "became Crown Prince", "the Grand Duke moved his court": an office, no name
        if len(words) >= 2 and _town_in_cell(text, s, e):
            out.append(Mention(field_name, s, e, text[s:e], "GPE"))  # "| Union City |", its words all designators
            continue
        if not content and (label in _DESIGNATED or label == "ORG" and words[-1].casefold() in LAND) \
                and _place_of_designators(text, ps, is_name):
            # "the United States", "the Northern Territory's coroner", "Central Park": a place whose words are all
            # designators is still one place (its first word changes, see ``mapping``)
            out.append(Mention(field_name, s, e, text[s:e], label))
            continue
        named = country_of(text[s:e]) is not None or len(words) >= 2 and (
            label == "PERSON" and (is_given_name(words[0]) or not is_word(words[0])
                                   or words[0].casefold() in TITLES and is_given_name(words[1])  # "Prince William"
                                   or is_surname(words[-1]) and is_name.tagged(ps[0][0]))
            and not demonym_or_language(words[0]) and words[0].casefold() not in CATEGORY_OPENERS
            or label in _DESIGNATED and any(
                w.casefold() in GENERIC and w.casefold() not in POSITIONS for w in words[:-1] + words[1:])
            or label in ("GPE", "LOC") and words[0].casefold() in _COMPASS and words[-1].casefold() not in POSITIONS
            or label == "ORG" and venue_name(words))
        if _header_name(text, s, e, words):
            out.append(Mention(field_name, s, e, text[s:e], label))
            continue
        if (len(words) == 1 and label == "ORG" and words[0][1:].islower() and ordinary(words[0])
                and not is_known_name(words[0]) and _office_after(text, e)):
            continue  # "Immigration Minister Philip Ruddock", "the Interior Minister": a portfolio, no name
        if len(words) == 1 and maker_at(text, s, e):
            out.append(Mention(field_name, s, e, text[s:e], label))  # "Airbus A320-214": a maker, not a word
            continue
        if (len(words) == 1 and label in ("ORG", "GPE", "LOC", "PERSON") and words[0][1:].islower()
                and ordinary(words[0]) and (_name_column(text, s, e, ents) or name_list_item(text, s, e, ents))):
            out.append(Mention(field_name, s, e, text[s:e], label))  # "| Fulham |" among the clubs NER named,
            continue  # "Labels | Island, Interscope, Fierce Panda"
        if label in ("ORG", "GPE", "LOC", "PERSON") and _name_cell(text, s, e, words, ents):
            out.append(Mention(field_name, s, e, text[s:e], label))  # "| Boston Bruins |" among the clubs NER named
            continue
        if len(words) == 1 and label in ("ORG", "PERSON") and _team_after_the(text, s, e):
            out.append(Mention(field_name, s, e, text[s:e], "ORG"))  # "the Brewers beat the Astros"
            continue
        if label in ("GPE", "LOC") and east_region(text[s:e]):
            out.append(Mention(field_name, s, e, text[s:e], label))  # "| Middle East | 420 |": a region, though
            continue  # its words would make a key
        if len(words) == 1 and label in _PLACE_OR_BODY and words[0][1:].islower() and region_after(text, e):
            out.append(Mention(field_name, s, e, text[s:e], label))  # "| Fresno, CA, U.S. |" ("fresno" is a scraper),
            continue  # "Reading, Pennsylvania", "Stadium • Ames, IA": a place before its state or country is one
        if len(words) >= 2 and label != "NORP" and infobox_value_name(text, s, e, words):
            out.append(Mention(field_name, s, e, text[s:e], label))  # "Distributed by | Focus Features, Universal
            continue  # Pictures", "Sire | Flower Alley": a name of dictionary words, written in capitals
        if not content or label_words(content, text, s, e, named):
            continue  # "Second", "Their", a table header "Total Distance", a key "Born:"
        if (label == "PERSON" and len(words) >= 2 and not named and all(ordinary(w) for w in content)
                and cell_span(text, s, e) != (s, e)):
            continue  # "| Best Breakthrough Performance |": ordinary words opening a cell, no given name among them
        if len(words) >= 2 and not named and all(ordinary(w) or never_name(w) for w in content) and (
                _OF_THE_YEAR.search(text, s, e) is not None or _OF_THE_YEAR_AFTER.match(text, e) is not None
                or words[0] == "Year" and _OF_THE_BEFORE.search(text, max(0, s - 12), s) is not None):
            continue  # "won Record of the Year", "Top 40 New Artist Of The Year", the "Year Awards" of "Woman Of The
            # Year Awards": an award's category, no name
        if category_before(text, s, e):
            continue  # "nominated for Best Actress", "won the Best Modern Rock Song" (NER's person "Rock Song")
        if len(words) == 1 and label not in ("NORP", "LANGUAGE"):
            if _camel(words[0]):
                out.append(Mention(field_name, s, e, text[s:e], label))  # "the iPhone", "eBay"
                continue
            if not words[0][:1].isupper() or opens_plain_cell(text, s, e):
                continue
            if label == "GPE" and len(words[0]) > 1 and words[0].isupper() and words[0].isalpha():
                out.append(Mention(field_name, s, e, text[s:e], label))  # "the neighbouring USSR", tagged a noun
            elif ordinary(words[0]) and not is_known_name(words[0]):  # "Distance", "Winner": a name only where a
                # capital says so (or opening a sentence, a place the lists know that NER and the tagger call one:
                # "Shanghai lies at its mouth") and the tagger agrees ("France" and "Will" are known names), and
                # no person's when the dictionary writes it in lower case only ("Keeper" of "Keeper of the
                # Records"; "Atlas of Greek mythology" is also a proper name there)
                if ((not sentence_start(text, s) or capitalised_only(words[0])
                     or label in ("GPE", "LOC") and known_place(words[0])) and is_name.tagged(s)
                        and not (label == "PERSON" and is_word(words[0]) and not is_proper_entry(words[0]))):
                    out.append(Mention(field_name, s, e, text[s:e], label))
            elif not is_common(words[0], VERY_COMMON_ZIPF) or is_name.tagged(s):
                out.append(Mention(field_name, s, e, text[s:e], label))
            continue
        caps = sorted(((a, b) for a, b in ps if text[a].isupper()), key=lambda ab: sentence_start(text, ab[0]))
        if (len(ps) >= 2 and caps == ps[:1] and any(text[a].islower() for a, _ in ps[1:]) and sentence_start(text, s)
                and _plain_opener(words[0], label)):
            continue  # "Calendar year 2001 has been ...": the one capital is the sentence's, on an ordinary word
            # before lower-case ones; not "Fiat 500", "PlayStation 2"
        if any(not ordinary(text[a:b]) or is_name(a) for a, b in caps):  # cheap tests first
            out.append(Mention(field_name, s, e, text[s:e], label))
        elif label in ("NORP", "LANGUAGE") and any(nationality(text[a:b]) or capitalised_only(text[a:b])
                                                   for a, b in caps):
            out.append(Mention(field_name, s, e, text[s:e], label))  # "French troops", "Americans' fears"
    return [_with_syllable(text, m) for m in out]


_LAST_WORD = re.compile(r"(?<![^\W\d_])[A-Z][^\W\d_A-Z]+\Z")  # "Jun"; not "BROH" of "BROH-meen"


def _with_syllable(text: str, m: Mention) -> Mention:
    """``m`` with the romanised syllable that ends its last word after a dash, which NER left out ("Jun" of "Jun-ichi
    Sato", see ``syllable_end``)."""
    end = syllable_end(text, m.end) if _LAST_WORD.search(m.text) else None
    return m if end is None else Mention(m.field, m.start, end, text[m.start:end], m.label)


_RUN_BEFORE = re.compile(r"(?<![\w'’-])(?:[A-Z][\w'’-]*[ \t]+(?:(?:in|a|an|the|of|by|or|and)[ \t]+)*)*\Z")
"""Capitalised words, maybe with function words between them, running up to a position (maybe none)."""


def category_before(text: str, start: int, end: int, here: bool = True) -> bool:
    """True for words at ``text[start:end]`` in an award's category that opens with them (where ``here``) or before
    them: capitalised ordinary or dictionary words that are no known names from "Best", "Outstanding", "Most" or
    "Favourite" on ("nominated for Best Actress", "Most Valuable Player", "won the Best Modern Rock Song", where
    NER's person is "Rock Song"; "Outstanding Lead Actress in a Drama Series"; "Best Rebounder:  Ayman Dais"); not
    "Most" opening a sentence ("Most Oriental Orthodox churches"), nor a place ("... in a Drama Series in Los
    Angeles")."""
    run = _RUN_BEFORE.search(text, max(0, start - 120), start)
    if run is None or run.start() == start and not here or _place(text[start:end]) or text[start:end] in city_names():
        return False
    capitals = [w for w in _PART.findall(text, run.start(), end) if w[:1].isupper()]
    return (bool(capitals) and capitals[0].casefold() in CATEGORY_OPENERS
            and not (capitals[0] == "Most" and sentence_start(text, run.start()))
            and all(ordinary(w) or never_name(w) or w.casefold() in CATEGORY_OPENERS
                    or is_word(w.lower()) and not is_known_name(w) for w in capitals))


def work_kind_at(text: str, start: int, end: int) -> bool:
    """True for dictionary words at ``text[start:end]`` that, with the capitalised ones after them, tell the kind of a
    numbered work: "Piano Concerto No. 21", "String Quartet No. 8" (a span of NER may hold the "No"); no name ("Chanel
    No. 5" is one)."""
    words = text[start:end].split()
    if words and words[-1] in ("No", "Nos"):
        words, after = words[:-1], _NUMBERED.match(text, end)
    else:
        after = _WORK_NUMBER.match(text, end)
        words += after[1].split() if after is not None else []
    return bool(words) and after is not None and all(
        is_word(w) and not is_known_name(w) and not is_proper_entry(w) for w in words)


def _holiday(words: Sequence[str]) -> bool:
    """True for a day of the calendar named by ordinary words: "New Year's Eve", "Boxing Day", a holiday named
    after a weekday by words English writes in lower case ("Palm Sunday", "Good Friday"; ``holiday_names``), and a
    holiday's day or eve named by a very common word that names no person or place ("Christmas Eve"); not "Anzac
    Day", "Victoria Day", "Australia Day", nor an event named after a weekday ("Bloody Sunday")."""
    if len(words) < 2 or words[-1] not in ("Day", "Eve") and not (words[-1].casefold() in WEEKDAYS
                                                                  and " ".join(words) in holiday_names()):
        return False
    if (len(words) == 2 and " ".join(words) in holiday_names() and is_common(words[0], VERY_COMMON_ZIPF)
            and not is_given_name(words[0]) and not _place(words[0])):
        return True  # "Christmas Eve", a feast of every calendar; not "Victoria Day", "Australia Day"
    return not is_given_name(words[0]) and all(is_word(core) and (ordinary(core) or words[-1] not in ("Day", "Eve"))
                                               for w in words[:-1] if (core := _POSSESSIVE.sub("", w).rstrip("'’")))


def opens_plain_cell(text: str, start: int, end: int) -> bool:
    """True for a ``category_cell``, or for a word that ``opens_plain_item`` or fills an item beside one
    (``_beside_plain_item``)."""
    if cell_span(text, start, end) == (start, end):
        return category_cell(text, start, end)
    return opens_plain_item(text, start, end) or _beside_plain_item(text, start, end)


_FIRST_WORD = re.compile(r"[^\W\d_]+")
_LOWER_WORD = re.compile(r"(?<![\w'’])[a-z]{2,}(?!\w)")


def _beside_plain_item(text: str, start: int, end: int) -> bool:
    """True for a dictionary word (no proper entry or known name) filling an item of a list in an infobox's value
    where another item is a capitalised dictionary word before words in lower case: "Occupation | Inventor, Aviator,
    Company director" lists occupations; not "T.W. Ward & Co. Ltd., Grays, for scrap 3/1966", a row of a table."""
    if not _plain_word(text[start:end]):
        return False
    items = _value_items(text, start, end)
    if (start, end) not in items:
        return False
    return any((w := _FIRST_WORD.match(text, a, b)) is not None and w[0][:1].isupper() and is_word(w[0])
               and _lower_rest(text, w.end(), b) and _LOWER_WORD.search(text, w.end(), b) is not None
               for a, b in items if (a, b) != (start, end))  # a word in lower case: not "Late!", "Fuel 2000", "C6x"


_BRACKETED = re.compile(r"\([^()]*\)?")


def opens_plain_item(text: str, start: int, end: int) -> bool:
    """True for a dictionary word (no proper entry or known name) opening a table cell whose other words are all in
    lower case, or an item of a list in one with other words all in lower case: "| Discus throw |", "| Yellowish
    brown |", "Data inputs | Fingerprint scanner (rear-mounted), Iris scanner", "Known for | Oldest living cat" name
    no one, nor does "Software developer (PostgreSQL, Surfraw)", whose brackets name what it worked on; not an
    eponym's possessive ("Bell's palsy", "Graves' disease"), nor a code ("| BAFTA, 1972 |").
    """
    cell = cell_span(text, start, end)
    if cell == (start, end):
        return False
    item = next(((a, b) for a, b in _items(text, *cell) if a <= start and end <= b), cell)
    return (any(a == start and b > end and _lower_rest(text, end, b) for a, b in (cell, item))
            and _plain_word(text[start:end]))


def _plain_word(word: str) -> bool:
    """True for a dictionary word that is no acronym, proper entry or known name."""
    return not word.isupper() and is_word(word) and not is_proper_entry(word) and not is_known_name(word)


def _lower_rest(text: str, start: int, end: int) -> bool:
    """True where ``text[start:end]``, the rest of a cell or item after its first word, holds words and all of them in
    lower case, brackets left out ("Software developer (PostgreSQL)"), and is no possessive's ending."""
    rest = _BRACKETED.sub("", text[start:end])
    return rest.strip() != "" and not any(c.isupper() for c in rest) and not rest.startswith(("'", "’"))


_POSITION_HEADERS = frozenset({"position", "positions", "pos", "pos."})


def position_cell(text: str, start: int, end: int) -> bool:
    """True for a code of three capitals or fewer filling a table cell in a column headed "Position" or "Pos.": a
    player's position ("| GK |", "| MF |", "| QB |"), no name, though NER calls it one."""
    word = text[start:end]
    if not (word.isupper() and len(word) <= 3 and cell_span(text, start, end) == (start, end)):
        return False
    cells = column_cells(text, start, end)
    return bool(cells) and text[slice(*cells[0])].casefold() in _POSITION_HEADERS


def category_cell(text: str, start: int, end: int) -> bool:
    """True for a dictionary word in title case filling its table cell in a column of ordinary words
    (``plain_column``): "| Clay |" below "| Hard |" and "| Grass |", a court's surface, though a given name too."""
    word = text[start:end]
    return (cell_span(text, start, end) == (start, end) and word[1:].islower() and is_word(word)
            and plain_column(text, start, end))


@lru_cache(maxsize=1 << 12)
def column_names(text: str) -> frozenset[str]:
    """The names, case-folded, of the columns of ``text``'s tables that are dictionary words and no known names or
    places: the cells of each table's header row of three cells or more ("| Season | Slalom | Giant Slalom |"). A
    cell or a mention that holds one is a category the table names a column after, no name ("| Giant slalom |" in a
    column "Race", though NER calls it a person); not "| Obama | McCain |", nor an infobox's "title | Argon"."""
    rows = line_cells(text)
    out = set()
    for i, cells in enumerate(rows):  # a table's first row is a row below no row
        if cells is None or i and rows[i - 1] is not None or len(cells) < 3 or _infobox(text, cells[0][0]):
            continue
        for a, b in cells:
            cell, words = text[a:b].strip(), text[a:b].split()
            if (words and all(w.isalpha() and is_word(w.casefold()) and not is_known_name(w) for w in words)
                    and not known_place(cell) and header_row(text, a, b)):
                out.add(cell.casefold())
    return frozenset(out)


def plain_column(text: str, start: int, end: int) -> bool:
    """True when the cell ``text[start:end]`` stands in a column whose other cells below its first (a header, where the
    table has one), at least half of those that hold words, are single ordinary words that are no known names or
    codes, two different ones at least: categories ("Hard", "Grass", "Carpet"), not names ("Smith", "Baker") or
    codes ("NY", "PA")."""
    others = [text[a:b] for a, b in column_cells(text, start, end)[1:]
              if (a, b) != (start, end) and any(c.isalpha() for c in text[a:b])]
    plain = [w for w in others if _PART.fullmatch(w) and w[1:].islower() and ordinary(w) and not is_known_name(w)]
    return len(set(plain)) >= 2 and 2 * len(plain) >= len(others)


def _nationality_in(text: str, ps: Sequence[tuple[int, int]]) -> int | None:
    """The index of the one demonym or language among two or three parts ``ps`` of a name in a table cell when every
    other capitalised part is a very common word and no known name ("| Debut Telugu Film |", "| Hindi Film |"): a
    people's word before common nouns names no one. Not a language named like a place ("Delaware Bay"), nor in prose,
    where such names are names as a whole ("the Indian Parliament", "the English Channel")."""
    if not ps or not in_row(text, ps[0][0]):
        return None
    words = [text[a:b] for a, b in ps]
    found = [i for i, w in enumerate(words) if demonym_or_language(w) and not known_place(w)]
    if len(found) != 1 or not 2 <= len(words) <= 3:
        return None
    return found[0] if all(i == found[0] or not w[:1].isupper() or is_common(w, VERY_COMMON_ZIPF)
                           and not is_known_name(w) for i, w in enumerate(words)) else None


_CAPITAL_AFTER = re.compile(r"[ \t]+([A-Z][a-z]+)\b")
"""A capitalised word after a word (``_office_after``)."""
_PORTFOLIO_HEADS = frozenset("minister ministers ministry secretary department commissioner spokesman spokeswoman "
                             "spokesperson".split())
"""Offices and bodies named after a portfolio ("Immigration Minister", "Home Secretary", "Defence Department")."""


def _office_after(text: str, end: int) -> bool:
    """True when a capitalised office or ministry of ``_PORTFOLIO_HEADS`` follows ``end`` ("Immigration Minister",
    "Interior Ministry"; not "Confederate President", nor "The Prototype Mr. P")."""
    after = _CAPITAL_AFTER.match(text, end)
    return after is not None and after[1].casefold() in _PORTFOLIO_HEADS


def _plain_opener(word: str, label: str) -> bool:
    """True for an ordinary word, lower case after its capital, that opens a sentence as the one capitalised word of an
    NER span: no known name, no word the dictionary writes only capitalised, no place the lists know where NER sees a
    place."""
    return (word[1:].islower() and ordinary(word) and not is_known_name(word) and not capitalised_only(word)
            and not (label in ("GPE", "LOC") and known_place(word)))


def _variety(words: Sequence[str]) -> bool:
    """True for a language's name after words of ``_PERIODS`` only ("Ancient Greek", "Early Modern English"): the
    language is the name there, and the period words stay (NER calls "Medieval Latin" a person)."""
    return len(words) >= 2 and demonym_or_language(words[-1]) and all(w.casefold() in _PERIODS for w in words[:-1])


def _parts_at(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The spans in ``text`` of the name parts of ``text[start:end]``."""
    return [(start + a, start + b) for a, b in parts(text[start:end])]


def _opener(text: str, ps: Sequence[tuple[int, int]], is_name: NameTest) -> bool:
    """True when the first of the parts ``ps`` of an NER span is an ``opening_word`` before a name, a person's role or
    an imperative opening a sentence before a person's name (``role_before_name``), or an ordinary word before a title
    and a name (``before_title``)."""
    return len(ps) >= 2 and (
        opening_word(text, ps[0][0], ps[0][1], [text[c:d] for c, d in ps[1:]], is_name.classes)
        or role_before_name(text, ps, is_name.classes) or before_title(text, *ps[0]))


_TITLE_AFTER = re.compile(r"[ \t]+([A-Z][a-z]+)[ \t]+([A-Z][\w'’-]*)")
_PLURAL = re.compile(r"[^s]s\Z")
"""A plural's ending: a party or team before a title ("long time Democrats Senator Vicki Bourne") is a name."""


def before_title(text: str, start: int, end: int) -> bool:
    """True for an ordinary word before a title and a name, which says what the title is ("Crown" of "Crown Princess
    Victoria", "Grand" of "Grand Duke Michael"): no part of the name; not a plural ("Democrats Senator Vicki
    Bourne")."""
    m = _TITLE_AFTER.match(text, end)
    return (m is not None and _plain_capitalised(text[start:end]) and not _PLURAL.search(text, start, end)
            and m[1].casefold() in TITLES and m[1].casefold() not in _NAMING_TITLES and _named_after(m[2]))


_ROLE_END = re.compile(r"(?:ist|[eo]r|ian|ess|eer|man|woman)\Z")
"""How English ends the nouns for what a person does ("Reviewer", "Bassist", "Historian", "Actress", "Frontman")."""


def _named_after(word: str) -> bool:
    """True for a given name, or a capitalised word English lacks (a family name: "Tresselt"; not "Coalition's")."""
    word = _POSSESSIVE.sub("", word)
    return is_given_name(word) or word[1:].islower() and not is_word(word.lower()) and not is_common(word)


def role_before_name(text: str, ps: Sequence[tuple[int, int]], classes: Callable[[str], frozenset[str]]) -> bool:
    """True when the first of the parts ``ps`` opens a sentence as a person's role ("Reviewer Peter Travers wrote",
    "Bassist Tresselt left": a noun with a role's ending, no adjective) or as a verb before a given name ("Meet Mike,
    the shortest bully", the name set off by a comma: "Action Jackson is a film" is a title), in prose. Not a known or
    given name ("Hunter Biden", "Cooper Kupp"), a title (kept anyway), nor before an ordinary word ("Silver Spring") or
    a nickname ("Mayhem Miller": no role)."""
    if len(ps) < 2 or in_row(text, ps[0][0]):
        return False
    w, after = text[slice(*ps[0])], text[slice(*ps[1])]
    if not (w[:1].isupper() and w[1:].islower() and sentence_start(text, ps[0][0]) and is_word(w.lower())
            and not _kept(w, True) and not is_known_name(w) and not is_given_name(w) and not is_proper_entry(w)):
        return False
    kinds = classes(w)
    if "noun" in kinds and "adj" not in kinds and _ROLE_END.search(w) is not None:
        return _named_after(after) and _SENTENCE_GOES_ON.match(text, ps[-1][1]) is not None
    return "verb" in kinds and is_given_name(after) and _APPOSITION.match(text, ps[1][1]) is not None


_SENTENCE_GOES_ON = re.compile(r"[ \t]+[a-z]|,[ \t]+[a-z]")
"""What follows a person's name in a sentence that goes on ("Tresselt left", "Travers, who"), not a name's next
word ("Bombardier Innovia APM 100" of an infobox)."""
_APPOSITION = re.compile(r",[ \t]+[a-z]")
"""A comma and a word in lower case after a name: "Mike, the shortest bully" (not "Film Roman, Inc")."""


def _plain_capitalised(word: str) -> bool:
    """True for a capitalised ordinary word that is no designator, title, known or given name, nor a dictionary's
    proper entry: one that may stand before a name without being part of it ("Following", "Mysterious")."""
    return (word[:1].isupper() and word[1:].islower() and ordinary(word) and not _kept(word, True)
            and not is_known_name(word) and not is_given_name(word) and not is_proper_entry(word))


def _adjective_before_place(text: str, ps: Sequence[tuple[int, int]], classes: Callable[[str], frozenset[str]]
                            ) -> bool:
    """True when the first of the parts ``ps`` of an NER place is an ordinary adjective before a country's, state's or
    capital's name, the whole being no place the lists know: "Mysterious New Mexico"; not "Salt Lake City" (a city),
    "Equatorial Guinea" (a country), "Long Island" (a designator after it), "Greater London" (a designator), "Wild
    Turkey" (a word after it: a band's name). NER's bodies are left alone: "Rapid Vienna", "Real Madrid" are clubs."""
    if len(ps) < 2:
        return False
    w, rest, whole = text[slice(*ps[0])], text[ps[1][0]:ps[-1][1]], text[ps[0][0]:ps[-1][1]]
    return (_plain_capitalised(w) and "adj" in classes(w)
            and rest in place_names() and not is_word(rest.lower()) and not is_given_name(rest)
            and not all(_kept(r, False) for r in rest.split())
            and whole not in place_names() and whole not in city_names())


def opening_word(text: str, start: int, end: int, rest: Sequence[str], classes: Callable[[str], frozenset[str]]
                 ) -> bool:
    """True when ``text[start:end]`` is a common word that opens a sentence before the words ``rest`` of a name, and
    no part of it: an adverb or a word in -ing ("Tomorrow Kowalski's lawyers", "Following World War II"), or an
    adjective before a word that is no ordinary word ("Ancient Egyptians grew barley"; not "Alien Technology", a
    maker's name). Never a designator, title, given name ("Pat Rafter", "Rusty"), known name or proper dictionary
    entry, nor before designators alone ("Black Sea", "Liberal Party": the adjective is the name there). ``classes``
    gives the word classes English has for a word."""
    w = text[start:end]
    if not (_plain_capitalised(w) and sentence_start(text, start) and any(not _kept(r, False) for r in rest)):
        return False
    kinds = classes(w)
    return "adv" in kinds or w.endswith("ing") or "adj" in kinds and any(
        not ordinary(r) or nationality(r) for r in rest if r[:1].isupper())


LAND = frozenset("""sea ocean river lake bay gulf strait island islands isle mountain mountains mount valley desert
    forest park peninsula cape coast canal falls creek glacier plain plains basin glen heights springs beach ridge
    marsh canyon dam reservoir seas lakes rivers isles hills""".split())
"""Designators of a piece of land or water: an organisation NER finds whose words are all designators, the last one
of these, is a place ("the National Forest", "Royal National Park"), and so is a proper noun of an ordinary word before
one ("the New York City/Long Island area")."""
_DESIGNATED = ("GPE", "LOC", "FAC", "WORK_OF_ART", "PERSON")
"""Labels under which a name of designators alone is a place or a title ("Abbey Road", which NER may call a person)."""
_PLACE_OR_BODY = ("GPE", "LOC", "FAC", "ORG")
"""Labels under which a designator's word alone that is a city's name names the city ("Derby is a city")."""


def designators_only(words: Sequence[str]) -> bool:
    """True for the words of a name made of designators, particles and titles alone, one of them a designator that
    is no compass point or position: "United States", "Northern Territory", "Port-au-Prince"; not "North-East",
    "Governor-General" (titles alone) or "Second Avenue" (a number word)."""
    low = [w.casefold() for w in words]
    return (len(low) >= 2 and all(w in GENERIC or w in FUNCTION or w in TITLES for w in low)
            and any(w in GENERIC and w not in POSITIONS for w in low))


def venue_name(words: Sequence[str]) -> bool:
    """True for the words of a venue's name: two or more, the last a venue's designator (``_VENUES``), not all of
    them designators ("Citizens Business Bank Arena", "Tiger Stadium"; not "Town Hall")."""
    return len(words) >= 2 and words[-1].casefold() in _VENUES and not designators_only(words)


def _named_land(text: str, ps: Sequence[tuple[int, int]], is_name: NameTest) -> bool:
    """True for two capitalised words or more, the last a designator of land or water (``LAND``), the first a name
    where it stands and opening no sentence: "Long Island" that NER missed after "New York City/"."""
    words = [text[a:b] for a, b in ps]
    return (len(words) >= 2 and words[-1].casefold() in LAND and all(w[:1].isupper() for w in words)
            and not sentence_start(text, ps[0][0]) and is_name(ps[0][0]))


def _place_of_designators(text: str, ps: Sequence[tuple[int, int]], is_name: NameTest) -> bool:
    """True for a place NER found whose parts are ``designators_only`` ("United States", "North Island"), two or
    more of them capitalised, the first a name where it stands (capitalised inside a sentence, or tagged a proper
    noun), joined by spaces or dashes ("East, North, South and West" is a list) and no label ("North | South")."""
    words = [text[a:b] for a, b in ps]
    caps = [a for (a, _), w in zip(ps, words, strict=True) if w[:1].isupper() and w.isalpha()]
    if len(caps) < 2 or not designators_only(words) or any(
            text[b:c].strip(" -–—") for (_, b), (c, _) in zip(ps, ps[1:], strict=False)):
        return False
    return is_name(caps[0]) and not label_words(words, text, ps[0][0], ps[-1][1])


_WORD_BEFORE = re.compile(r"(?<![\w'’.-])[^\W\d_][^\W\d_'’-]+ $")


def known_place(word: str) -> bool:
    """True for a country, capital, province or state ``countryinfo`` knows by this one word ("Jordan", "London",
    "Texas"), or a large city that is no dictionary word ("Chicago"; not "Reading", "Mobile"): a name that NER missed
    is one although English uses it often."""
    return word[1:].islower() and (word in place_names() or word in city_names() and not is_word(word.lower()))


def unmistakable_place(word: str) -> bool:
    """True for a place that is no dictionary word in lower case, however common: a continent or region of Faker's
    and countryinfo's lists, a country, capital or large city ("Asia", "Europe", "Dalian"; not "Reading", "Turkey")."""
    return not is_word(word.lower()) and (is_place_name(word) or known_place(word))


_MODEL_AFTER = re.compile(r"(?:[ \t]+|[ \t]*\|[ \t]*(?=[A-Z]))(?:[A-Z]{1,3}-?\d{2,}|\d{3}(?!\d))(?:[-/][\w]+)*(?!\w)")
"""A model's code after a maker's name, in its cell or the next: "Airbus A320-214", "| Airbus | A330 MRTT |"."""


def maker_at(text: str, start: int, end: int) -> bool:
    """True for a capitalised word that only the modern words make a dictionary word, before a model's code
    (``_MODEL_AFTER``): a maker's name ("Airbus A320-214"), not the word SCOWL lists in lower case."""
    word = text[start:end]
    return word[:1].isupper() and _MODEL_AFTER.match(text, end) is not None and modern_only(word)


_QUANTITY_BEFORE = re.compile(r"(?<![\w.,/-])(\d(?:[\d.,]*\d)?)[ \t]?\Z")
_YEAR_LIKE = re.compile(r"1\d{3}|20\d{2}")


def counted(text: str, start: int, end: int) -> bool:
    """True for the plural of a dictionary word right after a quantity that is no year: what the number counts ("8
    Megapixels", "2 Laps", "4 Annuals"), capitalised as a table cell writes it, no name. Not after a year, nor
    after a code or model number ("C-5 Galaxy", "No. 2750 Papyrus", "5.0.1 Lollipop" name a machine), nor an
    acronym's plural ("31 NITs") or a known name or place."""
    word = text[start:end]
    m = _QUANTITY_BEFORE.search(text, max(0, start - 24), start)
    return (m is not None and _YEAR_LIKE.fullmatch(m[1]) is None and m[1].count(".") <= 1 and word.isalpha()
            and word[1:].islower() and any(is_word(s) for s in singulars(word.lower()) if len(s) >= 3)
            and not is_known_name(word) and not known_place(word) and not capitalised_only(word))


def _listed_place_in_cell(text: str, start: int, end: int) -> bool:
    """True for a word filling a table cell alone that the place lists know and the dictionary lacks, no demonym:
    "England" of "| 2 | Bath | England |", where NER saw a quantity."""
    word = text[start:end]
    return (fills_cell(text, start, end) and not is_word(word)
            and is_place_name(word) and not demonym_or_language(word))


def _town_in_cell(text: str, start: int, end: int) -> bool:
    """True for words filling a table cell alone that name a town of GeoNames (``town_names``): "| Union City |",
    which NER missed, and whose words are all designators."""
    return fills_cell(text, start, end) and text[start:end] in town_names()


@lru_cache(maxsize=16)
def _name_spans(text: str, ents: tuple[tuple[int, int, str], ...]) -> frozenset[tuple[int, int]]:
    """The trimmed spans of NER's persons, organisations and places in ``text``, each up to its line's end ("Flower
    Alley\nGrandsire": NER ran on into the next row), once per text."""
    return frozenset(span for s, e, label in ents if label in ("ORG", "GPE", "LOC", "PERSON")
                     and (span := trim(text, s, e if (cut := text.find("\n", s, e)) < 0 else cut)) is not None)


def _name_column(text: str, start: int, end: int, ents: Sequence[tuple[int, int, str]], inside: bool = False
                 ) -> bool:
    """True for a word filling a cell below a table's first row in a column whose other cells with letters, half of
    those that hold another text and two different ones at least, NER calls persons, organisations or places with a
    word the dictionary lacks: "| Fulham |" among "| Chelsea |", "| Portsmouth |", "| Blackburn Rovers |" of an
    "Opponent" column (Webster's Second has "fulham", a loaded die); not "| Barge |" among "| Steamer |", nor "| Grass
    |" among "| Clay |" (NER's organisations), nor a header or an infobox's value. With ``inside``, a cell also counts
    where NER's name lies inside it and its words are capitalised ("Minnesota" of "| Minnesota North Stars |"; not a
    note, "Defended UFC Heavyweight Championship. Unified ...", nor "Kalakar Awards 2012 for Best Actor")."""
    cells = column_cells(text, start, end)
    if (len(cells) < 4 or cell_span(text, start, end) != (start, end) or cells[0] == (start, end)
            or _infobox(text, start)):
        return False  # an infobox's values are of many kinds: "| Monarchy |" below "| Njimi |"
    word = text[start:end]
    others = [c for c in cells[1:] if text[slice(*c)] != word and any(ch.isalpha() for ch in text[slice(*c)])]
    names = _name_spans(text, tuple(ents))
    named = [cell for c in others
             if (c in names or inside and _capitalised_span(text, c) and any(c[0] <= a and b <= c[1] for a, b in names))
             and not (cell := text[slice(*c)]).isupper()
             and not all(is_word(w) for w in cell.split() if any(map(str.isalnum, w)))]  # not codes: "| DF |"
    # among "| MF |", nor dictionary words joined by a mark: "| Deaths In Prisons & Camps |"
    return len(set(named)) >= 2 and 2 * len(named) >= len(others)


def _name_cell(text: str, start: int, end: int, words: Sequence[str], ents: Sequence[tuple[int, int, str]]) -> bool:
    """True for two capitalised words or more, no function words, filling a cell of a ``_name_column`` (NER's names
    inside its cells count): "| Boston Bruins |", "| Golden State Warriors |" among the clubs NER named ("| Chicago
    Black Hawks |", "| Calgary Flames |"), though every word of theirs is a dictionary word; not "| Left Wing |"
    among "| Defence |", "| Centre |", nor "| Did Not Play |", "| OWN GOALS |" or an award's category, "| Best Actor
    |"."""
    return (len(words) >= 2 and all(w[:1].isupper() and w.casefold() not in FUNCTION for w in words)
            and not text[start:end].isupper() and words[0].casefold() not in CATEGORY_OPENERS
            and _name_column(text, start, end, ents, inside=True))


_AUXILIARY_BEFORE = re.compile(r"(?i)(?<!\w)(?:did|does|do|will|would|could|can|should|shall|might|must)\s+$")


_ITEM = re.compile(r"[^,;]+")
_QUALIFIER = re.compile(r"\s*\([^()]*\)\s*$")
"""A bracket qualifying a list's item: "Ice Cube (also exec.)", "Island (former)"."""
_CONTRACTION = re.compile(r"[^\W\d_]['’](?!s\b)[^\W\d_]")
"""A contraction ("You're", "Don't"): a title's, whose words the title rules judge (``titles``)."""
_LIST_MARKS = re.compile(r"[,;:/&.()\[\]\d]")
"""Marks that join items of a list, a label or a bracket to them ("Mayor: Aja Brown"), or end an abbreviation
("U.S"), and digits of a model ("New Flyer XDE60"): no words of one name of dictionary words."""


def _items(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The spans of the items of the list in ``text[start:end]`` (commas or semicolons between them), spaces and a
    qualifying bracket left out."""
    out = []
    for m in _ITEM.finditer(text, start, end):
        item = _QUALIFIER.sub("", m[0])
        a = m.start() + len(item) - len(item.lstrip())
        b = m.start() + len(item.rstrip())
        if a < b:
            out.append((a, b))
    return out


@lru_cache(maxsize=256)  # asked by each infobox test of a span, one after another
def _value_items(text: str, start: int, end: int) -> tuple[tuple[int, int], ...]:
    """The items of the value of the infobox row that holds ``text[start:end]`` (one item where no list is there), or
    none outside an infobox's values (in its keys too)."""
    if not in_row(text, start) or not _infobox(text, start) or key_cell(text, start, end):
        return ()
    return tuple(_items(text, *cell_span(text, start, end)))


def _capitalised_span(text: str, item: tuple[int, int]) -> bool:
    """True when the words of ``text[slice(*item)]`` are capitalised (``_small`` words aside) and no mark of a list, an
    abbreviation or a model is there, nor a contraction ("So You're a Man")."""
    return (_LIST_MARKS.search(text, *item) is None and _CONTRACTION.search(text, *item) is None
            and _capitals([m[0] for m in _PART.finditer(text, *item)]))


def _capitals(words: Sequence[str]) -> bool:
    """True when ``words`` are capitalised, ``_small`` words aside."""
    return any(w[:1].isupper() for w in words) and all(w[:1].isupper() or _small(w) for w in words)


def _small(word: str) -> bool:
    """True for a word a name of capitalised words may write in lower case: a particle or a stop word ("Grand Hotel
    van Cleef", "Fueled by Ramen")."""
    return word.casefold() in FUNCTION or never_name(word)


def capitalised_item(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The item of an infobox row's value (``_value_items``) that holds ``text[start:end]``, where it is
    ``_capitalised_span``: "Atoms for Peace" of "Associated acts | Red Hot Chili Peppers, Atoms for Peace, Fear"; else
    None."""
    item = next(((a, b) for a, b in _value_items(text, start, end) if a <= start and end <= b), None)
    return item if item is not None and _capitalised_span(text, item) else None


def _named_item(text: str, item: tuple[int, int], names: Collection[tuple[int, int]]) -> bool:
    """True for a capitalised item (``_capitals``) that is a name by other evidence than its capitals: one NER calls
    a person, organisation or place (``names``) with a word the dictionary lacks, or one with a rare word the
    dictionary lacks ("Interscope"); no code ("RCA") and no people ("Confucian")."""
    value = text[slice(*item)]
    words = [m[0] for m in _PART.finditer(value)]
    return (not value.isupper() and _capitals(words) and not any(map(demonym_or_language, words))
            and (item in names and not all(map(is_word, words)) or any(not is_word(w) and not ordinary(w)
                                                                       for w in words)))


def _plain_items(text: str, items: Sequence[tuple[int, int]]) -> bool:
    """True when an item of ``items`` writes a word in lower case (``_small`` words aside): a list of categories or
    descriptions ("Complications | Pneumonia, seizures", "Fate | loaned to French Navy, Scrapped in Toulon")."""
    return any(m[0][:1].islower() and not _small(m[0]) for it in items for m in _PART.finditer(text, *it))


def name_list_item(text: str, start: int, end: int, ents: Sequence[tuple[int, int, str]]) -> bool:
    """True for ``text[start:end]``, an item of a list in an infobox row's value (``_value_items``), whose other
    items, two at least and half of them, are names by other evidence (``_named_item``): "Associated acts | The Great
    Society, Hot Tuna, Jefferson Starship, Metallica" ("The Great Society" is a band, which NER missed), "Labels |
    Island, Interscope, Fierce Panda, Sub Pop"; not "Genres | Rock, Pop, Jazz"."""
    items = _value_items(text, start, end)
    words = [m[0].casefold() for m in _PART.finditer(text, start, end)]
    if ((start, end) not in items or len(items) < 3 or _plain_items(text, items)
            or all(w in FUNCTION or w in TITLES or w in GENERIC for w in words)):
        return False  # "Other offices held | Minister of Defense, Chairman, ...": an office
    names = _name_spans(text, tuple(ents))
    others = [it for it in items if it != (start, end)]
    named = [it for it in others if _named_item(text, it, names)]
    return len(named) >= 2 and 2 * len(named) >= len(others)


def infobox_value_name(text: str, start: int, end: int, words: Sequence[str]) -> bool:
    """True when ``words`` (two or more), filling ``text[start:end]``, fill a ``capitalised_item`` (maybe after
    "The"): a name, though every word is a dictionary word ("Distributed by | Focus Features, Universal Pictures",
    "Sire | Flower Alley", "Associated acts | Hot Tuna"). Values of ordinary words are written in lower case after
    their first ("Genres | Heavy metal, hard rock", "Occupation | Actor, film producer"), and so is a word of another
    item of a list of them ("Genres | Psychedelic rock, Hard Rock"); an award's category ("Best Actor") is none, nor
    a span NER ran over a list or an abbreviation, nor a model ("R&B", "Biology/Biochemistry", "U.S", "New Flyer
    XDE60"). Where a common word is no dictionary word (a brand), that brand is what the other tests judge, not the
    word before it ("Official Facebook")."""
    item = capitalised_item(text, start, end)
    if (item is None or item[1] != end or text[item[0]:start].strip() not in ("", "The")
            or words[0].casefold() in CATEGORY_OPENERS
            or any(ordinary(w) and not w.isupper() and not is_word(w) for w in words)):
        return False
    return not _plain_items(text, [other for other in _value_items(text, start, end) if other != item])


def _verb_after(text: str, start: int, ps: Sequence[tuple[int, int]], is_name: NameTest) -> bool:
    """True when the last of the parts ``ps`` of a person's name after an auxiliary is a capitalised word English has
    only as a verb: the question's verb, which NER took into the name ("Who did Emma Marry?"; not "What did Bill
    Gates say?": "gates" is a noun too)."""
    if len(ps) < 2 or _AUXILIARY_BEFORE.search(text, max(0, start - 12), start) is None:
        return False
    return is_name.classes(text[slice(*ps[-1])]) == {"verb"}


_WORKS = frozenset("film films movie movies album albums novel novels".split())
"""Kinds of works that follow their maker's name ("another Spielberg Film")."""


def _noun_after(text: str, ps: Sequence[tuple[int, int]]) -> bool:
    """True when the last of the parts ``ps`` of a person's name is a kind of work (``_WORKS``) after a word the
    dictionary lacks: the work is no part of the name NER took it into ("another Spielberg Film"; not "Tom Album")."""
    if len(ps) < 2:
        return False
    last, before = text[slice(*ps[-1])], text[slice(*ps[-2])]
    return last[1:].islower() and last.casefold() in _WORKS and before.isalpha() and not is_word(before.lower())


def _given_before(text: str, start: int, ents: Sequence[tuple[int, int, str]]) -> int:
    """The start of a person's name, with a capitalised word right before the span NER found, which is no title or
    other entity, and no common or dictionary word unless a given name: "Émile" of "• Émile Durkheim", where the small
    model tags "Émile" an adjective and NER begins the name at "Durkheim"; "Hans" of "Hans Dreier", where NER's person
    is the family name alone, and "Harry" of a table's "Harry Oliver | Street Angel", where the key cell's rule cut
    NER's person short."""
    m = _WORD_BEFORE.search(text, max(0, start - 40), start)
    if m is None:
        return start
    word = m[0][:-1]
    if not word[:1].isupper() or _kept(word, True) or (
            (ordinary(word) or is_word(word.lower())) and not is_given_name(word)):
        return start  # "Mythologist Joseph Campbell": a word of the dictionary, no given name
    if any(a < start and m.start() < b and not (label == "PERSON" and start < b) for a, b, label in ents):
        return start  # another entity; not NER's person a table's key cell cut short ("Harry Oliver | Street Angel")
    return m.start()


_CODE_KEY = r"[A-Z]{2,4}:\s"
"""A code opening a label: "AUT: Gold" (a certification by country)."""
_SEPARATOR = re.compile(r":\s|\||\n|\t|[ \t]*[•·][ \t]*|[ \t]*\((?![^()]*\))|[ \t]+(?=" + _CODE_KEY + ")")
"""Where an NER span is cut: a label's colon, a cell's bar, a line end, a bullet between items ("Tiger Stadium •
Baton Rouge" is two names), a bracket the span opens and does not close ("AL (Rivalry": the state, then a note),
and before a code opening the next label ("AUT: Gold SWI: Gold" is "AUT", "Gold", "SWI", "Gold"; "Toni Tennille:
A Memoir" stays one name). Matched in the span alone, a bracket closed after its end is unclosed."""


_LOWER_INSIDE = re.compile(r"[ \t]+([a-z]{4,})(?=[ \t]+[A-Z])")
"""A lower-case word of four letters or more before a capital inside an NER span (see ``_pieces``)."""


_SENTENCE_END = re.compile(r"(?:(?<=[^\W\d_]{3}\.)|(?<=[!?]))[ \t]+(?=[\"“‘'(]*[A-Z])")
"""The end of a sentence inside an NER span: a stop after a word of three letters or more, a question or exclamation
mark, then a capital ("by the Caribs. Fragments of ..."). A word written short before its stop is no end
(``_SHORT_FORMS``: "Warner Bros. Pictures", "Filmkraft Productions Pvt. Ltd", "Feb. Ice")."""
_SHORT_FORMS = ABBREVIATED_TITLES | SUFFIXES | frozenset(
    "bros pvt ltd inc corp vol vols nos fig figs dept univ govt ave blvd est mts assn intl natl pty".split()) | {
    m for m in MONTHS if any(o != m and o.startswith(m) for o in MONTHS)} | SHORT_WEEKDAYS


_WORD_AT_STOP = re.compile(r"([^\W\d_]+)\.\Z")


_NUMERAL_STOP = re.compile(r"(?<=[^\W\d_]{2}[ \t])(?P<n>[IVX]{1,2})\.(?P<gap>[ \t]+)(?=[\"“‘'(]*[A-Z])")
"""A Roman numeral of one or two letters closing a name and a sentence ("of Charles I. Equestrian Portrait", "World
War II. The"), which ``_SENTENCE_END`` leaves, the numeral being short."""


_COMPANY_FORMS = frozenset("Co Inc Ltd Corp Bros LLC Plc PLC Pty Pvt".split())
_AFTER_STOP = re.compile(r"([ \t]+)(?=[\"“‘'(]*([A-Z][a-z]+)(?:[ \t]+([a-z]+))?)")
"""A company's name written short at its end ("Co.", "Inc.", ``_COMPANY_FORMS``), then a capital: the end of a
sentence where what follows opens one (``_opens_after_company``)."""


def _sentence_ends(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The spans of ``_SENTENCE_END`` in ``text[start:end]`` whose stop follows no word written short, of a stop
    after a Roman numeral closing a name (``_numeral_stops``), and of a stop after a company's short form before a
    sentence's first word (``_opens_after_company``)."""
    out = []
    for m in _SENTENCE_END.finditer(text, start, end):
        word = _WORD_AT_STOP.search(text, start, m.start())
        if word is None or word[1].casefold() not in _SHORT_FORMS:
            out.append(m.span())
    return out + _company_stops(text, start, end) + _numeral_stops(text, start, end)


def _company_stops(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The gaps after the company's short forms (``_COMPANY_FORMS``) that end with a stop in ``text[start:end]`` and
    come before a sentence's first word (``_opens_after_company``), which may lie after ``end``."""
    out = []
    dot = text.find(".", start, end)
    while dot >= 0:  # each stop in the span after a company's short form
        word = _WORD_AT_STOP.search(text, max(start, dot - 5), dot + 1)
        if word is not None and word[1] in _COMPANY_FORMS and not text[word.start() - 1:word.start()].strip(" \t"):
            m = _AFTER_STOP.match(text, dot + 1, end + 60)  # what follows the span tells too
            if m is not None and m.end(1) < end and _opens_after_company(m[2], m[3]):
                out.append(m.span(1))
        dot = text.find(".", dot + 1, end)
    return out


def company_end(text: str, start: int, end: int) -> int:
    """Where the NER span ``text[start:end]`` ends when a sentence opens in it after a company's "Co." or "Inc."
    ("Brennick Distillery Co" of "Brennick Distillery Co. Following the purchase"): its first such stop, or ``end``."""
    stops = _company_stops(text, start, end)
    return stops[0][0] if stops else end


def _opens_after_company(word: str, after: str | None) -> bool:
    """True for the words after a company's "Co." or "Inc." that open a sentence: a word never a name ("The", "In")
    or a word in -ing or -ed before a lower-case word ("Distillery Co. Following the purchase"); not a name's further
    word ("Warner Bros. Pictures", "Hall & Co. Ltd")."""
    return never_name(word) or after is not None and word.endswith(("ing", "ed")) and not is_given_name(word)


def _numeral_stops(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The gaps after the Roman numerals of ``_NUMERAL_STOP`` in ``text[start:end]``: one of two letters ("II.") is
    no initial; "I", "V" or "X" is none where the text also writes the word before it with it and no stop
    ("Charles I is on loan" beside "Portrait of Charles I. Equestrian ..."; not the initial of "Ivan I. Petrov")."""
    out = []
    for m in _NUMERAL_STOP.finditer(text, start, end):
        if _ROMAN.fullmatch(m["n"]) is None:
            continue
        before = re.search(r"([^\W\d_]+)[ \t]+\Z", text[max(start, m.start() - 40):m.start()])
        if len(m["n"]) > 1 or before is not None and re.search(
                rf"(?<![\w.]){re.escape(before[1])}[ \t]+{m['n']}(?![\w.])", text) is not None:
            out.append(m.span("gap"))
    return out


def _pieces(text: str, start: int, end: int, label: str,
            classes: Callable[[str], frozenset[str]]) -> list[tuple[int, int, str]]:
    """An NER span cut at labels, cells, lines and sentence ends: "Linz\nSpouse: Anton Wessely" is three pieces,
    "Caribs. Fragments" two; and, but in a work's title ("A Man called Ove"), at a verb before a capital, a word in
    -ed or one ``classes`` calls a verb and no function word ("Dire Straits released Brothers", "did Dire Straits
    release Brothers" are two)."""
    cuts = sorted([m.span() for m in _SEPARATOR.finditer(text, start, end)] + _sentence_ends(text, start, end))
    if label != "WORK_OF_ART":
        cuts = sorted(cuts + [m.span() for m in _LOWER_INSIDE.finditer(text, start, end)
                              if m[1] not in FUNCTION and (m[1].endswith("ed") or "verb" in classes(m[1]))])
    if not cuts:
        return [(start, end, label)]
    edges = [start] + [x for a, b in cuts for x in (a, b)] + [end]
    return [(a, b, label) for a, b in zip(edges[::2], edges[1::2], strict=True) if a < b]


_IN_WORD_BEFORE = re.compile(r"(?<![^\W\d_])in[ \t]+$")


_COURTS = frozenset({"court", "courts", "tribunal"})
_COURT_KINDS = frozenset("""supreme high superior appeal appeals appellate constitutional federal district county crown
    circuit magistrates family criminal civil military justice session sessions claims cassation chancery probate
    admiralty common pleas""".split())
"""A court's designators and the words that say what kind of court it is ("Court of Appeal", "Supreme Court"): no name
(the land's name after them changes: "Supreme Court of India"); "Commerce Court", a building, is one."""


def institution_words(text: str, start: int, end: int) -> set[str]:
    """The case-folded words of the NER span ``text[start:end]`` that substitution keeps as an institution's: a court's
    designator and kind ("Supreme", "Court" of "the Supreme Court of India"), an office's "in Charge of" and the
    ordinary words after it ("Vice-President in Charge of Operations"), an office and its field ("Commissioner of
    Railroads and Public Utilities") and the field after an office ("Honour" of "Maid of Honour")."""
    spans = parts(text[start:end])
    low = [text[start + a:start + b].casefold() for a, b in spans]
    if any(w in _COURTS for w in low):
        return {w for w in low if w in _COURTS or w in _COURT_KINDS}
    offices = office_spans(text)
    if any((start + a, start + b) in offices for a, b in spans):  # "Honour" of "Maid of Honour"
        return {w for (a, b), w in zip(spans, low, strict=True) if (start + a, start + b) in offices}
    if "charge" in low:
        i = low.index("charge")
        if (k := _office_end(text, start + spans[i][0], [text[start + a:start + b] for a, b in spans[i:]])) is not None:
            return set(low[i:i + k])
    return set()


_FIELDS_OF = frozenset("field fields discipline disciplines subject subjects".split())
"""Words for a field of learning, named by what they are of in lower case: "the field of Geography"."""
_IN_OFFICES = frozenset("""fellow fellows degree diploma major majors minor minors lecturer reader chair chairs
    professorship masters bachelor program programs programme programmes course courses honours honors majored
    majoring specialised specialized""".split())
"""Seats, degrees and studies also named by what they are in ("a Fellow in Budgetary Affairs", "a major in Political
Science", "the Program in Art and Design", "honours in Modern History"); not "the Master in Doctor Who", a character,
nor "studies" or "graduated", after which a place is as likely ("continued his studies in Boston")."""
_OFFICES = _FIELDS_OF | _IN_OFFICES | frozenset("""minister ministers secretary commissioner commissioners director
    directors chairman chairwoman professor doctor board head treasurer comptroller registrar superintendent inspector
    chief spokesman spokeswoman spokesperson""".split())
"""Offices, seats, degrees and studies named by what they are of, for or in: "Minister of Education", "Chair of
Mathematics", "Doctor of Humane Letters", "board of Directors", "a major in Political Science", "the field of
Geography"."""
_LOWER_OFFICES = _FIELDS_OF | frozenset("board major majors minor minors honours honors majored majoring specialised "
                                        "specialized".split())
"""Offices and studies that are one only in lower case: "its board of Directors", "a major in Political Science", "the
field of Geography"; not "the Board of Airline Representatives" (a body), "a Major in Royal Marines" nor "Field of
Dreams"."""
_HOUSEHOLD = frozenset("maid groom mistress keeper master".split())
"""A royal household's offices, named by what they are of with "the" too: "Maid of Honour", "Master of the
Household", "Mistress of the Robes"; another office's field after "the" is a body ("director of the National
Gallery"); not "woman" ("Cosmopolitan Ultimate Woman of the Year" is an award)."""
_STUDIES = _IN_OFFICES | _FIELDS_OF | frozenset("professor professors doctor".split())
"""Seats, degrees and studies, whose field is a field of learning, where a known name that ends it is a word ("Law" of
"Professor of Law", "Arts" of "a degree in Fine Arts"); another office's field may be a body ("director of Child
Wise")."""
_OFFICE_WORDS = _OFFICES | _HOUSEHOLD
_DEGREE_SHORT = re.compile(r"(?:Ph\.?[ ]?D|D\.?Phil|M\.?B\.?A|LL\.?[BM]|Ed\.?D"
                           r"|[BM]\.?(?:Sc|Eng|Ed|Phil|Mus|F\.?A|A|S))\.?(?!\w)")
"""A degree written short, named by what it is in: "a PhD in Chemistry", "an MBA in Finance", "his Ph.D. in Physics"."""
_OFFICE_WORD = re.compile(r"(?<![\w'’-])[A-Za-z]+")
_OFFICE_FIELD = re.compile(r"(?:[ \t]+[Ee]meritus)?[ \t]+(of|for|in)[ \t]+(the[ \t]+)?"
                           r"([A-Z][\w'’-]*(?:(?:,?[ \t]+(?:(?:and|&|of|the|in|for)[ \t]+)*|,[ \t]+)[A-Z][\w'’-]*)*)")
"""What follows an office: "of", "for" or "in", maybe "the", and its field's capitalised words ("Emeritus of Spanish
Literature", "of Earth, Atmospheric, and Planetary Sciences")."""


def _office_word(word: str, the: bool, joined: str, degree: bool = False) -> bool:
    """True for an office (before "the", ``the``, a household's only; before "in", ``joined``, ``_IN_OFFICES``), some
    in lower case only (``_LOWER_OFFICES``), or a ``degree`` written short before "in"; not a body, whose field is a
    name ("Federal Bureau of Investigation", "the Board of Airline Representatives")."""
    if degree:
        return joined == "in" and not the
    low = word.casefold()
    if joined == "in" and low not in _IN_OFFICES:
        return False
    if the:
        return low in _HOUSEHOLD
    return low in _OFFICES and (low not in _LOWER_OFFICES or word == low) or low in _HOUSEHOLD


FIELD_ZIPF = 3.5
"""From this Zipf frequency on (of a word or its singular), a capitalised dictionary word after an office is its
field's ordinary word ("Railroads", "Humane"); a rarer one ("Microbiology" 3.25, "Bedchamber" 2.5) changes as a rare
capitalised word inside a name does."""


def _field_word(word: str, last: bool = False) -> bool:
    """True for a word an office or unit is named by: a word the dictionary writes in lower case (British spellings
    too: "Honour"), as common as ``FIELD_ZIPF`` says, no place or people's word, and no known name or word the
    dictionary also has as a name unless ``last`` says it ends the field ("Railroads", "Humane", "Arts" of "a degree in
    Fine Arts", "Law" of "Professor of Law Harald Strenge", "Modern" of "honours in Modern History"; not "Canterbury",
    "Spanish", "Bedchamber", nor "Porter" of "Public Utilities Porter Dunlap")."""
    low = word.lower()
    return ((is_word(low) or is_word(low.replace("our", "or")))
            and any(is_common(f, FIELD_ZIPF) for f in (low, *singulars(low)))
            and (last or not (is_proper_entry(word) or is_known_name(word))) and not known_place(word)
            and not demonym_or_language(word))


def _field_ends(field: str, words: Sequence[tuple[int, int]], i: int) -> bool:
    """True when word ``i`` of ``words`` (spans in ``field``) ends a run of the field's capitalised words: the last
    one, one before "and" or a comma ("Arts" of "Fine Arts and Music"), or one before a given name (the holder's: "Law"
    of "Professor of Law Harald Strenge"); or a word inside it, before a field word that is no known name ("Church" of
    "Church Affairs"; not "Porter" of "Porter Dunlap")."""
    if i + 1 == len(words) or not field[words[i][1]:words[i + 1][0]].isspace():
        return True
    after = _POSSESSIVE.sub("", field[slice(*words[i + 1])])
    return is_given_name(after) or _field_word(after)


def _field_words(words: Sequence[str]) -> bool:
    """True for the words of a field, capitalised ones among them: function words and ``_field_word`` words ("Natural
    Resources and Environment")."""
    return any(w[:1].isupper() for w in words) and all(w.casefold() in FUNCTION or _field_word(w) for w in words)


@lru_cache(maxsize=1 << 12)
def office_spans(text: str) -> frozenset[tuple[int, int]]:
    """The spans of the offices in ``text`` and of the words of their fields, which name nothing: "Maid", "Honour" and
    "Ordinary" of "Maid of Honour in Ordinary", "Commissioner", "Railroads", "Public" and "Utilities" of "Commissioner
    of Railroads and Public Utilities", "Chair" and "Mathematics" of "the Chair of Mathematics at Aberystwyth". A
    field's segments (``_segments``) count while every capitalised word of one is a field word (``_field_word``):
    "board of Soccer Australia" names a body. A field ends before a person's name ("Secretary of Defense Robert
    Gates", "Commissioner of Railroads and Public Utilities Porter Dunlap": after a given name, or after two field
    words). A people's word in a field stays a name ("Spanish" of "Professor of Spanish Literature"), and so does what
    follows the field ("Paris" of "Professor of History in Paris")."""
    out: set[tuple[int, int]] = set()
    for w in _OFFICE_WORD.finditer(text):  # each office word in turn: "the Chair of" after "application for"
        word, span, degree = w[0], w.span(), False
        if word.casefold() not in _OFFICE_WORDS:  # else no office, or a degree written short ("Ph.D.", "MSc")
            d = _DEGREE_SHORT.match(text, w.start()) if word[0] in "BDELMP" and text[w.start() - 1:w.start()] != "." \
                else None
            if d is None:
                continue
            word, span, degree = d[0], d.span(), True
        m = _OFFICE_FIELD.match(text, span[1])
        if m is None or not _office_word(word, m[2] is not None, m[1], degree):
            continue
        studies = m[1] == "in" or word.casefold() in _STUDIES  # "Law" of "Professor of Law"; not "Wise" of
        # "director of Child Wise"
        field: list[tuple[int, int]] = []
        for segment in _segments(m[3]):
            words = [(a, b) for a, b in segment if m[3][a].isupper() and not demonym_or_language(m[3][a:b])]
            k = next((i for i, (a, b) in enumerate(words)
                      if not _field_word(m[3][a:b], studies and _field_ends(m[3], words, i))), len(words))
            if not words or k < len(words) and not (k >= 2 or k == 1 and _named_after(m[3][slice(*words[k])])):
                break  # "board of Soccer Australia": a body's name; not "Secretary of Defense Robert Gates"
            field += [(m.start(3) + a, m.start(3) + b) for a, b in words[:k]]
            if k < len(words):
                break
        if field:
            out |= {span, *field}
    return frozenset(out | _job_title_spans(text))


_JOB_TITLE = re.compile(r"(?<![\w'’-])((?:[A-Z][a-z]+[ \t]+){1,3})(?:Director|Officer|Editor|Producer|Manager|Advisor|"
                        r"Adviser|Coordinator|Consultant|Correspondent|Supervisor|Administrator|Engineer|Designer|"
                        r"Analyst)(?![\w'’-])")
"""Capitalised words before a job's role: "Musical Director", "Army Officer", "Special Advisor"; not a plural, which
may name a body's members ("Institute of Civil Engineers")."""


def _job_title_spans(text: str) -> set[tuple[int, int]]:
    """The spans of the words of job titles (``_JOB_TITLE``) in ``text``: a role and the field words before it
    (``_field_word``: "Musical Director", "Army Officer" of "a Pakistani Army Officer", whose people's word stays a
    name); none in quotation marks, where it may name a work ("'Night Manager'")."""
    out: set[tuple[int, int]] = set()
    for m in _JOB_TITLE.finditer(text):
        words = [(m.start(1) + a, m.start(1) + b) for a, b in parts(m[1])]
        k = len(words)
        while k > 0 and _field_word(text[slice(*words[k - 1])]):
            k -= 1
        if k < len(words) and text[max(0, words[k][0] - 1):words[k][0]] not in ('"', "“", "‘", "'"):
            out |= {*words[k:], (m.end(1), m.end())}
    return out


def _segments(field: str) -> list[list[tuple[int, int]]]:
    """The word spans of an office's field, cut where "in", "for" or "of" joins a further field ("Honour" and "Ordinary"
    of "Honour in Ordinary", "History" and "Paris" of "History in Paris", "Directors" and "Vantrel" of "Directors of
    Vantrel"); a body after "for the", "in the" or "of the" is no part of it ("Public Affairs" of "Public Affairs for
    the Children's Defense Fund")."""
    out: list[list[tuple[int, int]]] = [[]]
    spans = parts(field)
    for i, (a, b) in enumerate(spans):
        if field[a:b] in ("in", "for", "of"):
            if i + 1 < len(spans) and field[slice(*spans[i + 1])] == "the":
                break
            out.append([])
        else:
            out[-1].append((a, b))
    return out


def _outside_offices(text: str, ps: Sequence[tuple[int, int]]) -> list[tuple[int, int]] | None:
    """The parts ``ps`` of a name that still name something once the offices and their fields among them are left out
    (``office_spans``): ``ps`` when none is, the first run of other parts with a capitalised word ("Aberystwyth" of
    NER's "Chair of Mathematics at Aberystwyth", "Spanish" of "Spanish Literature" after "Professor of"), or an empty
    list ("Commissioner of Railroads and Public Utilities", "Honour" of "Maid of Honour")."""
    offices = office_spans(text)
    if not any(p in offices for p in ps):
        return None
    runs: list[list[tuple[int, int]]] = [[]]
    for p in ps:
        if p in offices:
            runs.append([])
        else:
            runs[-1].append(p)
    named = [[p for p in run if text[p[0]].isupper()] for run in runs]
    return next((run for run in named if run), [])


_UNIT_AFTER = re.compile(r"[ \t]+(?:sub)?(?:committee|department|portfolio|ministry|faculty)s?\b")
"""A body's unit written in lower case after its field: "the Human Resources committee", "the Education portfolio";
not an army's ("the Confederate division": a side's name)."""


def field_before_unit(text: str, end: int, words: Sequence[str]) -> bool:
    """True for ``words`` ending at ``end`` that name the field of a unit written after them in lower case ("Natural
    Resources and Environment" of "the Natural Resources and Environment committee"): no name."""
    return _UNIT_AFTER.match(text, end) is not None and _field_words(words)


def _office_end(text: str, start: int, words: Sequence[str]) -> int | None:
    """For NER's "Charge of Operations" of an office ("Vice-President in Charge of Operations"), "in charge of" written
    in capitals and ordinary words after it, the index of the first word after them that names a body ("Hale" of
    "Charge of Operations for Hale Freight"), or their number when none does; None for no such office."""
    if not (len(words) >= 3 and words[0] == "Charge" and words[1] == "of"
            and _IN_WORD_BEFORE.search(text, max(0, start - 8), start) is not None):
        return None
    end = next((i for i in range(2, len(words)) if words[i] in ("for", "at", "with")), len(words))
    if end == 2 or not all(w.casefold() in FUNCTION or ordinary(w) for w in words[2:end]):
        return None
    return end + 1 if end < len(words) - 1 else len(words)


_SEASON = re.compile(r"(?i)(?:spring|summer|fall|autumn|winter)(?:[ \t]+of)?[ \t]+\d")
"""A season that dates something: "in the Fall of 1974", "Summer 2012"."""
_NUMBERED = re.compile(r"\.[ \t]*\d")
"""What follows an abbreviation that numbers something: "Op. 125", "Vol. 2", "Fig. 3"."""
_WORK_NUMBER = re.compile(r"((?:[ \t]+[A-Z][a-z]+)*?)[ \t]+Nos?\.[ \t]*\d")
_NUMBER_AFTER = re.compile(r"[ \t]*,?[ \t]*\d")
_NUMBER_BEFORE = re.compile(r"\d(?:st|nd|rd|th)?[ \t]*(?:of[ \t]+)?$")


def _month_surname(text: str, start: int, end: int, words: Sequence[str]) -> bool:
    """True when the month closing ``words`` (``text[start:end]``) is a surname: after a given name, with no number
    after it ("Theresa May resigned"; not "Friday May 5")."""
    return len(words) >= 2 and is_given_name(words[-2]) and _NUMBER_AFTER.match(text, end) is None


_DESIGNATION_AFTER = re.compile(r"[ \t]+\d{1,2}[A-Z]?(?![\w/–—-]|[.,:]\d)")
"""A number after a word that tells one thing of a kind ("Platform 4 at"), not a score or a range ("Wolves 2–1"),
nor a model's number ("Fiat 500", "Beech 200") or a year ("Miss World 2012")."""


_ROMAN_AFTER = re.compile(r"[ \t]+" + _ROMAN.pattern + r"\*?(?![\w/–—-])")
_ROMAN_NUMBERED = frozenset("grade class type category stage phase level tier schedule division".split())
"""Words that number their kind with a Roman numeral after them ("Grade II", "Type I", "Schedule IV"): designators
whose numeral NER takes for a name's ("Grade II" a place); not a family name's ("Lew Grade")."""


def numbered_thing(text: str, start: int, end: int) -> bool:
    """True for a common noun before the number that tells one of its kind from the others ("Building 98", "Hangar
    12", "Platform 4"): the number designates, and the noun stays what it is, no name; not a word English hardly
    writes in lower case ("Apollo 11")."""
    word = text[start:end]
    if _ROMAN_AFTER.match(text, end) is not None and word.casefold() in _ROMAN_NUMBERED:
        return True  # "a Grade II listed building", "Type I diabetes", "Schedule IV"
    return (_DESIGNATION_AFTER.match(text, end) is not None and word[1:].islower() and is_word(word)
            and is_common(word, TERM_ZIPF) and not is_known_name(word) and not known_place(word))


def short_date(text: str, start: int, end: int) -> bool:
    """True for a month (``dates.MONTHS``, also written short) or a weekday written short beside a number ("13 Dec
    2008", "Sept. 4", "Fri 24 Aug") or alone in a table cell ("| Month | Jan | Feb | Mar |" of a climate table): a
    date or a column, no name ("Jan Novak" is one)."""
    low = text[start:end].casefold().rstrip(".")
    return (low in MONTHS or low in SHORT_WEEKDAYS) and (
        _NUMBER_AFTER.match(text, end + (text[end:end + 1] == ".")) is not None
        or _NUMBER_BEFORE.search(text[max(0, start - 12):start]) is not None
        or fills_cell(text, start, end))


def dated(text: str, start: int, end: int) -> bool:
    """True for a month or weekday at ``text[start:end]`` in a date: a number right before or after it ("May 2019",
    "5 May", "Friday 13"), or nothing capitalised before it ("in May she left"); not the surname in "In June, May
    said"."""
    if text[start:end].casefold() not in MONTHS_DAYS:
        return False
    before = text[max(0, start - 40):start].rstrip()
    return (_NUMBER_AFTER.match(text, end) is not None or not before or not before.split()[-1][:1].isupper()
            or _NUMBER_BEFORE.search(text[max(0, start - 12):start]) is not None)


_LOWER_BEFORE = re.compile(r"(?<![\w'’-])[a-z]+[ \t]+\Z")


def _named_by_article(text: str, run: int, start: int, end: int) -> bool:
    """True for capitalised words after a capitalised "The" inside a sentence, right after a word in lower case:
    "joined The Doors", "According to The Economist", "premiered on The N" name a band, a paper or a channel however
    ordinary their words (NER saw none there); not a stop word ("The Who" stays), a month or a number."""
    if text[run:run + 4] != "The " or _LOWER_BEFORE.search(text, max(0, run - 30), run) is None or in_row(text, run):
        return False
    words = [text[a:b] for a, b in _parts_at(text, start, end)]
    return bool(words) and all(w[:1].isupper() and not never_name(w) and w.casefold() not in MONTHS_DAYS
                               and not any(c.isdigit() for c in w) for w in words)


_THE_BEFORE = re.compile(r"(?<![\w'’-])(?<!of )the[ \t]+\Z")
_OF_AFTER = re.compile(r"[ \t]+of\b")
_CONTESTS = frozenset("games finals semifinals championships playoffs nationals internationals".split())
"""Plurals that name a contest's rounds after "the", no team: "reached the Finals", "at the Games"."""


def _team_after_the(text: str, start: int, end: int) -> bool:
    """True for one capitalised plural of a dictionary word right after a lower-case "the" inside a sentence, maybe
    possessive: a team or band named by its members ("the Brewers beat the Astros", "the Brewers' bullpen"), which
    NER missed. Not a people ("the Americans"), a designator, head or title ("the Islands", "the Ministers shall go
    into office"), a contest's rounds ("the Finals"), a group of something ("the Members of Congress", "Keeper of the
    Records"), nor in a table row."""
    word = text[start:end].rstrip("'’")
    if not (len(word) >= 5 and word.endswith("s") and not word.endswith("ss") and word[0].isupper()
            and word[1:].islower() and word.isalpha()):
        return False
    return (_THE_BEFORE.search(text, max(0, start - 12), start) is not None and not in_row(text, start)
            and _OF_AFTER.match(text, start + len(word)) is None
            and english_plural(word.lower()) and not demonym_or_language(word)
            and word.casefold() not in _CONTESTS and not any(
                w in GENERIC or w in HEADS or w in TITLES for w in (word.casefold(), *singulars(word.casefold()))))


_DASHED_AFTER = re.compile(r"[-–]([A-Z][^\W\d_]+)(?![\w'’-])")
_DASHED_BEFORE = re.compile(r"(?<![\w'’-])([A-Z][^\W\d_]+)[-–]\Z")


def _dashed_to_name(text: str, start: int, end: int, names: Sequence[tuple[int, int]]) -> bool:
    """True for a capitalised word joined by a dash to a name, which NER found (``names``) or the dictionary lacks:
    "Mon" of "Mon–Khmer" and "Nuclear Mon-Khmer", "Ford" of "Benetton-Ford" is part of one name; not a prefix
    ("Anti-Taliban"), a month, an acronym or a word that is never a name."""
    word = text[start:end]
    if word.isupper() or _kept(word, True) or word.casefold() in PREFIXES or word.casefold().rstrip(".") in MONTHS:
        return False  # an acronym is judged as one: "WNAX-FM", "PA-RISC"
    other = _DASHED_AFTER.match(text, end) or _DASHED_BEFORE.search(text, max(0, start - 40), start)
    return other is not None and (any(a <= other.start(1) < b for a, b in names) or (
        not ordinary(other[1]) and not never_name(other[1]) and other[1].casefold().rstrip(".") not in MONTHS))


def propn_mentions(field_name: str, text: str, ents: Iterable[tuple[int, int, str]],
                   capitals: Sequence[tuple[int, int]], is_name: NameTest) -> list[Mention]:
    """Proper nouns the NER model missed ("Tipperary", "the Pembly shrike"), labelled PROPN.

    A run of adjacent capitalised tokens outside every name span (spans NER labelled DATE, CARDINAL
    and so on do not count: "Tipperary" labelled DATE is still a name) counts when its first word is a
    name by ``is_name``, it has no digits and no month, and one of its words other than designators,
    titles and initials is not a common English word ("Buildings A", "Located", "Liberal" are no
    names; wordfreq's counts are case-blind, so a well-known name such as "Dublin" counts as common
    too and is left to NER, unless it fills a table cell alone, the place lists know it, the dictionary lacks it
    and it is no demonym: "| Bath | England |", where NER saw a quantity; not "Greatest American Albums" nor
    "Christmas Songs Compilation"), or names a continent or region ("occurred in Asia", which NER missed). A run
    of several words opening a sentence counts also when its first word is neither common nor in the
    dictionary ("Émile Durkheim", "Émile" tagged an adjective).
    """
    ents = tuple(ents)
    covered = [(s, e) for s, e, label in ents if label in ENTITY_TYPES]
    items: set[tuple[int, int]] = set()
    runs: list[list[int]] = []
    for a, b in capitals:
        if any(s <= a < e for s, e in covered):
            continue
        if runs and text[runs[-1][1]:a].strip() == "" and "\n" not in text[runs[-1][1]:a] \
                and re.match(_CODE_KEY, text[a:b + 2]) is None:  # "GER: Platinum AUT: Gold": "AUT" opens a label
            runs[-1][1] = b
        else:
            runs.append([a, b])
    out = []
    for a, b in runs:
        span = trim(text, a, b)
        if span is None:
            continue
        s, e = span
        if _named_by_article(text, a, s, e):
            out.append(Mention(field_name, s, e, text[s:e], "ORG"))  # "joined The Doors"
            continue
        if _team_after_the(text, s, e):
            out.append(Mention(field_name, s, e, text[s:e], "ORG"))  # "the Brewers beat the Astros"
            continue
        ps = _parts_at(text, s, e)
        while not in_row(text, s) and _opener(text, ps, is_name):  # "Teaching Alexander the Great gave ...": the name
            # starts after "Teaching"; a cell's "Flying Dutchman" is one name
            ps = ps[1:]
            s = ps[0][0]
        words = [text[a:b] for a, b in ps]
        i = 0 if len(words) == 1 else len(words) - 1 if _variety(words) else _nationality_in(text, ps)
        if i is not None and demonym_or_language(words[i]):
            a, b = ps[i]  # "French" of "the Norman-French army", "Telugu" of "| Debut Telugu Film |"
            out.append(Mention(field_name, a, b, text[a:b], "NORP"))
            continue
        if (cue := _SETTLEMENT_AFTER.match(text, e)) and all(w[:1].isupper() and not never_name(w) for w in words) \
                and (not cue[0].startswith(",") or is_name.tagged(s) or not ordinary(words[0])):  # not "Later, a town"
            out.append(Mention(field_name, s, e, text[s:e], "GPE"))  # "Nice is a city on the Riviera", "Reading, a
            continue  # town in Berkshire": an ordinary word that a sentence calls a settlement names it
        if (len(words) == 1 and words[0][1:].islower() and sentence_start(text, s) and is_word(words[0])
                and is_common(words[0], TERM_ZIPF) and not is_proper_entry(words[0]) and not is_known_name(words[0])):
            continue  # "Malnutrition causes ...": a dictionary word too common for a term, capitalised as it opens
        if len(words) == 1 and opens_plain_cell(text, s, e) or _holiday(words) or work_kind_at(text, s, e):
            continue  # "| Discus throw |"; "title | Christmas Eve"
        if _header_name(text, s, e, words):
            out.append(Mention(field_name, s, e, text[s:e], "PROPN"))
            continue
        if _name_cell(text, s, e, words, ents):
            out.append(Mention(field_name, s, e, text[s:e], "PROPN"))  # "| Golden State Warriors |", which NER missed
            continue
        content = [_POSSESSIVE.sub("", w) for w in words if not _kept(w, True)]  # "the Opposition's push"
        if len(content) == 1 and len(words) == 1 and content[0].casefold() in HEADS:
            continue  # "the Opposition's push", "the Cabinet's decision": alone, no name
        if _outside_offices(text, ps) == [] or field_before_unit(text, e, words):
            continue  # "Maid of Honour", "Master of the Household", "the Education committee": an office's field
        item = capitalised_item(text, s, e)
        if (item is not None and not any(w.casefold() in MONTHS_DAYS for w in words)
                and all(ordinary(m[0]) for m in _PART.finditer(text, *item) if not _small(m[0]))
                and not any(a < item[1] and item[0] < b for a, b, _ in ents)  # NER's spans are judged above
                and name_list_item(text, *item, ents)):
            if item not in items:  # "Associated acts | The Great Society, Hot Tuna, Jefferson Starship": a band of
                items.add(item)  # dictionary words among names NER saw, which the tests below take for ordinary
                out.append(Mention(field_name, *item, text[slice(*item)], "PROPN"))  # words; "Atoms for Peace" of
            continue  # two runs is one
        if (any(c.isdigit() for c in text[s:e]) or any(w.casefold() in MONTHS_DAYS for w in words[:-1])
                or len(words) == 1 and (short_date(text, s, e) or counted(text, s, e) or measure_at(text, s, e))
                or (words[-1].casefold() in MONTHS_DAYS and not _month_surname(text, s, e, words))
                or only_when(text, e, words)
                or label_words(words, text, s, e)):
            continue
        if category_before(text, s, e):
            continue  # "Outstanding Lead Actress in a Drama Series"
        if len(words) >= 2 and _town_in_cell(text, s, e):
            out.append(Mention(field_name, s, e, text[s:e], "GPE"))  # "| Union City |", which NER missed
            continue
        if (len(words) >= 2 and words[-1].casefold() in AWARDS and not in_row(text, s)
                and all(w.casefold() in GENERIC for w in words[:-1])):
            out.append(Mention(field_name, s, e, text[s:e], "ORG"))  # "won three Academy Awards": an award's name
            continue  # of designators, which NER missed; "Gold Medal" is none
        if len(words) == 1 and _dashed_to_name(text, s, e, covered):
            out.append(Mention(field_name, s, e, text[s:e], "PROPN"))  # "Mon" of "Mon–Khmer"
            continue
        if venue_name(words) and all(w[:1].isupper() for w in words) and is_name(s):
            out.append(Mention(field_name, s, e, text[s:e], "FAC"))  # "Tiger Stadium • Baton Rouge", which NER
            continue  # missed: a venue's name, as NER's organisations before a venue's designator are
        if (all(ordinary(w) and not known_place(w) and not is_region(w) for w in content)
                and not (len(words) == 1 and _listed_place_in_cell(text, s, e))
                and not _named_land(text, ps, is_name)):
            if len(words) >= 2 and not in_row(text, s):  # "4 Australian Open titles", "the Royal Australian Navy":
                # a people's word in a name of ordinary words NER missed is that people's, as it is alone
                out.extend(Mention(field_name, a, b, text[a:b], "NORP") for (a, b), w in zip(ps, words, strict=True)
                           if demonym_or_language(w) and (country_of(w) or country_of(w[:-1])))
            continue
        if is_name(s) or (len(words) > 1 and not ordinary(words[0]) and not is_word(words[0].lower())
                          and not never_name(words[0])):
            # "Émile Durkheim" opening a list item, with "Émile" tagged an adjective: a rare first word that
            # the dictionary lacks, and more capitals after it, make a name ("Albedo Measurements" is none)
            out.append(Mention(field_name, s, e, text[s:e], "PROPN"))
    return out
