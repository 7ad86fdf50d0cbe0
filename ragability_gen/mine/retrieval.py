"""For each fact, the related passages from other places in the collection.

BM25 comes from ``bm25s`` (sparse-matrix BM25, fast enough for a 1,000-passage collection in well
under a second). Embeddings are asked from any OpenAI-compatible ``/v1/embeddings`` endpoint through
the openai client, and passages ranked by cosine similarity. The fact's own passage is never
returned: a conflict needs two places.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ragability_gen.errors import LLMError

from .documents import Passage
from .facts import Fact


class BM25Retriever:
    """BM25 over the passages (English stop words removed, lower-cased word tokens, Snowball stems)."""

    name = "bm25"

    def __init__(self, passages: Sequence[Passage]):
        import bm25s
        import Stemmer

        self._bm25s = bm25s
        self.stemmer = Stemmer.Stemmer("english")
        self.passages = list(passages)
        self.index = {p.id: i for i, p in enumerate(self.passages)}
        self.retriever = bm25s.BM25()
        tokens = bm25s.tokenize([f"{p.heading}\n{p.text}" for p in self.passages], stopwords="en",
                                stemmer=self.stemmer, show_progress=False)
        self.retriever.index(tokens, show_progress=False)

    def related(self, facts: Sequence[Fact], k: int) -> list[list[tuple[Passage, float]]]:
        """Up to ``k`` passages per fact with a positive score, best first, without the fact's own passage."""
        if not facts or not self.passages:
            return [[] for _ in facts]
        want = min(k + 1, len(self.passages))
        queries = self._bm25s.tokenize([f.text for f in facts], stopwords="en", return_ids=False,
                                       stemmer=self.stemmer, show_progress=False)
        docs, scores = self.retriever.retrieve(queries, k=want, show_progress=False, n_threads=1)
        out = []
        for f, row, srow in zip(facts, docs, scores, strict=True):
            hits = [(self.passages[int(i)], float(s)) for i, s in zip(row, srow, strict=True)
                    if s > 0 and self.passages[int(i)].id != f.passage.id]
            out.append(hits[:k])
        return out


class EmbeddingRetriever:
    """Cosine similarity of embeddings from an OpenAI-compatible ``/v1/embeddings`` endpoint.

    Args:
        client: An ``openai.OpenAI`` client for the endpoint.
        model: The embedding model name the endpoint knows.
        batch: Texts per request.
    """

    name = "embeddings"

    def __init__(self, passages: Sequence[Passage], client: Any, model: str, batch: int = 64):
        import numpy as np

        self._np = np
        self.client, self.model, self.batch = client, model, batch
        self.passages = list(passages)
        self.matrix = self._embed([f"{p.heading}\n{p.text}" for p in self.passages])

    def _embed(self, texts: list[str]) -> Any:
        np = self._np
        rows: list[list[float]] = []
        for start in range(0, len(texts), self.batch):
            chunk = texts[start:start + self.batch]
            try:
                resp = self.client.embeddings.create(model=self.model, input=chunk)
            except Exception as e:  # the openai client's errors: connection, status, bad body
                raise LLMError(f"embeddings from {self.model}: {type(e).__name__}: {str(e)[:200]}") from None
            got = sorted(resp.data, key=lambda d: d.index)
            if len(got) != len(chunk):
                raise LLMError(f"embeddings from {self.model}: asked for {len(chunk)}, got {len(got)}")
            rows += [list(d.embedding) for d in got]
        m = np.array(rows, dtype=float).reshape(len(texts), -1) if rows else np.zeros((0, 1))
        norms = np.linalg.norm(m, axis=1, keepdims=True)
        return m / np.where(norms == 0, 1, norms)

    def related(self, facts: Sequence[Fact], k: int) -> list[list[tuple[Passage, float]]]:
        if not facts or not self.passages:
            return [[] for _ in facts]
        np = self._np
        sims = self._embed([f.text for f in facts]) @ self.matrix.T
        out = []
        for f, row in zip(facts, sims, strict=True):
            order = np.argsort(-row, kind="stable")
            hits = [(self.passages[int(i)], float(row[i])) for i in order[:k + 1]
                    if self.passages[int(i)].id != f.passage.id]
            out.append(hits[:k])
        return out
