"""mine: documents -> passages -> facts -> retrieval -> verification -> candidate rows and a review page."""

from __future__ import annotations

import json
import re
import zlib
from pathlib import Path
from typing import Any

import pytest

from ragability_gen import read_instances
from ragability_gen.core.resources import data_dir
from ragability_gen.llm.client import LLM, ResponseCache, spec_for
from ragability_gen.llm.testing import Recorded, Reply, ScriptedServer
from ragability_gen.mine import mine, quantities, read_collection
from ragability_gen.mine.core import amine
from ragability_gen.mine.planted import read_planted, score_planted

ACME = data_dir("corpora") / "acme-docs"
PLANTED = data_dir("corpora") / "acme-docs-conflicts.jsonl"
NUMERIC_KINDS = ("numerical", "temporal")


def test_quantities_read_units_dates_and_skip_codes() -> None:
    found = [(q.unit, q.value, q.text) for q in quantities(
        "The X200 (IP68) weighs 12.5 kg, costs €1,200 and was launched on 14 March 2023, founded in 1998, "
        "with 45 euros per day, 6 percent, for 3 years, in January 2024, on 2024-03-05 and 4 °C.")]
    assert found == [("kg", 12.5, "12.5 kg"), ("euro", 1200.0, "€1,200"), ("date", (2023, 3, 14), "14 March 2023"),
                     ("calendar year", (1998,), "1998"), ("euro/day", 45.0, "45 euros per day"),
                     ("%", 6.0, "6 percent"), ("year", 3.0, "3 years"), ("month", (2024, 1), "January 2024"),
                     ("date", (2024, 3, 5), "2024-03-05"), ("°c", 4.0, "4 °C")]


def test_every_format_is_read_into_passages_with_provenance() -> None:
    passages, problems = read_collection([ACME])
    assert problems == []
    files = {p.file for p in passages}
    assert files == {"annual-report-summary.txt", "company-overview.md", "compliance-policy.docx", "expense-faq.html",
                     "security-handbook.pdf", "travel-policy.md", "x200-fact-sheet.md", "x200-maintenance-guide.txt",
                     "x200-user-manual.html"}
    by_id = {p.id: p for p in passages}
    assert by_id["security-handbook.pdf#1"].heading == "Reporting"
    assert by_id["security-handbook.pdf#1"].text.startswith("Security incidents must be reported to the compliance "
                                                            "office within 24 hours.")
    assert by_id["compliance-policy.docx#2"].heading == "Retention"
    assert by_id["expense-faq.html#1"].heading == "How much can I spend on meals?"
    assert by_id["x200-fact-sheet.md#2"].heading == "Technical data"
    assert by_id["x200-maintenance-guide.txt#1"].heading == "Service intervals"


def test_bad_documents_are_reported_by_file_and_skipped(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "good.md").write_text("# Pump\n\nThe pump weighs 12 kg.\n", encoding="utf-8")
    (docs / "latin1.txt").write_bytes("Gewicht: 12 kg für die Pumpe.".encode("latin-1"))
    (docs / "empty.md").write_text("   \n\n", encoding="utf-8")
    (docs / "broken.pdf").write_bytes(b"%PDF-1.4 this is not really a pdf")
    (docs / "broken.docx").write_bytes(zlib.compress(b"not a zip file"))
    (docs / "notes.json").write_text("{}", encoding="utf-8")  # inside a folder: passed over
    (tmp_path / "slides.pptx").write_bytes(b"x")
    passages, problems = read_collection([docs, tmp_path / "slides.pptx", tmp_path / "missing"])
    assert [p.id for p in passages] == ["good.md#1"]
    lines = [p.line() for p in problems]
    assert lines[0] == (f"{tmp_path / 'slides.pptx'}: skipped: unsupported format '.pptx' (readable: .docx, .htm, "
                        ".html, .markdown, .md, .pdf, .text, .txt)")
    assert lines[1] == f"{tmp_path / 'missing'}: skipped: no such file or folder"
    assert re.fullmatch(r"broken\.docx: skipped: not a readable docx file \(.*\)", lines[2])
    assert re.fullmatch(r"broken\.pdf: skipped: not a readable pdf file \(.*\)", lines[3])
    assert lines[4:] == ["empty.md: skipped: no text in the document",
                         "latin1.txt: skipped: not UTF-8 (byte 16: b'\\xfc'); save it as UTF-8"]


def test_rules_find_the_planted_numeric_conflicts_of_the_demo_collection() -> None:
    result = mine([ACME])
    planted = read_planted(PLANTED)
    numeric = score_planted(result.candidates, planted, NUMERIC_KINDS)
    assert numeric.planted == 10 and numeric.missed == ()
    every = score_planted(result.candidates, planted)
    assert every.missed == ("P03", "P07", "P08")  # categorical, named entity, spatial: beyond the rules
    assert every.false_candidates == 0 and every.precision == 1.0
    scores = [c.verdict.score for c in result.candidates]
    assert scores == sorted(scores, reverse=True)
    weight = next(i for i in result.instances if i.metadata["fact_span"] in ("12.5 kg", "14 kg"))
    assert weight.reasoning == ("numerical",) and weight.contexts["2"].contradicts == ("1",)
    assert {weight.answers["1"].short, weight.answers["2"].short} == {"12.5 kg", "14 kg"}
    assert weight.query.startswith("Fill in the blank according to the documents: \"The X200 weighs ___")
    founded = next(i for i in result.instances if i.metadata["fact_span"] in ("1998", "2001"))
    assert founded.reasoning == ("temporal.numerical",)


def test_mine_command_writes_corpus_details_and_review(cli: Any, tmp_path: Path) -> None:
    r = cli("mine", ACME, "-o", tmp_path / "cands.tsv")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0] == ("read 9 documents (0 skipped) into 29 passages; 41 facts; 123 fact-passage pairs verified "
                        "(facts rules, retrieval bm25 top 3, verifier rules)")
    assert lines[-1] == (f"wrote 10 candidates to {tmp_path / 'cands.tsv'}, {tmp_path / 'cands.review.html'}, "
                         f"{tmp_path / 'cands.mine.jsonl'}")
    instances, _ = read_instances(tmp_path / "cands.tsv")  # the corpus reads back: ready for substitute/generate
    assert len(instances) == 10 and instances[0].id == "mine-001"
    details = [json.loads(x) for x in (tmp_path / "cands.mine.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [d["contradiction_ID"] for d in details] == [i.id for i in instances]
    assert {"score", "explanation", "fact_file", "evidence_file", "fact_heading"} <= set(details[0])
    page = (tmp_path / "cands.review.html").read_text(encoding="utf-8")
    assert page.count("<section") == 10 and "<mark>12.5 kg</mark>" in page and "<mark>14 kg</mark>" in page
    r = cli("mine", ACME, "-o", tmp_path / "cands.jsonl", "-q")
    assert r.exit_code == 0 and r.output == ""
    back, _ = read_instances(tmp_path / "cands.jsonl")
    assert back[0].metadata["verdict"] == "inconsistent" and not (tmp_path / "cands.mine.jsonl.tmp").exists()


def test_review_escapes_document_text(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# A\n\nThe <b>pump</b> of Acme weighs 12 kg when dry.\n", encoding="utf-8")
    (tmp_path / "b.md").write_text("# B\n\nThe <b>pump</b> of Acme weighs 15 kg when dry.\n", encoding="utf-8")
    from ragability_gen.mine.review import review_html

    page = review_html(mine([tmp_path]))
    assert "<b>pump</b>" not in page and "&lt;b&gt;pump&lt;/b&gt;" in page and "<mark>15 kg</mark>" in page


def test_mine_command_errors(cli: Any, tmp_path: Path) -> None:
    (tmp_path / "empty.md").write_text("", encoding="utf-8")
    r = cli("mine", tmp_path / "empty.md", "-o", tmp_path / "c.tsv")
    assert r.exit_code == 1
    assert r.output.splitlines() == ["error: empty.md: skipped: no text in the document",
                                     "error: no passages: no readable document with text"]
    r = cli("mine", ACME, "-o", tmp_path / "c.tsv", "--verifier", "llm")
    assert r.exit_code == 1
    assert r.output.splitlines() == ["error: --verifier llm --facts llm needs a model: give --llm"]
    r = cli("mine", ACME, "-o", tmp_path / "c.tsv", "--retriever", "embeddings")
    assert r.exit_code == 1
    assert r.output.splitlines() == ["error: the embeddings retriever needs an embedding model (--embedding-model)"]
    assert not list(tmp_path.glob("c.*"))


def _model(body: dict[str, Any]) -> Reply | str:
    """Facts: every sentence of the passage. Verdicts: inconsistent when both texts name a CEO; one
    unparseable reply for the hotel sentence (also when asked again); consistent otherwise."""
    text = body["messages"][0]["content"]
    if "atomic facts" in text:
        passage = text.split("Passage:\n", 1)[1].rsplit("\n\nReply with", 1)[0]
        return json.dumps({"facts": [s for s in re.split(r"(?<=\.)\s+", passage) if s.strip()]})
    fact = re.search(r"\): (.*)\n", text)
    assert fact is not None
    if "Hotel costs" in fact.group(1):
        return "I cannot say."
    evidence = text.split("Evidence passage", 1)[1]
    if "chief executive officer" in fact.group(1) and "chief executive officer" in evidence:
        name = re.search(r"is (\w+ \w+)", fact.group(1))
        other = re.search(r"officer of Acme Garden Systems is (\w+ \w+)", evidence)
        assert name and other
        return json.dumps({"verdict": "inconsistent", "score": 90, "fact_span": name.group(1),
                           "evidence_span": other.group(1), "explanation": "Two different chief executives.",
                           "reasoning": "categorical", "question": "Who is the CEO of Acme Garden Systems?",
                           "answer_fact": name.group(1), "answer_evidence": other.group(1)})
    return json.dumps({"verdict": "consistent", "score": 5, "fact_span": "", "evidence_span": "", "explanation": "",
                       "reasoning": "categorical", "question": "", "answer_fact": "", "answer_evidence": ""})


def test_llm_verifier_finds_what_rules_cannot_counts_unparseable_and_resumes_from_cache(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for name in ("company-overview.md", "annual-report-summary.txt", "travel-policy.md"):
        (docs / name).write_bytes((ACME / name).read_bytes())
    cache = tmp_path / "cache.sqlite"
    with ScriptedServer(_model) as server:
        llm = LLM(spec_for("local/judge", base_url=server.base_url), cache=ResponseCache(cache), concurrency=4)
        import asyncio

        result = asyncio.run(amine([docs], verifier="llm", facts="llm", llm=llm))
        sent = len(server.requests)
        s = result.summary
        assert s.facts == 16 and s.pairs > 0 and s.unparseable >= 1 and s.failed == 0
        assert s.verdicts["consistent"] == s.pairs - s.unparseable - s.verdicts["inconsistent"]
        ceo = [i for i in result.instances if i.query == "Who is the CEO of Acme Garden Systems?"]
        assert len(ceo) == 1  # found from both sides, kept once
        assert {ceo[0].answers["1"].short, ceo[0].answers["2"].short} == {"Mara Ostrelle", "Tobin Vale"}
        assert ceo[0].reasoning == ("categorical",)
        assert ceo[0].metadata["explanation"] == "Two different chief executives."
        # a second run (say after an interruption) is answered from the cache
        llm2 = LLM(spec_for("local/judge", base_url=server.base_url), cache=ResponseCache(cache), concurrency=4)
        again = asyncio.run(amine([docs], verifier="llm", facts="llm", llm=llm2))
        assert [i.to_dict() for i in again.instances] == [i.to_dict() for i in result.instances]
        assert len(server.requests) == sent  # every reply, the rejected ones too, came from the cache
        assert again.summary.unparseable == s.unparseable
        assert any(x.strip().startswith("local/judge: ") for x in result.summary.lines())  # usage and cost


class EmbeddingServer(ScriptedServer):
    """The scripted server, also answering ``POST /v1/embeddings`` with ``embedder(text)`` per input."""

    def __init__(self, embedder: Any):
        super().__init__(lambda body: "unused")
        self.embedder = embedder

    def _handler_class(self) -> Any:
        base: Any = super()._handler_class()
        server = self

        class Handler(base):  # type: ignore[misc, valid-type]
            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                if not self.path.rstrip("/").endswith("/embeddings"):
                    super().do_POST()
                    return
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
                server.requests.append(Recorded(body, dict(self.headers.items()), 0.0))
                texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
                data = [{"object": "embedding", "index": i, "embedding": server.embedder(t)}
                        for i, t in enumerate(texts)]
                self._send(200, json.dumps({"object": "list", "data": data, "model": body.get("model", ""),
                                            "usage": {"prompt_tokens": 0, "total_tokens": 0}}))

        return Handler


def test_embeddings_retriever_ranks_by_the_endpoints_vectors(cli: Any, tmp_path: Path) -> None:
    def embed(text: str) -> list[float]:
        low = text.lower()
        return [float("meal" in low), float("hotel" in low), float("claim" in low), 0.1]

    docs = tmp_path / "docs"
    docs.mkdir()
    for name in ("travel-policy.md", "expense-faq.html"):
        (docs / name).write_bytes((ACME / name).read_bytes())
    with EmbeddingServer(embed) as server:
        r = cli("mine", docs, "-o", tmp_path / "c.tsv", "--retriever", "embeddings", "--embedding-model", "emb",
                "--base-url", server.base_url, "--top-k", "1")
        assert r.exit_code == 0, r.output
        assert all(rq.body["model"] == "emb" for rq in server.requests)
    instances, _ = read_instances(tmp_path / "c.tsv")
    spans = sorted(tuple(sorted((i.answers["1"].short, i.answers["2"].short))) for i in instances)
    assert spans == [("30 days", "60 days"), ("40 euros per day", "45 euros per day")]


@pytest.mark.parametrize("n", [200])
def test_benchmark_tiny_mode_runs(n: int, tmp_path: Path) -> None:
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_mine.py"
    spec = importlib.util.spec_from_file_location("bench_mine", path)
    assert spec and spec.loader
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    report = bench.run(n, tmp_path)
    assert report["passages"] >= n and report["planted"] > 0
    assert report["recall"] == 1.0 and report["precision"] == 1.0
    demo = bench.demo()
    assert (demo["recall_numerical"], demo["recall_temporal"], demo["precision"]) == ("7/7", "3/3", 1.0)


def test_empty_fields_of_a_model_verdict_still_make_readable_rows(tmp_path: Path) -> None:
    """A model may leave spans, question and answers blank; the corpus cells fall back to the texts."""
    import asyncio

    from ragability_gen.mine import write_mined

    blank = json.dumps({"verdict": "inconsistent", "score": 80, "fact_span": "", "evidence_span": " ",
                        "explanation": "", "reasoning": "categorical", "question": "", "answer_fact": "",
                        "answer_evidence": ""})
    with ScriptedServer(lambda body: blank) as server:
        llm = LLM(spec_for("local/j", base_url=server.base_url), cache=None)
        result = asyncio.run(amine([ACME / "travel-policy.md", ACME / "expense-faq.html"], verifier="llm", llm=llm))
    assert result.candidates
    write_mined(result, tmp_path / "c.tsv")
    back, _ = read_instances(tmp_path / "c.tsv")
    assert len(back) == len(result.candidates)
    assert all(i.answers["2"].long.strip() and i.query.startswith("What do the documents say") for i in back)
