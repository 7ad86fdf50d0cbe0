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

# Every rule of the yes/no reader, one real-looking reply per row: (reply, reading, rule).
# Readings: "yes"/"no" a verdict; "none" no verdict; "hedge" a verdict word hedged in its sentence;
# "both" verdicts that disagree. Everything but yes/no is a check error, never a pass or a failure.
VERDICTS = [
    # a leading verdict word whose clause ends there
    ("Yes", "yes", "bare verdict"), ("yes.", "yes", "bare verdict"), ("YES!", "yes", "bare verdict"),
    ("No", "no", "bare verdict"), ("no.", "no", "bare verdict"), ("NO.", "no", "bare verdict"),
    ("y", "yes", "single letter"), ("Y.", "yes", "single letter"), ("n", "no", "single letter"),
    ("yes, because the passages disagree", "yes", "verdict, then a reason"),
    ("Yes, because there is no doubt about it.", "yes", "a later 'no' inside a clause is no verdict"),
    ("No, the passages agree.", "no", "verdict, then a reason"),
    ("No. The first passage says yes.", "no", "a quoted 'yes' inside a clause is no verdict"),
    ("Yes \u2014 passage 2 says otherwise.", "yes", "verdict, then a dash"),
    ("Yes\n\nExplanation: no conflict", "yes", "verdict on its own line"),
    ("No\n\nBoth passages say the same.", "no", "verdict on its own line"),
    ("Yes, yes.", "yes", "repeated verdict that agrees"), ("No, no, no.", "no", "repeated verdict that agrees"),
    # a leading verdict word that goes on as a sentence about the passages
    ("Yes it is.", "yes", "verdict + it"), ("No there is not.", "no", "verdict + there"),
    ("Yes the two passages contradict each other.", "yes", "verdict + the"),
    ("No contradiction.", "no", "'No contradiction' answers a contradiction question"),
    ("No conflict between them.", "no", "'No conflict' answers a contradiction question"),
    # synonyms
    ("True.", "yes", "synonym"), ("Correct.", "yes", "synonym"), ("Affirmative", "yes", "synonym"),
    ("Yeah.", "yes", "synonym"), ("Yep", "yes", "synonym"), ("False", "no", "synonym"),
    ("Incorrect.", "no", "synonym"), ("Nope.", "no", "synonym"), ("Negative", "no", "synonym"),
    # markup around the verdict
    ("**Yes**", "yes", "markdown bold"), ("**YES**", "yes", "markdown bold"), ("__yes__", "yes", "markdown"),
    ("`yes`", "yes", "code ticks"), ("*Yes*, they contradict.", "yes", "emphasis"), ('"Yes."', "yes", "quotes"),
    ("\u201cYes\u201d", "yes", "curly quotes"), ("'yes'", "yes", "quotes"), ("(yes)", "yes", "brackets"),
    ("> Yes", "yes", "block quote"), ("- yes", "yes", "list bullet"), ("1. Yes", "yes", "numbered list"),
    ("# Yes", "yes", "heading"), ("**No**", "no", "markdown bold"), ("Response: **no**", "no", "label + bold"),
    # a labelled verdict, leading or anywhere
    ("Answer: Yes", "yes", "leading label"), ("answer: **yes**", "yes", "leading label"),
    ("Final answer: Yes.", "yes", "leading label"), ("Answer - yes", "yes", "leading label"),
    ("Answer:\nYes", "yes", "leading label"), ("Answer: No", "no", "leading label"),
    ("Final answer: no", "no", "leading label"), ("The answer is yes.", "yes", "labelled verdict"),
    ("The answer is no.", "no", "labelled verdict"), ("The response is correct.", "yes", "labelled verdict"),
    ("Answer: The passages disagree, so the answer is yes.", "yes", "labelled verdict later in the reply"),
    # no verdict: a verdict word used as a determiner, refusals, no verdict word at all
    ("No idea", "none", "'No idea' is not a no"), ("No idea.", "none", "'No idea' is not a no"),
    ("no way to tell", "none", "'No way to tell' is not a no"), ("No comment.", "none", "a refusal"),
    ("No information is given about this.", "none", "a determiner, not a verdict"),
    ("None", "none", "'none' is not 'no'"), ("None of the passages say.", "none", "'none' is not 'no'"),
    ("Neither.", "none", "no verdict word"), ("", "none", "empty"), ("   ", "none", "blank"),
    ("Maybe.", "none", "a hedge"), ("Perhaps.", "none", "a hedge"), ("N/A", "none", "no verdict word"),
    ("The passages contradict each other.", "none", "no verdict word"), ("I cannot tell.", "none", "a refusal"),
    ("Not really.", "none", "no verdict word"), ("1", "none", "a number"),
    ("The answer is no longer valid.", "none", "'no' does not end the labelled clause"),
    ("Passage 1 says: yes", "none", "a verdict inside a clause"),
    ("Is the answer correct? No.", "none", "the verdict is not leading and not labelled"),
    ("I'm sorry, but I can't help with that.", "none", "a refusal"),
    ("I would say yes.", "none", "the verdict is not leading"),
    # a verdict hedged in the same sentence
    ("Yes it is impossible to say", "hedge", "verdict + hedge"),
    ("Yes, but it is hard to say which passage is right.", "hedge", "verdict + hedge"),
    ("No, I cannot tell from the passages.", "hedge", "verdict + refusal"),
    ("Yes, possibly.", "hedge", "verdict + hedge"), ("No, not sure.", "hedge", "verdict + hedge"),
    ("Yes, it depends on the date.", "hedge", "verdict + hedge"),
    # a reason that describes the response or the passages is a reason, not a hedge (a SmolLM2 checker reply)
    ("No, the response avoids giving one definite answer by stating that the question cannot be answered.", "no",
     "a reason about the response, not the checker's doubt"),
    ("Yes, the response says the passages do not give enough information.", "yes", "a reason about the response"),
    ("No, there is not enough information.", "no", "a reason, not the checker's doubt"),
    ("Yes, it is unclear which passage is right, so the response should say so.", "yes", "a reason"),
    # verdicts that disagree
    ("Yes and no.", "both", "both"), ("yes/no", "both", "both"), ("Yes or no?", "both", "both"),
    ("Yes. No.", "both", "both"), ("No, wait, yes.", "both", "both"), ("Yes.\nNo.", "both", "both"),
    ("Answer: yes\nAnswer: no", "both", "two labelled verdicts"), ("Yes. Final answer: no.", "both", "both"),
    ("Yes, but no.", "both", "both"), ("**Yes** / **No**", "both", "both"), ("No. The answer is yes.", "both", "both"),
    ("No doubt: yes.", "none", "'No doubt' is no verdict and the later 'yes' is not leading: an error, not a guess"),
]
_ERRORS = {"none": "^expected a yes/no answer, got ", "hedge": "^the response hedges instead of giving a verdict: ",
           "both": "^the response says both yes and no: "}


def test_the_verdict_table_covers_every_reading() -> None:
    assert len(VERDICTS) >= 60
    assert {r for _, r, _ in VERDICTS} == {"yes", "no", "none", "hedge", "both"}


@pytest.mark.parametrize(("response", "reading", "rule"), VERDICTS, ids=[f"{r}:{t[:30]!r}" for t, r, _ in VERDICTS])
def test_yes_no_reading(response: str, reading: str, rule: str) -> None:
    if reading in ("yes", "no"):
        assert CHECKS["affirmative"].func(response) == ("1" if reading == "yes" else "0"), rule
        assert CHECKS["negative"].func(response) == ("0" if reading == "yes" else "1"), rule
        return
    for func in ("affirmative", "negative"):
        with pytest.raises(CheckParseError, match=_ERRORS[reading]):
            CHECKS[func].func(response)


# python-ragability's reading (check --compat python-ragability): exactly the word, else a silent "0".
@pytest.mark.parametrize(("response", "affirmative", "negative"), [
    ("yes", "1", "0"), (" Yes\n", "1", "0"), ("TRUE", "1", "0"), ("positive", "1", "0"), ("no", "0", "1"),
    ("False ", "0", "1"), ("Yes.", "0", "0"), ("No.", "0", "0"), ("**Yes**", "0", "0"), ("No idea", "0", "0"),
    ("yes, because", "0", "0"), ("", "0", "0"),
])
def test_python_ragability_reading(response: str, affirmative: str, negative: str) -> None:
    from ragability_gen.run.checking import apply_check

    compat = "python-ragability"
    assert apply_check({"func": "affirmative"}, response, compat) == (affirmative, "")
    assert apply_check({"func": "negative"}, response, compat) == (negative, "")
    assert apply_check({"func": "extract_score"}, "score 4.", compat) == (4.0, "")  # theirs reads "4." as 4.0
    assert apply_check({"func": "extract_score"}, "4/5", compat)[1].startswith("extract_score: cannot read")


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
