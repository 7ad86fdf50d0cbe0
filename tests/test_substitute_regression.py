"""The regression set: real-looking sentences of every hard kind, with exactly what must stay and what must go.

``tests/data/substitute/regression.jsonl`` holds one case a line, written by the team (not taken from any
release): a context and a query of one kind (a table header, an infobox cell, a demonym of a replaced
place, a sibling code, a binomial, a non-Latin rendering, a named event, ...), the strings that must
still be in the output as they are (``keep``), and the names that must be gone in every form a reader
would see (``gone``, word-bounded, as written), and optionally what must be nowhere in it (``absent``: the
combining marks of a replaced word, which no word boundary parts from an invented stem) and what must read as
English (``english``: pairs of strings of the output; every word between the two is a common English word, Zipf 3
or more, as the words replacing a title's words are). Every case must be substituted, not repaired or excluded,
under two seeds.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from ragability_gen import Answer, Context, Instance, substitute_instances
from ragability_gen.substitute import nlp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from bench_leaks import english_between  # noqa: E402  (one reading of "english" for the test and the benchmark)

CASES = [json.loads(line) for line in
         (Path(__file__).parent / "data" / "substitute" / "regression.jsonl").read_text(encoding="utf-8").splitlines()
         if line.strip()]


def instance(i: int, case: dict[str, Any]) -> Instance:
    contexts = {"1": Context("1", case["context"], "qeu", "1", (), ()),
                "2": Context("2", "Nothing else is known.", "qeu", "2", (), ("1",))}
    return Instance(str(i), case["query"], contexts, {"1": Answer("yes", "Yes."), "2": Answer("no", "No.")})


@pytest.fixture(scope="module", params=[0, 1])
def results(request: pytest.FixtureRequest) -> dict[str, tuple[Instance | None, dict[str, Any]]]:
    nlp.load_model()
    result = substitute_instances([instance(i, c) for i, c in enumerate(CASES)], seed=request.param)
    out = {inst.id: inst for inst in result.instances}
    return {rec["id"]: (out.get(rec["id"]), rec) for rec in result.audit}


def test_the_set_covers_every_kind() -> None:
    kinds = {c["kind"] for c in CASES}
    assert len(kinds) == len(CASES) >= 25
    assert all(c["keep"] and c["gone"] for c in CASES)


@pytest.mark.parametrize("i", range(len(CASES)), ids=[c["kind"] for c in CASES])
def test_case(results: dict[str, tuple[Instance | None, dict[str, Any]]], i: int) -> None:
    case = CASES[i]
    out, rec = results[str(i)]
    assert rec["status"] == "substituted", rec["reasons"]
    assert out is not None
    text = out.contexts["1"].text + "\n" + out.query
    for kept in case["keep"]:
        assert kept in text, f"{kept!r} lost: {text!r}"
    for gone in case["gone"]:
        assert re.search(r"(?<!\w)" + re.escape(gone) + r"(?!\w)", text) is None, f"{gone!r} left: {text!r}"
    for absent in case.get("absent", ()):
        assert absent not in text, f"{absent!r} left: {text!r}"
    for before, after in case.get("english", ()):
        assert english_between(text, before, after), f"not English between {before!r} and {after!r}: {text!r}"
