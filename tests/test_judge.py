"""The WikiContradict judge verdict parser: tolerant of form, strict about meaning."""

from __future__ import annotations

import pytest

from ragability_gen.checkfuncs import CHECKS, CheckParseError
from ragability_gen.checkfuncs.judge import VERDICTS, parse_verdict

# The paper's own judge outputs (Appendix C): the prompt ends with "comment:", the judge continues.
PAPER_EXAMPLES = [
    ("The primary answer in the response (117 years old) is partially correct as it only matched with "
     "with one of the correct answers (117 years old) and it doesn't mention another answer (115 years "
     "old). Thus, the response is partially correct.\n\nevaluation: partially correct", "partially correct"),
    ("Although the primary answer contains all correct answers (115 years old and 117 years old) that "
     "matches with the correct answers, it is logically incorrect because a person cannot have two ages "
     "at the same time. Thus, the response is incorrect.\n\nevaluation: incorrect", "incorrect"),
    ("The answer contains all correct answers: 115 years old and 117 years old, and it points out that these "
     "two answers are from different sources, which is logically possible. Thus, the response is correct.\n\n"
     "evaluation: correct", "correct"),
    ("The primary answer in the response (191 member nations) does not match with any of the correct "
     "answers (193 member states or 194 members). Thus, the response is incorrect.\nevaluation: incorrect",
     "incorrect"),
]


@pytest.mark.parametrize(("response", "verdict"), PAPER_EXAMPLES)
def test_paper_style_comment_then_evaluation(response: str, verdict: str) -> None:
    assert parse_verdict(response) == verdict


@pytest.mark.parametrize(("response", "verdict"), [
    ("correct", "correct"),
    ("Correct", "correct"),
    ("CORRECT.", "correct"),
    ("incorrect", "incorrect"),
    ("Incorrect!", "incorrect"),
    ("partially correct", "partially correct"),
    ("Partially Correct", "partially correct"),
    ("  partially   correct.  ", "partially correct"),
    ("Partly correct.", "partially correct"),
    ('"correct"', "correct"),
    ("(incorrect)", "incorrect"),
    ("Evaluation: Partially correct.", "partially correct"),
    ("evaluation: correct", "correct"),
    ("EVALUATION: INCORRECT", "incorrect"),
    ("Evaluation - partially correct", "partially correct"),
    ("evaluation:\ncorrect", "correct"),
    ("Final evaluation: correct", "correct"),
    ("Verdict: incorrect", "incorrect"),
    ("**Evaluation:** **Partially correct**", "partially correct"),
    ("**Evaluation: correct**", "correct"),
    ("### Evaluation\n**Incorrect**", "incorrect"),
    ("_partially correct_", "partially correct"),
    ("`correct`", "correct"),
    ("Evaluation: the response is partially correct.", "partially correct"),
    ("Evaluation: The response is not correct.", "incorrect"),
    ("not correct", "incorrect"),
    ("Not correct.", "incorrect"),
    ("Partially correct. The response gives only one of the two answers.", "partially correct"),
    ("Correct: both answers are given and attributed to different sources.", "correct"),
    ("Incorrect - the response merges the two answers.", "incorrect"),
])
def test_case_punctuation_labels_and_markup(response: str, verdict: str) -> None:
    assert parse_verdict(response) == verdict


@pytest.mark.parametrize(("response", "verdict"), [
    # verdict buried after a comment, no label
    ("The response mentions 26 books only. Thus, the response is partially correct.", "partially correct"),
    ("The response gives both answers and says they come from different sources.\n\nCorrect.", "correct"),
    ("Comment: it states one answer and prefers it.\nPartially correct", "partially correct"),
    ("The response names 191 members, matching neither answer, so the answer is incorrect.", "incorrect"),
    ("The response merges the answers as if both were true; it is not correct.", "incorrect"),
    ("The response isn't correct: it names neither answer.", "incorrect"),
    # the comment quotes the correct answers and uses verdict words in passing; the label decides
    ("The correct answers are 26 books | 27. The response gives 26 books, which is correct, but not 27. "
     "evaluation: partially correct", "partially correct"),
    ("correct_answers: 26 books | 27\ncomment: it gives both.\nevaluation: correct", "correct"),
    ("Windows line ends.\r\nevaluation: incorrect\r\n", "incorrect"),
])
def test_verdict_after_a_comment(response: str, verdict: str) -> None:
    assert parse_verdict(response) == verdict


def test_not_correct_never_reads_as_correct() -> None:
    for text in ("not correct", "Evaluation: not correct", "The response is not correct.",
                 "It's not correct.", "It\u2019s not correct.", "**Not correct**"):
        assert parse_verdict(text) == "incorrect", text


def test_partially_correct_never_reads_as_correct_or_incorrect() -> None:
    for text in ("partially correct", "Evaluation: partially correct", "PARTIALLY CORRECT",
                 "Thus, the response is partially correct.", "Partially correct - only one answer."):
        assert parse_verdict(text) == "partially correct", text


@pytest.mark.parametrize("response", [
    "",
    "   ",
    "\n\n",
    "I cannot evaluate this response.",
    "The response gives the correct answers.",       # "correct" as an adjective is no verdict
    "correct answers: 115 | 117",
    "correctly stated",
    "evaluation:",
    "Evaluation: unclear",
])
def test_no_verdict_is_an_error(response: str) -> None:
    with pytest.raises(CheckParseError, match="no verdict"):
        parse_verdict(response)


@pytest.mark.parametrize("response", [
    "evaluation: correct\nevaluation: incorrect",
    "Evaluation: partially correct\n\nFinal evaluation: correct",
    "Correct.\nIncorrect.",
    "Partially correct\ncorrect",
    "Thus, the response is correct. On reflection, the response is incorrect.",
])
def test_two_different_verdicts_are_an_error(response: str) -> None:
    with pytest.raises(CheckParseError, match="contradictory verdicts"):
        parse_verdict(response)


@pytest.mark.parametrize("response", ["The response is not partially correct.", "Evaluation: not incorrect"])
def test_negated_non_binary_verdicts_are_an_error(response: str) -> None:
    with pytest.raises(CheckParseError, match="negated verdict"):
        parse_verdict(response)


def test_same_verdict_twice_is_fine() -> None:
    assert parse_verdict("Evaluation: correct\n\nevaluation: Correct.") == "correct"


def test_registered_as_multiclass_check() -> None:
    check = CHECKS["wc_judge"]
    assert check.kind == "multiclass"
    assert check.target == "correct"
    assert check.nargs == 0
    assert check.func("evaluation: Partially correct.") == "partially correct"
    assert {check.func(v) for v in VERDICTS} == set(VERDICTS)
