"""The run stage: query testee LLMs over a suite, then check their responses.

Both steps read their input as a stream and keep memory flat in the number of items. Each result is
appended to a journal beside the output (``OUTPUT.partial``) and flushed as it arrives, so a run that is
interrupted, even killed, continues where it stopped when started again with the same command: no item
lost, none duplicated. When every item is done, the output is written in one go (suite order: LLM,
item, prompt id, as python-ragability writes it) and the journal is removed, so an interrupted and an
uninterrupted run give the same file.

Results keep the ragability format: each result is the suite item plus ``pid``, ``llm``, ``response``,
``error`` ("" when none) and ``cost``; checking adds ``result`` and ``error`` to every check, and
``response``, ``llm`` and ``cost`` to checks answered by the checker LLM.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ragability_gen.checkfuncs import CHECKS, CheckParseError
from ragability_gen.compile.core import prompts_path_for
from ragability_gen.core import schemas
from ragability_gen.core.fileio import RecordSource, write_records
from ragability_gen.core.specs import load_prompts
from ragability_gen.core.validate import check_problems
from ragability_gen.errors import InputError, LLMError, LLMSetupError, SchemaError, SpecError
from ragability_gen.llm.client import LLM, Message, connected
from ragability_gen.run import turns
from ragability_gen.run.multicheck import ask_checkers

Key = tuple[str, str, str]  # qid, pid, llm
Progress = Callable[["RunSummary"], None]

#: python-ragability's checker prompt, for checks that have a query but no prompt id.
DEFAULT_CHECK_PROMPT = {
    "pid": "default_check",
    "system": "You are an expert analyzing responses and how they related to desired facts or properties of the "
              "responses. You will be given the response following RESPONSE: and before QUERY:, and a query "
              "telling you what to analyze after QUERY:",
    "user": "RESPONSE: ${answer} QUERY: ${query}",
}
_ROLES = ("system", "user", "assistant")


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


def fill_checker_prompt(prompt: dict[str, Any], answer: str, check_for: str | None, query: str) -> list[Message]:
    """Fill a checker prompt: ``${answer}`` (the testee's response), ``${check_for}``, ``${query}`` (the check's)."""
    out = []
    for role in _ROLES:
        if role in prompt:
            content = prompt[role].replace("${query}", query).replace("${answer}", answer)
            out.append({"role": role, "content": content.replace("${check_for}", check_for or "")})
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

    @property
    def cost(self) -> float:
        return sum(llm.usage.cost for llm in self.llms.values())

    def lines(self) -> list[str]:
        out = [f"{self.records} records, {self.jobs} jobs: {self.resumed} done by an earlier run, "
               f"{self.done} done now"]
        for kind, n in sorted(self.errors.items()):
            out.append(f"  errors: {n} {kind}")
        for alias, llm in self.llms.items():
            u = llm.usage
            status = ", ".join(f"{n}x{code}" for code, n in sorted(u.http_status.items()) if code != 200)
            out.append(f"  {alias}: {u.calls} calls, {u.cache_hits} from the cache, {u.http_requests} HTTP requests "
                       f"({u.retries} retries; errors: {status or 'none'}, {u.unanswered} unanswered), "
                       f"{u.failed} failed, {u.prompt_tokens}+{u.completion_tokens} tokens, cost {u.cost:.4f}")
        return out


class Journal:
    """Results appended as they arrive (one JSON line each, flushed), read back by the next run.

    The first line fingerprints the inputs; a journal left by a run over other inputs is refused rather
    than mixed in. A last line cut short by a kill is dropped.
    """

    def __init__(self, path: Path, fingerprint: dict[str, Any]):
        self.path = path
        self._index: dict[Key, int] = {}
        self._failed: set[Key] = set()
        header = json.dumps({"ragability_gen_journal": 1, **fingerprint}, sort_keys=True)
        if path.exists():
            self._load(header)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(header + "\n", encoding="utf-8")
        self._fh = open(path, "ab")  # noqa: SIM115 - kept open for the run's appends
        self._reader = open(path, "rb")  # noqa: SIM115

    def _load(self, header: str) -> None:
        with open(self.path, "rb") as fh:
            first = fh.readline()
            if first.decode("utf-8", "replace").strip() != header:
                raise SpecError(f"{self.path}: left by a run over other inputs (the suite, results, prompts "
                                f"or checker changed); delete it to start afresh")
            good = fh.tell()
            while line := fh.readline():
                if not line.endswith(b"\n"):
                    break
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError:
                    break
                self._note(rec, good)
                good = fh.tell()
        os.truncate(self.path, good)

    def _note(self, rec: dict[str, Any], offset: int) -> None:
        key = (rec["qid"], rec["pid"], rec["llm"])
        self._index[key] = offset
        if rec.get("failed"):
            self._failed.add(key)
        else:
            self._failed.discard(key)

    def done(self, key: Key) -> bool:
        """True when the key has a result that needs no retry (an endpoint failure is retried)."""
        return key in self._index and key not in self._failed

    def append(self, rec: dict[str, Any]) -> None:
        offset = self._fh.tell()
        self._fh.write(json.dumps(rec, ensure_ascii=False).encode() + b"\n")
        self._fh.flush()
        self._note(rec, offset)

    def get(self, key: Key) -> dict[str, Any]:
        self._reader.seek(self._index[key])
        rec: dict[str, Any] = json.loads(self._reader.readline())
        return rec

    def close(self) -> None:
        self._fh.close()
        self._reader.close()

    def remove(self) -> None:
        self.close()
        self.path.unlink()


def _fingerprint(*paths: Path | None) -> dict[str, Any]:
    out = {}
    for p in paths:
        if p is not None:
            h = hashlib.sha256()
            with open(p, "rb") as fh:
                while chunk := fh.read(1 << 20):
                    h.update(chunk)
            out[p.name] = h.hexdigest()
    return out


def _prompts(path: Path | None, beside: Path) -> tuple[dict[str, dict[str, Any]], Path | None]:
    """The prompt file given, else the one ``convert`` wrote beside the suite: ``demo.hjson`` ->
    ``demo.prompts.hjson``, also found from results named after the suite (``demo.results.jsonl``)."""
    if path is None:
        guesses = [prompts_path_for(beside), beside.with_name(beside.name.split(".")[0] + ".prompts.hjson")]
        path = next((g for g in guesses if g.is_file()), None)
    if path is None:
        return {}, None
    return {p["pid"]: p for p in load_prompts(path)}, path


def _scan(source: RecordSource, prompts: dict[str, dict[str, Any]], prompts_path: Path | None,
          result_fields: bool) -> tuple[int, bool]:
    """Validate every record in one streaming pass; raise with every problem, before any request is sent.

    Returns:
        The number of records, and whether any check asks a checker model.
    """
    where = str(source.path)
    v = schemas.validator("test-item")
    problems: list[str] = []
    seen: set[Any] = set()
    missing: dict[str, list[int]] = {}
    n, needs_checker = 0, False
    pfile = f"not in {prompts_path.name}" if prompts_path else (
        f"needed, but there is no {prompts_path_for(source.path).name} beside it: give the prompt file with --prompts")
    for n, rec in enumerate(source, 1):
        if len(problems) > 50:
            break
        at = f"{where}: item {n}"
        problems += [f"{at}: {'field ' + p + ': ' if p else ''}{m}" for p, m in v.problems(rec)]
        if result_fields:
            for f, kind in (("pid", str), ("llm", str), ("response", str), ("error", str)):
                if not isinstance(rec.get(f), kind):
                    problems.append(f"{at}: field {f}: missing or not a string (is this a query results file?)")
        key = (rec.get("qid"), rec.get("pid"), rec.get("llm")) if result_fields else rec.get("qid")
        if key in seen:
            problems.append(f"{at}: field qid: duplicate {'result' if result_fields else 'qid'} {key!r}")
        seen.add(key)
        problems += check_problems(rec, at)
        checks = [c for c in rec.get("checks") or [] if isinstance(c, dict)]
        needs_checker = needs_checker or any(_needs_checker(c) for c in checks)
        used = [c["pid"] for c in checks if c.get("pid")] if result_fields else list(rec.get("pids") or [])
        used += [] if result_fields else list(rec.get("turns") or [])  # multi-turn items (run/turns.py)
        for pid in used:
            if pid not in prompts:
                missing.setdefault(pid, []).append(n)
    for pid, where_used in missing.items():
        more = f" and {len(where_used) - 1} more" if len(where_used) > 1 else ""
        problems.append(f"{where}: item {where_used[0]}{more}: prompt {pid!r} {pfile}")
    if problems:
        raise SchemaError(problems[:50] + ([f"{where}: ... more problems not shown"] if len(problems) > 50 else []))
    if n == 0:
        raise InputError(f"{where}: no items")
    return n, needs_checker


async def _drive(jobs: Iterable[tuple[Key, Callable[[], Awaitable[dict[str, Any]]]]], journal: Journal,
                 summary: RunSummary, limit: int, progress: Progress | None) -> None:
    """Run jobs with at most ``limit`` in flight; journal each result as it arrives."""
    pending: set[asyncio.Task[dict[str, Any]]] = set()

    def finish(done: set[asyncio.Task[dict[str, Any]]]) -> None:
        for task in done:
            rec = task.result()
            journal.append(rec)
            summary.done += 1
            summary.failed_now += bool(rec.get("kinds"))
        if progress:
            progress(summary)

    for key, make in jobs:
        summary.jobs += 1
        if journal.done(key):
            summary.resumed += 1
            continue
        while len(pending) >= limit:
            done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            finish(done)
        pending.add(asyncio.ensure_future(make()))
    while pending:
        done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
        finish(done)


def _journal_path(output: Path) -> Path:
    return output.with_name(output.name + ".partial")


async def _with_llms(llms: Sequence[LLM], body: Callable[[], Awaitable[None]]) -> None:
    async with connected(llms):
        await body()


def query_suite(suite: str | Path, output: str | Path, llms: Sequence[LLM], *, prompts: str | Path | None = None,
                progress: Progress | None = None) -> RunSummary:
    """Send every item x prompt id x testee LLM of ``suite``; write the results to ``output``.

    Args:
        suite: the test suite (hjson, json or jsonl).
        output: the results file; its format follows its suffix.
        llms: the testee models.
        prompts: the prompt file (default: the ``<stem>.prompts.hjson`` beside the suite).
        progress: called with the running summary after each batch of results.

    Raises:
        SchemaError: the suite is invalid or names prompts the prompt file lacks (nothing is sent).
        LLMError: a model cannot be reached at all (a missing API key variable).
    """
    suite, output = Path(suite), Path(output)
    prompt_map, prompts_path = _prompts(Path(prompts) if prompts else None, suite)
    source = RecordSource(suite)
    records, _ = _scan(source, prompt_map, prompts_path, result_fields=False)
    summary = RunSummary(records=records, llms={llm.spec.alias: llm for llm in llms})
    journal = Journal(_journal_path(output), _fingerprint(suite, prompts_path))

    def pids(item: dict[str, Any]) -> list[str]:
        return [item["pid"]] if isinstance(item.get("pid"), str) else list(item.get("pids") or prompt_map)

    def jobs() -> Iterator[tuple[Key, Callable[[], Awaitable[dict[str, Any]]]]]:
        for item in source:
            for llm in llms:
                for pid in pids(item):
                    yield (item["qid"], pid, llm.spec.alias), (
                        _turns_asker(llm, item, pid, prompt_map) if item.get("turns")  # multi-turn: run/turns.py
                        else _asker(llm, item, pid, prompt_map[pid]))

    def results() -> Iterator[dict[str, Any]]:
        for llm in llms:
            for item in source:
                for pid in pids(item):
                    got = journal.get((item["qid"], pid, llm.spec.alias))
                    summary.errors.update(got.get("kinds", []))
                    yield {**item, "pid": pid, "llm": llm.spec.alias, "response": got["response"],
                           "error": got["error"], "cost": got["cost"],
                           **({"transcript": got["transcript"]} if "transcript" in got else {})}

    limit = 2 * sum(llm.concurrency for llm in llms)
    _finish(journal, lambda: _drive(jobs(), journal, summary, limit, progress), llms, results(), output)
    return summary


def _finish(journal: Journal, body: Callable[[], Awaitable[None]], llms: Sequence[LLM],
            records: Iterable[dict[str, Any]], output: Path) -> None:
    """Run the jobs, then write the output in order and drop the journal; on any failure keep the journal."""
    try:
        asyncio.run(_with_llms(llms, body))
        write_records(records, output)
    except BaseException:
        journal.close()
        raise
    journal.remove()


def _asker(llm: LLM, item: dict[str, Any], pid: str, prompt: dict[str, Any]) -> Callable[[], Awaitable[dict[str, Any]]]:
    messages = fill_testee_prompt(prompt, item.get("facts"), item.get("query") or "")
    key = {"qid": item["qid"], "pid": pid, "llm": llm.spec.alias}

    async def ask() -> dict[str, Any]:
        try:
            done = await llm.complete(messages)
        except LLMSetupError:
            raise  # every request would fail the same way: stop the run (the journal keeps what is done)
        except LLMError as e:
            return {**key, "response": "", "error": e.problems[0], "cost": 0.0, "failed": True,
                    "kinds": ["testee requests failed"]}
        return {**key, "response": done.text, "error": "", "cost": done.cost}

    return ask


def _turns_asker(llm: LLM, item: dict[str, Any], pid: str,
                 prompt_map: dict[str, dict[str, Any]]) -> Callable[[], Awaitable[dict[str, Any]]]:
    """An item with ``turns``: its turn prompts in one conversation, the last reply its response."""
    filled = [fill_testee_prompt(prompt_map[t], item.get("facts"), item.get("query") or "") for t in item["turns"]]
    key = {"qid": item["qid"], "pid": pid, "llm": llm.spec.alias}

    async def ask() -> dict[str, Any]:
        return turns.journal_record(key, await turns.converse(llm, filled))

    return ask


def apply_check(check: dict[str, Any], text: str) -> tuple[Any, str]:
    """Run a check's function on ``text``: (result, "") or (None, why it could not be read)."""
    func = CHECKS[check["func"]]
    try:
        return func.func(text, *(check.get("args") or []), **(check.get("kwargs") or {})), ""
    except CheckParseError as e:
        return None, f"{check['func']}: cannot read the reply: {e}"


def check_results(results: str | Path, output: str | Path, checker: LLM | Sequence[LLM] | None, *,
                  prompts: str | Path | None = None, progress: Progress | None = None) -> RunSummary:
    """Check every result of a query run; write the checked results to ``output``.

    Checks with a prompt id (or a query) send the filled checker prompt to ``checker`` and apply the check
    function to its reply; others apply the function to the testee's response directly. A reply the
    function cannot read, a failed checker request and a failed testee request each leave the check with
    ``result: null`` and the reason in ``error``: counted, never a silent pass or fail. Several checkers
    each answer every such check; see ``multicheck`` for how their verdicts are kept.

    Raises:
        SchemaError: the results file is invalid (nothing is sent).
        SpecError: checks need a checker model and none is given.
    """
    results, output = Path(results), Path(output)
    prompt_map, prompts_path = _prompts(Path(prompts) if prompts else None, results)
    source = RecordSource(results)
    records, needs_checker = _scan(source, prompt_map, prompts_path, result_fields=True)
    # several checkers (see multicheck): the first one's verdict stays in the usual fields
    checkers = [checker] if isinstance(checker, LLM) else list(checker or [])
    summary = RunSummary(records=records, llms={c.spec.alias: c for c in checkers})
    if not checkers and needs_checker:
        raise SpecError(f"{results}: some checks ask a checker model: give one with --checker MODEL")
    aliases = [c.spec.alias for c in checkers]
    fingerprint = {**_fingerprint(results, prompts_path),
                   "checker": aliases[0] if len(aliases) == 1 else aliases or None}
    journal = Journal(_journal_path(output), fingerprint)

    def jobs() -> Iterator[tuple[Key, Callable[[], Awaitable[dict[str, Any]]]]]:
        for rec in source:
            yield (rec["qid"], rec["pid"], rec["llm"]), _checker_job(checkers, rec, prompt_map)

    def checked() -> Iterator[dict[str, Any]]:
        for rec in source:
            got = journal.get((rec["qid"], rec["pid"], rec["llm"]))
            summary.errors.update(got.get("kinds", []))
            yield {**rec, "checks": [{**c, **g} for c, g in zip(rec.get("checks") or [], got["checks"], strict=True)]}

    limit = 2 * (max(c.concurrency for c in checkers) if checkers else 8)
    _finish(journal, lambda: _drive(jobs(), journal, summary, limit, progress), checkers,
            checked(), output)
    return summary


def _needs_checker(check: dict[str, Any]) -> bool:
    return bool(check.get("pid") or check.get("query"))


def _checker_job(checkers: Sequence[LLM], rec: dict[str, Any],
                 prompt_map: dict[str, dict[str, Any]]) -> Callable[[], Awaitable[dict[str, Any]]]:
    async def one(check: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
        if rec["error"]:
            return {"result": None, "error": f"no response to check: {rec['error']}"}, ["checks without a response"]
        if not _needs_checker(check):
            result, error = apply_check(check, rec["response"])
            return {"result": result, "error": error}, ["unreadable responses"] if error else []
        prompt = prompt_map[check["pid"]] if check.get("pid") else DEFAULT_CHECK_PROMPT
        messages = fill_checker_prompt(prompt, rec["response"], check.get("check_for"), check.get("query") or "")
        return await ask_checkers(checkers, check, messages, apply_check)

    async def run() -> dict[str, Any]:
        got = await asyncio.gather(*(one(c) for c in rec.get("checks") or []))
        kinds = [k for _, ks in got for k in ks]
        return {"qid": rec["qid"], "pid": rec["pid"], "llm": rec["llm"], "checks": [g for g, _ in got],
                "failed": "checker requests failed" in kinds, "kinds": kinds}

    return run
