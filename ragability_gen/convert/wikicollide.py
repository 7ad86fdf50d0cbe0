"""Converter for WikiCollide, the corpus-level inconsistency detection (CLID) benchmark.

Every claim becomes one instance: the claim is the query, its own passage context "1", the evidence
passages retrieved in the agent trace contexts "2", "3", ..., and the same passages with their
metadata shown (title, section, last edit date, URL) contexts "1m", "2m", .... The mapping (which
trace actions give evidence, how many passages, labels and the 9 inconsistency types -> tags,
reasoning categories and annotations) lives in ``converters/wikicollide.hjson``; the comments there
say what each choice means.

Converter options (``read_instances(path, spec, **options)``):
    fewer: "exclude" or "keep" -- override the spec's policy for claims with too few evidence passages.
    bad_records: "error" or "exclude" -- override the spec's handling of bad records.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ragability_gen.convert.core import ConvertSummary, register_converter
from ragability_gen.convert.wikicontradict_layouts import MISSING, get_dotted
from ragability_gen.core.fileio import read_records
from ragability_gen.core.model import Answer, Context, Instance, Provenance
from ragability_gen.core.specs import Spec
from ragability_gen.errors import InputError

OPTIONS: dict[str, tuple[str, ...]] = {"fewer": ("exclude", "keep"), "bad_records": ("error", "exclude")}
BLOCK_FIELDS = ("content", "document_title", "section_title", "last_edit_date", "url")
def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


class _Block(dict[str, str]):
    """A passage block with every field a string ('' when absent), usable in ``str.format_map``."""

    def __missing__(self, key: str) -> str:
        return ""


def _block(value: Any) -> _Block:
    src = value if isinstance(value, Mapping) else {}
    return _Block({k: _text(src.get(k)) for k in BLOCK_FIELDS})


def evidence_blocks(trace: Any, actions: list[str], claim: _Block, skip_claim_article: bool) -> list[_Block]:
    """The passages retrieved by the named trace actions, in trace order, without repeats.

    Actions whose output is not a list (strings, and the object outputs of report_inconsistency
    and give_up that the release's README does not mention) carry no passages and are passed over.
    """
    if not isinstance(trace, list):
        return []
    seen: set[tuple[str, str, str]] = set()
    out: list[_Block] = []
    for action in trace:
        if not isinstance(action, Mapping) or action.get("action_name") not in actions:
            continue
        hits = action.get("action_output")
        if not isinstance(hits, list):
            continue
        for hit in hits:
            b = _block(hit)
            if not b["content"].strip():
                continue
            if skip_claim_article and b["document_title"] == claim["document_title"]:
                continue
            key = (b["document_title"], b["section_title"], b["content"])
            if key not in seen:
                seen.add(key)
                out.append(b)
    return out


def _sniff(path: Path, spec: Spec) -> bool:
    if path.suffix.lower() not in (".json", ".jsonl"):
        return False
    with open(path, "rb") as fh:
        head = fh.read(65536).decode("utf-8", "ignore")
    return '"claim_context_block"' in head and '"agent_trace"' in head


@register_converter("wikicollide", sniff=_sniff, options=OPTIONS)
def convert_wikicollide(path: Path, spec: Spec, options: dict[str, Any]) -> tuple[list[Instance], ConvertSummary]:
    """One instance per claim; see converters/wikicollide.hjson."""
    name = str(path)
    records = read_records(path, "jsonl" if path.suffix.lower() == ".jsonl" else "json")
    f: dict[str, str] = spec["fields"]
    ev = spec["evidence"]
    fewer = options.get("fewer") or ev.get("fewer", "exclude")
    bad_policy = options.get("bad_records") or spec.get("bad_records", "error")
    labels = {_text(v["value"]).casefold(): (k, v) for k, v in spec["labels"].items()}
    types = {t["value"]: t for t in spec["types"]}
    template: str = spec["metadata_template"]
    summary = ConvertSummary(name, spec.name, records_read=len(records))
    problems: list[str] = []
    instances: list[Instance] = []
    seen: dict[str, int] = {}
    for r, rec in enumerate(records, 1):
        cid = _text(get_dotted(rec, f["id"])).strip()
        where = f"{name}: record {r}" + (f" ({cid})" if cid else "")
        found: list[tuple[str, str]] = []  # (message, reason)
        claim = _text(get_dotted(rec, f["claim"]))
        block = _block(get_dotted(rec, f["block"]))
        label_value = _text(get_dotted(rec, f["label"])).strip()
        type_value = get_dotted(rec, f["type"])
        if not cid:
            found.append((f"field {f['id']}: missing or empty", "no claim id"))
        elif cid in seen:
            found.append((f"field {f['id']}: duplicate claim id, first in record {seen[cid]}", "duplicate claim id"))
        if not claim.strip():
            found.append((f"field {f['claim']}: missing or empty", "no claim text"))
        if not block["content"].strip():
            found.append((f"field {f['block']}.content: missing or empty", "no claim passage"))
        label = labels.get(label_value.casefold())
        if label is None:
            known = ", ".join(v["value"] for v in spec["labels"].values())
            found.append((f"field {f['label']}: unknown label {label_value!r} (known: {known})", "unknown label"))
        entry = None
        if label is not None and label[0] == "inconsistent":
            entry = types.get(_text(type_value))
            if type_value is MISSING or type_value is None:
                found.append((f"field {f['type']}: missing on an inconsistent record", "inconsistent without a type"))
            elif entry is None:
                found.append((f"field {f['type']}: unknown inconsistency type {type_value!r} "
                              f"(known: {', '.join(types)})", "unknown inconsistency type"))
        trace = get_dotted(rec, f["trace"])
        if trace is not MISSING and not isinstance(trace, list):
            found.append((f"field {f['trace']}: must be a list of actions", "bad agent trace"))
        if found:
            if bad_policy == "error":
                problems += [f"{where}: {m}" for m, _ in found]
            else:
                for _m, reason in found:
                    summary.excluded[reason] += 1
            continue
        assert label is not None
        seen[cid] = r
        evidence = evidence_blocks(trace, ev["actions"], block, ev.get("skip_claim_article", True))
        if len(evidence) < ev["count"] and fewer == "exclude":
            summary.excluded[f"fewer than {ev['count']} evidence passages"] += 1
            continue
        evidence = evidence[:ev["count"]]
        instances.append(_instance(rec, r, name, spec, cid, claim, block, evidence, label, entry, template))
    if problems:
        raise InputError(problems)
    summary.instances = len(instances)
    return instances, summary


def _instance(rec: Any, r: int, name: str, spec: Spec, cid: str, claim: str, block: _Block,
              evidence: list[_Block], label: tuple[str, dict[str, Any]], entry: dict[str, Any] | None,
              template: str) -> Instance:
    f = spec["fields"]
    key, label_entry = label
    inconsistent = key == "inconsistent"
    annotation = entry["annotation"] if entry else "qeu"
    contexts: dict[str, Context] = {}
    blocks = [block, *evidence]
    for shown in (False, True):
        for i, b in enumerate(blocks, 1):
            ctx_id = f"{i}m" if shown else str(i)
            text = template.format_map(b) if shown else b["content"]
            if i == 1:
                contexts[ctx_id] = Context(ctx_id, text, annotation=annotation, answer="1")
            else:
                first = "1m" if shown else "1"
                contexts[ctx_id] = Context(
                    ctx_id, text, annotation=annotation, answer="2" if inconsistent else "1",
                    agrees=() if inconsistent else (first,), contradicts=(first,) if inconsistent else ())
    reasoning_text = _text(get_dotted(rec, f["label_reasoning"])).strip()
    ans = spec["answers"]
    answers = {"1": Answer(ans["consistent"]["short"], ans["consistent"]["long"]),
               "2": Answer(ans["inconsistent"]["short"], reasoning_text or ans["inconsistent"]["long"])}
    type_value = entry["value"] if entry else ""
    metadata = {"claim_id": cid, "label": label_entry["value"], "inconsistency_type": type_value,
                "title": block["document_title"], "section": block["section_title"],
                "last_edit_date": block["last_edit_date"], "url": block["url"],
                "evidence_titles": " | ".join(b["document_title"] for b in evidence)}
    tags = [*label_entry.get("tags", []), *(entry.get("tags", []) if entry else [])]
    return Instance(
        id=cid, query=claim, contexts=contexts, answers=answers,
        reasoning=tuple(entry["reasoning"]) if entry else (),
        source_ids={spec.get("source_id", "WikiCollide_ID"): cid}, metadata=metadata,
        tags=tuple(dict.fromkeys(tags)), provenance=Provenance(name, r, spec.name))
