"""The two WikiContradict layouts, read into :class:`Question` records and registered as converters.

``wikicontradict-csv`` reads the RAG-QA CSV (one question per row), ``wikicontradict-json`` the JSON
layout of the paper's Appendix E (several questions per record). Both hand their questions to
:func:`~ragability_gen.convert.wikicontradict.build_instances`, so the same file in either layout
converts to the same instances.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any

from ragability_gen.convert.core import ConvertSummary, header_problems, register_converter
from ragability_gen.convert.wikicontradict import OPTIONS, REVISED, Question, _norm, build_instances
from ragability_gen.core.fileio import read_records
from ragability_gen.core.model import Instance
from ragability_gen.core.specs import Spec
from ragability_gen.core.table import read_table
from ragability_gen.errors import InputError

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
    summary = ConvertSummary(name, spec.name, records_read=len(table.rows))
    index = _csv_columns(name, header, spec, summary)
    names = {f: f"column {header[i]}" for f, i in sorted(index.items(), key=lambda fi: fi[1])}
    sep = spec.get("ref_answer_separator", "|")
    questions = [_csv_question(name, n, line, {f: cells[i] for f, i in index.items()}, names, sep)
                 for n, (line, cells) in enumerate(table.rows, 1)]
    return build_instances(questions, spec, options, summary), summary


def _csv_columns(name: str, header: list[str], spec: Spec, summary: ConvertSummary) -> dict[str, int]:
    """Field -> column index; raises for missing (or, by policy, unknown) columns, else warns of unknown ones."""
    cols: dict[str, str] = dict(spec["columns"])
    optional: dict[str, str] = dict(spec.get("optional_columns", {}))
    known = {*cols.values(), *optional.values(), *spec.get("ignored_columns", [])}
    extra = [c for c in header if c not in known]
    policy = spec.get("extra_columns", "warn")
    present = [f for f in REVISED if optional.get(f) in header]
    partial = [optional[f] for f in REVISED if f not in present and f in optional] if present else []
    problems = header_problems(name, header, [c for c in cols.values() if c not in header],
                               extra if policy == "error" else [], spec.name,
                               needed=(partial, optional[present[0]] if present else ""))
    if problems:
        raise InputError(problems)
    if extra and policy == "warn":
        summary.warnings.append(f"{name}: ignored columns the converter spec does not map: "
                                f"{', '.join(extra)}")
    index = {f: header.index(c) for f, c in cols.items()}
    index.update({f: header.index(c) for f, c in optional.items() if c in header})
    return index


def _csv_question(name: str, n: int, line: int, values: dict[str, str], names: dict[str, str], sep: str) -> Question:
    """One row as a question; a ref_answer that disagrees with answer1|answer2 is recorded as a problem."""
    qid = values["question_id"].strip()
    who = f"question_ID {qid}" if qid else "no question_ID"
    q = Question(f"{name}: row {n} ({who}, line {line})", f"row {n}", names, line, values)
    type_i = values.get("contradict_type_i", "")
    if type_i.strip():
        q.type_i = [type_i]
    ref = values["ref_answer"]
    expected = f"{values['answer1']}{sep}{values['answer2']}"
    answered = values["answer1"].strip() and values["answer2"].strip()
    sep_ws = re.compile(r"\s*" + re.escape(sep) + r"\s*")
    if answered and sep_ws.sub(sep, _norm(ref)) != sep_ws.sub(sep, _norm(expected)):
        q.problems.append(("ref_answer", f"{ref!r} disagrees with answer1{sep}answer2 {expected!r}",
                           "ref_answer disagrees with answer1|answer2"))
    return q


# --------------------------------------------------------------------------- the JSON layout (Appendix E)

MISSING = object()


def get_dotted(record: Any, dotted: str) -> Any:
    """The value at a dotted path (``claim.claim_text``) of a JSON record, or :data:`MISSING`."""
    cur = record
    for part in dotted.split("."):
        if not isinstance(cur, dict) or part not in cur:
            return MISSING
        cur = cur[part]
    return cur


def _text(value: Any) -> str:
    if value is MISSING or value is None:
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
    layout = _JsonLayout(spec)
    summary = ConvertSummary(name, spec.name)
    questions: list[Question] = []
    for r, record in enumerate(records, 1):
        valid = _text(layout.first(record, "valid")[0]).strip()
        if valid and layout.valid_values and _norm(valid).casefold() not in layout.valid_values:
            questions_in = _count_questions(record, layout.fields)
            summary.records_read += questions_in
            summary.excluded[f"tag annotated as not valid ({valid})"] += questions_in
            continue
        found = layout.questions(record, f"{name}: record {r}", r)
        summary.records_read += len(found)
        questions += found
    return build_instances(questions, spec, options, summary), summary


class _JsonLayout:
    """Where the spec's fields are in a record, and the questions numbered on across records."""

    def __init__(self, spec: Spec):
        self.fields: dict[str, str | list[str]] = spec["fields"]
        self.labels = spec.get("taxonomy_labels", {})
        self.valid_values = {_norm(v).casefold() for v in spec.get("valid_values", [])}
        self.counter = int(spec.get("first_question_id", 1))

    def first(self, record: Any, fld: str, n: int = 0) -> tuple[Any, str]:
        """The first non-empty value of a field and the key path it came from."""
        paths = self.fields.get(fld, [])
        paths = [paths] if isinstance(paths, str) else paths
        chosen, value = "", MISSING
        for p in paths:
            p = p.replace("{n}", str(n))
            chosen, value = chosen or p, get_dotted(record, p)
            if _text(value).strip():
                return value, p
        return value, chosen

    def _shared(self, record: Any) -> tuple[dict[str, str], dict[str, str], list[str]]:
        """The fields every question of the record shares, how messages name them, and Contradict type I."""
        taxonomy = self.first(record, "taxonomy")[0]
        shared: dict[str, str] = {}
        names: dict[str, str] = {}
        for fld in ("passage1", "passage2", "samepassage", "contradict_type", "title", "url"):
            value, key = self.first(record, fld)
            shared[fld] = _text(value)
            names[fld] = f"field {key}"
        if not shared["contradict_type"].strip() and "contradict_type" in self.labels:
            shared["contradict_type"] = _text(_from_taxonomy(taxonomy, self.labels["contradict_type"])[:1])
        type_i_value, type_i_key = self.first(record, "contradict_type_i")
        names["contradict_type_i"] = f"field {type_i_key}"
        if isinstance(type_i_value, list):
            type_i = [_text(x) for x in type_i_value if _text(x).strip()]
        else:
            type_i = [_text(type_i_value)] if _text(type_i_value).strip() else []
        if not type_i and "contradict_type_i" in self.labels:
            type_i = _from_taxonomy(taxonomy, self.labels["contradict_type_i"])
        names["context1"], names["context2"] = names.pop("passage1"), names.pop("passage2")
        return shared, names, type_i

    def questions(self, record: Any, where: str, r: int) -> list[Question]:
        """question1, question2, ... of a record (numbered on while the record has the key)."""
        shared, names, type_i = self._shared(record)
        out: list[Question] = []
        n = 0
        while True:
            n += 1
            qval, qkey = self.first(record, "question", n)
            if qval is MISSING and n > 1:
                break
            values = {"context1": shared["passage1"], "context2": shared["passage2"],
                      "samepassage": shared["samepassage"], "contradict_type": shared["contradict_type"],
                      "title": shared["title"], "url": shared["url"], "question": _text(qval)}
            qnames = dict(names, question=f"field {qkey}")
            for fld in ("answer1", "answer2", "question_id", *REVISED):
                value, key = self.first(record, fld, n)
                values[fld] = _text(value)
                qnames[fld] = f"field {key}"
            if n > 1 and not any(values[f].strip() for f in ("question", "answer1", "answer2")):
                continue  # an unused question slot
            if not values["question_id"].strip():
                values["question_id"] = str(self.counter)
            self.counter += 1
            qid = values["question_id"].strip()
            out.append(Question(f"{where}, question {n} (question_ID {qid})", f"record {r}, question {n}", qnames,
                                r, values, type_i))
            if qval is MISSING:
                break
        return out


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
    while _text(get_dotted(record, path.replace("{n}", str(n + 1)))).strip():
        n += 1
    return max(n, 1)
