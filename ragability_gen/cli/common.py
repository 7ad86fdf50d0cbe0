"""What the commands share: error output, the progress bars, the model options.

Nothing here imports a stage: a command imports its stage's library inside its own function, so that
``ragability-gen convert`` pays for convert only.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import IO, TYPE_CHECKING, Any

import click

from ragability_gen.errors import RagabilityGenError

if TYPE_CHECKING:
    from tqdm import tqdm

    from ragability_gen.core.progress import ProgressEvent

__all__ = ["STAGE_BARS", "ProgressBars", "Problems", "corpus_output", "fail", "llm_options", "llm_settings",
           "print_lines", "say_config_warnings"]


class Problems(click.ClickException):
    """Prints one 'error:' line per problem and exits with status 1."""

    def __init__(self, problems: list[str]):
        super().__init__("\n".join(problems))
        self.problems = problems

    def show(self, file=None) -> None:  # type: ignore[no-untyped-def]
        for line in self.problems:
            click.echo(f"error: {line}", err=True)


def fail(e: RagabilityGenError | OSError) -> Problems:
    """The library's error (or an OS error) as the command's ``error:`` lines."""
    from ragability_gen.core.specs import explain_hjson_problem  # here: --help needs no spec machinery

    if isinstance(e, OSError):
        return Problems([f"{e.filename or ''}: {e.strerror or e}".lstrip(": ")])
    return Problems([explain_hjson_problem(p) for p in e.problems])


def print_lines(lines: list[str], quiet: bool) -> None:
    """A command's summary, to stderr, unless ``--quiet``."""
    if not quiet:
        for line in lines:
            click.echo(line, err=True)


corpus_output = click.option(
    "-o", "--output", required=True, type=click.Path(dir_okay=False, path_type=Path),
    help="Corpus to write: a .jsonl path gets canonical instances, any other path a table in INPUT's own "
         "columns (the Ragability v0.4 columns when INPUT is not a table).")


STAGE_BARS: dict[str, tuple[str, str]] = {
    "compile": ("compile", "item"), "ner": ("NER", "text"), "review": ("review", "instance"),
    "scan": ("leak scan", "text"), "generate": ("generate", "instance"), "facts": ("facts", "passage"),
    "verify": ("verify", "pair"), "query": ("query", "job"), "check": ("check", "job"), "probe": ("probe", "job"),
    "repeat": ("repeat", "job"), "substitute": ("substitute", "text"),
}
"""The bar's label and unit for each stage the library reports (others show the stage name, in items)."""


class ProgressBars:
    """The CLI's one adapter of the progress protocol: a tqdm bar on stderr per stage of the events.

    Bars are hidden with ``--quiet`` and, on stderr, when stderr is not a terminal (a ``file`` given is
    always drawn on); events of model runs also show the failures and the cost so far. Use as a context
    manager so the bars are closed on any exit.
    """

    def __init__(self, quiet: bool, file: IO[str] | None = None):
        self.quiet, self.file = quiet, file
        self.bars: dict[str, tqdm[Any]] = {}

    def __call__(self, event: ProgressEvent) -> None:
        bar = self.bars.get(event.stage)
        if bar is None:
            from tqdm import tqdm  # here: a command that reports no progress does not pay for it

            label, unit = STAGE_BARS.get(event.stage, (event.stage, "item"))
            hidden = True if self.quiet else (None if self.file is None else False)  # None: tqdm asks isatty
            bar = self.bars[event.stage] = tqdm(desc=label, unit=unit, disable=hidden, file=self.file or sys.stderr)
        if event.cost is not None:
            bar.set_postfix(errors=event.failed, cost=f"{event.cost:.4f}", refresh=False)
        bar.total = event.total
        bar.update(event.done - bar.n)  # redraws at most every 0.1 s

    def close(self) -> None:
        for bar in self.bars.values():
            bar.close()

    def __enter__(self) -> ProgressBars:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def llm_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The options every command that talks to a model shares: endpoint, sampling, concurrency, cache."""
    options = [
        click.option("--config", "llm_config", type=click.Path(dir_okay=False, path_type=Path),
                     help="LLM config file (hjson; python-ragability's layout: an llms list, providers)."),
        click.option("--base-url", metavar="URL",
                     help="OpenAI-compatible endpoint for models named on the command line "
                          "(default: the provider's, for provider/model names such as openai/gpt-4o-mini)."),
        click.option("--api-key-env", metavar="VAR",
                     help="Environment variable holding the API key (default: the provider's, e.g. "
                          "OPENAI_API_KEY; none for other endpoints). Keys are never read from files."),
        click.option("--temperature", type=click.FloatRange(min=0), help="Sampling temperature."),
        click.option("--max-tokens", type=click.IntRange(min=1), help="Longest reply, in tokens."),
        click.option("--seed", "llm_seed", type=int, help="Sampling seed, for endpoints that support one."),
        click.option("--timeout", type=click.FloatRange(min=0, min_open=True),
                     help="Seconds to wait for one reply before retrying (default: 120)."),
        click.option("--concurrency", type=click.IntRange(min=1), default=16, show_default=True,
                     help="Requests in flight per model."),
        click.option("--cache", "cache_path", type=click.Path(dir_okay=False, path_type=Path),
                     help="Response cache file (default: $RAGABILITY_GEN_CACHE, else "
                          "~/.cache/ragability-gen/llm-cache.sqlite)."),
        click.option("--no-cache", is_flag=True, help="Neither read nor write the response cache."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def say_config_warnings() -> None:
    """Show every config setting without effect, each time it is read (``main`` prints them as ``warning:``)."""
    from ragability_gen.llm.config import ConfigWarning

    warnings.simplefilter("always", ConfigWarning)


def llm_settings(kw: dict[str, Any]) -> dict[str, Any]:
    """Pop the shared LLM options from a command's keyword arguments, as ``open_llms`` takes them.

    A command that talks to models is also where config settings without effect are warned about:
    each is said once per use, as one ``warning:`` line (see ``main``).
    """
    from ragability_gen.llm.client import default_cache_path

    say_config_warnings()
    cache_path, no_cache = kw.pop("cache_path"), kw.pop("no_cache")
    return {"config": kw.pop("llm_config"), "base_url": kw.pop("base_url"), "api_key_env": kw.pop("api_key_env"),
            "temperature": kw.pop("temperature"), "max_tokens": kw.pop("max_tokens"), "seed": kw.pop("llm_seed"),
            "timeout": kw.pop("timeout"),
            "concurrency": kw.pop("concurrency"), "cache": None if no_cache else cache_path or default_cache_path()}
