"""`ragability-gen validate`: every kind of file, every problem reported at once."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import row, tsv_text


def test_valid_files_of_every_kind(cli, demo_tsv: Path, tmp_path: Path) -> None:
    assert cli("convert", demo_tsv, "-q").exit_code == 0
    assert cli("convert", demo_tsv, "-o", "d.jsonl", "-q").exit_code == 0
    result = cli("validate", "demo.hjson", "demo.prompts.hjson", "d.jsonl", demo_tsv)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "demo.hjson: valid suite (462 items)",
        "demo.prompts.hjson: valid prompts (6 prompts)",
        "d.jsonl: valid suite (462 items)",
        f"{demo_tsv}: valid corpus (24 rows, 24 instances)",
    ]


def test_instances_file(cli, tmp_path: Path) -> None:
    good = {"id": "1", "query": "q?", "contexts": [{"id": "1", "text": "t", "annotation": "qeu", "answer": "1"}],
            "answers": {"1": {"short": "a", "long": "A"}}}
    bad = {"id": "2", "query": "", "contexts": [{"id": "1", "text": "t", "annotation": "qxx"}], "answers": {}}
    (tmp_path / "i.jsonl").write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n", encoding="utf-8")
    result = cli("validate", "i.jsonl", "--kind", "instances")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "error: i.jsonl: record 2: field contexts/0/annotation: 'qxx' is not one of ['qeu', 'qea', 'qiu', 'qia', 'qn']",
        "error: i.jsonl: record 2: field query: '' should be non-empty",
    ]


def test_bad_suite_reports_every_problem(cli, tmp_path: Path) -> None:
    items = [
        {"qid": "a", "query": "q", "facts": ["x", 3], "checks": [{"cid": "c", "func": "nosuch", "metrics": ["m"]}]},
        {"qid": "a", "query": 5, "checks": [{"func": "affirmative", "metrics": []}]},
        {"query": "q"},
    ]
    (tmp_path / "s.json").write_text(json.dumps(items), encoding="utf-8")
    result = cli("validate", "s.json")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [  # a repeated qid is no problem: it runs as a#2
        'error: s.json: item 1: field facts: ["x", 3] is not a string or an array of strings',
        "error: s.json: item 1: field checks/0/func: unknown check function 'nosuch'",
        "error: s.json: item 2: field checks/0: 'cid' is a required property",
        "error: s.json: item 2: field query: 5 is not of type 'string'",
        "error: s.json: item 3: 'qid' is a required property",
    ]


def test_suite_pids_are_checked_against_the_prompt_file_beside_it(cli, demo_tsv: Path, tmp_path: Path) -> None:
    assert cli("convert", demo_tsv, "-q").exit_code == 0
    prompts = (tmp_path / "demo.prompts.hjson").read_text(encoding="utf-8").replace("pid: ci_n_contexts", "pid: ci_x")
    (tmp_path / "demo.prompts.hjson").write_text(prompts, encoding="utf-8")
    result = cli("validate", "demo.hjson")
    assert result.exit_code == 1
    # one line per missing prompt, naming its first item and how many more use it (the same as query's)
    n = 7 * 22 + 7 * 2 - 2 * 3  # ic items: 7 variants x 22 full rows + 4 ic items x 2 short rows
    assert result.stderr == f"error: demo.hjson: item 14 and {n - 1} more: prompt 'ci_n_contexts' not in " \
                            "demo.prompts.hjson\n"


def test_corpus_problems(cli, tmp_path: Path) -> None:
    (tmp_path / "c.tsv").write_text(tsv_text([row(c1xq="QEU"), row(contradiction_ID="")]), encoding="utf-8")
    result = cli("validate", "c.tsv")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        'error: c.tsv: line 2, column 4 (c1xq): unknown annotation "QEU" (allowed: qeu, qea, qiu, qia, qn)',
        "error: c.tsv: line 3, column 1 (contradiction_ID): must not be empty",
    ]


def test_spec_files(cli, tmp_path: Path) -> None:
    (tmp_path / "conv.hjson").write_text(
        '{"name": "x", "converter": "table", "format": "tsv", "id_column": "a", "query_column": "b",\n'
        ' "contexts": [{"id": "1", "column": "c", "answer": "9", "contradicts": ["7"]}],\n'
        ' "answers": [{"id": "1", "short": "d", "long": "e"}], "colour": "red"}\n', encoding="utf-8")
    result = cli("validate", "conv.hjson")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "error: conv.hjson: Additional properties are not allowed ('colour' was unexpected)"]
    (tmp_path / "conv.hjson").write_text(
        (tmp_path / "conv.hjson").read_text(encoding="utf-8").replace(', "colour": "red"', ""), encoding="utf-8")
    result = cli("validate", "conv.hjson")
    assert result.stderr.splitlines() == [
        "error: conv.hjson: context 1: field answer: unknown answer id '9'",
        "error: conv.hjson: context 1: field contradicts: no other context '7'",
    ]


def test_unknown_kind(cli, tmp_path: Path) -> None:
    (tmp_path / "x.hjson").write_text("{a: 1}", encoding="utf-8")
    result = cli("validate", "x.hjson")
    assert result.exit_code == 1
    assert result.stderr == ("error: x.hjson: cannot tell what kind of file this is; give --kind (corpus, instances, "
                             "suite, prompts, suite-spec, converter-spec, llm-config, mapping, generation-audit, "
                             "generation-rejects)\n")


def test_audit_files(cli, tmp_path: Path) -> None:
    good = {"id": "1", "variation": 1, "source": "c.tsv", "line": 2, "status": "substituted", "reasons": [], "seed": 0,
            "model": "m 1", "date_offset": -12, "entities": [{"original": "Bremen", "fantasy": "Noorna", "type": "GPE",
                                                             "forms": {"Bremen": "Noorna"}}],
            "dates": [{"field": "contexts/1", "original": "1912", "shifted": "1900"}], "removed": [],
            "checked": {"entity_strings": 1, "answers_in_contexts": 0, "dates": 1}}
    bad = {**good, "status": "done", "entities": [{**good["entities"][0], "type": "CITY"}]}
    (tmp_path / "m.jsonl").write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n", encoding="utf-8")
    result = cli("validate", "m.jsonl")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "error: m.jsonl: record 2: field entities/0/type: 'CITY' is not one of ['PERSON', 'TITLE', 'NORP', 'FAC', "
        "'ORG', 'GPE', 'LOC', 'PRODUCT', 'EVENT', 'WORK_OF_ART', 'LAW', 'LANGUAGE', 'PROPN', 'TAXON', 'SCRIPT', "
        "'CURRENCY', 'TERM']",
        "error: m.jsonl: record 2: field status: 'done' is not one of ['substituted', 'repaired', 'excluded']"]
    (tmp_path / "m.jsonl").write_text(json.dumps(good) + "\n", encoding="utf-8")
    assert cli("validate", "m.jsonl").output == "m.jsonl: valid mapping (1 instance records)\n"


def test_read_suite_streams_a_valid_suite_and_accepts_repeated_qids(tmp_path: Path) -> None:
    import pytest

    from ragability_gen.core.fileio import write_records
    from ragability_gen.core.validate import read_suite
    from ragability_gen.errors import SchemaError

    items = [{"qid": f"q{i}", "query": "?"} for i in range(3000)]
    write_records(items, tmp_path / "s.hjson")
    suite = read_suite(tmp_path / "s.hjson")
    assert len(suite) == 3000 and list(suite) == items and list(suite) == items
    write_records([*items, {"qid": "q7", "query": "?"}, {"qid": "q7", "query": 1}], tmp_path / "d.hjson")
    with pytest.raises(SchemaError) as e:
        read_suite(tmp_path / "d.hjson")
    where = tmp_path / "d.hjson"
    # repeated qids (python-ragability's converter writes them) run as q7#2, ...: only the bad field is a problem
    assert e.value.problems == [f"{where}: item 3002: field query: 1 is not of type 'string'"]
    write_records([*items, {"qid": "q7", "query": "?"}], tmp_path / "r.hjson")
    assert len(read_suite(tmp_path / "r.hjson")) == 3001
