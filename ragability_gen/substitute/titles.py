"""Titles of works that NER misses: "the album Brothers in Arms", "the series ''Breaking Bad''", "Hide and Seek".

The small NER model finds some titles in quotation marks and titles with a rare word; a title of ordinary words it
mostly misses: written plainly after the word for its kind of work ("album", "film", "novel"), as the subject of a
Wikipedia lead sentence ("Houses of the Holy is the fifth studio album by ..."), or quoted in a table of songs. The
first two are marked here as TITLE mentions: every word of such a title but its function words and numbering is
replaced, its ordinary words by other English words (see ``english``), also words that are designators in other
names ("Brothers", "Day", "Sea"). A quoted title is a WORK_OF_ART, as NER's are.

A title is a run of words in title case: the first capitalised, every later word capitalised or a function word in
lower case, at least one capitalised word of two letters or more that is no function word ("the album I recorded"
names nothing), no function word at its end. It ends at punctuation other than an apostrophe (a quoted title may hold
a colon or a comma, and ends at its closing quotation mark), at a word in lower case that is no function word, and at
a line's end.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from itertools import groupby

from .entities import _POSSESSIVE, ABBREVIATED_TITLES, MONTHS_DAYS, Mention, ordinary
from .names import is_common, is_given_name, is_word, person_shaped
from .places import listed_place
from .words import key_column, line_cells, never_name

WORKS = ("album", "albums", "song", "songs", "single", "singles", "track", "tracks", "film", "films", "movie",
         "movies", "novel", "novels", "book", "books", "series", "miniseries", "sitcom", "TV show", "television show",
         "musical", "opera", "operetta", "poem", "painting", "documentary", "EP", "LP", "episode", "anthem", "hymn",
         "ballad", "soundtrack", "mixtape", "novella", "memoir", "manga", "anime", "telenovela", "symphony", "trilogy",
         "podcast", "video game", "board game", "essay", "essays", "treatise", "pamphlet", "short story", "sonnet",
         "ballet", "sonata", "concerto", "cantata", "oratorio", "screenplay", "libretto", "comic book",
         "graphic novel", "sequel", "bestseller", "best-seller", "motion picture", "moving picture")
"""Words for a kind of work, written in lower case before its title; not words that as often stand before a name of
another kind ("the game Manchester United won", "the story The Washington Post ran", "to play Arsenal")."""
_SAID_WORKS = WORKS + ("play", "plays", "story", "stories")
"""Words for a kind of work that a lead sentence says its subject is ("Hamlet is a tragic play by ...")."""
_QUOTES = {'"': '"', "“": "”", "‘": "’", "''": "''", "'": "'"}
_WORK = re.compile(r"(?<![\w-])(?:" + "|".join(WORKS + ("titled", "entitled"))
                   + r")(?![\w'’-])[ \t]*,?[ \t]+(?:(''|[\"“‘'])[ \t]*)?")
_MADE = re.compile(r"(?<![\w-])(?:published|wrote|co-wrote|released|recorded|directed|co-directed|painted|composed|"
                   r"authored)[ \t]+(?=[A-Z])")
"""A verb of making a work before its title in title case ("Orwell published Animal Farm in 1945", "Bowie recorded
Station to Station"): a name NER finds there is no title ("released Mandela"), nor a day ("released Monday")."""
_MAKERS = ("writer", "singer", "director", "producer", "composer", "actor", "actress", "star", "critic", "artist",
           "company", "studio", "character", "label", "editor", "executive", "host", "presenter", "personality",
           "franchise", "house", "festival", "award", "school", "industry", "historian", "scholar", "distributor",
           "publisher", "theatre", "theater", "channel", "network", "club", "society", "shop", "store")
"""Who or what a lead sentence's subject is after a word for a kind of work: a person or a firm, no work ("an
American soap opera writer", "a film company")."""
_LEAD = re.compile(r"(?:[ \t]+\([^()\n]{1,60}\))?"
                   r"(?:[ \t]+(?:is|was|are|were)[ \t]+(?:a|an|the)|(,)[ \t]+(?:a|an))[ \t]+"
                   r"(?:(?!(?:of|by|in|from|with|whose|which|that|who|for|on|at|to)[ \t])[\w-]+[ \t]+){0,5}?(?:"
                   + "|".join(_SAID_WORKS) + r")(?![\w'’-])(?![ \t]+(?:" + "|".join(_MAKERS) + r")s?(?![\w'’-]))")
"""What follows the subject of a lead sentence about a work, maybe after its year in brackets: "is the fifth studio
album by ...", "(1939) is a novel by"; or an apposition ("Pride and Prejudice, a novel by Jane Austen, was ...")."""
_ARTICLE = re.compile(r"(?<=[^\W\d_]|[,;:])[ \t]+(A|An)(?=[ \t]+[A-Z])")
"""A capitalised indefinite article inside a sentence, before two capitalised words or more: it opens a title
("Swift's target in A Modest Proposal", "starred in A Star Is Born"); a letter after a capitalised word is a grade or
a type ("Vitamin A", "Exhibit A"), and one before a word alone an exam or a key ("her A Levels", "in A Major")."""
_CALLED = re.compile(r"(?<![\w-])(?:known|referred[ \t]+to|nicknamed|dubbed|called)[ \t]+(?:as[ \t]+)?(?:the[ \t]+)?"
                     r"(?=[A-Z])")
"""A word that gives a name in title case after it, mid-sentence: a nickname or the name of a thing. One of
dictionary words only is taken as a title here ("occasionally referred to as Butch or Killer", "nicknamed the Red
Devils"); NER and the rules for rare words find the others."""
_IN_THE = re.compile(r"(?<![\w'’-])[Ii]n[ \t]+(The)[ \t]+(?=[A-Z])")
"""A capitalised "The" after "in": with the year in brackets after its run, a work ("In The Empire Strikes Back
(1980), ..."); not "in The Hague (1899)", one word."""
_TOKEN = re.compile(r"[^\W_][\w'’.-]*")
_SMALL = frozenset("a an the of in on at to for from by with and or nor but as into over under is are was were be "
                   "it its my your our their his her me you we they i he she this that what who why how when where "
                   "not no all up down out off my".split())
"""Function words a title writes in lower case ("Brothers in Arms", "Houses of the Holy")."""
_JOINING = frozenset("of and or the a an".split())
"""Function words that join a name to a title rather than start a phrase after it ("Return of the Jedi")."""
_QUOTED = re.compile(r"(?:^|(?<=[\s(\[|]))(\"|“|'')(?=[A-Z0-9])")
"""An opening quotation mark before a capital or digit."""
_OPENS = re.compile(r"(?:^|[.!?]\s+|\n\s*|[:;]\s+)[\"“‘(]*$")


def title_mentions(field_name: str, text: str, found: Sequence[tuple[int, int]],
                   labels: Collection[str] = ("TITLE", "WORK_OF_ART")) -> tuple[list[Mention], set[tuple[int, int]]]:
    """The titles of works in ``text`` with one of ``labels``, and the spans of ``found`` (the text's mentions so far)
    that such a title takes the place of.

    A title after a word for a kind of work, or opening a sentence that says which kind of work it is, is a TITLE. A
    run in title case that fills a quotation, with two capitalised words or more ("Hide and Seek" in a table of songs),
    is a WORK_OF_ART, as NER labels the titles it finds: the kind of work unsaid, its designators stay (the "Sea of
    Atlas" that names an ocean).

    A title takes the place of a mention of ordinary words that is the whole title (NER's person "Love Story" of "Love
    Story is a 1970 film") or a part of it ("Cold Blood" of "In Cold Blood", "Big Chair" of "Songs from the Big
    Chair"); a name is no title ("the film Jack Nicholson starred in"), and a name inside a title stays a name of its
    own ("Harry Potter" of "Harry Potter and the Goblet of Fire", "Jedi" of "Return of the Jedi"). A title after the
    word for its kind ends before a name after a preposition ("the album Thriller in Europe", "the novel Dracula by
    Bram Stoker"; a lead sentence's subject and a quotation are a title whole: "Crisis on Infinite Earths was a
    novel"), and a title is none where a name begins before it or runs on past its end."""
    runs: list[tuple[list[tuple[int, int]], str, bool | str]] = []  # (words, label, open end: True or "made")
    for m in _WORK.finditer(text):
        if m[0][:1].isupper() and m[0][:2] not in ("EP", "LP"):
            continue  # "| Film |", "The Book of ...": a column's name, a title's own word
        words = _run(text, m.end(), _QUOTES.get(m[1]) if m[1] else None)
        core = [text[a:b].casefold() for a, b in words if text[a:b] not in _SMALL]
        if not m[1] and len(core) == 1 and core[0] in MONTHS_DAYS:
            continue  # "won on the track Monday": a day, no title
        runs.append((words, "TITLE", True))
    for m in _MADE.finditer(text):
        words = _run(text, m.end(), None)
        words = next((words[:i] for i in range(1, len(words) - 1) if text[slice(*words[i])] in ("in", "at")
                      and _place_at(text, words[i + 1:])), words)  # "recorded Station to Station in Los Angeles"
        if not words or _place_at(text, words) or text[slice(*words[0])].casefold() in MONTHS_DAYS \
                or len(words) == 1 and text[slice(*words[0])].isupper():
            continue  # not "released Monday", a place ("recorded Berlin 1977"), "released CD collections"
        runs.append((words, "TITLE", "made"))  # "Orwell published Animal Farm in 1945"
    for m in _LEAD.finditer(text):
        if m[0].endswith("series") and text.startswith(" of ", m.end()):
            continue  # "The Great Lakes are a series of interconnected lakes"
        start = _sentence_start(text, m.start())
        words = _run(text, start, None, m.start()) if start is not None else []
        if words and words[-1][1] == m.start() and (m[1] is None or len(words) > 1
                                                      and text[slice(*words[0])].casefold() not in _SMALL):
            runs.append((words, "TITLE", False))  # the whole subject: "Crisis on Infinite Earths was a novel"; an
            # apposition's of two words or more, opening with no function word ("Pride and Prejudice, a novel", not
            # "Later, a novel" nor "In Hong Kong, a film")
    for m in _ARTICLE.finditer(text):
        before = text[:m.start()].split()[-1]
        words = _run(text, m.start(1), None) if before[:1].islower() else []  # not "Vitamin A Deficiency"
        if _named(text, words[1:]) >= 2:
            runs.append((words, "TITLE", False))  # "in A Modest Proposal"; not "her A Levels", "in A Major"
    for m in _CALLED.finditer(text):
        run = _run(text, m.end(), None)
        run = run[:next((k for k, w in enumerate(run) if text[slice(*w)] in _SMALL - _JOINING), len(run))]
        for _, item in groupby(run, key=lambda w: text[slice(*w)] in ("and", "or")):  # "Butch or Killer": each
            words = list(item)
            if _called_title(text, words, found):
                runs.append((words, "TITLE", True))  # "occasionally referred to as Butch", "known as the Red Devils"
    for m in _IN_THE.finditer(text):
        words = _run(text, m.start(1), None)
        if words and _YEAR_AFTER.match(text, words[-1][1]) and _named(text, words[1:]) >= 2:
            runs.append((words, "TITLE", False))  # "In The Empire Strikes Back (1980), Leia commands"
    for words in _dated_list(text):
        runs.append((words, "TITLE", False))  # "Solaris (1972), Stalker (1979) and The Sacrifice (1986)"
    for words in _column_titles(text) if "|" in text else ():
        runs.append((words, "TITLE", False))  # "Year | Film | Role" over "1927 | Seventh Heaven | Chico"
    for m in _QUOTED.finditer(text):  # "Hide and Seek", "My Hero Academia: Two Heroes"
        words = _run(text, m.end(), _QUOTES[m[1]])
        if sum(text[a].isupper() and not never_name(text[a:b]) for a, b in words) >= 2:
            runs.append((words, "WORK_OF_ART", False))
    titles: dict[tuple[int, int], Mention] = {}
    taken: set[tuple[int, int]] = set()
    for words, label, open_end in runs:
        if label not in labels:
            continue
        whole = len(words)
        inside = []
        for s, e in sorted(found):
            i = next((i for i, (a, b) in enumerate(words) if s < b and a < e), None)
            if i is None:
                continue
            plain = all(never_name(w) or ordinary(w) and is_word(w) for w in text[s:e].split())  # not "Europe"
            before = text[slice(*words[i - 1])] if i else ""
            if s < words[i][0] or e > words[-1][1] or (open_end and before.islower() and before not in _JOINING
                                                        and not plain):
                words = words[:i]  # a name running on; "the album Thriller in Europe", not "Songs from the Big Chair"
                # nor "Return of the Jedi"
                break
            inside.append((s, e, plain))
        span = _title(text, words)
        if open_end == "made" and span is not None and len(words) < whole and " " not in text[slice(*span)]:
            continue  # "Poussin painted Et in Arcadia ego": one word left of a title a name inside cut short
        if span is None or span in titles or any((s, e) == span and (not plain or label != "TITLE")
                                                 for s, e, plain in inside):
            continue  # "the film Jack Nicholson starred in": a name NER found is no title; a quotation NER found is its
        titles[span] = Mention(field_name, *span, text[slice(*span)], label)
        taken.update((s, e) for s, e, plain in inside if e <= span[1] and plain)
    return list(titles.values()), taken


_TITLE_HEADER = re.compile(r"(?i)(?:(?:nominated|original|english|song|album|film|book|single|episode)[ \t]+)?"
                           r"(?:title|film|album|song|single|movie|novel|book|work|show)s?(?:[ \t]*\(s\))?")
"""A table's header cell over a column of titles: "Film", "Title", "Album", "Nominated work", "Song title"."""


_LOWER_AFTER = re.compile(r"[ \t]+[^\W\d_A-Z]")
"""A word in lower case after a cell's title-case run: the run is no title ("Theme song", "Professional film, 35 mm",
"Agent trouble"), where a subtitle, a question mark or a bracket may follow one ("Pirates of the Caribbean: At
World's End", "Are You Afraid of the Dark?", "Big Homie (with Kanye West)")."""


def _column_titles(text: str) -> list[list[tuple[int, int]]]:
    """The titles filling the cells of a table's columns of titles (``_TITLE_HEADER``) below its first row: "Seventh
    Heaven" and "Sunrise" under "| Film |", "Titanic" under "| Title |": a cell's title-case run, in quotation marks or
    not, with no word in lower case after it (``_LOWER_AFTER``; "single only" is none). Not in an infobox, whose first
    cells are keys ("title | Social work"), nor under "Title" beside "Name", where the titles are offices ("| Jane Roe
    | Chief Executive Officer |")."""
    out = []
    for is_row, lines in groupby(line_cells(text), key=lambda cells: cells is not None):
        block = [cells for cells in lines if cells is not None]  # a table: its rows' cells
        if not is_row or len(block) < 2 or key_column(text, block[0][0][0]):
            continue
        head = [text[a:b].strip() for a, b in block[0]]
        named = any(h.casefold() in ("name", "names") for h in head)  # "| Name | Title |": offices
        columns = [i for i, h in enumerate(head) if _TITLE_HEADER.fullmatch(h)
                   and not (named and h.casefold().startswith("title"))]
        for cells in block[1:] if columns else ():
            for a, b in (cells[i] for i in columns) if len(cells) == len(head) else ():
                a += len(text[a:b]) - len(text[a:b].lstrip())
                quote = next((q for q in _QUOTES if text.startswith(q, a)), None)
                words = _run(text, a + len(quote), _QUOTES[quote]) if quote else _run(text, a, None)
                if (words and _LOWER_AFTER.match(text, words[-1][1], b) is None
                        and any(text[x].isupper() and y - x > 1 and not never_name(text[x:y]) for x, y in words)):
                    out.append(words)
    return out


_YEAR_AFTER = re.compile(r"[ \t]+\((?:1[5-9]\d\d|20\d\d)(?:[ \t]*[–—-][ \t]*(?:1[5-9]\d\d|20\d\d|\d\d|present))?\)")
"""A year in brackets after a title, or the years a series ran ("(1988)", "(1976–79)", "(1992–present)")."""
_ITEM_GAP = re.compile(r",?[ \t]+(?:and|or)[ \t]+|,[ \t]+")
_WORKS_CUE = re.compile(r"(?i)(?<![\w-])(?:" + "|".join(w for w in WORKS if w[-1] == "s" and w != "series")
                        + r"|works|plays|stories|poems|paintings|operas|musicals|documentaries|symphonies|ballets|"
                        r"novellas|memoirs|shows|sitcoms|dramas|comedies|programmes|recordings|discography|filmography|"
                        r"bibliography|roles|appearances|credits)(?![\w-])")
"""A word for works in the plural before a dated list ("his films include", "Notable works | ...", "his film
appearances include", "roles in television sitcoms"): not an infobox's "Awards | Copley Medal (1832), ..."."""


def _called_title(text: str, words: list[tuple[int, int]], found: Sequence[tuple[int, int]]) -> bool:
    """Whether ``words`` after a word that gives a name (``_CALLED``) are a name of dictionary words that nothing else
    marks: no mention found there, no word of it capitalised elsewhere in the text (a designator of other names, "the
    National Assembly"), no person's given name, acronym, day or month, and no designator before a number ("known as
    Type 2 diabetes")."""
    said = [text[slice(*w)] for w in words]
    named = [w for w in said if not w.isdigit() and w not in _SMALL]
    if not named or len(named) == 1 and len(said) > 1 or is_given_name(named[0]) \
            or any(s < words[-1][1] and words[0][0] < e for s, e in found):
        return False
    for word in named:
        elsewhere = (o.start() for o in re.finditer(rf"(?<!\w){re.escape(word)}(?!\w)", text))
        if not is_word(word) or word.isupper() or word.casefold() in MONTHS_DAYS \
                or any(not words[0][0] <= at < words[-1][1] for at in elsewhere):
            return False
    return True


def _dated_list(text: str) -> list[list[tuple[int, int]]]:
    """The items of lists of works, each a title-case run before its year in brackets, two or more joined by commas
    and "and" after a word for works (``_WORKS_CUE``: "his films Solaris (1972), Stalker (1979) and The Sacrifice
    (1986)"): a list of works dated so names each, also a work NER misses for its ordinary words."""
    items: list[tuple[list[tuple[int, int]], int, int]] = []  # (words, where its run opens, end of the year's bracket)
    for m in _YEAR_AFTER.finditer(text):
        lo = max(0, m.start() - 120)  # a title is short: no search back through a long text for each year
        cut = _last_stop(text, lo, m.start(), ",;:()\n.") + 1
        if cut == 0 and lo > 0:  # no mark in reach: the run may start anywhere after the first whole word
            cut = text.find(" ", lo, m.start()) + 1 or lo
        gap = _ITEM_GAP.match(text, cut - 1) if cut > 0 and text[cut - 1] == "," else None
        start = gap.end() if gap is not None else cut
        while start < m.start() and text[start] in " \t":
            start += 1
        if text.startswith(("and ", "or "), start):
            start = text.index(" ", start) + 1
        words, opened = _run_to(text, start, m.start())
        if words:
            items.append((words, opened, m.end()))
    out: list[list[tuple[int, int]]] = []
    works = False
    for i, (words, opened, end) in enumerate(items):
        joined_before = i > 0 and _ITEM_GAP.fullmatch(text, items[i - 1][2], opened) is not None
        joined_after = i + 1 < len(items) and _ITEM_GAP.fullmatch(text, end, items[i + 1][1]) is not None
        if not joined_before:  # a list's first item: works where its sentence or row says so before it
            lo = max(0, words[0][0] - 200)
            opening = _last_stop(text, lo, words[0][0], ".!?\n") + 1
            works = _WORKS_CUE.search(text, max(lo, opening), words[0][0]) is not None
        if works and (joined_before or joined_after):
            out.append(words)
    return out


def _last_stop(text: str, lo: int, hi: int, marks: str) -> int:
    """Where the last of ``marks`` between ``lo`` and ``hi`` is, -1 if none: the full stop of a short title before a
    name ("Mrs. Brown (1997)") is none."""
    at = max(text.rfind(c, lo, hi) for c in marks)
    while at >= 0 and text[at] == "." and (short := re.search(r"[^\W\d_]+\Z", text[lo:at])) is not None \
            and short[0].casefold() in ABBREVIATED_TITLES:
        at = max(text.rfind(c, lo, at) for c in marks)
    return at


def _run_to(text: str, start: int, end: int) -> tuple[list[tuple[int, int]], int]:
    """The words of the title-case run between ``start`` and ``end`` that ends at ``end``: the run opening at the
    first capitalised word whose run reaches ``end`` ("Solaris" of "his films include Solaris"), from a capitalised
    article after a word in lower case inside it on ("The Fall and Rise of Reginald Perrin" of "playing Jimmy
    Anderson in The Fall and Rise of Reginald Perrin"), and after "in" or "as" where a person's name opens it (the
    role a person played: "Ben Parkinson in Butterflies"); and where the whole run opens (an item of a list)."""
    for m in _TOKEN.finditer(text, start, end):
        if not text[m.start()].isupper():
            continue
        words = _run(text, m.start(), None, end)
        if words and words[-1][1] == end:
            cut = next((i for i in range(len(words) - 1, 0, -1) if text[slice(*words[i])] in ("The", "A", "An")
                        and text[slice(*words[i - 1])] in _SMALL), 0)
            names = [text[slice(*w)] for w in words[:3]]
            role = next((i for i in (1, 2) if i + 1 < len(words) and names[i] in ("in", "as")), 0)
            if not cut and role and (is_given_name(names[0]) or role == 2 and person_shaped(names[:2])):
                cut = role + 1
            return words[cut:], m.start()
    return [], end


def _place_at(text: str, words: Sequence[tuple[int, int]]) -> bool:
    """True when ``words`` open with a country or large city's name ("Los Angeles", "Berlin")."""
    if words and text[slice(*words[0])] == "the":
        words = words[1:]  # "in the United States"
    if not words:
        return False
    names = [text[words[0][0]:words[k][1]] for k in range(min(3, len(words)))]
    return any(map(listed_place, names))


def _sentence_start(text: str, end: int) -> int | None:
    """Where the sentence holding ``end`` starts, when no sentence end lies between."""
    cut = max(text.rfind(c, 0, end) for c in ".!?\n")
    start = cut + 1
    while start < end and not (text[start].isalnum()):
        start += 1
    return start if _OPENS.search(text, 0, start) or start == 0 else None


_CAPITAL_NEXT = re.compile(r"[ \t]+[A-Z]")
_DATE_AFTER = re.compile(r"[ \t]+(?:\d|(?:" + "|".join(sorted(MONTHS_DAYS)) + r")\b)", re.IGNORECASE)
"""A number, month or weekday after a word (``_run``)."""


def _run(text: str, start: int, closing: str | None, limit: int | None = None) -> list[tuple[int, int]]:
    """The spans of the words of the title-case run at ``start``; a quoted title (``closing``, its closing mark) ends
    at that mark, may hold a colon or comma ("My Hero Academia: Two Heroes"), and is none (an empty list) unless the
    run fills the quotation."""
    end_at = len(text) if limit is None else limit
    if closing is not None:
        close = text.find(closing, start, end_at)
        if close < 0 or "\n" in text[start:close]:
            return []
        end_at = close
    words: list[tuple[int, int]] = []
    pos = start
    while True:
        m = _TOKEN.match(text, pos, end_at)
        if m is None:
            break
        word = m[0].rstrip(".'’" if closing is None else ".")
        if _CAPITAL_NEXT.match(text, m.end(), end_at) and (
                m[0] == word + "." and word.casefold() in ABBREVIATED_TITLES  # "Sgt. Pepper's Lonely Hearts Club
                # Band", "Dr. No"; not "the film Return of the King. Then he ...", a sentence's end
                or m[0] == word and _POSSESSIVE.search(word) and not _DATE_AFTER.match(text, m.end(), end_at)):
            word = m[0]  # "Schindler's List": a possessive before a capital is the title's
        else:
            word = _POSSESSIVE.sub("", word)  # "the film Titanic's success": the title ends there
        after_capital = bool(words) and text[words[-1][0]].isupper()
        if not (word[:1].isupper() or word[:1].isdigit() and after_capital or word in _SMALL):
            break  # "Despicable Me 3", but not "Brothers in Arms in 1985"
        if closing is None and word in _SMALL and _DATE_AFTER.match(text, m.end(), end_at):
            break  # "released Abbey Road in September 1969": a date follows the title
        words.append((m.start(), m.start() + len(word)))
        gap = re.match(r"[ \t]+" if closing is None else r"[:,]?[ \t]+", text[m.start() + len(word):end_at])
        if gap is None or len(word) != len(m[0]):
            break
        pos = m.start() + len(word) + gap.end()
    if closing is not None and (not words or words[-1][1] != len(text[:end_at].rstrip(" \t.,;:!?"))):
        return []  # a quotation that is no title: it holds more than a title-case run ("Fin Del Camino." is one)
    return words


def _named(text: str, words: Sequence[tuple[int, int]]) -> int:
    """How many of ``words`` are capitalised words of two letters or more that are no function words."""
    return sum(text[a].isupper() and b - a > 1 and not never_name(text[a:b]) for a, b in words)


def _title(text: str, words: list[tuple[int, int]]) -> tuple[int, int] | None:
    """The span of a title of ``words``: without function words at its end or an article opening it; None unless it
    opens with a capital and holds a capitalised word of two letters or more that is no function word."""
    while words and text[slice(*words[-1])] in _SMALL:
        words = words[:-1]
    while len(words) > 1 and text[slice(*words[0])].casefold() in ("the", "a", "an"):
        words = words[1:]
    if not words or not text[words[0][0]].isupper():
        return None
    if not _named(text, words):
        return None  # "the BMW 3 series, F edition": a letter names no work
    if len(words) == 1 and is_common(text[slice(*words[0])], _EVERYDAY):
        return None  # "a sequel, Yes, Prime Minister": replaced, "Yes" would change wherever a sentence opens with it
    return words[0][0], words[-1][1]


_EVERYDAY = 5.5
"""From this Zipf frequency a word alone is no title (see ``_title``)."""
