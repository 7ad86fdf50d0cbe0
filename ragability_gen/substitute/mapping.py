"""The mapping of one instance: entities, name parts -> invented parts, and where each is mentioned.

Names are replaced part by part: every distinctive part ("Lusitania", "D'Oyly", "Tobolsk") gets one
invented part per instance, and generic parts ("RMS", "Sea", "University", "of", "Sir") stay. So
"Tobolsk" and "Tobolsk Viceroyalty" stay linked ("Dremsk", "Dremsk Viceroyalty"), a surname alone
follows the full name, and "RMS Lusitania" keeps reading like a ship. The other forms of a replaced
country follow it (``places``), and an initialism follows the name it abbreviates.

Where a name is replaced (aliases, longest first, word-bounded, with any plural ending):
- every entity string found in any field, in every field, case-insensitively (case style kept), or
  only as written or in capitals when it is ordinary words ("London", not "london");
- a person's surname alone, as written or in capitals;
- any other distinctive part alone (a given name, "Lusitania" of "RMS Lusitania"), as written or in
  capitals, and in lower case too when it is a rare word ("kwanzas"); if the part is an ordinary
  English word, only where it is a name (capitalised where no sentence starts, or tagged a proper
  noun), so "Will" the name changes, "will" and "Will they ...?" do not.

A mapping can also be given (an edited audit file, or a reviewer's findings): ``fixed`` entity
strings take the given replacement, ``pinned`` parts keep the replacement of an earlier pass, and
``keep`` parts are never replaced.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from dataclasses import replace as _with

from .english import contracted, known, plural, readings, spoken
from .entities import (
    _DOTTED,
    _POSSESSIVE,
    _ROMAN,
    ABBREVIATED_TITLES,
    AWARDS,
    CATEGORY_OPENERS,
    ENTITY_TYPES,
    FUNCTION,
    GENERIC,
    HEADS,
    MONTHS_DAYS,
    PERIOD_DESIGNATORS,
    SPORTS,
    TITLES,
    WORD_END,
    WORD_START,
    Mention,
    _camel,
    _kept,
    alias_pattern,
    category_before,
    cell_span,
    column_cell,
    column_words_at,
    dated,
    designators_only,
    institution_words,
    known_place,
    norm,
    ordinary,
    parts,
    shape,
    styled,
    syllable_end,
)
from .kinds import abbreviation, initials, named_by_day
from .names import (
    PLURAL,
    RARE_ZIPF,
    ascii_fold,
    is_common,
    is_given_name,
    is_known_name,
    is_place_name,
    is_proper_entry,
    is_surname,
    is_word,
    person_shaped,
    state_letters_taken,
    vowel_sound,
    web2_lexicon,
)
from .places import (
    FAITHS,
    city_names,
    country_of,
    demonym_for,
    demonym_or_language,
    derived_forms,
    holiday_names,
    people_word_forms,
    place_names,
    sibling_forms,
    state_code_word,
    us_states,
)
from .words import CARDINALS, CONTENT_STOP_WORDS, ERAS, URL_IN_TEXT, in_row, never_name, sentence_start

_STYLE = {"PERSON": "family", "NORP": "demonym", "LANGUAGE": "demonym", "GPE": "place", "LOC": "place",
          "FAC": "place", "SCRIPT": "place", "CURRENCY": "place"}
_WORDS_ARE_NAMES = ("TAXON", "SCRIPT", "CURRENCY", "TERM")
"""Labels whose lower-case words are names too ("Panthera leo", "Latin alteri", "50 kwanzas", "the newel")."""


@dataclass
class Entity:
    """One name of an instance with every spelling it was found in."""

    key: str
    label: str
    surface: str
    surfaces: list[str]


@dataclass
class Table:
    """The mapping of one instance: entities, name parts -> invented parts, and the aliases to replace.

    Attributes:
        entities: By key (see ``norm``).
        part_map: Normalised original part -> invented part.
        forced: Keys of generic parts replaced only because a name had no other part (not aliases).
        aliases: Alias text -> (entity key, mode). Modes: "full" (an entity string, any case), "exact" (an
            entity string of ordinary words, as written or in capitals: "London" but not "london"), "word" (an
            entity string of one dictionary word, as written or in capitals, and in any case in a text with no
            capital: "Bull", "victoria"; see ``_word_name``), "surname",
            "part" (another part, not a common word) and "proper" (a part that is a common word: only
            where it is a name by ``NameTest``); all but "full" match as written or in capitals.
        regex: Every alias, for ``matches``.
        lowered: The aliases matched in a text with no capital, in any case (see ``_add_lowered``), by ``norm``;
            ``lower_regex`` finds them.
        written_lower: The words the instance writes in lower case (see ``_whole_name``).
        own: Entity key of a title -> its words that other names keep ("Sea" of "The Old Man and the Sea", "Show" of
            "Best in Show"), by part key -> the word replacing them in that title only: "Red Sea" and "Dog Show"
            keep theirs; and of a body whose letters follow it -> the word saying what it is, changed in that name
            alone where the letters need it ("Transit" of "Utah Transit Authority", see ``_describing_redrawn``).
        describing: Entity key of a body -> the indexes of its words that say what it is and stay (``_named_only``).
    """

    entities: dict[str, Entity] = field(default_factory=dict)
    part_map: dict[str, str] = field(default_factory=dict)
    forced: set[str] = field(default_factory=set)
    whole: dict[str, str] = field(default_factory=dict)
    keep: frozenset[str] = frozenset()
    aliases: dict[str, tuple[str, str]] = field(default_factory=dict)
    regex: re.Pattern[str] | None = None
    lowered: dict[str, tuple[str, str]] = field(default_factory=dict)
    lower_regex: re.Pattern[str] | None = None
    written_lower: frozenset[str] = frozenset()
    own: dict[str, dict[str, str]] = field(default_factory=dict)
    describing: dict[str, frozenset[int]] = field(default_factory=dict)
    _hosts: tuple[dict[str, tuple[str, str]], re.Pattern[str] | None, dict[str, tuple[str, str]]] | None = field(
        default=None, repr=False)
    _stems: frozenset[str] | None = field(default=None, repr=False)

    def replaced_parts(self, text: str, at: int = 0) -> list[tuple[int, int, str]]:
        """(start, end, new part) for every mapped part of ``text`` (offsets plus ``at``), in its case style."""
        if norm(text) in self.whole:  # a given replacement of another shape: the whole mention changes
            return [(at, at + len(text), styled(self.whole[norm(text)], text))]
        out = []
        own = self.own.get(norm(text), {})
        spans = parts(text)
        inside = self._own_inside([norm(text[a:b]) for a, b in spans]) if self.own else {}
        for i, (a, b) in enumerate(spans):
            key = norm(text[a:b])
            new = None if key in self.keep else own.get(key) or inside.get(i) or self.part_map.get(key)
            if new is not None:
                out.append((at + a, at + b, styled(new, text[a:b])))
        return out

    def kept_describing(self) -> set[str]:
        """The words that say what a body is that stay (``describing``), by ``norm``: no names left behind."""
        out = set()
        for key, indexes in self.describing.items():
            if key in self.entities:
                surface = self.entities[key].surface
                words = [norm(surface[a:b]) for a, b in parts(surface)]
                out |= {words[i] for i in indexes if words[i] not in self.part_map
                        and words[i] not in self.own.get(key, {})}
        return out

    def _own_inside(self, keys: Sequence[str]) -> dict[int, str]:
        """Index of a part of a text (its parts' ``keys``) -> the word a name with words of its own that the text holds
        gives it: the initials of "J. R. R. Tolkien" change for that name alone, also inside "J. R. R. Tolkien
        Estate"."""
        out = {}
        for name, own in self.own.items():
            surface = self.entities[name].surface if name in self.entities else name
            words = [norm(surface[a:b]) for a, b in parts(surface)]
            n = len(words)
            for i in range(len(keys) - n + 1):
                if n and list(keys[i:i + n]) == words:
                    out.update({i + j: own[w] for j, w in enumerate(words) if w in own})
        return out

    def compose(self, text: str) -> str:
        """``text`` with every mapped part replaced."""
        out, last = [], 0
        for a, b, new in self.replaced_parts(text):
            out += [text[last:a], new]
            last = b
        return "".join(out) + text[last:]

    def _lookup(self, found: str) -> tuple[str, str]:
        key, mode = self.aliases.get(norm(found), ("", ""))
        return (key, mode) if mode == "full" else self.aliases.get(shape(found), ("", ""))

    def leftovers(self, text: str) -> list[str]:
        """What must not survive, found in ``text``: entity strings (any case), surnames, and name parts that
        are no common word (as written or in capitals), except the words naming a column in a table's header row."""
        if self.regex is None:
            return []
        view = url_view(text)
        return sorted({text[m.start():m.end()] for m in self.regex.finditer(view)
                       if (mode := self._lookup(m["name"])[1]) not in ("", "proper")
                       and not self._kept_here(view, m.start(), m.start() + len(m["name"]), mode)})

    def _kept_here(self, text: str, start: int, end: int, mode: str, cells: bool = True) -> bool:
        """True when the mention ``text[start:end]`` of an alias of ``mode`` is, where it stands, no mention of the
        name: a word of another name ("the Foreign Minister" beside "the Foreign Office"), a word inside an award's
        category that opens before it ("the Best Modern Rock Song" beside the title "Song is Universal"; not the
        titles "Best in Show", "Best Mistake"), with ``cells`` a word of a header row naming columns ("| Year | Winner
        | Song |", though "Song" is a surname elsewhere), or a state's code that is a word where no town stands before
        it ("it was OK" beside "Tulsa, OK")."""
        return (_another_names(text, start, end, mode, self.part_map)
                or mode != "full" and category_before(text, start, end, here=False)
                or cells and column_words_at(text, start, end) or state_code_word(text, start, end))

    def matches(self, text: str, is_name: Callable[[int], bool] | None = None, cells: bool = True) -> list[Hit]:
        """Every alias mention in ``text`` whose replacement differs from it.

        Args:
            is_name: Whether the capitalised word at an offset is a name (see ``NameTest``); "proper"
                aliases need it.
                None accepts every mention (for text the tagger has not seen).
            cells: Whether bars in ``text`` make table cells, whose header row's words stay; not in a metadata value
                ("evidence_titles": "Korean Music Awards | Graduation (Broccoli, You Too? album)").
        """
        if self.regex is None:
            return []
        out = []
        view = url_view(text)
        lower = self.lower_regex is not None and not any(c.isupper() for c in text)
        pattern = self.lower_regex if lower and self.lower_regex is not None else self.regex
        for m in pattern.finditer(view):
            found = m["name"]  # without a plural ending: "Habsburgs" is a form of "Habsburg"
            key, mode = self.lowered.get(norm(found), ("", "")) if lower else self._lookup(found)
            if not key or mode == "proper" and not self._proper_here(view, m.start(), m.start() + len(found), key,
                                                                     is_name):
                continue
            if self._kept_here(view, m.start(), m.start() + len(found), mode, cells):
                continue
            edits = self.replaced_parts(found, m.start())
            if edits and m["suffix"] and edits[-1][1] == m.start() + len(found):  # "Heroes": "Doors", not "Doores"
                edits[-1] = (edits[-1][0], m.end("suffix"), plural(edits[-1][2], m["suffix"]))
            if edits:
                new = edited(text, m.start(), m.end(), edits)  # the text's own characters, the ending kept
                out.append(Hit(m.start(), m.end(), new, key, tuple(edits)))
        return out + self._in_hosts(text, out)

    def _proper_here(self, text: str, start: int, end: int, key: str, is_name: Callable[[int], bool] | None) -> bool:
        """Whether the ordinary word ``text[start:end]``, a "proper" alias (a word of entity ``key``), is that name
        where it stands: a name by ``is_name``, the whole name (``_whole_name``) or its one word (``_sole_word``);
        never in a date ("in May 2019" beside "Theresa May"), nor, but as the whole name, where a capital tells nothing
        and the instance writes the word in lower case ("Type | Dog show" beside "Crufts Dog Show" and a question's "a
        dog show"; not "title | Citation")."""
        if dated(text, start, end):
            return False
        if self._whole_name(text, start, end, key) or self._name_runs_on(text, start, end, key):
            return True
        if (is_name is not None and not is_name(start) and not self._sole_word(text, start, end, key)
                and not self._stem_word(text, start, end)):
            return False
        return not (text[start:end].lower() in self.written_lower and sentence_start(text, start))

    def _stem_word(self, text: str, start: int, end: int) -> bool:
        """True when the ordinary word ``text[start:end]`` opening a sentence or cell opens two names of the instance
        or more and the instance never writes it in lower case: the name they share ("Variants | Burn Original" and
        "Burn energy came in ..." beside "Burn Energy", "Burn Berry", "Burn Mocha"); not a word as common as "World"
        ("World champion" beside "World Cup" and "World War III"), nor a verb's form ("| Eliminated in a twist |"
        beside NER's events "Eliminated Day 9", "Eliminated Day 12")."""
        found = norm(text[start:end])
        if self._stems is None:
            firsts = Counter(norm(e.surface[slice(*spans[0])]) for e in self.entities.values()
                             if len(spans := parts(e.surface)) > 1)
            self._stems = frozenset(w for w, n in firsts.items() if n >= 2 and not w.endswith(("ed", "ing")))
        return (found in self._stems and found not in self.written_lower and sentence_start(text, start)
                and not is_common(found, _EVERYDAY_ZIPF))

    def _whole_name(self, text: str, start: int, end: int, key: str) -> bool:
        """True when ``text[start:end]`` is a whole spelling of entity ``key`` (an ordinary word the name test
        passes by here) where it is the name all the same: filling a table cell that is no key or header ("title |
        Concussion" beside "the movie Concussion"; a word alone in a cell is a label only where the instance names
        nothing by it), or opening a sentence of an instance that never writes it in lower case ("Concussion came
        out in 2015")."""
        found = text[start:end]
        if found not in {_POSSESSIVE.sub("", s) for s in self.entities[key].surfaces}:
            return False
        if in_row(text, start):
            return cell_span(text, start, end) == (start, end) and not column_cell(text, start, end)
        return all(w.lower() not in self.written_lower for w in found.split())

    def _name_runs_on(self, text: str, start: int, end: int, key: str) -> bool:
        """True when ``text[start:end]`` is followed by the words that follow it in a spelling of entity ``key``, a
        capitalised one among them: the name's other words tell what a sentence's capital does not ("Broccoli, You
        Too? was formed in 2005" beside NER's "Kiha & the Faces, Broccoli, You Too")."""
        found = norm(text[start:end])
        for surface in self.entities[key].surfaces:
            for a, b in parts(surface):
                rest = surface[b:]
                if norm(surface[a:b]) == found and any(c.isupper() for c in rest) and text.startswith(rest, end):
                    return True
        return False

    def _sole_word(self, text: str, start: int, end: int, key: str) -> bool:
        """True when the ordinary word ``text[start:end]`` opening a sentence before a lower-case word is, but for
        designators, the whole of entity ``key`` and no designator itself, and the instance never writes it in lower
        case: that name's word ("Soviet engineers" after "the Soviet Union", "Labor leader" beside "the Labor Party");
        not "Peace was signed" beside "Moscow Peace Treaty", nor a word as common as "World" ("World champion" beside
        "World Cup")."""
        found = text[start:end]
        if (" " in found or found.lower() in self.written_lower or _kept(found, True)
                or is_common(found, _EVERYDAY_ZIPF) or not sentence_start(text, start)
                or _LOWER_AFTER.match(text, end) is None):
            return False
        words = [self.entities[key].surface[a:b] for a, b in parts(self.entities[key].surface)]
        others = [w for w in words if norm(w) != norm(found)]
        return len(others) < len(words) and all(w.casefold() in GENERIC for w in others)

    def _host_names(self) -> tuple[dict[str, tuple[str, str]], re.Pattern[str] | None, dict[str, tuple[str, str]]]:
        """Letters of a name as a host writes them -> (its invented letters, entity key), a pattern finding them, and
        the same for shorter names that only a whole label of a host may write ("lyon" of "www.lyon.fr"); worked out
        once per instance, on the first text with a web address."""
        if self._hosts is None:
            glued: dict[str, tuple[str, str]] = {}
            labels: dict[str, tuple[str, str]] = {}
            for key, ent in self.entities.items():
                whole = self.compose(ent.surface)
                old, new = _letters(ent.surface), _letters(whole)
                if len(old) >= 6 and new and new != old:
                    glued[old] = (new, key)
                if len(old) >= 3 and new and new != old:
                    labels.setdefault(old, (new, key))
                old_parts, new_parts = parts(ent.surface), parts(whole)
                for i, (a, b) in enumerate(old_parts):
                    part = ent.surface[a:b]
                    common = is_common(part)
                    if len(part) < 3 or not part.isalpha() or common and not part.isupper():
                        continue  # a common word, not an initialism ("AAA")
                    mine, alone = _letters(part), _letters(self.compose(part))
                    if alone and alone != mine and len(part) >= 5 and not common:
                        glued.setdefault(mine, (alone, key))
                    if alone == mine and len(new_parts) == len(old_parts):  # "AAA" of "AAA Drive": its own initials
                        alone = _letters(whole[slice(*new_parts[i])])  # there, also where an audit applied again
                    if alone and alone != mine:  # lists no "AAA" of its own
                        labels.setdefault(mine, (alone, key))
            pattern = re.compile("|".join(map(re.escape, sorted(glued, key=len, reverse=True)))) if glued else None
            self._hosts = (glued, pattern, labels)
        return self._hosts

    def _in_hosts(self, text: str, taken: Sequence[Hit]) -> list[Hit]:
        """The names written run together in a web address's host ("www.bryanadams.com", "visitbruges.be"): an
        entity of six letters or more, or a name part of five or more that is no common word, its letters in
        lower case, replaced by its invented letters; and an entity, or a name part that is no common word, of three
        letters or more that fills a label of the host before its last ("www.lyon.fr", "www.aaa.com" beside "AAA
        Drive") or stands in one beside common words ("didomusic")."""
        hosts = list(_HOST.finditer(text)) if "." in text else []
        if not hosts:
            return []
        glued, pattern, labels = self._host_names()
        out: list[Hit] = []
        for host in hosts:
            found = [(m.start(), m.end(), *glued[m[0]]) for m in pattern.finditer(host[1].lower())] if pattern else []
            for m in _LABEL.finditer(host[1].lower()):
                if m.end() >= len(host[1]) or any(a < m.end() and m.start() < b for a, b, _, _ in found):
                    continue
                if m[0] in labels:
                    found.append((m.start(), m.end(), *labels[m[0]]))
                elif (inner := _name_in_label(m[0], labels)) is not None:
                    found.append((m.start() + inner[0], m.start() + inner[1], *labels[m[0][inner[0]:inner[1]]]))
            for start, end, new, key in found:
                a, b = host.start(1) + start, host.start(1) + end
                if not any(h.start < b and a < h.end for h in (*taken, *out)):
                    out.append(Hit(a, b, new, key, ((a, b, new),), in_host=True))
        return out


_HOST = re.compile(r"(?i)(?<![\w@.-])(?:[a-z][\w+.-]*://)?((?:[a-z0-9-]+ ?\.)+(?:com|org|net|edu|gov|info|biz|tv|fm|io|"
                   r"co|uk|de|fr|jp|au|ca|it|es|nl|ru|cn|in|br|be|ch|at|se|no|dk|fi|ie|nz|za|kr|mx|ar|pl|cz|tr|gr|pt|"
                   r"hu|ro|us|eu|me|ly|to))(?![\w-])")
"""A web address or bare host name ("www.bryanadams.com", "visitbruges.be"), also as scraped infoboxes write one, a
space before each dot ("www .bryanadams .com"); group 1 is the host."""


_LABEL = re.compile(r"[a-z0-9-]+")
"""A label of a host name, between its dots."""


def _name_in_label(label: str, names: Collection[str]) -> tuple[int, int] | None:
    """(start, end) of the longest of ``names`` (a name's letters) that a host's label writes beside common English
    words at one end or both ("linuxfoundation", "didomusic", "thedoors"), else None."""
    spans = [(a, b) for a in range(len(label)) for b in range(a + 3, len(label) + 1)
             if (a, b) != (0, len(label)) and label[a:b] in names
             and _common_piece(label[:a]) and _common_piece(label[b:])]
    return max(spans, key=lambda span: span[1] - span[0], default=None)


def _common_piece(piece: str) -> bool:
    """True for nothing, or a common English word of three letters or more ("the", "music"; not "sm" of "smart")."""
    return not piece or piece.isalpha() and len(piece) >= 3 and is_common(piece)


def _letters(name: str) -> str:
    """The letters of ``name`` in lower case, as a host name writes it ("Bryan Adams" -> "bryanadams")."""
    return "".join(c for c in ascii_fold(name) if c.isalpha())


def url_view(text: str) -> str:
    """``text`` with the word joins of its URLs read as spaces ("_", "%20"), the same length, so a name in a
    link ("wiki/Saad_Abdulrahman", "#Fighting%20Hulkamania") is found and replaced like the name in the text."""
    if "://" not in text:
        return text
    return URL_IN_TEXT.sub(lambda m: m[0].replace("_", " ").replace("%20", "   "), text)


def edited(text: str, start: int, end: int, edits: Sequence[tuple[int, int, str]]) -> str:
    """``text[start:end]`` with the part edits (offsets in ``text``) applied."""
    out, last = [], start
    for a, b, new in edits:
        out += [text[last:a], new]
        last = b
    return "".join(out) + text[last:end]


@dataclass(frozen=True)
class Hit:
    """One replaced mention: its span, its new text, the entity it names, and the part edits."""

    start: int
    end: int
    new: str
    key: str
    parts: tuple[tuple[int, int, str], ...]
    in_host: bool = False
    """A name run together in a web address ("lvmonorail"): no spelling of the name for the audit to record."""


def build_table(found: Sequence[Mention], invent: Callable[[str, str], str],
                present: Callable[[str], bool] = lambda form: False, fixed: Mapping[str, str] | None = None,
                pinned: Mapping[str, str] | None = None, keep: Collection[str] = ()) -> Table:
    """The mapping for the mentions of one instance; ``invent(style, original part)`` makes new parts.

    Args:
        present: Whether a form occurs in the instance: the other forms of a replaced country that do
            ("French", "FRA" beside "France") are mapped with it (see ``places``).
        fixed: Entity key (``norm``) -> its given replacement (an edited mapping): these entities take
            it (part by part when both have as many parts, else as a whole), and no sibling is linked.
        pinned: Part key -> the replacement an earlier pass gave it, kept.
        keep: Part keys never replaced (a reviewer found them no names).
    """
    table = Table(keep=frozenset(keep))
    table.part_map.update({k: v for k, v in (pinned or {}).items() if k not in table.keep})
    by_key: dict[str, list[Mention]] = {}
    for m in found:
        by_key.setdefault(norm(m.text), []).append(m)
    for key in [k for k in by_key if re.search(r"[^\W\d_]s$", k)]:  # "Habsburgs" is a form of "Habsburg"
        bases = (key[:-1], key[:-2]) if key.endswith("es") else (key[:-1],)  # "acidus" is no plural of "acid"
        base = next((b for b in bases if b in by_key and b != key), None)
        if base is not None and not known_place(by_key[key][0].text):  # "Laos" beside "Lao" is a country
            by_key[base] += [_with(m, text=m.text[:len(m.text) - len(key) + len(base)])
                             for m in by_key.pop(key)]
    order = {label: i for i, label in enumerate(ENTITY_TYPES)}
    for key, ms in by_key.items():
        labels = Counter(m.label for m in ms)
        if len(labels) > 1:
            labels.pop("PROPN", None)
        label = "TITLE" if "TITLE" in labels else min(labels, key=lambda lab: (-labels[lab], order[lab]))
        surfaces = Counter(m.text for m in ms)
        surface = min(surfaces, key=lambda s: (-surfaces[s], s))
        table.entities[key] = Entity(key, label, surface, sorted(surfaces))
    ranked = sorted(table.entities.values(), key=lambda e: (order[e.label], -len(parts(e.surface)), e.key))
    distinct: set[str] = set()  # parts some name has distinct: a name alone too, also where another name changed
    for ent in ranked:  # them only for want of another part ("Racing" of "Chip Ganassi Racing", a person's name to
        words = [ent.surface[a:b] for a, b in parts(ent.surface)]  # NER, beside "Andretti Green Racing"), in a
        describing: set[int] = set()
        indexes = _distinctive(ent, words, describing)  # first run and when an audit is applied again alike
        if describing:
            table.describing[ent.key] = frozenset(describing)
        if ent.key in (fixed or {}):
            mapped = _fix(table, ent, (fixed or {})[ent.key], indexes)
        else:
            mapped = _map_parts(table, ent, invent, indexes)
        if mapped:
            distinct.update(norm(words[i]) for i in indexes)
        else:
            del table.entities[ent.key]
    ranked = [e for e in ranked if e.key in table.entities]
    table.forced -= distinct
    if fixed is None:
        ranked += _link_places(table, present, invent)
        ranked += _link_derived(table, present)
        ranked += _link_eponyms(table, present)
        ranked += _link_people_forms(table, present)
        _link_abbreviated(table)
        _link_plurals(table)
        _link_initialisms(table, invent)
        _link_states(table)
        _link_given_initials(table)
    spelled: dict[str, dict[str, str]] = {}  # a full alias's key -> its spellings by case-folded shape (a
    # case-folded key may not match: "ß"; nor one without accents: "Afghānistān")
    for ent in ranked:
        for s in ent.surfaces:
            _add_spelling(table, spelled, ent, s)
    for ent in ranked:  # "Sting" of a name found only as "Sting's" is that name wherever it stands ("Sting defeated
        for s in _possessed(ent):  # Flair" opening a sentence), not a word of another name ("Starrcade, Sting")
            _add_spelling(table, spelled, ent, s, over=False)
    for ent in ranked:
        for head in _main_titles(table, ent):  # "My Hero Academia" of "My Hero Academia: Two Heroes", where no
            if norm(head) not in table.aliases and shape(head) not in table.aliases:  # entity of its own is that
                table.aliases[norm(head)] = (ent.key, "full")
                spelled.setdefault(norm(head), {}).setdefault(shape(head).casefold(), shape(head))
    for ent in ranked:
        _add_partial_aliases(table, ent)
    if table.aliases:
        ci = [(a, f"(?i:{alias_pattern(s)})") for a, (_, mode) in table.aliases.items() if mode == "full"
              for s in sorted(spelled[a].values())]
        cs = [(a, alias_pattern(a)) for a, (_, mode) in table.aliases.items() if mode != "full"]
        alts = [p for _, p in sorted(ci + cs, key=lambda ap: (-len(ap[0]), ap[0]))]
        table.regex = re.compile(WORD_START + "(?P<name>" + "|".join(alts) + r")" + _SUFFIX + WORD_END)
        _add_lowered(table)
    return table


def _add_lowered(table: Table) -> None:
    """The aliases matched in a text with no capital at all ("who sings does he love me with reba?", a question as
    search engines get them), where case tells nothing: the aliases matched in any case anyway ("suricate"), names of
    three words or more ("last of the summer wine"), names with a word the dictionary has no lower-case entry
    for ("reba", "new york"; not "will" or the title "love me"), a country of one word ("who ranked right after
    turkey?" beside a table's "Turkey"), a surname less common than everyday words (``_surname_word``: "other than
    parry, name an athlete" beside a table's "Paul Parry"), a place of designators ("the united states",
    "where do the great lakes meet the ocean?"; not "the other imperial city"), a designator joined to a word that is
    none (``_designated``: "stoke city"), a name of one word that is no ordinary
    word ("kodak" beside "Kodak Color Print Material", although Webster's has "kodak"; see ``_rare_name``), and names
    the instance writes in lower case (a term replaced in every case: "holography" of "his work in holography",
    copied alone into an answer; a place or people a question without capitals writes, "german" beside "German"), in
    any case."""
    heads = {e.key.rsplit(" ", 1)[-1] for e in table.entities.values() if " " in e.key}
    for alias, (key, mode) in table.aliases.items():
        words = alias.split()
        ent = table.entities[key]
        lower = ent.surface[:1].islower() or ent.label in ("GPE", "NORP") and any(s.islower() for s in ent.surfaces)
        if mode in ("full", "word") or (mode != "proper" and (len(words) >= 3 or not all(is_word(w) for w in words)
                                                              or _rare_name(alias, mode, heads)
                                                              or mode == "exact" and designators_only(words)
                                                              or _designated(words) or lower
                                                              or _country(ent, words)
                                                              or _surname_word(alias, mode, ent))):
            table.lowered.setdefault(norm(alias), (key, mode))
    if table.lowered:
        alts = sorted(table.lowered, key=lambda a: (-len(a), a))
        table.lower_regex = re.compile(WORD_START + "(?P<name>" + "|".join(map(alias_pattern, alts))
                                       + r")" + _SUFFIX + WORD_END, re.IGNORECASE)


def _surname_word(alias: str, mode: str, ent: Entity) -> bool:
    """True for a family name of Faker's lists less common than ``DESCRIPTIVE_ZIPF`` that ends a person's name, also
    one NER did not call a person's that opens with a given name: in a text without capitals, the name ("other than
    parry, name an athlete" beside a table's "Paul Parry"; "did marsh score" beside a cell's "Owen Marsh"), not the
    word ("reach" of "Adam Reach"; "rum" of NER's person "Bundaberg Rum")."""
    words = ent.surface.split()
    return ((mode == "surname" or mode == "part" and len(words) >= 2 and norm(words[-1]) == norm(alias)
             and is_given_name(words[0])) and is_surname(alias) and not is_common(alias, DESCRIPTIVE_ZIPF))


def _country(ent: Entity, words: Sequence[str]) -> bool:
    """True for a country's name of one word NER calls a place ("Turkey", "Chad", "Canada"): where nothing is written
    in capitals, its lower-case form is still the country a table of countries names, not the bird. Not a code
    written in capitals ("US", "IN"), which in lower case is a word ("tell us", "in")."""
    return (len(words) == 1 and ent.label == "GPE" and ent.surface[:1].isupper() and ent.surface[1:].islower()
            and country_of(ent.surface) is not None)


def _designated(words: Sequence[str]) -> bool:
    """True for a name of two words or more, designators and words less common than ``DESCRIPTIVE_ZIPF`` ("stoke
    city", "kremlin cup"): no phrase of ordinary English, as "the other imperial city" is."""
    others = [w for w in words if w.casefold() not in GENERIC and w.casefold() not in FUNCTION]
    return (len(words) >= 2 and len(others) < len(words) and bool(others)
            and not any(is_common(w, DESCRIPTIVE_ZIPF) for w in others))


def _rare_name(alias: str, mode: str, heads: Collection[str]) -> bool:
    """True for a whole name of one word that is no ordinary word and ends no other name of the instance ("Kodak"
    beside "Kodak Color Print Material"; not "Carousel" beside "Dentzel Carousel", nor "Woods", a part of "Lawn
    Woods"): in a text without capitals, its lower-case form is the name. An ordinary word stays a word there, however
    rare ("academia" of "my hero academia" beside "the Academia" of "Academia Antártica")."""
    return mode == "exact" and " " not in alias and not ordinary(alias) and norm(alias) not in heads


def _add_spelling(table: Table, spelled: dict[str, dict[str, str]], ent: Entity, s: str, over: bool = True) -> None:
    """Alias the whole spelling ``s`` of ``ent``: as written and in capitals for a name of ordinary or dictionary words
    (``_cased``: "London", never "london"; "Turkey", not "turkey") unless an entity has that alias already; else in
    any case, over another entity's alias only where ``over``. ``spelled`` records each any-case alias's spellings."""
    cased = _cased(table, s, ent.label)
    if cased is not None:
        for variant in (shape(s), shape(s).upper()):
            table.aliases.setdefault(variant, (ent.key, cased))
    elif over or norm(s) not in table.aliases:
        table.aliases[norm(s)] = (ent.key, "full")
        spelled.setdefault(norm(s), {}).setdefault(shape(s).casefold(), shape(s))


def _possessed(ent: Entity) -> list[str]:
    """The spellings of ``ent`` without the possessive ending its own spellings all have ("Sting" of "Sting's"), three
    letters or more."""
    if not all(_POSSESSIVE.search(s) for s in ent.surfaces):
        return []
    return sorted({b for s in ent.surfaces if len(b := _POSSESSIVE.sub("", s)) >= 3})


def _cased(table: Table, surface: str, label: str) -> str | None:
    """The mode of an entity string matched as written or in capitals: "exact" for ordinary words ("Politics of
    Angola" as a name, not "the politics of Angola" in a sentence), "word" for a name of one dictionary word (a name
    "Bull", a word "a bull"); None for one matched in any case ("full")."""
    if _exact(surface, label) or any(ordinary(surface[a:b]) and norm(surface[a:b]) in table.part_map
                                     for a, b in parts(surface)):
        return "exact"
    return "word" if _word_name(surface, label) else None


_WORD_AFTER = re.compile(r"[ \t]+([^\W\d_][\w'’-]*)")


def _another_names(text: str, start: int, end: int, mode: str, mapped: Collection[str]) -> bool:
    """True when the ordinary word ``text[start:end]``, an alias of ``mode`` "proper" (a word of a longer name),
    stands right before the head of an office, body or day that is no part of a name (a title or ``_BODIES``, no key
    of ``mapped``): the word of another, ordinary name there ("Foreign Minister" beside the "Foreign Office", "Lord High
    Chancellor" beside "Lord High Steward", "Air Force" beside "Air India")."""
    if mode != "proper":
        return False
    after = _WORD_AFTER.match(text, end)
    return after is not None and after[1][:1].isupper() and (
        after[1].casefold() in TITLES or after[1].casefold() in _BODIES) and norm(after[1]) not in mapped


_EVERYDAY_ZIPF = 5.0
"""Words at least this common ("World", "United") are too common to be a name's word where a sentence opens."""
_LOWER_AFTER = re.compile(r"[ \t]+[a-z]")
"""A lower-case word after a word (``Table._sole_word``)."""
_SUFFIX = r"(?P<suffix>(?:(?<![ \t][^\W\d_])e?s)?)"
"""A plural's ending after a name, not after a name's last word of one letter: "pylon is" of a text without capitals is
no plural of "Pylon I", nor "vitamin as" of "Vitamin A"."""


_BODIES = frozenset("force forces army navy authority council office ministry department commission committee agency "
                    "board court service services party government day".split())
"""Heads of a body or a day named by an ordinary word before them ("Air Force", "Transit Authority", "Boxing Day")."""


def _word_name(surface: str, label: str) -> bool:
    """True for an entity string of one capitalised word that the dictionary also writes in lower case and the name
    lists know ("Bull", "Grey", "Archipelago"): in a text with capitals its lower-case form is the word ("a bull",
    "silver-grey", "the biggest island in the archipelago") and stays; in a text without, it is the name. Not a
    country or other place ``known_place`` knows, unless a person's name: "When did his ship reach chile?" asks about
    the country."""
    if label in _WORDS_ARE_NAMES or not surface[:1].isupper() or len(parts(surface)) != 1:
        return False
    return is_word(surface) and (label == "PERSON" or not known_place(surface))


def _exact(surface: str, label: str) -> bool:
    """True for an entity string matched only as written or in capitals: ordinary words only ("Born",
    "Distance"), or one English word that is no known name ("Lynx": "lynx" is no name; "chile" is). A
    lower-case name ("kroon", "alteri") is matched in any case: it also opens sentences ("Kroon notes")."""
    if label in _WORDS_ARE_NAMES and surface[:1].islower():
        return False
    if surface in us_states():  # "OK", "IN", "AL": "ok", "in", "et al." are no codes
        return True
    words = [surface[x:y] for x, y in parts(surface)]
    if all(ordinary(w) or _kept(w, False) for w in words):
        return True
    return len(words) == 1 and not is_known_name(words[0]) and is_common(words[0], 1.0)


def _fix(table: Table, ent: Entity, new: str, distinctive: Sequence[int]) -> bool:
    """Map ``ent`` to a given replacement; False when it is the original (the entity stays as it is).
    ``distinctive``: the indexes of its distinct parts (``_distinctive``)."""
    old_parts, new_parts = parts(ent.surface), parts(new)
    if norm(new) == ent.key:
        return False
    if len(old_parts) != len(new_parts) or ent.label == "EVENT" and named_by_day(ent.surface):  # "9/11": whole
        table.whole[ent.key] = new
        return True
    for i, ((a, b), (c, d)) in enumerate(zip(old_parts, new_parts, strict=True)):
        if norm(ent.surface[a:b]) == norm(new[c:d]):
            continue
        if _own_word(ent, ent.surface[a:b], i) or b - a == 1 or i in table.describing.get(ent.key, ()):
            # a letter changes in its name only (an initial, also of a person named inside), and so does a word
            # saying what a body is that its letters changed (see _describing_redrawn)
            table.own.setdefault(ent.key, {})[norm(ent.surface[a:b])] = new[c:d]
        else:
            known = table.part_map.get(norm(ent.surface[a:b]))
            if known is None or norm(known) != norm(new[c:d]) or known.isupper():  # "Conie" of "Rai DMB", not the
                table.part_map[norm(ent.surface[a:b])] = new[c:d]  # "CONIE" of "RAI": each mention styles the part
            if i not in distinctive:  # "East" of "East Side Gallery": changed for the name alone
                table.forced.add(norm(ent.surface[a:b]))
    return True


def _distinctive(ent: Entity, words: Sequence[str], describing: set[int] | None = None) -> list[int]:
    """The indexes of the ``words`` of ``ent`` that are replaced: the parts no designator, particle or title keeps,
    a title after a person's name ("Amanda Khan"), and every word of a binomial or rendering. An award keeps its
    field and kind where another word names it ("Nobel Prize in Physics"; "IEEE" of "IEEE Edison Medal" changes),
    and its own designator ("Year Awards"); no name changes ``HEADS`` ("Queensland Government"). ``describing``, if
    given, receives the indexes of the words that stay because they say what a body is (``_named_only``)."""
    if _written_lower(ent):  # "south korea" of a question with no capital is judged as "South Korea"
        words = [w.capitalize() for w in words]
    if ent.label in _WORDS_ARE_NAMES:  # "Panthera leo": the lower-case epithet is as much a name as the genus
        return [i for i, w in enumerate(words)  # marks too: "ˈɡiːjæ̃", "बुद्ध"
                if len(w) > 1 and all(c.isalpha() or unicodedata.category(c)[0] == "M" for c in w)
                and w.casefold() not in FUNCTION]
    said = ([_said(ent.surface, span) for span in parts(ent.surface)]  # "Talkin'", "'Bout": see _title_kept
            if ent.label in ("TITLE", "WORK_OF_ART") else [])
    if ent.label == "TITLE":  # "Brothers in Arms", "The Old Man and the Sea": no designators in a title
        return [i for i, w in enumerate(words) if len(w) > 1 and w[:1].isupper() and not _title_kept(said, i)]
    person = not _named_day(ent, words) and not _sport_team(ent, words) and (
        ent.label == "PERSON" or (ent.label in ("ORG", "FAC", "PROPN") and person_shaped(list(words))))
    lead = next((i for i, w in enumerate(words) if w.casefold() not in TITLES), len(words))
    tails = _syllable_tails(ent.surface)
    out = [i for i, w in enumerate(words)
           if not _kept(w, i == 0, person) or (person and i > lead and w.casefold() in TITLES) or i in tails]
    if (head := _award_head(ent, words)) is not None:
        named = [i for i in out if not (ordinary(words[i]) and is_word(words[i]))]
        return named or [i for i in out if i < head and words[i].casefold() not in AWARDS]  # "Golden Globe" of
        # "Golden Globe Award for Best Actress", not its category; none: the first word changes ("Academy" of "Academy
        # Award for Best Picture", see _map_parts), and "Award for Best Actor" names nothing
    if ent.label == "WORK_OF_ART":  # NER's title keeps what ours does: "I Know You Don't Love Me"
        out = [i for i in out if not _title_kept(said, i)]
    elif not person:
        named = _named_only(ent, words, out)
        if describing is not None:
            describing.update(set(out) - set(named))
        out = named
    if not person and _acronym_before_words(ent, words):
        return [0]  # "SM Entertainment" -> "NJH Entertainment", "CAS Number | 7440-45-1" -> "WKK Number"
    out = [i for i in out if words[i].casefold() not in HEADS]  # none left: see _map_parts
    return out if person else [i for i in out if words[i].casefold() not in SPORTS] or out  # "Joe Hockey" changes


_DESCRIBED = frozenset({"ORG", "FAC", "EVENT"})
"""Labels of bodies, buildings and events, whose names often join a name to words saying what they are or do."""
_OF_WORKS = frozenset("ep lp volume chapter episode season series part article section paragraph verse".split())
"""Designators of works and their parts, whose other words are a title ("July Flame LP", "Season of Mist Volume 2")."""
DESCRIPTIVE_ZIPF = 4.0
"""A dictionary word at least this common says what a body is or does ("Film", "Transportation", "Tourism")."""


def _named_only(ent: Entity, words: Sequence[str], out: list[int]) -> list[int]:
    """The indexes of ``out`` less the words that only say what a body, building or event named by another word is
    or does: "Film" of "Seattle International Film Festival", "Transportation" of "California Department of
    Transportation", "Tourism Industry" of "Queensland Tourism Industry Council". Such a word is a common dictionary
    word (``DESCRIPTIVE_ZIPF``), no place's or people's name; it stays where the name also holds a designator
    ("Festival", "Department", "Council", ``GENERIC``; not a period's: "Queens of the Stone Age") or says what a
    business does (``_BUSINESSES``), after a word that changes ("Seattle", "California", "FIBA"). Before it, such a
    word is a name ("Epic" of "Epic/Sony Music Entertainment", "San" of "The Bridge of San Luis Rey"). A team's name
    has no designator ("Philadelphia Eagles"), or one inside its town's name only, before the plural it ends with
    ("Kansas City Chiefs", "New York Giants"; not "Danish Academy of Sciences"): it changes whole; so does a title NER
    calls an organisation ("Saving Private Ryan"). A name of such words alone changes the first of them ("Finance" of
    "Finance Sector Union", "Rural" of "Rural Fire Service")."""
    if ent.label not in _DESCRIBED or not any(_designator(w) for w in words):
        return out
    first = next((i for i in out if not _describes(words[i])), out[0] if len(out) > 1 else len(words))
    spans = parts(ent.surface)
    described = [i for i in out if i > first and _describes(words[i])  # not "Jack" of "Mi-Jack Conquest Racing"
                 and ent.surface[spans[i - 1][1]:spans[i][0]] not in ("-", "–", "/")]
    last = words[-1]
    if (described == [len(words) - 1] and last.endswith("s") and not _designator(last)
            and not any(w.casefold() in _BUSINESSES or w.casefold() in FUNCTION for w in words)):
        return out  # a team's plural after its town; not "London School of Economics"
    return [i for i in out if i not in described]


def _designator(word: str) -> bool:
    low = word.casefold()
    return low in GENERIC and low not in _OF_WORKS and low not in PERIOD_DESIGNATORS or low in _BUSINESSES


def _describes(word: str) -> bool:
    """True for a word that says what a body is or does (see ``_named_only``): not a town's name that is a word too
    ("Boston", a dance)."""
    return (word[:1].isupper() and word[1:].islower() and is_word(word.casefold()) and ordinary(word)
            and is_common(word, DESCRIPTIVE_ZIPF) and not known_place(word) and not demonym_or_language(word)
            and word not in place_names() and not (is_proper_entry(word) and word in city_names()))


def _syllable_tails(surface: str) -> set[int]:
    """The indexes of the parts of ``surface`` that are the lower-case syllable ending a romanised name after a dash
    ("hoon" of "Lee Seung-hoon", see ``syllable_end``): part of the name, no lower-case word that stays."""
    spans = parts(surface)
    return {i for i in range(1, len(spans))
            if surface[spans[i - 1][0]].isupper() and syllable_end(surface, spans[i - 1][1]) == spans[i][1]}


_BUSINESSES = frozenset("""number entertainment comics publishing publications records recordings media productions
    pictures films studios music group holdings games software systems technologies networks television radio
    broadcasting communications airlines airways motors digital interactive electronics education sports news press
    books mobile global worldwide""".split())
"""Words that say what an organisation named by an acronym is or does ("SM Entertainment", "DC Comics")."""


def _acronym_before_words(ent: Entity, words: Sequence[str]) -> bool:
    """True for a name of an organisation's acronym before words that say what it is or does (``_BUSINESSES``, or
    designators: "SM Entertainment", "DC Comics", "IDW Publishing", "BBC Radio", an infobox's key "CAS Number"): the
    acronym names it, and only it changes. Not a work's title, nor a ship's or a team's name of other words ("HMNZS
    Achilles", "BC Lions", "CMT Crossroads")."""
    return (ent.label not in ("TITLE", "WORK_OF_ART") and len(words) >= 2 and 2 <= len(words[0]) <= 5
            and words[0].isalpha() and words[0].isupper() and any(w.casefold() in _BUSINESSES for w in words[1:])
            and all(w.casefold() in _BUSINESSES or w.casefold() in GENERIC for w in words[1:]))


def _written_lower(ent: Entity) -> bool:
    """True for a place or people found written in lower case (``kinds.lower_places``: "south korea", "belgian")."""
    return ent.label in ("GPE", "NORP") and ent.surface.islower()


def _named_day(ent: Entity, words: Sequence[str]) -> bool:
    """True for a day named after someone or something, which keeps its "Day": a holiday (``holiday_names``) that NER
    may call a person ("Victoria Day" -> "Sontzsi Day", "Anzac Day"), or a name ending in "Day" or "Eve" that neither
    NER nor a given name opening it calls a person's ("Saṅgha Day"; "Paul Day" and "Charlie Day" change whole)."""
    return len(words) >= 2 and words[-1] in ("Day", "Eve") and (
        " ".join(words) in holiday_names() or ent.label != "PERSON" and not is_given_name(words[0]))


def _sport_team(ent: Entity, words: Sequence[str]) -> bool:
    """True for a team NER calls a person, named by its owner and ending with its sport's word, which stays ("Chip
    Ganassi Racing", "Panther Racing"); not a person whose family name is such a word ("Joe Hockey")."""
    return (ent.label == "PERSON" and len(words) >= 2 and words[-1].casefold() in SPORTS and not is_surname(words[-1])
            and (len(words) >= 3 or not is_given_name(words[0])))


def _title_kept(words: Sequence[str], i: int) -> bool:
    """True for a word of a title that stays: a function word ("Best in Show" changes "Show", see
    ``words.CONTENT_STOP_WORDS``), also contracted ("I'm", "Don't", "Gonna", see ``english.contracted``) or spoken
    ("Nothin'", "'Em"), a number, a Roman numeral after the first word ("Guitar Hero II"), and a designator that
    numbers what follows it ("Greatest Hits Volume Two", "Part 2")."""
    w, after = words[i], words[i + 1] if i + 1 < len(words) else ""
    head, *joined = re.split(r"['’]", w)
    return (never_name(w) and w.casefold() not in CONTENT_STOP_WORDS or bool(joined) and never_name(head)
            or shape(w).casefold().endswith("n't")  # "Don't Tell Mom the Babysitter's Dead": "Don" is a given name too
            or contracted(w) or (standard := spoken(w)) is not None and never_name(standard)
            or w.casefold() in FUNCTION or any(c.isdigit() for c in w) or (i > 0 and _ROMAN.fullmatch(w) is not None)
            or w.casefold() in ABBREVIATED_TITLES and bool(after)  # "Sgt. Pepper's Lonely Hearts Club Band"
            or w.casefold() in GENERIC and (after[:1].isdigit() or after.casefold() in CARDINALS
                                            or _ROMAN.fullmatch(after) is not None))


def _award_head(ent: Entity, words: Sequence[str]) -> int | None:
    """The index where an award's name ends and what it names begins: its kind ("Golden Globe Award for Best
    Actress"), else "for" before a category ("Oscar for Best Actor"), else a category right after it ("Filmfare Best
    Actor"; not in a title, nor in one NER calls a person, "Bida Best Hits Da Best"); None for no award."""
    head = next((i for i, w in enumerate(words) if i and w.casefold() in AWARDS), None)
    if head is None:
        head = next((i for i, w in enumerate(words[:-1]) if i and w == "for"
                     and words[i + 1].casefold() in CATEGORY_OPENERS), None)
    if head is None and ent.label not in ("WORK_OF_ART", "PERSON"):
        head = next((i for i, w in enumerate(words[:-1]) if i and w.casefold() in CATEGORY_OPENERS
                     and all(ordinary(v) for v in words[i + 1:])), None)
    return head


def _map_parts(table: Table, ent: Entity, invent: Callable[[str, str], str], distinctive: Sequence[int]) -> bool:
    """Give every distinctive part of ``ent`` (``distinctive``: their indexes, see ``_distinctive``) an invented
    part; False when it has no part to replace."""
    spans = parts(ent.surface)
    words = [ent.surface[a:b] for a, b in spans]
    if ent.surface in us_states():  # "Tuscaloosa, AL" -> "Vengbeci, ZK": two letters, as a state's code is
        if ent.key not in table.keep:
            table.part_map.setdefault(ent.key, invent("state", ent.surface))
        return ent.key in table.part_map
    if ent.label == "EVENT" and named_by_day(ent.surface):  # "the 9/11 attacks" -> "the Glanice attacks": no
        table.whole[ent.key] = invent("org", ent.surface)  # part of it names it alone
        return True
    replace = [i for i in distinctive if norm(words[i]) not in table.keep
               and not (ent.label == "PERSON" and _designates(table, words[i]))]
    kept = institution_words(ent.surface, 0, len(ent.surface)) if ent.label not in ("PERSON", "TITLE", "WORK_OF_ART") \
        else set()
    if kept:  # "Supreme Court of India": the court's words stay, its land changes
        replace = [i for i in replace if words[i].casefold() not in kept]
        if not replace:
            return False  # "the Court of Appeal", "the High Court": a court of a kind, whichever land's
    if not replace and any(norm(w) in table.keep for w in words):
        return any(norm(w) in table.part_map for w in words)
    if (not replace and words and words[-1].casefold() in PERIOD_DESIGNATORS
            and all(w.casefold() in GENERIC or w.casefold() in FUNCTION for w in words)):
        return False  # "the Open Era", "the Late Period": a time no name tells; not "Pro Era", a band
    if not replace and len(words) > 2 and words[0].casefold() in AWARDS and words[1] in ("for", "in"):
        return False  # "the Award for Best Actor", "Prize in Physics": a category, whoever gives it
    if not replace:  # a name of generic words only ("Government College University"): its first word changes
        # (a stop word that is a content word too: "Top", "Move"), but not the designator it ends with where
        # other names end with it, which would change in all of them: a stop word or number word changes
        # instead ("Top League", "Fifth Avenue" beside "Celtic League", "Atlantic Avenue"; the "Territory" of
        # "Territory Government" beside "Northern Territory" changes in both, the one territory); never a
        # contraction ("That Ain't All" stays)
        able = [i for i, w in enumerate(words) if w[:1].isalpha() and w.casefold() not in FUNCTION
                and (not never_name(w) or w.casefold() in CONTENT_STOP_WORDS) and not contracted(w)]
        shared = len(words) - 1 if len(words) > 1 and _designates(table, words[-1]) else None
        first = next((i for i in able if i != shared), None)
        if first is None and shared is not None:
            first = next((i for i, w in enumerate(words[:-1]) if w[:1].isalpha() and w.casefold() not in FUNCTION
                          and w.casefold() not in ERAS), None)
        if first is None and able:
            first = able[0]
        if first is None:
            return False
        replace = [first]
        table.forced.add(norm(words[first]))  # in every name: "Academy" of "Academy Awards" and "Academy Award
        # for Best Actor" is one word
    initials = {i for i, w in enumerate(words) if _initial(ent, w, i)} if replace else set()
    replace = sorted({*replace, *initials})
    for i in replace:
        key = norm(words[i])
        w = words[i]
        own = _own_word(ent, w, i) or i in initials
        if key in table.part_map and not own or key in table.own.get(ent.key, {}):
            continue
        if i in initials:  # "J. R. R. Tolkien" -> "K. M. M. Frecneck": the initials tell the name too
            table.own.setdefault(ent.key, {})[key] = _new_letter(invent, w)
            continue
        if _DOTTED.fullmatch(w) and ent.label == "PERSON" and i < len(words) - 1:  # "J.R. Cash" -> "V.H. Jedury":
            table.part_map[key] = _dotted("".join(_new_letter(invent, c) for c in w.replace(".", "")))  # a person's
            continue  # initials, as many, alike in every name ("C.D. Arcense", "C.D. Águila": NER's persons, clubs)
        if _DOTTED.fullmatch(w):  # "U.S." -> "K.R.V."
            table.part_map[key] = _dotted(invent("acronym", w.replace(".", "")))
            continue
        if len(w) > 1 and w.isupper() and w.isalpha():
            style = "acronym"
        elif _PLURAL_ACRONYM.fullmatch(w):  # "CPUs" -> "ZKLs": an acronym's plural, as "CDs" beside "CD" is
            table.part_map[key] = invent("acronym", w[:-1]) + "s"
            continue
        elif _written_lower(ent):  # "belgian riders" -> "genian riders", "in alabama" -> "in wesmouth": in lower
            style = _STYLE[ent.label]  # case as the original is
        elif w[:1].islower() and not _camel(w):
            style = "lower"
        elif ent.label in ("TITLE", "WORK_OF_ART") and (alone := _named_alone(table, key)) is not None:
            style = _STYLE.get(alone, "org")  # "Paris" of "An American in Paris" stays a place
        elif ent.label in ("TITLE", "WORK_OF_ART") and _english(said := _said(ent.surface, spans[i])):
            style = "word"
        elif ent.label == "PERSON":
            style = "family" if i == replace[-1] else "given"
        elif ent.label in ("ORG", "PROPN") and len(spans) == 1 and _person_s_word(w):
            style = "given" if is_given_name(w) else "family"  # "Knowles", "Emily" NER calls bodies: a person's
            # name still, never "Chtshire"
        else:
            style = _STYLE.get(ent.label, "org")
        if _DOCTRINE.fullmatch(w) and style not in ("acronym", "word") and (is_proper_entry(w) or not is_word(w)
                                                                           or ent.label == "NORP"):
            new = invent("demonym", w[:-3]) + "ism"  # "Buddhism" -> "Gornianism", a doctrine still; not "Tourism";
            # a faith's "Catholicism" is a word but no tourism
        else:
            new = invent(style, said if style == "word" else w)
        if style == "word" and said != w:
            new = new.rstrip("'’")  # "Talkin" -> "Standin": the text keeps its apostrophe
        if ent.label == "TERM":  # a term found only in the plural ("ambulatories") stays one; a singular
            new = new.rstrip("s") or new  # gets its plural by the original's ending: no "ancies" + "s"
            new += "s" if PLURAL.search(w) else ""
        if own:
            table.own.setdefault(ent.key, {})[key] = new
        else:
            table.part_map[key] = new
    return True


def _person_s_word(word: str) -> bool:
    """True for a given or family name in Faker's lists that is no place's name ("Knowles", "Emily"; not "Paris")."""
    return (is_given_name(word) or is_surname(word)) and not known_place(word) and not is_place_name(word)


_DOCTRINE = re.compile(r"[A-Z][a-z]{2,}ism")
"""A doctrine's or faith's one-word name: "Buddhism", "Confucianism", "Taoism" (no dictionary word: not "Tourism")."""
_PLURAL_ACRONYM = re.compile(r"[A-Z]{2,}s")
"""An acronym's plural: "CPUs", "IPOs"."""


def _new_letter(invent: Callable[[str, str], str], letter: str) -> str:
    """Another capital for the initial ``letter``."""
    return next((c for c in invent("acronym", letter * 3) if c != letter), "X")


def _said(surface: str, span: tuple[int, int]) -> str:
    """A part of ``surface`` as it is said: with the apostrophe after it that drops a "g" ("Talkin'" of "Talkin' Blues")
    or before it that drops a syllable ("'Bout" of "Forgettin' 'Bout You"), which no part holds (see
    ``english.spoken``)."""
    a, b = span
    word, before, after = surface[a:b], surface[a - 1:a] if a else "", surface[b:b + 1]
    if after in ("'", "’") and word.endswith("in"):
        return word + after
    return before + word if before in ("'", "’") and spoken(before + word) is not None else word


def _designates(table: Table, word: str) -> bool:
    """True for a designator that is also a family name ("Park", "Hall") where another name of the instance, no
    person's, ends with it: it designates there too ("De Winton Park", NER's person, beside "Central Park"), and would
    otherwise change in every name."""
    low = word.casefold()
    return low in GENERIC and any(e.label != "PERSON" and len(parts(e.surface)) > 1 and e.key.endswith(" " + low)
                                  for e in table.entities.values())


def _named_alone(table: Table, key: str) -> str | None:
    """The label of the known name ``key`` the instance also holds on its own, not as a title ("Paris", also found in
    "An American in Paris"; not NER's place "Songs" of "Songs from the Big Chair" in a question), or None."""
    other = table.entities.get(key)
    return other.label if other is not None and other.label not in ("TITLE", "WORK_OF_ART") and is_known_name(
        other.surface) else None


def _initial(ent: Entity, word: str, i: int) -> bool:
    """True for an initial before a person's family name ("J" of "J. R. R. Tolkien", "F" of "F. Scott Fitzgerald",
    "W" of "George W Bush"; a letter, maybe a full stop, and a space): it changes in that name only, as other names
    and words keep their letters ("Vitamin D", "Plan B"), and a model's letter is none ("Albatros D.III", NER's
    person); so does a genus's initial ("E" of "E. coli", see ``_link_abbreviated``)."""
    spans = parts(ent.surface)
    if not (ent.label in ("PERSON", "TAXON") and _capital_letter(word) and i < len(spans) - 1):
        return False
    after = ent.surface[spans[i][1]:spans[i][1] + 2]
    return after[:1].isspace() or after[:1] == "." and (after[1:] == "" or after[1:].isspace())  # not "D.III", "I-21"


def _own_word(ent: Entity, word: str, i: int) -> bool:
    """True for a word that changes in the name ``ent`` only: a title's kept word (``_title_own``) or a designator of
    a country's name that changes for want of another part ("United" of "United Kingdom" and of "United States",
    which would otherwise become one pair, "Brod Kingdom" and "Brod States", and take "United" from "United Nations"
    too). A country's other words are one in every name ("Chile" of "Republic of Chile" and "República de Chile",
    "Timor" of "East Timor" and "Timor Sea")."""
    return _title_own(ent, word, i) or (len(parts(ent.surface)) > 1 and _kept(word, i == 0)
                                        and country_of(ent.surface) is not None)


def _title_own(ent: Entity, word: str, i: int) -> bool:
    """True for a word of a title of two words or more that other names keep (a designator, title or stop word: "Sea",
    "Brothers", "Show"): it changes in that title only. A title of one such word ("Crisis") changes it everywhere, or
    the word would be left of the title in another name ("Crisis on Infinite Earths")."""
    return ent.label == "TITLE" and (_kept(word, i == 0) or never_name(word)) and len(parts(ent.surface)) > 1


_WORD_NOT_NAME = 5.2
"""From this Zipf frequency a given name is a word in a title ("Love", "Summer"; not "Bill", "Mark", "Jack")."""


def _english(word: str) -> bool:
    """True for a word of a title of a work that an English word replaces (see ``english``): a word the dictionary
    writes in lower case or lemminflect's lexicon holds ("Greatest") that is ordinary ("Love") or no known name
    ("Predicate", "Gambol"), and no given name unless a very common word; not "George", "Oscar", "Jack" or
    "Grammy"."""
    if spoken(word) is not None:
        return True  # "Talkin'": another word's "-in'" form (see ``english.english_word``)
    return len(word) > 1 and (is_word(word) or known(word)) and bool(readings(word)) and (
        not is_given_name(word) or is_common(word, _WORD_NOT_NAME)) and (
        ordinary(word) or not (is_known_name(word) or is_proper_entry(word)))


def _link_plurals(table: Table) -> None:
    """A plural takes its singular's replacement where the links mapped them apart: a plural in "-ies"
    ("ambulatories" beside "ambulatory"), a family's plural ("the Kennedys" beside "John Kennedy": "the Schens"
    beside "Gunargar Schen") and a people's ("Americans" beside "American", which the country's forms or the place
    "America" may map; "Icelanders" NER found on its own), a dictionary word's ("Whites" beside "White Africans"),
    also inside a name after its first part ("non-Christians" beside "Christian"). The other plurals are merged with
    their singulars and matched by their aliases (see ``build_table``)."""
    families = {norm(e.surface[a:b]) for e in table.entities.values() if e.label == "PERSON"
                for a, b in parts(e.surface)[1:][-1:]}
    peoples = {norm(e.surface[a:b]) for e in table.entities.values() if e.label == "NORP" for a, b in parts(e.surface)}
    for ent in table.entities.values():
        if ent.key not in table.part_map:
            continue
        if ent.key.endswith("ies") and ent.key[:-3] + "y" in table.part_map:
            new = table.part_map[ent.key[:-3] + "y"]
            table.part_map[ent.key] = new[:-1] + "ies" if new.endswith("y") else new + "s"
            continue
        if len(parts(ent.surface)) != 1 or not ent.key.endswith("s") or ent.key.endswith("ss"):
            continue
        family = next((b for b in (ent.key[:-1], ent.key[:-2] if ent.key.endswith("es") else "")
                       if b in families and b in table.part_map), None)
        if family is not None and ent.key not in families:
            table.part_map[ent.key] = plural(table.part_map[family], "s")
        elif (ent.key[:-1] in table.part_map and not known_place(ent.surface)  # "Laos" beside "Lao" is a country
              and (demonym_or_language(ent.surface[:-1]) or ent.key[:-1] in peoples
                   or is_word(ent.key[:-1]))):  # "Whites" beside "White Africans"
            table.part_map[ent.key] = table.part_map[ent.key[:-1]] + "s"
    for ent in table.entities.values():  # a people's alone inside a name: "Bills" of "Kurt Bills" is no plural
        for a, b in parts(ent.surface)[1:]:
            key = norm(ent.surface[a:b])
            if key.endswith("s") and key[:-1] in peoples and key in table.part_map and key[:-1] in table.part_map:
                table.part_map[key] = table.part_map[key[:-1]] + "s"  # "non-Christians" beside "Christian"


def _link_places(table: Table, present: Callable[[str], bool], invent: Callable[[str, str], str]) -> list[Entity]:
    """Map the sibling forms of every replaced country (demonym, name, code); the new entities, if any."""
    single = {e.key: table.part_map[e.key] for e in table.entities.values() if e.key in table.part_map}
    for e in table.entities.values():  # "the United States" -> "the Irod States": "American" follows it where
        # its sound allows (see ``sibling_forms``)
        if e.key not in single and " " in e.surface and country_of(e.surface) is not None:
            new = table.compose(e.surface)
            if norm(new) != e.key:
                single[e.key] = new
    added: list[Entity] = []
    for original, new in sibling_forms(present, single, lambda name: invent("place", name)).items():
        if _kept(original, True):
            continue  # "Island", an Icelandic name of Iceland, is a designator in "the Canary Islands"
        key = norm(original)
        table.part_map[key] = new
        if key not in table.entities:
            country = country_of(original)
            label = "ORG" if country and original == country.code else "NORP" if country and \
                original == country.demonym else "GPE"
            table.entities[key] = Entity(key, label, original, [original])
            added.append(table.entities[key])
    return added


def _link_derived(table: Table, present: Callable[[str], bool]) -> list[Entity]:
    """Map the demonyms of every replaced place that is no country ("Asian" of "Asia", "Texans" of "Texas")
    to the new place's stem, also where NER mapped them on their own; the new entities, if any."""
    places = {norm(ent.surface[a:b]): (ent.surface[a:b], ent.label) for ent in list(table.entities.values())
              if ent.label not in ("PERSON", "NORP", "LANGUAGE") for a, b in parts(ent.surface)}
    added: list[Entity] = []
    for key, (place, label) in places.items():
        new = table.part_map.get(key)
        if new is None or key in table.keep or not place[:1].isupper() or country_of(place) is not None:
            continue
        for form in derived_forms(place):  # present() and the aliases take plurals along ("Texans")
            if (not present(form) or norm(form) in table.keep or form.casefold() in GENERIC
                    or is_word(form) and not is_proper_entry(form)):
                continue  # "Commander" of "Command", "Designer" of "Design" are words of their own; "Sicilian" is none
            if is_known_name(form) and label not in ("GPE", "LOC", "FAC"):
                continue  # "Julian" beside "Julia MacRae Books" is a given name; "Roman" beside "Rome" follows it
            _follow(table, form, demonym_for(new, form), added)
            if norm(form + "s") in table.entities:  # "Texans", which NER mapped alone: the plural follows too
                table.part_map[norm(form + "s")] = demonym_for(new, form) + "s"
    return added


def _follow(table: Table, form: str, new: str, added: list[Entity]) -> None:
    """Map the word ``form`` formed from a replaced name to ``new``; where NER did not find it, as an entity of its
    own (a people's word), added to ``added``."""
    table.part_map[norm(form)] = new
    if norm(form) not in table.entities:
        table.entities[norm(form)] = Entity(norm(form), "NORP", form, [form])
        added.append(table.entities[norm(form)])


_EPONYM_ENDINGS = ("ian", "ean", "an", "ic", "ist", "ism", "ite", "esque")


def eponym_forms(name: str) -> dict[str, str]:
    """The adjectives and nouns a person's name may form by the regular endings, each with its ending: "Freud" ->
    "Freudian", "Marx" -> "Marxist", "Marxism", "Thatcher" -> "Thatcherite", "Napoleon" -> "Napoleonic", "Euclid" ->
    "Euclidean", "Shakespeare" -> "Shakespearean", "Victoria" -> "Victorian", "Kafka" -> "Kafkaesque"."""
    out = {name + end: end for end in _EPONYM_ENDINGS}
    if name[-1:] in "ae":
        out.update({name[:-1] + end: end for end in _EPONYM_ENDINGS if end[:1] in "aei"})
    if name[-1:] == "a":
        out[name + "n"] = "an"
    return out


def _link_eponyms(table: Table, present: Callable[[str], bool]) -> list[Entity]:
    """Map the adjectives and nouns formed from a replaced person's name ("Freudian", "Marxists", "Thatcherism") to
    the new name with the same ending ("Gunargar Schen": "Schenian"), where NER mapped them on their own and, for a
    family name or a name of one word, also where it missed them; the new entities, if any. Never a form that names a
    country's people or is a word or name of its own ("Jordanian" beside "Michael Jordan", "Christian", "Julian")."""
    added: list[Entity] = []
    for ent in list(table.entities.values()):
        if ent.label != "PERSON":
            continue
        spans = parts(ent.surface)
        for i, (a, b) in enumerate(spans):
            name, key = ent.surface[a:b], norm(ent.surface[a:b])
            new = table.part_map.get(key)
            if new is None or len(name) < 4 or not name[:1].isupper() or not name[1:].islower():
                continue
            for form, end in eponym_forms(name).items():
                other = table.entities.get(norm(form))
                if other is None and (i < len(spans) - 1 or is_word(form) or is_known_name(form)
                                      or not present(form)):
                    continue  # "Edwardian" beside "Edward Smith": a given name's forms follow it only where found
                if other is not None and (other.label in ("GPE", "LOC", "FAC") or len(parts(other.surface)) > 1 or (
                        other.label == "PERSON" and (is_given_name(form) or is_known_name(form)))):
                    continue  # "Julian" of "Julian Assange" is a name of its own; NER's person "Keynesian" is none
                if norm(form) in table.keep or country_of(form) is not None or demonym_or_language(form):
                    continue
                _follow(table, form, (new[:-1] if new[-1:] in "aeiouy" and end[:1] in "aeiou" else new) + end, added)
    return added


def _link_people_forms(table: Table, present: Callable[[str], bool]) -> list[Entity]:
    """Map the words formed from a replaced people's or follower's word ("Catholicism" beside "Catholic",
    "Sovietisation" beside "Soviet", "Christianity" beside "Christians") to the new word with the same ending
    ("Tigic": "Tigicism"), and the words of an irregular faith (``places.FAITHS``) to one new follower's word, where the
    instance writes them, also where NER gave them a new word of their own: a reader sees one faith or people, and a
    real one never stays beside its replaced word. The new entities, if any."""
    added: list[Entity] = []
    for ent in list(table.entities.values()):
        new = table.part_map.get(ent.key)
        if (ent.label != "NORP" or new is None or len(parts(ent.surface)) != 1 or not ent.surface[:1].isupper()
                or not ent.surface[1:].islower() or not new[1:].islower()):
            continue
        surface = ent.surface
        if surface.endswith("s") and new.endswith("s") and norm(surface[:-1]) not in table.entities:
            surface, new = surface[:-1], new[:-1]  # "Christians" -> "Watenians": "Christianity" -> "Watenianity"
        for form, end in people_word_forms(surface).items():
            if not present(form) or norm(form) in table.keep:
                continue
            other = table.entities.get(norm(form))
            if other is not None and len(parts(other.surface)) > 1:
                continue
            _follow(table, form, (new[:-3] if new.endswith("ist") else new) + end, added)
    for faith in FAITHS:
        found = _faith_word(table, faith)
        if found is None:
            continue
        base, own = found
        for word, end in faith.items():
            form = word.capitalize()
            if word != own and present(form) and norm(form) not in table.keep:
                _follow(table, form, base + end, added)
    return added


_ADJECTIVE_ENDS = ("ish", "ic")


def _faith_word(table: Table, faith: Mapping[str, str]) -> tuple[str, str] | None:
    """The new word for one follower of ``faith`` (see ``places.FAITHS``), from the first of the faith's words the
    mapping replaced, less that word's ending ("Jews" -> "Dordians": "Dordian"), or less an adjective's ending where an
    adjective is the first ("Jewish" -> "Wusenish": "Wusen", so "Judaism" -> "Wusenism", not "Wusenishism"); with
    the adjective, which keeps its own new word, or "". None where the mapping replaced none."""
    for word, end in faith.items():
        new = table.part_map.get(norm(word))
        if new is None or not new[1:].islower() or norm(word) in table.keep:
            continue
        ending = next((a for a in _ADJECTIVE_ENDS if not end and word.endswith(a) and new.endswith(a)
                       and len(new) - len(a) >= 3), "")
        if ending:
            return new[:-len(ending)], word
        return (new[:len(new) - len(end)] if end and new.endswith(end) else new), ""
    return None


def _link_abbreviated(table: Table) -> None:
    """An abbreviated binomial's initial follows its genus: "E. coli" beside "Escherichia coli" becomes "A. keydo"
    beside "Abmun keydo"."""
    genera: dict[tuple[str, str], str] = {}
    for ent in table.entities.values():
        words = ent.surface.split()
        if ent.label == "TAXON" and len(words) >= 2 and words[0][:1].isupper() and not words[0].endswith("."):
            genera.setdefault((words[0][0], words[1]), words[0])
    for ent in table.entities.values():
        pair = abbreviation(ent.surface) if ent.label == "TAXON" else None
        genus = genera.get(pair) if pair is not None else None
        if pair is not None and genus is not None:
            new = table.compose(genus)
            if new[:1].isupper() and new != genus:
                table.own.setdefault(ent.key, {})[norm(pair[0])] = new[0]


def _link_given_initials(table: Table) -> None:
    """Initials before a family name follow the given names a person of that family has in full in the instance, in
    a person's name or inside another ("D. A. Russell", "Fort D. A. Russell" beside "David A. Russell" -> "P. F.
    Sallo", "Fort P. F. Sallo" beside "Pielo F. Sallo"; "J. Tillman" beside "Josh Tillman"): a reader still sees one
    person. The first such person in order of keys where several fit; none where the initials outnumber the given
    names ("J.R. Cash" beside "Johnny Cash")."""
    people = sorted((e for e in table.entities.values() if e.label == "PERSON"), key=lambda e: e.key)
    for ent in table.entities.values():
        words = [ent.surface[a:b] for a, b in parts(ent.surface)]
        first = _initials_from(ent, words)
        if first is None or norm(words[-1]) not in table.part_map:
            continue
        letters = "".join(w.replace(".", "") for w in words[first:-1])
        other = next((p for p in people if p is not ent and _named_in_full(p, words[-1], letters)), None)
        new = [w[:1] for w in table.compose(other.surface).split()[:len(letters)]] if other is not None else []
        if len(new) != len(letters) or not all(c.isupper() for c in new):
            continue
        for w in words[first:-1]:
            n = len(w.replace(".", ""))
            table.own.setdefault(ent.key, {})[norm(w)] = _dotted("".join(new[:n])) if n > 1 else new[0]
            new = new[n:]


def _initials_from(ent: Entity, words: Sequence[str]) -> int | None:
    """The index of the first of the initials before the family name that ends ``words`` (``ent``'s), after titles
    only or, in another's name than a person's, designators ("Fort D. A. Russell"); None where there are none or a
    given name comes before them ("Madeleine A. Paulson")."""
    first = len(words) - 1
    while first > 0 and (_DOTTED.fullmatch(words[first - 1]) or _capital_letter(words[first - 1])):
        first -= 1
    if first == len(words) - 1 or not all(w.casefold() in TITLES or ent.label != "PERSON" and _kept(w, i == 0)
                                          for i, w in enumerate(words[:first])):
        return None
    return first


def _named_in_full(person: Entity, family: str, letters: str) -> bool:
    """True where ``person`` is of ``family`` and has given names, one of them in full, that ``letters`` are the
    initials of ("David A. Russell" of "D. A.")."""
    given = [person.surface[a:b] for a, b in parts(person.surface)]
    named = given[:len(letters)]
    return (norm(given[-1]) == norm(family) and len(given) - 1 >= len(letters) and any(len(g) > 1 for g in named)
            and all(g[:1] == c for g, c in zip(named, letters, strict=True)))


def _capital_letter(word: str) -> bool:
    return len(word) == 1 and word.isupper() and word.isalpha()


def _link_initialisms(table: Table, invent: Callable[[str, str], str]) -> None:
    """An acronym of the instance that is the initialism of another name follows it ("PRI" -> "TCA"; "UK" and "U.K."
    beside "United Kingdom" -> "Brod Kingdom": "BK", "B.K."), where the new letters open with the same sound
    (``vowel_sound``) and are no real acronym of three letters or more ("IPA" or "CAT" for "ASA"), nor, of two (every
    pair of letters is some acronym), a dictionary word ("UM" for "UN" beside "United Marleisch"). Where the letters
    are such a word or acronym, the new word of the name's last replaced part is drawn again, if that part is the
    name's alone ("United Marleisch" -> "United Forsel", "UF"; "Oroon Valburgh Association", "OVA", -> "Oroon Witbert
    Association", "OWA")."""
    followed: set[str] = set()  # names letters follow already: drawn again, they would leave those letters behind
    spelled_out = {e.key: initials(e.surface) for e in table.entities.values()}
    for ent in table.entities.values():
        dotted = _DOTTED.fullmatch(ent.surface) is not None
        letters = ent.surface.replace(".", "") if dotted else ent.surface
        if not (letters.isupper() and letters.isalpha() and ent.key in table.part_map):
            continue
        named = [other for other in table.entities.values() if other is not ent and letters in spelled_out[other.key]]
        spelled = [other for other in named if letters not in other.surface.replace(".", "").split()]  # not "U.S."
        if len(spelled) == 1 or not spelled and named:  # "UN" beside "United Nations" and "United Nationals"
            other = (spelled or named)[0]  # stands for either
            fitting = _fitting_letters(table, ent.surface, letters, other)
            part = _redrawn(table, other) if not fitting and other.key not in followed else None
            if part is not None:
                key, word = part
                first = table.part_map[key]
                for _ in range(_REDRAWS):
                    table.part_map[key] = invent(_STYLE.get(other.label, "org"), word)
                    fitting = _fitting_letters(table, ent.surface, letters, other)
                    if fitting:
                        break
                else:
                    table.part_map[key] = first  # no draw made letters: the first word stays
            if not fitting and other.key not in followed:
                fitting = _describing_redrawn(table, ent.surface, letters, other, invent)
            if fitting:
                table.part_map[ent.key] = _dotted(fitting[0]) if dotted else fitting[0]
                followed.add(other.key)


def _describing_redrawn(table: Table, surface: str, letters: str, other: Entity,
                        invent: Callable[[str, str], str]) -> list[str]:
    """The letters that can stand for ``surface`` once the last word of ``other`` that says what it is (see
    ``_named_only``) changes in that name alone: to the word another name gave it, if that makes letters ("Physics" of
    "American Center for Physics" beside "American Institute of Physics"), else drawn up to ``_REDRAWS`` times; none,
    and the word stays, where no draw gives any. "Utah Transit Authority" ("UTA") -> "Chrien Transit Authority" makes
    "CTA", a real acronym; "Chrien Ablenz Authority" makes "CAA"."""
    words = [other.surface[a:b] for a, b in parts(other.surface)]
    word = next((words[i] for i in sorted(table.describing.get(other.key, ()), reverse=True)
                 if not _designator(words[i]) and norm(words[i]) not in table.part_map), None)
    if word is None:
        return []
    key = norm(word)
    drawn = next((given[key] for name, given in table.own.items() if name != other.key and key in given), None)
    own = table.own.setdefault(other.key, {})
    for draw in range(_REDRAWS + 1):  # first the word another name gave it, if any
        own[key] = drawn if drawn and not draw else invent(_STYLE.get(other.label, "org"), word)
        fitting = _fitting_letters(table, surface, letters, other)
        if fitting:
            return fitting
    del own[key]
    if not own:
        del table.own[other.key]
    return []


def _link_states(table: Table) -> None:
    """A state's code follows its name where the instance replaced that name too, as real codes do: its words'
    initials, else its first letter and a later one, the first pair not taken (``state_letters_taken``): "NY" beside
    "New York" -> "New Brodk" is "NB", "FL" beside "Florida Gators" -> "Fenburkel Gators" is "FN" ("FE" is a word);
    letters an initialism gave it stay where they are such a pair ("MS" beside "Mississippi State" -> "Fratsimouth
    State" is "FS"), the drawn letters where every pair is taken."""
    for ent in table.entities.values():
        name = us_states().get(ent.surface)
        if name is None or ent.key not in table.part_map or (renamed := table.compose(name)) == name:
            continue
        new = renamed.upper()
        words = new.split()
        pairs = [words[0][:1] + words[1][:1]] if len(words) > 1 else []
        pairs += [new[0] + c for c in new[1:]]
        current = table.part_map[ent.key]  # a name's initialism may stand for both: "FS" of "Fratsimouth State"
        if current in pairs and not state_letters_taken(current):
            continue
        used = set(table.part_map.values())
        fitting = (p for p in pairs if p.isalpha() and len(p) == 2 and p not in used and not state_letters_taken(p))
        letters = next(fitting, None)
        if letters is not None:
            table.part_map[ent.key] = letters


def _dotted(letters: str) -> str:
    """``letters`` written with full stops, as "U.S." is: "KR" -> "K.R."."""
    return ".".join(letters) + "."


_REDRAWS = 8
"""Draws of a name's part at most, for letters that follow the name and make no word nor real acronym."""


def _fitting_letters(table: Table, surface: str, letters: str, other: Entity) -> list[str]:
    """The initialisms of the new name of ``other`` that can stand for ``surface`` (``letters`` undotted)."""
    return sorted(n for n in initials(table.compose(other.surface)) if len(n) == len(letters) and n != letters
                  and vowel_sound(n) == vowel_sound(surface)
                  and (n.lower() not in web2_lexicon() if len(n) == 2 else not is_common(n, RARE_ZIPF)))


def _main_titles(table: Table, ent: Entity) -> list[str]:
    """The main titles of a work's title with a subtitle after a colon ("My Hero Academia" of "My Hero Academia: Two
    Heroes"): the work is named by it alone too, also in a question without capitals ("when does the new my hero
    academia movie come out?"). Only a main title of two words or more with a replaced word that is no designator
    ("Chapter One" of "Chapter One: Dawn" names nothing)."""
    if ent.label not in ("TITLE", "WORK_OF_ART"):
        return []
    out = []
    for s in ent.surfaces:
        head = s.split(": ", 1)[0].strip("\"'“”‘’ ") if ": " in s else ""
        words = [head[a:b] for a, b in parts(head)]
        if len(words) >= 2 and any(norm(w) in table.part_map and w.casefold() not in GENERIC for w in words):
            out.append(head)
    return out


def _redrawn(table: Table, ent: Entity) -> tuple[str, str] | None:
    """The key and the word of the last part of ``ent`` that may be drawn again: capitalised, replaced in the shared
    mapping, and in no other name nor a form linked to a place ("European" of "Europe")."""
    if ent.label in ("PERSON", "TITLE", "WORK_OF_ART") or ent.key in table.own:
        return None
    words = [ent.surface[a:b] for a, b in parts(ent.surface)]
    last = next((w for w in reversed(words) if norm(w) in table.part_map), None)
    if last is None or not last[:1].isupper() or last.isupper() or norm(last) in table.entities:
        return None
    shared = any(e is not ent and norm(last) in {norm(e.surface[a:b]) for a, b in parts(e.surface)}
                 for e in table.entities.values())
    return None if shared else (norm(last), last)


_RANK = {"exact": 0, "word": 0, "surname": 0, "part": 1, "proper": 2}


def _add_partial_aliases(table: Table, ent: Entity) -> None:
    """Aliases for parts of ``ent`` alone: its surname (a person's last word) and each mapped part."""
    words = [ent.surface[a:b] for a, b in parts(ent.surface)]
    forms = []
    if ent.label == "PERSON" and len(ent.surface.split()) > 1:
        last_word = ent.surface.split()[-1]
        if any(norm(last_word[a:b]) in table.part_map for a, b in parts(last_word)):
            surname = re.sub(r"['’]s$", "", last_word)  # "May" of "Theresa May" is a name only where the name
            forms.append((surname, "proper" if surname.casefold() in MONTHS_DAYS else "surname"))  # test says so
    forms += [(w, "proper" if ordinary(w) else "part") for w in words if norm(w) in table.part_map]
    for form, mode in forms:
        if len(form) < 3 or norm(form) in table.forced:
            continue
        lower = (shape(form).lower(),) if mode != "proper" and not is_common(form, RARE_ZIPF) else ()
        for variant in (shape(form), shape(form).upper()) + lower:  # "kwanzas" after "Kwanza": a rare word
            known = table.aliases.get(variant)
            if norm(variant) not in table.aliases and (known is None or _RANK[mode] < _RANK[known[1]]):
                table.aliases[variant] = (ent.key, mode)
