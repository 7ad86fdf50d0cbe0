"""Absolute date expressions: find them, shift them all by one offset, and read the shift back.

Only the year numbers of absolute dates change ("14 April 1912", "April 14, 1912", "March 1912",
"1912-04-14", "the 1990s", "'90s", "the 1800s", "the 19th century", "AD 79", "44 BC", "from 799 to
684 BC", "1802-03", bare years). Day and month stay, so one whole-year offset per instance keeps every
interval and ordering, provided the offset is chosen so that every expression stays representable:
decades need multiples of 10, "1800s" and centuries multiples of 100, day dates need the same leap
days in between (29 February stays valid), weekdays must still fit, and no date crosses from BC to AD
or back. Durations ("for 25 years", "a decade") and counts ("1201 people") are not dates and never
change. A bare four-digit number is a year only on evidence: NER, a cue word ("in", "born"), or
the same number being a year elsewhere in the instance (see ``decide``).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from random import Random

from .names import is_region
from .places import country_of, demonym_or_language, place_names
from .words import ROW, URL_IN_TEXT, key_column, row_cells, table_header

YEAR, DECADE, DECADE2, HUNDREDS, CENTURY = "year", "decade", "decade2", "hundreds", "century"
STEP = {YEAR: 1, DECADE: 10, DECADE2: 10, HUNDREDS: 100, CENTURY: 100}
MIN_SHIFT = 5
"""Smallest offset in years: a date one or two years off is hardly a new date."""
SEARCH = (60, 400, 2000)
"""Offset ranges tried in turn; later ranges only when no offset in the earlier one fits every date."""
PRESENT_YEAR = 2025
"""Offsets moving a date past this year (or past the latest original date) are used only when no other fits."""
NUMERIC_LABELS = frozenset({"CARDINAL", "QUANTITY", "MONEY", "PERCENT", "ORDINAL", "TIME"})

_MONTH_NAMES = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
                "october", "november", "december"]
MONTHS = {**{m: i for i, m in enumerate(_MONTH_NAMES, 1)}, **{m[:3]: i for i, m in enumerate(_MONTH_NAMES, 1)},
          "sept": 9}
WEEKDAYS = {d: i for i, d in enumerate(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
                                        "sunday"])}
SHORT_WEEKDAYS = frozenset({d[:3] for d in WEEKDAYS} | {"tues", "thur", "thurs"})
"""Weekdays written short, as ``MONTHS`` holds the months ("Fri 24 Aug", "Tues. 3 May")."""
_ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
             "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth",
             "eighteenth", "nineteenth", "twentieth"]
ORDINAL_WORDS = {w: i for i, w in enumerate(_ORDINALS, 1)}
ORDINAL_WORDS.update({f"twenty-{w}": 20 + i for i, w in enumerate(_ORDINALS[:9], 1)})

_M = (r"(?:January|February|March|April|May|June|July|August|September|October|November|December"
      r"|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\.?")
_WD = r"(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)"
_DAY = r"(?:3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)?"
_ERA = r"(?:B\.?C\.?E\.?|B\.?C\.?|C\.?E\.?|A\.?D\.?)(?!\w)"
_Y = r"(?P<y>\d{1,4})(?!\d)(?:\s*(?P<era>" + _ERA + "))?"
_ORD = "|".join(sorted(ORDINAL_WORDS, key=len, reverse=True))

# Patterns in priority order; a later pattern never takes text an earlier one matched.
_DMY = re.compile(rf"(?<![\w.,])(?:(?P<wd>{_WD}),?\s+(?:the\s+)?)?(?P<d>{_DAY})(?:\s+of)?\s+(?P<m>{_M}),?\s+{_Y}")
_MDY = re.compile(rf"(?<![\w.,])(?:(?P<wd>{_WD}),?\s+)?(?P<m>{_M})\s+(?P<d>{_DAY}),?\s+{_Y}")
_ISO = re.compile(r"(?<![\w./-])(?P<y>[12]\d{3})(?P<s>[-/.])(?P<m>1[0-2]|0?[1-9])(?P=s)(?P<d>3[01]|[12]\d|0?[1-9])"
                  r"(?!\d|[-/.]\d)")
_NUM = re.compile(r"(?<![\w./-])(?P<a>3[01]|[12]\d|0?[1-9])(?P<s>[-/.])(?P<b>3[01]|[12]\d|0?[1-9])(?P=s)"
                  r"(?P<y>[12]\d{3})(?!\d|[-/.]\d)")
_MY = re.compile(rf"(?<![\w.,])(?P<m>{_M}),?\s+(?:of\s+)?{_Y}")
_CENT = re.compile(rf"(?<![\w.,])(?:(?P<n0>\d{{1,2}})(?P<suf0>st|nd|rd|th)\s*(?:[–—-]|\s(?:to|and|or)\s)\s*)?"
                   rf"(?:(?P<n>\d{{1,2}})(?P<suf>st|nd|rd|th)|(?P<w>(?i:{_ORD})))[\s-]+"
                   rf"(?i:century|centuries)(?:\s+(?P<era>{_ERA}))?")
_CENTURY_NAME = re.compile(rf"(?<![\w.,])(?:\d{{1,2}}(?:st|nd|rd|th)|(?i:{_ORD}))[ \t]+Century(?:[ \t]+|-)"
                           r"(?!(?:BCE?|CE|AD|A\.D\.|B\.C\.)\b)(?P<next>[A-Z][a-z]+)(?:[ \t]+[A-Z][\w'’-]*)*")
"""A century with a capital "Century" that a capitalised word follows on its line, the run of capitalised words
after it too: a name ("20th Century Fox", "Twentieth Century-Fox", "21st Century Fox Home Entertainment"); not "the
19th Century. In 1900", "18th-Century Novels" (the century of a title) or "5th Century BC"."""
_DEC = re.compile(r"(?<![\w'’.,])(?P<y>\d{3}0)['’]?s(?!\w)")
_DEC2 = re.compile(r"(?<!\w)['’](?P<y>\d0)s(?!\w)")
_RANGE = re.compile(rf"(?<![\w.,/$£€#])(?P<pre>(?:[Ff]rom|[Bb]etween)\s+)?(?P<y1>\d{{1,4}})(?:\s*(?P<e1>{_ERA}))?"
                    r"(?P<sep>\s*[–—-]\s*|/|[ \t]+/[ \t]+|\s+(?:to|until|till|and|through)\s+)"
                    rf"(?P<y2>\d{{1,4}})(?!\d|[.,]\d)(?:\s*(?P<e2>{_ERA}))?")
_ERA_BEFORE = re.compile(r"(?<!\w)A\.?D\.?\s*(?P<y>\d{1,4})(?!\w)")  # not the locomotive "AD43C"
_ERA_AFTER = re.compile(rf"(?<![\w.,])(?P<y>\d{{1,4}})\s*(?P<era>{_ERA})")
_BARE = re.compile(r"(?:(?<![\w.,/$£€#'’-])|(?<=[A-Za-z]-))(?P<y>1\d{3}|20\d{2}|21\d{2})(?!\d|[.,]\d|\s*%|-\d)")
_URL_YEAR = re.compile(r"(?<=[/#_])(?P<y>1\d{3}|20\d{2}|21\d{2})(?=[/#_):.]|$)")
"""A number between a web address's separators ("wiki/2019_Halle_Open", "#2019:_Two_finals"), which ``_BARE`` leaves
(a slash or underscore before it): a year only where the instance writes the number as a year elsewhere."""
_GLUED = re.compile(r"[g-rt-zA-Z]|[a-f][^\W\d_]")
"""Letters glued to a number that make it a measure or a model, no year: "1080p", "1280px", "2000mAh", "6C 1750GS";
not a citation's letter ("Smith 2004a") or an "s" ("the mid-1970ss", a decade mistyped)."""

_DURATION_AFTER = re.compile(r"(?i)\s*-?\s*(?:years?|yrs?|months?|weeks?|days?|hours?|minutes?|seconds?|"
                             r"decades?|centuries|century|millennia|millennium)\b")
_UNIT_AFTER = re.compile(r"\s?(?:[kMGm]?(?:V|W|Wh|Hz|Pa|Ah)|[kcmnµμ]?m|[km]?g|kcal|cal|kJ|MJ|km/h|mph|kph|rpm|hp|ft|mi"
                         r"|yd|lbs?|oz|ha|psi|bar|dB|°[CF]?|Ω|ohms?|cc|[mc]?[lL]|[kKMGTP]i?B|[kMG]bit/s|[kMG]bps|px|fps"
                         r"|dpi|ppi|PPI)(?![\w/])")
"""A unit symbol after a number: "(1500 V DC overhead)", "2000 km", "1200 MW", "2000 mAh", "1024 GB" measure, and
date no year."""
_LIST_AFTER = re.compile(r"(?:(?:\s*,\s*(?:(?:and|or)\s+)?|\s+(?:and|or|to|x|×)\s+|\s*[×/–-]\s*)\d[\d.,]*)+")
"""The numbers listed after a number: ", 1900 and 2100" of "850, 1800, 1900 and 2100 MHz"."""
_NEXT_WORD = re.compile(r"\s+([a-z]+)\b")
_FUNCTION_WORDS = frozenset(
    "the a an and or but nor by in on at of to for from with as was were is are be been being had has have it its "
    "his her their he she they we i you when while after before until since that which who whom whose this these "
    "those there then than so not no also during into onto upon under over about against between through per via "
    "if though although because where".split())
_DATED_TO = re.compile(r"(?i)\b(?:dat(?:e|es|ed|ing)|trac(?:e|es|ed|ing))(?:[ \t]+back)?(?:[ \t]+[^\W\d][\w'’-]*){0,3}?"
                       r"[ \t]+to[ \t]+(?:about[ \t]+|around[ \t]+|c\.[ \t]*|the[ \t]+year[ \t]+)?$")
"""A number after "dates to", "date Hamlet to", "traced back to": a year."""
_IN_BEFORE = re.compile(r"(?i)\b(?:in|since|until|till|during)\s+$")
_COUNT_BEFORE = re.compile(r"(?i)(?:\bage[ds]?|\bno\.|\bnumber|#|\bpage|\bpp?\.)\s*$")
_ARTICLE_BEFORE = re.compile(r"(?i)\b(?:a|an|the|this|that|his|her|its|their)\s+$")
_MEASURES = frozenset("metre meter metres meters m km mile miles yard yards foot feet ft word page seat acre hectare "
                      "ton tonne cc hp horsepower piece point pound kilogram kg gram gallon litre liter volt watt "
                      "block series square".split())
"""Singular words that a number before them counts ("the 1500 metre race", "a 1000 word essay")."""
_CUE_BEFORE = re.compile(r"(?i)(?:\b(?:in|on|since|from|until|till|by|during|before|after|around|circa|c\.|ca\.|"
                         r"born|died|early|mid|late|as\s+of|spring|summer|autumn|fall|winter|year)(?:\s+of)?"
                         r"\s+(?:the\s+)?(?:year\s+)?|\b(?:mid|pre|post)-|\()$")


@dataclass(frozen=True)
class Slot:
    """One number of a date expression: the part of the text the shift rewrites.

    Attributes:
        start, end: The number in the text (for centuries with its ordinal suffix, or the ordinal word).
        unit: YEAR, DECADE ("1990s"), DECADE2 ("'90s"), HUNDREDS ("1800s") or CENTURY.
        value: Astronomical year the number stands for (1 BC = 0); for centuries the first year.
        bc: The number counts years before Christ.
        marked: The slot's text holds its own era marker ("44 BC", "AD 79", "1st century AD"), so the
            shift may carry it across year 0, flipping the marker; an unmarked date stays on its side.
        month, day, weekday: Known for day dates; they constrain the offset, and stay as written.
        short_of: For a two- or one-digit range end ("1802-03", "1936-7"): the full year of the range start.
        expr: The whole expression (start, end), which entity replacement must not touch.
    """

    start: int
    end: int
    unit: str
    value: int
    bc: bool = False
    marked: bool = False
    month: int | None = None
    day: int | None = None
    weekday: int | None = None
    short_of: int | None = None
    expr: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class Bare:
    """A four-digit number that may be a year.

    ``decision`` is True (a cue word or NER says date), False (a duration or count: "for 1000 years",
    "1201 people"), or None: undecided, or ``weak`` when only NER's label says it is a number.
    """

    start: int
    end: int
    number: str
    decision: bool | None
    weak: bool = False


def _no_plural(pos: int) -> bool:
    return False


@dataclass(frozen=True)
class Evidence:
    """What the model says about one text: entity spans with labels, whether the word at an offset is a
    plural noun (asked only for a content word right after a bare number), and whether the text is
    so short (a lone number) that NER's label means little."""

    spans: Sequence[tuple[int, int, str]] = ()
    is_plural: Callable[[int], bool] = _no_plural
    short: bool = False


def _is_bc(era: str | None) -> bool:
    return era is not None and era.replace(".", "").upper() in ("BC", "BCE")


def _astro(n: int, bc: bool) -> int:
    return 1 - n if bc else n


def _year(m: re.Match[str], y: str = "y", era: str = "era", **kw: object) -> Slot:
    """The slot of year group ``y``; with its era marker group it covers the marker too."""
    marker = m.groupdict().get(era)
    bc = _is_bc(marker)
    end = m.end(era) if marker else m.end(y)
    return Slot(m.start(y), end, YEAR, _astro(int(m[y]), bc), bc, bool(marker), **kw)  # type: ignore[arg-type]


def find_dates(text: str, ev: Evidence = Evidence()) -> tuple[list[Slot], list[Bare]]:
    """The date slots of ``text`` and the bare four-digit numbers whose year-ness needs a vote."""
    slots: list[Slot] = []
    taken: list[tuple[int, int]] = []
    names = century_names(text) if "Century" in text else []

    def free(m: re.Match[str]) -> bool:
        return not any(m.start() < te and ts < m.end() for ts, te in taken)

    def scan(pat: re.Pattern[str]) -> Iterator[re.Match[str]]:
        """Matches of ``pat`` not overlapping taken text; after a rejected match the scan goes on from
        its second character, so "2019 and 1998-99" still finds "1998-99"."""
        pos = 0
        while (m := pat.search(text, pos)) is not None:
            n = len(taken)
            if free(m):
                yield m
            pos = m.end() if len(taken) > n else m.start() + 1

    def add(m: re.Match[str], *new: Slot) -> None:
        span = (m.start(), max(m.end(), *(s.end for s in new)))  # a second year after the match ("1726/27")
        slots.extend(Slot(**{**s.__dict__, "expr": span}) for s in new)
        taken.append(span)

    for pat in (_DMY, _MDY):
        for m in scan(pat):
            if len(m["y"]) == 4 or m["era"]:
                wd = WEEKDAYS[m["wd"].lower()] if m["wd"] else None
                add(m, _year(m, month=MONTHS[m["m"].rstrip(".").lower()], day=int(re.sub(r"\D", "", m["d"])),
                             weekday=wd), *_dual_year(text, m))
    for m in scan(_ISO):
        add(m, _year(m, month=int(m["m"]), day=int(m["d"])))
    for m in scan(_NUM):
        a, b = int(m["a"]), int(m["b"])
        md = (b, a) if a > 12 else (a, b) if b > 12 else (None, None)
        add(m, _year(m, month=md[0], day=md[1]))
    for m in scan(_MY):
        if len(m["y"]) == 4 or m["era"]:
            add(m, _year(m, month=MONTHS[m["m"].rstrip(".").lower()]), *_dual_year(text, m))
    for m in scan(_CENT):
        n = int(m["n"]) if m["n"] else ORDINAL_WORDS[m["w"].lower()]
        if n >= 1 and not any(a <= m.start() < b for a, b in names):
            bc = _is_bc(m["era"])
            start = m.start("w") if m["w"] else m.start("n")
            end = m.end() if m["era"] else m.end("w") if m["w"] else m.end("suf")
            first = []  # "7th-6th century BC": both ends move, with the era marker they share
            if m["n0"] and int(m["n0"]) >= 1:
                n0 = int(m["n0"])
                first.append(Slot(m.start("n0"), m.end("suf0"), CENTURY, 1 - 100 * n0 if bc else 100 * (n0 - 1) + 1,
                                  bc, False))
            add(m, *first, Slot(start, end, CENTURY, 1 - 100 * n if bc else 100 * (n - 1) + 1, bc,
                                bool(m["era"]) and not first))
    for m in scan(_DEC):
        y = int(m["y"])
        add(m, Slot(m.start("y"), m.end("y"), HUNDREDS if y % 100 == 0 else DECADE, y))
    for m in scan(_DEC2):
        add(m, Slot(m.start("y"), m.end("y"), DECADE2, 1900 + int(m["y"])))
    for m in scan(_RANGE):
        found = _range_slots(text, m, ev)
        if found:
            add(m, *found)
    for m in scan(_ERA_BEFORE):
        add(m, Slot(m.start(), m.end(), YEAR, int(m["y"]), marked=True))
    for m in scan(_ERA_AFTER):
        add(m, _year(m))
    bares = [Bare(m.start(), m.end(), m["y"], *_bare_evidence(text, m.start(), m.end(), ev)) for m in scan(_BARE)]
    if "://" in text:
        bares += [Bare(y.start(), y.end(), y["y"], None, True) for u in URL_IN_TEXT.finditer(text)
                  for y in _URL_YEAR.finditer(text, u.start(), u.end()) if free(y)]
    slots.sort(key=lambda s: s.start)
    return slots, bares


_DUAL = re.compile(r"/(\d{4}|\d{1,2})(?![\d/])")


def _dual_year(text: str, m: re.Match[str]) -> list[Slot]:
    """The second year of a date written with two years, Old Style and New ("20 March 1726/27", "February
    1714/5", "January 1699/1700"): the year after the first, moving with it, as short as it is written; or none."""
    d = None if m["era"] or len(m["y"]) != 4 else _DUAL.match(text, m.end("y"))
    if d is None:
        return []
    first, size = int(m["y"]), 10 ** len(d[1])
    full = int(d[1]) if len(d[1]) == 4 else first // size * size + int(d[1])
    if full <= first and len(d[1]) < 4:
        full += size
    return [Slot(d.start(1), d.end(1), YEAR, full, short_of=first)] if full - first <= 1 else []


_MONTH_YEAR = re.compile(r"(?i)\b([a-z]+)\.?[ \t]+(?:\d{1,2},?[ \t]+)?(\d{4})\b")


def _year_month(text: str, m: re.Match[str]) -> bool:
    """Whether a range match is a year and month written with a hyphen ("1983-10") after the same month and year in
    words ("October 1983; 36 years ago (1983-10)", as Wikipedia's date templates write them), no range of years."""
    if m["sep"] != "-" or len(m["y2"]) != 2 or not 1 <= int(m["y2"]) <= 12:
        return False
    return any(MONTHS.get(w[1].lower()) == int(m["y2"]) and w[2] == m["y1"]
               for w in _MONTH_YEAR.finditer(text, max(0, m.start() - 48), m.start()))


_ERA_AHEAD = re.compile(rf"\s*[–—-]\s*(?:[a-z]+\s+){{0,2}}\d{{1,4}}(?:[ \t]*/[ \t]*\d{{1,4}})?\s*(?P<era>{_ERA})(?!\w)")
"""The end of a range after a year of two written without its era ("497/6 – winter 406/5 BC")."""


def _range_slots(text: str, m: re.Match[str], ev: Evidence) -> list[Slot]:
    y1, y2, e1, e2 = m["y1"], m["y2"], m["e1"], m["e2"]
    sep = m["sep"].strip()
    if sep == "and" and not m["pre"]:
        return []
    if e1 and e2:
        return [_year(m, "y1", "e1"), _year(m, "y2", "e2")]
    if not (e1 or e2) and len(y1) < 4 and sep == "/" and (ahead := _ERA_AHEAD.match(text, m.end())) is not None:
        e2 = ahead["era"]  # "c. 497/6 – winter 406/5 BC": the range's other end tells the era of both
    if e1 or e2:  # one marker for both ends ("from 799 to 684 BC"): neither may cross year 0
        bc = _is_bc(e1 or e2)
        second = int(y2)
        if sep == "/" and len(y2) < len(y1):  # "406/5 BC": the year of two that begins in 406 BC, its second year
            size = 10 ** len(y2)  # written in full after the shift ("437/436 BC")
            second += int(y1) // size * size
            second += (-size if second >= int(y1) else 0) if bc else (size if second <= int(y1) else 0)
        return [Slot(m.start("y1"), m.end("y1"), YEAR, _astro(int(y1), bc), bc),
                Slot(m.start("y2"), m.end("y2"), YEAR, _astro(second, bc), bc)]
    if len(y1) != 4 or not 1000 <= int(y1) <= 2199 or _counted(text, m.end("y2"), ev):
        return []
    first = int(y1)
    if _year_month(text, m):  # "October 1983; 36 years ago (1983-10)": the year alone
        return [Slot(m.start("y1"), m.end("y1"), YEAR, first)]
    if len(y2) == 2 and sep in ("-", "–", "—", "/"):
        full = first // 100 * 100 + int(y2)
        full += 100 if full <= first else 0
        return [Slot(m.start("y1"), m.end("y1"), YEAR, first),
                Slot(m.start("y2"), m.end("y2"), YEAR, full, short_of=first)]
    if len(y2) == 1 and sep in ("-", "–", "—") and int(y2) > first % 10:  # "1936–7"; not a score "1936-2"
        return [Slot(m.start("y1"), m.end("y1"), YEAR, first),
                Slot(m.start("y2"), m.end("y2"), YEAR, first // 10 * 10 + int(y2), short_of=first)]
    if len(y2) == 4 and 0 < int(y2) - first <= 300:
        return [Slot(m.start("y1"), m.end("y1"), YEAR, first), Slot(m.start("y2"), m.end("y2"), YEAR, int(y2))]
    return []


def _counted(text: str, end: int, ev: Evidence) -> bool:
    """True when the number ending at ``end`` counts something: a duration, a unit or a plural noun follows."""
    after = text[end:end + 40]
    if _measured(after):
        return True
    word = _NEXT_WORD.match(after)
    return word is not None and word[1].lower() not in _FUNCTION_WORDS and ev.is_plural(end + word.start(1))


def _measured(after: str) -> bool:
    """True when ``after``, the text after a number, opens with a duration or a unit."""
    return _DURATION_AFTER.match(after) is not None or _UNIT_AFTER.match(after) is not None


def _listed_measure(text: str, end: int) -> bool:
    """True when the number ending at ``end`` opens or continues a list of numbers that a duration or unit ends
    ("GSM 850, 900, 1800, and 1900 MHz", "1920 x 1080 px"): the list measures, and none of it is a year."""
    listed = _LIST_AFTER.match(text, end, end + 80)
    return listed is not None and _measured(text[listed.end():listed.end() + 40])


def _bare_evidence(text: str, s: int, e: int, ev: Evidence) -> tuple[bool | None, bool]:
    """(decision, weak) for a bare number; see ``Bare``. A number glued to letters is a measure or model wherever it
    stands, and its vote keeps the same number elsewhere in the instance from being taken for a year ("Alfa Romeo
    6C 1750GS" beside "Alfa Romeo 6C 1750")."""
    if _COUNT_BEFORE.search(text[max(0, s - 12):s]) or _GLUED.match(text, e) or _measured(text[e:e + 40]):
        return False, False
    if _counted(text, e, ev):  # a plural noun follows: "1201 people"; but "A report on the elections in 2008 lists
        # all irregularities" beside "the elections of 2008": after "in", a year where the instance dates it elsewhere
        return (None, True) if _IN_BEFORE.search(text, max(0, s - 12), s) else (False, False)
    label = None if ev.short else next((lab for a, b, lab in ev.spans if a <= s and e <= b), None)
    before = text[max(0, s - 30):s]
    if _CUE_BEFORE.search(before) or _DATED_TO.search(text, max(0, s - 60), s):
        return True, False
    if _listed_measure(text, e):
        return False, False
    round_count = _round_count(text[s:e])
    if label == "DATE" and not round_count or (before.endswith("(") and text[e:e + 1] == ")") \
            or _year_column(text, s, e):
        return True, False
    if _ARTICLE_BEFORE.search(before) and (word := _NEXT_WORD.match(text, e)) is not None \
            and word[1] not in _FUNCTION_WORDS and word[1] not in _MEASURES:
        return True, False  # "in a 1237 document", "the 1984 election": a singular noun after a number is no count
    return None, label in NUMERIC_LABELS or round_count


def _round_count(number: str) -> bool:
    """True for a round number before 1500 ("Masters 1000", "top 1000", "1200 seats"): more often a count or a name's
    number than a year where nothing but NER's label says which; a year where the instance writes it as one
    elsewhere."""
    return number.endswith("00") and int(number) < 1500


_YEAR_HEADER = re.compile(r"(?i)\b(?:years?|seasons?|dates?)\b")


_YEAR_KEY = re.compile(r"(?i)\b(?:years?|seasons?|dates?|born|died|(?:re)?open(?:ed|ing)|closed|found(?:ed|ing)|"
                       r"establish(?:ed|ment)|built|completed|launched|(?:de)?commissioned|introduced|released|formed|"
                       r"dissolved|abolished|incorporated|inaugurated|demolished|began|ended|started|discontinued|"
                       r"construction|start|end)\b")


def _year_column(text: str, start: int, end: int) -> bool:
    """True for a number filling a table cell under a header cell that names years ("| Season | Team |" over "| 2011
    | Rovers |"), or opening the value of an infobox row whose key names a time ("Reopened | 2016", "Founded | 1885
    in Paris"): NER may call one such year a number and the next a date, and a year left unshifted beside shifted
    ones gives the instance away."""
    header = table_header(text, start)
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end) % (len(text) + 1)
    cells = ROW.split(text[line_start:line_end])
    index = len(ROW.findall(text, line_start, start))
    if key_column(text, line_start) and ROW.search(text[line_start:start].lstrip().lstrip("|")):
        key, value = row_cells(text[line_start:line_end])
        if value.strip(" *").startswith(text[start:end]) and _YEAR_KEY.search(key) is not None:
            return True
    if header is None or header == text[line_start:line_end] or cells[index].strip(" *") != text[start:end]:
        return False
    columns = ROW.split(header)
    aligned = len(columns) == len(cells) or not "".join(cells[:index]).strip()  # the first cell of a shorter row
    return aligned and index < len(columns) and _YEAR_HEADER.search(columns[index]) is not None


def decide(bares: Mapping[str, Sequence[Bare]], years: Iterable[Slot] = ()) -> dict[str, list[Slot]]:
    """Turn the bare numbers of all fields of one instance into year slots, by field.

    A number is a year where the evidence says so. Any other occurrence follows the occurrences of the
    same number in the instance, and the years of ``years`` (the slots found otherwise: "1000 AD"): a year if one of
    them is; otherwise, if NER called it a number, or another occurrence counts something, not a year; otherwise a
    year (an unqualified number between 1000 and 2199 in running text is most often one).
    """
    votes: dict[str, set[bool]] = {str(s.value): {True} for s in years if s.unit == YEAR and not s.bc}
    for found in bares.values():
        for b in found:
            if b.decision is not None:
                votes.setdefault(b.number, set()).add(b.decision)
    out: dict[str, list[Slot]] = {}
    for key, found in bares.items():
        for b in found:
            seen = votes.get(b.number, set())
            is_year = b.decision if b.decision is not None else True in seen or not (b.weak or False in seen)
            if is_year:
                out.setdefault(key, []).append(Slot(b.start, b.end, YEAR, int(b.number), expr=(b.start, b.end)))
    return out


# ----------------------------------------------------------------------------------- choosing the offset

def _day_date(s: Slot, offset: int) -> dt.date | None:
    if s.month is None or s.day is None or s.bc:
        return None
    try:
        return dt.date(s.value + offset, s.month, s.day)
    except ValueError:
        return None


def _last_year(s: Slot, value: int) -> int:
    return value + {DECADE: 9, DECADE2: 9, HUNDREDS: 99, CENTURY: 99}.get(s.unit, 0)


def fits(slots: Sequence[Slot], offset: int) -> bool:
    """True when every slot shifted by ``offset`` stays representable and every day interval is kept."""
    if offset % max((STEP[s.unit] for s in slots), default=1):
        return False
    for s in slots:
        new = s.value + offset
        if not -9998 <= new <= 9999:
            return False
        if not s.marked and (_last_year(s, new) > 0 if s.bc else new < 1):
            return False
        if s.unit == DECADE and new % 100 == 0:  # "the 1900s" would read as a century
            return False
        if not s.marked and s.unit != CENTURY and 1000 <= s.value <= 2199 and not 1000 <= new <= 2199:
            return False  # "1 January 900" or "2400-2401" would no longer read as dates (see _BARE)
    days = [(s, _day_date(s, 0)) for s in slots if s.month is not None and s.day is not None and not s.bc]
    for s, old in days:
        new_date = _day_date(s, offset)
        if old is None or new_date is None:
            return False
        if s.weekday is not None and new_date.weekday() != s.weekday:
            return False
    dated = sorted(((old, s) for s, old in days if old is not None), key=lambda d: d[0])
    return all(_day_date(b, offset) - _day_date(a, offset) == ob - oa  # type: ignore[operator]
               for (oa, a), (ob, b) in zip(dated, dated[1:], strict=False))


def choose_offset(slots: Sequence[Slot], rng: Random) -> int | None:
    """A random offset that fits every slot, preferring ones that keep dates in the past; None if none fits."""
    step = max((STEP[s.unit] for s in slots), default=1)
    latest = max([PRESENT_YEAR] + [_last_year(s, s.value) for s in slots if not s.bc])
    for limit in SEARCH:
        span = range(-(limit // step), limit // step + 1)
        fitting = [k * step for k in span if abs(k * step) >= MIN_SHIFT and fits(slots, k * step)]
        if fitting:
            # _last_year(s, s.value + o) is _last_year(s, s.value) + o: one bound for every offset
            bound = min((latest - _last_year(s, s.value) for s in slots if not s.bc), default=None)
            past = [o for o in fitting if bound is None or o <= bound]
            return rng.choice(past or fitting)
    return None


# ------------------------------------------------------------------------------ rendering and reading

def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def century_names(text: str) -> list[tuple[int, int]]:
    """The spans of the names that open with a century (``_CENTURY_NAME``): its number is no date to shift, and the
    name is an organisation's ("20th Century Fox"); not where a month, weekday, place or people follows the century
    ("the 18th Century Europe knew", "in the 19th Century British rule")."""
    out = []
    for m in _CENTURY_NAME.finditer(text):
        word = m["next"]
        if (word.lower() not in MONTHS and word.lower() not in WEEKDAYS and country_of(word) is None
                and word not in place_names() and not is_region(word) and not demonym_or_language(word)):
            out.append((m.start(), m.end()))
    return out


def _century_number(value: int, bc: bool) -> int:
    return (1 - value) // 100 if bc else (value - 1) // 100 + 1


_FLIP = {"BC": "AD", "BCE": "CE", "AD": "BC", "CE": "BCE"}


def _flip(marker: str) -> str:
    """The era marker for the other side of year 0, in the same style ("B.C." -> "A.D.", "BCE" -> "CE")."""
    core = _FLIP[marker.replace(".", "").upper()]
    if "." in marker[:-1]:
        return "".join(c + "." for c in core)
    return core + ("." if marker.endswith(".") else "")


_MARKED = re.compile(rf"(?P<pre>(?:{_ERA}|A\.?D\.?(?=\d))\s*)?(?P<num>.+?)(?P<mid>[\s-]+(?i:century|centuries))?"
                     rf"(?:(?P<sp>\s*)(?P<post>{_ERA}))?")


def render(s: Slot, old: str, offset: int) -> str:
    """The text of slot ``s`` (written ``old``) after the shift; a marked date crossing year 0 flips its marker."""
    new = s.value + offset
    bc = new <= 0 if s.marked else s.bc
    if s.unit == DECADE2:
        return f"{new % 100:02d}"
    if s.short_of is not None and len(old) <= 2:  # "1802–03", "1936–7": as short as the shifted start allows
        start = s.short_of + offset
        if len(old) == 1 and new // 10 == start // 10:
            return str(new % 10)
        if new // 100 == start // 100:
            return f"{new % 100:02d}"
    m = _MARKED.fullmatch(old)
    if m is None:  # pragma: no cover - every slot text matches
        raise ValueError(f"cannot render date {old!r}")
    num = m["num"]
    if s.unit == CENTURY:
        n = _century_number(new, bc)
        word = next((w for w, i in ORDINAL_WORDS.items() if i == n), None)
        num = _ordinal(n) if num[:1].isdigit() or word is None else word.capitalize() if num[:1].isupper() else word
    else:
        num = str(1 - new if bc else new)
    pre, mid, post = m["pre"] or "", m["mid"] or "", m["post"] or ""
    if bc != s.bc:
        marker = (pre or post).strip()
        if pre:  # "AD 79" -> "22 BC": the BC marker follows the number
            return f"{num}{mid} {_flip(marker)}"
        return f"{num}{mid}{m['sp']}{_flip(marker)}"
    return f"{pre}{num}{mid}{m['sp'] or ''}{post}"


def read(s: Slot, text: str, offset: int) -> int | None:
    """The astronomical year a shifted slot's text stands for (two-digit forms completed); None if unreadable."""
    m = _MARKED.fullmatch(text.strip())
    if m is None:
        return None
    marker = (m["pre"] or m["post"] or "").strip()
    bc = _is_bc(marker) if marker else s.bc
    num = m["num"]
    if s.unit == CENTURY:
        d = re.fullmatch(r"(\d{1,2})(st|nd|rd|th)", num)
        n = int(d[1]) if d and _ordinal(int(d[1])) == num else ORDINAL_WORDS.get(num.lower())
        return None if n is None else (1 - 100 * n if bc else 100 * (n - 1) + 1)
    if not num.isdigit():
        return None
    if s.unit == DECADE2 or (s.short_of is not None and len(num) <= 2):
        expected = s.value + offset
        return expected - expected % 10 ** len(num) + int(num)
    return _astro(int(num), bc)


def interval_problems(pairs: Iterable[tuple[Slot, int | None]], offset: int) -> list[str]:
    """Problems of a shift: each (slot, value read back) must be the old value plus ``offset``.

    Equal offsets keep every interval in years; day dates are also compared day by day, and weekdays.
    """
    problems = []
    days = []
    for s, got in pairs:
        want = s.value + offset
        if got is None or (got % 100 != want % 100 if s.unit == DECADE2 else got != want):
            problems.append(f"date year {s.value} became {got} instead of {want}")
        elif s.month is not None and s.day is not None and not s.bc:
            days.append((_day_date(s, 0), _day_date(s, offset), s))
    days.sort(key=lambda d: d[0] or dt.date.min)
    for (a0, a1, _), (b0, b1, _) in zip(days, days[1:], strict=False):
        if a0 is None or a1 is None or b0 is None or b1 is None or b1 - a1 != b0 - a0:
            problems.append(f"days between {a0} and {b0} changed")
    for old, new, s in days:
        if s.weekday is not None and (new is None or new.weekday() != s.weekday):
            problems.append(f"weekday of {old} no longer fits")
    return problems
