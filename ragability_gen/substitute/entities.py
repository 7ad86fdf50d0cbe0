"""Entities of one instance: which NER mentions count, what each becomes, and where each is mentioned.

Names are replaced part by part: every distinctive part ("Lusitania", "D'Oyly", "Tobolsk") gets one
invented part per instance, and generic parts ("RMS", "Sea", "University", "of", "Sir") stay. So
"Tobolsk" and "Tobolsk Viceroyalty" stay linked ("Dremsk", "Dremsk Viceroyalty"), a surname alone
follows the full name, and "RMS Lusitania" keeps reading like a ship.

Where a name is replaced (aliases, longest first, word-bounded):
- every entity string NER found in any field, in every field, case-insensitively (case style kept);
- a person's surname alone, as written or in capitals;
- any other distinctive part alone (a given name, "Lusitania" of "RMS Lusitania"), as written or in
  capitals; if the part is an ordinary English word, only where it is a name (capitalised where no
  sentence starts, or tagged a proper noun), so "Will" the name changes, "will" and "Will they ...?"
  do not.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from dataclasses import replace as _with

from .kinds import initials
from .names import RARE_ZIPF, VERY_COMMON_ZIPF, is_common, is_known_name, is_surname
from .places import country_of, sibling_forms
from .words import label_cell, never_name, sentence_start, unit_at

ENTITY_TYPES = ("PERSON", "NORP", "FAC", "ORG", "GPE", "LOC", "PRODUCT", "EVENT", "WORK_OF_ART", "LAW",
                "LANGUAGE", "PROPN", "TAXON", "SCRIPT")
"""Labels of the names that are replaced, in the order their parts get a style (persons first): spaCy's
entity labels, PROPN for proper nouns the NER model missed (see ``propn_mentions``), and TAXON and SCRIPT
for binomials and non-Latin or IPA renderings (see ``kinds``)."""
_STYLE = {"PERSON": "family", "NORP": "demonym", "LANGUAGE": "demonym", "GPE": "place", "LOC": "place",
          "FAC": "place", "SCRIPT": "place"}

FUNCTION = frozenset("of the and & de la le les du des der den van von da di del della y al el bin ibn for on in "
                     "at upon to a an all".split())
TITLES = frozenset("mr mrs ms miss dr prof professor sir dame lord lady king queen prince princess duke duchess "
                   "count countess baron baroness baronet earl bishop archbishop pope saint st father brother "
                   "sister president general colonel captain admiral senator governor emperor empress patriarch "
                   "archpriest rev reverend cardinal chief judge justice major lieutenant sergeant marshal sultan "
                   "shah tsar czar khan rabbi imam sheikh mayor minister chancellor".split())
SUFFIXES = frozenset("jr sr jnr snr".split())
GENERIC = frozenset("""
    sea ocean river lake bay gulf strait island islands isle mountain mountains mount mt hill hills valley desert
    forest park peninsula cape coast canal falls creek glacier plain plains basin vale glen heights springs beach
    point ridge pass marsh marshes canyon dam reservoir lighthouse
    north south east west northern southern eastern western central upper lower new old great little free
    city town village county province state states district region republic kingdom empire federation union
    territory viceroyalty duchy principality
    street road avenue square lane bridge tower castle fort palace cathedral church chapel abbey temple mosque
    monastery museum library gallery zoo garden gardens airport station terminus port harbour harbor hall house
    building stadium arena theatre theater hospital clinic center centre school college university institute
    academy observatory laboratory laboratories railway railways
    company corporation corp inc ltd llc plc group sons brothers partners associates bank club team party council
    committee commission court parliament congress senate army navy force forces ministry department office
    agency society association foundation trust board guild order league united national international royal
    federal senior junior airlines airways motors works
    weekly daily express superfast times post news press review journal gazette herald tribune chronicle magazine
    radio television network studios orchestra choir ensemble
    war battle siege treaty act law convention agreement accord conference revolution rebellion uprising campaign
    expedition crisis championship championships cup final games festival award prize tournament marathon derby
    open time bill code charter constitution amendment statute decree edict resolution directive regulation
    rms hms uss ss mv hmas
    """.split())
"""Designators kept as they are inside names ("RMS Lusitania", "Tobolsk Viceroyalty", "Free City of Oskel")."""
_MONTHS_DAYS = frozenset("january february march april may june july august september october november december "
                         "monday tuesday wednesday thursday friday saturday sunday".split())
_PART = re.compile(r"(?:[^\W\d_]\.){2,}|[^\W_]+(?:['’][^\W_]+)*")
_DOTTED = re.compile(r"(?:[^\W\d_]\.){2,}")
_PARTICLE = re.compile(r"(?:d|l|dell|dall|de)['’](?=[^\W\d_])")
_ROMAN = re.compile(r"(?=[IVXLC])C{0,3}(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})")
_TRAIL = re.compile(r"(?:['’]s|['’]|[^\w.]+|(?<=[^\W\d_]{2})\.)$")


_SHAPE = str.maketrans({"’": "'", "–": "-", "—": "-"})


def shape(text: str) -> str:
    """``text`` with one apostrophe, one dash and single spaces: how alias spellings are compared."""
    return " ".join(text.translate(_SHAPE).split())


def norm(text: str) -> str:
    """The key two spellings of one name share: ``shape`` and case-folded."""
    return shape(text).casefold()


def parts(text: str) -> list[tuple[int, int]]:
    """Spans of the name parts of ``text``; a lower-case particle ("d'" in "d'Albret") is no part."""
    out = []
    for m in _PART.finditer(text):
        start, word = m.start(), m[0]
        p = _PARTICLE.match(word)
        if p:
            start, word = start + p.end(), word[p.end():]
        if re.search(r"['’]s$", word) and len(word) > 3:
            word = word[:-2]
        out.append((start, start + len(word)))
    return out


def ordinary(word: str) -> bool:
    """True for a word that is more likely an ordinary English word than a name: common in English, and
    either very common ("White", "Will") or no given, family or place name ("Liberal"; not "Amber",
    "Rodriguez", which are common in wordfreq's case-blind counts because they are frequent names)."""
    return is_common(word) and (is_common(word, VERY_COMMON_ZIPF) or not is_known_name(word))


def _kept(part: str, first: bool, person: bool = False) -> bool:
    """True for a part that stays as it is: an initial, particle, title, number, lower-case word, a
    Roman numeral after the first part, or a designator, unless in a person's name it is also a known
    family name ("Damon Hill"; but "Castle Donington", which NER may call a person, keeps "Castle")."""
    low = part.casefold()
    return (len(part) == 1 or low in FUNCTION or low in TITLES or low in SUFFIXES
            or (never_name(part) and not (person and is_known_name(low)))
            or (low in GENERIC and not (person and is_surname(low)))
            or any(c.isdigit() for c in part) or part[:1].islower()
            or (not first and _ROMAN.fullmatch(part) is not None))


def styled(new: str, old: str) -> str:
    """``new`` in the case style of ``old``: capitals stay capitals, lower case stays lower case."""
    if len(old) > 1 and old.isupper() and not new.isupper():
        return new.upper()
    if old.islower():
        return new.lower()
    return new


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


def trim(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The name inside an NER span: without leading articles, numbers and lower-case words, and without
    trailing lower-case words, a possessive or punctuation; None when nothing is left."""
    words = [(start + m.start(), start + m.end()) for m in re.finditer(r"\S+", text[start:end])]

    def core(a: int, b: int) -> str:
        return text[a:b].strip("\"'“”‘’()[],;:!?")

    def lower(a: int, b: int) -> bool:  # "l'amène", "nom"; not "d'Albret", not "98"
        return any(c.isalpha() for c in text[a:b]) and not any(c.isupper() for c in text[a:b])

    while words and (not core(*words[0]) or core(*words[0]).casefold() in ("the", "a", "an")
                     or any(c.isdigit() for c in text[slice(*words[0])]) or lower(*words[0])):
        words.pop(0)
    while words and (not core(*words[-1]) or lower(*words[-1])):
        words.pop()
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


class NameTest:
    """Whether a capitalised word at an offset of ``text`` is a name.

    It is when capitalised where no sentence starts, or else when tagged a proper noun. ``proper``
    gives the proper-noun token spans; it is only called (and the tagger only run) when a decision
    needs the tag.
    """

    def __init__(self, text: str, proper: Callable[[], Sequence[tuple[int, int]]]):
        self.text = text
        self.proper = proper

    def tagged(self, pos: int) -> bool:
        """True when the tagger calls the token at ``pos`` a proper noun."""
        spans = self.proper()
        i = bisect_right(spans, (pos, float("inf"))) - 1
        return i >= 0 and pos < spans[i][1]

    def __call__(self, pos: int) -> bool:
        if sentence_start(self.text, pos):
            return self.tagged(pos) and not self.in_label(pos)
        return not self.in_label(pos)

    def in_label(self, pos: int) -> bool:
        """True when the word at ``pos`` is an ordinary word filling a table cell or a label."""
        m = _PART.match(self.text, pos)
        return m is not None and ordinary(m[0]) and label_cell(self.text, pos, m.end())


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
    out = [] if "PROPN" not in wanted else propn_mentions(field_name, text, ents, capitals, is_name)
    for s, e, label in ents:
        if label not in wanted:
            continue
        span = trim(text, s, e)
        if span is None:
            continue
        s, e = span
        ps = [(s + a, s + b) for a, b in parts(text[s:e])]
        words = [text[a:b] for a, b in ps]
        if not any(w[:1].isalpha() for w in words):
            continue
        if len(words) == 1 and (words[0].casefold() in _MONTHS_DAYS or _kept(words[0], True) or unit_at(text, s, e)):
            continue
        content = [w for w in words if not _kept(w, False)]
        if not content or (all(ordinary(w) for w in content) and label_cell(text, s, e)):
            continue  # "Second", "Their", a table header "Total Distance", a key "Born:"
        if len(words) == 1 and label not in ("NORP", "LANGUAGE"):
            if not words[0][:1].isupper():
                continue
            if ordinary(words[0]) and not is_known_name(words[0]):  # "Distance", "Winner": a name only where a
                # capital says so and the tagger agrees ("France" and "Will" are known names: as before)
                if not sentence_start(text, s) and is_name.tagged(s):
                    out.append(Mention(field_name, s, e, text[s:e], label))
            elif not is_common(words[0], VERY_COMMON_ZIPF) or is_name.tagged(s):
                out.append(Mention(field_name, s, e, text[s:e], label))
            continue
        caps = sorted(((a, b) for a, b in ps if text[a].isupper()), key=lambda ab: sentence_start(text, ab[0]))
        if any(not ordinary(text[a:b]) or is_name(a) for a, b in caps):  # cheap tests first
            out.append(Mention(field_name, s, e, text[s:e], label))
    return out


def propn_mentions(field_name: str, text: str, ents: Iterable[tuple[int, int, str]],
                   capitals: Sequence[tuple[int, int]], is_name: NameTest) -> list[Mention]:
    """Proper nouns the NER model missed ("Tipperary", "the Pembly shrike"), labelled PROPN.

    A run of adjacent capitalised tokens outside every name span (spans NER labelled DATE, CARDINAL
    and so on do not count: "Tipperary" labelled DATE is still a name) counts when its first word is a
    name by ``is_name``, it has no digits and no month, and one of its words other than designators,
    titles and initials is not a common English word ("Buildings A", "Located", "Liberal" are no
    names; wordfreq's counts are case-blind, so a well-known name such as "Dublin" counts as common
    too and is left to NER).
    """
    covered = [(s, e) for s, e, label in ents if label in ENTITY_TYPES]
    runs: list[list[int]] = []
    for a, b in capitals:
        if any(s <= a < e for s, e in covered):
            continue
        if runs and text[runs[-1][1]:a].strip() == "" and "\n" not in text[runs[-1][1]:a]:
            runs[-1][1] = b
        else:
            runs.append([a, b])
    out = []
    for a, b in runs:
        span = trim(text, a, b)
        if span is None:
            continue
        s, e = span
        words = [text[s + x:s + y] for x, y in parts(text[s:e])]
        content = [w for w in words if not _kept(w, True)]
        if (any(c.isdigit() for c in text[s:e]) or any(w.casefold() in _MONTHS_DAYS for w in words)
                or all(ordinary(w) for w in content)):
            continue
        if is_name(s):
            out.append(Mention(field_name, s, e, text[s:e], "PROPN"))
    return out


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
            entity string of ordinary words, as written or in capitals: "London" but not "london"), "surname",
            "part" (another part, not a common word) and "proper" (a part that is a common word: only
            where it is a name by ``NameTest``); all but "full" match as written or in capitals.
    """

    entities: dict[str, Entity] = field(default_factory=dict)
    part_map: dict[str, str] = field(default_factory=dict)
    forced: set[str] = field(default_factory=set)
    aliases: dict[str, tuple[str, str]] = field(default_factory=dict)
    regex: re.Pattern[str] | None = None

    def replaced_parts(self, text: str, at: int = 0) -> list[tuple[int, int, str]]:
        """(start, end, new part) for every mapped part of ``text`` (offsets plus ``at``), in its case style."""
        out = []
        for a, b in parts(text):
            new = self.part_map.get(norm(text[a:b]))
            if new is not None:
                out.append((at + a, at + b, styled(new, text[a:b])))
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
        are no common word (as written or in capitals)."""
        if self.regex is None:
            return []
        return sorted({m[0] for m in self.regex.finditer(text) if self._lookup(m["name"])[1] not in ("", "proper")})

    def matches(self, text: str, is_name: Callable[[int], bool] | None = None) -> list[Hit]:
        """Every alias mention in ``text`` whose replacement differs from it.

        Args:
            is_name: Whether the capitalised word at an offset is a name (see ``NameTest``); "proper"
                aliases need it.
                None accepts every mention (for text the tagger has not seen).
        """
        if self.regex is None:
            return []
        out = []
        for m in self.regex.finditer(text):
            found = m["name"]  # without a plural ending: "Habsburgs" is a form of "Habsburg"
            key, mode = self._lookup(found)
            if not key or (mode == "proper" and is_name is not None and not is_name(m.start())):
                continue
            edits = self.replaced_parts(found, m.start())
            if edits:
                out.append(Hit(m.start(), m.end(), self.compose(found) + m["suffix"], key, tuple(edits)))
        return out


@dataclass(frozen=True)
class Hit:
    """One replaced mention: its span, its new text, the entity it names, and the part edits."""

    start: int
    end: int
    new: str
    key: str
    parts: tuple[tuple[int, int, str], ...]


def build_table(found: Sequence[Mention], invent: Callable[[str, str], str],
                present: Callable[[str], bool] = lambda form: False) -> Table:
    """The mapping for the mentions of one instance; ``invent(style, original part)`` makes new parts.

    ``present`` tells whether a form occurs in the instance: the other forms of a replaced country
    that do ("French", "FRA" beside "France") are mapped with it (see ``places``).
    """
    table = Table()
    by_key: dict[str, list[Mention]] = {}
    for m in found:
        by_key.setdefault(norm(m.text), []).append(m)
    for key in [k for k in by_key if re.search(r"[^\W\d_]s$", k)]:  # "Habsburgs" is a form of "Habsburg"
        base = next((b for b in (key[:-1], key[:-2]) if b in by_key and b != key), None)
        if base is not None:
            by_key[base] += [_with(m, text=m.text[:len(m.text) - len(key) + len(base)])
                             for m in by_key.pop(key)]
    order = {label: i for i, label in enumerate(ENTITY_TYPES)}
    for key, ms in by_key.items():
        labels = Counter(m.label for m in ms)
        if len(labels) > 1:
            labels.pop("PROPN", None)
        label = min(labels, key=lambda lab: (-labels[lab], order[lab]))
        surfaces = Counter(m.text for m in ms)
        surface = min(surfaces, key=lambda s: (-surfaces[s], s))
        table.entities[key] = Entity(key, label, surface, sorted(surfaces))
    ranked = sorted(table.entities.values(), key=lambda e: (order[e.label], -len(parts(e.surface)), e.key))
    for ent in ranked:
        if not _map_parts(table, ent, invent):
            del table.entities[ent.key]
    ranked = [e for e in ranked if e.key in table.entities]
    ranked += _link_places(table, present, invent)
    _link_initialisms(table)
    spelled: dict[str, str] = {}  # a full alias's key -> a spelling (a case-folded key may not match: "ß")
    for ent in ranked:
        for s in ent.surfaces:
            if _exact(s):
                for variant in (shape(s), shape(s).upper()):  # "London", never "london"; "Turkey", not "turkey"
                    table.aliases.setdefault(variant, (ent.key, "exact"))
                continue
            table.aliases[norm(s)] = (ent.key, "full")
            spelled.setdefault(norm(s), s)
    for ent in ranked:
        _add_partial_aliases(table, ent)
    if table.aliases:
        ci = [(a, f"(?i:{alias_pattern(spelled[a])})") for a, (_, mode) in table.aliases.items() if mode == "full"]
        cs = [(a, alias_pattern(a)) for a, (_, mode) in table.aliases.items() if mode != "full"]
        alts = [p for _, p in sorted(ci + cs, key=lambda ap: (-len(ap[0]), ap[0]))]
        table.regex = re.compile(r"(?<!\w)(?P<name>" + "|".join(alts) + r")(?P<suffix>(?:e?s)?)(?!\w)")
    return table


def _exact(surface: str) -> bool:
    """True for an entity string matched only as written or in capitals: ordinary words only ("Born",
    "Distance"), or one English word that is no known name ("Lynx": "lynx" is no name; "chile" is)."""
    words = [surface[x:y] for x, y in parts(surface)]
    if all(ordinary(w) or _kept(w, False) for w in words):
        return True
    return len(words) == 1 and not is_known_name(words[0]) and is_common(words[0], 1.0)


def _map_parts(table: Table, ent: Entity, invent: Callable[[str, str], str]) -> bool:
    """Give every distinctive part of ``ent`` an invented part; False when it has no part to replace."""
    words = [ent.surface[a:b] for a, b in parts(ent.surface)]
    person = ent.label == "PERSON"
    lead = next((i for i, w in enumerate(words) if w.casefold() not in TITLES), len(words))
    replace = [i for i, w in enumerate(words)  # a title after the name is a name: "Amanda Khan"
               if not _kept(w, i == 0, person) or (person and i > lead and w.casefold() in TITLES)]
    if ent.label in ("TAXON", "SCRIPT"):  # "Panthera leo": the lower-case epithet is as much a name as the genus
        replace = [i for i, w in enumerate(words) if len(w) > 1 and w.isalpha()]
    if not replace:  # a name of generic words only ("Government College University"): its first word changes
        first = next((i for i, w in enumerate(words)
                      if w[:1].isalpha() and w.casefold() not in FUNCTION and not never_name(w)), None)
        if first is None:
            return False
        replace = [first]
        table.forced.add(norm(words[first]))
    for i in replace:
        key = norm(words[i])
        if key in table.part_map:
            continue
        w = words[i]
        if _DOTTED.fullmatch(w):  # "U.S." -> "K.R."
            table.part_map[key] = ".".join(invent("acronym", w.replace(".", ""))) + "."
            continue
        if len(w) > 1 and w.isupper() and w.isalpha():
            style = "acronym"
        elif w[:1].islower():
            style = "lower"
        elif ent.label == "PERSON":
            style = "family" if i == replace[-1] else "given"
        else:
            style = _STYLE.get(ent.label, "org")
        table.part_map[key] = invent(style, w)
    return True


def _link_places(table: Table, present: Callable[[str], bool], invent: Callable[[str, str], str]) -> list[Entity]:
    """Map the sibling forms of every replaced country (demonym, name, code); the new entities, if any."""
    single = {e.key: table.part_map[e.key] for e in table.entities.values() if e.key in table.part_map}
    added = []
    for original, new in sibling_forms(present, single, lambda name: invent("place", name)).items():
        key = norm(original)
        table.part_map[key] = new
        if key not in table.entities:
            country = country_of(original)
            label = "ORG" if country and original == country.code else "NORP" if country and \
                original == country.demonym else "GPE"
            table.entities[key] = Entity(key, label, original, [original])
            added.append(table.entities[key])
    return added


def _link_initialisms(table: Table) -> None:
    """An acronym of the instance that is the initialism of another name follows it ("PRI" -> "TCA")."""
    for ent in table.entities.values():
        if not (ent.surface.isupper() and ent.surface.isalpha() and ent.key in table.part_map):
            continue
        for other in table.entities.values():
            if other is not ent and ent.surface in initials(other.surface):
                new = initials(table.compose(other.surface))
                fitting = sorted(n for n in new if len(n) == len(ent.surface))
                if fitting:
                    table.part_map[ent.key] = fitting[0]
                break


_RANK = {"exact": 0, "surname": 0, "part": 1, "proper": 2}


def _add_partial_aliases(table: Table, ent: Entity) -> None:
    """Aliases for parts of ``ent`` alone: its surname (a person's last word) and each mapped part."""
    words = [ent.surface[a:b] for a, b in parts(ent.surface)]
    forms = []
    if ent.label == "PERSON" and len(ent.surface.split()) > 1:
        last_word = ent.surface.split()[-1]
        if any(norm(last_word[a:b]) in table.part_map for a, b in parts(last_word)):
            forms.append((re.sub(r"['’]s$", "", last_word), "surname"))
    forms += [(w, "proper" if ordinary(w) else "part") for w in words if norm(w) in table.part_map]
    for form, mode in forms:
        if len(form) < 3 or norm(form) in table.forced:
            continue
        lower = (shape(form).lower(),) if mode != "proper" and not is_common(form, RARE_ZIPF) else ()
        for variant in (shape(form), shape(form).upper()) + lower:  # "kwanzas" after "Kwanza": a rare word
            known = table.aliases.get(variant)
            if norm(variant) not in table.aliases and (known is None or _RANK[mode] < _RANK[known[1]]):
                table.aliases[variant] = (ent.key, mode)
