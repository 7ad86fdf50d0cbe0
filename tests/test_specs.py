"""Specs all the way through: a team corpus keeps its own columns through every stage that writes one."""

from __future__ import annotations

import csv
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import edited_suite_spec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragability_gen import Answer, Context, read_instances, write_corpus
from ragability_gen.convert.core import corpus_spec
from ragability_gen.core.resources import data_dir
from ragability_gen.core.specs import explain_hjson_problem, load_converter_spec
from ragability_gen.core.table import write_table
from ragability_gen.errors import InputError, SpecError

TEAM_SPEC = """\
# A domain team's sheet: every column renamed, the source id in 'origin', one unmapped 'owner' column.
{
  name: team
  converter: table
  format: tsv
  id_column: case
  query_column: question
  contexts: [
    {id: "1", column: "doc_main", annotation_column: "rel_main", answer: "1"}
    {id: "2", column: "doc_other", annotation_column: "rel_other", answer: "2", contradicts: ["1"]}
    {id: "3", column: "doc_agree", required: false, annotation_from: "1", answer: "1", agrees: ["1"],
     contradicts: ["2"]}
    {id: "4", column: "doc_background", required: false, annotation: "qn"}
  ]
  answers: [
    {id: "1", short: "ans_main", long: "ans_main_long"}
    {id: "2", short: "ans_other", long: "ans_other_long"}
  ]
  reasoning_column: kind
  source_id_columns: ["origin"]
  metadata_columns: ["origin"]
  extra_columns: metadata
}
"""
RENAMED = {
    "contradiction_ID": "case", "WikiContradict_ID": "origin", "reasoning_required_c1c2": "kind",
    "c1xq": "rel_main", "c2xq": "rel_other", "context_1": "doc_main", "context_2": "doc_other",
    "context_3_nc1_c2": "doc_agree", "context_4_nc1_nc2_nc3": "doc_background", "query_text": "question",
    "answer_context1": "ans_main", "answer_context1_long": "ans_main_long", "answer_context2": "ans_other",
    "answer_context2_long": "ans_other_long",
}
COLUMNS = [*RENAMED.values(), "owner"]
KEPT = ["case", "origin", "kind", "rel_main", "rel_other", "owner"]
"""Cells no stage rewrites (substitute rewrites texts, generate fills empty contexts)."""


def rows_of(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh, delimiter="\t")
        return list(reader.fieldnames or []), list(reader)


@pytest.fixture
def team(tmp_path: Path) -> tuple[Path, Path]:
    """The demo corpus as a team sheet (renamed columns, an owner per row) and the team's converter spec."""
    spec = tmp_path / "team.hjson"
    spec.write_text(TEAM_SPEC, encoding="utf-8")
    _, demo = rows_of(data_dir("corpora") / "demo.tsv")
    rows = []
    for n, r in enumerate(demo):
        cells = {RENAMED[k]: v for k, v in r.items()}
        cells["origin"] = f"sheet-{n}"
        cells["owner"] = "finance" if n % 2 else "legal"
        rows.append([cells[c] for c in COLUMNS])
    sheet = tmp_path / "team.tsv"
    write_table(sheet, COLUMNS, rows)
    return sheet, spec


def test_convert_to_corpus_writes_the_team_columns_back_byte_for_byte(cli: Any, team: tuple[Path, Path],
                                                                      tmp_path: Path) -> None:
    sheet, spec = team
    result = cli("convert", sheet, "--converter", spec, "--to-corpus", "back.tsv")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[-1] == "wrote 24 rows to back.tsv"
    assert (tmp_path / "back.tsv").read_bytes() == sheet.read_bytes()


def test_substitute_keeps_every_team_column(cli: Any, team: tuple[Path, Path], tmp_path: Path) -> None:
    sheet, spec = team
    result = cli("substitute", sheet, "--converter", spec, "-o", "novel.tsv", "-q")
    assert result.exit_code == 0, result.output
    header, rows = rows_of(tmp_path / "novel.tsv")
    _, before = rows_of(sheet)
    assert header == COLUMNS
    assert [{k: r[k] for k in KEPT} for r in rows] == [{k: r[k] for k in KEPT} for r in before]
    assert all(r[c].strip() for r in rows for c in ("doc_main", "doc_other", "question", "ans_main"))
    assert [r["doc_main"] for r in rows] != [r["doc_main"] for r in before]  # substituted, in the team's column
    again, summary = read_instances(tmp_path / "novel.tsv", spec)
    assert len(again) == 24 and summary.warnings == []


def test_generate_with_rules_keeps_every_team_column(cli: Any, team: tuple[Path, Path], tmp_path: Path) -> None:
    sheet, spec = team
    result = cli("generate", sheet, "--converter", spec, "-o", "filled.tsv", "--llm", "rules", "-q")
    assert result.exit_code == 0, result.output
    header, rows = rows_of(tmp_path / "filled.tsv")
    _, before = rows_of(sheet)
    assert header == COLUMNS
    empty = [(n, c) for n, r in enumerate(before) for c in ("doc_agree", "doc_background") if not r[c]]
    assert len(empty) == 4
    for n, (old, new) in enumerate(zip(before, rows, strict=True)):
        for c in COLUMNS:
            if (n, c) in empty:
                assert new[c].strip(), (n, c)  # filled by the rules writer, in the team's column
            else:
                assert new[c] == old[c], (n, c)


def test_output_spec_options_need_a_corpus(cli: Any, demo_tsv: Path, tmp_path: Path) -> None:
    for extra in (["--out-converter", "ragability-v0.4"], ["--drop-unmapped"]):
        result = cli("convert", demo_tsv, *extra)
        assert result.exit_code == 2
        assert result.stderr.splitlines()[-1] == ("Error: --out-converter and --drop-unmapped apply to a corpus: "
                                                  "give --to-corpus PATH")
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_jsonl_corpus_of_a_team_sheet_needs_the_team_spec_to_become_a_table(
        cli: Any, team: tuple[Path, Path], tmp_path: Path) -> None:
    sheet, spec = team
    assert cli("convert", sheet, "--converter", spec, "--to-corpus", "team.jsonl", "-q").exit_code == 0
    result = cli("convert", "team.jsonl", "--to-corpus", "v04.tsv")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"error: {sheet}: line 2: column {c!r}: converter spec 'ragability-v0.4' has no column for it, so it would "
        "be dropped (write a .jsonl corpus, or name an output spec that maps it)" for c in ("origin", "owner")]
    result = cli("convert", "team.jsonl", "--to-corpus", "back.tsv", "--out-converter", spec)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "back.tsv").read_bytes() == sheet.read_bytes()


def test_named_output_spec_and_dropping(cli: Any, team: tuple[Path, Path], tmp_path: Path) -> None:
    sheet, spec = team
    result = cli("convert", sheet, "--converter", spec, "--to-corpus", "v04.tsv", "--out-converter",
                 "ragability-v0.4", "--drop-unmapped")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[-2:] == [
        "  dropped (no column in converter spec 'ragability-v0.4'): column 'origin', column 'owner'",
        "wrote 24 rows to v04.tsv"]
    header, rows = rows_of(tmp_path / "v04.tsv")
    assert header[:2] == ["contradiction_ID", "WikiContradict_ID"] and {r["WikiContradict_ID"] for r in rows} == {""}
    result = cli("convert", sheet, "--converter", spec, "--to-corpus", "x.tsv", "--out-converter", "instances")
    assert result.exit_code == 1
    assert result.stderr == (f"error: {data_dir('converters') / 'instances.hjson'}: field converter: a corpus "
                             "table needs a table converter spec, not 'instances'\n")


def test_the_library_carries_the_spec_on_the_instances_and_the_summary(team: tuple[Path, Path],
                                                                        tmp_path: Path) -> None:
    sheet, spec = team
    instances, summary = read_instances(sheet, spec)
    assert summary.spec is not None and summary.spec.name == "team"
    assert corpus_spec(instances).name == "team"
    assert instances[0].provenance is not None and instances[0].provenance.spec is summary.spec
    write_corpus(instances, tmp_path / "again.tsv")
    assert (tmp_path / "again.tsv").read_bytes() == sheet.read_bytes()
    with pytest.raises(InputError) as err:
        write_corpus(instances, tmp_path / "v04.tsv", "ragability-v0.4")
    assert len(err.value.problems) == 2 and not (tmp_path / "v04.tsv").exists()
    with pytest.raises(SpecError):
        corpus_spec(instances, "wikicontradict")


# --------------------------------------------------------------------------- metric kinds against check kinds

def test_a_metric_whose_kind_does_not_fit_its_checks_is_refused_by_compile_and_validate(
        cli: Any, demo_tsv: Path, tmp_path: Path) -> None:
    spec = edited_suite_spec(tmp_path, lambda text: text.replace(
        'correct_answer_answerable: {kind: "binary"', 'correct_answer_answerable: {kind: "score"'))
    want = [f"error: {spec}: outcome answer, check answer_correct: field metrics: metric 'correct_answer_answerable' "
            "is score but check function 'affirmative' gives binary results"]
    result = cli("convert", demo_tsv, "--suite", spec, "-o", "s.hjson")
    assert (result.exit_code, result.stderr.splitlines()) == (1, want)
    assert not (tmp_path / "s.hjson").exists()
    result = cli("validate", spec)
    assert (result.exit_code, result.stderr.splitlines()) == (1, want)


def test_validate_refuses_a_suite_file_mixing_kinds_in_one_metric(cli: Any, tmp_path: Path) -> None:
    items = [
        {"qid": "a", "query": "q", "pids": ["p"], "checks": [{"cid": "c", "func": "affirmative", "metrics": ["m"]}]},
        {"qid": "b", "query": "q", "pids": ["p"], "checks": [
            {"cid": "c", "func": "affirmative", "metrics": ["m"]},
            {"cid": "d", "func": "wc_judge", "metrics": ["m", "judged"]}]},
        {"qid": "c", "query": "q", "pids": ["p"], "checks": [{"cid": "d", "func": "wc_judge", "metrics": ["m"]}]},
    ]
    (tmp_path / "s.json").write_text(json.dumps(items), encoding="utf-8")
    result = cli("validate", "s.json")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "error: s.json: item 2: field checks/1/metrics: metric 'm' is binary but check function 'wc_judge' gives "
        "multiclass results (check function 'affirmative' gives it binary results)"]
    items[1]["checks"][1]["metrics"] = ["judged"]
    items[2]["checks"][0]["metrics"] = ["judged"]
    (tmp_path / "s.json").write_text(json.dumps(items), encoding="utf-8")
    assert cli("validate", "s.json").output == "s.json: valid suite (3 items)\n"


# --------------------------------------------------------------------------- the hjson pitfall

PITFALL = """\
# A team spec with one unquoted string inside an inline object.
{
  name: team
  converter: table
  format: tsv
  id_column: case
  query_column: question
  contexts: [
    {id: "1", required: true, column: doc_main, annotation_column: "rel_main", answer: "1"}
    {id: "2", column: "doc_other", annotation_column: "rel_other", answer: "2", contradicts: ["1"]}
  ]
  answers: [{id: "1", short: "a", long: "al"}, {id: "2", short: "b", long: "bl"}]
}
"""


def test_the_unquoted_string_pitfall_is_explained_with_its_line_and_fix(cli: Any, demo_tsv: Path,
                                                                       tmp_path: Path) -> None:
    (tmp_path / "team.hjson").write_text(PITFALL, encoding="utf-8")
    want = ("error: team.hjson: line 10, column 5: Found '{' where a key name was expected: the unquoted string "
            'doc_main on line 9 runs to the end of that line in hjson and swallows the rest of its inline object; '
            'quote it ("doc_main")\n')
    for args in (["convert", demo_tsv, "--converter", "team.hjson"], ["validate", "team.hjson"],
                 ["validate", "team.hjson", "--kind", "converter-spec"],
                 ["validate", "team.hjson", "--kind", "suite-spec"]):
        result = cli(*args)
        assert (result.exit_code, result.stderr) == (1, want), args
    with pytest.raises(InputError) as err:
        load_converter_spec(tmp_path / "team.hjson")
    assert err.value.problems == [f"{tmp_path / 'team.hjson'}: {want[len('error: team.hjson: '):-1]}"]


def test_the_pitfall_explanation_without_a_culprit_and_other_problems_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "s.hjson"
    path.write_text('{\n  a: [\n    {b: "1"}\n    {c: "2"}\n  ]\n}\n', encoding="utf-8")
    raw = (f"{path}: line 4, column 5: Found '{{' where a key name was expected (check your syntax or use quotes "
           "if the key name includes {}[],: or whitespace)")
    assert explain_hjson_problem(raw) == (
        f"{path}: line 4, column 5: Found '{{' where a key name was expected: an unquoted string value runs to the "
        "end of its line in hjson, so an inline object {...} before it never closed; quote its string values")
    assert explain_hjson_problem(f"{path}: line 2, column 3: Expected ':'") == f"{path}: line 2, column 3: Expected ':'"


# --------------------------------------------------------------------------- property: any team row round-trips

cell = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=25).filter(lambda s: s.strip())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(cell, min_size=11, max_size=11), owner=st.text(max_size=12),
       ann=st.sampled_from(["qeu", "qea", "qiu", "qia", "qn"]), blank_3=st.booleans())
def test_any_team_row_round_trips_through_its_own_columns(team: tuple[Path, Path], texts: list[str], owner: str,
                                                          ann: str, blank_3: bool) -> None:
    sheet, spec = team
    instances, _ = read_instances(sheet, spec)
    c1, c2, c3, c4, query, a1, a1l, a2, a2l, case, origin = texts
    first = instances[0]
    contexts = {"1": Context("1", c1, ann, "1"), "2": Context("2", c2, "qeu", "2", contradicts=("1",)),
                "3": Context("3", c3, ann, "1", agrees=("1",), contradicts=("2",)), "4": Context("4", c4, "qn")}
    if blank_3:
        del contexts["3"]
    inst = replace(first, id=case.strip(), query=query, contexts=contexts,
                   answers={"1": Answer(a1, a1l), "2": Answer(a2, a2l)}, source_ids={"origin": origin},
                   metadata={"origin": origin, "owner": owner})
    out = sheet.parent / "prop.tsv"
    write_corpus([inst], out)
    (back,), _ = read_instances(out, spec)
    assert {k: v for k, v in back.to_dict().items() if k != "provenance"} == {
        k: v for k, v in inst.to_dict().items() if k != "provenance"}
