"""Stage: a folder of documents -> candidate conflicts for human review (CLAIRE-style).

Documents are cut into passages; atomic facts are taken from each passage (rules or a model); for
each fact the related passages from other places are retrieved (BM25, or embeddings); a verifier
(rules or a model) judges each fact against each retrieved passage; every "inconsistent" verdict at
or above ``min_score`` is a candidate. Candidates become canonical instances (context 1 the fact's
passage, context 2 the conflicting one, a drafted query, both answers, a reasoning type), sorted by
score, ready for review and then ``substitute``, ``generate`` and ``compile``.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ragability_gen.convert.core import write_corpus
from ragability_gen.core.fileio import beside, staged_outputs, write_records
from ragability_gen.core.model import Answer, Context, Instance, Provenance
from ragability_gen.core.progress import Progress, emit
from ragability_gen.errors import InputError, LLMSetupError
from ragability_gen.llm.client import LLM, LLMSpec, connected, spec_for
from ragability_gen.llm.config import open_llms

from .documents import DocumentProblem, Passage, read_collection
from .facts import Fact, llm_facts, rule_facts, sentences
from .retrieval import BM25Retriever, EmbeddingRetriever
from .review import write_review
from .verify import LLMVerifier, RulesVerifier, Verdict


@dataclass(frozen=True)
class Candidate:
    """A fact, a passage that contradicts it, and the verifier's verdict."""

    fact: Fact
    evidence: Passage
    verdict: Verdict
    retrieval_score: float

    @property
    def evidence_sentence(self) -> str:
        span = self.verdict.evidence_span
        return next((s for s in sentences(self.evidence.text) if span and span in s), span)


@dataclass
class MineSummary:
    """What mining read, skipped, asked and found."""

    documents: int = 0
    skipped: list[DocumentProblem] = field(default_factory=list)
    passages: int = 0
    facts: int = 0
    fact_failures: list[str] = field(default_factory=list)
    pairs: int = 0
    verdicts: Counter[str] = field(default_factory=Counter)
    unparseable: int = 0
    failed: int = 0
    candidates: int = 0
    below_score: int = 0
    duplicates: int = 0
    settings: str = ""
    usage: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = [f"read {self.documents} documents ({len(self.skipped)} skipped) into {self.passages} passages; "
               f"{self.facts} facts; {self.pairs} fact-passage pairs verified ({self.settings})"]
        out += [f"  {p.line()}" for p in self.skipped]
        out += [f"  {line}" for line in self.fact_failures[:20]]
        if len(self.fact_failures) > 20:
            out.append(f"  ... and {len(self.fact_failures) - 20} more passages without facts")
        if self.verdicts:
            out.append("  verdicts: " + ", ".join(f"{k} {v}" for k, v in sorted(self.verdicts.items())))
        if self.unparseable or self.failed:
            out.append(f"  no verdict: {self.unparseable} unparseable replies, {self.failed} failed requests")
        out.append(f"  candidates: {self.candidates} (dropped: {self.below_score} below the minimum score, "
                   f"{self.duplicates} repeats of the same conflict)")
        out += [f"  {u}" for u in self.usage]
        return out


@dataclass
class MineResult:
    """The candidates (best first), as instances in the same order, and the summary."""

    candidates: list[Candidate]
    instances: list[Instance]
    summary: MineSummary
    passages: list[Passage]


async def amine(inputs: Sequence[str | Path], *, verifier: str = "rules", facts: str = "rules",
                llm: LLM | None = None, retriever: str = "bm25", embeddings: tuple[Any, str] | None = None,
                top_k: int = 3, min_score: float = 50.0, max_words: int = 120,
                on_progress: Progress | None = None) -> MineResult:
    """Mine candidate conflicts from documents; see the module docstring.

    Args:
        inputs: Folders (searched recursively) and files.
        verifier: "rules" (offline) or "llm".
        facts: "rules" (sentences stating numbers or dates) or "llm" (atomic facts from the model).
        llm: The model for ``facts="llm"`` or ``verifier="llm"``.
        retriever: "bm25" or "embeddings".
        embeddings: (openai client, model name) for ``retriever="embeddings"``.
        top_k: Passages retrieved per fact.
        min_score: Inconsistent verdicts below this score are dropped (counted).
        on_progress: Gets a ``ProgressEvent`` per step: stage "facts" (passages done), then "verify" (pairs).

    Raises:
        InputError: when no document could be read, or a model is needed and none is given.
        LLMError: when the endpoint cannot be used at all.
    """
    if (verifier == "llm" or facts == "llm") and llm is None:
        raise InputError("the llm verifier and llm fact extraction need a model (--llm)")
    if retriever == "embeddings" and embeddings is None:
        raise InputError("the embeddings retriever needs an embedding model (--embedding-model)")
    summary = MineSummary(settings=f"facts {facts}, retrieval {retriever} top {top_k}, verifier {verifier}")
    passages, problems = read_collection(inputs, max_words)
    summary.skipped = problems
    summary.documents = len({p.file for p in passages}) + len(problems)
    summary.passages = len(passages)
    if not passages:
        raise InputError([p.line() for p in problems] + ["no passages: no readable document with text"])
    if facts == "llm":
        assert llm is not None
        done = 0

        def tick(n: int) -> None:
            nonlocal done
            done += n
            emit(on_progress, "facts", done, len(passages))

        fact_list, summary.fact_failures = await llm_facts(llm, passages, tick)
    else:
        fact_list = rule_facts(passages)
        emit(on_progress, "facts", len(passages), len(passages))
    summary.facts = len(fact_list)
    ranker = (EmbeddingRetriever(passages, *embeddings) if retriever == "embeddings" and embeddings
              else BM25Retriever(passages))
    related = ranker.related(fact_list, top_k)
    pairs = [(f, p, s) for f, hits in zip(fact_list, related, strict=True) for p, s in hits]
    summary.pairs = len(pairs)
    emit(on_progress, "verify", 0, len(pairs))
    verdicts: list[Verdict | None]
    if verifier == "llm":
        assert llm is not None
        judge = LLMVerifier(llm)
        done_v = 0

        async def one(f: Fact, p: Passage) -> Verdict | None:
            nonlocal done_v
            try:
                return await judge.averify(f, p)
            finally:
                done_v += 1
                emit(on_progress, "verify", done_v, len(pairs))

        verdicts = list(await asyncio.gather(*(one(f, p) for f, p, _ in pairs)))
        summary.unparseable, summary.failed = judge.unparseable, judge.failed
    else:
        rules = RulesVerifier(passages)
        verdicts = []
        for i, (f, p, _) in enumerate(pairs, 1):
            verdicts.append(rules.verify(f, p))
            if i % 200 == 0 or i == len(pairs):
                emit(on_progress, "verify", i, len(pairs))
    if llm is not None:
        summary.usage.append(llm.usage.line(llm.spec.alias))
    candidates = _candidates(pairs, verdicts, min_score, summary)
    return MineResult(candidates, to_instances(candidates), summary, passages)


def mine(inputs: Sequence[str | Path], **kwargs: Any) -> MineResult:
    """Synchronous :func:`amine`."""
    return asyncio.run(amine(inputs, **kwargs))


def _candidates(pairs: list[tuple[Fact, Passage, float]], verdicts: Sequence[Verdict | None], min_score: float,
                summary: MineSummary) -> list[Candidate]:
    best: dict[Any, Candidate] = {}
    for (f, p, s), v in zip(pairs, verdicts, strict=True):
        if v is None:
            continue
        summary.verdicts[v.verdict] += 1
        if v.verdict != "inconsistent":
            continue
        if v.score < min_score:
            summary.below_score += 1
            continue
        spans = frozenset({v.fact_span.strip().lower(), v.evidence_span.strip().lower()})
        key = (frozenset({f.passage.id, p.id}), spans)
        c = Candidate(f, p, v, s)
        if key in best:
            summary.duplicates += 1
            if v.score <= best[key].verdict.score:
                continue
        best[key] = c
    out = sorted(best.values(), key=lambda c: (-c.verdict.score, c.fact.passage.id, c.evidence.id, c.fact.id))
    summary.candidates = len(out)
    return out


def to_instances(candidates: Sequence[Candidate]) -> list[Instance]:
    """One instance per candidate, in the Ragability corpus's terms; provenance and verdict in the metadata."""
    out = []
    width = max(3, len(str(len(candidates))))
    for n, c in enumerate(candidates, 1):
        v = c.verdict
        query = _first(v.query, f"What do the documents say about this: \"{c.fact.text}\"?")
        evidence_long = _first(c.evidence_sentence, c.evidence.text)
        out.append(Instance(
            id=f"mine-{n:0{width}d}",
            query=query,
            contexts={"1": Context("1", c.fact.passage.text, annotation="qeu", answer="1"),
                      "2": Context("2", c.evidence.text, annotation="qeu", answer="2", contradicts=("1",))},
            answers={"1": Answer(_first(v.answer_fact, v.fact_span, c.fact.text), c.fact.text),
                     "2": Answer(_first(v.answer_evidence, v.evidence_span, evidence_long), evidence_long)},
            reasoning=(v.reasoning,),
            metadata={"score": f"{v.score:g}", "verdict": v.verdict, "explanation": v.explanation,
                      "fact": c.fact.text, "fact_span": v.fact_span, "evidence_span": v.evidence_span,
                      "fact_file": c.fact.passage.file, "fact_position": str(c.fact.passage.position),
                      "fact_heading": c.fact.passage.heading, "evidence_file": c.evidence.file,
                      "evidence_position": str(c.evidence.position), "evidence_heading": c.evidence.heading,
                      "retrieval_score": f"{c.retrieval_score:.3f}"},
            tags=("mined",),
            provenance=Provenance(c.fact.passage.file, c.fact.passage.position, "mine"),
        ))
    return out


def _first(*texts: str) -> str:
    """The first text that is not blank: a model's reply may leave a field empty, a corpus cell may not be."""
    return next((t.strip() for t in texts if t and t.strip()), texts[-1])


def mine_outputs(output: str | Path, review: str | Path | None = None,
                 details: str | Path | None = None) -> tuple[Path, Path, Path | None]:
    """The files ``write_mined`` writes: the corpus, the review page, and (for a TSV) the details file."""
    out = Path(output)
    rev = Path(review) if review else beside(out, ".review.html")
    det = None if out.suffix.lower() == ".jsonl" else (Path(details) if details else beside(out, ".mine.jsonl"))
    return out, rev, det


def write_mined(result: MineResult, output: str | Path, review: str | Path | None = None,
                details: str | Path | None = None) -> list[Path]:
    """Write the candidates: all files or none.

    A ``.jsonl`` output gets canonical instances with provenance and explanation in their metadata
    (lossless; every stage reads it). Any other output gets a TSV in the Ragability v0.4 columns
    (context_3/4 empty, to be generated) plus ``<stem>.mine.jsonl`` with each row's provenance,
    score and explanation. Both get ``<stem>.review.html``.
    """
    out, rev, det = mine_outputs(output, review, details)
    targets = [out, rev] + ([det] if det else [])
    with staged_outputs(*targets) as staged:
        # The TSV leaves provenance, score and explanation to the details file written beside it.
        write_corpus(result.instances, staged[0], drop_unmapped=det is not None)
        write_review(result, staged[1])
        if det:
            write_records(({"contradiction_ID": i.id, **i.metadata} for i in result.instances), staged[2], "jsonl")
    return targets


def embedding_client(spec: LLMSpec) -> Any:
    """An openai client for the ``/v1/embeddings`` endpoint of a model spec (same URL and key variable)."""
    import os

    import openai

    key = os.environ.get(spec.api_key_env) if spec.api_key_env else "no-key"
    if not key:
        raise LLMSetupError(f"{spec.alias}: the API key variable {spec.api_key_env} is not set in the environment")
    return openai.OpenAI(base_url=spec.base_url, api_key=key, timeout=spec.timeout, max_retries=spec.max_retries)


def mine_files(inputs: Sequence[str | Path], output: str | Path, *, llm: str | None = None,
               embedding_model: str | None = None, review: str | Path | None = None,
               details: str | Path | None = None, config: str | Path | None = None, cache: str | Path | None = None,
               concurrency: int = 16, mine_options: dict[str, Any] | None = None,
               on_progress: Progress | None = None, **settings: Any) -> tuple[MineResult, list[Path]]:
    """What the ``mine`` command does: open the model (if any), mine, write every output or none.

    Args:
        llm: A model name or config alias, for the llm verifier or llm facts.
        embedding_model: The embedding model for the embeddings retriever, at ``settings['base_url']``
            (or the --llm model's endpoint).
        mine_options: Keyword arguments of :func:`amine` (verifier, facts, retriever, top_k, ...).
        on_progress: Gets a ``ProgressEvent`` per step, as for :func:`amine`.
        **settings: Endpoint and sampling settings, as ``open_llms`` takes them.
    """
    opts = {**(mine_options or {}), **({"on_progress": on_progress} if on_progress else {})}
    opened = open_llms([llm], config, cache=cache, concurrency=concurrency, **settings) if llm else []
    if opts.get("retriever") == "embeddings":
        if not embedding_model:
            raise InputError("the embeddings retriever needs an embedding model (--embedding-model)")
        endpoint = {k: v for k, v in settings.items() if k in ("base_url", "api_key_env")}
        base = opened[0].spec if opened else spec_for(embedding_model, **endpoint)
        model = embedding_model if opened else base.model  # a provider/ prefix is not sent
        opts["embeddings"] = (embedding_client(base), model)

    async def run() -> MineResult:
        async with connected(opened):
            return await amine(inputs, llm=opened[0] if opened else None, **opts)

    try:
        result = asyncio.run(run())
    finally:
        for o in opened:
            if o.cache is not None:
                o.cache.close()
    return result, write_mined(result, output, review, details)
