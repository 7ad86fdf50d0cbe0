"""Compiling instances into suites: the established 20 variants, the outcome rules, tags, extensibility."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import V04_COLUMNS, edited_suite_spec, row, tsv_text

from ragability_gen import Instance, compile_suite, read_instances, read_records
from ragability_gen.compile.core import Suite, expected_outcome
from ragability_gen.core.model import Answer, Context
from ragability_gen.core.schemas import record_problems
from ragability_gen.core.specs import load_suite_spec
from ragability_gen.errors import SpecError

C1, C2, C3, C4 = (row()[c] for c in ("context_1", "context_2", "context_3_nc1_c2", "context_4_nc1_nc2_nc3"))
ANS1 = "short answer: a suricate\nlong answer: A cap squirrel is a suricate."
ANS2 = "short answer: a squirrel\nlong answer: A cap squirrel is a squirrel."
REFUSE = ("affirmative", ["correct_answer_all", "refusal_not_answerable"], "check_response_not_answerable")
ANSWER = ("affirmative", ["correct_answer_all", "correct_answer_answerable"], "check_correct_answer")
IC = ["correct_answer_all", "contradiction_identification"]

# The established converter's 20 variants for one row: facts, pid, (cid, func, metrics, check pid, check_for),
# and its tag string.
LEGACY = [
    ("nc", None, "q_no_context", ("no_ctx_not_answerable", *REFUSE, None),
     "kind_no_context, kind_no_context_q, not_answerable"),
    ("ctx1", C1, "q_n_contexts", ("answer_correct", *ANSWER, ANS1),
     "kind_1context, kind_1context_q, kind_context1, kind_context1_q, answerable"),
    ("ctx2", C2, "q_n_contexts", ("answer_correct", *ANSWER, ANS2),
     "kind_1context, kind_1context_q, kind_context2, kind_context2_q, answerable"),
]
for hint in ("", "h"):
    pid = "q_n_contexts_hints" if hint else "q_n_contexts"
    sign = "+h" if hint else "-h"
    LEGACY += [
        (f"ctx12q{hint}", [C1, C2], pid, ("2ctx_not_answerable", *REFUSE, None),
         f"kind_2contexts, kind_2contexts_q, kind_context1+2, kind_context1+2_q, kind_2contexts_q{sign}, "
         "not_answerable"),
        (f"ctx21q{hint}", [C2, C1], pid, ("2ctx_not_answerable", *REFUSE, None),
         f"kind_2contexts, kind_2contexts_q, kind_context2+1, kind_context2+1_q, kind_2contexts_q{sign}, "
         "not_answerable"),
        (f"ctx13q{hint}", [C1, C3], pid, ("answer_correct", *ANSWER, ANS1),
         f"kind_2contexts, kind_2contexts_q, kind_context1+3, kind_context1+3_q, kind_2contexts_q{sign}, answerable"),
        (f"ctx31q{hint}", [C3, C1], pid, ("answer_correct", *ANSWER, ANS1),
         f"kind_2contexts, kind_2contexts_q, kind_context3+1, kind_context3+1_q, kind_2contexts_q{sign}, answerable"),
        (f"ctx1234q{hint}", [C1, C2, C3, C4], pid, ("2ctx_not_answerable", *REFUSE, None),
         f"kind_4contexts, kind_4contexts_q, kind_context1+2+3+4, kind_context1+2+3+4_q, kind_4contexts_q{sign}, "
         "not_answerable"),
    ]
for name, facts, func, combo in [
    ("ctx1ic", C1, "negative", "1"), ("ctx2ic", C2, "negative", "2"),
    ("ctx12ic", [C1, C2], "affirmative", "1+2"), ("ctx21ic", [C2, C1], "affirmative", "2+1"),
    ("ctx13ic", [C1, C3], "negative", "1+3"), ("ctx31ic", [C3, C1], "negative", "3+1"),
    ("ctx1234ic", [C1, C2, C3, C4], "affirmative", "1+2+3+4"),
]:
    n = {"1": "1context", "2": "1context", "1+2+3+4": "4contexts"}.get(combo, "2contexts")
    LEGACY.append((name, facts, "ci_n_contexts", ("answer_correct", func, IC, None, None),
                   f"kind_{n}, kind_{n}_ic, kind_context{combo}, kind_context{combo}_ic, answerable"))

ORDER = ["nc", "ctx1", "ctx2", "ctx12q", "ctx21q", "ctx13q", "ctx31q", "ctx1234q", "ctx12qh", "ctx21qh", "ctx13qh",
         "ctx31qh", "ctx1234qh", "ctx1ic", "ctx2ic", "ctx12ic", "ctx21ic", "ctx13ic", "ctx31ic", "ctx1234ic"]


def _compile(tmp_path: Path, text: str, **kw: object) -> list[dict]:
    (tmp_path / "c.tsv").write_text(text, encoding="utf-8")
    instances, _ = read_instances(tmp_path / "c.tsv", kw.pop("converter", None))  # type: ignore[arg-type]
    compile_suite(instances, tmp_path / "c.hjson", **kw)  # type: ignore[arg-type]
    return read_records(tmp_path / "c.hjson")


def test_default_suite_reproduces_the_established_20_variants(tmp_path: Path) -> None:
    items = _compile(tmp_path, tsv_text([row()]))
    assert [i["qid"] for i in items] == [f"13-{v}-var01" for v in ORDER]
    legacy = sorted(LEGACY, key=lambda x: ORDER.index(x[0]))
    for item, (variant, facts, pid, check, legacy_tags) in zip(items, legacy, strict=True):
        cid, func, metrics, check_pid, check_for = check
        expected_check = {"cid": cid, "query": "", "func": func, "metrics": metrics, "pid": check_pid,
                          "check_for": check_for}
        if variant.endswith("ic"):
            expected_check = {"cid": cid, "func": func, "metrics": metrics}
        expected = {"qid": f"13-{variant}-var01", "tags": item["tags"]}
        if facts is not None:
            expected["facts"] = facts
        expected.update(query="" if variant.endswith("ic") else row()["query_text"], pids=[pid],
                        checks=[{k: v for k, v in expected_check.items() if v is not None}],
                        WikiContradict_ID="42", reasoning_required_c1c2="categorical", c1xq="qeu", c2xq="qeu")
        assert item == expected, variant
        assert list(item) == list(expected), variant
        if variant != "ctx1234ic":  # the established converter tagged only this ic item not_answerable
            assert item["tags"].startswith(legacy_tags), variant


def test_items_validate_against_the_test_item_schema(tmp_path: Path, demo_tsv: Path) -> None:
    instances, _ = read_instances(demo_tsv)
    compile_suite(instances, tmp_path / "d.hjson")
    items = read_records(tmp_path / "d.hjson")
    assert record_problems(items, "test-item", lambda i: f"item {i}") == []
    assert len({i["qid"] for i in items}) == len(items)


def test_tags_carry_every_breakdown_dimension(tmp_path: Path) -> None:
    items = {i["qid"]: i["tags"].split(", ") for i in _compile(
        tmp_path, tsv_text([row(c2xq="qia", reasoning_required_c1c2="numerical + temporal.relational")]))}
    tags = items["13-ctx21qh-var01"]
    for tag in ("ctx_2+1", "hint", "task_q", "reasoning_numerical", "reasoning_temporal.relational",
                "c1xq_qeu", "c2xq_qia", "qeu", "qia", "expect_conflict", "contradiction_in_facts"):
        assert tag in tags
    assert {"ctx_1", "nohint", "task_q", "c1xq_qeu", "expect_answer", "no_contradiction_in_facts"} <= set(
        items["13-ctx1-var01"])
    assert "c2xq_qia" not in items["13-ctx1-var01"]
    assert {"ctx_1+3", "task_ic", "expect_no"} <= set(items["13-ctx13ic-var01"])
    assert all(t == t.strip() and t and "," not in t for ts in items.values() for t in ts)


def _outcomes(items: list[dict]) -> dict[str, str]:
    return {i["qid"].split("-")[1]: next(t for t in i["tags"].split(", ") if t.startswith("expect_"))
            for i in items}


def test_a_qn_context_alone_is_not_answerable(tmp_path: Path) -> None:
    out = _outcomes(_compile(tmp_path, tsv_text([row(c1xq="qn")])))
    assert out["ctx1"] == "expect_noinfo"
    assert out["ctx13q"] == "expect_noinfo"  # context 3 takes context 1's relation to the query
    assert out["ctx2"] == "expect_answer"
    assert out["ctx12q"] == "expect_answer"  # only context 2 answers: no conflict over the query
    assert out["ctx12ic"] == "expect_yes"  # identification ignores the query


def test_noinfo_items_get_a_refusal_check(tmp_path: Path) -> None:
    items = {i["qid"]: i for i in _compile(tmp_path, tsv_text([row(c2xq="qn")]))}
    item = items["13-ctx2-var01"]
    assert "not_answerable" in item["tags"].split(", ")
    assert item["checks"] == [{"cid": "noinfo_not_answerable", "query": "", "func": "affirmative",
                               "metrics": ["correct_answer_all", "refusal_not_answerable"],
                               "pid": "check_response_not_answerable"}]
    assert items["13-ctx12q-var01"]["checks"][0]["check_for"] == ANS1


def test_several_queries_on_one_contradiction_get_distinct_qids(tmp_path: Path) -> None:
    items = _compile(tmp_path, tsv_text([row(), row(query_text="Is a Cap Squirrel a mammal?")]))
    qids = [i["qid"] for i in items]
    assert len(qids) == 40 == len(set(qids))
    assert "13-ctx1-var01" in qids and "13-ctx1-var02" in qids


def test_rows_without_generated_contexts_skip_their_variants(tmp_path: Path) -> None:
    (tmp_path / "c.tsv").write_text(tsv_text([row(), row(contradiction_ID="14", context_3_nc1_c2="",
                                                         context_4_nc1_nc2_nc3="")]), encoding="utf-8")
    instances, _ = read_instances(tmp_path / "c.tsv")
    summary, _ = compile_suite(instances, tmp_path / "c.hjson")
    assert summary.items == 20 + 11
    assert sum(summary.skipped.values()) == 9
    assert summary.skipped[("ctx13q", "context 3 missing")] == 1
    assert summary.skipped[("ctx1234ic", "context 3, 4 missing")] == 1
    assert "  skipped 6 items (context 3 missing): variants ctx13ic, ctx13q, ctx13qh, ctx31ic, ctx31q, ctx31qh" \
        in summary.lines()
    assert not any(i["qid"].startswith("14-ctx13") for i in read_records(tmp_path / "c.hjson"))


def test_expected_outcome_rules() -> None:
    inst = Instance(
        id="1", query="q?",
        contexts={"1": Context("1", "a", "qeu", "1"), "2": Context("2", "b", "qiu", "2", contradicts=("1",)),
                  "3": Context("3", "c", "qeu", "1", agrees=("1",), contradicts=("2",)),
                  "4": Context("4", "d", "qn")},
        answers={"1": Answer("x", "X"), "2": Answer("y", "Y")},
    )
    assert expected_outcome(inst, [], "q") == ("no_context", None)
    assert expected_outcome(inst, ["4"], "q") == ("noinfo", None)
    assert expected_outcome(inst, ["4", "2"], "q") == ("answer", "2")
    assert expected_outcome(inst, ["3", "1", "4"], "q") == ("answer", "1")
    assert expected_outcome(inst, ["3", "2"], "q") == ("conflict", None)
    assert expected_outcome(inst, ["2", "3"], "ic") == ("ic_yes", None)
    assert expected_outcome(inst, ["1", "3", "4"], "ic") == ("ic_no", None)


# ---------------------------------------------------------------------- extending by spec files only

CONVERTER_5 = """
{
  name: ragability-c5
  converter: table
  format: tsv
  id_column: contradiction_ID
  query_column: query_text
  contexts: [
    {"id": "1", "column": "context_1", "annotation_column": "c1xq", "answer": "1"}
    {"id": "2", "column": "context_2", "annotation_column": "c2xq", "answer": "2", "contradicts": ["1"]}
    {"id": "3", "column": "context_3_nc1_c2", "required": false, "annotation_from": "1", "answer": "1",
     "agrees": ["1"], "contradicts": ["2"]}
    {"id": "4", "column": "context_4_nc1_nc2_nc3", "required": false, "annotation": "qn"}
    # agrees with context 2, contradicts contexts 1 and 3
    {"id": "5", "column": "context_5", "required": false, "annotation_from": "2", "answer": "2",
     "agrees": ["2"], "contradicts": ["1", "3"]}
  ]
  answers: [
    {"id": "1", "short": "answer_context1", "long": "answer_context1_long"}
    {"id": "2", "short": "answer_context2", "long": "answer_context2_long"}
  ]
  reasoning_column: reasoning_required_c1c2
  source_id_columns: ["WikiContradict_ID"]
  metadata_columns: ["WikiContradict_ID"]
}
"""


def test_a_fifth_context_and_a_new_variant_need_only_spec_files(tmp_path: Path) -> None:
    (tmp_path / "c5.hjson").write_text(CONVERTER_5, encoding="utf-8")
    base = load_suite_spec("ragability")
    text = base.path.read_text(encoding="utf-8").replace(
        "  variants: [",
        """  variants: [
    {name: "ctx25q", task: "q", contexts: ["2", "5"], pids: ["q_n_contexts"], tags: ["kind_context2+5"]}
    {name: "ctx35q", task: "q", contexts: ["3", "5"], pids: ["q_n_contexts"]}
    {name: "ctx45ic", task: "ic", contexts: ["4", "5"], pids: ["ci_n_contexts"]}""", 1)
    (tmp_path / "suite5.hjson").write_text(text, encoding="utf-8")
    (tmp_path / "ragability-prompts.hjson").write_text(
        (base.path.parent / "ragability-prompts.hjson").read_text(encoding="utf-8"), encoding="utf-8")
    c5 = "The Cap Squirrel is, as every naturalist agrees, a true squirrel."
    items = {i["qid"]: i for i in _compile(
        tmp_path, tsv_text([row(context_5=c5)], [*V04_COLUMNS, "context_5"]),
        converter=tmp_path / "c5.hjson", suite=tmp_path / "suite5.hjson")}
    assert items["13-ctx25q-var01"]["facts"] == [C2, c5]
    assert items["13-ctx25q-var01"]["checks"][0]["check_for"] == ANS2
    assert items["13-ctx25q-var01"]["tags"].startswith("kind_context2+5, answerable, expect_answer, ctx_2+5")
    assert "expect_conflict" in items["13-ctx35q-var01"]["tags"]
    assert items["13-ctx45ic-var01"]["checks"][0]["func"] == "negative"
    assert len(items) == 23


def test_suite_spec_references_are_checked(tmp_path: Path) -> None:
    path = edited_suite_spec(tmp_path, lambda text: text.replace(
        'pids: ["q_no_context"]', 'pids: ["q_nothing"]').replace(
        "func: affirmative\n          metrics: [\"correct_answer_all\", \"correct_answer_answerable\"]",
        "func: affirmativ\n          metrics: [\"correct_answer_all\", \"correct_answer_answerable\"]").replace(
        '"short answer: {answer_short}', '"short answer: {answer_shrt}'))
    with pytest.raises(SpecError) as err:
        Suite(load_suite_spec(path))
    where = str(path)
    assert err.value.problems == [
        f"{where}: variant nc: field pids: no prompt 'q_nothing' in ragability-prompts.hjson",
        f"{where}: outcome answer, check answer_correct: field func: unknown check function 'affirmativ'",
        f"{where}: outcome answer, check answer_correct: field check_for: unknown template field {{answer_shrt}} "
        "(known: id, variant, variation, query, answer_id, answer_short, answer_long, answers_short, answers_long, "
        "answer<ID>_short, answer<ID>_long)",
    ]
