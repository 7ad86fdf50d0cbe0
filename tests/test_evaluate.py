"""eval: metrics with intervals from checked files built from the demo suite by a scripted checker."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest

from ragability_gen import compile_suite, read_instances, read_records, write_records
from ragability_gen.checkfuncs import CHECKS, CheckFunc
from ragability_gen.core.resources import data_dir
from ragability_gen.core.table import read_table
from ragability_gen.errors import InputError
from ragability_gen.evaluate import evaluate_checked, parse_breakdowns, tag_breakdown, write_report
from ragability_gen.evaluate.stats import mean_interval, t_quantile, wilson

ROOT = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def demo_items(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    out = tmp_path_factory.mktemp("suite") / "demo.hjson"
    compile_suite(read_instances(data_dir("corpora") / "demo.tsv")[0], out)
    return read_records(out)


def checked(items: list[dict[str, Any]], llm: str, script: Any) -> list[dict[str, Any]]:
    """Results + checks for one LLM: ``script(index, item)`` gives (result, query error, check error)."""
    out = []
    for i, item in enumerate(items):
        result, qerr, cerr = script(i, item)
        rec = copy.deepcopy(item)
        rec.update(pid=item["pids"][0], llm=llm, response="" if qerr else "reply", error=qerr, cost=0.5)
        for c in rec["checks"]:
            c.update(result=result, error=qerr and "the testee query failed" or cerr)
        out.append(rec)
    return out


def alpha(i: int, item: dict[str, Any]) -> tuple[str, str, str]:
    """Passes every check except contradiction identification, which it always fails."""
    return ("0" if "task_ic" in item["tags"] else "1"), "", ""


def beta(i: int, item: dict[str, Any]) -> tuple[str | None, str, str]:
    """No-context items, in file order: 7 pass, 3 fail, 4 unparseable checker replies, 10 failed queries.

    Identification items: says yes every time (right for the 70 expect_yes items). Others pass.
    """
    if "-nc-" in item["qid"]:
        k = NC_ORDER.index(item["qid"])
        if k < 10:
            return ("1" if k < 7 else "0"), "", ""
        return (None, "", "expected a yes/no answer, got 'Maybe.'") if k < 14 else (None, "HTTP 500", "")
    if "task_ic" in item["tags"]:
        return ("1" if "expect_yes" in item["tags"] else "0"), "", ""
    return "1", "", ""


NC_ORDER: list[str] = []


@pytest.fixture(scope="module")
def records(demo_items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    NC_ORDER[:] = [it["qid"] for it in demo_items if "-nc-" in it["qid"]]
    return checked(demo_items, "alpha", alpha) + checked(demo_items, "beta", beta)


@pytest.fixture(scope="module")
def report(records: list[dict[str, Any]]) -> Any:
    return evaluate_checked(records)


def row(report: Any, table: str, metric: str, llm: str, group: tuple[str, ...] = (), stat: str | None = None) -> Any:
    t = report.table(table)
    found = [r for r in t.rows if r.metric == metric and r.llm == llm and r.group == group
             and (stat is None or r.stat == stat)]
    assert len(found) == 1, found
    return found[0]


def test_wilson_interval_known_values() -> None:
    assert wilson(7, 10) == pytest.approx((0.39677815, 0.89220873))  # statsmodels proportion_confint, wilson
    assert wilson(24, 24) == (pytest.approx(24 / (24 + 1.959963984540054**2)), 1.0)
    assert wilson(0, 162) == (0.0, pytest.approx(1.959963984540054**2 / (162 + 1.959963984540054**2)))
    assert wilson(0, 0) is None


@pytest.mark.parametrize(("df", "q"), [(1, 12.7062047), (2, 4.30265273), (5, 2.57058184), (10, 2.22813885),
                                       (30, 2.04227246), (100, 1.98397152), (101, 1.98373095), (1000, 1.96233908)])
def test_t_quantile_matches_the_tables(df: int, q: float) -> None:
    assert t_quantile(df) == pytest.approx(q, abs=1e-7)


def test_mean_interval() -> None:
    mean, low, high = mean_interval(3, 1.0 + 2.0 + 3.0, 1.0 + 4.0 + 9.0)
    assert (mean, low, high) == pytest.approx((2.0, 2 - 4.30265273 / 3**0.5, 2 + 4.30265273 / 3**0.5))
    assert mean_interval(1, 5.0, 25.0) == (5.0, None, None)
    assert mean_interval(0, 0.0, 0.0) == (None, None, None)


def test_overall_accuracy_n_interval_and_errors(report: Any) -> None:
    assert (report.records, report.items, report.llms) == (924, 462, ["alpha", "beta"])
    assert report.metrics == {"correct_answer_all": "binary", "refusal_not_answerable": "binary",
                              "correct_answer_answerable": "binary", "contradiction_identification": "binary"}
    r = row(report, "overall", "correct_answer_all", "alpha")
    assert (r.stat, r.count, r.n, r.query_errors, r.check_errors) == ("accuracy", 300, 462, 0, 0)
    assert r.value == pytest.approx(300 / 462)
    r = row(report, "overall", "contradiction_identification", "alpha")
    assert (r.value, r.ci_low, r.count, r.n) == (0.0, 0.0, 0, 162)
    assert r.ci_high == pytest.approx(0.0231633, abs=1e-6)
    r = row(report, "overall", "contradiction_identification", "beta")
    assert (r.count, r.n) == (70, 162)
    # beta's 14 errored no-context checks count for n in neither metric they belong to
    # passes: 276 answering items with context, 70 identification yes, 7 no-context; refusal: 127 + 7
    for metric, n, passed in (("correct_answer_all", 448, 276 + 70 + 7), ("refusal_not_answerable", 137, 127 + 7)):
        r = row(report, "overall", metric, "beta")
        assert (r.n, r.count, r.query_errors, r.check_errors) == (n, passed, 10, 4)
    s = report.per_llm["beta"]
    assert (s.records, s.failed_queries, s.checks, s.results, s.query_errors, s.check_errors, s.cost) == (
        462, 10, 462, 448, 10, 4, 231.0)


def test_small_group_hand_computed(report: Any) -> None:
    """beta's 24 no-context items: 7 of 10 results pass, 4 check errors, 10 query errors."""
    r = row(report, "pid", "refusal_not_answerable", "beta", ("q_no_context",))
    assert (r.count, r.n, r.query_errors, r.check_errors) == (7, 10, 10, 4)
    assert (r.value, r.ci_low, r.ci_high) == pytest.approx((0.7, 0.39677815, 0.89220873))
    r = row(report, "ctx", "refusal_not_answerable", "alpha", ("ctx_none",))
    assert (r.count, r.n, r.value, r.ci_high) == (24, 24, 1.0, 1.0)
    assert r.ci_low == pytest.approx(0.8620238, abs=1e-6)
    errors = [e for e in report.errors if e.llm == "beta"]
    assert len(errors) == 14
    assert {(e.source, e.error) for e in errors} == {("check", "expected a yes/no answer, got 'Maybe.'"),
                                                     ("query", "HTTP 500")}


def test_default_breakdowns_follow_the_suite_tags(report: Any) -> None:
    assert [t.name for t in report.tables] == ["overall", "pid", "ctx", "hint", "reasoning", "annotation", "expect",
                                               "task", "contradiction", "answerable", "contexts", "kind_context",
                                               "kind_hint"]
    groups = [r.group[0] for r in report.table("ctx").rows if r.metric == "correct_answer_all" and r.llm == "alpha"]
    assert groups == ["ctx_1", "ctx_1+2", "ctx_1+2+3+4", "ctx_1+3", "ctx_2", "ctx_2+1", "ctx_3+1", "ctx_none"]
    hint = {r.group[0]: r.n for r in report.table("hint").rows if r.metric == "correct_answer_all" and r.llm == "alpha"}
    assert hint == {"hint": 114, "nohint": 348}


def test_an_item_counts_in_every_group_whose_tag_it_carries(records: list[dict[str, Any]]) -> None:
    report = evaluate_checked(records, by_tags=["annotation=qeu,qea,qiu,qia,qn"], by_fields=["none"])
    assert [t.name for t in report.tables] == ["overall", "annotation"]
    n = {r.group[0]: r.n for r in report.table("annotation").rows
         if r.metric == "correct_answer_all" and r.llm == "alpha"}
    # demo tag counts: qeu 319, qea 45, qiu 96, qia 28, qn 124; the 24 no-context items carry none
    assert n == {"qeu": 319, "qea": 45, "qiu": 96, "qia": 28, "qn": 124, "(none)": 24}
    assert sum(n.values()) > 462


def test_cross_and_field_breakdowns(records: list[dict[str, Any]]) -> None:
    report = evaluate_checked(records, by_tags=["task_*&hint,nohint"], by_fields=["c1xq,c2xq", "check.cid"])
    cross = report.table("task & hint,nohint")
    assert cross.columns == ("task", "hint,nohint")
    assert {r.group for r in cross.rows} == {("task_q", "hint"), ("task_q", "nohint"), ("task_ic", "nohint")}
    fields = report.table("c1xq,c2xq")
    assert fields.columns == ("c1xq", "c2xq")
    assert ("qeu", "qiu") in {r.group for r in fields.rows}
    cids = {r.group[0] for r in report.table("check.cid").rows}
    assert cids == {"answer_correct", "2ctx_not_answerable", "noinfo_not_answerable", "no_ctx_not_answerable"}


@pytest.fixture(scope="module")
def wc_records(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    out = tmp_path_factory.mktemp("wc") / "wc.hjson"
    instances, summary = read_instances(ROOT / "data" / "wikicontradict" / "rag_qa_sample.csv")
    compile_suite(instances, out, summary.default_suite or "wikicontradict")

    def judge(i: int, item: dict[str, Any]) -> tuple[str, str, str]:
        tags = item["tags"]
        if "wc_template_5.2" in tags:
            return "1", "", ""
        if "wc_template_2," in tags or "wc_template_3," in tags:
            return "correct", "", ""
        if "wc_template_4," in tags:
            return ("partially correct" if "wc_explicit" in tags else "incorrect"), "", ""
        return "incorrect", "", ""

    return checked(read_records(out), "alpha", judge)


def test_multiclass_distribution_per_template_and_conflict_type(wc_records: list[dict[str, Any]]) -> None:
    report = evaluate_checked(wc_records)
    assert report.metrics == {"wc_judge": "multiclass", "wc_conflict_detection": "binary"}
    assert report.labels == {"wc_judge": ["correct", "partially correct", "incorrect"]}
    table = report.table("wc_template & wc_conflict")
    assert table.columns == ("wc_template", "wc_conflict")
    shares = {r.stat: (r.count, r.n, r.value) for r in table.rows if r.group == ("wc_template_4", "wc_explicit")}
    assert shares == {"correct": (0, 13, 0.0), "partially correct": (13, 13, 1.0), "incorrect": (0, 13, 0.0)}
    implicit = row(report, "wc_template & wc_conflict", "wc_judge", "alpha", ("wc_template_4", "wc_implicit"),
                   "incorrect")
    assert (implicit.count, implicit.n, implicit.ci_high) == (7, 7, 1.0)
    overall = {r.stat: r.count for r in report.table("overall").rows if r.metric == "wc_judge"}
    assert overall == {"correct": 40, "partially correct": 13, "incorrect": 67}


def score_records(*values: Any) -> list[dict[str, Any]]:
    return [{"qid": f"q{i}", "llm": "x", "pid": "p", "query": "?", "error": "",
             "checks": [{"cid": "s", "func": "extract_score", "metrics": ["score"], "result": v, "error": ""}]}
            for i, v in enumerate(values)]


def test_score_metric_mean_and_t_interval() -> None:
    report = evaluate_checked(score_records(1.0, 2, "3"), by_tags=["none"], by_fields=["none"])
    r = row(report, "overall", "score", "x")
    assert (r.kind, r.stat, r.n, r.count) == ("score", "mean", 3, None)
    assert (r.value, r.ci_low, r.ci_high) == pytest.approx((2.0, 2 - 2.48413771, 2 + 2.48413771))


def test_breakdown_spec_parsing() -> None:
    b = tag_breakdown("tpl=wc_template_*& wc_explicit , wc_implicit")
    assert (b.name, b.columns) == ("tpl & wc_explicit,wc_implicit", ("tpl", "wc_explicit,wc_implicit"))
    assert [b.name for b in parse_breakdowns(["none"], ["none"])] == []
    names = [b.name for b in parse_breakdowns(["default", "kind_*"], ["default", "check.func"])]
    assert names[:2] == ["pid", "check.func"] and names[-1] == "kind" and "wc_template & wc_conflict" in names


@pytest.mark.parametrize(("tags", "fields", "message"), [
    (["x="], None, "by-tags part 'x=': write NAME=... with a name and something after the '='"),
    (["a,,b"], None, "by-tags 'a,,b': empty tag pattern (write tags separated by single commas)"),
    (None, ["c1xq,"], "by-fields 'c1xq,': empty field name (write fields separated by single commas)"),
    (["default", "ctx=hint,nohint"], None, "two breakdowns are named 'ctx'; name one of them with NAME="),
])
def test_bad_breakdown_specs(tags: list[str] | None, fields: list[str] | None, message: str) -> None:
    with pytest.raises(InputError) as e:
        parse_breakdowns(tags, fields)
    assert e.value.problems == [message]


# ---- the command ---------------------------------------------------------------------------------


def test_eval_command_writes_the_report(cli: Any, records: list[dict[str, Any]], tmp_path: Path) -> None:
    write_records(records, "run.checked.jsonl")
    result = cli("eval", "run.checked.jsonl")
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert lines[0] == ("evaluated 924 records (462 items, 2 LLMs), 924 checks: 910 results, 10 query errors, "
                        "4 check errors")
    assert "  refusal_not_answerable        beta   97.8% [93.8, 99.3] n=137 (10 query + 4 check errors)" in lines
    assert lines[-1] == "wrote 21 files to run.checked-report: report.html, report.md, 14 TSV tables, 5 charts"
    out = tmp_path / "run.checked-report"
    assert sorted(p.name for p in out.iterdir()) == [
        "annotation.tsv", "answerable.tsv", "charts", "contexts.tsv", "contradiction.tsv", "ctx.tsv", "errors.tsv",
        "expect.tsv", "hint.tsv", "kind_context.tsv", "kind_hint.tsv", "overall.tsv", "pid.tsv", "reasoning.tsv",
        "report.html", "report.md", "task.tsv"]
    pid = read_table(out / "pid.tsv")
    assert pid.header == ["pid", "llm", "metric", "kind", "stat", "value", "ci_low", "ci_high", "count", "n",
                          "query_errors", "check_errors"]
    assert ["q_no_context", "beta", "refusal_not_answerable", "binary", "accuracy", "0.7000", "0.3968", "0.8922",
            "7", "10", "10", "4"] in [cells for _, cells in pid.rows]
    errors = read_table(out / "errors.tsv")
    assert len(errors.rows) == 14
    assert errors.rows[0][1] == ["beta", NC_ORDER[10], "q_no_context", "no_ctx_not_answerable", "affirmative",
                                 "check", "expected a yes/no answer, got 'Maybe.'"]
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "| q_no_context | 100.0% [86.2, 100.0] n=24 | 70.0% [39.7, 89.2] n=10 (10 query + 4 check errors) |" in md
    assert "![Accuracy per LLM](charts/overall.svg)" in md
    for chart in re.findall(r"\]\((charts/[^)]+)\)", md):
        assert (out / chart).is_file(), chart


def test_html_report_is_self_contained(cli: Any, wc_records: list[dict[str, Any]], tmp_path: Path) -> None:
    write_records(wc_records, "wc.json")
    assert cli("eval", "wc.json", "-o", "rep", "-q").exit_code == 0
    html = (tmp_path / "rep" / "report.html").read_text(encoding="utf-8")
    assert html.count("<svg") == 6 == len(list((tmp_path / "rep" / "charts").iterdir()))
    assert not re.search(r"""(?:src|href|action|data)\s*=\s*["']?\s*(?:https?:)?//""", html, re.I)
    assert not re.search(r"<(?:link|script|img|iframe|object)\b|@import|url\(\s*['\"]?(?!#)", html, re.I)
    ids = re.findall(r'\bid="([^"]+)"', html)
    assert len(ids) == len(set(ids))
    refs = set(re.findall(r'(?:href="#|url\(#)([^")]+)', html))
    assert refs <= set(ids)
    assert "<td>wc_template_4</td><td>wc_explicit</td><td>alpha</td><td>0.0% (0) [0.0, 22.8]</td>" in html


def test_a_previous_report_is_replaced_whole_and_a_foreign_folder_refused(cli: Any, records: list[dict[str, Any]],
                                                                           tmp_path: Path) -> None:
    write_records(records[:462], "a.hjson")
    assert cli("eval", "a.hjson", "-o", "rep", "-q", "--by-tags", "none").exit_code == 0
    assert cli("eval", "a.hjson", "-o", "rep", "-q", "--by-fields", "none", "--by-tags", "hint=hint,nohint"
               ).exit_code == 0
    assert sorted(p.name for p in (tmp_path / "rep").iterdir() if p.suffix == ".tsv") == [
        "errors.tsv", "hint.tsv", "overall.tsv"]
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me")
    result = cli("eval", "a.hjson", "-o", "mine")
    assert result.exit_code == 1
    assert result.stderr == ("error: mine: the folder holds files a report does not write (notes.txt); give a new "
                             "or empty folder, or a previous report folder\n")
    assert [p.name for p in (tmp_path / "mine").iterdir()] == ["notes.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.hjson", "mine", "rep"]


def test_a_failure_while_writing_leaves_the_old_report(cli: Any, records: list[dict[str, Any]], tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    write_records(records[:462], "a.hjson")
    assert cli("eval", "a.hjson", "-o", "rep", "-q", "--by-tags", "none").exit_code == 0
    before = {p.name: p.read_bytes() for p in (tmp_path / "rep").iterdir() if p.is_file()}

    def broken(*args: Any, **kwargs: Any) -> str:
        raise OSError(28, "No space left on device", "rep/charts")

    monkeypatch.setattr("ragability_gen.evaluate.charts.interval_bars", broken)
    result = cli("eval", "a.hjson", "-o", "rep")
    assert (result.exit_code, result.stderr) == (1, "error: rep/charts: No space left on device\n")
    assert {p.name: p.read_bytes() for p in (tmp_path / "rep").iterdir() if p.is_file()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.hjson", "rep"]


def bad(records: list[dict[str, Any]], n: int = 3) -> list[dict[str, Any]]:
    return copy.deepcopy(records[:n])


def test_bad_input_messages(cli: Any, records: list[dict[str, Any]], tmp_path: Path) -> None:
    recs = bad(records, 6)
    del recs[0]["llm"]
    recs[1]["checks"][0]["func"] = "is_yes"
    recs[2]["checks"][0]["result"] = "yes"
    recs[3]["checks"][0]["error"] = "timeout"
    del recs[4]["checks"][0]["result"]
    recs[5]["error"] = "HTTP 500"
    write_records(recs, "bad.jsonl")
    result = cli("eval", "bad.jsonl", "-o", "rep")
    q = [r["qid"] for r in recs]
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"error: bad.jsonl: item 1 ({q[0]}): field llm: missing (the testee LLM)",
        f"error: bad.jsonl: item 2 ({q[1]}): field checks/0/func: unknown check function 'is_yes'",
        f"error: bad.jsonl: item 3 ({q[2]}): field checks/0/result: affirmative is a binary check: result must be "
        "\"1\" or \"0\", got 'yes'",
        f"error: bad.jsonl: item 4 ({q[3]}): field checks/0/result: has both a result and an error ('timeout')",
        f"error: bad.jsonl: item 5 ({q[4]}): field checks/0/result: missing (every check of a checked file has a "
        "result, null when it could not be made)",
        f"error: bad.jsonl: item 6 ({q[5]}): field checks/0/result: the testee query failed ('HTTP 500') but the "
        "check has a result",
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.jsonl"]


@pytest.mark.parametrize(("change", "message"), [
    (lambda r: r.update(qid=""), "item 1: field qid: must be a non-empty string"),
    (lambda r: r.pop("checks"), "item 1 ({qid}): field checks: missing"),
    (lambda r: r.update(checks=[]), "item 1 ({qid}): field checks: must be a non-empty list of checks"),
    (lambda r: r.update(tags=["a"]), "item 1 ({qid}): field tags: must be a comma-separated string"),
    (lambda r: r.update(cost="free"), "item 1 ({qid}): field cost: must be a number, got 'free'"),
    (lambda r: r["checks"][0].update(metrics="m"), "item 1 ({qid}): field checks/0/metrics: must be a list of names"),
    (lambda r: r["checks"][0].pop("func"), "item 1 ({qid}): field checks/0/func: missing"),
    (lambda r: r["checks"].append(3), "item 1 ({qid}): field checks/1: must be an object"),
    (lambda r: r["checks"][0].update(func="wc_judge", result="great"),
     "item 1 ({qid}): field checks/0/result: wc_judge is a multiclass check: result must be one of correct, "
     "partially correct, incorrect, got 'great'"),
    (lambda r: r["checks"][0].update(func="extract_score", result="n/a"),
     "item 1 ({qid}): field checks/0/result: extract_score is a score check: result must be a number, got 'n/a'"),
    (lambda r: r["checks"][0].update(func="wc_judge", result="correct"),
     "item 1 ({qid}): field checks/0/metrics: metric 'correct_answer_all' gets binary results elsewhere but "
     "multiclass results from wc_judge"),
])
def test_malformed_records(cli: Any, records: list[dict[str, Any]], change: Any, message: str) -> None:
    recs = bad(records, 2)
    change(recs[0])
    qid = recs[0]["qid"]
    if "elsewhere" in message:  # a metric's kind is set by the first record that gives it a result
        recs[1]["checks"][0]["metrics"] = ["correct_answer_all"]
        recs.reverse()
        message = message.replace("item 1", "item 2")
    write_records(recs, "bad.json")
    result = cli("eval", "bad.json")
    assert result.exit_code == 1
    assert result.stderr == f"error: bad.json: {message.format(qid=qid)}\n"


def test_repeated_results_are_counted_apart_and_named(cli: Any, records: list[dict[str, Any]]) -> None:
    """python-ragability's converter repeats qids (one per row of a contradiction ID): each counts on its own."""
    write_records(bad(records, 2) + bad(records, 1), "dup.hjson")
    result = cli("eval", "dup.hjson")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[:2] == [
        "evaluated 3 records (3 items, 1 LLMs), 3 checks: 3 results, 0 query errors, 0 check errors",
        f"  1 qids occur more than once with the same pid and llm ({records[0]['qid']}); each repeat is counted as "
        "a record of its own (QID#2, QID#3, ...)"]


def test_many_problems_are_capped(cli: Any, records: list[dict[str, Any]]) -> None:
    recs = bad(records, 30)
    for r in recs:
        del r["llm"]
    recs[0]["llm"] = "x"
    write_records(recs, "bad.hjson")
    lines = cli("eval", "bad.hjson").stderr.splitlines()
    assert len(lines) == 21
    assert lines[0] == f"error: bad.hjson: item 2 ({recs[1]['qid']}): field llm: missing (the testee LLM)"
    assert lines[-1] == "error: bad.hjson: ... and 9 more problems"


@pytest.mark.parametrize(("records_of", "message"), [
    (lambda recs, items: [], "error: in.json: no records: nothing to evaluate"),
    (lambda recs, items: items, "error: in.json: not a checked file: its records have no llm and no check results "
                                "(a test suite? run query and check first)"),
    (lambda recs, items: [{k: v for k, v in r.items() if k != "checks"} | {"checks": items[i]["checks"]}
                          for i, r in enumerate(recs[:3])],
     "error: in.json: not a checked file: no check has a result (a results file? run check first)"),
])
def test_not_a_checked_file(cli: Any, records: list[dict[str, Any]], demo_items: list[dict[str, Any]],
                            records_of: Any, message: str) -> None:
    write_records(records_of(records, demo_items), "in.json")
    result = cli("eval", "in.json")
    assert (result.exit_code, result.stderr) == (1, message + "\n")


def test_unmatched_breakdowns_you_ask_for_are_errors(cli: Any, records: list[dict[str, Any]]) -> None:
    write_records(bad(records, 3), "c.hjson")
    result = cli("eval", "c.hjson", "--by-tags", "kind_*", "--by-tags", "wc_template_*")
    assert (result.exit_code, result.stderr) == (
        1, "error: c.hjson: breakdown 'wc_template': no item has a tag matching wc_template_*\n")
    result = cli("eval", "c.hjson", "--by-fields", "c1xq,notes")
    assert (result.exit_code, result.stderr) == (
        1, "error: c.hjson: breakdown 'c1xq,notes': no item has a field notes\n")
    result = cli("eval", "missing.hjson")
    assert (result.exit_code, result.stderr) == (1, "error: missing.hjson: no such file\n")


def test_a_binary_pass_is_the_result_equal_to_the_check_target(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(CHECKS, "says_no", CheckFunc("says_no", lambda r: "0", "binary", 0, "0", "passes on 0"))
    recs = score_records("1", "0", "0")
    for r in recs:
        r["checks"][0]["func"] = "says_no"
    r = row(evaluate_checked(recs, by_tags=["none"], by_fields=["none"]), "overall", "score", "x")
    assert (r.kind, r.count, r.n) == ("binary", 2, 3)


def test_a_multiclass_metric_without_labels_or_results_keeps_its_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(CHECKS, "grade", CheckFunc("grade", lambda r: r, "multiclass", 0, "A", "a grade"))
    recs = score_records(None, None)
    for r in recs:
        r["checks"][0].update(func="grade", error="checker timed out")
    report = evaluate_checked(recs, by_tags=["none"], by_fields=["none"])
    r = row(report, "overall", "score", "x")
    assert (r.stat, r.value, r.n, r.check_errors) == ("(no results)", None, 0, 2)


def test_checks_without_metrics_leave_nothing_to_evaluate() -> None:
    recs = score_records(1.0)
    recs[0]["checks"][0]["metrics"] = []
    with pytest.raises(InputError) as e:
        evaluate_checked(recs, source="s.json")
    assert e.value.problems == ["s.json: no check names a metric (field metrics): nothing to evaluate"]


def test_huge_breakdowns_are_cut_in_the_report_not_in_the_tsv(records: list[dict[str, Any]], tmp_path: Path) -> None:
    report = evaluate_checked(records[:462], by_tags=["none"], by_fields=["qid"])
    write_report(report, tmp_path / "rep")
    md = (tmp_path / "rep" / "report.md").read_text(encoding="utf-8")
    notes = re.findall(r"Showing the first 100 of (\d+) groups; qid.tsv has them all.", md)
    assert notes == ["462", "151", "149", "162"]  # one per metric: all items, refusal, answer, identification
    assert len(read_table(tmp_path / "rep" / "qid.tsv").rows) == 462 * 2  # every item counts for two metrics


def test_a_single_tag_breakdown_has_the_tag_absent_group(records: list[dict[str, Any]]) -> None:
    """python-ragability's --by_tags TAG: the items with the tag against those without (TAG:no)."""
    report = evaluate_checked(records, by_tags=["hint", "kind_*_q+h"], by_fields=["none"])
    n = {r.group[0]: r.n for r in report.table("hint").rows if r.metric == "correct_answer_all" and r.llm == "alpha"}
    assert n == {"hint": 114, "hint:no": 348}
    wild = {r.group[0] for r in report.table("kind_*_q+h").rows}
    assert wild == {"kind_2contexts_q+h", "kind_4contexts_q+h", "(none)"}  # a pattern keeps (none)


def test_default_groups_match_a_python_ragability_suite(records: list[dict[str, Any]]) -> None:
    """Items tagged only as python-ragability's converter tags them still get default breakdowns."""
    theirs = copy.deepcopy(records)
    for r in theirs:
        r["tags"] = ", ".join(t for t in r["tags"].split(", ") if t.startswith("kind_") or t.endswith("answerable"))
    report = evaluate_checked(theirs)
    assert [t.name for t in report.tables] == ["overall", "pid", "answerable", "contexts", "kind_context", "kind_hint"]
    n = {r.group[0]: r.n for r in report.table("answerable").rows
         if r.metric == "correct_answer_all" and r.llm == "alpha"}
    assert set(n) == {"answerable", "not_answerable"} and sum(n.values()) == 462
