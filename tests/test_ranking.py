"""Passage-ranking suites: reading rankings and pairs, roles from relations, compiling, multi-turn items."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from conftest import edited_suite_spec, row, tsv_text

from ragability_gen import Instance, compile_suite, read_instances, read_records
from ragability_gen.checkfuncs import CHECKS, CheckParseError
from ragability_gen.checkfuncs.ranking import parse_pair, parse_ranking
from ragability_gen.compile.ranking import RankingSuite, context_roles
from ragability_gen.core.model import Answer, Context
from ragability_gen.core.resources import data_dir
from ragability_gen.core.specs import load_suite_spec
from ragability_gen.errors import SpecError
from ragability_gen.llm.client import LLM, spec_for
from ragability_gen.llm.testing import Reply, ScriptedServer, user_text
from ragability_gen.run.checking import apply_check
from ragability_gen.run.turns import converse

WC_SAMPLE = Path(__file__).parent / "data" / "wikicontradict" / "rag_qa_sample.csv"


@pytest.mark.parametrize(("reply", "ranking"), [
    ("[2] > [1] > [3]", [2, 1, 3]),
    ("[2]>[1]>[3]", [2, 1, 3]),
    ("[ 2 ] > [1]", [2, 1]),
    ("Ranking: [3], [1], [2]", [3, 1, 2]),
    ("Passage 3, Passage 1, passage 2", [3, 1, 2]),
    ("1. Paragraph 2\n2. Paragraph 4", [2, 4]),
    ("2 > 1 > 3", [2, 1, 3]),
    ("2, 1, 3.", [2, 1, 3]),
    ("**[4] > [4] > [1]**", [4, 1]),            # a repeat counts at its first place
    ("[9] > [2] > [0] > [1]", [2, 1]),          # out of range (m = 5) dropped
    ("Here are the 5 passages ranked: [5] > [1]", [5, 1]),  # "5 passages" is not an id
    ("[Passage 2] > [Passage 1]", [2, 1]),
    ("Passages 3, 1 and 2 are relevant, then passage 5.", [3, 1, 2, 5]),
])
def test_rankings_are_read(reply: str, ranking: list[int]) -> None:
    assert parse_ranking(reply, 5) == ranking


@pytest.mark.parametrize(("reply", "why"), [
    ("I cannot rank these passages.", "expected a ranking of passages [1]..[5], got 'I cannot rank these passages.'"),
    ("None", "expected a ranking of passages [1]..[5], got 'None'"),
    ("[7] > [8]", "expected a ranking of passages [1]..[5], got '[7] > [8]'"),
    ("", "expected a ranking of passages [1]..[5], got ''"),
    ("The 3 best are the first ones.", "expected a ranking of passages [1]..[5], got 'The 3 best are the first ones.'"),
])
def test_unreadable_rankings_are_errors(reply: str, why: str) -> None:
    with pytest.raises(CheckParseError) as e:
        parse_ranking(reply, 5)
    assert str(e.value) == why


@pytest.mark.parametrize(("reply", "pair"), [
    ("[1] and [4]", (1, 4)),
    ("[4] and [1].", (4, 1)),
    ("Passage 2 and passage 5", (2, 5)),
    ("Passages 2 and 5 conflict.", (2, 5)),
    ("2 and 3", (2, 3)),
    ("[3], [3] and [5]", (3, 5)),
    ("None", None),
    ("none.", None),
    ("There is no conflict.", None),
])
def test_pairs_are_read(reply: str, pair: tuple[int, int] | None) -> None:
    assert parse_pair(reply, 5) == pair


@pytest.mark.parametrize(("reply", "why"), [
    ("[1]", "expected one pair of passages in [1]..[5] or None, got 1 passage ids in '[1]'"),
    ("[1], [2] and [3]", "expected one pair of passages in [1]..[5] or None, got 3 passage ids in '[1], [2] and [3]'"),
    ("I am not sure.", "expected one pair of passages in [1]..[5] or None, got no passage id in 'I am not sure.'"),
    ("[1] and [9]", "expected one pair of passages in [1]..[5] or None, got 1 passage ids in '[1] and [9]'"),
    ("None, but maybe [1] and [2]", "the reply names passages and also says none: 'None, but maybe [1] and [2]'"),
])
def test_unreadable_pairs_are_errors(reply: str, why: str) -> None:
    with pytest.raises(CheckParseError) as e:
        parse_pair(reply, 5)
    assert str(e.value) == why


def test_check_functions_score_and_report_errors() -> None:
    grades = [0, 2, 1, 0]
    check = {"func": "rank_ndcg", "args": [grades, 2]}
    # [2] > [3]: ideal, 1.0; [3] > [2]: (1 + 2/log2 3) / (2 + 1/log2 3)
    assert apply_check(check, "[2] > [3]") == (1.0, "")
    log2_3 = 1.584962500721156
    assert apply_check(check, "[3] > [2]")[0] == pytest.approx((1 + 2 / log2_3) / (2 + 1 / log2_3))
    assert apply_check(check, "[1] > [4]") == (0.0, "")
    assert apply_check(check, "no idea") == (
        None, "rank_ndcg: cannot read the reply: expected a ranking of passages [1]..[4], got 'no idea'")
    top = {"func": "rank_top_error", "args": [[1], 4, 2]}
    assert [apply_check(top, r)[0] for r in ("[2] > [1]", "[2] > [3] > [1]", "[1]", "[3]")] == ["1", "0", "1", "0"]
    pair = {"func": "pair_detected", "args": [[[1, 2], [2, 3]], 4]}
    assert [apply_check(pair, r)[0] for r in ("[2] and [1]", "[3] and [2]", "[1] and [3]", "None")] == [
        "1", "1", "0", "0"]
    assert apply_check({"func": "pair_detected", "args": [[], 4]}, "None")[0] == "1"


@pytest.mark.parametrize(("func", "args", "problem"), [
    ("rank_ndcg", [[2, 0], 5], None),
    ("rank_ndcg", ["{relevance}", 5], "rank_ndcg: argument 1 must be a non-empty list of relevance grades >= 0, "
                                      "got '{relevance}'"),
    ("rank_ndcg", [[2, -1], 5], "rank_ndcg: argument 1 must be a non-empty list of relevance grades >= 0, got [2, -1]"),
    ("rank_ndcg", [[2], 0], "rank_ndcg: argument 2 must be a cut-off k >= 1, got 0"),
    ("rank_top_error", [[3], 2, 1], "rank_top_error: argument 1 must be a non-empty list of passage ids in 1..2, "
                                    "got [3]"),
    ("pair_detected", [[[1, 1]], 3], "pair_detected: argument 1 must be a list of pairs of distinct passage ids "
                                     "in 1..3, got [[1, 1]]"),
    ("pair_detected", [[], 3], None),
])
def test_check_arguments_are_validated(func: str, args: list[Any], problem: str | None) -> None:
    assert CHECKS[func].args_problem(args) == problem


def instance(*contexts: Context) -> Instance:
    return Instance("x", "q?", {c.id: c for c in contexts}, {"1": Answer("a", "A"), "2": Answer("b", "B")})


def test_roles_follow_the_declared_relations() -> None:
    ragability = instance(Context("1", "c1", "qeu", "1"), Context("2", "c2", "qeu", "2", contradicts=("1",)),
                          Context("3", "c3", None, "1", agrees=("1",), contradicts=("2",)),
                          Context("4", "c4", "qn"))
    r = context_roles(ragability, ["1", "2", "3", "4"])
    assert (r.roles, r.majority, r.pair) == (
        {"1": "answer", "2": "conflicting", "3": "answer", "4": "background"}, True, ("2", "1"))
    assert r.pairs == [("1", "2"), ("2", "3")]
    # a majority context annotated qn does not answer the query: background, still on the majority side
    qn = instance(Context("1", "c1", "qn", "1"), Context("2", "c2", "qeu", "2", contradicts=("1",)),
                  Context("3", "c3", None, "1", agrees=("1",), contradicts=("2",)))
    assert context_roles(qn, ["1", "2", "3"]).roles == {"1": "background", "2": "conflicting", "3": "answer"}
    # two contexts that contradict each other: no majority, no right ranking
    pair = instance(Context("1", "c1", None, "1"), Context("2", "c2", None, "2", contradicts=("1",)))
    r = context_roles(pair, ["1", "2"])
    assert (r.majority, r.pairs, r.pair) == (False, [("1", "2")], ("1", "2"))
    # nothing conflicts
    calm = instance(Context("1", "c1", None, "1"), Context("4", "c4", "qn"))
    r = context_roles(calm, ["1", "4"])
    assert (r.roles, r.majority, r.pairs) == ({"1": "answer", "4": "background"}, False, [])


def compiled(tmp_path: Path, source: Path, suite: str | Path = "ranking", converter: str | None = None,
             name: str = "suite.jsonl") -> tuple[list[dict[str, Any]], Any]:
    instances, _ = read_instances(source, converter)
    summary, _ = compile_suite(instances, tmp_path / name, suite)
    return read_records(tmp_path / name), summary


def test_demo_corpus_compiles_into_a_reproducible_ranking_suite(demo_tsv: Path, tmp_path: Path) -> None:
    items, summary = compiled(tmp_path, demo_tsv)
    again, _ = compiled(tmp_path, demo_tsv, name="again.jsonl")
    assert items == again
    assert (summary.items, dict(summary.outcomes)) == (204, {"rank": 132, "detect_pair": 72})
    assert summary.lines()[-1] == ("  skipped 12 items (no majority (detect variants only)): variants chain, "
                                   "chain_adj, rank, rank_adj, rankh, rankh_adj")
    for it in items:
        r, m = it["ranking"], len(it["facts"])
        assert m == len(r["passages"]) == len(r["relevance"]) == len({*it["facts"]})
        assert sum(p.startswith("distractor:") for p in r["passages"]) == 6
        own = [p for p in r["passages"] if p.startswith("ctx")]
        assert all(not p.startswith(f"distractor:{it['qid'].split('-')[0]}:") for p in r["passages"])
        assert [r["relevance"][n - 1] for n in r["conflicting"]] == [0] * len(r["conflicting"])
        if "task_detect" not in it["tags"]:
            assert r["conflicting"] == [r["passages"].index("ctx2") + 1] and len(own) in (3, 4)
            first, second = r["passages"].index("ctx2"), r["passages"].index("ctx1")
            gap = abs(first - second)
            assert gap == 1 if "layout_adjacent" in it["tags"] else gap >= m // 2
        checks = {c["cid"]: c for c in it["checks"]}
        if "expect_ranking" in it["tags"]:
            assert checks["ndcg_5"]["args"] == [r["relevance"], 5]
            assert checks["top10_error"]["args"] == [r["conflicting"], m, 10]
        else:
            assert checks["pair_detected"]["args"] == [r["pairs"], m] and r["pairs"]
    chains = [it for it in items if "task_chain" in it["tags"]]
    assert chains and all(it["turns"] == ["chain_detect", "chain_select", "chain_rank"] and it["pids"] == ["chain"]
                          for it in chains)
    # the shuffles differ between variants of one instance and the seed changes them
    firsts = [it for it in items if it["qid"].startswith("1-")]
    assert len({tuple(it["facts"]) for it in firsts}) == len(firsts)
    spec = edited_suite_spec(tmp_path, lambda t: t.replace("seed: 16", "seed: 17"), "ranking")
    reseeded, _ = compiled(tmp_path, demo_tsv, spec, name="reseeded.jsonl")
    assert [it["qid"] for it in reseeded] == [it["qid"] for it in items]
    assert sum(a["facts"] != b["facts"] for a, b in zip(items, reseeded, strict=True)) > 150


def test_distractors_and_grades_are_configurable(demo_tsv: Path, tmp_path: Path) -> None:
    spec = edited_suite_spec(tmp_path, lambda t: t.replace("distractors: 6", "distractors: 2").replace(
        "relevance: {answer: 2, background: 1,", "relevance: {answer: 3, background: 1,"), "ranking")
    items, _ = compiled(tmp_path, demo_tsv, spec)
    full = [it for it in items if "ctx4" in it["ranking"]["passages"] and "ctx3" in it["ranking"]["passages"]]
    assert full and all(len(it["facts"]) == 6 for it in full)
    for it in full:
        # context_3 takes context_1's annotation; annotated qn, the majority side is background
        majority = 1 if it["c1xq"] == "qn" else 3
        grade = {"ctx1": majority, "ctx3": majority, "ctx2": 0, "ctx4": 1}
        assert it["ranking"]["relevance"] == [grade.get(p, 0) for p in it["ranking"]["passages"]]
    assert Counter(it["c1xq"] == "qn" for it in full) == Counter({False: 171, True: 27})
    # candidates (m) instead of distractors: the distractors fill each item up to m, per variant too
    spec = edited_suite_spec(tmp_path, lambda t: t.replace("distractors: 6", "candidates: 8").replace(
        '{name: "detecth", task: "detect",', '{name: "detecth", candidates: 5, task: "detect",'), "ranking")
    items, _ = compiled(tmp_path, demo_tsv, spec, name="m.jsonl")
    assert Counter(len(it["facts"]) for it in items if "detecth" not in it["qid"]) == Counter({8: 180})
    assert Counter(len(it["facts"]) for it in items if "detecth" in it["qid"]) == Counter({5: 24})
    assert all(sum(p.startswith("ctx") for p in it["ranking"]["passages"]) in (2, 4) for it in items)


def test_too_few_instances_for_the_distractors(cli: Any, tmp_path: Path) -> None:
    (tmp_path / "few.tsv").write_text(tsv_text([row(contradiction_ID=str(i)) for i in range(3)]))
    r = cli("convert", "few.tsv", "--suite", "ranking", "-o", "few.jsonl")
    spec = data_dir("checks") / "ranking.hjson"
    assert (r.exit_code, r.output) == (1, f"error: {spec}: variant rank: 6 distractors need at least 7 "
                                          "contradiction ids in the input, it has 3\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["few.tsv"]


def test_spec_references_are_checked(tmp_path: Path) -> None:
    spec = edited_suite_spec(tmp_path, lambda t: t.replace('pids: ["detect_hint"]', 'pids: ["detect_hnt"]').replace(
        'func: "pair_detected", args: ["{pairs}", "{m}"], metrics: ["pair_detection"]}\n      ]\n    }\n    '
        'detect_none', 'func: "pair_detected", args: ["{pairs}"], metrics: ["pair_detection"]}\n      ]\n    }\n'
        '    detect_none').replace('turns: ["chain_detect", "chain_select", "chain_rank"]}\n    {name: "chain_adj"',
                                  'turns: ["chain_detect", "chain_pick"]}\n    {name: "chain_adj"'), "ranking")
    with pytest.raises(SpecError) as e:
        RankingSuite(load_suite_spec(spec))
    assert e.value.problems == [
        f"{spec}: variant detecth: field pids: no prompt 'detect_hnt' in ranking-prompts.hjson",
        f"{spec}: variant chain: field turns: no prompt 'chain_pick' in ranking-prompts.hjson",
        f"{spec}: outcome detect_pair, check pair_detected: field args: pair_detected takes 2 argument(s)",
    ]


def test_a_bad_qid_template_is_a_spec_error(cli: Any, demo_tsv: Path, tmp_path: Path) -> None:
    spec = edited_suite_spec(tmp_path, lambda t: t.replace('qid: "{id}-', 'qid: "{ident}-'), "ranking")
    r = cli("convert", demo_tsv, "--suite", spec, "-o", "x.jsonl")
    assert (r.exit_code, r.output) == (1, f"error: {spec}: field qid: '{{ident}}-{{variant}}-var{{variation:02d}}': "
                                          "use the fields {id}, {variant} and {variation} only (KeyError: 'ident')\n")
    assert not (tmp_path / "x.jsonl").exists()


def test_wikicontradict_and_instances_input(tmp_path: Path, demo_tsv: Path) -> None:
    # WikiContradict: two passages that contradict each other, no majority: detect items only
    items, summary = compiled(tmp_path, WC_SAMPLE)
    assert summary.outcomes == Counter({"detect_pair": 60}) and summary.items == 60
    assert all(it["ranking"]["pairs"] == [sorted([it["ranking"]["passages"].index("ctx1") + 1,
                                                  it["ranking"]["passages"].index("ctx2") + 1])] for it in items)
    # instances JSONL: the same suite as from the TSV it was written from
    instances, _ = read_instances(demo_tsv)
    (tmp_path / "demo.jsonl").write_text("".join(json.dumps(i.to_dict()) + "\n" for i in instances))
    from_jsonl, _ = compiled(tmp_path, tmp_path / "demo.jsonl", name="from_jsonl.jsonl")
    from_tsv, _ = compiled(tmp_path, demo_tsv, name="from_tsv.jsonl")
    assert from_jsonl == from_tsv


def test_a_conversation_keeps_earlier_replies_and_stops_at_a_failed_turn() -> None:
    def respond(body: dict[str, Any]) -> Reply | str:
        text = user_text(body)
        if text == "fail":
            return Reply(status=400, body='{"error": {"message": "bad turn"}}')
        return f"reply {len(body['messages'])}: {text}"

    turn1 = [{"role": "system", "content": "sys"}, {"role": "user", "content": "one"}]
    turn2 = [{"role": "system", "content": "sys"}, {"role": "user", "content": "two"}]

    async def run(server: ScriptedServer, turns: list[list[dict[str, str]]]) -> Any:
        llm = LLM(spec_for("local/t", base_url=server.base_url))
        try:
            return await converse(llm, turns)
        finally:
            await llm.aclose()

    with ScriptedServer(respond) as server:
        talk = asyncio.run(run(server, [turn1, turn2]))
        assert (talk.response, talk.error) == ("reply 4: two", "")
        assert talk.transcript == [*turn1, {"role": "assistant", "content": "reply 2: one"},
                                   {"role": "user", "content": "two"}, {"role": "assistant", "content": "reply 4: two"}]
        assert server.requests[-1].body["messages"] == talk.transcript[:-1]
        failed = asyncio.run(run(server, [turn1, [{"role": "user", "content": "fail"}], turn2]))
    assert failed.response == ""
    assert failed.error.startswith("turn 2 of 3: ")
    assert [m["content"] for m in failed.transcript] == ["sys", "one", "reply 2: one", "fail"]
