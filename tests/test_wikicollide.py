"""WikiCollide: the converter, the CLID suite, and the CLID metrics (AUROC, F1 per label and type) in eval."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from ragability_gen import evaluate_checked, read_instances, read_records
from ragability_gen.evaluate.clid import evaluate_clid
from ragability_gen.llm.testing import ScriptedServer, user_text

SAMPLE = Path("/work/shared/data/wikicollide_dev_sample.json")
needs_sample = pytest.mark.skipif(not SAMPLE.is_file(), reason="the WikiCollide sample is not on this machine")


def _block(title: str, content: str, section: str = "S") -> dict[str, str]:
    return {"content": content, "document_title": title, "section_title": section,
            "last_edit_date": "2024-01-02T03:04:05Z", "url": f"https://example.org/{title}"}


def record(cid: str, label: str = "consistent", itype: str | None = None, hits: int = 4,
           claim: str | None = None) -> dict[str, Any]:
    """A WikiCollide record in the release's layout (a consistent one has no inconsistency_type key)."""
    rec: dict[str, Any] = {
        "claim": {"claim_id": cid, "claim_text": claim or f"Claim {cid} holds.",
                  "claim_context_block": _block(f"Article {cid}", f"Passage of {cid}.")},
        "label": label, "label_reasoning": None,
        "agent_trace": [
            {"action_name": "clarify_entity", "action_argument": "x", "action_output": "a string"},
            {"action_name": "search_wikipedia_outside_claim_article", "action_argument": "q",
             "action_output": [_block(f"Article {cid}", "own article, skipped")]
             + [_block(f"Other {i}", f"Evidence {i} for {cid}.") for i in range(hits)]
             + [_block("Other 0", f"Evidence 0 for {cid}.")]},  # a repeat, dropped
            {"action_name": "report_inconsistency", "action_argument": "x",
             "action_output": {"consistent_prob": 0.2, "inconsistent_prob": 0.8}},
        ]}
    if itype is not None:
        rec["inconsistency_type"] = itype
    return rec


def write(tmp_path: Path, records: list[Any], name: str = "wcl.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(records), encoding="utf-8")
    return path


@needs_sample
def test_sample_converts_with_passages_labels_types_and_provenance() -> None:
    instances, summary = read_instances(SAMPLE)
    assert summary.converter == "wikicollide" and summary.default_suite == "wikicollide"
    assert [i.id for i in instances] == ["Broccoli_You_Too_1", "Dungeon_of_Doom_1", "2019_Halle_Open_1",
                                         "2005_FIBA_Asia_Champions_Cup_1"]
    first = instances[0]
    assert first.query.startswith("Broccoli, You Too? won the Best Modern Rock Song")
    assert list(first.contexts) == ["1", "2", "3", "4", "1m", "2m", "3m", "4m"]
    assert first.contexts["1"].text.startswith("Broccoli, You Too? was formed in 2005")
    assert first.contexts["2"].text.startswith("| Year | Winner | Song |")
    assert first.contexts["2m"].text.startswith("Title: Korean Music Awards\nSection: Genre Awards > Best Modern "
                                                "Rock Song\nLast edited: ")
    assert first.contexts["2"].contradicts == ("1",) and first.contexts["2m"].contradicts == ("1m",)
    assert first.tags == ("wcl_inconsistent", "wcl_type_named_entity") and first.reasoning == ("categorical",)
    assert first.metadata["url"] == "https://en.wikipedia.org/wiki/Broccoli,_You_Too%3F#History"
    consistent = instances[1]
    assert consistent.tags == ("wcl_consistent",) and consistent.reasoning == ()
    assert consistent.contexts["3"].agrees == ("1",) and consistent.contexts["3"].answer == "1"
    assert consistent.metadata["inconsistency_type"] == ""


def test_evidence_is_deduplicated_skips_the_claim_article_and_object_outputs(tmp_path: Path) -> None:
    instances, _ = read_instances(write(tmp_path, [record("a", "inconsistent", "NumericalDiscrepancy_OffByOne")]))
    inst = instances[0]
    assert [inst.contexts[c].text for c in ("1", "2", "3", "4")] == [
        "Passage of a.", "Evidence 0 for a.", "Evidence 1 for a.", "Evidence 2 for a."]
    assert inst.reasoning == ("numerical",)
    assert inst.tags == ("wcl_inconsistent", "wcl_type_numerical_offbyone", "wcl_numerical")
    assert inst.contexts["2"].annotation == "qeu"


def test_too_few_evidence_passages_are_excluded_or_kept(tmp_path: Path) -> None:
    path = write(tmp_path, [record("a", hits=2), record("b")])
    instances, summary = read_instances(path)
    assert [i.id for i in instances] == ["b"]
    assert dict(summary.excluded) == {"fewer than 3 evidence passages": 1}
    instances, summary = read_instances(path, fewer="keep")
    assert [list(i.contexts) for i in instances] == [["1", "2", "3", "1m", "2m", "3m"],
                                                     ["1", "2", "3", "4", "1m", "2m", "3m", "4m"]]


def test_bad_records_are_reported_by_record_and_field(cli: Any, tmp_path: Path) -> None:
    bad_label = record("b")
    bad_label["label"] = "maybe"
    no_type = record("c", "inconsistent")
    empty = record("d", "inconsistent", "NoSuchDiscrepancy")
    empty["claim"]["claim_text"] = " "
    path = write(tmp_path, [record("a"), bad_label, no_type, empty, record("a")])
    r = cli("convert", path, "-o", tmp_path / "out.hjson")
    assert r.exit_code == 1
    assert r.output.splitlines() == [
        f"error: {path}: record 2 (b): field label: unknown label 'maybe' (known: consistent, inconsistent)",
        f"error: {path}: record 3 (c): field inconsistency_type: missing on an inconsistent record",
        f"error: {path}: record 4 (d): field claim.claim_text: missing or empty",
        f"error: {path}: record 4 (d): field inconsistency_type: unknown inconsistency type 'NoSuchDiscrepancy' "
        "(known: NumericalDiscrepancy_Clear, NumericalDiscrepancy_OffByOne, TemporalDiscrepancy, "
        "NamedEntityDiscrepancy, CategoricalDiscrepancy, DefinitionDiscrepancy, DualityDiscrepancy_Explicit, "
        "DualityDiscrepancy_Implicit, SpatialDiscrepancy)",
        f"error: {path}: record 5 (a): field claim.claim_id: duplicate claim id, first in record 1"]
    assert not (tmp_path / "out.hjson").exists()
    instances, summary = read_instances(path, bad_records="exclude")
    assert [i.id for i in instances] == ["a"]
    assert sum(summary.excluded.values()) == 5  # record 4 has two problems, each counted


def _clid_testee(body: dict[str, Any]) -> str:
    """Says yes (score 80) to claims mentioning 'moon', no (score 10, or 90 for 'trap') otherwise."""
    text = user_text(body)
    claim = re.search(r"Claim: (.*)", text)
    assert claim is not None
    c = claim.group(1)
    if "How likely" in text:
        return "80" if "moon" in c else "90" if "trap" in c else "10"
    return "Yes, passage 2 disagrees." if "moon" in c else "No, nothing contradicts it."


def test_clid_suite_end_to_end_with_auroc_f1_and_roc_chart(cli: Any, tmp_path: Path) -> None:
    records = [record("p1", "inconsistent", "NumericalDiscrepancy_Clear", claim="The moon is 3 km away."),
               record("p2", "inconsistent", "TemporalDiscrepancy", claim="The moon rose in 1850."),
               record("p3", "inconsistent", "TemporalDiscrepancy", claim="The sun rose in 1850."),
               record("n1", claim="Water is wet."), record("n2", claim="A trap is set."),
               record("n3", claim="The moon is round.")]
    path = write(tmp_path, records)
    r = cli("convert", path, "-o", tmp_path / "wcl.hjson")
    assert r.exit_code == 0, r.output
    items = read_records(tmp_path / "wcl.hjson")
    assert len(items) == 24
    assert [i["qid"] for i in items[:4]] == ["p1-clid", "p1-clid_score", "p1-clid_meta", "p1-clid_score_meta"]
    assert items[0]["checks"] == [{"cid": "clid_detection", "query": "", "func": "affirmative",
                                   "metrics": ["clid_detection"]}]
    assert items[1]["checks"][0]["func"] == "extract_score"
    assert items[2]["facts"][0].startswith("Title: Article p1\nSection: S\nLast edited: 2024-01-02T03:04:05Z\n")
    with ScriptedServer(_clid_testee) as server:
        r = cli("query", tmp_path / "wcl.hjson", "-o", tmp_path / "res.jsonl", "--llm", "local/t",
                "--base-url", server.base_url)
        assert r.exit_code == 0, r.output
        r = cli("check", tmp_path / "res.jsonl", "-o", tmp_path / "checked.jsonl", "--checker", "local/c",
                "--base-url", server.base_url)
        assert r.exit_code == 0, r.output
        assert all(user_text(q.body).startswith("Claim: ") for q in server.requests)  # no checker calls
    report = evaluate_checked(tmp_path / "checked.jsonl")
    assert report.clid is not None
    roc = {r.condition: r for r in report.clid.roc}
    assert set(roc) == {"all", "metadata_hidden", "metadata_shown"}
    # positives score 80, 80, 10; negatives 10, 90, 80: pairs won 1+1+0 + 1+1+0 + 0.5+0+0 ... by hand:
    # (80 vs 10, 90, 80) = 1 + 0 + 0.5, twice; (10 vs 10, 90, 80) = 0.5 + 0 + 0 -> 3.5 / 9
    hidden = roc["metadata_hidden"]
    assert (hidden.positives, hidden.negatives, hidden.unscored) == (3, 3, 0)
    assert hidden.auroc.value == pytest.approx(3.5 / 9)
    assert hidden.auroc.low is not None and hidden.auroc.high is not None
    assert hidden.auroc.low <= hidden.auroc.value <= hidden.auroc.high
    assert roc["all"].positives == 6 and roc["all"].auroc.value == pytest.approx(3.5 / 9)
    det = {d.condition: d for d in report.clid.detection}["metadata_hidden"]
    # yes for p1, p2, n3; no for p3, n1, n2: 4 of 6 right; inconsistent P = 2/3, R = 2/3, F1 = 2/3
    assert det.accuracy.value == pytest.approx(4 / 6)
    inc = det.labels[0]
    assert (inc.label, inc.support, inc.precision, inc.recall) == ("inconsistent", 3, pytest.approx(2 / 3),
                                                                    pytest.approx(2 / 3))
    assert inc.f1.value == pytest.approx(2 / 3)
    types = {t.type: t for t in det.types}
    assert (types["numerical_clear"].n, types["numerical_clear"].recall.value) == (1, 1.0)
    assert (types["temporal"].n, types["temporal"].recall.value) == (2, 0.5)
    # temporal vs all consistent: TP 1, FN 1, FP 1 -> F1 1/2
    assert types["temporal"].f1.value == pytest.approx(0.5)
    r = cli("eval", tmp_path / "checked.jsonl", "-o", tmp_path / "rep")
    assert r.exit_code == 0, r.output
    assert "  AUROC clid_score local/t metadata_hidden: 38.9% [" in r.output
    page = (tmp_path / "rep" / "report.html").read_text(encoding="utf-8")
    assert "Inconsistency detection (CLID)" in page and 'aria-label="ROC curves"' in page
    assert (tmp_path / "rep" / "charts" / "clid_roc.svg").is_file()


def test_unscored_items_are_counted_not_guessed() -> None:
    def rec(qid: str, truth: str, result: Any) -> dict[str, Any]:
        return {"qid": qid, "llm": "m", "tags": f"{truth}, metadata_hidden",
                "checks": [{"cid": "s", "func": "extract_score", "metrics": ["s"], "result": result}]}

    records = [rec("a", "clid_inconsistent", 70), rec("b", "clid_consistent", 20), rec("c", "clid_consistent", None),
               rec("d", "clid_inconsistent", 10)]
    clid = evaluate_clid(records, {"s": "score"})
    assert clid is not None
    r = {x.condition: x for x in clid.roc}["all"]
    assert (r.positives, r.negatives, r.unscored) == (2, 1, 1)
    assert r.auroc.value == pytest.approx(0.5)
    one_class = evaluate_clid([records[0]], {"s": "score"})
    assert one_class is not None and one_class.roc[0].auroc.value is None
    assert evaluate_clid([{**records[0], "tags": "other"}], {"s": "score"}) is None
    # yes/no checks that all failed: shown with n=0 and the count, not dropped from the report
    unread = [{**rec("e", "clid_inconsistent", None), "checks": [{"metrics": ["b"], "result": None}]}]
    none = evaluate_clid(unread, {"b": "binary"})
    assert none is not None
    hidden = {d.condition: d for d in none.detection}["metadata_hidden"]
    assert (hidden.n, hidden.unanswered, hidden.labels) == (0, 1, ())
    from ragability_gen.evaluate.clid import report_blocks

    table = next(b for b in report_blocks(none) if b["kind"] == "table")
    assert ["m", "b", "metadata_hidden", "0", "1", "n/a", "", "", "", "", ""] in table["rows"]


def test_converter_spec_edit_changes_evidence_count(tmp_path: Path) -> None:
    from ragability_gen.core.resources import data_dir

    text = (data_dir("converters") / "wikicollide.hjson").read_text(encoding="utf-8")
    spec = tmp_path / "wcl5.hjson"
    spec.write_text(text.replace("count: 3", "count: 5").replace("default_suite: wikicollide\n", ""),
                    encoding="utf-8")
    instances, _ = read_instances(write(tmp_path, [record("a", hits=5), record("b", hits=4)]), spec)
    assert [len(i.contexts) for i in instances] == [12]
    broken = copy.deepcopy(text).replace("fewer: exclude", "fewer: sometimes")
    (tmp_path / "bad.hjson").write_text(broken, encoding="utf-8")
    with pytest.raises(Exception, match="fewer"):
        read_instances(write(tmp_path, [record("a")]), tmp_path / "bad.hjson")
