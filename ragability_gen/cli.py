"""The ``ragability-gen`` command line: thin commands over the library functions."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from .compile import compile_suite
from .convert import read_instances, write_corpus
from .errors import RagabilityGenError
from .fileio import FORMATS, format_for
from .generate import generate_file
from .llm import default_cache_path
from .validate import FILE_KINDS, validate_file


class Problems(click.ClickException):
    """Prints one 'error:' line per problem and exits with status 1."""

    def __init__(self, problems: list[str]):
        super().__init__("\n".join(problems))
        self.problems = problems

    def show(self, file=None) -> None:  # type: ignore[no-untyped-def]
        for line in self.problems:
            click.echo(f"error: {line}", err=True)


def _fail(e: RagabilityGenError | OSError) -> Problems:
    if isinstance(e, OSError):
        return Problems([f"{e.filename or ''}: {e.strerror or e}".lstrip(": ")])
    return Problems(e.problems)


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


def llm_settings(kw: dict[str, Any]) -> dict[str, Any]:
    """Pop the shared LLM options from a command's keyword arguments, as resolve_llms/open_cache take them."""
    cache_path, no_cache = kw.pop("cache_path"), kw.pop("no_cache")
    return {"config": kw.pop("llm_config"), "base_url": kw.pop("base_url"), "api_key_env": kw.pop("api_key_env"),
            "temperature": kw.pop("temperature"), "max_tokens": kw.pop("max_tokens"), "seed": kw.pop("llm_seed"),
            "concurrency": kw.pop("concurrency"), "cache": None if no_cache else cache_path or default_cache_path()}


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ragability-gen")
def main() -> None:
    """Build and run test suites for LLMs facing contradicting passages."""


@main.command()
@click.argument("input_file", metavar="INPUT", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Suite file to write (default: INPUT with the format's suffix, in the current folder).")
@click.option("--suite", metavar="NAME|PATH",
              help="Suite spec: a shipped name (see checks/) or a path (default: the converter spec's "
                   "default_suite, else ragability).")
@click.option("--prompts", "prompts_out", type=click.Path(dir_okay=False, path_type=Path),
              help="Where to write the prompt file the suite needs (default: OUTPUT stem + .prompts.hjson).")
@click.option("--format", "fmt", type=click.Choice(FORMATS),
              help="Suite format (default: from the OUTPUT suffix, else hjson).")
@click.option("--converter", metavar="NAME|PATH",
              help="Converter spec for INPUT: a shipped name (see converters/) or a path "
                   "(default: recognised from INPUT, else ragability-v0.4).")
@click.option("--to-corpus", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the instances as a corpus instead of compiling a suite: a .jsonl path gets "
                   "canonical instances, any other path a TSV in the Ragability v0.4 columns.")
@click.option("--conflict", type=click.Choice(["explicit", "implicit"]),
              help="Keep only explicit or only implicit contradictions (WikiContradict input).")
@click.option("--different-passages-only", is_flag=True,
              help="Keep only questions whose two statements are in different passages "
                   "(WikiContradict input).")
@click.option("-q", "--quiet", is_flag=True, help="Do not print the summary.")
def convert(input_file: Path, output: Path | None, suite: str | None, prompts_out: Path | None, fmt: str | None,
            converter: str | None, to_corpus: Path | None, conflict: str | None,
            different_passages_only: bool, quiet: bool) -> None:
    """Convert a corpus INPUT (e.g. v0d4.tsv) into a test suite (v0d4.hjson) and its prompt file."""
    options = {"conflict": conflict, "passages": "different" if different_passages_only else None}
    try:
        instances, conv_summary = read_instances(
            input_file, converter, **{k: v for k, v in options.items() if v is not None})
        lines = conv_summary.lines()
        if to_corpus:
            n = write_corpus(instances, to_corpus)
            lines.append(f"wrote {n} rows to {to_corpus}")
        else:
            fmt = fmt or (format_for(output) if output else "hjson")
            out = output or Path(input_file.stem + "." + fmt)
            suite = suite or conv_summary.default_suite or "ragability"
            summary, prompts_path = compile_suite(instances, out, suite, fmt, prompts_out)
            lines += summary.lines()
            lines.append(f"wrote {summary.items} items to {out} and prompts to {prompts_path}")
    except (RagabilityGenError, OSError) as e:
        raise _fail(e) from None
    if not quiet:
        for line in lines:
            click.echo(line, err=True)


@main.command()
@click.argument("input_file", metavar="INPUT", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Corpus to write: a .jsonl path gets canonical instances, any other path a TSV in the "
                   "Ragability v0.4 columns.")
@click.option("--llm", "llm", required=True, metavar="MODEL",
              help="The model that writes the contexts: a config alias or provider/model; 'rules' for the "
                   "offline rules generator (no model).")
@click.option("--verifier", metavar="MODEL",
              help="The model for the model checks (default: the --llm model; none with --llm rules); "
                   "'none' for rule checks only.")
@click.option("--attempts", type=click.IntRange(min=1), default=3, show_default=True,
              help="Candidates per context at most; a rejected one is retried with the reasons.")
@click.option("--force", is_flag=True, help="Regenerate context_3/context_4 even where they are filled.")
@click.option("--converter", metavar="NAME|PATH",
              help="Converter spec for INPUT (default: recognised from INPUT, else ragability-v0.4).")
@click.option("--audit", "audit_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Audit file, one JSON record per generated context (default: OUTPUT stem + .audit.jsonl).")
@click.option("--rejects", "rejects_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Rejects report, one JSON record per instance with a rejected context "
                   "(default: OUTPUT stem + .rejects.jsonl).")
@llm_options
@click.option("-q", "--quiet", is_flag=True, help="Print neither progress nor the summary.")
def generate(input_file: Path, output: Path, llm: str, verifier: str | None, attempts: int, force: bool,
             converter: str | None, audit_path: Path | None, rejects_path: Path | None, quiet: bool,
             **kw: Any) -> None:
    """Fill in empty context_3/context_4 of a corpus INPUT with checked, generated passages."""
    settings = llm_settings(kw)
    bar: Any = None

    def progress(done: int, total: int) -> None:
        nonlocal bar
        if bar is None:
            bar = click.progressbar(length=total, label="generating", file=sys.stderr)
            bar.__enter__()
        bar.update(done - bar.pos)

    show = not quiet and sys.stderr.isatty()
    try:
        read, summary = generate_file(input_file, output, llm, verifier=verifier, attempts=attempts, force=force,
                                      converter=converter, audit=audit_path, rejects=rejects_path,
                                      on_progress=progress if show else None, **settings)
    except (RagabilityGenError, OSError) as e:
        raise _fail(e) from None
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)
    if not quiet:
        for line in read.lines() + summary.lines():
            click.echo(line, err=True)


@main.command()
@click.argument("files", metavar="FILE...", nargs=-1, required=True,
                type=click.Path(dir_okay=False, path_type=Path))
@click.option("--kind", type=click.Choice(FILE_KINDS), help="What the files are (default: guessed).")
@click.option("--converter", metavar="NAME|PATH", help="Converter spec for corpus files.")
def validate(files: tuple[Path, ...], kind: str | None, converter: str | None) -> None:
    """Validate corpora, instance files, suites, prompt files and specs; report every problem."""
    problems: list[str] = []
    for f in files:
        try:
            found, probs, what = validate_file(f, kind, converter)
        except (RagabilityGenError, OSError) as e:
            problems += _fail(e).problems
            continue
        if probs:
            problems += probs
        else:
            click.echo(f"{f}: valid {found} ({what})")
    if problems:
        raise Problems(problems)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
