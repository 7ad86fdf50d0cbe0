"""calibrate: checker verdicts against human labels, figures, report and bad labels."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score, confusion_matrix, precision_recall_fscore_support

from ragability_gen.calibrate import calibrate, compare, majority, verdicts
from ragability_gen.calibrate.metrics import _figures
from ragability_gen.errors import InputError

ANSWER_CHECK = {"cid": "answer_correct", "query": "", "func": "affirmative", "metrics": ["correct_answer_all"],
                "pid": "check_correct_answer", "check_for": "short answer: a moth"}
JUDGE_CHECK = {"cid": "wc_judge", "query": "", "func": "wc_judge", "metrics": ["wc_judge"], "pid": "wc_judge"}


def record(qid: str, result: Any, *, check: dict[str, Any] = ANSWER_CHECK, response: str = "It is a moth.",
           checkers: list[tuple[str, Any]] | None = None) -> dict[str, Any]:
    """One checked result as ``check`` writes it (several checkers: the first one's verdict in the usual fields)."""
    got: dict[str, Any] = {**check, "result": result, "error": "", "response": f"reply {result}", "llm": "judge-a",
                           "cost": 0.0}
    if checkers:
        got.update(result=checkers[0][1], llm=checkers[0][0])
        got["checkers"] = [{"llm": a, "result": r, "error": "", "response": f"reply {r}", "cost": 0.0}
                           for a, r in checkers]
    return {"qid": qid, "tags": "t", "query": "q?", "pid": "q_n_contexts", "llm": "testee", "response": response,
            "error": "", "cost": 0.0, "checks": [got]}


def write_jsonl(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def labels_tsv(path: Path, rows: list[tuple[str, str]], cid: str = "answer_correct") -> Path:
    lines = ["qid\tpid\tllm\tcid\tlabel"] + [f"{q}\tq_n_contexts\ttestee\t{cid}\t{lab}" for q, lab in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_figures_from_confusion_matrices_are_scikit_learns() -> None:
    rng = np.random.default_rng(1)
    matrices = []
    for k in (2, 3):
        ref, oth = rng.integers(0, k, 300), rng.integers(0, k, 300)
        oth[:150] = ref[:150]  # some agreement beyond chance
        confusion = confusion_matrix(ref, oth, labels=list(range(k)))
        got = _figures(confusion)
        p, r, f, _ = precision_recall_fscore_support(ref, oth, labels=list(range(k)), zero_division=np.nan)
        assert got[0] == pytest.approx((ref == oth).mean())
        assert got[1] == pytest.approx(cohen_kappa_score(ref, oth))
        assert got[2:] == pytest.approx(np.concatenate([p, r, f]))
        matrices.append(confusion)
    # batched: one row of figures per confusion matrix
    assert _figures(np.stack([matrices[1], matrices[1].T])).shape == (2, 2 + 3 * 3)


def test_bootstrap_intervals_cover_the_resampled_spread() -> None:
    """The multinomial draw of resampled confusion matrices matches resampling the pairs themselves."""
    rng = np.random.default_rng(5)
    human = rng.integers(0, 2, 400)
    checker = np.where(rng.random(400) < 0.8, human, 1 - human)
    a = compare([str(x) for x in human], [str(x) for x in checker], ["1", "0"], resamples=4000, seed=2)
    idx = rng.integers(0, 400, size=(4000, 400))
    kappas = [cohen_kappa_score(human[i], checker[i]) for i in idx[:1000]]
    low, high = np.percentile(kappas, [2.5, 97.5])
    assert a.kappa[1] == pytest.approx(low, abs=0.02) and a.kappa[2] == pytest.approx(high, abs=0.02)


def test_compare_by_hand() -> None:
    # 10 items: human 1 1 1 1 1 1 0 0 0 0, checker 1 1 1 1 1 0 1 0 0 0
    human = list("1111110000")
    checker = list("1111101000")
    a = compare(human, checker, ["1", "0"], resamples=500, seed=3)
    assert a.confusion == ((5, 1), (1, 3))
    assert a.agreement[0] == pytest.approx(0.8)
    # chance agreement: 0.6*0.6 + 0.4*0.4 = 0.52; kappa = (0.8 - 0.52) / 0.48
    assert a.kappa[0] == pytest.approx(0.28 / 0.48)
    yes = a.classes[0]
    assert (yes.label, yes.support, yes.predicted) == ("1", 6, 6)
    assert yes.precision[0] == pytest.approx(5 / 6) and yes.recall[0] == pytest.approx(5 / 6)
    for iv in (a.agreement, a.kappa, yes.f1):
        assert iv[1] is not None and iv[2] is not None and iv[1] <= iv[0] <= iv[2]
    assert a == compare(human, checker, ["1", "0"], resamples=500, seed=3)  # reproducible
    # a checker that says yes to everything: agreement 60%, kappa exactly 0
    lenient = compare(human, ["1"] * 10, ["1", "0"], resamples=0)
    assert lenient.agreement[0] == pytest.approx(0.6) and lenient.kappa[0] == pytest.approx(0.0)
    assert lenient.classes[1].precision == (None, None, None)  # "0" never given: precision undefined
    # one label everywhere: chance agreement is 1, kappa undefined
    assert compare(["1"] * 4, ["1"] * 4, ["1", "0"]).kappa == (None, None, None)


def test_majority_vote() -> None:
    assert majority(["1", "1", "0"]) == "1"
    assert majority(["1", "0"]) is None  # a tie is no majority
    assert majority(["1", None, None]) == "1"
    assert majority([None, None]) is None
    check = record("a", "1", checkers=[("x", "1"), ("y", "0"), ("z", "0")])["checks"][0]
    assert verdicts(check) == {"x": "1", "y": "0", "z": "0", "majority": "0"}
    assert verdicts({"func": "negative", "result": "1"}) == {"rules": "1"}


def test_calibrate_binary_with_several_checkers(tmp_path: Path) -> None:
    votes = {  # qid: (human, checker x, checker y, checker z)
        "q1": ("1", "1", "1", "1"), "q2": ("1", "1", "0", "1"), "q3": ("0", "1", "0", "0"),
        "q4": ("0", "0", "0", "1"), "q5": ("1", "0", "1", "1"), "q6": ("0", "1", "1", "0"),
    }
    checked = write_jsonl(tmp_path / "checked.jsonl", [
        record(q, None, checkers=[("x", x), ("y", y), ("z", z)]) for q, (_, x, y, z) in votes.items()])
    labels = labels_tsv(tmp_path / "labels.tsv", [(q, "yes" if v[0] == "1" else "no") for q, v in votes.items()])
    cal = calibrate(checked, labels, resamples=200)
    rows = {r.checker: r for r in cal.rows}
    assert list(rows) == ["x", "y", "z", "majority"]
    assert {c: r.agreement.agreement[0] for c, r in rows.items()} == pytest.approx(
        {"x": 3 / 6, "y": 4 / 6, "z": 5 / 6, "majority": 5 / 6})
    assert rows["majority"].agreement.confusion == ((3, 0), (1, 2))
    assert sorted((d.checker, d.qid) for d in cal.disagreements) == [
        ("majority", "q6"), ("x", "q3"), ("x", "q5"), ("x", "q6"), ("y", "q2"), ("y", "q6"), ("z", "q4")]
    pairs = {(p.first, p.second): p.agreement for p in cal.between}
    assert set(pairs) == {("x", "y"), ("x", "z"), ("y", "z")}
    assert pairs[("x", "y")].agreement[0] == pytest.approx(3 / 6)


def test_calibrate_multiclass_judge_and_checker_errors(tmp_path: Path) -> None:
    verdict = {"w1": ("correct", "correct"), "w2": ("partially correct", "incorrect"), "w3": ("incorrect", "incorrect"),
               "w4": ("partially correct", "partially correct"), "w5": ("correct", None)}
    checked = write_jsonl(tmp_path / "checked.jsonl",
                          [record(q, c, check=JUDGE_CHECK) for q, (_, c) in verdict.items()])
    labels = tmp_path / "labels.jsonl"
    write_jsonl(labels, [{"item": q, "pid": "q_n_contexts", "llm": "testee", "cid": "wc_judge", "human": h.upper()}
                         for q, (h, _) in verdict.items()])
    from ragability_gen.calibrate import Columns

    cal = calibrate(checked, labels, Columns(qid="item", label="human"), resamples=100)
    (row,) = cal.rows
    assert (row.kind, row.check_kind, row.checker, row.no_verdict) == ("wc_judge", "multiclass", "judge-a", 1)
    assert row.agreement.labels == ("correct", "partially correct", "incorrect")
    assert row.agreement.confusion == ((1, 0, 0), (0, 1, 1), (0, 0, 1))
    assert [(d.qid, d.human, d.verdict) for d in cal.disagreements] == [("w2", "partially correct", "incorrect")]


def test_bad_labels_are_all_reported_by_line(tmp_path: Path) -> None:
    checked = write_jsonl(tmp_path / "checked.jsonl", [record("q1", "1"), record("q2", "0")])
    labels = labels_tsv(tmp_path / "labels.tsv", [("q1", "1"), ("q9", "1"), ("q1", "0"), ("q2", "maybe")])
    with pytest.raises(InputError) as e:
        calibrate(checked, labels)
    assert e.value.problems == [
        f"{labels}: line 4: duplicate label for qid 'q1' pid 'q_n_contexts' llm 'testee' cid 'answer_correct' "
        "(first on line 2)",
        f"{labels}: line 5: field label: 'maybe' is not a label of check 'answer_correct' (affirmative): use one of "
        "1, 0 (or yes, no)",
        f"{labels}: line 3: matches no checked result: no record has qid 'q9' pid 'q_n_contexts' llm 'testee' with a "
        "check 'answer_correct'",
        f"{labels}: 3 problems in 4 labels; nothing was written"]


def test_label_file_layout_problems(tmp_path: Path) -> None:
    checked = write_jsonl(tmp_path / "checked.jsonl", [record("q1", "1")])
    bad = tmp_path / "labels.csv"
    bad.write_text("qid,pid,llm,cid,verdict\nq1,q_n_contexts,testee,answer_correct,1\n", encoding="utf-8")
    with pytest.raises(InputError) as e:
        calibrate(checked, bad)
    assert e.value.problems == [f"{bad}: line 1: no column 'label' (columns: qid, pid, llm, cid, verdict); name the "
                                "columns with the --*-column options"]
    empty = tmp_path / "labels.jsonl"
    empty.write_text('{"qid": "q1", "pid": "q_n_contexts", "llm": "testee", "cid": "answer_correct", "label": ""}\n'
                     "not json\n", encoding="utf-8")
    with pytest.raises(InputError) as e:
        calibrate(checked, empty)
    assert e.value.problems == [f"{empty}: line 2: column 1: Expecting value", f"{empty}: line 1: field label: missing "
                                "or empty", f"{empty}: 2 problems in 1 rows; nothing was written"]


def test_cli_report_escapes_data_and_bad_input_writes_nothing(cli: Any, tmp_path: Path) -> None:
    sneaky = "<script>alert(1)</script> | not a moth"
    checked = write_jsonl(tmp_path / "checked.jsonl", [record("q1", "1", response=sneaky), record("q2", "0")])
    labels = labels_tsv(tmp_path / "labels.tsv", [("q1", "0"), ("q2", "0")])
    r = cli("calibrate", checked, labels, "-o", tmp_path / "cal", "--resamples", "50")
    assert r.exit_code == 0, r.output
    assert r.output.splitlines() == [
        "calibrated 2 labels against 2 checked records",
        "  check_correct_answer  judge-a: n=2 agreement 0.500 [0.000, 1.000] kappa 0.000 [0.000, 0.000]",
        "wrote 8 files to " + str(tmp_path / "cal")]
    page = (tmp_path / "cal" / "report.html").read_text(encoding="utf-8")
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<svg" in page
    md = (tmp_path / "cal" / "report.md").read_text(encoding="utf-8")
    assert "\\| not a moth" in md and "![Cohen's kappa per check and checker](charts/kappa.svg)" in md
    assert (tmp_path / "cal" / "disagreements.tsv").read_text(encoding="utf-8").count("\n") == 2
    # bad labels: exact error lines, exit 1, no report folder
    labels_tsv(tmp_path / "bad.tsv", [("q1", "0"), ("q3", "1")])
    r = cli("calibrate", checked, tmp_path / "bad.tsv", "-o", tmp_path / "cal2")
    assert r.exit_code == 1
    assert r.output.splitlines() == [
        f"error: {tmp_path / 'bad.tsv'}: line 3: matches no checked result: no record has qid 'q3' pid "
        "'q_n_contexts' llm 'testee' with a check 'answer_correct'",
        f"error: {tmp_path / 'bad.tsv'}: 1 problems in 2 labels; nothing was written"]
    assert not (tmp_path / "cal2").exists()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_labels_for_a_file_that_is_not_checked(tmp_path: Path) -> None:
    rec = record("q1", "1")
    del rec["checks"][0]["result"]
    checked = write_jsonl(tmp_path / "results.jsonl", [rec])
    with pytest.raises(InputError) as e:
        calibrate(checked, labels_tsv(tmp_path / "labels.tsv", [("q1", "1")]))
    assert e.value.problems == [f"{checked}: item 1 (q1): field checks.result: missing (is this the output of check?)"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert compare([], [], ["1", "0"]).n == 0


def test_benchmark_tiny_mode_runs() -> None:
    """benchmarks/bench_calibrate.py --tiny: the benchmark script still works end to end."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    run = subprocess.run([sys.executable, str(root / "benchmarks" / "bench_calibrate.py"), "--tiny"],
                         capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(root)}, timeout=600)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("calibrate 200 labels x 3 checkers + majority, 1000 resamples: best ")
    assert " s CPU (target 15 s), " in run.stdout
    assert run.stdout.rstrip().endswith("report files: calibration.tsv, charts, checker_agreement.tsv, confusion.tsv, "
                                        "disagreements.tsv, report.html, report.md")


def test_the_shipped_labelled_set_calibrates_cleanly(cli: Any, tmp_path: Path) -> None:
    """corpora/labels: at least 200 hand labels, each saying who, how and when, all matching a checked record."""
    from ragability_gen.core.resources import data_dir
    from ragability_gen.core.table import read_table

    folder = data_dir("corpora") / "labels"
    table = read_table(folder / "demo-smollm2.labels.tsv")
    assert table.header == ["qid", "pid", "llm", "cid", "label", "labeller", "method", "labelled_at", "note"]
    rows = [dict(zip(table.header, cells, strict=True)) for _, cells in table.rows]
    assert len(rows) >= 200
    assert all(r["labeller"] and r["method"] and r["labelled_at"] and r["label"] in ("0", "1") for r in rows)
    r = cli("calibrate", folder / "demo-smollm2.checked.jsonl", folder / "demo-smollm2.labels.tsv",
            "-o", tmp_path / "cal", "--resamples", "100")
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[0] == f"calibrated {len(rows)} labels against 462 checked records"


def test_calibrate_file_is_the_command_as_a_call(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """calibrate_file: default folder beside the working directory, the same files as the command, a refused folder."""
    from ragability_gen.calibrate import calibrate_file, default_calibration_dir
    from ragability_gen.errors import RagabilityGenError

    checked = write_jsonl(tmp_path / "checked.jsonl", [record("q1", None, checkers=[("x", "1")]),
                                                      record("q2", None, checkers=[("x", "0")])])
    labels = labels_tsv(tmp_path / "run.labels.tsv", [("q1", "yes"), ("q2", "yes")])
    monkeypatch.chdir(tmp_path)
    assert default_calibration_dir(labels) == Path("run-calibration")
    cal, names, out = calibrate_file(checked, labels, resamples=50)
    written = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
    assert out == Path("run-calibration") and written == sorted(names)
    assert "report.md" in names and [r.agreement.agreement[0] for r in cal.rows] == [0.5]
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "mine.txt").write_text("keep", encoding="utf-8")
    with pytest.raises(RagabilityGenError, match="taken"):
        calibrate_file(checked, labels, tmp_path / "taken", resamples=50)
    assert sorted(p.name for p in (tmp_path / "taken").iterdir()) == ["mine.txt"]
