"""Words that are never names, and where a capital says nothing (sentence, line, list-item and cell starts).

Wikipedia text brings table rows ("| Distance | Winner |"), infobox-like "Key | Value" cells, lists
and headings, where a capital letter opens a cell or an item rather than a name. NER models tag such
words as entities ("Distance" as ORG, "Born" as PERSON), and a word replaced there breaks every
sentence that uses it in lower case. So a capital counts as evidence of a name only where no
sentence, line, list item or cell starts, and a few word classes are never names at all: English
stop words (spaCy's list: "Their", "Is", "Another"), number and ordinal words ("Two", "Second"),
era markers ("BC", "AD") and units after a number ("50 MW", "12 km").
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache, lru_cache
from itertools import groupby, pairwise

_ORDINALS = ("first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
             "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth hundredth thousandth "
             "last next").split()
_CARDINALS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
              "sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred "
              "thousand million billion trillion").split()
CARDINALS = frozenset(_CARDINALS)
CONTENT_STOP_WORDS = frozenset("amount back bottom call empty fire front full give keep made make move name part put "
                               "see serious show side take top used using whole".split())
"""Words of spaCy's stop list that are content words in a title ("Best in Show", "Back to the Future")."""
ERAS = frozenset("bc ad bce ce b.c. a.d. b.c.e. c.e. o.s.".split())
"""Era markers, and the Old Style of the calendar ("3 April [O.S. 24 March] 1693"; not "N.S.", Nova Scotia too)."""
_LABELS = frozenset("ipa utc gmt".split())
"""Labels of a rendering ("IPA: [mɐˈskva]") and the world's time standards ("UTC time | 1999-09-20 17:47:16"), no
names."""
_STARTERS = "|*•#=;:.!?\t"
_MARK = r"\[(?:[a-z0-9]{1,4}|(?:note|nb|n) ?\d{1,3}|[a-z][a-z ]{2,24}\??)\]"
FOOTNOTE = re.compile(r"(?<=[^\s\[])" + _MARK + r"(?!\])")
"""A footnote mark that Wikipedia text copied as plain text keeps: "[12]", "[a]", "[note 3]", "[citation
needed]", after the word or stop it belongs to. Lower case only, so a bracketed name is never one."""
_MARKS_AT_END = re.compile(r"(?<=[^\s\[])(?:" + _MARK + r")+$")
_UNIT_AFTER_NUMBER = re.compile(r"\d(?:[\d.,]*\d)?[^\S\n]?\Z")
_SCALES = frozenset("Celsius Fahrenheit Kelvin Rankine Réaumur Centigrade Richter Mercalli Beaufort Fujita Mohs"
                    .split())
_DEGREES_BEFORE = re.compile(r"(?i)(?:\bdegrees?|°)\s*$")
_SCALE_AFTER = re.compile(r"\s+(?:scale|degrees?)\b")


_ARCHAIC = frozenset("thy thee thine thyself ye unto".split())
"""Function words of older English, in hymns, mottos and titles ("Great Is Thy Faithfulness"): no names. Not "thou"
and "shalt", which open a title that stays recognisable with them ("Thou Shalt Not Steal")."""


@cache
def _never() -> frozenset[str]:
    from spacy.lang.en.stop_words import STOP_WORDS

    return frozenset(STOP_WORDS) | frozenset(_ORDINALS) | frozenset(_CARDINALS) | ERAS | _LABELS | _ARCHAIC


def never_name(word: str) -> bool:
    """True for a word that is no name: a stop word, number word, ordinal, era, rendering label or time standard.

    A stop word written in capitals is a code ("US" beside "Texas"), no stop word; era markers and
    labels ("BC", "IPA") are never names however they are written.
    """
    low = word.casefold().strip(".")
    if low in ERAS or word.casefold() in ERAS or low in _LABELS:
        return True
    if len(word) > 1 and word.isupper() and word.isalpha():
        return False
    return low in _never()


def scale_at(text: str, start: int, end: int) -> bool:
    """True for a scale's name after "degrees" or before "scale" ("40 degrees Celsius", "the Richter scale"): a unit,
    though named after a person."""
    return text[start:end] in _SCALES and (_DEGREES_BEFORE.search(text, max(0, start - 12), start) is not None
                                           or _SCALE_AFTER.match(text, end) is not None)


def unit_at(text: str, start: int, end: int) -> bool:
    """True for a short word right after a number on its line ("50 MW", "12km"): a unit or a designator, no name;
    not a word opening the next line ("7:47:16\nISC event | ...").

    A word written like a name (a capital, then three lower-case letters) is none: "Doha" and "Riga" after
    a year in a results table ("2005 Doha") are places.
    """
    word = text[start:end]
    if scale_at(text, start, end):
        return True
    if len(word) >= 4 and word[:1].isupper() and word[1:].isalpha() and word[1:].islower():
        return False
    return end - start <= 4 and _UNIT_AFTER_NUMBER.search(text[max(0, start - 24):start]) is not None


def measure_at(text: str, start: int, end: int) -> bool:
    """``unit_at`` for a unit written with a small letter or a scale ("12 MPa", "5 GBq", "40 degrees Celsius"), no
    acronym, which after a number may name an event or an organisation as well ("the 2014 CES", "2017 IPL",
    "7 IITs")."""
    return unit_at(text, start, end) and not text[start:end].rstrip("s").isupper()


_DEGREE_CODES = frozenset("""PhD DPhil MPhil BPhil MSc BSc BScN MRes MSt MEng BEng MEd BEd EdD PsyD PharmD MBA LLB
    LLM LLD MBBS MBChB BChir BSN MSN DNP MPH MPA BBA MDiv ThD ThM DMin BMus MMus DMA BFA BSW MSW DSW DDS DMD DVM PGCE
    GED PGDip PGDipSW ProfD DProf MArch BArch MLitt DLitt BCom MCom BTech MTech BSEE MSEE""".split())
"""Academic degrees whose abbreviation names nothing else ("PhD", "MSc"; also written with dots: "Ph.D.", "LL.B.")."""
_DEGREE_LETTERS = frozenset("BA MA BS MS MD JD AB AM SB SM DO MFA".split())
"""Degrees whose abbreviation may also be a place's, a company's or a person's ("MD" Maryland, "BA", "JD"): a
degree where written with dots and no name after them ("M.D.", not "J.D. Salinger"), or where the words around it
tell one (``_degree_letters``)."""
_DEGREE_CODE = re.compile(r"(?<![\w.'’-])((?:[A-Z][a-z]{0,3}\.?){1,4}[A-Z]?[a-z]{0,2}\.?)(?![\w'’-])")
_ARTICLE_BEFORE = re.compile(r"\b(?:a|an|his|her|their)[ \t]+\Z")
_LISTED_BEFORE = re.compile(r"[(;,/][ \t]*\Z")
_DEGREE_AFTER = re.compile(r"[ \t]+(?:(?:in|from)[ \t]+[^\W\d]|degrees?\b)|[ \t]*[,;)/]")
_STATES = frozenset("MA MD MS".split())
_SCHOOL_BEFORE = re.compile(r"(?:University|College|Institute|School|Academy|Conservatory|Polytechnic)\b[^()\n]{0,30}"
                            r"\([^()\n]{0,20}\Z")
_DEGREE_YEAR = re.compile(r"[ \t]*,?[ \t]*(?:1[6-9]|20)\d\d\b")
_DEGREE_WORD = r"(?:Bachelor|Master|Doctor|Doctorate|Associate|Licentiate|Diploma|Certificate)"
_FIELDS = frozenset("""arts science sciences business engineering law laws medicine philosophy education
    music divinity theology nursing public social surgery pharmacy dental veterinary architecture letters
    literature commerce technology accountancy accounting economics journalism psychology osteopathic
    physical fine applied computer information management finance mathematics humanities international
    sacred juridical civil mechanical electrical chemical health studies research liberal design""".split())
_CAPITALISED = r"[A-Z][\w'’-]*"
_DEGREE_KINDS = frozenset("postgraduate graduate undergraduate professional honorary".split())
_DEGREE_KIND = "(?:" + "|".join(sorted(w.title() for w in _DEGREE_KINDS)) + ")"
_DEGREE_NAME = re.compile(
    rf"(?<![\w'’-])(?:{_DEGREE_KIND}[ \t]+(?:Doctorate|Diploma|Certificate)|{_DEGREE_WORD}(?:['’]?s)?[ \t]+[Dd]egree)"
    rf"(?![ \t]+(?:of|in)[ \t])|"
    rf"(?<![\w'’-])(?:{_DEGREE_KIND}[ \t]+)?{_DEGREE_WORD}(?:['’]s)?"
    rf"(?:[ \t]+[Dd]egree)?[ \t]+(?:of|in)[ \t]+(?:the[ \t]+)?({_CAPITALISED})"
    rf"(?:[ \t]+(?:(?:and|of|in|&)[ \t]+)?{_CAPITALISED})*"
    rf"(?:[ \t]+\([^()\n]{{1,12}}\))?(?:[ \t]+in[ \t]+{_CAPITALISED}(?:[ \t]+(?:(?:and|of|&)[ \t]+)?{_CAPITALISED})*)?")
"""A degree's name: "Bachelor of Science in Social Work", "Master of Arts (MA) in History", "Doctor of Osteopathic
Medicine", "Postgraduate Diploma in Social Work". Where its first word is "Master", "Doctor", "Associate", a diploma
or a certificate, the field opening it must be an academic one (``_FIELDS``): "Master of Puppets" is an album."""
_OPEN_FIELD = frozenset("bachelor doctorate licentiate".split())


def _degree_letters(text: str, start: int, end: int) -> bool:
    """True for ``_DEGREE_LETTERS`` that the words around tell a degree: "a BA in History", "his MA from Yale", "an MS
    degree", or in brackets ("(BA)", "(AB, MD)", "(BA, 1990)"); for a state's code too (``_STATES``) only after a
    school or before a year ("Brown University (MA)", "(MS, 1990)"; not "Salem (MA) High School", "Baltimore, MD in
    1990")."""
    if _DEGREE_AFTER.match(text, end) is None:
        return False
    before = text[max(0, start - 40):start]
    if _ARTICLE_BEFORE.search(before):
        return True
    if before.rfind("(") <= before.rfind(")") or not _LISTED_BEFORE.search(before):
        return False
    return (text[start:end] not in _STATES or _SCHOOL_BEFORE.search(before) is not None
            or _DEGREE_YEAR.match(text, end) is not None)


def _degree_code(word: str) -> bool:
    """True for a degree's abbreviation, written with dots or without ("Ph.D.", "PhD", "B.S.")."""
    bare = word.replace(".", "")
    return bare in _DEGREE_CODES or (word.count(".") >= 2 and bare in _DEGREE_LETTERS)


@lru_cache(maxsize=1 << 12)
def degree_spans(text: str) -> tuple[tuple[int, int], ...]:
    """The spans of ``text`` that name an academic degree, no name of anything: "Bachelor of Arts (BA) in Social
    Work", "received his Ph.D. in physics", "University of Delaware (BA), Syracuse University (JD)", "Harvey
    Washington Wiley, M.D.", "Columbia University (B.S., 1946; M.S., 1949)". NER calls them organisations and
    places; their words stay, as the university's name beside them changes."""
    out = []
    for m in _DEGREE_NAME.finditer(text):
        opens = next(w for w in m[0].split() if w.casefold() not in _DEGREE_KINDS).casefold()
        if (m[1] is None or re.sub(r"['’]s$", "", opens) in _OPEN_FIELD or m[1].casefold() in _FIELDS
                or re.search(r"[Dd]egree", m[0])):
            out.append(m.span())
    for m in _DEGREE_CODE.finditer(text):
        word = m[1].rstrip(".") if m[1].endswith(".") and m[1].count(".") == 1 else m[1]
        bare = word.replace(".", "")
        after = text[m.start() + len(word):m.start() + len(word) + 30]
        if word.count(".") >= 2 and re.match(r"[ \t]+[A-Z][a-z]", after):
            continue  # "J.D. Salinger", "M.S. Dhoni": a person's initials
        if _degree_code(word) or (bare in _DEGREE_LETTERS and "." not in word
                                  and _degree_letters(text, m.start(), m.start() + len(word))):
            out.append((m.start(), m.start() + len(word)))
    merged: list[tuple[int, int]] = []
    for a, b in sorted(out):
        if merged and a < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
        else:
            merged.append((a, b))
    return tuple(merged)


def in_degree(text: str, pos: int) -> bool:
    """True when ``pos`` lies in an academic degree's name or abbreviation (``degree_spans``)."""
    return any(a <= pos < b for a, b in degree_spans(text))


def mask_footnotes(text: str) -> str:
    """``text`` with its ``FOOTNOTE`` marks blanked, each character a space, so every offset holds. spaCy's
    tokenizer reads "signed in Vienna.[12] Unofficial talks" as one token "Vienna.[12": NER then misses the
    place and takes "Unofficial" for an organisation."""
    return FOOTNOTE.sub(lambda m: " " * len(m[0]), text) if "[" in text else text


def sentence_start(text: str, pos: int) -> bool:
    """True when the word at ``pos`` opens the text, a sentence, a line, a list item or a table cell.

    A capital there says nothing about a name: "Their leader", "| Distance |", "* Winner: ...", also after a
    footnote mark ("was signed.[12] Unofficial talks").
    """
    before = text[:pos]
    stripped = before.rstrip(" \t\"'“‘([")
    if stripped.endswith("]"):
        tail = stripped[-120:]
        marks = _MARKS_AT_END.search(tail)
        if marks is not None:
            stripped = stripped[:len(stripped) - len(tail) + marks.start()]
    if not stripped or "\t" in before[len(stripped):]:
        return True
    if stripped[-1] in "\r\n":  # a line of prose opens; a table row's first cell, which no bar opens, is a cell's
        return not in_row(text, pos)  # word as the cell rules read it ("Kodak film | 16 mm")
    if stripped[-1] in _STARTERS:
        return True
    if stripped[-1] in "-–—":  # a list item "- Winner" (a dash that opens its line)
        line = stripped[:-1].rsplit("\n", 1)[-1]
        return not line.strip()
    return False


def _line(text: str, start: int, end: int) -> tuple[int, str]:
    """The start and the text of the line that holds ``text[start:end]``."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    return line_start, text[line_start:len(text) if line_end < 0 else line_end]


def _marks() -> str:
    codes = [c for c in range(0x300, 0x10000) if unicodedata.category(chr(c)).startswith("M")]
    ranges, first = [], codes[0]
    for a, b in zip(codes, codes[1:] + [-1], strict=True):
        if b != a + 1:
            ranges.append(chr(first) if first == a else f"{chr(first)}-{chr(a)}")
            first = b
    return "[" + "".join(ranges) + "]"


MARKS = _marks()
"""A regular-expression class of Unicode's combining marks: the vowel signs and viramas of Indic scripts ("बुद्ध",
"বুদ্ধ"), Hebrew and Arabic points, combining accents. No letters, so ``\\w`` parts a word at each of them."""

ROW = re.compile(r"[|\t]")
"""What makes a line a table row, and parts its cells."""
URL_IN_TEXT = re.compile(r"(?<![\w.])[a-zA-Z][\w+.-]*://[^\s<>\"'|]+")
"""A web address in running text, up to a space, a quote, an angle bracket or a cell's bar."""
_RULE = re.compile(r"[\s|:+=-]*-{3}[\s|:+=-]*")
"""A markdown table's rule under its header: "|---|:---:|"."""


_DIGIT = re.compile(r"[0-9]")
"""A digit that writes a number ("¹" marks a note)."""


def header_row(text: str, start: int, end: int) -> bool:
    """True when ``text[start:end]`` lies in one cell of a table's header: the first of its rows (lines with a "|" or
    a tab) when a markdown rule follows it, or it has no digits and no rows follow, or one of its cells holds no digit
    where two in three of the (up to six) rows below it do ("| Year | Song | US Hot 100 |" over "| 1997 | Pacifier |
    - |"; a table's first row of data is of a kind with the rows below). There a word names a column: "Apps",
    "Oldest Living President", "Holder" (a family name too)."""
    line_start, line = _line(text, start, end)
    if not ROW.search(line) or ROW.search(text, start, end):
        return False
    before = text[:line_start - 1].rsplit("\n", 1)[-1] if line_start else ""  # a blank line ends a table
    if ROW.search(before):
        return False
    below = []
    for row in text[line_start + len(line) + 1:].split("\n", 6)[:6]:
        if not ROW.search(row):
            break
        below.append(row)
    if not below:
        return _DIGIT.search(line) is None
    if _RULE.fullmatch(below[0]):
        return True
    first = ROW.split(line)
    cells = [r for r in map(ROW.split, below) if len(r) == len(first)]
    return bool(cells) and any(cell.strip() and _DIGIT.search(cell) is None
                               and 3 * sum(_DIGIT.search(r[i]) is not None for r in cells) >= 2 * len(cells)
                               for i, cell in enumerate(first))


def row_cells(line: str) -> list[str]:
    """The cells of a table row, without the empty ones its outer bars make ("| Born | 1852 |")."""
    return [line[a:b] for a, b in cell_spans(line)]


def cell_spans(line: str) -> list[tuple[int, int]]:
    """The spans of ``row_cells``: the line without its outer spaces and bars, parted by ``ROW``."""
    a = len(line) - len(line.lstrip().lstrip("|").lstrip())
    b = len(line.rstrip().rstrip("|").rstrip())
    if a >= b:
        return [(a, a)]
    bounds = [a - 1] + [m.start() for m in ROW.finditer(line, a, b)] + [b]
    return [(x + 1, y) for x, y in pairwise(bounds)]


def column_cells(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The spans of the cells in the column of the cell that holds ``text[start:end]``, its own among them: the same
    cell of each row around it with as many cells (a table's block of lines), trimmed as ``cell_span`` trims; [] where
    no row holds it."""
    rows = line_cells(text)
    line = text.count("\n", 0, start)
    row = rows[line]
    if row is None or ROW.search(text, start, end):
        return []
    index = next(i for i, (a, b) in enumerate(row) if a <= start and end <= b)
    widths = _widths(text)
    first, last = line, line
    while first > 0 and widths[first - 1] == widths[line]:
        first -= 1
    while last + 1 < len(rows) and widths[last + 1] == widths[line]:
        last += 1
    return [cell_span(text, *cells[index]) for cells in rows[first:last + 1]
            if cells is not None and index < len(cells)]


def _empty_last(line: str) -> bool:
    """True for a row that opens with no bar and ends with one: its last cell is empty ("30 | 10 | Yes | No | ", its
    notes), which ``cell_spans`` trims away with the outer bars."""
    return line.rstrip(" ").endswith(("|", "\t")) and not line.lstrip(" ").startswith("|")


@lru_cache(maxsize=256)
def _widths(text: str) -> tuple[int, ...]:
    """The number of cells of each line of ``text`` (``line_cells``, and an ``_empty_last`` cell), -1 for a line that
    is no table row."""
    return tuple(-1 if r is None else len(r) + _empty_last(line)
                 for r, line in zip(line_cells(text), text.split("\n"), strict=True))


@lru_cache(maxsize=256)
def line_cells(text: str) -> tuple[tuple[tuple[int, int], ...] | None, ...]:
    """The cells of each line of ``text`` as spans, without the empty ones its outer bars make, or None for a line
    that is no table row."""
    out: list[tuple[tuple[int, int], ...] | None] = []
    at = 0
    for line in text.split("\n"):
        out.append(None if ROW.search(line) is None else tuple((at + a, at + b) for a, b in cell_spans(line)))
        at += len(line) + 1
    return tuple(out)


def key_column(text: str, line_start: int) -> tuple[str, ...]:
    """The first cells of the block of two-cell rows that holds the line at ``line_start`` (an infobox written one
    "Key | value" row a line: "Born | 6 October 1852", "Alma mater | Riga Polytechnic"), or () where that line is no
    such row."""
    return _key_columns(text)[text.count("\n", 0, line_start)]


@lru_cache(maxsize=256)
def _key_columns(text: str) -> tuple[tuple[str, ...], ...]:
    """``key_column`` of each line of ``text``."""
    if ROW.search(text) is None:
        return ((),) * (text.count("\n") + 1)
    keys = [row_cells(line)[0].strip() if ROW.search(line) and len(row_cells(line)) == 2 else None
            for line in text.split("\n")]
    out: list[tuple[str, ...]] = []
    for _, group in groupby(keys, key=lambda k: k is not None):
        run = list(group)
        out += [tuple(k for k in run if k is not None)] * len(run)  # a block of rows, or () for each other line
    return tuple(out)


def key_cell(text: str, start: int, end: int) -> tuple[str, ...]:
    """The ``key_column`` whose first cell holds ``text[start:end]``, or () where no such cell holds it."""
    line_start, line = _line(text, start, end)
    column = key_column(text, line_start)
    if not column or ROW.search(text, start, end) or ROW.search(line[:start - line_start].lstrip().lstrip("|")):
        return ()
    return column


def in_row(text: str, pos: int) -> bool:
    """True when the line holding ``pos`` is a table row."""
    return ROW.search(_line(text, pos, pos)[1]) is not None


def table_header(text: str, pos: int) -> str | None:
    """The first row of the table whose row holds ``pos``, or None outside a table."""
    line_start, line = _line(text, pos, pos)
    if not ROW.search(line):
        return None
    lines = text[:line_start].split("\n")[:-1]
    while lines and ROW.search(lines[-1]):
        line = lines.pop()
    return line


def cell_span(text: str, start: int, end: int) -> tuple[int, int]:
    """The span of the table cell that holds ``text[start:end]``, spaces and markup trimmed, or ``(start, end)`` where
    no row holds it: a word's cell is what tells a row's label ("| Direct War Losses |") from a name."""
    line_start, line = _line(text, start, end)
    if not ROW.search(line) or ROW.search(text, start, end):
        return start, end
    left = max(line.rfind("|", 0, start - line_start), line.rfind("\t", 0, start - line_start)) + 1
    right = min((i for i in (line.find("|", end - line_start), line.find("\t", end - line_start)) if i >= 0),
                default=len(line))
    cell = line[left:right]
    a = left + len(cell) - len(cell.lstrip(" *'\""))
    b = right - (len(cell) - len(cell.rstrip(" *'\"")))
    return line_start + a, line_start + b


def fills_cell(text: str, start: int, end: int) -> bool:
    """True when ``text[start:end]`` fills a table row's cell alone (``cell_span``): "| Left Wing |", "| Jan |"."""
    return in_row(text, start) and cell_span(text, start, end) == (start, end)


def key_label(text: str, start: int, end: int) -> bool:
    """True when ``text[start:end]`` is a "Key:" label on its own, opening its line or a table cell ("Boroughs:
    Manhattan, ...", "| Mayor: ...")."""
    line_start, line = _line(text, start, end)
    left = line[:start - line_start].rstrip(" *'\"").rstrip(" *-•#")
    return line[end - line_start:].lstrip(" *'\"").startswith(":") and (not left or left[-1] in "|\t!")


def row_bracket(text: str, start: int, end: int) -> bool:
    """True when ``text[start:end]`` fills a bracket in a table row: it qualifies a cell's value ("| 10-15 minutes
    (Rush Hour) |", "4:52 AM - 11:24 PM (Weekdays)")."""
    line_start, line = _line(text, start, end)
    return (ROW.search(line) is not None and line[:start - line_start].rstrip().endswith("(")
            and line[end - line_start:].lstrip().startswith(")"))


def label_cell(text: str, start: int, end: int) -> bool:
    """True when ``text[start:end]`` fills a table cell or a "Key: value" label on its own.

    Rows are lines with a "|" or a tab; a label is the stretch before a colon that opens its line. Such
    a cell of ordinary words is a header or a key ("Distance", "Total distance", "Born"), never a name.
    """
    if key_label(text, start, end):
        return True
    line_start, line = _line(text, start, end)
    if "|" not in line and "\t" not in line:
        return False
    left = line[:start - line_start].rstrip(" *'\"")
    right = line[end - line_start:].lstrip(" *'\"")
    return (not left or left[-1] in "|\t!") and (not right or right[0] in "|\t")
