"""The run stage: query testee LLMs over a suite, then check their responses.

Both steps read their input as a stream and keep memory flat in the number of items. Each result is
appended to a journal beside the output (``OUTPUT.partial``) and flushed as it arrives, so a run that is
interrupted, even killed, continues where it stopped when started again with the same command: no item
lost, none duplicated. When every item is done, the output is written in one go (suite order: LLM,
item, prompt id, as python-ragability writes it) and the journal is removed, so an interrupted and an
uninterrupted run give the same file. One run at a time may write an output (``OUTPUT.lock``).

Results keep the ragability format: each result is the suite item plus ``pid``, ``llm``, ``response``,
``error`` ("" when none) and ``cost``; checking adds ``result`` and ``error`` to every check, and
``response``, ``llm`` and ``cost`` to checks answered by the checker LLM. A reply without a usable
answer is never an answer: it is retried, then recorded as an error and retried again by a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import json
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ragability_gen.compile.core import prompts_path_for
from ragability_gen.core.fileio import RecordSource, write_records
from ragability_gen.core.progress import Progress, ProgressEvent
from ragability_gen.core.specs import load_prompts
from ragability_gen.core.validate import ItemChecks, prompt_note, repeat_qid
from ragability_gen.errors import (
    InputError,
    Interrupted,
    LLMError,
    LLMSetupError,
    OutputError,
    SchemaError,
    SpecError,
)
from ragability_gen.llm.client import LLM, LLMSpec, Message, connected
from ragability_gen.run import turns
from ragability_gen.run.checking import COMPAT_MODES, checker_job, fill_checker_prompt
from ragability_gen.run.journal import Journal, Key, OutputLock, file_digest, journal_path

__all__ = ["COMPAT_MODES", "Journal", "RunSummary", "check_results", "fill_checker_prompt", "fill_testee_prompt",
           "query_suite"]

Job = tuple[Key, Callable[[], Awaitable[dict[str, Any]]]]
_ROLES = ("system", "user", "assistant")
EMPTY_ANSWER_NOTE = "the model returned an empty answer (finish_reason: stop)"


def fill_testee_prompt(prompt: dict[str, Any], facts: str | list[str] | None, query: str) -> list[Message]:
    """Fill a testee prompt: ``${facts}`` (each fact formatted with ``fact``, ``${fact}``, ``${n}``), ``${query}``."""
    if isinstance(facts, str):
        facts = [facts]
    text = None
    if facts:
        tmpl = prompt.get("fact")
        text = "".join(tmpl.replace("${fact}", f).replace("${n}", str(i)) for i, f in enumerate(facts, 1)) \
            if tmpl else "\n".join(facts)
    out = []
    for role in _ROLES:
        if role in prompt:
            content = prompt[role] if text is None else prompt[role].replace("${facts}", text)
            out.append({"role": role, "content": content.replace("${query}", query)})
    return out


@dataclass
class RunSummary:
    """What a query or check run did: jobs in all, done before (resumed), done now, errors by kind in the output."""

    records: int = 0
    jobs: int = 0
    resumed: int = 0
    done: int = 0
    failed_now: int = 0  # jobs of this run with any error, for progress display
    errors: Counter[str] = field(default_factory=Counter)
    llms: dict[str, LLM] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def cost(self) -> float:
        return sum(llm.usage.cost for llm in self.llms.values())

    def event(self, stage: str) -> ProgressEvent:
        """Where the run is, as the progress protocol reports it: jobs done (by an earlier run or now) of jobs seen."""
        return ProgressEvent(stage, self.resumed + self.done, self.jobs, failed=self.failed_now, cost=self.cost)

    def lines(self) -> list[str]:
        out = [f"{self.records} records, {self.jobs} jobs: {self.resumed} done by an earlier run, "
               f"{self.done} done now"]
        out += [f"  {note}" for note in self.notes]
        for kind, n in sorted(self.errors.items()):
            out.append(f"  errors: {n} {kind}")
        out += ["  " + llm.usage.line(alias) for alias, llm in self.llms.items()]
        return out


def _settings(spec: LLMSpec) -> dict[str, Any]:
    """What a model's replies depend on: endpoint, model and generation settings (never the key)."""
    return {"base_url": spec.base_url.rstrip("/"), "model": spec.model, **spec.params(),
            "structured_output": spec.structured_output}


def query_fingerprint(suite: Path, prompts_digest: dict[str, Any], llms: Sequence[LLM]) -> dict[str, Any]:
    """What a query run's journal must match to be resumed: the suite, the prompts, each model's settings."""
    return {"suite": file_digest(suite), **prompts_digest,
            **{f"llm {llm.spec.alias}": _settings(llm.spec) for llm in llms}}


def check_fingerprint(results: Path, prompts_digest: dict[str, Any], checkers: Sequence[LLM],
                      compat: str | None) -> dict[str, Any]:
    """What a check run's journal must match: the results, the prompts, the checkers' settings, the compat mode."""
    return {"results": file_digest(results), **prompts_digest,
            "checker": [{"alias": c.spec.alias, **_settings(c.spec)} for c in checkers] or None, "compat": compat}


def _prompts(path: Path | None, beside: Path,
             more: Sequence[dict[str, Any]] = ()) -> tuple[dict[str, dict[str, Any]], Path | None, dict[str, Any]]:
    """The prompt file given, else the one ``convert`` wrote beside the suite: ``demo.hjson`` ->
    ``demo.prompts.hjson``, also found from results named after the suite (``demo.results.jsonl``);
    plus ``more`` prompts (a config's ``prompts``). Returns the prompts by id, the file, and their fingerprint.

    Raises:
        SpecError: a prompt id given both in the file and in ``more``.
    """
    if path is None:
        guesses = [prompts_path_for(beside), beside.with_name(beside.name.split(".")[0] + ".prompts.hjson")]
        path = next((g for g in guesses if g.is_file()), None)
    found = {p["pid"]: p for p in load_prompts(path)} if path is not None else {}
    if twice := sorted(p["pid"] for p in more if p["pid"] in found):
        raise SpecError(f"prompt ids given both in {path} and in the config: {', '.join(twice)}")
    found.update({p["pid"]: p for p in more})
    digest = {"prompts": file_digest(path) if path else None}
    if more:
        digest["config prompts"] = hashlib.sha256(json.dumps(list(more), sort_keys=True).encode()).hexdigest()
    return found, path, digest


def _scan(source: RecordSource, prompts: dict[str, dict[str, Any]], prompts_path: Path | None,
          results: bool) -> ItemChecks:
    """Validate every record in one streaming pass (``core.validate``'s checks, the same as ``validate``);
    raise with every problem, before any request is sent."""
    checks = ItemChecks(str(source.path), set(prompts), prompt_note(prompts_path, source.path), results=results,
                        prompt_fields=("checks",) if results else ("pids",))
    for rec in source:
        checks.add(rec)
    if problems := checks.all_problems():
        raise SchemaError(problems)
    if checks.count == 0:
        raise InputError(f"{source.path}: no items")
    return checks


def _numbered(source: Iterable[dict[str, Any]], results: bool) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each record with the qid it runs under: repeated qids get a deterministic suffix (file order)."""
    seen: Counter[tuple[Any, ...]] = Counter()
    for rec in source:
        k = (rec["qid"], rec["pid"], rec["llm"]) if results else (rec["qid"],)
        seen[k] += 1
        yield repeat_qid(rec["qid"], seen[k]), rec


async def _drive(jobs: Iterable[Job], journal: Journal, summary: RunSummary, limit: int, stage: str,
                 on_progress: Progress | None) -> None:
    """Run jobs with at most ``limit`` in flight; journal each result as it arrives.

    ``on_progress`` gets ``summary.event(stage)`` after each result, and once more when every job is done.

    ``limit`` workers pull from one job iterator, so each completion costs the same whatever the number
    in flight (waiting over every pending task after each completion costs time in proportion to it).
    A job that raises (a refused key, say) stops the run: every result that arrived before it is already
    journalled, and the jobs still in flight are cancelled and awaited, so no task is left behind.
    """
    pending = iter(jobs)

    def next_job() -> Callable[[], Awaitable[dict[str, Any]]] | None:
        for key, make in pending:  # plain code between awaits: no two workers pull at once
            summary.jobs += 1
            if journal.done(key):
                summary.resumed += 1
                continue
            return make
        return None

    errors: list[BaseException] = []  # in the order they happened: the first one stops the run
    stop = asyncio.get_running_loop().create_future()  # set by the first error or the last worker to finish
    live = max(1, limit)

    async def worker() -> None:
        nonlocal live
        try:
            while not errors and (make := next_job()) is not None:
                rec = await make()
                journal.append(rec)  # in the step the reply arrived in: a cancelled worker loses no result
                summary.done += 1
                summary.failed_now += bool(rec.get("kinds"))
                if on_progress:
                    on_progress(summary.event(stage))
        except asyncio.CancelledError:
            raise
        except BaseException as e:  # kept, and raised by the run once the others have stopped
            errors.append(e)
        finally:
            live -= 1
            if (errors or not live) and not stop.done():
                stop.set_result(None)

    workers = [asyncio.ensure_future(worker()) for _ in range(live)]
    try:
        with _fewer_collections():
            await stop
        if errors:
            raise errors[0]
    finally:
        for task in workers:
            task.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
    if on_progress:
        on_progress(summary.event(stage))


@contextlib.contextmanager
def _fewer_collections() -> Iterator[None]:
    """Run with the objects made so far (modules, the client's types) out of the cyclic collector's sight,
    and collect the youngest generation every 20,000 allocations instead of 700: every request allocates
    hundreds of objects in the HTTP client, and the collections they set off cost about a tenth of the
    query process's CPU (benchmarks/bench_query.py). Restored afterwards."""
    threshold = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(max(threshold[0], 20_000), *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()


async def _with_llms(llms: Sequence[LLM], body: Callable[[], Awaitable[None]]) -> None:
    async with connected(llms):
        await body()


def _finish(output: Path, fingerprint: dict[str, Any], restart: bool, summary: RunSummary,
            run: Callable[[Journal], Awaitable[None]], llms: Sequence[LLM],
            records: Callable[[Journal], Iterable[dict[str, Any]]]) -> None:
    """Under the output's lock: open the journal, run the jobs, write the output in order, drop the journal.

    On any failure the journal is kept for a restart (unless it holds nothing yet), and the reason is
    raised as one error: Ctrl-C, a full disk or a refused write never end in a traceback.
    """
    with OutputLock(output) as lock:
        if lock.took_over is not None:
            summary.notes.append(f"took over the lock left by process {lock.took_over}, which is no longer running")
        journal = Journal(journal_path(output), fingerprint, restart=restart)
        try:
            asyncio.run(_with_llms(llms, lambda: run(journal)))
            write_records(records(journal), output)
        except BaseException as e:
            journal.close()
            if journal.records == 0 and journal.created:
                journal.path.unlink(missing_ok=True)  # nothing was done: leave nothing behind
                kept = "nothing was done"
            else:
                kept = f"{journal.records} results are kept in {journal.path}"
            if isinstance(e, KeyboardInterrupt):
                raise Interrupted(f"interrupted: {kept}; run the same command again to resume") from None
            if isinstance(e, OSError):
                raise OutputError(f"{e.filename or output}: cannot write: {e.strerror or e}; {kept}") from None
            if isinstance(e, LLMSetupError) and journal.records:
                raise LLMSetupError([*e.problems[:1], f"{kept}; run the same command again to resume"]) from None
            raise
        journal.remove()


def query_suite(suite: str | Path, output: str | Path, llms: Sequence[LLM], *, prompts: str | Path | None = None,
                on_progress: Progress | None = None, restart: bool = False,
                more_prompts: Sequence[dict[str, Any]] = ()) -> RunSummary:
    """Send every item x prompt id x testee LLM of ``suite``; write the results to ``output``.

    Args:
        suite: the test suite (hjson, json or jsonl).
        output: the results file; its format follows its suffix.
        llms: the testee models.
        prompts: the prompt file (default: the ``<stem>.prompts.hjson`` beside the suite).
        on_progress: gets a ``ProgressEvent`` of stage "query" after each result (``total`` grows as the suite
            is read), and one with ``done == total`` when every job is done.
        restart: discard a journal left by an unfinished run over other inputs or settings.
        more_prompts: prompts besides the prompt file's (a config's ``prompts``, as python-ragability allows).

    Raises:
        SchemaError: the suite is invalid or names prompts the prompt file lacks (nothing is sent).
        LLMSetupError: a model cannot be used at all (missing key, refused credentials, unknown model).
        OutputError: another run is writing ``output``, or it cannot be written.
        Interrupted: Ctrl-C; the journal is kept and the same command resumes.
    """
    suite, output = Path(suite), Path(output)
    prompt_map, prompts_path, prompts_digest = _prompts(Path(prompts) if prompts else None, suite, more_prompts)
    source = RecordSource(suite)
    checks = _scan(source, prompt_map, prompts_path, results=False)
    summary = RunSummary(records=checks.count, llms={llm.spec.alias: llm for llm in llms})
    if note := checks.repeats_line():
        summary.notes.append(note)
    fingerprint = query_fingerprint(suite, prompts_digest, llms)

    def jobs() -> Iterator[Job]:
        for qid, item in _numbered(source, False):
            for llm in llms:
                for pid in item_pids(item, prompt_map):
                    yield (qid, pid, llm.spec.alias), (
                        _turns_asker(llm, item, qid, pid, prompt_map) if item.get("turns")  # run/turns.py
                        else _asker(llm, item, qid, pid, prompt_map[pid]))

    def results(journal: Journal) -> Iterator[dict[str, Any]]:
        empty = 0
        for llm in llms:
            for qid, item in _numbered(source, False):
                for pid in item_pids(item, prompt_map):
                    got = journal.get((qid, pid, llm.spec.alias))
                    summary.errors.update(got.get("kinds", []))
                    rec = {**item, "qid": qid, "pid": pid, "llm": llm.spec.alias, "response": got["response"],
                           "error": got["error"], "cost": got["cost"],
                           **({"transcript": got["transcript"]} if "transcript" in got else {})}
                    if got.get("note"):
                        rec["note"] = got["note"]
                        empty += 1
                    yield rec
        if empty:
            summary.notes.append(f"{empty} empty answers: the model returned \"\" and said it had finished; "
                                 f"recorded as answers, with a note")

    limit = 2 * sum(llm.concurrency for llm in llms)
    _finish(output, fingerprint, restart, summary,
            lambda journal: _drive(jobs(), journal, summary, limit, "query", on_progress), llms, results)
    return summary


def item_pids(item: dict[str, Any], prompt_map: dict[str, dict[str, Any]]) -> list[str]:
    """The prompt ids an item is asked with: its ``pid``, else its ``pids``, else every prompt of the file."""
    return [item["pid"]] if isinstance(item.get("pid"), str) else list(item.get("pids") or prompt_map)


def _asker(llm: LLM, item: dict[str, Any], qid: str, pid: str,
           prompt: dict[str, Any]) -> Callable[[], Awaitable[dict[str, Any]]]:
    messages = fill_testee_prompt(prompt, item.get("facts"), item.get("query") or "")
    key = {"qid": qid, "pid": pid, "llm": llm.spec.alias}

    async def ask() -> dict[str, Any]:
        try:
            done = await llm.complete(messages)
        except LLMSetupError:
            raise  # every request would fail the same way: stop the run (the journal keeps what is done)
        except LLMError as e:
            return {**key, "response": "", "error": e.problems[0], "cost": 0.0, "failed": True,
                    "kinds": ["testee requests failed"]}
        rec = {**key, "response": done.text, "error": "", "cost": done.cost}
        if done.text == "":
            rec["note"] = EMPTY_ANSWER_NOTE  # the client accepts "" only with finish_reason: stop
        return rec

    return ask


def _turns_asker(llm: LLM, item: dict[str, Any], qid: str, pid: str,
                 prompt_map: dict[str, dict[str, Any]]) -> Callable[[], Awaitable[dict[str, Any]]]:
    """An item with ``turns``: its turn prompts in one conversation, the last reply its response."""
    filled = [fill_testee_prompt(prompt_map[t], item.get("facts"), item.get("query") or "") for t in item["turns"]]
    key = {"qid": qid, "pid": pid, "llm": llm.spec.alias}

    async def ask() -> dict[str, Any]:
        return turns.journal_record(key, await turns.converse(llm, filled))

    return ask


def check_results(results: str | Path, output: str | Path, checker: LLM | Sequence[LLM] | None, *,
                  prompts: str | Path | None = None, on_progress: Progress | None = None, restart: bool = False,
                  compat: str | None = None, more_prompts: Sequence[dict[str, Any]] = ()) -> RunSummary:
    """Check every result of a query run; write the checked results to ``output``.

    Checks with a prompt id (or a query) send the filled checker prompt to ``checker`` and apply the check
    function to its reply; others apply the function to the testee's response directly. A reply the
    function cannot read, a failed checker request and a failed testee request each leave the check with
    ``result: null`` and the reason in ``error``: counted, never a silent pass or fail. Several checkers
    each answer every such check; see ``multicheck`` for how their verdicts are kept (the first one's in
    the usual fields).

    Args:
        on_progress: gets a ``ProgressEvent`` of stage "check", as for :func:`query_suite`.
        compat: "python-ragability" reads replies (and routes checks) as python-ragability does, for
            comparison with its published numbers; see :mod:`ragability_gen.run.checking`.

    Raises:
        SchemaError: the results file is invalid (nothing is sent).
        SpecError: checks need a checker model and none is given, or an unknown compat mode.
        OutputError, Interrupted, LLMSetupError: as for :func:`query_suite`.
    """
    if compat is not None and compat not in COMPAT_MODES:
        raise SpecError(f"unknown compatibility mode {compat!r} (use {', '.join(COMPAT_MODES)})")
    results, output = Path(results), Path(output)
    prompt_map, prompts_path, prompts_digest = _prompts(Path(prompts) if prompts else None, results, more_prompts)
    source = RecordSource(results)
    checks = _scan(source, prompt_map, prompts_path, results=True)
    checkers = [checker] if isinstance(checker, LLM) else list(checker or [])
    summary = RunSummary(records=checks.count, llms={c.spec.alias: c for c in checkers})
    if note := checks.repeats_line():
        summary.notes.append(note)
    if compat:
        summary.notes.append(f"replies read as {compat} reads them (--compat {compat})")
    if not checkers and checks.needs_checker:
        raise SpecError(f"{results}: some checks ask a checker model: give one with --checker MODEL")
    fingerprint = check_fingerprint(results, prompts_digest, checkers, compat)

    def jobs() -> Iterator[Job]:
        for qid, rec in _numbered(source, True):
            key = {"qid": qid, "pid": rec["pid"], "llm": rec["llm"]}
            yield (qid, rec["pid"], rec["llm"]), checker_job(checkers, rec, key, prompt_map, compat)

    def checked(journal: Journal) -> Iterator[dict[str, Any]]:
        for qid, rec in _numbered(source, True):
            got = journal.get((qid, rec["pid"], rec["llm"]))
            summary.errors.update(got.get("kinds", []))
            yield {**rec, "qid": qid,
                   "checks": [{**c, **g} for c, g in zip(rec.get("checks") or [], got["checks"], strict=True)]}

    limit = 2 * (max(c.concurrency for c in checkers) if checkers else 8)
    _finish(output, fingerprint, restart, summary,
            lambda journal: _drive(jobs(), journal, summary, limit, "check", on_progress), checkers, checked)
    return summary
