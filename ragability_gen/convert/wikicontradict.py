"""Converters for the WikiContradict release: the RAG-QA CSV and the JSON layout of the paper's Appendix E.

Both layouts are read into :class:`Question` records (one question over a passage pair, with the place
it came from); the same code then checks them, applies filters and the same-passage policy, groups them
by passage pair and builds canonical instances. The mapping (columns, contradiction types ->
annotations and tags, reasoning types, same-passage policy) lives in ``converters/wikicontradict.hjson``
and ``converters/wikicontradict-json.hjson``; the comments there say what each choice means.

Converter options (``read_instances(path, spec, **options)``):
    conflict: "explicit" or "implicit" -- keep only that kind of contradiction.
    passages: "different" -- keep only rows whose two statements are in different passages.
    samepassage: "exclude" or "error" -- override the spec's same-passage policy.
    bad_rows: "error" or "exclude" -- override the spec's handling of bad rows.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ragability_gen.convert.core import ConvertSummary
from ragability_gen.core.model import Answer, Context, Instance, Provenance
from ragability_gen.core.specs import Spec
from ragability_gen.errors import InputError, SpecError

OPTIONS: dict[str, tuple[str, ...]] = {
    "conflict": ("explicit", "implicit"),
    "passages": ("different",),
    "samepassage": ("exclude", "error"),
    "bad_rows": ("error", "exclude"),
}

REQUIRED = ("question_id", "question", "context1", "context2", "answer1", "answer2", "contradict_type",
            "samepassage")
REVISED = ("revised_context1", "revised_context2", "revised_answer")
_WS = re.compile(r"\s+")


def _norm(text: str) -> str:
    return _WS.sub(" ", text).strip()


@dataclass
class Question:
    """One question over a passage pair, as read from either layout.

    Attributes:
        where: Prefix naming file and row for messages, e.g. ``"wc.csv: row 3 (question_ID 24, line 4)"``.
        row: The row alone, e.g. ``"row 3"``, to refer back to it.
        names: Logical field -> how messages name it (``"column contradictType"``), in the order
            problems are reported.
        line: Physical line (CSV) or record number (JSON), for provenance.
        values: Logical field -> cell text (question, context1, ..., see REQUIRED and REVISED).
        type_i: Contradict type I values (empty when the input has none).
        problems: (field, message, reason) found while reading.
    """

    where: str
    row: str
    names: dict[str, str]
    line: int
    values: dict[str, str]
    type_i: list[str] = field(default_factory=list)
    problems: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def qid(self) -> str:
        return self.values["question_id"].strip()

    def message(self, fld: str, what: str) -> str:
        return f"{self.where}, {self.names.get(fld, fld)}: {what}"


class _Mapping:
    """The spec's mapping sections, checked and compiled once per conversion."""

    def __init__(self, spec: Spec):
        where = str(spec.path)
        problems: list[str] = []
        self.types: dict[str, dict[str, Any]] = {}
        for entry in spec["contradict_types"]:
            for value in [entry["value"], *entry.get("aliases", [])]:
                key = _norm(value).casefold()
                if key in self.types:
                    problems.append(f"{where}: field contradict_types: value {value!r} is given twice")
                self.types[key] = entry
        self.type_names = ", ".join(e["value"] for e in spec["contradict_types"])
        sp = spec["samepassage"]
        self.same = {_norm(v).casefold() for v in sp["same"]}
        self.different = {_norm(v).casefold() for v in sp["different"]}
        self.samepassage_names = ", ".join([*sp["same"], *sp["different"]])
        self.passage_tags = sp.get("tags", {})
        r = spec["reasoning"]
        self.type_i_rules = [(x["match"].casefold(), x["reasoning"], x.get("tag")) for x in r["type_i_rules"]]
        self.type_i_known = [k.casefold() for k in r["type_i_known"]]
        self.type_i_other = (r["type_i_other"]["reasoning"], r["type_i_other"].get("tag"))
        self.answer_rules = []
        for i, x in enumerate(r["answer_rules"]):
            try:
                self.answer_rules.append((re.compile(x["pattern"]), x["reasoning"]))
            except re.error as e:
                problems.append(f"{where}: field reasoning/answer_rules/{i}/pattern: bad pattern: {e}")
        self.answer_default = r["answer_default"]
        self.guessed_tag = r.get("guessed_tag")
        if problems:
            raise SpecError(problems)

    def reasoning(self, q: Question) -> tuple[list[str], list[str], bool] | str:
        """(reasoning types, tags, guessed) for a question, or a problem message."""
        types: list[str] = []
        tags: list[str] = []
        for value in q.type_i:
            low = value.casefold()
            hits = [(r, t) for m, r, t in self.type_i_rules if m in low]
            if not hits:
                if not any(k in low for k in self.type_i_known):
                    return f"unknown contradiction type I value {value!r}"
                hits = [self.type_i_other]
            for r, t in hits:
                types.append(r)
                if t:
                    tags.append(t)
        if types:
            return list(dict.fromkeys(types)), list(dict.fromkeys(tags)), False
        a1, a2 = q.values["answer1"], q.values["answer2"]
        for rx, r in self.answer_rules:
            if rx.search(a1) and rx.search(a2):
                return [r], [], True
        return [self.answer_default], [], True


def _settings(spec: Spec, options: dict[str, Any]) -> dict[str, str | None]:
    """Options (already checked against OPTIONS by read_instances) over the spec's defaults."""
    return {
        "conflict": options.get("conflict"),
        "passages": options.get("passages"),
        "samepassage": options.get("samepassage") or spec["samepassage"]["policy"],
        "bad_rows": options.get("bad_rows") or spec.get("bad_rows", "error"),
    }


def _check(q: Question, m: _Mapping) -> list[tuple[str, str, str]]:
    """Every problem of one question: (field, message, reason)."""
    out = list(q.problems)
    v = q.values
    for f in REQUIRED:
        if not v.get(f, "").strip():
            out.append((f, "must not be empty", f"empty {f}"))
    ctype = v["contradict_type"]
    if ctype.strip() and _norm(ctype).casefold() not in m.types:
        out.append(("contradict_type", f"unknown contradiction type {ctype!r} (known: {m.type_names})",
                    "unknown contradiction type"))
    sp = v["samepassage"]
    if sp.strip() and _norm(sp).casefold() not in m.same | m.different:
        out.append(("samepassage", f"unknown value {sp!r} (known: {m.samepassage_names})",
                    "unknown samepassage value"))
    given = [f for f in REVISED if v.get(f, "").strip()]
    if given:
        for f in REVISED:
            if f not in given:
                out.append((f, f"must not be empty when {q.names.get(given[0], given[0])} is given",
                            "incomplete revised passages"))
    found = m.reasoning(q)
    if isinstance(found, str):
        out.append(("contradict_type_i", found, "unknown contradiction type I value"))
    order = {f: i for i, f in enumerate(q.names)}
    return sorted(out, key=lambda p: order.get(p[0], len(order)))


def _id_key(qid: str) -> tuple[int, int, str]:
    return (0, int(qid), "") if qid.isdigit() else (1, 0, qid)


def build_instances(questions: list[Question], spec: Spec, options: dict[str, Any],
                    summary: ConvertSummary) -> list[Instance]:
    """Check, filter, group and convert questions read from either layout; see the module docstring.

    Raises:
        InputError: one line per problem when a row is bad (and bad rows are errors) or a
            same-passage row is met under the ``error`` policy.
    """
    settings = _settings(spec, options)
    m = _Mapping(spec)
    valid = _valid_questions(questions, m, settings["bad_rows"], summary)
    builder = _Builder(spec, m, settings, _contradiction_ids(valid, summary), summary)
    instances = [inst for q in valid if (inst := builder.add(q)) is not None]
    if builder.problems:
        raise InputError(builder.problems)
    if builder.guessed:
        summary.warnings.append(f"reasoning type guessed from the answers for {builder.guessed} instances (the "
                                "input has no Contradict type I); they are tagged "
                                f"{m.guessed_tag or 'nothing'}")
    summary.instances = len(instances)
    return instances


def _valid_questions(questions: list[Question], m: _Mapping, bad_rows: str | None,
                     summary: ConvertSummary) -> list[Question]:
    """The questions without problems (duplicate question_IDs included); the others raise or are excluded."""
    problems: list[str] = []
    valid: list[Question] = []
    first_row: dict[str, str] = {}
    for q in questions:
        found = _check(q, m)
        if q.qid:
            if q.qid in first_row:
                found.append(("question_id", f"duplicate question_ID, first in {first_row[q.qid]}",
                              "duplicate question_ID"))
            else:
                first_row[q.qid] = q.row
        if not found:
            valid.append(q)
        elif bad_rows == "error":
            problems += [q.message(f, what) for f, what, _ in found]
        else:
            summary.excluded[f"bad row: {found[0][2]}"] += 1
            summary.warnings += [f"excluded {q.message(f, what)}" for f, what, _ in found]
    if problems:
        raise InputError(problems)
    return valid


def _pair(q: Question) -> tuple[str, str]:
    return _norm(q.values["context1"]), _norm(q.values["context2"])


def _contradiction_ids(valid: list[Question], summary: ConvertSummary) -> dict[tuple[str, str], str]:
    """Passage pair -> contradiction_ID: the smallest question_ID of all valid rows with it, before any filter."""
    pair_id: dict[tuple[str, str], str] = {}
    for q in valid:
        key = _pair(q)
        if key not in pair_id or _id_key(q.qid) < _id_key(pair_id[key]):
            pair_id[key] = q.qid
    for (a, b), cid in pair_id.items():
        if a != b and (b, a) in pair_id and _id_key(cid) < _id_key(pair_id[(b, a)]):
            summary.warnings.append(f"{summary.source}: contradiction_ID {pair_id[(b, a)]} has the passages "
                                    f"of contradiction_ID {cid} in reverse order; kept apart")
    return pair_id


class _Builder:
    """Turns valid questions, in order, into instances: filters, same-passage policy, grouping by pair."""

    def __init__(self, spec: Spec, m: _Mapping, settings: dict[str, str | None],
                 pair_id: dict[tuple[str, str], str], summary: ConvertSummary):
        self.spec, self.m, self.settings, self.pair_id, self.summary = spec, m, settings, pair_id, summary
        self.problems: list[str] = []
        self.guessed = 0
        self.first_kept: dict[str, Question] = {}
        self.seen_questions: dict[tuple[tuple[str, str], str], str] = {}
        self.variations: Counter[str] = Counter()

    def add(self, q: Question) -> Instance | None:
        """The question's instance, or None when it is excluded (counted) or breaks the policy (recorded)."""
        entry = self.m.types[_norm(q.values["contradict_type"]).casefold()]
        reason = self._exclusion(q, entry)
        if reason is not None:
            if reason:
                self.summary.excluded[reason] += 1
            return None
        self.seen_questions[(_pair(q), _norm(q.values["question"]))] = q.qid
        cid = self._group(q)
        derived = self.m.reasoning(q)
        assert not isinstance(derived, str)  # checked by _check
        reasoning, type_tags, was_guessed = derived
        self.guessed += was_guessed
        return _instance(q, cid, self.variations[cid], entry, reasoning, type_tags, was_guessed, self.m, self.spec,
                         Provenance(self.summary.source, q.line, self.spec.name, self.spec))

    def _exclusion(self, q: Question, entry: dict[str, Any]) -> str | None:
        """Why the question is left out (None: kept; "": a policy error, recorded in ``problems``)."""
        settings, v = self.settings, q.values
        same_label = _norm(v["samepassage"]).casefold() in self.m.same
        key = _pair(q)
        one_passage = same_label or key[0] == key[1]
        if settings["conflict"] and entry["kind"] != settings["conflict"]:
            return f"filter: {settings['conflict']} conflicts only"
        if one_passage and settings["passages"] == "different":
            return "filter: different passages only"
        if one_passage:
            why = ("samepassage = Same" if same_label
                   else "context1 equals context2 (although samepassage = Different)")
            if settings["samepassage"] == "error":
                self.problems.append(q.message("samepassage", f"{why}: one passage holds both statements, so "
                                               "each context alone already holds the conflict (policy error)"))
                return ""
            return f"{why}: one passage holds both statements (policy exclude)"
        first = self.seen_questions.get((key, _norm(v["question"])))
        if first is not None:
            self.summary.warnings.append(q.message("question", "same question over the same passages as "
                                                   f"question_ID {first}"))
            return "duplicate question over the same passage pair"
        return None

    def _group(self, q: Question) -> str:
        """The question's contradiction_ID; counts it as merged (warning on white-space-only differences)."""
        cid = self.pair_id[_pair(q)]
        first = self.first_kept.setdefault(cid, q)
        if first is not q:
            self.summary.merged += 1
            if (first.values["context1"], first.values["context2"]) != (q.values["context1"], q.values["context2"]):
                self.summary.warnings.append(f"{self.summary.source}: question_ID {q.qid} has the passages of "
                                             f"question_ID {first.qid} up to white space; both are in "
                                             f"contradiction_ID {cid}")
        self.variations[cid] += 1
        return cid


def _instance(q: Question, cid: str, variation: int, entry: dict[str, Any], reasoning: list[str],
              type_tags: list[str], guessed: bool, m: _Mapping, spec: Spec, prov: Provenance) -> Instance:
    v = q.values
    ann = entry["annotations"]
    contexts = {
        "1": Context("1", v["context1"], ann["c1xq"], "1"),
        "2": Context("2", v["context2"], ann["c2xq"], "2", contradicts=("1",)),
    }
    answers = {"1": Answer(v["answer1"], v["answer1"]), "2": Answer(v["answer2"], v["answer2"])}
    tags = list(entry["tags"])
    if m.passage_tags.get("different"):
        tags.append(m.passage_tags["different"])
    tags += type_tags
    if guessed and m.guessed_tag:
        tags.append(m.guessed_tag)
    if v.get("revised_context1", "").strip():
        contexts["1r"] = Context("1r", v["revised_context1"], ann["c1xq"], "r", agrees=("2r",))
        contexts["2r"] = Context("2r", v["revised_context2"], ann["c2xq"], "r", agrees=("1r",))
        answers["r"] = Answer(v["revised_answer"], v["revised_answer"])
        if spec.get("revised_tag"):
            tags.append(spec["revised_tag"])
    names = spec["metadata"]
    metadata = {names[f]: v[f] for f in ("contradict_type", "samepassage", "title", "url")
                if f in names and f in v}
    if q.type_i and "contradict_type_i" in names:
        metadata[names["contradict_type_i"]] = "; ".join(q.type_i)
    return Instance(
        id=cid, query=v["question"], contexts=contexts, answers=answers, reasoning=tuple(reasoning),
        source_ids={spec["source_id"]: q.qid}, metadata=metadata, tags=tuple(dict.fromkeys(tags)),
        provenance=prov, variation=variation,
    )
