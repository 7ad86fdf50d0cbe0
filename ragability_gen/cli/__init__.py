"""The ``ragability-gen`` command line: thin commands over the library functions.

Each stage's commands live in their own module (``cli/convert.py``, ``cli/run.py``, ...), loaded only when
one of them runs: ``ragability-gen convert`` imports convert and compile, not the model client, spaCy or
the evaluation code. ``COMMANDS`` says where each command is; ``main.commands`` loads them on access.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Iterator, MutableMapping

import click

__all__ = ["COMMANDS", "main"]

COMMANDS = {
    "convert": "convert:convert", "validate": "validate:validate", "substitute": "substitute:substitute",
    "generate": "generate:generate", "query": "run:query", "check": "run:check", "eval": "evaluate:eval_command",
    "export": "evaluate:export_command", "calibrate": "calibrate:calibrate_command", "probe": "calibrate:probe_command",
    "mine": "mine:mine_command",
}
"""Command name -> ``module:function`` in this package."""


class _Commands(MutableMapping[str, click.Command]):
    """The group's commands, each imported from its module the first time it is looked up."""

    def __init__(self, where: dict[str, str]):
        self.where = dict(where)
        self.loaded: dict[str, click.Command] = {}

    def __getitem__(self, name: str) -> click.Command:
        if name not in self.loaded:
            module, attr = self.where[name].split(":")
            self.loaded[name] = getattr(importlib.import_module(f"{__name__}.{module}"), attr)
        return self.loaded[name]

    def __setitem__(self, name: str, command: click.Command) -> None:
        self.loaded[name] = command
        self.where.setdefault(name, "")

    def __delitem__(self, name: str) -> None:
        del self.where[name]
        self.loaded.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(self.where)

    def __len__(self) -> int:
        return len(self.where)


@click.group(context_settings={"help_option_names": ["-h", "--help"]}, commands=_Commands(COMMANDS))
@click.version_option(package_name="ragability-gen")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Build and run test suites for LLMs facing contradicting passages."""
    # settings that have no effect are said once per use, as one "warning:" line (see common.say_config_warnings)
    show = warnings.showwarning
    filters = warnings.filters[:]

    def warning_line(message, category, *args, **kw):  # type: ignore[no-untyped-def]
        config = sys.modules.get("ragability_gen.llm.config")  # only loaded commands can warn about a config
        if config is not None and issubclass(category, config.ConfigWarning):
            click.echo(f"warning: {message}", err=True)
        else:
            show(message, category, *args, **kw)

    def restore() -> None:
        warnings.showwarning = show
        warnings.filters[:] = filters  # type: ignore[index]

    warnings.showwarning = warning_line
    ctx.call_on_close(restore)
