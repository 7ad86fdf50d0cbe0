"""Which models a command uses: from ``--llm`` options, a config file, or both.

Config files follow python-ragability's layout (``llms``: ``provider/model`` strings or objects with
``llm``, ``alias``, ``api_url``, ``api_key_env``, sampling settings and costs; ``providers``: defaults per
provider; ``prompts``: prompts given in the config), in hjson, JSON or YAML as python-ragability reads
them, so an existing experiment config works unchanged. Settings that llms_wrapper documents and this
tool has no use for are accepted with a warning (:class:`ConfigWarning`) saying they have no effect.
Names given with ``--llm`` that match an alias in the config use that entry; other names are built from
the command-line settings.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from ragability_gen.core import schemas
from ragability_gen.core.fileio import load_data, read_text
from ragability_gen.errors import InputError, LLMError, SpecError
from ragability_gen.llm.client import LLM, LLMSpec, ResponseCache, spec_for

_RENAMED = {"api_url": "base_url", "api_base": "base_url", "cost_per_output_token": "cost_per_completion_token",
            "max_output_tokens": "max_tokens"}
#: llms_wrapper settings this tool accepts but does not use, and why.
_NO_EFFECT = {
    "max_input_tokens": "prompts are sent whole; an endpoint that finds one too long answers with an error",
    "via_streaming": "replies are read whole, not streamed",
    "user_env": "this tool sends no user name (only an API key, from api_key_env)",
    "password_env": "this tool sends no password (only an API key, from api_key_env)",
}


class ConfigWarning(UserWarning):
    """A config setting that is accepted but has no effect here; the CLI prints it as a ``warning:`` line."""


def read_config(path: str | Path) -> Any:
    """The content of a config file: YAML (``.yaml``/``.yml``) or hjson/JSON (anything else)."""
    if Path(path).suffix.lower() in (".yaml", ".yml"):
        try:
            return yaml.safe_load(read_text(path))
        except yaml.YAMLError as e:
            mark = getattr(e, "problem_mark", None)
            at = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
            raise InputError(f"{path}: {at}{getattr(e, 'problem', None) or e}") from None
    return load_data(path)


def config_prompts(path: str | Path) -> list[dict[str, Any]]:
    """The prompts a config file gives in ``prompts`` (python-ragability's place for them), validated."""
    data = read_config(path)
    prompts = data.get("prompts") if isinstance(data, dict) else None
    if not prompts:
        return []
    problems = schemas.problems(prompts, "prompts", f"{path}: prompts")
    if problems:
        raise SpecError(problems)
    return list(prompts)


def _spec_from_entry(entry: str | dict[str, Any], providers: dict[str, dict[str, Any]], where: str) -> LLMSpec:
    settings = {"llm": entry} if isinstance(entry, str) else dict(entry)
    name = settings.pop("llm")
    provider = name.split("/", 1)[0] if "/" in name else ""
    merged = {**providers.get(provider, {}), **settings}
    alias = merged.pop("alias", name)
    for key, why in _NO_EFFECT.items():
        if merged.pop(key, None) is not None:
            warnings.warn(ConfigWarning(f"{where} ({alias}): {key} has no effect: {why}"), stacklevel=2)
    for old in ("api_base", "max_output_tokens"):
        new = _RENAMED[old]
        if old in merged and (new in merged or (new == "base_url" and "api_url" in merged)):
            raise SpecError(f"{where}: give {old} or {'api_url' if new == 'base_url' else new}, not both")
    url = merged.get("api_url") or merged.get("api_base") or merged.get("base_url")
    if isinstance(url, str) and "${" in url:
        url = url.replace("${model}", name.split("/", 1)[-1])
        if "${" in url:
            raise SpecError(f"{where}: api_url: only ${{model}} can be filled in; keys, users and passwords "
                            "are never put into a URL (name the key's variable with api_key_env)")
        for k in ("api_url", "api_base", "base_url"):
            if k in merged:
                merged[k] = url
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
    data = read_config(path)
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


def open_checkers(names: Sequence[str], config: str | Path | None = None, **settings: Any) -> list[LLM]:
    """The checker models ``check`` and ``probe`` use: the named ones, else the config's first model.

    With neither names nor a config there is no checker, which is right for suites whose checks ask no model
    (a check that needs one then says so); every name is opened as ``open_llms`` does.
    """
    if not names and config is None:
        return []
    models = open_llms(names, config, **settings)
    return models if names else models[:1]
