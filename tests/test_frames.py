"""pandas views: checked results (one row per record x check) and eval tables as DataFrames."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from ragability_gen import read_instances, write_records
from ragability_gen.compile.core import compile_suite
from ragability_gen.core.fileio import read_records
from ragability_gen.errors import DependencyError, InputError
from ragability_gen.evaluate import evaluate_checked
from ragability_gen.evaluate.frames import STAT_COLUMNS, checked_frame


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo suite answered by two LLMs: alpha passes every check, beta fails every third item's checks."""
    folder = tmp_path_factory.mktemp("frames")
    from ragability_gen.core.resources import data_dir

    compile_suite(read_instances(data_dir("corpora") / "demo.tsv")[0], folder / "s.jsonl")
    records = []
    for llm in ("alpha", "beta"):
        for n, item in enumerate(read_records(folder / "s.jsonl")):
            rec: dict[str, Any] = {**item, "pid": item["pids"][0], "llm": llm, "response": "r", "error": "",
                                   "cost": 0.5}
            failed = llm == "beta" and n % 3 == 0
            rec["checks"] = [{**c, "result": "0" if failed else "1", "error": ""} for c in item["checks"]]
            records.append(rec)
    records[-1].update(error="HTTP 500", response="")
    records[-1]["checks"] = [{**c, "result": None, "error": "the testee query failed"} for c in records[-1]["checks"]]
    write_records(records, folder / "c.jsonl", "jsonl")
    return folder / "c.jsonl"


def test_checked_frame_has_one_row_per_record_and_check(checked: Path) -> None:
    pd = pytest.importorskip("pandas")
    records = read_records(checked)
    frame = checked_frame(checked)
    assert len(frame) == sum(len(r["checks"]) for r in records) == 2 * 462
    assert list(frame.columns[:6]) == ["qid", "llm", "pid", "tags", "query", "facts"]
    assert "check.result" in frame.columns and "check.cid" in frame.columns and "checks" not in frame.columns
    alpha = frame[frame["llm"] == "alpha"]
    assert set(alpha["check.result"]) == {"1"}
    first = frame.iloc[0]
    assert (first["qid"], first["check.func"], first["check.metrics"]) == (
        records[0]["qid"], records[0]["checks"][0]["func"], records[0]["checks"][0]["metrics"])
    last = frame.iloc[-1]
    assert pd.isna(last["check.result"]) and last["error"] == "HTTP 500"
    # the same rows from records as from the file
    assert checked_frame(records).equals(frame)


def test_report_to_frames_matches_the_report_tables(checked: Path) -> None:
    pytest.importorskip("pandas")
    report = evaluate_checked(checked)
    frames = report.to_frames()
    assert list(frames) == [t.name for t in report.tables] + ["errors"]
    overall = frames["overall"]
    assert list(overall.columns) == list(STAT_COLUMNS)
    table = report.table("overall")
    assert table is not None and len(overall) == len(table.rows)
    for row, stat in zip(overall.itertuples(index=False), table.rows, strict=True):
        assert (row.llm, row.metric, row.stat, row.n, row.query_errors) == (
            stat.llm, stat.metric, stat.stat, stat.n, stat.query_errors)
        assert row.value == pytest.approx(stat.value)
    alpha = overall[(overall["llm"] == "alpha") & (overall["metric"] == "correct_answer_all")]
    assert alpha["value"].tolist() == [1.0]
    ctx = frames["ctx"]
    assert list(ctx.columns[:1]) == list(report.table("ctx").columns)  # type: ignore[union-attr]
    assert frames["errors"].to_dict("records") == [
        {"llm": "beta", "qid": report.errors[0].qid, "pid": report.errors[0].pid, "cid": report.errors[0].cid,
         "func": report.errors[0].func, "source": "query", "error": "HTTP 500"}]


def test_bad_checks_are_one_error_line_each(tmp_path: Path) -> None:
    pytest.importorskip("pandas")
    with pytest.raises(InputError) as err:
        checked_frame([{"qid": "a", "checks": "x"}, {"qid": "b", "checks": [{"cid": "c"}]}, {"checks": [3]}])
    assert err.value.problems == ["<records>: item 1 (a): field checks: must be a list of objects",
                                  "<records>: item 3: field checks: must be a list of objects"]


def test_without_pandas_the_error_says_what_to_install(checked: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)  # what an interpreter without pandas does on import
    with pytest.raises(DependencyError) as err:
        checked_frame(checked)
    assert err.value.problems == ['pandas is not installed; install it with: pip install "ragability-gen[pandas]" '
                                  "(or pip install pandas)"]
    with pytest.raises(DependencyError):
        evaluate_checked(checked).to_frames()
