"""WikiContradict: the RAG-QA CSV and Appendix E JSON converters, the round trip into the Ragability
corpus, and the wikicontradict suite (the paper's prompt templates and judge)."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from ragability_gen import InputError, Suite, read_instances, read_records
from ragability_gen.compile.core import CompileSummary, compile_suite
from ragability_gen.convert.core import guess_converter_spec
from ragability_gen.core.specs import load_converter_spec, load_prompts, load_suite_spec

DATA = Path(__file__).parent / "data" / "wikicontradict"
SAMPLE = DATA / "rag_qa_sample.csv"
SAME_IDS = {"95", "135", "165", "205", "215"}
SAME_REASON = "samepassage = Same: one passage holds both statements (policy exclude)"
GUESSED = ("reasoning type guessed from the answers for {n} instances (the input has no Contradict type I); "
           "they are tagged wc_reasoning_guessed")


def write_csv(path: Path, rows: list[dict[str, str]]) -> None:
    with open(path, "w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def sample_rows() -> dict[str, dict[str, str]]:
    with open(SAMPLE, encoding="utf-8", newline="") as fh:
        return {r["question_ID"]: r for r in csv.DictReader(fh)}


def plain(instances) -> list[dict]:
    out = []
    for inst in instances:
        d = inst.to_dict()
        d.pop("provenance")
        out.append(d)
    return out


def copy(name: str, dest: Path, as_name: str | None = None) -> Path:
    target = dest / (as_name or name)
    shutil.copyfile(DATA / name, target)
    return target


# --------------------------------------------------------------------------- the real sample

def test_sample_counts_and_summary() -> None:
    instances, summary = read_instances(SAMPLE)
    assert summary.converter == "wikicontradict"
    assert (summary.records_read, summary.instances, summary.merged) == (25, 20, 0)
    assert dict(summary.excluded) == {SAME_REASON: 5}
    assert summary.lines() == [
        f"{SAMPLE}: read 25 records with converter 'wikicontradict', kept 20 instances",
        f"  excluded 5: {SAME_REASON}",
        "  warning: " + GUESSED.format(n=20),
    ]
    kept = {i.source_ids["WikiContradict_ID"] for i in instances}
    assert kept == set(sample_rows()) - SAME_IDS


def test_sample_grouping_each_pair_once() -> None:
    # The 25-row sample holds 25 distinct passage pairs: every question is its own contradiction_ID,
    # named by its question_ID.
    instances, _ = read_instances(SAMPLE)
    assert [(i.id, i.variation) for i in instances] == [(i.source_ids["WikiContradict_ID"], 1) for i in instances]
    assert len({i.id for i in instances}) == 20


def test_explicit_row() -> None:
    rows = sample_rows()
    inst = next(i for i in read_instances(SAMPLE)[0] if i.id == "54")
    row = rows["54"]
    assert inst.query == row["question"]
    assert set(inst.contexts) == {"1", "2"}
    c1, c2 = inst.contexts["1"], inst.contexts["2"]
    assert (c1.text, c1.annotation, c1.answer, c1.contradicts) == (row["context1"], "qeu", "1", ())
    assert (c2.text, c2.annotation, c2.answer, c2.contradicts) == (row["context2"], "qeu", "2", ("1",))
    assert {k: (a.short, a.long) for k, a in inst.answers.items()} == {"1": ("1919", "1919"), "2": ("1918", "1918")}
    assert inst.reasoning == ("temporal.numerical",)
    assert inst.tags == ("wc_explicit", "wc_different_passages", "wc_reasoning_guessed")
    assert inst.source_ids == {"WikiContradict_ID": "54"}
    assert inst.metadata == {"contradictType": "Explicit", "samepassage": "Different",
                             "WikipediaArticleTitle": "Pierre Albert-Birot",
                             "url": "https://en.wikipedia.org/wiki/Pierre_Albert-Birot"}
    assert inst.provenance is not None and inst.provenance.converter == "wikicontradict"


def test_implicit_row() -> None:
    inst = next(i for i in read_instances(SAMPLE)[0] if i.id == "24")
    assert (inst.contexts["1"].annotation, inst.contexts["2"].annotation) == ("qiu", "qiu")
    assert inst.contradicting("1", "2")
    assert inst.reasoning == ("numerical",)           # "Nine" vs "Eight"
    assert inst.tags == ("wc_implicit", "wc_different_passages", "wc_reasoning_guessed")
    assert inst.metadata["contradictType"] == "Implicit (reasoning required)"


def test_reasoning_guessed_from_answers() -> None:
    by_id = {i.id: i.reasoning for i in read_instances(SAMPLE)[0]}
    assert by_id["85"] == ("temporal.numerical",)     # "Before 1802 or 1802" vs "1805"
    assert by_id["4"] == ("categorical",)             # Yes / No
    assert by_id["225"] == ("categorical",)           # A town / A village


def test_unicode_preserved_exactly() -> None:
    rows = sample_rows()
    inst = {i.id: i for i in read_instances(SAMPLE)[0]}
    assert inst["4"].query == "Did Bishop Heber meet D\u2019Oyly in the 1840s in Patna ?"
    assert "\u201cbest gentleman artist I ever met\u201d" in inst["4"].contexts["1"].text
    assert inst["195"].contexts["1"].text == rows["195"]["context1"]
    assert inst["105"].metadata["WikipediaArticleTitle"] == rows["105"]["WikipediaArticleTitle"]
    assert "\u2013" in inst["105"].metadata["WikipediaArticleTitle"]


def test_same_passage_rows_excluded_or_rejected() -> None:
    # 165 is marked Same and its passages differ only in a double space: excluded like the others.
    instances, summary = read_instances(SAMPLE)
    assert not SAME_IDS & {i.id for i in instances}
    with pytest.raises(InputError) as err:
        read_instances(SAMPLE, samepassage="error")
    assert len(err.value.problems) == 5
    assert err.value.problems[0] == (
        f"{SAMPLE}: row 10 (question_ID 95, line 20), column samepassage: samepassage = Same: one passage "
        "holds both statements, so each context alone already holds the conflict (policy error)")


def test_identical_passages_marked_different_are_excluded_too(tmp_path: Path) -> None:
    rows = sample_rows()
    row = dict(rows["225"], context2=rows["225"]["context1"] + "  ")
    path = tmp_path / "wc.csv"
    write_csv(path, [row])
    instances, summary = read_instances(path, "wikicontradict")
    assert instances == []
    assert dict(summary.excluded) == {
        "context1 equals context2 (although samepassage = Different): one passage holds both statements "
        "(policy exclude)": 1}


# --------------------------------------------------------------------------- grouping, tricky text

def test_grouping_shared_reversed_and_duplicate_pairs() -> None:
    path = DATA / "grouping.csv"
    instances, summary = read_instances(path)
    # rows: 10 (pair A), 7 (pair A up to white space), 12 (pair A reversed), 15 (pair B),
    # 16 (pair B, same question as 15), 20 (pair C, newlines and unicode)
    assert [(i.source_ids["WikiContradict_ID"], i.id, i.variation) for i in instances] == [
        ("10", "7", 1), ("7", "7", 2), ("12", "12", 1), ("15", "15", 1), ("20", "20", 1)]
    assert summary.merged == 1
    assert dict(summary.excluded) == {"duplicate question over the same passage pair": 1}
    assert summary.warnings == [
        f"{path}: contradiction_ID 12 has the passages of contradiction_ID 7 in reverse order; kept apart",
        f"{path}: question_ID 7 has the passages of question_ID 10 up to white space; both are in "
        "contradiction_ID 7",
        f"{path}: row 5 (question_ID 16, line 12), column question: same question over the same passages as "
        "question_ID 15",
        GUESSED.format(n=5),
    ]
    # each row keeps its own passage text exactly
    a, b = instances[0], instances[1]
    assert a.contexts["1"].text != b.contexts["1"].text
    assert "civil  parish" in b.contexts["1"].text and "\nCastle" in b.contexts["2"].text
    # the reversed pair has its answers swapped with the passages
    rev = instances[2]
    assert rev.contexts["1"].text == a.contexts["2"].text and rev.answers["1"].short == "A village"


def test_grouping_ids_survive_filters() -> None:
    # contradiction_ID is the smallest question_ID over all rows with the pair, before filtering
    instances, _ = read_instances(DATA / "grouping.csv", conflict="explicit")
    assert [(i.source_ids["WikiContradict_ID"], i.id) for i in instances] == [
        ("10", "7"), ("7", "7"), ("12", "12"), ("20", "20")]


def test_embedded_newlines_quotes_and_unicode_preserved() -> None:
    inst = next(i for i in read_instances(DATA / "grouping.csv")[0] if i.id == "20")
    assert inst.query == 'When did "Grabinoulor" first appear?\nAsked on two lines.'
    assert inst.contexts["1"].text == (
        'Pierre Albert-Birot\'s novel "Grabinoulor" appeared in 1919.\n'
        "Zo\u00eb\u2019s caf\u00e9 \u2014 \u6771\u4eac \U0001F600, a line after a newline; a quote: \"Grabinoulor\".")
    assert inst.provenance is not None and inst.provenance.line == 14


# --------------------------------------------------------------------------- filters and options

@pytest.mark.parametrize(("options", "kept", "excluded"), [
    ({"conflict": "explicit"}, 13, {"filter: explicit conflicts only": 10, SAME_REASON: 2}),
    ({"conflict": "implicit"}, 7, {"filter: implicit conflicts only": 15, SAME_REASON: 3}),
    ({"passages": "different"}, 20, {"filter: different passages only": 5}),
    ({"passages": "different", "samepassage": "error"}, 20, {"filter: different passages only": 5}),
    ({"conflict": "implicit", "passages": "different"}, 7,
     {"filter: implicit conflicts only": 15, "filter: different passages only": 3}),
])
def test_filters(options: dict, kept: int, excluded: dict) -> None:
    instances, summary = read_instances(SAMPLE, **options)
    assert (len(instances), summary.instances, summary.records_read) == (kept, kept, 25)
    assert dict(summary.excluded) == excluded
    kind = options.get("conflict")
    if kind:
        assert all(f"wc_{kind}" in i.tags for i in instances)


def test_unknown_options_are_errors() -> None:
    with pytest.raises(InputError) as err:
        read_instances(SAMPLE, conflict="both", colour="red")
    assert err.value.problems == [
        "option conflict: unknown value 'both' (use one of explicit, implicit)",
        "unknown option 'colour' for converter 'wikicontradict-csv' (known: conflict, passages, samepassage, "
        "bad_rows)",
    ]


def test_bad_rows_can_be_excluded_and_counted() -> None:
    path = DATA / "bad_many.csv"
    instances, summary = read_instances(path, bad_rows="exclude")
    assert instances == []
    assert dict(summary.excluded) == {"bad row: empty question": 1, "bad row: unknown contradiction type": 1,
                                      "bad row: ref_answer disagrees with answer1|answer2": 1}
    assert summary.warnings[0] == f"excluded {path}: row 1 (question_ID 4, line 2), column question: must not be empty"


def test_cli_filters(cli, tmp_path: Path) -> None:
    copy("rag_qa_sample.csv", tmp_path, "wc.csv")
    result = cli("convert", "wc.csv", "--conflict", "implicit", "--different-passages-only", "--to-corpus", "c.tsv",
                 "--drop-unmapped")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        "wc.csv: read 25 records with converter 'wikicontradict', kept 7 instances",
        "  excluded 3: filter: different passages only",
        "  excluded 15: filter: implicit conflicts only",
        "  warning: " + GUESSED.format(n=7),
        "  dropped (no column in converter spec 'ragability-v0.4'): column 'contradictType', column 'samepassage', "
        "column 'WikipediaArticleTitle', column 'url', tags",
        "wrote 7 rows to c.tsv",
    ]


def test_a_corpus_table_that_would_drop_fields_is_refused(cli, tmp_path: Path) -> None:
    copy("rag_qa_sample.csv", tmp_path, "wc.csv")
    result = cli("convert", "wc.csv", "--to-corpus", "c.tsv")
    assert result.exit_code == 1
    assert result.stderr == "".join(
        f"error: wc.csv: line 2: {what}: converter spec 'ragability-v0.4' has no column for it, so it would be "
        "dropped (write a .jsonl corpus, or name an output spec that maps it)\n"
        for what in ("column 'contradictType'", "column 'samepassage'", "column 'WikipediaArticleTitle'",
                     "column 'url'", "tags"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["wc.csv"]
    assert cli("convert", "wc.csv", "--to-corpus", "c.jsonl", "-q").exit_code == 0


# --------------------------------------------------------------------------- bad input, via the CLI

BAD = [
    ("bad_missing_column.csv", ["line 1: missing column 'samepassage'"]),
    ("bad_unknown_type.csv", ["row 2 (question_ID 14, line 4), column contradictType: unknown contradiction "
                              "type 'Sometimes' (known: Explicit, Implicit (reasoning required))"]),
    ("bad_empty_question.csv", ["row 1 (question_ID 4, line 2), column question: must not be empty"]),
    ("bad_empty_passage.csv", ["row 3 (question_ID 24, line 6), column context2: must not be empty"]),
    ("bad_ref_answer.csv", ["row 3 (question_ID 24, line 6), column ref_answer: 'Nine|Seven' disagrees with "
                            "answer1|answer2 'Nine|Eight'"]),
    ("bad_many.csv", [
        "row 1 (question_ID 4, line 2), column question: must not be empty",
        "row 2 (question_ID 14, line 4), column contradictType: unknown contradiction type 'Sometimes' "
        "(known: Explicit, Implicit (reasoning required))",
        "row 2 (question_ID 14, line 4), column samepassage: unknown value 'Maybe' (known: Same, Different)",
        "row 3 (question_ID 24, line 6), column ref_answer: 'Nine|Seven' disagrees with answer1|answer2 "
        "'Nine|Eight'",
    ]),
]


@pytest.mark.parametrize(("fixture", "problems"), BAD)
@pytest.mark.parametrize("target", [["--suite", "wikicontradict", "-o", "out.hjson"], ["--to-corpus", "out.tsv"]])
def test_bad_input_exact_messages(cli, tmp_path: Path, fixture: str, problems: list[str], target: list[str]) -> None:
    copy(fixture, tmp_path, "wc.csv")
    result = cli("convert", "wc.csv", *target)
    assert result.exit_code == 1
    assert result.stderr == "".join(f"error: wc.csv: {p}\n" for p in problems)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["wc.csv"]


def test_ref_answer_tolerates_space_around_the_separator(tmp_path: Path) -> None:
    row = dict(sample_rows()["24"], ref_answer=" Nine | Eight ")
    path = tmp_path / "wc.csv"
    write_csv(path, [row])
    assert len(read_instances(path, "wikicontradict")[0]) == 1


def test_extra_and_partial_revised_columns(tmp_path: Path) -> None:
    row = dict(sample_rows()["24"], note="x", context1_revised="Eight cities.")
    path = tmp_path / "wc.csv"
    write_csv(path, [row])
    with pytest.raises(InputError) as err:
        read_instances(path, "wikicontradict")
    assert err.value.problems == [
        f"{path}: line 1: missing columns 'context2_revised', 'answer_revised' (needed with column "
        "'context1_revised')"]
    row.update(context2_revised="", answer_revised="Eight")
    write_csv(path, [row])
    with pytest.raises(InputError) as err:
        read_instances(path, "wikicontradict")
    assert err.value.problems == [f"{path}: row 1 (question_ID 24, line 2), column context2_revised: must not "
                                  "be empty when column context1_revised is given"]
    row["context2_revised"] = "Eight cities, listed."
    write_csv(path, [row])
    (inst,), summary = read_instances(path, "wikicontradict")
    assert set(inst.contexts) == {"1", "2", "1r", "2r"}
    assert summary.warnings[0] == f"{path}: ignored columns the converter spec does not map: note"


def test_unknown_contradict_type_i(tmp_path: Path) -> None:
    row = dict(sample_rows()["24"], Contradict_type_I="Mood")
    path = tmp_path / "wc.csv"
    write_csv(path, [row])
    with pytest.raises(InputError) as err:
        read_instances(path, "wikicontradict")
    assert err.value.problems == [f"{path}: row 1 (question_ID 24, line 2), column Contradict_type_I: unknown "
                                  "contradiction type I value 'Mood'"]


def test_duplicate_question_ids(tmp_path: Path) -> None:
    rows = sample_rows()
    path = tmp_path / "wc.csv"
    with open(path, "w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows["24"]))
        w.writeheader()
        w.writerow(rows["24"])
        w.writerow(dict(rows["54"], question_ID="24"))
    with pytest.raises(InputError) as err:
        read_instances(path, "wikicontradict")
    assert err.value.problems == [f"{path}: row 2 (question_ID 24, line 4), column question_ID: duplicate "
                                  "question_ID, first in row 1"]


# --------------------------------------------------------------------------- the JSON layout (Appendix E)

def test_json_layout_gives_the_same_instances_as_the_csv_rows() -> None:
    from_json, js = read_instances(DATA / "appendix_e.json")
    from_csv, cs = read_instances(DATA / "appendix_e.csv")
    assert js.converter == "wikicontradict-json" and cs.converter == "wikicontradict"
    assert plain(from_json) == plain(from_csv)
    assert [(i.id, i.variation, i.source_ids["WikiContradict_ID"]) for i in from_json] == [
        ("1", 1, "1"), ("1", 2, "2"), ("3", 1, "3")]
    assert (js.records_read, js.instances, js.merged) == (5, 3, 1)
    assert dict(js.excluded) == {SAME_REASON: 1, "tag annotated as not valid (Invalid)": 1}
    assert dict(cs.excluded) == {SAME_REASON: 1}
    assert js.warnings == [] and cs.warnings == []


def test_json_layout_fields() -> None:
    instances, _ = read_instances(DATA / "appendix_e.json")
    first, _second, tob = instances
    # the standalone passage wins over paragraphA_information when given; newlines and unicode kept
    assert first.contexts["1"].text.startswith("Pierre Albert-Birot's novel \"Grabinoulor\" appeared in 1919.\nZo")
    assert first.reasoning == ("temporal.numerical",)
    assert first.tags == ("wc_explicit", "wc_different_passages", "wc_type_datetime")
    assert first.metadata["Contradict_type_I"] == "(PhraseLevel) Entity - Date/time"
    # Contradict_type_I/IV empty: taken from taxonomy; revised passages become contexts 1r, 2r
    assert tob.metadata["contradictType"] == "Implicit (reasoning required)"
    assert tob.reasoning == ("numerical",)
    assert tob.tags == ("wc_implicit", "wc_different_passages", "wc_type_number", "wc_revised_passages")
    assert set(tob.contexts) == {"1", "2", "1r", "2r"}
    assert tob.answers["r"].short == "Eight"
    assert not tob.contradicting("1r", "2r") and tob.contexts["1r"].agrees == ("2r",)


def test_json_question_ids(tmp_path: Path) -> None:
    # question1_ID is used when present; else questions are numbered from first_question_id
    records = json.loads((DATA / "appendix_e.json").read_text(encoding="utf-8"))
    same = records[3]
    same["annotationResult"]["wikitag_label_samepassage"] = "Different"
    same["annotationResult"]["paragraphB_information"] = "Another passage about the same protest."
    path = tmp_path / "wc.json"
    path.write_text(json.dumps(records), encoding="utf-8")
    instances, _ = read_instances(path)
    assert [i.source_ids["WikiContradict_ID"] for i in instances] == ["1", "2", "3", "40"]


def test_json_jsonl_layout(tmp_path: Path) -> None:
    records = json.loads((DATA / "appendix_e.json").read_text(encoding="utf-8"))
    path = tmp_path / "wc.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    assert plain(read_instances(path)[0]) == plain(read_instances(DATA / "appendix_e.json")[0])


def test_json_bad_input(tmp_path: Path) -> None:
    records = json.loads((DATA / "appendix_e.json").read_text(encoding="utf-8"))
    records[0]["annotationResult"]["question2_answer2"] = ""
    records[1]["annotationResult"]["Contradict_type_IV"] = "Vague"
    records.append("not a record")
    path = tmp_path / "wc.json"
    path.write_text(json.dumps(records), encoding="utf-8")
    with pytest.raises(InputError) as err:
        read_instances(path)
    assert err.value.problems == [f"{path}: record 5: expected an object, got str"]
    records.pop()
    path.write_text(json.dumps(records), encoding="utf-8")
    with pytest.raises(InputError) as err:
        read_instances(path)
    assert err.value.problems == [
        f"{path}: record 1, question 2 (question_ID 2), field annotationResult.question2_answer2: must not be empty",
        f"{path}: record 2, question 1 (question_ID 3), field annotationResult.Contradict_type_IV: unknown "
        "contradiction type 'Vague' (known: Explicit, Implicit (reasoning required))",
    ]
    path.write_text('[{"annotationResult": {}},\n  oops]', encoding="utf-8")
    with pytest.raises(InputError) as err:
        read_instances(path, "wikicontradict-json")
    assert err.value.problems == [f"{path}: line 2, column 3: Expecting value"]


# --------------------------------------------------------------------------- sniffing and specs

def test_shipped_specs_are_picked_by_sniffing(tmp_path: Path) -> None:
    assert guess_converter_spec(SAMPLE).name == "wikicontradict"
    assert guess_converter_spec(DATA / "appendix_e.json").name == "wikicontradict-json"
    assert guess_converter_spec(DATA / "bad_missing_column.csv").name == "wikicontradict"
    other = tmp_path / "other.csv"
    other.write_text("a,b\n1,2\n", encoding="utf-8")
    assert guess_converter_spec(other).name == "ragability-v0.4"


def test_converter_specs_validate() -> None:
    for name, kind in (("wikicontradict", "wikicontradict-csv"), ("wikicontradict-json", "wikicontradict-json")):
        spec = load_converter_spec(name)
        assert spec["converter"] == kind
        assert spec["samepassage"]["policy"] == "exclude"


# --------------------------------------------------------------------------- round trip into the Ragability corpus

def test_round_trip_through_the_ragability_corpus(cli, tmp_path: Path) -> None:
    copy("rag_qa_sample.csv", tmp_path, "wc.csv")
    assert cli("convert", "wc.csv", "--to-corpus", "corpus.tsv", "--drop-unmapped", "-q").exit_code == 0
    with open(tmp_path / "corpus.tsv", encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    assert len(rows) == 20
    assert {r["context_3_nc1_c2"] for r in rows} == {""} and {r["context_4_nc1_nc2_nc3"] for r in rows} == {""}
    by_id = {r["contradiction_ID"]: r for r in rows}
    assert (by_id["54"]["c1xq"], by_id["54"]["c2xq"], by_id["54"]["reasoning_required_c1c2"]) == (
        "qeu", "qeu", "temporal.numerical")
    assert (by_id["24"]["c1xq"], by_id["24"]["reasoning_required_c1c2"]) == ("qiu", "numerical")
    assert by_id["4"]["query_text"] == sample_rows()["4"]["question"]
    assert by_id["4"]["answer_context1_long"] == "Yes"

    back, summary = read_instances(tmp_path / "corpus.tsv")
    assert summary.converter == "ragability-v0.4" and summary.warnings == []
    original = {i.id: i for i in read_instances(tmp_path / "wc.csv")[0]}
    for inst in back:
        o = original[inst.id]
        assert inst.query == o.query and inst.reasoning == o.reasoning
        assert {k: c.text for k, c in inst.contexts.items()} == {k: c.text for k, c in o.contexts.items()}
        assert [c.annotation for c in inst.contexts.values()] == [c.annotation for c in o.contexts.values()]

    result = cli("convert", "corpus.tsv", "-o", "suite.hjson")
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert "compiled 20 instances into 220 items" in lines
    assert ("  skipped 120 items (context 3 missing): variants ctx13ic, ctx13q, ctx13qh, ctx31ic, ctx31q, "
            "ctx31qh") in lines
    assert "  skipped 60 items (context 3, 4 missing): variants ctx1234ic, ctx1234q, ctx1234qh" in lines


# --------------------------------------------------------------------------- the wikicontradict suite

def compile_items(instances, tmp_path: Path) -> tuple[list[dict], CompileSummary, Path]:
    summary, prompts = compile_suite(instances, tmp_path / "suite.hjson", "wikicontradict")
    return read_records(tmp_path / "suite.hjson"), summary, prompts


def test_suite_spec_loads() -> None:
    suite = Suite(load_suite_spec("wikicontradict"))
    assert [v["name"] for v in suite.spec["variants"]] == [
        "t1", "t2", "t3", "t4", "t5", "t5.1", "t5.2", "t5.3", "t5.4"]
    assert suite.spec["metrics"]["wc_judge"]["kind"] == "multiclass"


def test_suite_on_the_sample(tmp_path: Path) -> None:
    instances, _ = read_instances(SAMPLE)
    items, summary, prompts_path = compile_items(instances, tmp_path)
    assert len(items) == summary.items == 140
    assert dict(summary.per_variant) == {v: 20 for v in ("t1", "t2", "t3", "t4", "t5", "t5.1", "t5.2")}
    assert dict(summary.skipped) == {("t5.3", "context 1r, 2r missing"): 20, ("t5.4", "context 1r, 2r missing"): 20}
    assert dict(summary.outcomes) == {"no_context": 20, "answer": 40, "conflict": 80}
    assert len({it["qid"] for it in items}) == len(items)
    pids = {p["pid"] for p in load_prompts(prompts_path)}
    for it in items:
        assert set(it["pids"]) <= pids
        for c in it["checks"]:
            assert c["pid"] in pids
    by_qid = {it["qid"]: it for it in items}
    t5, t51 = by_qid["54-t5-var01"], by_qid["54-t5.1-var01"]
    assert t51["facts"] == list(reversed(t5["facts"])) and t5["facts"][0].startswith("Pierre Albert-Birot")
    assert t5["pids"] == t51["pids"] == ["wc_t5"]
    judge = {k: by_qid[f"54-{k}-var01"]["checks"][0] for k in ("t1", "t2", "t3", "t4", "t5", "t5.1")}
    assert {k: c["check_for"] for k, c in judge.items()} == {
        "t1": "1919 | 1918", "t2": "1919", "t3": "1918", "t4": "1919 | 1918", "t5": "1919 | 1918",
        "t5.1": "1919 | 1918"}
    assert all(c["func"] == "wc_judge" and c["pid"] == "wc_judge" and c["query"] == t5["query"]
               for c in judge.values())
    assert "facts" not in by_qid["54-t1-var01"]
    detect = by_qid["54-t5.2-var01"]
    assert detect["query"] == t5["query"] and detect["facts"] == t5["facts"]
    assert detect["checks"] == [{"cid": "wc_conflict_detected", "query": t5["query"], "func": "affirmative",
                                 "metrics": ["wc_conflict_detection"], "pid": "wc_check_conflict_detected"}]
    tags = t5["tags"].split(", ")
    assert {"wc_template_5", "wc_explicit", "wc_different_passages", "expect_conflict"} <= set(tags)
    assert t5["contradictType"] == "Explicit" and t5["WikipediaArticleTitle"] == "Pierre Albert-Birot"


def test_suite_with_revised_passages(tmp_path: Path) -> None:
    instances, _ = read_instances(DATA / "appendix_e.json")
    items, summary, _ = compile_items(instances, tmp_path)
    assert summary.per_variant["t5.3"] == summary.per_variant["t5.4"] == 1
    assert dict(summary.skipped) == {("t5.3", "context 1r, 2r missing"): 2, ("t5.4", "context 1r, 2r missing"): 2}
    by_qid = {it["qid"]: it for it in items}
    t53, t54 = by_qid["3-t5.3-var01"], by_qid["3-t5.4-var01"]
    assert t53["facts"][0].endswith("organized in eight cities of the Tobolsk Viceroyalty.")
    assert t53["checks"][0]["check_for"] == "Eight"
    assert "expect_answer" in t53["tags"].split(", ")
    assert t54["pids"] == ["wc_t5_2"] and t54["checks"][0]["func"] == "negative"
    assert t54["facts"] == t53["facts"]
    # the revised answer does not leak into the judge's answer list for the original passages
    assert by_qid["3-t5-var01"]["checks"][0]["check_for"] == "Nine | Eight"
    assert [it["qid"] for it in items if it["qid"].startswith("1-t1")] == ["1-t1-var01", "1-t1-var02"]


def test_prompts_use_the_paper_wording() -> None:
    prompts = {p["pid"]: p for p in load_prompts(Path(load_suite_spec("wikicontradict").path).parent
                                                 / "wikicontradict-prompts.hjson")}
    t5 = ("Provide a short answer for the following question based on the given context. Carefully investigate "
          "the given context and provide a concise response that reflects the comprehensive view of the context, "
          "even if the answer contains contradictory information reflecting the heterogeneous nature of the "
          "context.")
    assert prompts["wc_t5"]["user"] == t5 + "\n\nQuestion: ${query}\n\nContext: ${facts}"
    assert prompts["wc_t5_2"]["user"] == (
        "Context: ${facts}\nDoes the above provided context contain conflicting information that could result in "
        "different answers to the question ${query}? Provide a short answer followed by a concise explanation.")
    judge = prompts["wc_judge"]
    assert judge["system"].startswith("Please evaluate the response to a question under relaxed evaluation")
    assert judge["system"].endswith("that does not significantly impact the primary answers.")
    assert [f"Example {n}" in judge["user"] for n in range(1, 9)] == [True] * 8
    assert judge["user"].count("\nevaluation: ") == 8
    assert judge["user"].endswith("Testing instance\nquestion: ${query}\ncorrect_answers: ${check_for}\n"
                                  "response: ${answer}\ncomment:")


def test_convert_picks_the_converter_spec_default_suite(cli, tmp_path: Path) -> None:
    result = cli("convert", SAMPLE, "-o", "wc.hjson")
    assert result.exit_code == 0, result.output
    items = read_records(tmp_path / "wc.hjson")
    assert {i["qid"].split("-")[1] for i in items} == {"t1", "t2", "t3", "t4", "t5", "t5.1", "t5.2"}
    assert "with suite spec 'wikicontradict'" in (tmp_path / "wc.hjson").read_text(encoding="utf-8").splitlines()[0]


def test_validate_recognises_the_json_release(cli) -> None:
    result = cli("validate", DATA / "appendix_e.json")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"{DATA / 'appendix_e.json'}: valid corpus (")
