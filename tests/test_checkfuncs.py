"""Check functions: robust yes/no reading, list-argument checks, scores, and parse errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import edited_suite_spec

from ragability_gen.checkfuncs import CHECKS, CheckParseError, register_check
from ragability_gen.compile.core import Suite
from ragability_gen.core.specs import load_suite_spec
from ragability_gen.errors import SpecError

YES = [
    "Yes", "yes.", "YES!", "Yes.", "y", "Y.", "yes, because the passages disagree",
    "Yes, because there is no doubt about it.", "**Yes**", "__yes__", "`yes`", "*Yes*, they contradict.",
    '"Yes."', "\u201cYes\u201d", "'yes'", "(yes)", "> Yes", "- yes", "1. Yes", "# Yes",
    "Answer: Yes", "answer: **yes**", "Response: yes", "Final answer: Yes.", "Answer - yes", "Answer:\nYes",
    "The answer is yes.", "Answer: The passages disagree, so the answer is yes.", "Yes\n\nExplanation: no conflict",
    "True.", "Correct.", "Affirmative", "Yeah.", "Yep", "Yes \u2014 passage 2 says otherwise.",
    "Yes, yes.", "The response is correct.",
]
NO = [
    "No", "no.", "NO.", "n", "N", "**No**", "No, the passages agree.", "No. The first passage says yes.",
    "No, no, no.", "Answer: No", "Response: **no**", "The answer is no.", "False", "Incorrect.", "Nope.",
    "Negative", "No contradiction.", "No\n\nBoth passages say the same.", "Final answer: no",
]
NEITHER = [
    "", "   ", "Maybe.", "N/A", "The passages contradict each other.", "I cannot tell.", "Not really.",
    "1", "The answer is no longer valid.", "Passage 1 says: yes", "Is the answer correct? No.",
]
BOTH = [
    "Yes and no.", "yes/no", "Yes or no?", "Yes. No.", "No, wait, yes.", "Yes.\nNo.", "Answer: yes\nAnswer: no",
    "Yes. Final answer: no.", "Yes, but no.", "**Yes** / **No**", "No. The answer is yes.",
    "No doubt: yes.",  # a leading "No" is read as a verdict: ambiguous openings become errors, not guesses
]


@pytest.mark.parametrize("response", YES)
def test_affirmative_reads_yes(response: str) -> None:
    assert CHECKS["affirmative"].func(response) == "1"
    assert CHECKS["negative"].func(response) == "0"


@pytest.mark.parametrize("response", NO)
def test_affirmative_reads_no(response: str) -> None:
    assert CHECKS["affirmative"].func(response) == "0"
    assert CHECKS["negative"].func(response) == "1"


@pytest.mark.parametrize("response", NEITHER)
@pytest.mark.parametrize("func", ["affirmative", "negative"])
def test_a_reply_without_a_verdict_is_a_parse_error(func: str, response: str) -> None:
    with pytest.raises(CheckParseError, match="^expected a yes/no answer, got "):
        CHECKS[func].func(response)


@pytest.mark.parametrize("response", BOTH)
@pytest.mark.parametrize("func", ["affirmative", "negative"])
def test_a_reply_saying_both_is_a_parse_error(func: str, response: str) -> None:
    with pytest.raises(CheckParseError, match="^the response says both yes and no: "):
        CHECKS[func].func(response)


def test_parse_error_quotes_a_long_reply_shortened() -> None:
    with pytest.raises(CheckParseError) as e:
        CHECKS["affirmative"].func("Perhaps " + "x" * 200)
    assert str(e.value) == "expected a yes/no answer, got 'Perhaps " + "x" * 69 + "...'"


@pytest.mark.parametrize(("response", "result"), [
    ("Unknown", "1"), ("unknown.", "1"), ("I don't know.", "1"), ("I don\u2019t know", "1"), ("**Uncertain**", "1"),
    ("I do not know!", "1"), ("It is unknown", "0"), ("Paris", "0"),
])
def test_unknown(response: str, result: str) -> None:
    assert CHECKS["unknown"].func(response) == result


@pytest.mark.parametrize(("func", "response", "arg", "result"), [
    ("is_eq", "Paris", "Paris", "1"), ("is_eq", "Paris ", "Paris", "0"), ("is_eq", "paris", "Paris", "0"),
    ("is_textual_eq", " paris\n", "Paris", "1"), ("is_textual_eq", "Paris, France", "Paris", "0"),
    ("contains", "It is Paris.", "Paris", "1"), ("contains", "It is paris.", "Paris", "0"),
    ("is_eq_oneof", "Lyon", ["Paris", "Lyon"], "1"), ("is_eq_oneof", "lyon", ["Paris", "Lyon"], "0"),
    ("is_textual_eq_oneof", " LYON ", ["Paris", "Lyon"], "1"), ("is_textual_eq_oneof", "Nice", ["Paris"], "0"),
    ("contains_oneof", "Either Lyon or Nice.", ["Paris", "Lyon"], "1"),
    ("contains_oneof", "Marseille.", ["Paris", "Lyon"], "0"),
    ("contains_oneof", "lyon", ["Paris", "Lyon"], "0"),
    ("contains_all", "Paris and Lyon.", ["Paris", "Lyon"], "1"),
    ("contains_all", "Only Paris.", ["Paris", "Lyon"], "0"),
    ("contains_all", "Paris", ["Paris"], "1"),
])
def test_comparison_checks(func: str, response: str, arg: object, result: str) -> None:
    assert CHECKS[func].nargs == 1
    assert CHECKS[func].func(response, arg) == result


@pytest.mark.parametrize("func", ["contains_oneof", "contains_all", "is_eq_oneof", "is_textual_eq_oneof"])
@pytest.mark.parametrize("arg", ["Paris", [], ["Paris", 3], None])
def test_list_checks_reject_an_argument_that_is_not_a_list_of_strings(func: str, arg: object) -> None:
    """A suite giving a string would otherwise be matched character by character."""
    with pytest.raises(TypeError, match=f"^{func}: the argument must be a non-empty list of strings, got "):
        CHECKS[func].func("Paris", arg)


@pytest.mark.parametrize(("response", "score"), [
    ("4", 4.0), ("Score: 3.5", 3.5), ("-2", -2.0), ("**7** out of ten", 7.0),
])
def test_extract_score(response: str, score: float) -> None:
    assert CHECKS["extract_score"].func(response) == score


@pytest.mark.parametrize(("response", "found"), [("no number", 0), ("4/5", 2), ("between 3 and 4", 2)])
def test_extract_score_needs_exactly_one_number(response: str, found: int) -> None:
    with pytest.raises(CheckParseError, match=f"^expected exactly one number, found {found} in "):
        CHECKS["extract_score"].func(response)


def test_registry_kinds_targets_and_labels() -> None:
    assert {name: c.kind for name, c in CHECKS.items()} == {
        "affirmative": "binary", "negative": "binary", "unknown": "binary", "is_eq": "binary",
        "is_textual_eq": "binary", "is_eq_oneof": "binary", "is_textual_eq_oneof": "binary",
        "contains": "binary", "contains_oneof": "binary", "contains_all": "binary", "extract_score": "score",
        "wc_judge": "multiclass",
        "rank_ndcg": "score", "rank_top_error": "binary", "pair_detected": "binary",
    }
    assert {c.target for c in CHECKS.values() if c.kind == "binary"} == {"1"}
    assert CHECKS["wc_judge"].labels == ("correct", "partially correct", "incorrect")
    assert all(c.description for c in CHECKS.values())


def test_register_check_rejects_an_unknown_kind() -> None:
    with pytest.raises(ValueError) as e:
        register_check("odd", "ordinal")
    assert str(e.value) == "check odd: unknown kind 'ordinal' (use one of binary, multiclass, score)"
    assert "odd" not in CHECKS


@pytest.mark.parametrize(("func", "args", "problem"), [
    ("contains_oneof", [["Paris", "Lyon"]], None),
    ("contains", ["Paris"], None),
    ("affirmative", [], None),
    ("contains_oneof", ["Paris"], "contains_oneof: argument 1 must be a non-empty list of strings, got 'Paris'"),
    ("contains_all", [[]], "contains_all: argument 1 must be a non-empty list of strings, got []"),
    ("contains", [["Paris"]], "contains: argument 1 must be a string, got ['Paris']"),
    ("contains_oneof", ["Paris", "Lyon"], "contains_oneof takes 1 argument(s)"),
    ("affirmative", ["yes"], "affirmative takes 0 argument(s)"),
    ("is_eq", "Paris", "is_eq takes 1 argument(s)"),
])
def test_args_problem(func: str, args: object, problem: str | None) -> None:
    assert CHECKS[func].args_problem(args) == problem


def test_validate_and_compile_check_the_arguments(cli: Any, tmp_path: Path) -> None:
    items = [{"qid": "a", "query": "q", "checks": [
        {"cid": "c", "func": "contains_oneof", "metrics": ["m"], "args": ["Paris"]},
        {"cid": "d", "func": "contains_all", "metrics": ["m"], "args": [["Paris", "Lyon"]]}]}]
    (tmp_path / "s.json").write_text(json.dumps(items), encoding="utf-8")
    result = cli("validate", "s.json")
    assert (result.exit_code, result.stderr) == (
        1, "error: s.json: item 1: field checks/0/args: contains_oneof: argument 1 must be a non-empty list of "
           "strings, got 'Paris'\n")
    path = edited_suite_spec(tmp_path, lambda text: text.replace(
        '{cid: "answer_correct", func: "negative", metrics:',
        '{cid: "answer_correct", func: "contains_all", args: [["no", 1]], metrics:'))
    with pytest.raises(SpecError) as err:
        Suite(load_suite_spec(path))
    assert err.value.problems == [
        f"{path}: outcome ic_no, check answer_correct: field args: contains_all: argument 1 must be "
        "a non-empty list of strings, got ['no', 1]"]
