"""An independent leak scan of every substituted instance: does any original name survive, in any form?

The mapping decides what to replace from NER mentions and aliases; this scan does not reuse it. It
reads the finished output against the input with other evidence, so that what the mapping missed
shows up here rather than in a testee's answer:

- ``name``: a word of a name of the input (a part of an NER entity, or a capitalised word of the
  input that is no common English word) that appears in the output, in any case or with a plural
  or possessive ending;
- ``ner``: an entity NER finds in the output whose words were words of the input's names;
- ``country``: a country's name, demonym or code in the output when a form of the same country
  was in the input and was replaced ("French" left after "France" became "Tenslo");
- ``rare``: a word of the input that is no English word at all (wordfreq knows neither it nor its
  singular) and survives unchanged ("pardinus", "kwanzas");
- ``script``: letters of a non-Latin script, or an IPA transcription, in the output; a romanised word is one
  unless it is an article before an invented name ("al-Deurgshire").

Words that substitution keeps on purpose (designators such as "University" or "War", titles,
stop words, numbers, era markers) and the invented names are never suspects. The suspects go into
the audit record; ``--strict`` excludes an instance that has any.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from .entities import (
    ENTITY_TYPES,
    KEPT_WORDS,
    acronym_key_cell,
    before_title,
    category_before,
    column_names,
    company_end,
    counted,
    field_before_unit,
    institution_words,
    label_words,
    numbered_thing,
    numeral_part,
    office_spans,
    only_when,
    opens_plain_cell,
    ordinary,
    ordinary_written_words,
    parts,
    position_cell,
    role_before_name,
    short_date,
    work_kind_at,
)
from .kinds import plain_terms, scripts, term_codes
from .names import is_common, singulars
from .places import country_of
from .words import ROW, cell_span, measure_at, never_name, sentence_start

KINDS = ("name", "ner", "country", "rare", "script")
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
_ENDING = re.compile(r"(?:['’]s|['’]|es|s)$")


@dataclass(frozen=True)
class Suspect:
    """One word of the output that may still name the original: where, what, and which test found it."""

    field: str
    text: str
    kind: str

    def record(self) -> dict[str, str]:
        return {"field": self.field, "text": self.text, "kind": self.kind}


def _plain(word: str) -> bool:
    """True for an ordinary English word, or a common one written in lower case (a lower-case word is no name:
    "midfield" is common although the dictionary behind ``ordinary`` predates it)."""
    return ordinary(word) or (word.islower() and is_common(word))


def _kept_word(word: str) -> bool:
    """True for a word the scan never suspects: a designator, title, month or sport's word ("Racing" of "Panther
    Racing"), which name nothing alone, and a word too short or never a name."""
    low = re.sub(r"['’]s?$", "", word.casefold())
    word = word[:len(low)]
    return len(word) < 3 or never_name(word) or low in KEPT_WORDS


def _unnamed(text: str, start: int, end: int) -> bool:
    """A unit after a number ("12 MPa") or a scale named after a person ("40 degrees Celsius"), a common noun before
    its number ("Hangar 12", "String Quartet No. 8"), a word of an award's category ("Best Rebounder:"), a player's
    position in a column headed "Position" ("| LHP |"), a degree or a spelled-out term (``plain_terms``): no name."""
    return (measure_at(text, start, end) or numbered_thing(text, start, end) or work_kind_at(text, start, end)
            or short_date(text, start, end)
            or category_before(text, start, end) or position_cell(text, start, end)
            or any(a <= start < b for a, b in plain_terms(text)))


_NAME_BEFORE = re.compile(r"[A-Z][\w'’-]*[ \t]+$")
"""A capitalised word and a space: a name's part before its numeral ("Henry VIII")."""


def input_names(texts: Sequence[str], ents: Mapping[str, Sequence[tuple[int, int, str]]],
                classes: Callable[[str], frozenset[str]] = lambda word: frozenset()) -> set[str]:
    """Case-folded words of the input's names: NER entity parts, and capitalised words that are no
    common English word (where no sentence starts), without the words substitution keeps and the common
    words the input itself writes in lower case and capitalises only where a sentence opens ("Alchemy ...
    alchemy"; substitution keeps them), what a number counts ("8 Megapixels"), an acronym that is an infobox's
    key ("GPU | Adreno 530"), an initialism of a term (``kinds.term_codes``: "IDPs") and the words of a table's
    column names (``column_names``: "| Slalom | Giant Slalom |"). Words that only tell when ("September 13",
    ``only_when``), a role or an ordinary word opening a person's name ("Bassist" of NER's "Bassist Tresselt",
    ``role_before_name``, whose ``classes`` gives a word's classes; "Crown" of "Crown Princess Victoria"), offices and
    their fields ("Maid of Honour", ``office_spans``) and a unit's field ("the Human Resources committee") are no
    name's words."""
    out: set[str] = set()
    for t in texts:
        offices = office_spans(t)  # "Honour" of "Maid of Honour", which NER missed
        for s, e, label in ents.get(t, ()):
            e = company_end(t, s, e)  # "Following" of NER's "Brennick Distillery Co. Following the purchase"
            ps = [(s + a, s + b) for a, b in parts(t[s:e])]
            if label in ENTITY_TYPES and not only_when(t, e, [t[a:b] for a, b in ps]):
                kept = institution_words(t, s, e)  # "Appeal" of "the Court of Appeal", which substitution keeps
                caps = [(a, b) for a, b in ps if t[a].isupper()]
                if caps and field_before_unit(t, caps[-1][1], [t[a:b] for a, b in caps]):
                    continue  # "Human Resources" of NER's "the Human Resources committee"
                out |= {w for a, b in ps[1 if role_before_name(t, ps, classes) else 0:] if not _unnamed(t, a, b)
                        and (w := t[a:b].casefold()) not in kept  # offices too: "Honour" of "Maid of Honour"
                        and not before_title(t, a, b)  # "Crown" of "Crown Princess Victoria"
                        and not (a > ps[0][0] and numeral_part(t[a:b]))}  # "VIII" of "Henry VIII's", which stays
        for m in _WORD.finditer(t):
            w = m[0]
            if w[:1].isupper() and not ordinary(w) and not sentence_start(t, m.start()) and not counted(t, *m.span()) \
                    and not _unnamed(t, *m.span()) and m.span() not in offices \
                    and not (numeral_part(w) and _NAME_BEFORE.search(t, max(0, m.start() - 40), m.start())):
                out.add(w.casefold())
    out -= {w.casefold() for w in ordinary_written_words({w[:1].upper() + w[1:] for w in out}, texts)}
    out -= {m[0].casefold() for t in texts for m in _WORD.finditer(t)
            if m[0].isupper() and acronym_key_cell(t, *m.span())}
    out -= {code.casefold() for code in term_codes(texts)}
    out -= {w for t in texts if ROW.search(t) for name in column_names(t) for w in name.split()}
    return {w for w in out if not _kept_word(w) and any(c.isalpha() for c in w)}


def _unknown(word: str) -> bool:
    """True for a word wordfreq does not know at all, nor its singular ("ambulatories" is known)."""
    if len(word) < 4 or any(ch.isupper() for ch in word[1:]) or is_common(word, 0.01):
        return False
    return not any(is_common(s, 0.01) for s in singulars(word.lower()))


def _base(word: str, names: set[str]) -> str | None:
    low = word.casefold()
    if low in names:
        return low
    stem = _ENDING.sub("", low)
    return stem if stem != low and stem in names else None


def needs_ner(text: str, names: set[str], invented: set[str]) -> bool:
    """True when ``text`` has a word of an input name (not invented, not kept): only then can NER on it
    find an entity made of such words, so only such output texts go through the scan's NER pass."""
    return any(_base(m[0], names) is not None and m[0].casefold() not in invented and not _kept_word(m[0])
               for m in _WORD.finditer(text))


def scan(old: Mapping[str, str], new: Mapping[str, str], names: set[str], invented: set[str],
         out_ents: Mapping[str, Sequence[tuple[int, int, str]]]) -> list[Suspect]:
    """The suspects of one instance.

    Args:
        old: Field -> input text.
        new: Field -> output text (same fields).
        names: ``input_names`` of the instance's input texts.
        invented: Case-folded invented words (never suspects).
        out_ents: NER entities of the output texts, by text.
    """
    found: dict[tuple[str, str, str], Suspect] = {}

    def add(field: str, text: str, kind: str) -> None:
        found.setdefault((field, text.casefold(), kind), Suspect(field, text, kind))

    in_countries = {id(c) for w in names if (c := country_of(w)) is not None}
    old_words = {m[0].casefold() for t in old.values() for m in _WORD.finditer(t)}
    for field, text in new.items():
        for m in _WORD.finditer(text):
            w = m[0]
            low = w.casefold()
            if low in invented or _kept_word(w):
                continue
            if _base(w, names) is not None and (not _plain(w) or (w[:1].isupper()
                                                                   and not sentence_start(text, m.start()))):
                a, b = cell_span(text, m.start(), m.end())
                if not (label_words([w], text, m.start(), m.end()) or label_words(_WORD.findall(text, a, b), text, a, b)
                        or opens_plain_cell(text, m.start(), m.end())):  # "| Boroughs: ...", "| Direct War Losses |"
                    add(field, w, "name")
            elif w[:1].isupper() and (c := country_of(w)) is not None and id(c) in in_countries:
                add(field, w, "country")
            elif low in old_words and not field.startswith("metadata/") and _unknown(w):
                add(field, w, "rare")
        for s, e, label in out_ents.get(text, ()):
            if label not in ENTITY_TYPES:
                continue
            words = [text[s + a:s + b] for a, b in parts(text[s:e])]
            if any(_base(w, names) is not None and w.casefold() not in invented and not _kept_word(w)
                   and (not _plain(w) or (w[:1].isupper() and not sentence_start(text, s))) for w in words):
                add(field, text[s:e], "ner")
        for _, _, rendering, _ in scripts(text):
            words = [w.casefold() for w in _WORD.findall(rendering)]
            if any(len(w) > 3 for w in words) and all(w in invented or len(w) <= 3 for w in words):
                continue  # "al-Deurgshire": an article before an invented name renders no real one
            add(field, rendering, "script")
    return sorted(found.values(), key=lambda s: (s.field, KINDS.index(s.kind), s.text))
