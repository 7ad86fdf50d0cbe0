"""Stage: fill in the generated contexts of each instance (context_3, context_4), checked before accepted.

Context 3 agrees with context 1 and contradicts context 2; context 4 adds neutral background. Their
relations are declared by the Ragability v0.4 converter spec, so generated instances compile with the
default suite like hand-written ones. A writer (a model, or the offline rules writer) proposes a candidate;
rule checks (``textrules``) and then the verifier's model checks (``writers``) judge it; a rejected
candidate is retried with the reasons, up to ``attempts`` times. Every attempt is kept for the audit.
Instances run concurrently; results keep input order and depend only on the replies.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from ragability_gen.convert.core import ConvertSummary, read_instances, write_corpus
from ragability_gen.core.fileio import beside, staged_outputs, write_records
from ragability_gen.core.model import Context, Instance
from ragability_gen.core.specs import load_converter_spec
from ragability_gen.errors import InputError, LLMError, LLMSetupError
from ragability_gen.generate.textrules import RuleVerdict
from ragability_gen.generate.writers import (
    ContextTask,
    LLMWriter,
    ModelVerdict,
    RuleWriter,
    Turn,
    Verifier,
    Writer,
    describe,
)
from ragability_gen.llm.client import Completion, connected
from ragability_gen.llm.config import open_llms

GENERATED = ("3", "4")
"""The contexts this stage writes, in order: context 4 must also be consistent with context 3."""

LAYOUT_SPEC = "ragability-v0.4"
"""The converter spec whose context declarations (relations, annotation) generated contexts get."""

Progress = Callable[[int, int], None]
T = TypeVar("T")


@dataclass
class Attempt:
    """One candidate: what the writer replied, every check's verdict, and what it cost."""

    number: int
    candidate: str | None = None
    reply: str | None = None  # the raw reply, kept when it was not a valid JSON object
    rule_checks: list[RuleVerdict] = field(default_factory=list)
    model_checks: list[ModelVerdict] | None = None
    note: str = ""  # why the model checks did not run
    problems: list[str] = field(default_factory=list)
    completions: list[Completion] = field(default_factory=list)
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        c = self.completions
        out: dict[str, Any] = {
            "attempt": self.number, "candidate": self.candidate, "reply": self.reply,
            "rule_checks": [v.to_dict() for v in self.rule_checks],
            "model_checks": None if self.model_checks is None else [v.to_dict() for v in self.model_checks],
            "passed": not self.problems, "problems": list(self.problems),
            "calls": len(c), "cache_hits": sum(x.cached for x in c),
            "prompt_tokens": sum(x.prompt_tokens for x in c), "completion_tokens": sum(x.completion_tokens for x in c),
            "cost": sum(x.cost for x in c), "http_requests": sum(x.http_requests for x in c),
            "http_status": [s for x in c for s in x.http_status],
        }
        if self.note:
            out["model_checks_note"] = self.note
        if self.error:
            out["error"] = self.error
        return out


@dataclass
class ContextAudit:
    """How one context of one instance was generated: every attempt, and the outcome."""

    instance: Instance
    context: str
    generator: str
    verifier: str | None
    previous: str | None = None
    attempts: list[Attempt] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    text: str | None = None

    @property
    def accepted(self) -> bool:
        return self.text is not None

    def to_dict(self) -> dict[str, Any]:
        inst, att = self.instance, [a.to_dict() for a in self.attempts]
        out: dict[str, Any] = {"instance": inst.id, "variation": inst.variation, "query": inst.query}
        if inst.provenance is not None:
            out.update(source=inst.provenance.source, line=inst.provenance.line)
        out.update({
            "context": self.context, "generator": self.generator, "verifier": self.verifier,
            "accepted": self.accepted, "text": self.text, "previous": self.previous,
            "kept_previous": not self.accepted and self.previous is not None,
            "attempts": att, "reasons": list(self.reasons),
        })
        for key in ("calls", "prompt_tokens", "completion_tokens", "cost"):
            out[key] = sum(a[key] for a in att)
        return out


@dataclass
class GenerateSummary:
    """What a generation run did: per context id, per outcome, per failed check, and per model."""

    generator: str = ""
    verifier: str | None = None
    instances: int = 0
    to_generate: Counter[str] = field(default_factory=Counter)
    filled: Counter[str] = field(default_factory=Counter)
    accepted: Counter[str] = field(default_factory=Counter)
    rejected: Counter[str] = field(default_factory=Counter)
    outcomes: Counter[str] = field(default_factory=Counter)  # per candidate
    failed_checks: Counter[str] = field(default_factory=Counter)
    calls: int = 0
    usage: dict[str, dict[str, Any]] = field(default_factory=dict)  # per model alias: Usage.to_dict()
    written: list[str] = field(default_factory=list)

    def add(self, audit: ContextAudit) -> None:
        self.to_generate[audit.context] += 1
        (self.accepted if audit.accepted else self.rejected)[audit.context] += 1
        for a in audit.attempts:
            self.calls += len(a.completions)
            if a.error:
                self.outcomes["LLM error"] += 1
            elif a.candidate is None:
                self.outcomes["invalid reply"] += 1
            elif not all(v.passed for v in a.rule_checks):
                self.outcomes["failed rule checks"] += 1
            elif a.model_checks is not None and not all(v.passed for v in a.model_checks):
                self.outcomes["failed model checks"] += 1
            else:
                self.outcomes["accepted"] += 1
            self.failed_checks.update(f"rule {v.check}" for v in a.rule_checks if not v.passed)
            self.failed_checks.update(f"model {v.check}" for v in a.model_checks or () if not v.passed)

    def lines(self) -> list[str]:
        verifier = f"verified by {self.verifier}" if self.verifier else "rule checks only, no verifier"
        out = [f"generate: {self.instances} instances, writer {self.generator}, {verifier}"]
        for cid in sorted(set(self.to_generate) | set(self.filled)):
            out.append(f"  context {cid}: {self.to_generate[cid]} to generate ({self.filled[cid]} already filled, "
                       f"left as they are): accepted {self.accepted[cid]}, rejected {self.rejected[cid]}")
        if self.outcomes:
            out.append(f"  candidates {sum(self.outcomes.values())}: "
                       + ", ".join(f"{k} {v}" for k, v in sorted(self.outcomes.items())))
        if self.failed_checks:
            out.append("  failed checks: " + ", ".join(f"{k} {v}" for k, v in sorted(self.failed_checks.items())))
        for alias, u in self.usage.items():
            out.append(f"  {alias}: {u['calls']} calls ({u['cache_hits']} from the cache, {u['failed']} failed), "
                       f"{u['http_requests']} HTTP requests ({u['retries']} retries), tokens {u['prompt_tokens']} "
                       f"prompt + {u['completion_tokens']} completion, cost {u['cost']:.4f}")
        accepted = sum(self.accepted.values())
        if self.calls:
            per = f"{self.calls / accepted:.1f}" if accepted else "n/a (none accepted)"
            out.append(f"  LLM calls per accepted context: {per}")
        return out + self.written


@dataclass
class Generation:
    """The instances with their generated contexts (input order), the audit, and the summary."""

    instances: list[Instance]
    audits: list[ContextAudit]
    summary: GenerateSummary

    def audit_records(self) -> list[dict[str, Any]]:
        """One record per generated context (see schemas/generation_audit.schema.json)."""
        return [a.to_dict() for a in self.audits]

    def reject_records(self) -> list[dict[str, Any]]:
        """One record per instance with a rejected context (see schemas/generation_rejects.schema.json)."""
        out: list[dict[str, Any]] = []
        by_instance: dict[int, dict[str, Any]] = {}
        for a in self.audits:
            if a.accepted:
                continue
            rec = by_instance.get(id(a.instance))
            if rec is None:
                full = a.to_dict()
                rec = {k: full[k] for k in ("instance", "variation", "query", "source", "line") if k in full}
                rec["rejected"] = []
                by_instance[id(a.instance)] = rec
                out.append(rec)
            rec["rejected"].append({"context": a.context, "reasons": list(a.reasons),
                                    "kept_previous": a.previous is not None})
        return out


def _layout() -> dict[str, dict[str, Any]]:
    return {c["id"]: c for c in load_converter_spec(LAYOUT_SPEC)["contexts"]}


def with_context(inst: Instance, cid: str, text: str, layout: dict[str, dict[str, Any]]) -> Instance:
    """A copy of ``inst`` with context ``cid`` set to ``text``, with the relations the layout declares."""
    decl = layout[cid]
    annotation = decl.get("annotation")
    if "annotation_from" in decl and decl["annotation_from"] in inst.contexts:
        annotation = inst.contexts[decl["annotation_from"]].annotation
    ctx = Context(cid, text, annotation, decl.get("answer"), tuple(decl.get("agrees", ())),
                  tuple(decl.get("contradicts", ())))
    merged = {**inst.contexts, cid: ctx}
    order = [i for i in layout if i in merged] + [i for i in merged if i not in layout]
    return dataclasses.replace(inst, contexts={i: merged[i] for i in order})


def context_task(inst: Instance, cid: str, layout: dict[str, dict[str, Any]]) -> ContextTask | str:
    """What context ``cid`` of ``inst`` must be, or why it cannot be generated."""
    c1, c2 = inst.contexts.get("1"), inst.contexts.get("2")
    if c1 is None or c2 is None or c1.answer not in inst.answers or c2.answer not in inst.answers:
        return f"cannot generate context {cid}: the instance needs contexts 1 and 2, each supporting an answer"
    agree = bool(layout[cid].get("agrees"))
    shown = ("1", "2") if agree else tuple(i for i in layout if i != cid and i in inst.contexts)
    return ContextTask(
        cid=cid, kind="agree" if agree else "neutral", query=inst.query,
        contexts={i: inst.contexts[i].text for i in shown},
        others={i: c.text for i, c in inst.contexts.items() if i != cid},
        answer1=inst.answers[c1.answer], answer2=inst.answers[c2.answer])  # type: ignore[index]


def _keep(current: Context | None, force: bool) -> bool:
    """A filled context is left as it is, unless regeneration is forced."""
    return current is not None and bool(current.text.strip()) and not force


class _Run:
    def __init__(self, writer: Writer, verifier: Verifier | None, attempts: int, force: bool):
        self.writer, self.verifier, self.attempts, self.force = writer, verifier, attempts, force
        self.layout = _layout()

    async def instance(self, inst: Instance) -> tuple[Instance, list[ContextAudit]]:
        audits = []
        for cid in GENERATED:
            current = inst.contexts.get(cid)
            if _keep(current, self.force):
                continue
            audit = ContextAudit(inst, cid, self.writer.name, self.verifier.name if self.verifier else None,
                                 previous=current.text if current is not None else None)
            task = context_task(inst, cid, self.layout)
            if isinstance(task, str):
                audit.reasons.append(task)
            else:
                await self.context(task, audit)
            if audit.text is not None:
                inst = with_context(inst, cid, audit.text, self.layout)
            audits.append(audit)
        return inst, audits

    async def context(self, task: ContextTask, audit: ContextAudit) -> None:
        history: list[Turn] = []
        for n in range(1, self.attempts + 1):
            attempt = Attempt(n)
            try:
                draft = await self.writer.write(task, history)
                if draft.exhausted:
                    audit.reasons += draft.problems
                    return
                attempt.completions += [draft.completion] if draft.completion else []
                attempt.candidate = draft.text
                if draft.text is None:
                    attempt.reply, attempt.problems, attempt.note = draft.reply, draft.problems, "invalid reply"
                else:
                    await self.check(task, draft.text, attempt)
            except LLMSetupError:
                raise
            except LLMError as e:
                attempt.error = str(e)
                attempt.problems.append(attempt.error)
            audit.attempts.append(attempt)
            audit.reasons += [f"attempt {n}: {p}" for p in attempt.problems]
            if not attempt.problems:
                audit.text = attempt.candidate
                return
            if attempt.error:
                return  # the endpoint failed after its own retries: another attempt would fare no better
            history.append(Turn(draft.reply, tuple(attempt.problems), draft.text is None))

    async def check(self, task: ContextTask, candidate: str, attempt: Attempt) -> None:
        attempt.rule_checks = task.rules(candidate)
        attempt.problems = [f"rule {v.check}: {v.reason}" for v in attempt.rule_checks if not v.passed]
        if attempt.problems:
            attempt.note = "not run: a rule check failed"
        elif self.verifier is None:
            attempt.note = "no verifier: rule checks only"
        else:
            verdicts, completions = await self.verifier.verify(task, candidate)
            attempt.model_checks, attempt.completions = verdicts, attempt.completions + completions
            attempt.problems = [describe(v) for v in verdicts if not v.passed]


async def _all_or_nothing(coros: Sequence[Awaitable[T]]) -> list[T]:
    """Await all; if one raises, cancel the rest and raise (a setup error stops the whole run)."""
    tasks = [asyncio.ensure_future(c) for c in coros]
    try:
        return list(await asyncio.gather(*tasks))
    except BaseException:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise


async def agenerate(instances: Sequence[Instance], writer: Writer, verifier: Verifier | None = None, *,
                    attempts: int = 3, force: bool = False, concurrency: int = 16,
                    on_progress: Progress | None = None) -> Generation:
    """Generate the missing contexts of every instance (all generated contexts with ``force``).

    Args:
        instances: Canonical instances; they are not modified.
        writer: Proposes candidates (:class:`~ragability_gen.generate.writers.LLMWriter` or ``RuleWriter``).
        verifier: Runs the model checks; None for rule checks only.
        attempts: Candidates per context at most (and replies per verdict).
        force: Regenerate contexts that are already filled; one that fails keeps its previous text.
        concurrency: Instances in progress at once (each model also bounds its own requests).
        on_progress: Called with (0, total) at the start, then with (instances done, total) as they finish.

    Raises:
        LLMSetupError: a model cannot be used at all (no key, refused credentials, unknown model).
    """
    run = _Run(writer, verifier, attempts, force)
    sem = asyncio.Semaphore(max(1, concurrency))
    done = 0

    async def one(inst: Instance) -> tuple[Instance, list[ContextAudit]]:
        nonlocal done
        async with sem:
            result = await run.instance(inst)
        done += 1
        if on_progress:
            on_progress(done, len(instances))
        return result

    if on_progress:
        on_progress(0, len(instances))
    results = await _all_or_nothing([one(i) for i in instances])
    summary = GenerateSummary(generator=writer.name, verifier=verifier.name if verifier else None,
                              instances=len(instances))
    audits = [a for _, found in results for a in found]
    for a in audits:
        summary.add(a)
    for inst in instances:
        for cid in GENERATED:
            if _keep(inst.contexts.get(cid), force):
                summary.filled[cid] += 1
    return Generation([inst for inst, _ in results], audits, summary)


# ------------------------------------------------------------------------------------------ files

RULES = "rules"
"""The ``--llm`` name of the offline rules writer."""

NO_VERIFIER = "none"
"""The ``--verifier`` name for rule checks only."""


def side_paths(output: str | Path, audit: str | Path | None = None,
               rejects: str | Path | None = None) -> tuple[Path, Path]:
    """The audit and rejects files: as given, else beside OUTPUT as ``<stem>.audit.jsonl``, ``<stem>.rejects.jsonl``."""
    return (Path(audit) if audit else beside(output, ".audit.jsonl"),
            Path(rejects) if rejects else beside(output, ".rejects.jsonl"))


def _check_distinct(*paths: Path) -> None:
    if len({p.resolve() for p in paths}) < len(paths):
        raise InputError(f"{paths[0]}: the output, audit and rejects files must be three different files "
                         f"(got {', '.join(map(str, paths))})")


def write_generation(gen: Generation, output: str | Path, audit: str | Path | None = None,
                     rejects: str | Path | None = None) -> tuple[int, int]:
    """Write the corpus (``.jsonl``: canonical instances, else a Ragability TSV), audit and rejects; all or none.

    Returns:
        The number of instances written, and of instances with a rejected context.
    """
    audit_path, rejects_path = side_paths(output, audit, rejects)
    _check_distinct(Path(output), audit_path, rejects_path)
    with staged_outputs(output, audit_path, rejects_path) as (out_tmp, audit_tmp, rejects_tmp):
        n = write_corpus(gen.instances, out_tmp)
        write_records(gen.audit_records(), audit_tmp, "jsonl")
        rejected = write_records(gen.reject_records(), rejects_tmp, "jsonl")
    return n, rejected


def generate_file(input_path: str | Path, output: str | Path, llm: str, *, verifier: str | None = None,
                  attempts: int = 3, force: bool = False, converter: str | Path | None = None,
                  audit: str | Path | None = None, rejects: str | Path | None = None,
                  config: str | Path | None = None, cache: str | Path | None = None, concurrency: int = 16,
                  on_progress: Progress | None = None, **settings: Any) -> tuple[ConvertSummary, GenerateSummary]:
    """Read a corpus, generate its missing contexts, write the corpus, the audit and the rejects report.

    Args:
        input_path: Any corpus ``read_instances`` reads.
        output: The corpus to write: ``.jsonl`` gets canonical instances, any other name a table in the input's columns.
        llm: The writer model (a config alias or ``provider/model``), or ``rules`` for the offline writer.
        verifier: The model for the model checks; default the writer model (none for ``rules``); ``none``
            for rule checks only.
        attempts: Candidates per context at most.
        force: Regenerate contexts that are already filled.
        converter: Converter spec for ``input_path`` (default: recognised).
        audit: Audit file (default ``<output stem>.audit.jsonl`` beside ``output``).
        rejects: Rejects report (default ``<output stem>.rejects.jsonl`` beside ``output``).
        config: LLM config file; ``settings`` (base_url, api_key_env, temperature, ...) apply to models
            named on the command line.
        cache: Response cache file; None for no cache.
        concurrency: Instances in progress at once, and requests in flight per model.
        on_progress: Called with (instances done, total).

    Raises:
        InputError: the corpus cannot be read, or two output paths are the same.
        LLMError: a model has no endpoint; LLMSetupError: a model cannot be used (no key, unknown model).
    """
    audit_path, rejects_path = side_paths(output, audit, rejects)
    _check_distinct(Path(output), audit_path, rejects_path)
    instances, read = read_instances(input_path, converter)
    vname = verifier or (NO_VERIFIER if llm == RULES else llm)
    names = [n for n in dict.fromkeys([llm, vname]) if n not in (RULES, NO_VERIFIER)]
    opened = open_llms(names, config, cache=cache, concurrency=concurrency, **settings) if names else []
    models = dict(zip(names, opened, strict=True))
    writer: Writer = RuleWriter() if llm == RULES else LLMWriter(models[llm])
    checker = None if vname == NO_VERIFIER else Verifier(models[vname], attempts)

    async def run() -> Generation:
        async with connected(opened):
            return await agenerate(instances, writer, checker, attempts=attempts, force=force,
                                   concurrency=concurrency, on_progress=on_progress)

    try:
        gen = asyncio.run(run())
    finally:
        if opened and opened[0].cache is not None:
            opened[0].cache.close()
    gen.summary.usage = {m.spec.alias: m.usage.to_dict() for m in opened}
    rows, rejected = write_generation(gen, output, audit_path, rejects_path)
    gen.summary.written = [f"wrote {rows} instances to {output}, {len(gen.audits)} audit records to {audit_path}, "
                           f"{rejected} instances with a rejected context to {rejects_path}"]
    return read, gen.summary
