"""Substitution on every core: the instance groups split into chunks, each chunk substituted in a worker.

Every instance group (the instances sharing an id) is substituted on its own: its seed comes from the
id, and NER gives the same entities for a text whatever batch it is in. So a chunk of groups can be
substituted in another process and the results put back in input order, giving the same files as one
process does. Workers are forked after the spaCy model and the word lists are loaded, so they share
them instead of loading them again, and they send back only the finished instances and audit records.

Only plain runs go to workers: a reviewer (one event loop, one cache) and an edited mapping (its
errors name entries across the whole input) keep substitution in one process.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import fields
from typing import Any

from ragability_gen.core.model import Instance
from ragability_gen.core.progress import Progress, emit

from .core import SubstituteResult, SubstituteSummary, _faker, substitute_instances, text_fields
from .names import _known_names, _models, _surnames, zipf_en
from .places import city_names, countries, language_names, place_names, town_names
from .words import never_name

MIN_TEXTS = 2000
"""Fewer distinct texts than this are substituted in one process: forking would cost more than it saves."""
CHUNK_TEXTS = 1000
"""About this many distinct texts per chunk: small enough for even load and progress, large enough for batching
(NER in batches of 256; the tags a chunk's groups ask for come in batches only as large as the chunk allows)."""
MAX_WORKERS = 2
"""Each worker needs its own working memory for the model (about 250 MB), so two keep a run well under 1 GB."""

_JOB: dict[str, Any] = {}
"""What the forked workers read: set in the parent just before the fork, never sent through a pipe."""


def workers_for(texts: int, workers: int | None) -> int:
    """How many processes to use for ``texts`` distinct texts: ``workers`` if given, else up to MAX_WORKERS
    of the cores this process may run on (one when the texts are few or fork is unavailable)."""
    if workers is not None:
        return max(1, workers)
    if texts < MIN_TEXTS or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    return max(1, min(MAX_WORKERS, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                      else os.cpu_count() or 1))


def chunks(groups: Sequence[list[int]], sizes: Sequence[int], parts: int) -> list[list[int]]:
    """Instance indices per chunk: whole groups, in input order, about CHUNK_TEXTS texts each (at least
    ``parts`` chunks when there are that many groups)."""
    total = sum(sizes)
    target = max(1, min(CHUNK_TEXTS, total // max(1, parts)))
    out: list[list[int]] = [[]]
    filled = 0
    for idxs, size in zip(groups, sizes, strict=True):
        if filled >= target:
            out.append([])
            filled = 0
        out[-1] += idxs
        filled += size
    return [sorted(c) for c in out if c]


def _warm() -> None:
    """Load what every group needs (word lists, name models, Faker, the country and language data) once, before the
    fork."""
    _faker(), _models(), _known_names(), _surnames(), zipf_en("the"), never_name("the")
    countries(), place_names(), city_names(), town_names(), language_names()


def _run_chunk(idxs: list[int]) -> tuple[list[int], SubstituteResult]:
    instances: Sequence[Instance] = _JOB["instances"]
    return idxs, substitute_instances([instances[i] for i in idxs], workers=1, **_JOB["options"])


def substitute_parallel(instances: Sequence[Instance], workers: int,
                        on_progress: Progress | None, **options: Any) -> SubstituteResult:
    """``substitute_instances`` over chunks of whole groups in ``workers`` forked processes, merged in input order.

    Args:
        on_progress: Gets events of stage "substitute": distinct texts of the finished chunks, of all texts.
        options: ``substitute_instances`` keyword arguments (seed, types, dates, model, strict).
    """
    groups: dict[str, list[int]] = {}
    for i, inst in enumerate(instances):
        groups.setdefault(inst.id, []).append(i)
    sizes = [len({t for i in idxs for _, t in text_fields(instances[i])}) for idxs in groups.values()]
    parts = chunks(list(groups.values()), sizes, workers)
    texts = [len({t for i in idxs for _, t in text_fields(instances[i])}) for idxs in parts]
    audit: list[dict[str, Any] | None] = [None] * len(instances)
    kept: list[Instance | None] = [None] * len(instances)
    summaries = []
    for idxs, result in _run_chunks(instances, parts, texts, workers, on_progress, options):
        summaries.append(result.summary)
        done = iter(result.instances)
        for i, rec in zip(idxs, result.audit, strict=True):
            audit[i] = rec
            if rec["status"] != "excluded":
                kept[i] = next(done)
    return SubstituteResult([k for k in kept if k is not None], [a for a in audit if a is not None],
                            _merge(summaries))


def _merge(summaries: list[SubstituteSummary]) -> SubstituteSummary:
    """One summary of the chunks': counts added, the model's name kept."""
    out = SubstituteSummary(model=summaries[0].model)
    for s in summaries:
        for f in fields(s):
            value = getattr(s, f.name)
            if isinstance(value, (int, Counter)):
                setattr(out, f.name, getattr(out, f.name) + value)
    return out


def _run_chunks(instances: Sequence[Instance], parts: list[list[int]], texts: list[int], workers: int,
                on_progress: Progress | None, options: dict[str, Any]
                ) -> list[tuple[list[int], SubstituteResult]]:
    _warm()
    _JOB.update(instances=instances, options=options)
    gc.freeze()  # the workers' collector leaves the parent's objects alone: their pages stay shared, not copied
    out = []
    done, total = 0, sum(texts)
    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            for n, result in zip(texts, pool.imap(_run_chunk, parts), strict=True):
                out.append(result)
                done += n
                emit(on_progress, "substitute", done, total)
    finally:
        gc.unfreeze()
        _JOB.clear()
    return out
