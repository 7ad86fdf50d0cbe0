"""Rule checks on generated contexts: sentences, normalised text, near-copies, answers."""

from __future__ import annotations

import pytest

from ragability_gen.generate.rulewriter import query_subject
from ragability_gen.generate.textrules import NEAR_COPY, checkable, normalise, rule_checks, similarity, split_sentences


@pytest.mark.parametrize("text, sentences", [
    ("Dr. Vale lives on Elm St. in Carrowden. He is 40.", ["Dr. Vale lives on Elm St. in Carrowden.", "He is 40."]),
    ("The mirror is 4.2 metres wide. It was cast in 1902.", ["The mirror is 4.2 metres wide.", "It was cast in 1902."]),
    ("J. R. Tolkien wrote it, e.g. at the U.S. Embassy. It sold well! Did it?",
     ["J. R. Tolkien wrote it, e.g. at the U.S. Embassy.", "It sold well!", "Did it?"]),
    ('He said "Go home." Then he left.', ['He said "Go home."', "Then he left."]),
    ("About 1,500 people, approx. 3 percent, came.", ["About 1,500 people, approx. 3 percent, came."]),
    ("no stop at the end", ["no stop at the end"]),
])
def test_split_sentences(text: str, sentences: list[str]) -> None:
    assert split_sentences(text) == sentences


def test_normalise_keeps_numbers_and_drops_case_and_punctuation() -> None:
    assert normalise("The  15,000 people; 4.2 Metres - Observatory's “Lake Ærthwyn”!") == (
        "the 15000 people 4.2 metres observatory s lake ærthwyn")
    assert normalise("4,2") == "4 2" and normalise("1,5000") == "1 5000"


def test_near_copy_threshold() -> None:
    c1 = "The Olinde brevicula is a moth native to the salt marshes of Vennart."
    one_word = "The Olinde brevicula is a moth found in the salt marshes of Vennart."
    restated = "Naturalists of Vennart classify Olinde brevicula among the night-flying moths."
    assert similarity(c1, c1.upper()) == 1.0
    assert similarity(c1, one_word) >= NEAR_COPY > similarity(c1, restated)
    verdict = {v.check: v for v in rule_checks(one_word, {"1": c1})}["not_a_copy"]
    assert verdict.reason == "it is a near-copy of context 1 (similarity 0.85; near-copy from 0.8)"
    # a context copied as one sentence of a longer candidate is caught sentence by sentence
    padded = f"{c1} Its caterpillars feed on sea lavender and salt grass in early spring."
    assert similarity(c1, padded) < NEAR_COPY
    assert {v.check: v.passed for v in rule_checks(padded, {"1": c1})}["not_a_copy"] is False
    # so is a context repeated within one longer sentence
    c2 = "The Vellmoor Observatory's main telescope has a mirror 4.2 metres in diameter."
    longer = f"{c2[:-1]}, which is also the diameter of its main telescope's mirror."
    assert similarity(c2, longer) < NEAR_COPY
    assert {v.check: v for v in rule_checks(longer, {"2": c2})}["not_a_copy"].reason == (
        "it repeats context 2 (100% of its words in one run; near-copy from 80%)")


def verdicts(candidate: str, **kw: object) -> dict[str, tuple[bool, str]]:
    return {v.check: (v.passed, v.reason) for v in rule_checks(candidate, **kw)}  # type: ignore[arg-type]


def test_answers_carried_and_avoided() -> None:
    got = verdicts("Naturalists classify the Olinde among the night-flying moths.", others={},
                   carries={"1": "a moth"}, avoids={"2": "a butterfly"})
    assert got["carries_answer_1"] == (True, "") and got["avoids_answer_2"] == (True, "")
    got = verdicts("The Olinde is a butterfly, not a moth.", others={}, carries={"1": "a moth"},
                   avoids={"2": "a butterfly"})
    assert got["avoids_answer_2"] == (False, "it contains answer 2 ('a butterfly')")
    # a shorter answer inside the carried one is no leak
    got = verdicts("Tallowmere borders Varnholt and Dallowmere and the Free City of Oskel.", others={},
                   carries={"1": "Varnholt and Dallowmere and the Free City of Oskel"},
                   avoids={"2": "Varnholt and Dallowmere"})
    assert got["avoids_answer_2"] == (True, "")
    # numbers are whole words: 12 does not contain 2
    got = verdicts("The pack recharges in 12 hours.", others={}, avoids={"1": "2 hours"})
    assert got["avoids_answer_1"] == (True, "")


def test_answers_that_cannot_be_checked_by_string() -> None:
    assert not checkable("Yes") and not checkable("not stated") and checkable("the customer")
    got = verdicts("Insects make up the whole diet of the Pembly shrike.", others={}, carries={"1": "no"},
                   avoids={"2": "yes"})
    assert got["carries_answer_1"] == (True, "not checked: 'no' cannot be found by string; the verifier judges it")
    got = verdicts("Vessaly was found years after Pellis.", others={}, avoids={"1": "Pellis", "2": "Vessaly"},
                   query="Which moon was discovered first, Pellis or Vessaly?")
    assert got["avoids_answer_2"] == (True, "not checked: 'Vessaly' is named in the question; the verifier judges it")


@pytest.mark.parametrize("candidate, check, reason", [
    ("", "not_empty", "the passage is empty"),
    ("One fact. Two facts. Three facts here.", "sentences", "3 sentences; at most 2 allowed"),
    ("[Heritage.com/Brindlecourt-Harriers", "complete_sentences",
     "not a complete sentence: '[Heritage.com/Brindlecourt-Harriers' (a sentence starts with a capital letter or a "
     "digit, has at least 3 words and ends with a full stop)"),
    ("Is the Cap Squirrel a suricate?", "statement", "it is a question, not a statement"),
    ("As context 1 says, the Cap Squirrel is a suricate.", "no_reference",
     "it refers to the contexts ('context 1') instead of stating facts"),
    ("According to the passage, it is a suricate.", "no_reference",
     "it refers to the contexts ('According to the passage') instead of stating facts"),
    ('Asked "What is a Cap Squirrel?", the answer is a suricate.', "no_question",
     "it contains a question mark: a context states facts and quotes no question"),
    ("The records give this answer: a suricate.", "no_generic_source",
     "it cites 'records' without naming a source the instance has"),
    ("Several archival sources agree on it.", "no_generic_source",
     "it cites 'archival', 'sources' without naming a source the instance has"),
])
def test_each_rule_names_its_reason(candidate: str, check: str, reason: str) -> None:
    assert verdicts(candidate, others={})[check] == (False, reason)


def test_ordinary_words_are_no_reference_to_the_contexts() -> None:
    text = "The passage of the treaty took two years. In this context the envoys met twice."
    assert verdicts(text, others={})["no_reference"] == (True, "")


@pytest.mark.parametrize("query, subject", [
    ("In which year was Queen Isaura of Tallowmere crowned?", "Queen Isaura of Tallowmere"),
    ("Which moon of Orvane was discovered first, Pellis or Vessaly?", "Orvane"),
    ("What is the diameter of the mirror of the Vellmoor Observatory's main telescope?", "Vellmoor Observatory"),
    ("how big is it?", None),
])
def test_query_subject_avoids_the_answers(query: str, subject: str | None) -> None:
    assert query_subject(query, ["Pellis", "Vessaly"]) == subject


def test_question_repeated_in_a_statement_is_a_leak() -> None:
    query = "How much does the Pellifex Aero-7 survey drone weigh without its battery?"
    leak = "Much does the Pellifex Aero-7 survey drone weigh without its battery: 1.8 kilograms."
    assert verdicts(leak, others={}, query=query)["no_question"] == (
        False, "it repeats the question (92% of its words in one run; a leak from 70%)")
    fine = "Without its battery, the Pellifex Aero-7 survey drone weighs 1.8 kilograms."
    assert verdicts(fine, others={}, query=query)["no_question"] == (True, "")


def test_a_source_word_the_instance_uses_is_no_generic_citation() -> None:
    others = {"1": "Under the Quorrin Mutual Bank compliance code, customer records are kept in Dallowmere."}
    assert verdicts("The bank keeps its customer records in Dallowmere only.", others=others)["no_generic_source"] == (
        True, "")
