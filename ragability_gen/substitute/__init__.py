"""Stage 2 (``ragability-gen substitute``): make instances novel with fantasy entities and shifted dates.

- ``core``: instances in, verified instances and audit records out.
- ``entities``: which NER mentions count; ``words``: words that are never names, sentence and cell starts.
- ``kinds``: names NER misses (binomials, other scripts, events, codes, initialisms); ``places``: countries.
- ``mapping``: the part-by-part mapping, aliases and replacement; ``scan``: the independent leak scan.
- ``names``: invented names (Faker material, seeded), checked not to be real words or names.
- ``dates``: date expressions, the offset choice, rendering and reading back.
- ``rewrite``: applying a mapping to one text as edits, and the checks.
- ``nlp``: the spaCy model.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ragability_gen.convert.core import ConvertSummary, read_instances, write_corpus
from ragability_gen.core.fileio import beside, staged_outputs, write_records
from ragability_gen.core.progress import Progress
from ragability_gen.errors import InputError
from ragability_gen.llm.config import open_llms

from .core import SubstituteResult, SubstituteSummary, check_types, instance_seed, substitute_instances
from .edits import read_mapping
from .entities import ENTITY_TYPES
from .nlp import DEFAULT_MODELS, load_model

__all__ = ["DEFAULT_MODELS", "ENTITY_TYPES", "SubstituteResult", "SubstituteSummary", "check_types",
           "instance_seed", "load_model", "mapping_path_for", "read_mapping", "substitute_file", "substitute_instances"]


def mapping_path_for(output: str | Path) -> Path:
    """Where the audit file goes by default: beside OUTPUT, as ``<OUTPUT stem>.mapping.jsonl``."""
    return beside(output, ".mapping.jsonl")


def substitute_file(input_path: str | Path, output: str | Path, mapping: str | Path | None = None,
                    converter: str | Path | None = None, seed: int = 0, types: Iterable[str] = ENTITY_TYPES,
                    dates: bool = True, model: str | None = None,
                    on_progress: Progress | None = None, *, strict: bool = False,
                    mapping_in: str | Path | None = None, reviewer: str | None = None,
                    config: str | Path | None = None,
                    cache: str | Path | None = None, concurrency: int = 16, **settings: Any
                    ) -> tuple[ConvertSummary, SubstituteSummary, Path]:
    """Read any corpus, substitute every instance, write the corpus and the audit file together.

    OUTPUT ending in ``.jsonl`` gets canonical instances, any other suffix a table in INPUT's columns. The
    audit file (JSON Lines, one record per input instance) goes to ``mapping`` or beside OUTPUT.
    Either both files are written or neither.

    Args:
        strict: Leave out every instance the leak scan has suspects for.
        mapping_in: An (edited) audit file: the ids it lists get exactly its entities and date offsets.
        reviewer: A model (config alias or provider/model) that reviews every substituted instance.
        config, cache, concurrency, settings: How the reviewer is reached (as for ``generate``).

    Returns:
        The conversion summary, the substitution summary, and the audit file's path.
    """
    map_path = Path(mapping) if mapping else mapping_path_for(output)
    for other, what in ((output, "OUTPUT"), (input_path, "INPUT")):
        if map_path.resolve() == Path(other).resolve():
            raise InputError(f"{map_path}: the mapping file must not be the same file as {what}")
    check_types(types)
    edits = read_mapping(mapping_in) if mapping_in else None
    llm = open_llms([reviewer], config, cache=cache, concurrency=concurrency, **settings)[0] if reviewer else None
    with staged_outputs(output, map_path) as (out_tmp, map_tmp):  # first, so an unwritable path fails at once
        instances, conv = read_instances(input_path, converter)
        try:
            result = substitute_instances(instances, seed, types, dates, model, on_progress, strict=strict,
                                          mapping_in=edits, reviewer=llm)
        finally:
            if llm is not None and llm.cache is not None:
                llm.cache.close()
        write_corpus(result.instances, out_tmp)
        write_records(result.audit, map_tmp, "jsonl")
    return conv, result.summary, map_path
