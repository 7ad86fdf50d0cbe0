"""Stage 1: source files -> canonical instances, driven by a converter spec.

Converters are registered by name; a converter spec's ``converter`` field picks one. The ``table``
converter reads one instance per row of a TSV/CSV (the Ragability corpus columns, or any team
spreadsheet whose columns a spec maps). It also writes instances back as a table.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ragability_gen.core.fileio import write_records
from ragability_gen.core.model import ANNOTATIONS, REASONING_TYPES, Answer, Context, Instance, Provenance
from ragability_gen.core.registry import Registry
from ragability_gen.core.resources import data_dir
from ragability_gen.core.schemas import Validator
from ragability_gen.core.specs import Spec, load_converter_spec
from ragability_gen.core.table import TableRows, write_table
from ragability_gen.errors import InputError, SpecError


@dataclass
class ConvertSummary:
    """What a conversion read, kept and dropped, and why."""

    source: str
    converter: str
    records_read: int = 0
    default_suite: str | None = None
    instances: int = 0
    excluded: Counter[str] = field(default_factory=Counter)
    merged: int = 0
    warnings: list[str] = field(default_factory=list)
    spec: Spec | None = field(default=None, repr=False)
    """The converter spec read with; writers write the corpus back in its columns."""

    def lines(self) -> list[str]:
        out = [f"{self.source}: read {self.records_read} records with converter {self.converter!r}, "
               f"kept {self.instances} instances"]
        if self.merged:
            out.append(f"  merged into shared contradiction ids: {self.merged}")
        for reason, n in sorted(self.excluded.items()):
            out.append(f"  excluded {n}: {reason}")
        out.extend(f"  warning: {w}" for w in self.warnings)
        return out


ConverterFunc = Callable[[Path, Spec, dict[str, Any]], tuple[list[Instance], ConvertSummary]]
SniffFunc = Callable[[Path, Spec], bool]


@dataclass(frozen=True)
class Converter:
    """A registered converter: the function, its optional file sniffer, and the options it takes."""

    name: str
    func: ConverterFunc
    sniff: SniffFunc | None = None
    options: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


BUILTIN_CONVERTERS = ("ragability_gen.convert.instances", "ragability_gen.convert.wikicontradict_layouts",
                      "ragability_gen.convert.wikicollide")
"""The modules that register the built-in converters besides ``table`` (this module)."""
CONVERTERS: Registry[Converter] = Registry("ragability_gen.converters", builtins=BUILTIN_CONVERTERS)
"""Converters by name: table (here), instances, WikiContradict, and plugins (see core/registry.py)."""


def register_converter(name: str, sniff: SniffFunc | None = None,
                       options: Mapping[str, tuple[str, ...]] | None = None
                       ) -> Callable[[ConverterFunc], ConverterFunc]:
    """Register a converter function under ``name`` so converter specs can select it.

    Args:
        name: The value of a converter spec's ``converter`` field.
        sniff: Optional test whether a file looks like input for a spec of this converter; used to
            pick a shipped converter spec when the user names none.
        options: The options the converter takes and their allowed values; ``read_instances``
            rejects any other option or value before the converter runs.
    """

    def deco(func: ConverterFunc) -> ConverterFunc:
        CONVERTERS[name] = Converter(name, func, sniff, dict(options or {}))
        return func

    return deco


def _option_problems(path: str | Path, spec: Spec, options: dict[str, Any]) -> list[str]:
    known = CONVERTERS[spec["converter"]].options
    given = {k: v for k, v in options.items() if v is not None}
    if given and not known:
        shown = ", ".join(f"{k}={v}" for k, v in sorted(given.items()))
        return [f"{path}: option {shown} does not apply to converter spec {spec.name!r}"]
    problems = []
    for key, value in given.items():
        if key not in known:
            problems.append(f"unknown option {key!r} for converter {spec['converter']!r} "
                            f"(known: {', '.join(known)})")
        elif value not in known[key]:
            problems.append(f"option {key}: unknown value {value!r} (use one of {', '.join(known[key])})")
    return problems


def sniff_converter_spec(path: str | Path) -> Spec | None:
    """The first shipped converter spec whose converter recognises ``path``, if any."""
    src = Path(path)
    if src.is_file():
        for spec_file in sorted(data_dir("converters").glob("*.hjson")):
            spec = load_converter_spec(spec_file)
            found = CONVERTERS.get(spec["converter"])
            sniff = found.sniff if found is not None else None
            if sniff is not None and spec.name != DEFAULT_CONVERTER_SPEC and sniff(src, spec):
                return spec
    return None


def guess_converter_spec(path: str | Path) -> Spec:
    """The shipped converter spec that recognises ``path``, else the Ragability v0.4 spec."""
    return sniff_converter_spec(path) or load_converter_spec(DEFAULT_CONVERTER_SPEC)


DEFAULT_CONVERTER_SPEC = "ragability-v0.4"

StreamFunc = Callable[[Path, Spec, dict[str, Any]], tuple[Iterator[Instance], ConvertSummary]]
STREAMS: dict[str, StreamFunc] = {}


def register_stream(name: str) -> Callable[[StreamFunc], StreamFunc]:
    """Register a streaming form of converter ``name``: instances one at a time, memory flat in the rows."""

    def deco(func: StreamFunc) -> StreamFunc:
        STREAMS[name] = func
        return func

    return deco


def iter_instances(path: str | Path, spec: str | Path | Spec | None = None,
                   **options: Any) -> tuple[Iterator[Instance], ConvertSummary]:
    """Like :func:`read_instances`, but the instances come as a stream where the converter can stream.

    The summary fills in as the stream is consumed, and input problems are raised when it ends, so the
    consumer must write its output atomically (as every writer of this tool does).
    """
    loaded = _load_spec(path, spec)
    stream = STREAMS.get(loaded["converter"])
    if stream is None:
        instances, summary = read_instances(path, loaded, **options)
        return iter(instances), summary
    _check_call(path, loaded, options)
    found, summary = stream(Path(path), loaded, options)
    _describe(summary, loaded)
    return found, summary


def _load_spec(path: str | Path, spec: str | Path | Spec | None) -> Spec:
    if spec is None:
        return guess_converter_spec(path)
    return spec if isinstance(spec, Spec) else load_converter_spec(spec)


def _check_call(path: str | Path, loaded: Spec, options: dict[str, Any]) -> None:
    if loaded["converter"] not in CONVERTERS:
        raise InputError(f"{loaded.path}: field converter: unknown converter {loaded['converter']!r} "
                         f"(known: {', '.join(sorted(CONVERTERS))})")
    if not Path(path).is_file():
        raise InputError(f"{path}: no such file")
    problems = _option_problems(path, loaded, options)
    if problems:
        raise InputError(problems)


def _describe(summary: ConvertSummary, loaded: Spec) -> None:
    """Name the spec the instances were read with, and the suite it compiles to by default."""
    summary.spec = loaded
    default = loaded.get("default_suite")
    if default:
        shipped = "/" not in default and not default.endswith(".hjson")
        summary.default_suite = str(default) if shipped else str(loaded.path.parent / default)


def read_instances(path: str | Path, spec: str | Path | Spec | None = None,
                   **options: Any) -> tuple[list[Instance], ConvertSummary]:
    """Convert a source file into canonical instances.

    Args:
        path: The source file.
        spec: A loaded converter spec, a shipped spec name or a spec path; None picks a shipped
            spec whose converter recognises the file (the Ragability v0.4 spec by default).
        **options: Converter-specific options (e.g. filters), passed through.

    Raises:
        InputError: with one line per problem (file, line, column) when the input is bad.
    """
    loaded = _load_spec(path, spec)
    _check_call(path, loaded, options)
    instances, summary = CONVERTERS[loaded["converter"]].func(Path(path), loaded, options)
    _describe(summary, loaded)
    return instances, summary


# --------------------------------------------------------------------------- the table converter

def table_columns(spec: Spec) -> list[str]:
    """All columns a table spec knows, in the order a written corpus uses."""
    cols: list[str] = [spec["id_column"], *spec.get("source_id_columns", [])]
    if spec.get("reasoning_column"):
        cols.append(spec["reasoning_column"])
    cols += [c["annotation_column"] for c in spec["contexts"] if "annotation_column" in c]
    cols += [c["column"] for c in spec["contexts"]]
    cols.append(spec["query_column"])
    for a in spec["answers"]:
        cols += [a["short"], a["long"]]
    cols += spec.get("metadata_columns", [])
    return list(dict.fromkeys(cols))


def row_schema(spec: Spec) -> dict[str, Any]:
    """The JSON Schema one row (column -> cell) must satisfy under a table spec."""
    vocab = spec.get("vocab", {})
    annotations = vocab.get("annotation", list(ANNOTATIONS))
    nonempty = {"type": "string", "pattern": "\\S"}
    props: dict[str, Any] = {c: {"type": "string"} for c in table_columns(spec)}
    props[spec["id_column"]] = nonempty
    props[spec["query_column"]] = nonempty
    for c in spec["contexts"]:
        props[c["column"]] = nonempty if c.get("required", True) else {"type": "string"}
        if "annotation_column" in c:
            props[c["annotation_column"]] = {
                "enum": annotations,
                "x-message": "unknown annotation {value} (allowed: " + ", ".join(annotations) + ")"}
    for a in spec["answers"]:
        props[a["short"]] = nonempty
        props[a["long"]] = nonempty
    if spec.get("reasoning_column"):
        types = "|".join(re.escape(t) for t in vocab.get("reasoning", REASONING_TYPES))
        sep = re.escape(spec.get("reasoning_separator", "+"))
        allowed = ", ".join(vocab.get("reasoning", REASONING_TYPES))
        props[spec["reasoning_column"]] = {
            "type": "string", "pattern": f"^\\s*({types})(\\s*{sep}\\s*({types}))*\\s*$",
            "x-message": f"unknown reasoning type in {{value}} (allowed: {allowed}, "
                         f"combined with {spec.get('reasoning_separator', '+')!r})"}
    return {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "required": table_columns(spec),
        "properties": props,
        "additionalProperties": spec.get("extra_columns", "error") != "error",
    }


def header_problems(name: str, header: Sequence[str], missing: Sequence[str], unknown: Sequence[str],
                    spec_name: str, needed: tuple[Sequence[str], str] = ((), "")) -> list[str]:
    """A header's missing and unknown columns as one problem line (none when there are none).

    ``needed`` names columns missing beside a column that needs them. One column keeps the short message;
    a file that is no such table at all (a wrong file given) gets one line, not one per column.
    """
    parts, position = [], ""
    if missing:
        parts.append(f"missing column{_plural_s(missing)} {', '.join(map(repr, missing))}")
    if needed[0]:
        parts.append(f"missing column{_plural_s(needed[0])} {', '.join(map(repr, needed[0]))} (needed with "
                     f"column {needed[1]!r})")
    if len(unknown) == 1 and not parts:
        position = f", column {header.index(unknown[0]) + 1}"
        parts.append(f"unknown column {unknown[0]!r} (the converter spec {spec_name!r} does not map it)")
    elif unknown:
        listed = ", ".join(f"{c!r} (column {header.index(c) + 1})" for c in unknown)
        parts.append(f"unknown column{_plural_s(unknown)} {listed}, which the converter spec {spec_name!r} does "
                     "not map")
    return [f"{name}: line 1{position}: {'; '.join(parts)}"] if parts else []


def _plural_s(items: Sequence[str]) -> str:
    return "" if len(items) == 1 else "s"


@register_converter("table")
def convert_table(path: Path, spec: Spec, options: dict[str, Any]) -> tuple[list[Instance], ConvertSummary]:
    """One instance per table row; see converters/ragability-v0.4.hjson for the mapping."""
    instances, summary = stream_table(path, spec, options)
    return list(instances), summary


@register_stream("table")
def stream_table(path: Path, spec: Spec, options: dict[str, Any]) -> tuple[Iterator[Instance], ConvertSummary]:
    """The table converter as a stream: the header is checked now, the rows as the instances are taken.

    Memory stays flat in the number of rows. Row problems are collected and raised together, as one
    InputError, once the last row is read (so a consumer writing the instances must write atomically).
    """
    name = str(path)
    table = TableRows(path, "\t" if spec["format"] == "tsv" else ",")
    known = table_columns(spec)
    policy = spec.get("extra_columns", "error")
    header = table.header
    extra = [c for c in header if c not in known]
    problems = header_problems(name, header, [c for c in known if c not in header],
                               extra if policy == "error" else [], spec.name)
    if problems or table.problems:  # header problems: first every layout problem of the file, as read_table
        for _ in table:
            pass
        raise InputError(table.problems or problems)
    summary = ConvertSummary(name, spec.name)
    return _table_instances(table, spec, policy, extra, summary, problems), summary


def _table_instances(table: TableRows, spec: Spec, policy: str, extra: list[str], summary: ConvertSummary,
                     problems: list[str]) -> Iterator[Instance]:
    name, header = table.path, table.header
    validator = Validator(row_schema(spec))
    make = _row_maker(spec, policy, extra)
    seen: dict[tuple[str, str], int] = {}
    variations: Counter[str] = Counter()
    first_contexts: dict[str, tuple[int, int]] = {}  # id -> first line, hash of its context texts
    id_col, q_col = spec["id_column"], spec["query_column"]
    for line, cells in table:
        summary.records_read += 1
        row = dict(zip(header, cells, strict=True))
        if not validator.is_valid(row):
            found = validator.problems(row)
            found.sort(key=lambda pm: header.index(pm[0]) if pm[0] in header else len(header))
            problems += [f"{name}: line {line}, column {_col(header, p)}: {m}" for p, m in found]
            continue
        key = (row[id_col].strip(), row[q_col].strip())
        if key in seen:
            problems.append(f"{name}: line {line}, column {_col(header, q_col)}: duplicate "
                            f"({id_col}, {q_col}) pair, first on line {seen[key]}")
            continue
        seen[key] = line
        inst = make(row, Provenance(name, line, spec.name, spec))
        variations[inst.id] += 1
        inst.variation = variations[inst.id]
        texts = hash(tuple([(cid, c.text) for cid, c in inst.contexts.items()]))
        if inst.id in first_contexts:
            summary.merged += 1
            first_line, first = first_contexts[inst.id]
            if first != texts:
                summary.warnings.append(f"{name}: line {line}: {id_col} {inst.id} has other contexts "
                                        f"than on line {first_line}")
        else:
            first_contexts[inst.id] = (line, texts)
        summary.instances += 1
        yield inst
    if table.problems:
        raise InputError(table.problems)
    if problems:
        raise InputError(problems)


def _col(header: list[str], path: str) -> str:
    col = path.split("/")[0] if path else ""
    if col in header:
        return f"{header.index(col) + 1} ({col})"
    return col or "?"


def _row_maker(spec: Spec, policy: str, extra: list[str]) -> Callable[[dict[str, str], Provenance], Instance]:
    """A function from a row to its instance, with the spec's mapping worked out once, not per row."""
    ctx_specs = [(c["id"], c["column"], c.get("annotation_column"), c.get("annotation"), c.get("annotation_from"),
                  c.get("answer"), tuple(c.get("agrees", ())), tuple(c.get("contradicts", ())))
                 for c in spec["contexts"]]
    answers = [(a["id"], a["short"], a["long"]) for a in spec["answers"]]
    reasoning_col, sep = spec.get("reasoning_column"), spec.get("reasoning_separator", "+")
    source_cols = list(spec.get("source_id_columns", []))
    meta_cols = list(spec.get("metadata_columns", [])) + (extra if policy == "metadata" else [])
    id_col, q_col = spec["id_column"], spec["query_column"]

    def make(row: dict[str, str], prov: Provenance) -> Instance:
        annotations: dict[str, str | None] = {}
        for cid, _col, ann_col, ann, _from, _a, _ag, _co in ctx_specs:
            annotations[cid] = row[ann_col].strip() if ann_col else ann
        for cid, _col, _ac, _an, ann_from, _a, _ag, _co in ctx_specs:
            if ann_from:
                annotations[cid] = annotations[ann_from]
        contexts = {}
        for cid, col, _ac, _an, _from, answer, agrees, contradicts in ctx_specs:
            text = row[col]
            if text.strip():  # else an optional context not filled in yet
                contexts[cid] = Context(cid, text, annotations[cid], answer, agrees, contradicts)
        reasoning = tuple(p.strip() for p in row[reasoning_col].split(sep) if p.strip()) if reasoning_col else ()
        return Instance(
            id=row[id_col].strip(), query=row[q_col], contexts=contexts,
            answers={aid: Answer(row[short], row[long]) for aid, short, long in answers},
            reasoning=reasoning, source_ids={c: row[c] for c in source_cols},
            metadata={c: row[c] for c in meta_cols}, provenance=prov,
        )

    return make


def instance_row(inst: Instance, spec: Spec) -> dict[str, str]:
    """The table row (column -> cell) of an instance under a table spec; inverse of conversion."""
    row: dict[str, str] = dict(inst.metadata)
    row.update(inst.source_ids)
    row[spec["id_column"]] = inst.id
    row[spec["query_column"]] = inst.query
    if spec.get("reasoning_column"):
        row[spec["reasoning_column"]] = f" {spec.get('reasoning_separator', '+')} ".join(inst.reasoning)
    for c in spec["contexts"]:
        ctx = inst.contexts.get(c["id"])
        row[c["column"]] = ctx.text if ctx else ""
        if "annotation_column" in c:
            row[c["annotation_column"]] = (ctx.annotation if ctx else None) or row.get(c["annotation_column"], "")
    for a in spec["answers"]:
        ans = inst.answers.get(a["id"])
        row[a["short"]] = ans.short if ans else ""
        row[a["long"]] = ans.long if ans else ""
    return row


def corpus_spec(instances: Sequence[Instance], spec: str | Path | Spec | None = None) -> Spec:
    """The table spec a corpus of ``instances`` is written in.

    The one named; else the spec the instances were read with, when it is a table spec (so a corpus
    keeps its columns through substitute and generate); else the Ragability v0.4 spec.

    Raises:
        SpecError: the named spec is not a table spec.
    """
    if spec is not None:
        loaded = spec if isinstance(spec, Spec) else load_converter_spec(spec)
        if loaded["converter"] != "table":
            raise SpecError(f"{loaded.path}: field converter: a corpus table needs a table converter spec, "
                            f"not {loaded['converter']!r}")
        return loaded
    source = instances[0].provenance.spec if instances and instances[0].provenance else None
    if source is not None and source["converter"] == "table":
        return source
    return load_converter_spec(DEFAULT_CONVERTER_SPEC)


def unmapped_fields(instances: Iterable[Instance], spec: Spec) -> dict[str, Instance]:
    """The instance fields a table in ``spec``'s columns cannot hold, each with the first instance that has one.

    Keys name the field as a user knows it: ``column 'origin'`` for metadata and source ids (which
    came from columns), ``context 'b'``, ``answer 'r'``, ``tags``, ``reasoning``, or
    ``annotation of context '3'`` when the spec gives that context a fixed or borrowed annotation
    that differs.
    """
    cols = set(table_columns(spec))
    extra_ok = spec.get("extra_columns", "error") == "metadata"
    decls = {c["id"]: c for c in spec["contexts"]}
    answers = {a["id"] for a in spec["answers"]}
    found: dict[str, Instance] = {}
    for inst in instances:
        lost = [f"column {k!r}" for k in inst.metadata if k not in cols and not extra_ok]
        lost += [f"column {k!r}" for k in inst.source_ids if k not in cols]
        lost += [f"context {cid!r}" for cid in inst.contexts if cid not in decls]
        lost += [f"answer {aid!r}" for aid in inst.answers if aid not in answers]
        if inst.tags:
            lost.append("tags")
        if inst.reasoning and not spec.get("reasoning_column"):
            lost.append("reasoning")
        lost += [f"annotation of context {cid!r}" for cid, ctx in inst.contexts.items()
                 if cid in decls and ctx.annotation != _read_back_annotation(inst, decls[cid], decls)]
        for what in lost:
            found.setdefault(what, inst)
    return found


def _read_back_annotation(inst: Instance, decl: dict[str, Any], decls: dict[str, dict[str, Any]]) -> str | None:
    """The annotation a context gets when its row is read back under the spec declaring it as ``decl``."""
    if "annotation_column" in decl:
        return inst.contexts[decl["id"]].annotation
    if "annotation_from" in decl:
        source = decls[decl["annotation_from"]]
        if source["id"] not in inst.contexts:  # nothing to borrow from: the row cannot say, so keep it
            return inst.contexts[decl["id"]].annotation
        return _read_back_annotation(inst, source, decls)
    return decl.get("annotation")


def _where(inst: Instance) -> str:
    p = inst.provenance
    return f"{p.source}: line {p.line}" if p else f"instance {inst.id}"


def write_corpus(instances: Iterable[Instance], path: str | Path, spec: str | Path | Spec | None = None,
                 *, drop_unmapped: bool = False) -> int:
    """Write instances as a corpus; return the number written.

    A ``.jsonl`` path gets one canonical instance per line (lossless); any other path gets a table
    in the columns of :func:`corpus_spec` (the spec named, else the one the instances came from,
    else Ragability v0.4). Columns the spec does not map but keeps as metadata (``extra_columns:
    metadata``) are written after its own, so they survive too.

    Raises:
        InputError: a field of the instances has no column in the spec (one line per field, naming
            the first instance with it), unless ``drop_unmapped``; nothing is written then.
    """
    if str(path).lower().endswith(".jsonl"):
        return write_records((i.to_dict() for i in instances), path, "jsonl")
    items = list(instances)
    loaded = corpus_spec(items, spec)
    lost = unmapped_fields(items, loaded)
    if lost and not drop_unmapped:
        raise InputError([f"{_where(inst)}: {what}: converter spec {loaded.name!r} has no column for it, so it "
                          f"would be dropped (write a .jsonl corpus, or name an output spec that maps it)"
                          for what, inst in lost.items()])
    cols = table_columns(loaded)
    if loaded.get("extra_columns", "error") == "metadata":
        cols += [k for k in dict.fromkeys(k for i in items for k in i.metadata) if k not in cols]
    delim = "\t" if loaded["format"] == "tsv" else ","
    rows = ([instance_row(i, loaded).get(c, "") for c in cols] for i in items)
    return write_table(path, cols, rows, delim)
