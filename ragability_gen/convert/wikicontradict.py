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

import csv
import io
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ragability_gen.convert.core import ConvertSummary, register_converter
from ragability_gen.core.fileio import read_records
from ragability_gen.core.model import Answer, Context, Instance, Provenance
from ragability_gen.core.specs import Spec
from ragability_gen.core.table import read_table
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
        elif settings["bad_rows"] == "error":
            problems += [q.message(f, what) for f, what, _ in found]
        else:
            summary.excluded[f"bad row: {found[0][2]}"] += 1
            summary.warnings += [f"excluded {q.message(f, what)}" for f, what, _ in found]
    if problems:
        raise InputError(problems)

    # contradiction_ID: the smallest question_ID over all valid rows with the pair, before any filter
    pair_id: dict[tuple[str, str], str] = {}
    for q in valid:
        key = (_norm(q.values["context1"]), _norm(q.values["context2"]))
        if key not in pair_id or _id_key(q.qid) < _id_key(pair_id[key]):
            pair_id[key] = q.qid
    for (a, b), cid in pair_id.items():
        if a != b and (b, a) in pair_id and _id_key(cid) < _id_key(pair_id[(b, a)]):
            summary.warnings.append(f"{summary.source}: contradiction_ID {pair_id[(b, a)]} has the passages "
                                    f"of contradiction_ID {cid} in reverse order; kept apart")

    instances: list[Instance] = []
    first_kept: dict[str, Question] = {}
    seen_questions: dict[tuple[tuple[str, str], str], str] = {}
    variations: Counter[str] = Counter()
    guessed = 0
    for q in valid:
        v = q.values
        entry = m.types[_norm(v["contradict_type"]).casefold()]
        same_label = _norm(v["samepassage"]).casefold() in m.same
        key = (_norm(v["context1"]), _norm(v["context2"]))
        one_passage = same_label or key[0] == key[1]
        reason = None
        if settings["conflict"] and entry["kind"] != settings["conflict"]:
            reason = f"filter: {settings['conflict']} conflicts only"
        elif one_passage and settings["passages"] == "different":
            reason = "filter: different passages only"
        elif one_passage:
            why = ("samepassage = Same" if same_label
                   else "context1 equals context2 (although samepassage = Different)")
            if settings["samepassage"] == "error":
                problems.append(q.message("samepassage", f"{why}: one passage holds both statements, so each "
                                          "context alone already holds the conflict (policy error)"))
                continue
            reason = f"{why}: one passage holds both statements (policy exclude)"
        elif (key, _norm(v["question"])) in seen_questions:
            reason = "duplicate question over the same passage pair"
            summary.warnings.append(q.message("question", "same question over the same passages as "
                                              f"question_ID {seen_questions[(key, _norm(v['question']))]}"))
        if reason:
            summary.excluded[reason] += 1
            continue
        seen_questions[(key, _norm(v["question"]))] = q.qid
        cid = pair_id[key]
        if cid in first_kept:
            summary.merged += 1
            first = first_kept[cid]
            if (first.values["context1"], first.values["context2"]) != (v["context1"], v["context2"]):
                summary.warnings.append(f"{summary.source}: question_ID {q.qid} has the passages of "
                                        f"question_ID {first.qid} up to white space; both are in "
                                        f"contradiction_ID {cid}")
        else:
            first_kept[cid] = q
        variations[cid] += 1
        derived = m.reasoning(q)
        assert not isinstance(derived, str)  # checked above
        reasoning, type_tags, was_guessed = derived
        guessed += was_guessed
        inst = _instance(q, cid, variations[cid], entry, reasoning, type_tags, was_guessed, m, spec,
                         Provenance(summary.source, q.line, spec.name, spec))
        instances.append(inst)
    if problems:
        raise InputError(problems)
    if guessed:
        summary.warnings.append(f"reasoning type guessed from the answers for {guessed} instances (the input "
                                "has no Contradict type I); they are tagged "
                                f"{m.guessed_tag or 'nothing'}")
    summary.instances = len(instances)
    return instances


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


# --------------------------------------------------------------------------- the RAG-QA CSV

def _sniff_csv(path: Path, spec: Spec) -> bool:
    if path.suffix.lower() != ".csv":
        return False
    with open(path, "rb") as fh:
        head = fh.read(65536).decode("utf-8", "ignore").lstrip("\ufeff")
    first = next(csv.reader(io.StringIO(head.split("\n", 1)[0])), [])
    header = {c.strip() for c in first}
    cols = spec["columns"]
    # a file missing a column or two is still meant for this converter (and gets its error messages)
    return cols["question_id"] in header and sum(c in header for c in cols.values()) * 2 >= len(cols)


@register_converter("wikicontradict-csv", sniff=_sniff_csv, options=OPTIONS)
def convert_csv(path: Path, spec: Spec, options: dict[str, Any]) -> tuple[list[Instance], ConvertSummary]:
    """One instance per row of the RAG-QA CSV; see converters/wikicontradict.hjson."""
    name = str(path)
    table = read_table(path, ",")
    header = table.header
    cols: dict[str, str] = dict(spec["columns"])
    optional: dict[str, str] = dict(spec.get("optional_columns", {}))
    problems = [f"{name}: line 1: missing column {c!r}" for c in cols.values() if c not in header]
    present = [f for f in REVISED if optional.get(f) in header]
    if present and len(present) < len(REVISED):
        problems += [f"{name}: line 1: missing column {optional[f]!r} (needed with column "
                     f"{optional[present[0]]!r})" for f in REVISED if f not in present and f in optional]
    known = {*cols.values(), *optional.values(), *spec.get("ignored_columns", [])}
    extra = [c for c in header if c not in known]
    policy = spec.get("extra_columns", "warn")
    if policy == "error":
        problems += [f"{name}: line 1, column {header.index(c) + 1}: unknown column {c!r} "
                     f"(the converter spec {spec.name!r} does not map it)" for c in extra]
    if problems:
        raise InputError(problems)
    summary = ConvertSummary(name, spec.name, records_read=len(table.rows))
    if extra and policy == "warn":
        summary.warnings.append(f"{name}: ignored columns the converter spec does not map: "
                                f"{', '.join(extra)}")

    index = {f: header.index(c) for f, c in cols.items()}
    index.update({f: header.index(c) for f, c in optional.items() if c in header})
    names = {f: f"column {header[i]}" for f, i in sorted(index.items(), key=lambda fi: fi[1])}
    sep = spec.get("ref_answer_separator", "|")
    sep_ws = re.compile(r"\s*" + re.escape(sep) + r"\s*")
    questions = []
    for n, (line, cells) in enumerate(table.rows, 1):
        values = {f: cells[i] for f, i in index.items()}
        qid = values["question_id"].strip()
        who = f"question_ID {qid}" if qid else "no question_ID"
        q = Question(f"{name}: row {n} ({who}, line {line})", f"row {n}", names, line, values)
        type_i = values.get("contradict_type_i", "")
        if type_i.strip():
            q.type_i = [type_i]
        ref = values["ref_answer"]
        expected = f"{values['answer1']}{sep}{values['answer2']}"
        answered = values["answer1"].strip() and values["answer2"].strip()
        if answered and sep_ws.sub(sep, _norm(ref)) != sep_ws.sub(sep, _norm(expected)):
            q.problems.append(("ref_answer", f"{ref!r} disagrees with answer1{sep}answer2 {expected!r}",
                               "ref_answer disagrees with answer1|answer2"))
        questions.append(q)
    return build_instances(questions, spec, options, summary), summary


# --------------------------------------------------------------------------- the JSON layout (Appendix E)

_MISSING = object()


def _get(record: Any, dotted: str) -> Any:
    cur = record
    for part in dotted.split("."):
        if not isinstance(cur, dict) or part not in cur:
            return _MISSING
        cur = cur[part]
    return cur


def _text(value: Any) -> str:
    if value is _MISSING or value is None:
        return ""
    if isinstance(value, list):
        return "; ".join(_text(v) for v in value if _text(v))
    return value if isinstance(value, str) else str(value)


def _sniff_json(path: Path, spec: Spec) -> bool:
    if path.suffix.lower() not in (".json", ".jsonl"):
        return False
    with open(path, "rb") as fh:
        head = fh.read(65536).decode("utf-8", "ignore")
    paths = spec["fields"]["question"]
    top = (paths if isinstance(paths, str) else paths[0]).split(".")[0]
    return f'"{top}"' in head


@register_converter("wikicontradict-json", sniff=_sniff_json, options=OPTIONS)
def convert_json(path: Path, spec: Spec, options: dict[str, Any]) -> tuple[list[Instance], ConvertSummary]:
    """One instance per question of every record; see converters/wikicontradict-json.hjson."""
    name = str(path)
    records = read_records(path, "jsonl" if path.suffix.lower() == ".jsonl" else "json")
    fields: dict[str, str | list[str]] = spec["fields"]
    labels = spec.get("taxonomy_labels", {})
    valid_values = {_norm(v).casefold() for v in spec.get("valid_values", [])}
    summary = ConvertSummary(name, spec.name)
    problems: list[str] = []
    questions: list[Question] = []
    counter = int(spec.get("first_question_id", 1))

    def first(record: Any, fld: str, n: int = 0) -> tuple[Any, str]:
        """The first non-empty value of a field and the key path it came from."""
        paths = fields.get(fld, [])
        paths = [paths] if isinstance(paths, str) else paths
        chosen, value = "", _MISSING
        for p in paths:
            p = p.replace("{n}", str(n))
            chosen, value = chosen or p, _get(record, p)
            if _text(value).strip():
                return value, p
        return value, chosen

    for r, record in enumerate(records, 1):
        where = f"{name}: record {r}"
        valid = _text(first(record, "valid")[0]).strip()
        if valid and valid_values and _norm(valid).casefold() not in valid_values:
            questions_in = _count_questions(record, fields)
            summary.records_read += questions_in
            summary.excluded[f"tag annotated as not valid ({valid})"] += questions_in
            continue
        taxonomy = first(record, "taxonomy")[0]
        shared: dict[str, str] = {}
        names: dict[str, str] = {}
        for fld in ("passage1", "passage2", "samepassage", "contradict_type", "title", "url"):
            value, key = first(record, fld)
            shared[fld] = _text(value)
            names[fld] = f"field {key}"
        if not shared["contradict_type"].strip() and "contradict_type" in labels:
            shared["contradict_type"] = _text(_from_taxonomy(taxonomy, labels["contradict_type"])[:1])
        type_i_value, type_i_key = first(record, "contradict_type_i")
        names["contradict_type_i"] = f"field {type_i_key}"
        if isinstance(type_i_value, list):
            type_i = [_text(x) for x in type_i_value if _text(x).strip()]
        else:
            type_i = [_text(type_i_value)] if _text(type_i_value).strip() else []
        if not type_i and "contradict_type_i" in labels:
            type_i = _from_taxonomy(taxonomy, labels["contradict_type_i"])
        names["context1"], names["context2"] = names.pop("passage1"), names.pop("passage2")
        n = 0
        while True:
            n += 1
            qval, qkey = first(record, "question", n)
            if qval is _MISSING and n > 1:
                break
            values = {"context1": shared["passage1"], "context2": shared["passage2"],
                      "samepassage": shared["samepassage"], "contradict_type": shared["contradict_type"],
                      "title": shared["title"], "url": shared["url"], "question": _text(qval)}
            qnames = dict(names, question=f"field {qkey}")
            for fld in ("answer1", "answer2", "question_id", *REVISED):
                value, key = first(record, fld, n)
                values[fld] = _text(value)
                qnames[fld] = f"field {key}"
            if n > 1 and not any(values[f].strip() for f in ("question", "answer1", "answer2")):
                continue  # an unused question slot
            if not values["question_id"].strip():
                values["question_id"] = str(counter)
            counter += 1
            summary.records_read += 1
            qid = values["question_id"].strip()
            questions.append(Question(f"{where}, question {n} (question_ID {qid})",
                                      f"record {r}, question {n}", qnames, r, values, type_i))
            if qval is _MISSING:
                break
    if problems:
        raise InputError(problems)
    return build_instances(questions, spec, options, summary), summary


def _from_taxonomy(taxonomy: Any, label: str) -> list[str]:
    """Values under ``label`` in Label Studio taxonomy paths such as [["Contradict type I", "..."]]."""
    if not isinstance(taxonomy, list):
        return []
    want = _norm(label).casefold()
    return [_text(p[-1]) for p in taxonomy
            if isinstance(p, list) and len(p) > 1 and _norm(_text(p[0])).casefold() == want]


def _count_questions(record: dict[str, Any], fields: dict[str, Any]) -> int:
    paths = fields["question"]
    path = paths if isinstance(paths, str) else paths[0]
    n = 0
    while _text(_get(record, path.replace("{n}", str(n + 1)))).strip():
        n += 1
    return max(n, 1)
