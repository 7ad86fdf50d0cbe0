"""Converting Ragability corpus TSVs: good input, tricky-but-valid input, and every kind of bad input."""

from __future__ import annotations

import json
from pathlib import Path

import hjson
import pytest
from conftest import V04_COLUMNS, row, tsv_text
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragability_gen import Answer, Context, Instance, read_instances, read_records, write_corpus
from ragability_gen.convert.core import row_schema
from ragability_gen.core.schemas import load_schema
from ragability_gen.core.specs import load_converter_spec


def test_demo_corpus_converts_with_shared_ids(demo_tsv: Path) -> None:
    instances, summary = read_instances(demo_tsv)
    assert summary.records_read == 24
    assert len(instances) == 24
    assert summary.merged == 2
    shared = sorted((i.id, i.variation) for i in instances if i.id in {"5", "12"})
    assert shared == [("12", 1), ("12", 2), ("5", 1), ("5", 2)]
    assert summary.warnings == []


def test_demo_corpus_covers_every_reasoning_type_and_annotation(demo_tsv: Path) -> None:
    instances, _ = read_instances(demo_tsv)
    reasoning = {r for i in instances for r in i.reasoning}
    assert reasoning == {"categorical", "numerical", "temporal.numerical", "temporal.relational"}
    assert any(len(i.reasoning) > 1 for i in instances)
    for cid in ("1", "2"):
        assert {i.contexts[cid].annotation for i in instances} == {"qeu", "qea", "qiu", "qia", "qn"}


def test_cli_convert_default_names(cli, demo_tsv: Path, tmp_path: Path) -> None:
    (tmp_path / "v0d4.tsv").write_text(demo_tsv.read_text(encoding="utf-8"), encoding="utf-8")
    result = cli("convert", "v0d4.tsv")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "v0d4.hjson").is_file()
    assert (tmp_path / "v0d4.prompts.hjson").is_file()
    assert "wrote 462 items to v0d4.hjson and prompts to v0d4.prompts.hjson" in result.stderr
    assert "skipped 6 items (context 3, 4 missing)" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["v0d4.hjson", "v0d4.prompts.hjson", "v0d4.tsv"]


@pytest.mark.parametrize("fmt", ["hjson", "json", "jsonl"])
def test_every_format_reads_back_the_same(cli, demo_tsv: Path, tmp_path: Path, fmt: str) -> None:
    assert cli("convert", demo_tsv, "-o", "a.hjson", "-q").exit_code == 0
    assert cli("convert", demo_tsv, "-o", f"b.{fmt}", "-q").exit_code == 0
    assert read_records(tmp_path / f"b.{fmt}") == read_records(tmp_path / "a.hjson")
    if fmt == "json":
        assert json.loads((tmp_path / "b.json").read_text(encoding="utf-8")) == read_records(tmp_path / "a.hjson")


def test_format_option_overrides_suffix(cli, demo_tsv: Path, tmp_path: Path) -> None:
    assert cli("convert", demo_tsv, "-o", "out.txt", "--format", "jsonl", "-q").exit_code == 0
    lines = (tmp_path / "out.txt").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 462 and json.loads(lines[0])["qid"] == "1-nc-var01"


def test_output_is_valid_hjson_for_the_hjson_library(cli, demo_tsv: Path, tmp_path: Path) -> None:
    assert cli("convert", demo_tsv, "-q").exit_code == 0
    with open(tmp_path / "demo.hjson", encoding="utf-8") as fh:
        via_hjson = hjson.load(fh)
    assert json.loads(json.dumps(via_hjson)) == read_records(tmp_path / "demo.hjson")
    prompts = hjson.loads((tmp_path / "demo.prompts.hjson").read_text(encoding="utf-8"))
    assert {p["pid"] for p in prompts} >= {"q_no_context", "q_n_contexts", "q_n_contexts_hints", "ci_n_contexts",
                                          "check_correct_answer", "check_response_not_answerable"}


TRICKY = {
    "context_1": 'He said "hi"\tand left.\r\nSecond line, with a tab\there.',
    "context_2": "Zoë's café — 東京 \U0001F600 ''' # not a comment // nor this",
    "query_text": 'Who said "hi"?',
    "answer_context1": "{braces} and ${facts}",
}


def _quote(cell: str) -> str:
    return '"' + cell.replace('"', '""') + '"' if any(ch in cell for ch in '\t\n\r"') else cell


def _tricky_file(path: Path) -> None:
    cells = row(**TRICKY)
    lines = ["\t".join(V04_COLUMNS), "\t".join(_quote(cells[c]) for c in V04_COLUMNS)]
    path.write_bytes(("\ufeff" + "\r\n".join(lines) + "\r\n").encode("utf-8"))


def test_bom_crlf_and_quoted_fields_round_trip_to_the_suite(cli, tmp_path: Path) -> None:
    _tricky_file(tmp_path / "t.tsv")
    result = cli("convert", "t.tsv", "-q")
    assert result.exit_code == 0, result.output
    items = {i["qid"]: i for i in read_records(tmp_path / "t.hjson")}
    assert items["13-ctx1-var01"]["facts"] == TRICKY["context_1"]
    assert items["13-ctx21q-var01"]["facts"] == [TRICKY["context_2"], TRICKY["context_1"]]
    assert items["13-ctx1-var01"]["query"] == TRICKY["query_text"]
    assert "{braces} and ${facts}" in items["13-ctx1-var01"]["checks"][0]["check_for"]
    assert hjson.loads((tmp_path / "t.hjson").read_text(encoding="utf-8"))[1]["facts"] == TRICKY["context_1"]


def test_bom_crlf_and_quoted_fields_round_trip_through_a_corpus(tmp_path: Path) -> None:
    _tricky_file(tmp_path / "t.tsv")
    first, _ = read_instances(tmp_path / "t.tsv")
    write_corpus(first, tmp_path / "again.tsv")
    second, _ = read_instances(tmp_path / "again.tsv")
    strip = [{k: v for k, v in i.to_dict().items() if k != "provenance"} for i in first]
    assert strip == [{k: v for k, v in i.to_dict().items() if k != "provenance"} for i in second]
    assert second[0].contexts["1"].text == TRICKY["context_1"]


def test_shipped_row_schema_matches_the_converter_spec() -> None:
    generated = row_schema(load_converter_spec("ragability-v0.4"))
    shipped = load_schema("corpus-row")
    assert set(shipped["required"]) == set(generated["required"])
    assert shipped["properties"] == generated["properties"]
    assert shipped["additionalProperties"] == generated["additionalProperties"]


# ------------------------------------------------------------------------------------------ bad input

BAD_CASES = {
    "missing column": (
        tsv_text([row()], [c for c in V04_COLUMNS if c != "c2xq"]),
        ["bad.tsv: line 1: missing column 'c2xq'"],
    ),
    "unknown column": (
        tsv_text([row()], [*V04_COLUMNS, "notes"]),
        ["bad.tsv: line 1, column 15: unknown column 'notes' (the converter spec 'ragability-v0.4' "
         "does not map it)"],
    ),
    "a renamed column": (
        tsv_text([row()], [c if c != "c2xq" else "c2_annotation" for c in V04_COLUMNS]),
        ["bad.tsv: line 1: missing column 'c2xq'; unknown column 'c2_annotation' (column 5), which the converter "
         "spec 'ragability-v0.4' does not map"],
    ),
    "a file of another layout": (
        "id\tquestion\tanswer\n1\tWho?\tHe\n",
        ["bad.tsv: line 1: missing columns " + ", ".join(map(repr, V04_COLUMNS)) + "; unknown columns 'id' "
         "(column 1), 'question' (column 2), 'answer' (column 3), which the converter spec 'ragability-v0.4' does "
         "not map"],
    ),
    "wrong field count": (
        tsv_text([row()]) + "14\t42\tcategorical\tqeu\n",
        ["bad.tsv: line 3: 4 fields, expected 14"],
    ),
    "unclosed quote": (
        tsv_text([row(context_1='"A Cap Squirrel is a suricate.'), row(contradiction_ID="14")]),
        ["bad.tsv: line 2, column 6 (context_1), quote opened here is never closed; reading stopped here"],
    ),
    "text after closing quote": (
        tsv_text([row(context_2='"A Cap" Squirrel')]),
        ['bad.tsv: line 2, column 7 (context_2), text after the closing quote of a quoted field '
         '(inside a quoted field, write a quote as ""); reading stopped here'],
    ),
    "unknown annotation and reasoning": (
        tsv_text([row(c1xq="qxx", reasoning_required_c1c2="spatial")]),
        ['bad.tsv: line 2, column 3 (reasoning_required_c1c2): unknown reasoning type in "spatial" '
         "(allowed: categorical, numerical, temporal.numerical, temporal.relational, combined with '+')",
         'bad.tsv: line 2, column 4 (c1xq): unknown annotation "qxx" (allowed: qeu, qea, qiu, qia, qn)'],
    ),
    "empty required cells": (
        tsv_text([row(query_text="", answer_context2="  ")]),
        ["bad.tsv: line 2, column 10 (query_text): must not be empty",
         "bad.tsv: line 2, column 13 (answer_context2): must not be empty"],
    ),
    "duplicate id and query": (
        tsv_text([row(), row(WikiContradict_ID="43")]),
        ["bad.tsv: line 3, column 10 (query_text): duplicate (contradiction_ID, query_text) pair, "
         "first on line 2"],
    ),
    "empty file": ("", ["bad.tsv: line 1: the file is empty (no header row)"]),
    "unclosed quote after a unicode line separator": (
        tsv_text([row(context_2="a\u2028b\x85c"), row(contradiction_ID="14", context_1='"A Cap')]),
        ["bad.tsv: line 3, column 6 (context_1), quote opened here is never closed; reading stopped here"],
    ),
    "problems on several rows": (
        tsv_text([row(c2xq="QEU"), row(contradiction_ID="14", context_1=""), row(contradiction_ID="15")]),
        ['bad.tsv: line 2, column 5 (c2xq): unknown annotation "QEU" (allowed: qeu, qea, qiu, qia, qn)',
         "bad.tsv: line 3, column 6 (context_1): must not be empty"],
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_CASES))
def test_bad_input_gives_one_line_per_problem_and_no_output(cli, tmp_path: Path, case: str) -> None:
    text, expected = BAD_CASES[case]
    (tmp_path / "bad.tsv").write_text(text, encoding="utf-8", newline="")
    result = cli("convert", "bad.tsv", "-o", "out/suite.hjson")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [f"error: {line}" for line in expected]
    assert not (tmp_path / "out").exists() or list((tmp_path / "out").iterdir()) == []


def test_non_utf8_bytes_name_line_and_column(cli, tmp_path: Path) -> None:
    data = tsv_text([row()]).encode("utf-8").replace(b"a squirrel.\t", b"a squirr\xe9l.\t", 1)
    (tmp_path / "bad.tsv").write_bytes(data)
    result = cli("convert", "bad.tsv")
    assert result.exit_code == 1
    assert result.stderr == "error: bad.tsv: line 2, byte column 83: not valid UTF-8 (byte 0xe9)\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.tsv"]


def test_failed_write_leaves_previous_output_untouched(cli, tmp_path: Path) -> None:
    (tmp_path / "suite.hjson").write_text("[]\n", encoding="utf-8")
    (tmp_path / "bad.tsv").write_text(tsv_text([row(c1xq="x")]), encoding="utf-8")
    assert cli("convert", "bad.tsv", "-o", "suite.hjson").exit_code == 1
    assert (tmp_path / "suite.hjson").read_text(encoding="utf-8") == "[]\n"


def test_missing_input_file(cli) -> None:
    result = cli("convert", "nope.tsv")
    assert result.exit_code == 1
    assert result.stderr == "error: nope.tsv: no such file\n"


def test_unknown_suite_name(cli, demo_tsv: Path) -> None:
    result = cli("convert", demo_tsv, "--suite", "nosuch")
    assert result.exit_code == 1
    assert result.stderr.startswith("error: nosuch: no such file, and no shipped checks spec of that name")


def test_jsonl_instances_round_trip_and_compile_the_same(cli, demo_tsv: Path, tmp_path: Path) -> None:
    assert cli("convert", demo_tsv, "--to-corpus", "c.jsonl", "-q").exit_code == 0
    again, summary = read_instances(tmp_path / "c.jsonl")
    assert summary.converter == "instances" and summary.merged == 2
    assert [i.to_dict() for i in again] == [i.to_dict() for i in read_instances(demo_tsv)[0]]
    assert cli("convert", "c.jsonl", "-o", "a.hjson", "-q").exit_code == 0
    assert cli("convert", demo_tsv, "-o", "b.hjson", "-q").exit_code == 0
    assert read_records(tmp_path / "a.hjson") == read_records(tmp_path / "b.hjson")


def test_bad_instance_records(cli, tmp_path: Path) -> None:
    good = {"id": "1", "query": "q?", "contexts": [{"id": "1", "text": "t", "answer": "1", "contradicts": ["2"]}],
            "answers": {"1": {"short": "a", "long": "A"}}}
    lines = [json.dumps(good), json.dumps({**good, "query": "q?"}), json.dumps({**good, "answers": "x"})]
    (tmp_path / "i.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = cli("convert", "i.jsonl")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == ["error: i.jsonl: record 3: field answers: 'x' is not of type 'object'"]
    (tmp_path / "i.jsonl").write_text("\n".join(lines[:2]) + "\n", encoding="utf-8")
    assert cli("convert", "i.jsonl").stderr.splitlines() == [
        "error: i.jsonl: record 1 (id 1): context 1: relation to unknown context '2'",
        "error: i.jsonl: record 2 (id 1): context 1: relation to unknown context '2'",
        "error: i.jsonl: record 2 (id 1): duplicate (id, query) pair, first in record 1",
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["i.jsonl"]


def test_filters_do_not_apply_to_a_ragability_corpus(cli, demo_tsv: Path) -> None:
    result = cli("convert", demo_tsv, "--conflict", "explicit")
    assert result.exit_code == 1
    assert result.stderr == f"error: {demo_tsv}: option conflict=explicit does not apply to converter spec " \
                            "'ragability-v0.4'\n"


def test_to_corpus_writes_the_v04_columns(cli, demo_tsv: Path, tmp_path: Path) -> None:
    result = cli("convert", demo_tsv, "--to-corpus", "c.tsv")
    assert result.exit_code == 0, result.output
    text = (tmp_path / "c.tsv").read_text(encoding="utf-8")
    assert text.splitlines()[0].split("\t") == V04_COLUMNS
    assert text == demo_tsv.read_text(encoding="utf-8")


cell = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=30).filter(lambda s: s.strip())


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(cell, min_size=10, max_size=10), ann=st.sampled_from(["qeu", "qea", "qiu", "qia", "qn"]),
       reasoning=st.lists(st.sampled_from(["categorical", "numerical", "temporal.numerical",
                                           "temporal.relational"]), min_size=1, max_size=3, unique=True))
def test_any_cell_text_round_trips_through_a_tsv(tmp_path: Path, texts: list[str], ann: str,
                                                  reasoning: list[str]) -> None:
    c1, c2, c3, c4, query, a1, a1l, a2, a2l, wid = texts
    inst = Instance(
        id="7", query=query,
        contexts={"1": Context("1", c1, ann, "1"), "2": Context("2", c2, "qeu", "2", contradicts=("1",)),
                  "3": Context("3", c3, ann, "1", agrees=("1",), contradicts=("2",)), "4": Context("4", c4, "qn")},
        answers={"1": Answer(a1, a1l), "2": Answer(a2, a2l)}, reasoning=tuple(reasoning),
        source_ids={"WikiContradict_ID": wid},
        metadata={"WikiContradict_ID": wid, "reasoning_required_c1c2": " + ".join(reasoning), "c1xq": ann,
                  "c2xq": "qeu"},
    )
    write_corpus([inst], tmp_path / "p.tsv")
    (back,), _ = read_instances(tmp_path / "p.tsv")
    assert {k: v for k, v in back.to_dict().items() if k != "provenance"} == inst.to_dict()
