"""A held-out corpus compiled into a ranking suite, answered by a scripted server with known rankings.

The scripted testee knows the corpus: for each request it finds the passages, decides a ranking or a
pair by a fixed policy (ideal, conflict first, reversed with repeats and ids out of range, a partial
list, an unreadable reply, ...) and writes it in one of the formats models use. The test records what
each reply means, then computes nDCG@1/5/10, the Top-k errors and pair accuracy itself, from the
corpus (not from the suite's recorded grades, and not with the library's metric code), and compares
them with what query -> check -> eval report.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import row, tsv_text

from ragability_gen.core.fileio import read_records
from ragability_gen.evaluate import evaluate_checked
from ragability_gen.llm.testing import ScriptedServer, user_text

N_ROWS = 10
GRADE = {"1": 2, "2": 0, "3": 2, "4": 1}  # context_4 is annotated qn in the v0.4 converter: background


def held_out_rows() -> list[dict[str, str]]:
    """Ten rows unlike the demo corpus; rows 8 and 9 have no context_3 (no majority), row 7 no context_4."""
    rows = []
    for i in range(N_ROWS):
        rows.append(row(
            contradiction_ID=str(500 + i), WikiContradict_ID="", c1xq="qeu", c2xq="qeu",
            context_1=f"The beacon of Korrin {i} burns with a green flame.",
            context_2=f"The beacon of Korrin {i} burns with a violet flame.",
            context_3_nc1_c2="" if i >= 8 else f"Sailors near Korrin {i} steer by the beacon's green light.",
            context_4_nc1_nc2_nc3="" if i == 7 else f"Korrin {i} is a harbour town with a stone pier.",
            query_text=f"What colour is the flame of the beacon of Korrin {i}?",
            answer_context1="green", answer_context1_long=f"The beacon of Korrin {i} burns green.",
            answer_context2="violet", answer_context2_long=f"The beacon of Korrin {i} burns violet."))
    return rows


ROWS = held_out_rows()
BY_QUERY = {r["query_text"]: r for r in ROWS}
COLUMN = {"1": "context_1", "2": "context_2", "3": "context_3_nc1_c2", "4": "context_4_nc1_nc2_nc3"}


def grades(query: str, passages: list[str]) -> list[int]:
    """Each passage's grade, from the corpus: its own row's contexts by column, any other text a distractor."""
    own = {BY_QUERY[query][col]: GRADE[c] for c, col in COLUMN.items() if BY_QUERY[query][col]}
    return [own.get(p, 0) for p in passages]


def conflict_ids(query: str, passages: list[str]) -> list[int]:
    return [n for n, p in enumerate(passages, 1) if p == BY_QUERY[query]["context_2"]]


def true_pairs(query: str, passages: list[str]) -> list[set[int]]:
    r = BY_QUERY[query]
    pos = {p: n for n, p in enumerate(passages, 1)}
    c2 = pos[r["context_2"]]
    return [{pos[r[col]], c2} for col in ("context_1", "context_3_nc1_c2") if r[col]]


def parse_request(body: dict[str, Any]) -> tuple[str, list[str]]:
    first_user = next(m["content"] for m in body["messages"] if m["role"] == "user")
    passages = re.findall(r"^\[\d+\] (.*)$", first_user, re.M)
    query = re.search(r"Search Query: (.*)", first_user).group(1)  # type: ignore[union-attr]
    return query, passages


class ScriptedReranker:
    """The scripted reranker: a policy per (query, prompt), remembered with what the reply means."""

    def __init__(self) -> None:
        self.meant: dict[tuple[str, str, tuple[str, ...]], Any] = {}  # (prompt kind, query, passages) -> ranking/pair

    def __call__(self, body: dict[str, Any]) -> str:
        query, passages = parse_request(body)
        text, kind = user_text(body), ""
        m = len(passages)
        row_no = int(re.search(r"Korrin (\d+)", query).group(1))  # type: ignore[union-attr]
        g, bad = grades(query, passages), conflict_ids(query, passages)
        if "Select up to one pair" in text or "Find the pair" in text:
            kind = "chain_detect" if body["messages"][0]["content"].startswith("You are a smart") else (
                "detect_hint" if "Find the pair" in text else "detect")
            pairs = sorted(sorted(p) for p in true_pairs(query, passages))
            style = (row_no + len(passages)) % 4
            if style == 0:  # right, bracketed
                meant: Any = tuple(pairs[0])
                reply = f"[{pairs[0][0]}] and [{pairs[0][1]}]"
            elif style == 1:  # right, named, reversed order
                meant = tuple(pairs[-1])
                reply = f"Passage {pairs[-1][1]} and passage {pairs[-1][0]}"
            elif style == 2:  # wrong pair
                wrong = [n for n in range(1, m + 1) if n not in bad][:2]
                meant, reply = tuple(wrong), f"[{wrong[0]}] and [{wrong[1]}]"
            else:  # says there is none
                meant, reply = None, "None"
            self.meant[(kind, query, tuple(passages))] = ("pair", meant)
            return reply
        if "Delete [2]" in text:  # chain turn 2: delete the conflicting passage, or a wrong one for odd rows
            return f"Delete [{bad[0]}]" if row_no % 2 == 0 else f"Delete [{1 if bad[0] != 1 else 2}]"
        kind = "chain_rank" if "you deleted" in text else ("rank_hint" if "conflicts with the others" in text
                                                              else "rank")
        style = (row_no + (kind == "rank_hint") + 2 * (kind == "chain_rank")) % 5
        ideal = sorted(range(1, m + 1), key=lambda n: (-g[n - 1], n))
        if style == 0:  # ideal, RankGPT format
            ranking = ideal
            reply = " > ".join(f"[{n}]" for n in ranking)
        elif style == 1:  # conflicting passage first, then the order given, as "Passage n"
            ranking = bad + [n for n in range(1, m + 1) if n not in bad]
            reply = "Ranking: " + ", ".join(f"Passage {n}" for n in ranking)
        elif style == 2:  # reversed, with a repeat and an id out of range (both dropped)
            ranking = list(range(m, 0, -1))
            reply = " > ".join(f"[{n}]" for n in [ranking[0], ranking[0], m + 3, *ranking[1:]])
        elif style == 3:  # three ids only, bare numbers; the rest ranked below, gaining nothing
            ranking = ideal[1:4]
            reply = " > ".join(str(n) for n in ranking)
        else:  # not a ranking at all: a check error, never a ranking
            ranking = None
            reply = "I am sorry, all of these passages look equally relevant to me."
        self.meant[(kind, query, tuple(passages))] = ("ranking", ranking)
        return reply


def ndcg_by_hand(ranking: list[int], g: list[int], k: int) -> float:
    def gain(values: list[int]) -> float:
        total = 0.0
        for rank, value in enumerate(values[:k], start=1):
            total += value / math.log2(rank + 1)
        return total
    return gain([g[n - 1] for n in ranking]) / gain(sorted(g, reverse=True))


@pytest.fixture
def checked(cli: Any, tmp_path: Path) -> tuple[Path, ScriptedReranker]:
    corpus = tmp_path / "heldout.tsv"
    corpus.write_text(tsv_text(ROWS))
    r = cli("convert", corpus, "--suite", "ranking", "-o", tmp_path / "heldout.jsonl")
    assert r.exit_code == 0, r.output
    assert "compiled 10 instances into 78 items" in r.output  # 8 rows x 9 variants, 2 rows without majority x 3
    testee = ScriptedReranker()
    with ScriptedServer(testee) as server:
        r = cli("query", tmp_path / "heldout.jsonl", "-o", tmp_path / "res.jsonl", "--llm", "local/rr",
                "--base-url", server.base_url)
        assert r.exit_code == 0, r.output
        chain_turns = [rq.body["messages"] for rq in server.requests if "you deleted" in user_text(rq.body)]
    # the chain's last turn carries the whole conversation: system, then user/assistant turns
    assert chain_turns and all([m["role"] for m in msgs] == ["system", "user", "assistant", "user", "assistant",
                                                            "user"] for msgs in chain_turns)
    r = cli("check", tmp_path / "res.jsonl", "-o", tmp_path / "checked.jsonl")
    assert r.exit_code == 0, r.output
    return tmp_path / "checked.jsonl", testee


def test_metrics_match_an_independent_computation(checked: tuple[Path, ScriptedReranker], cli: Any,
                                                  tmp_path: Path) -> None:
    path, testee = checked
    records = read_records(path)
    expected: dict[str, dict[str, list[float]]] = {}  # metric -> variant -> values
    errors: dict[str, int] = {}
    for rec in records:
        variant = rec["qid"].split("-")[1]
        kind = rec["turns"][-1] if rec.get("turns") else rec["pid"]
        what, meant = testee.meant[(kind, rec["query"], tuple(rec["facts"]))]
        if what == "pair":
            if rec.get("turns"):
                continue
            ok = (meant is None and not true_pairs(rec["query"], rec["facts"])) or (
                meant is not None and set(meant) in true_pairs(rec["query"], rec["facts"]))
            expected.setdefault("pair_detection", {}).setdefault(variant, []).append(float(ok))
            continue
        if meant is None:
            errors[variant] = errors.get(variant, 0) + 1
            continue
        g, bad = grades(rec["query"], rec["facts"]), conflict_ids(rec["query"], rec["facts"])
        for k in (1, 5, 10):
            expected.setdefault(f"ndcg_{k}", {}).setdefault(variant, []).append(ndcg_by_hand(meant, g, k))
            expected.setdefault(f"top{k}_error", {}).setdefault(variant, []).append(
                float(any(n in bad for n in meant[:k])))
    report = evaluate_checked(path)
    by_variant = report.table("rank_variant")
    assert by_variant is not None
    rows = {(r.group[0], r.metric): r for r in by_variant.rows}
    compared = 0
    for metric, per_variant in expected.items():
        for variant, values in per_variant.items():
            r = rows[(f"rank_variant_{variant}", metric)]
            assert r.n == len(values)
            assert r.value == pytest.approx(sum(values) / len(values), abs=1e-12)
            if metric.startswith(("top", "pair")):
                assert r.count == sum(values)
            if metric.startswith(("ndcg", "top")):
                assert r.check_errors == errors.get(variant, 0)
            compared += 1
    assert compared == 6 * 6 + 3  # six rank-like variants x six metrics, three detect variants
    overall = {r.metric: r for r in report.tables[0].rows}
    all_top10 = [v for vals in expected["top10_error"].values() for v in vals]
    assert overall["top10_error"].value == sum(all_top10) / len(all_top10)
    assert overall["ndcg_10"].check_errors == sum(errors.values()) > 0
    # the report lays the ranking metrics out per variant
    r = cli("eval", path, "-o", tmp_path / "report")
    assert r.exit_code == 0, r.output
    text = (tmp_path / "report" / "report.md").read_text()
    assert "## Passage ranking" in text and "| local/rr | rank_variant_chain |" in text
    assert (tmp_path / "report" / "charts" / "by_rank_variant_ndcg_10.svg").is_file()


def test_chain_items_keep_the_conversation(checked: tuple[Path, ScriptedReranker]) -> None:
    path, _ = checked
    chains = [rec for rec in read_records(path) if rec.get("turns")]
    assert len(chains) == 16
    for rec in chains:
        roles = [m["role"] for m in rec["transcript"]]
        assert roles == ["system", "user", "assistant", "user", "assistant", "user", "assistant"]
        assert rec["transcript"][-1]["content"] == rec["response"]
        assert rec["transcript"][4]["content"].startswith("Delete [")
