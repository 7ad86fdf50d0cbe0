"""export: suites, results and checked files as a TSV, one row per item x check."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ragability_gen import compile_suite, read_instances, read_records, write_records
from ragability_gen.core.resources import data_dir
from ragability_gen.core.table import read_table
from ragability_gen.evaluate.export import cell, export_rows


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    out = tmp_path / "demo.hjson"
    compile_suite(read_instances(data_dir("corpora") / "demo.tsv")[0], out)
    return out


@pytest.mark.parametrize(("value", "key", "text"), [
    (None, "", ""), ("a\tb", "", "a\tb"), (True, "", "true"), (3, "", "3"), (0.25, "", "0.25"),
    (["p1", "p2"], "facts", "p1\np2"), (["a", "b"], "pids", "a, b"), ([1, 2.5], "", "1, 2.5"), ([], "", ""),
    ([["x", "y"]], "args", '[["x","y"]]'), ({"k": "v"}, "kwargs", '{"k":"v"}'), ([True], "", "[true]"),
])
def test_cell(value: Any, key: str, text: str) -> None:
    assert cell(value, key) == text


def test_export_a_suite(cli: Any, suite: Path, tmp_path: Path) -> None:
    result = cli("export", suite)
    assert result.exit_code == 0
    assert result.stderr.splitlines() == [
        "exported 462 records as 462 rows x 14 columns",
        "  dropped 1 constant column(s) (--all keeps them): check.query=''",
        "wrote demo.export.tsv",
    ]
    table = read_table(tmp_path / "demo.export.tsv")
    assert table.header == ["qid", "tags", "query", "facts", "pids", "WikiContradict_ID", "reasoning_required_c1c2",
                            "c1xq", "c2xq", "check.cid", "check.func", "check.metrics", "check.pid",
                            "check.check_for"]
    items = read_records(suite)
    rows = [cells for _, cells in table.rows]
    assert len(rows) == 462
    two = next(i for i, it in enumerate(items) if isinstance(it.get("facts"), list))
    assert rows[two][3] == "\n".join(items[two]["facts"])  # one passage per line, quoted in the TSV
    assert rows[0][:2] == [items[0]["qid"], items[0]["tags"]]
    assert rows[0][-3] == "correct_answer_all, refusal_not_answerable"


def test_all_keeps_constant_columns(cli: Any, suite: Path, tmp_path: Path) -> None:
    result = cli("export", suite, "-o", "out/all.tsv", "--all", "-q")
    assert (result.exit_code, result.stderr) == (0, "")
    assert "check.query" in read_table(tmp_path / "out" / "all.tsv").header


def test_export_a_checked_file_one_row_per_check(cli: Any, tmp_path: Path) -> None:
    recs = [
        {"qid": "q1", "tags": "a, b", "query": "?", "pids": ["p"], "pid": "p", "llm": "m", "response": "Yes.\nSure.",
         "error": "", "cost": 0.5, "checks": [
             {"cid": "c1", "func": "contains_oneof", "metrics": ["x"], "args": [["Yes", "Ja"]], "result": "1",
              "error": ""},
             {"cid": "c2", "func": "affirmative", "metrics": ["x", "y"], "result": None, "error": "no verdict",
              "response": "Hmm", "llm": "judge", "cost": 0.01}]},
        {"qid": "q2", "tags": "a", "query": "?", "pids": ["p"], "pid": "p", "llm": "m", "response": "",
         "error": "HTTP 500", "cost": 0},
    ]
    write_records(recs, "run.checked.jsonl")
    assert cli("export", "run.checked.jsonl", "-q").exit_code == 0
    table = read_table(tmp_path / "run.checked.export.tsv")
    assert table.header == ["qid", "tags", "response", "error", "cost", "check.cid", "check.func", "check.metrics",
                            "check.args", "check.llm", "check.response", "check.result", "check.error", "check.cost"]
    assert [cells for _, cells in table.rows] == [
        ["q1", "a, b", "Yes.\nSure.", "", "0.5", "c1", "contains_oneof", "x", '[["Yes","Ja"]]', "", "", "1", "", ""],
        ["q1", "a, b", "Yes.\nSure.", "", "0.5", "c2", "affirmative", "x, y", "", "judge", "Hmm", "", "no verdict",
         "0.01"],
        ["q2", "a", "", "HTTP 500", "0", "", "", "", "", "", "", "", "", ""],
    ]


def test_qid_and_cid_are_kept_even_when_constant() -> None:
    header, rows, dropped = export_rows([{"qid": "q", "x": 1, "checks": [{"cid": "c", "func": "f"},
                                                                       {"cid": "c", "func": "g"}]}])
    assert (header, rows, dropped) == (["qid", "check.cid", "check.func"], [["q", "c", "f"], ["q", "c", "g"]],
                                       [("x", "1")])


@pytest.mark.parametrize(("content", "message"), [
    ("[]", "error: in.json: no records: nothing to export"),
    ('[{"qid": "a", "checks": {"cid": "x"}}, {"qid": "b", "checks": ["x"]}, {"checks": 3}]',
     "error: in.json: item 1 (a): field checks: must be a list of objects\n"
     "error: in.json: item 2 (b): field checks: must be a list of objects\n"
     "error: in.json: item 3: field checks: must be a list of objects"),
    ('{"qid": "a"}', "error: in.json: expected a list of records, got dict"),
])
def test_bad_input(cli: Any, tmp_path: Path, content: str, message: str) -> None:
    (tmp_path / "in.json").write_text(content, encoding="utf-8")
    result = cli("export", "in.json")
    assert (result.exit_code, result.stderr) == (1, message + "\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.json"]
