"""The one progress protocol: every library function that reports progress sends ``ProgressEvent``s to
``on_progress``, stage by stage, with ``done`` never going back and the last event of a stage complete."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path
from typing import Any

import pytest

from ragability_gen.cli.common import ProgressBars
from ragability_gen.compile.core import compile_suite
from ragability_gen.convert.core import read_instances
from ragability_gen.core.fileio import read_records
from ragability_gen.core.model import Answer, Context, Instance
from ragability_gen.core.progress import ProgressEvent, emit
from ragability_gen.core.resources import data_dir
from ragability_gen.generate import RuleWriter
from ragability_gen.generate.core import agenerate, generate_file
from ragability_gen.llm.client import LLM, spec_for
from ragability_gen.llm.testing import Reply, ScriptedServer, completion_body, user_text
from ragability_gen.mine import mine, mine_files
from ragability_gen.run.batch import collect_batch, write_batch
from ragability_gen.run.core import check_results, query_suite
from ragability_gen.run.probes import run_probes

DEMO = data_dir("corpora") / "demo.tsv"


def stages(events: list[ProgressEvent]) -> list[str]:
    """The stages in the order they report, after checking the protocol's promises for each one."""
    order: list[str] = []
    for e in events:
        assert isinstance(e, ProgressEvent)
        if not order or order[-1] != e.stage:
            assert e.stage not in order, f"stage {e.stage} reported again after {order[-1]}"
            order.append(e.stage)
    for stage in order:
        own = [e for e in events if e.stage == stage]
        done = [e.done for e in own]
        assert done == sorted(done), f"{stage}: done went back: {done}"
        assert all(e.total is None or 0 <= e.done <= e.total for e in own), own
        assert own[-1].total is not None and own[-1].done == own[-1].total, f"{stage}: ended at {own[-1]}"
    return order


def reply(body: dict[str, Any]) -> str:
    """A testee that answers with the question, and a checker that always says yes."""
    text = user_text(body)
    return "Yes." if "Answer yes or no." in text or "RESPONSE:" in text else "It says: " + text[-40:]


def model(server: ScriptedServer, name: str = "local/m") -> LLM:
    return LLM(spec_for(name, base_url=server.base_url, temperature=0, cost_per_prompt_token=1e-6), cache=None,
               concurrency=4)


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo suite's first 30 items, beside its prompt file."""
    folder = tmp_path_factory.mktemp("suite")
    instances, _ = read_instances(DEMO)
    compile_suite(instances, folder / "demo.jsonl")
    items = read_records(folder / "demo.jsonl")[:30]
    (folder / "small.jsonl").write_text("".join(json.dumps(i) + "\n" for i in items), encoding="utf-8")
    (folder / "small.prompts.hjson").write_bytes((folder / "demo.prompts.hjson").read_bytes())
    return folder / "small.jsonl"


def test_the_event_record() -> None:
    assert ProgressEvent("query", 3, 4).fraction == 0.75
    assert ProgressEvent("compile", 3).fraction is None and ProgressEvent("ner", 0, 0).fraction == 1.0
    seen: list[ProgressEvent] = []
    emit(seen.append, "verify", 1, 2)
    emit(None, "verify", 2, 2)  # no callback: nothing to call
    assert seen == [ProgressEvent("verify", 1, 2, failed=0, cost=None)]


@pytest.mark.parametrize("bad", [
    [ProgressEvent("a", 2, 3), ProgressEvent("a", 1, 3), ProgressEvent("a", 3, 3)],   # done went back
    [ProgressEvent("a", 1, 3), ProgressEvent("a", 2, 3)],                            # never complete
    [ProgressEvent("a", 1, 1), ProgressEvent("b", 1, 1), ProgressEvent("a", 1, 1)],  # a stage again
    [ProgressEvent("a", 4, 3)],                                                      # past the total
    [ProgressEvent("a", 5)],                                                         # total never known
], ids=["back", "incomplete", "again", "past-total", "no-total"])
def test_the_protocol_check_catches_a_broken_stream(bad: list[ProgressEvent]) -> None:
    with pytest.raises(AssertionError):
        stages(bad)


def test_compile_reports_items_written(tmp_path: Path) -> None:
    instances, _ = read_instances(DEMO)
    events: list[ProgressEvent] = []
    summary, _ = compile_suite(instances, tmp_path / "demo.jsonl", on_progress=events.append)
    assert stages(events) == ["compile"]
    assert events[-1] == ProgressEvent("compile", summary.items, summary.items)
    assert all(e.total is None for e in events[:-1])


def test_generate_reports_instances(tmp_path: Path) -> None:
    instances, _ = read_instances(DEMO)
    events: list[ProgressEvent] = []
    asyncio.run(agenerate(instances, RuleWriter(), concurrency=4, on_progress=events.append))
    assert stages(events) == ["generate"] and events[0] == ProgressEvent("generate", 0, 24)
    events.clear()
    generate_file(DEMO, tmp_path / "out.tsv", "rules", allow_partial=True, on_progress=events.append)
    assert stages(events) == ["generate"] and events[-1] == ProgressEvent("generate", 24, 24)


def test_mine_reports_facts_then_verification(tmp_path: Path) -> None:
    docs = data_dir("corpora") / "acme-docs"
    events: list[ProgressEvent] = []
    mine([docs], on_progress=events.append)
    assert stages(events) == ["facts", "verify"]
    assert events[-1].done > 0
    events.clear()
    mine_files([docs], tmp_path / "mined.tsv", on_progress=events.append)
    assert stages(events) == ["facts", "verify"]


def test_query_and_check_report_jobs_failures_and_cost(demo: Path, tmp_path: Path) -> None:
    events: list[ProgressEvent] = []
    refused = read_records(demo)[0]["query"]  # every request about the first query fails

    def flaky(body: dict[str, Any]) -> Reply | str:
        text = user_text(body)
        return Reply(status=400, body='{"error": {"message": "too long"}}') if refused in text else reply(body)

    with ScriptedServer(flaky) as server:
        summary = query_suite(demo, tmp_path / "res.jsonl", [model(server)], on_progress=events.append)
        assert stages(events) == ["query"]
        assert events[-1].done == events[-1].total == summary.jobs
        assert events[-1].failed == summary.failed_now >= 1
        assert events[-1].cost is not None and events[-1].cost == pytest.approx(summary.cost) and summary.cost > 0
        events.clear()
        summary = check_results(tmp_path / "res.jsonl", tmp_path / "checked.jsonl", model(server),
                                prompts=demo.with_name("small.prompts.hjson"), on_progress=events.append)
    assert stages(events) == ["check"] and events[-1].done == summary.jobs


def test_probes_report_the_probe_and_repeat_steps(demo: Path) -> None:
    events: list[ProgressEvent] = []
    with ScriptedServer(lambda body: "Yes") as server:
        run_probes(demo, [model(server, "local/checker")], per_role=2, repeats=2, on_progress=events.append)
    assert stages(events) == ["probe", "repeat"]


def test_batch_collect_reports_the_replies_it_reads(demo: Path, tmp_path: Path) -> None:
    llm = LLM(spec_for("local/a", base_url="http://127.0.0.1:9/v1"))
    folder = tmp_path / "batch"
    write_batch("query", demo, tmp_path / "res.jsonl", [llm], folder)
    requests = folder / "requests-0001.jsonl"
    lines = []
    for raw in requests.read_text(encoding="utf-8").splitlines():
        req = json.loads(raw)
        lines.append(json.dumps({"custom_id": req["custom_id"], "error": None, "response": {
            "status_code": 200, "body": completion_body(reply(req["body"]), req["body"]["model"])}}))
    (folder / "requests-0001.output.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    events: list[ProgressEvent] = []
    summary = collect_batch("query", demo, tmp_path / "res.jsonl", [llm], folder, on_progress=events.append)
    assert summary.finished and stages(events) == ["query"] and events[-1].done == len(lines)


def test_substitute_reports_ner_review_and_scan() -> None:
    from ragability_gen.substitute import substitute_instances
    ship = Instance("1", "When did Charles Darwin reach Chile?", {
        "1": Context("1", "Charles Darwin reached Chile aboard HMS Beagle in 1835.", "qeu", "1", (), ()),
        "2": Context("2", "Darwin reached Chile in 1834, nine years before he left London.", "qeu", "2", (), ("1",))},
        {"1": Answer("1835", "In 1835."), "2": Answer("1834", "In 1834.")})
    events: list[ProgressEvent] = []
    with ScriptedServer(lambda body: Reply(json.dumps({"names": [], "not_english": []}))) as server:
        substitute_instances([ship], seed=2, reviewer=LLM(spec_for("reviewer", base_url=server.base_url), cache=None),
                             on_progress=events.append)
    assert stages(events) == ["ner", "review", "scan"]
    assert [e for e in events if e.stage == "review"][-1] == ProgressEvent("review", 1, 1)


def test_substitute_file_passes_the_events_on(tmp_path: Path) -> None:
    from ragability_gen.substitute import substitute_file

    small = tmp_path / "small.tsv"
    small.write_text("\n".join(DEMO.read_text(encoding="utf-8").splitlines()[:4]) + "\n", encoding="utf-8")
    events: list[ProgressEvent] = []
    substitute_file(small, tmp_path / "novel.tsv", on_progress=events.append)
    assert stages(events) == ["ner", "scan"]
    assert [e for e in events if e.stage == "ner"][-1].done > 0  # the texts of three rows


def test_the_cli_bars_take_the_events() -> None:
    """One adapter for every command: a bar per stage, total and position as the events say."""
    out = io.StringIO()
    with ProgressBars(quiet=False, file=out) as bars:
        bars(ProgressEvent("compile", 2000))
        bars(ProgressEvent("query", 1, 4, failed=1, cost=0.5))
        bars(ProgressEvent("query", 3, 4, failed=1, cost=0.5))
        assert (bars.bars["compile"].n, bars.bars["compile"].total) == (2000, None)
        assert (bars.bars["query"].n, bars.bars["query"].total, bars.bars["query"].desc) == (3, 4, "query")
        assert bars.bars["query"].postfix == "cost=0.5000, errors=1"
    assert "compile: 2000item" in out.getvalue() and "3/4" in out.getvalue() and "errors=1" in out.getvalue()
    with ProgressBars(quiet=True) as hidden:
        hidden(ProgressEvent("query", 1, 4))
    assert hidden.bars["query"].disable
