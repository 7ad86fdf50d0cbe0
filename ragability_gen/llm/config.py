"""Which models a command uses: from ``--llm`` options, an hjson config file, or both.

Config files follow python-ragability's layout (``llms``: ``provider/model`` strings or objects with
``llm``, ``alias``, ``api_url``, ``api_key_env``, sampling settings and costs; ``providers``: defaults per
provider), so an existing experiment config works unchanged. Names given with ``--llm`` that match an
alias in the config use that entry; other names are built from the command-line settings.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ragability_gen.core import schemas
from ragability_gen.core.fileio import load_data
from ragability_gen.errors import LLMError, SpecError
from ragability_gen.llm.client import LLM, LLMSpec, ResponseCache, spec_for

_RENAMED = {"api_url": "base_url", "cost_per_output_token": "cost_per_completion_token"}


def _spec_from_entry(entry: str | dict[str, Any], providers: dict[str, dict[str, Any]], where: str) -> LLMSpec:
    settings = {"llm": entry} if isinstance(entry, str) else dict(entry)
    name = settings.pop("llm")
    provider = name.split("/", 1)[0] if "/" in name else ""
    merged = {**providers.get(provider, {}), **settings}
    alias = merged.pop("alias", name)
    kwargs = {_RENAMED.get(k, k): v for k, v in merged.items()}
    try:
        spec = spec_for(name, **kwargs)
    except LLMError as e:
        raise SpecError(f"{where}: {e.problems[0]}") from None
    return LLMSpec(**{**spec.__dict__, "alias": alias})


def load_llm_config(path: str | Path) -> list[LLMSpec]:
    """Read the models of a config file, validated against ``schemas/llm_config.schema.json``.

    Raises:
        SpecError: the file breaks the schema, or an entry has no endpoint or a duplicate alias.
    """
    data = load_data(path)
    problems = schemas.problems(data, "llm-config", str(path))
    if problems:
        raise SpecError(problems)
    providers = data.get("providers", {})
    specs = [_spec_from_entry(e, providers, f"{path}: llms/{i}") for i, e in enumerate(data["llms"])]
    _check_unique(specs, str(path))
    return specs


def _check_unique(specs: Sequence[LLMSpec], where: str) -> None:
    seen: set[str] = set()
    for s in specs:
        if s.alias in seen:
            raise SpecError(f"{where}: the model name {s.alias!r} is given twice (set a distinct alias)")
        seen.add(s.alias)


def resolve_llms(names: Sequence[str], config: str | Path | None = None, **settings: Any) -> list[LLMSpec]:
    """The models a command runs: every ``--llm`` name, else every model of the config file.

    A name that is an alias in the config takes that entry; other names are built with ``settings``
    (``base_url``, ``api_key_env``, ``temperature``, ``max_tokens``, ``seed``, ...), unset ones ignored.

    Raises:
        SpecError: no model given, or a bad config file.
        LLMError: a name has no endpoint.
    """
    configured = load_llm_config(config) if config else []
    if not names:
        if not configured:
            raise SpecError("no model given: use --llm MODEL or --config FILE")
        return configured
    by_alias = {s.alias: s for s in configured}
    specs = [by_alias.get(n) or spec_for(n, **{k: v for k, v in settings.items() if v is not None}) for n in names]
    _check_unique(specs, "--llm")
    return specs


def open_llms(names: Sequence[str], config: str | Path | None = None, *, cache: str | Path | None = None,
              concurrency: int = 16, **settings: Any) -> list[LLM]:
    """The models of ``resolve_llms``, ready to call, sharing one response cache file (None: no cache)."""
    specs = resolve_llms(names, config, **settings)
    store = ResponseCache(cache) if cache and specs else None
    return [LLM(spec, cache=store, concurrency=concurrency) for spec in specs]
