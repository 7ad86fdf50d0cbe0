"""Stage: fill in the contexts a converter spec lets a corpus leave empty, each checked before accepted.

Which contexts to fill, and what each must be (the answer it gives, the contexts it agrees with or
contradicts), come from the converter spec's declarations (:mod:`.tasks`), so generated instances compile
with the suite like hand-written ones, whatever the context ids. A writer (a model, or a registered
offline writer such as ``rules``) proposes a candidate; rule checks (``textrules``), the recognisability
check (``distinct``) and then the verifier's model checks judge it; a rejected candidate is retried with
the reasons, up to ``attempts`` times. Every attempt is kept for the audit.

Instances run concurrently; results keep input order and depend only on the replies. The
recognisability check compares a candidate with the same context of every other row, so it runs in
rounds: first against the texts the corpus already has, then over the whole output, where the later of
two rows sharing a template is sent back to its writer.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from ragability_gen.convert.core import ConvertSummary, guess_converter_spec, read_instances, write_corpus
from ragability_gen.core.fileio import beside, staged_outputs, write_records
from ragability_gen.core.model import Context, Instance
from ragability_gen.core.progress import Progress, emit
from ragability_gen.core.specs import Spec, load_converter_spec, load_suite_spec
from ragability_gen.errors import InputError, LLMError, LLMSetupError, RagabilityGenError
from ragability_gen.generate import rulewriter  # noqa: F401  (registers the offline writers)
from ragability_gen.generate.audit import Attempt, ContextAudit, Distinctness, GenerateSummary, Generation
from ragability_gen.generate.distinct import TemplateIndex, shaped
from ragability_gen.generate.tasks import ContextTask, Layout, context_task, layout_of, with_context
from ragability_gen.generate.textrules import RuleVerdict
from ragability_gen.generate.verifier import Verifier, describe
from ragability_gen.generate.writers import Turn, Writer, needs_model, open_writer
from ragability_gen.llm.client import connected
from ragability_gen.llm.config import open_llms

DEFAULT_LAYOUT = "ragability-v0.4"
"""The converter spec whose context declarations apply when the input's own spec declares none."""

T = TypeVar("T")


class GenerationShortfall(RagabilityGenError):
    """Fewer contexts were accepted than asked for; the files are written and say which rows."""

    def __init__(self, line: str, summary: GenerateSummary, read: ConvertSummary | None = None):
        super().__init__(line)
        self.summary, self.read = summary, read

    def lines(self) -> list[str]:
        """The summary lines of the run (what was read, then what was generated)."""
        return (self.read.lines() if self.read is not None else []) + self.summary.lines()


def _keep(current: Context | None, force: bool) -> bool:
    """A filled context is left as it is, unless regeneration is forced."""
    return current is not None and bool(current.text.strip()) and not force


class _Run:
    def __init__(self, writer: Writer, verifier: Verifier | None, attempts: int, force: bool, layout: Layout):
        self.writer, self.verifier, self.attempts, self.force = writer, verifier, attempts, force
        self.layout = layout
        self.taken: dict[str, TemplateIndex] = {}  # per context id: the texts a candidate must not resemble

    async def instance(self, inst: Instance) -> tuple[Instance, list[ContextAudit]]:
        audits = []
        for cid in self.layout.fillable:
            current = inst.contexts.get(cid)
            if _keep(current, self.force):
                continue
            audit = ContextAudit(inst, cid, self.writer.name, self.verifier.name if self.verifier else None,
                                 previous=current.text if current is not None else None)
            task = context_task(inst, cid, self.layout)
            if isinstance(task, str):
                audit.reasons.append(task)
                audit.possible = False
            else:
                await self.context(task, audit, inst, [])
            if audit.text is not None:
                inst = with_context(inst, cid, audit.text, self.layout)
            audits.append(audit)
        return inst, audits

    async def context(self, task: ContextTask, audit: ContextAudit, inst: Instance, history: list[Turn]) -> None:
        """Ask for candidates until one passes or the attempts are used up; ``history`` holds earlier turns."""
        while len(audit.attempts) < self.attempts:
            n = len(audit.attempts) + 1
            attempt = Attempt(n)
            try:
                draft = await self.writer.write(task, history)
                if draft.exhausted:
                    audit.reasons += draft.problems
                    return
                attempt.completions += [draft.completion] if draft.completion else []
                attempt.candidate, attempt.raw = draft.text, draft.reply
                if draft.text is None:
                    attempt.reply, attempt.problems, attempt.note = draft.reply, draft.problems, "invalid reply"
                else:
                    await self.check(task, inst, draft.text, attempt)
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

    async def check(self, task: ContextTask, inst: Instance, candidate: str, attempt: Attempt) -> None:
        attempt.rule_checks = task.rules(candidate)
        taken = self.taken.get(task.cid)
        clash = taken.clash(shaped(inst, task.cid, candidate)) if taken is not None else None
        attempt.rule_checks.append(RuleVerdict("distinct_template", clash is None, clash or ""))
        attempt.problems = [f"rule {v.check}: {v.reason}" for v in attempt.rule_checks if not v.passed]
        if attempt.problems:
            attempt.note = "not run: a rule check failed"
        elif self.verifier is None:
            attempt.note = "no verifier: rule checks only"
        else:
            verdicts, completions = await self.verifier.verify(task, candidate)
            attempt.model_checks, attempt.completions = verdicts, attempt.completions + completions
            attempt.problems = [describe(v) for v in verdicts if not v.passed]


def _clashes(run: _Run, results: list[tuple[Instance, list[ContextAudit]]]) -> list[tuple[int, ContextAudit, str]]:
    """Accepted contexts that share a template with an earlier row's text (input order), with the reason.

    Also resets ``run.taken`` to the texts that stay: every kept text, and every generated one not flagged.
    """
    flagged: list[tuple[int, ContextAudit, str]] = []
    run.taken = {}
    for i, (inst, audits) in enumerate(results):
        generated = {a.context: a for a in audits if a.accepted}
        for cid in run.layout.fillable:
            ctx = inst.contexts.get(cid)
            if ctx is None:
                continue
            shape = shaped(inst, cid, ctx.text)
            audit = generated.get(cid)
            taken = run.taken.setdefault(cid, TemplateIndex())
            reason = taken.clash(shape) if audit is not None else None
            if audit is not None and reason is not None:
                flagged.append((i, audit, reason))
            else:
                taken.add(shape)
    return flagged


async def _redo(run: _Run, inst: Instance, audit: ContextAudit, reason: str) -> Instance:
    """Reject an accepted context for sharing a template, and ask its writer again with the reason."""
    last = audit.attempts[-1]
    problem = f"rule distinct_template: {reason}"
    last.rule_checks = [v for v in last.rule_checks if v.check != "distinct_template"]
    last.rule_checks.append(RuleVerdict("distinct_template", False, reason))
    last.problems.append(problem)
    audit.reasons.append(f"attempt {last.number}: {problem}")
    history = [Turn(a.raw, tuple(a.problems), a.candidate is None) for a in audit.attempts]
    audit.text = None
    contexts = {k: v for k, v in inst.contexts.items() if k != audit.context}
    if audit.previous is not None:
        old = inst.contexts[audit.context]
        contexts[audit.context] = Context(old.id, audit.previous, old.annotation, old.answer, old.agrees,
                                          old.contradicts)
    base = dataclasses.replace(inst, contexts=contexts)
    task = context_task(base, audit.context, run.layout)
    if isinstance(task, str):  # cannot happen: the relations held a moment ago
        audit.reasons.append(task)
        return base
    await run.context(task, audit, base, history)
    return with_context(base, audit.context, audit.text, run.layout) if audit.text is not None else base


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


def _distinctness(run: _Run, results: list[tuple[Instance, list[ContextAudit]]]) -> list[Distinctness]:
    out = []
    for cid in run.layout.fillable:
        generated = [shaped(inst, cid, inst.contexts[cid].text) for inst, audits in results
                     for a in audits if a.context == cid and a.accepted]
        if not generated:
            continue
        index = TemplateIndex(shaped(inst, cid, inst.contexts[cid].text) for inst, _ in results if cid in inst.contexts)
        near = [index.closest(g) for g in generated]
        distinct = sum(index.clash(g) is None for g in generated)
        out.append(Distinctness(cid, len(generated), distinct, sum(near) / len(near), max(near)))
    return out


async def agenerate(instances: Sequence[Instance], writer: Writer, verifier: Verifier | None = None, *,
                    layout: Layout | None = None, attempts: int | None = None, force: bool = False,
                    concurrency: int = 16, on_progress: Progress | None = None) -> Generation:
    """Generate the missing contexts of every instance (all fillable contexts with ``force``).

    Args:
        instances: Canonical instances; they are not modified.
        writer: Proposes candidates (a registered offline writer, or ``LLMWriter``).
        verifier: Runs the model checks; None for rule checks only.
        layout: Which contexts to fill and their relations (default: the Ragability v0.4 converter spec's).
        attempts: Candidates per context at most (and replies per verdict); default the writer's own
            ``attempts`` if it has one, else 3.
        force: Regenerate contexts that are already filled; one that fails keeps its previous text.
        concurrency: Instances in progress at once (each model also bounds its own requests).
        on_progress: Gets a ``ProgressEvent`` of stage "generate": (0, total) at the start, then (instances done,
            total) as they finish.

    Raises:
        LLMSetupError: a model cannot be used at all (no key, refused credentials, unknown model).
    """
    layout = layout or layout_of(load_converter_spec(DEFAULT_LAYOUT))
    tries = attempts if attempts is not None else int(getattr(writer, "attempts", 3))
    run = _Run(writer, verifier, tries, force, layout)
    for inst in instances:  # texts that stay as they are: no candidate may share their template
        for cid in layout.fillable:
            if _keep(inst.contexts.get(cid), force):
                run.taken.setdefault(cid, TemplateIndex()).add(shaped(inst, cid, inst.contexts[cid].text))
    sem = asyncio.Semaphore(max(1, concurrency))
    done = 0

    async def one(inst: Instance) -> tuple[Instance, list[ContextAudit]]:
        nonlocal done
        async with sem:
            result = await run.instance(inst)
        done += 1
        emit(on_progress, "generate", done, len(instances))
        return result

    async def again(i: int, audit: ContextAudit, reason: str) -> None:
        async with sem:
            results[i] = (await _redo(run, results[i][0], audit, reason), results[i][1])

    emit(on_progress, "generate", 0, len(instances))
    results = await _all_or_nothing([one(i) for i in instances])
    while flagged := _clashes(run, results):
        # One context per row per round, so a row's contexts are redone in order.
        firsts = list({i: (i, a, r) for i, a, r in reversed(flagged)}.values())
        await _all_or_nothing([again(i, a, r) for i, a, r in sorted(firsts, key=lambda f: f[0])])
    summary = GenerateSummary(generator=writer.name, verifier=verifier.name if verifier else None,
                              layout=layout.spec, instances=len(instances))
    audits = [a for _, found in results for a in found]
    for a in audits:
        summary.add(a)
    for inst in instances:
        for cid in layout.fillable:
            if _keep(inst.contexts.get(cid), force):
                summary.filled[cid] += 1
    summary.distinctness = _distinctness(run, results)
    return Generation([inst for inst, _ in results], audits, summary)


# ------------------------------------------------------------------------------------------ files

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
        The number of instances written, and of instances with a context not accepted.
    """
    audit_path, rejects_path = side_paths(output, audit, rejects)
    _check_distinct(Path(output), audit_path, rejects_path)
    with staged_outputs(output, audit_path, rejects_path) as (out_tmp, audit_tmp, rejects_tmp):
        n = write_corpus(gen.instances, out_tmp)
        write_records(gen.audit_records(), audit_tmp, "jsonl")
        rejected = write_records(gen.reject_records(), rejects_tmp, "jsonl")
    return n, rejected


def skipped_variants(suite: str | Path, cid: str) -> list[str]:
    """The variants of a suite spec that need context ``cid`` (skipped for a row without it)."""
    return [v["name"] for v in load_suite_spec(suite)["variants"] if cid in v["contexts"]]


def _layout_for(spec: Spec, layout: str | Path | None) -> Layout:
    if layout is not None:
        return layout_of(load_converter_spec(layout))
    return layout_of(spec if "contexts" in spec.data else load_converter_spec(DEFAULT_LAYOUT))


def generate_file(input_path: str | Path, output: str | Path, llm: str, *, verifier: str | None = None,
                  attempts: int | None = None, force: bool = False, converter: str | Path | None = None,
                  layout: str | Path | None = None, suite: str | Path | None = None, allow_partial: bool = False,
                  audit: str | Path | None = None, rejects: str | Path | None = None,
                  config: str | Path | None = None, cache: str | Path | None = None, concurrency: int = 16,
                  on_progress: Progress | None = None, **settings: Any) -> tuple[ConvertSummary, GenerateSummary]:
    """Read a corpus, generate its missing contexts, write the corpus, the audit and the rejects report.

    Args:
        input_path: Any corpus ``read_instances`` reads.
        output: The corpus to write: ``.jsonl`` gets canonical instances, any other name a table in the input's columns.
        llm: The writer: a registered offline writer (``rules``), else a model (a config alias or
            ``provider/model``).
        verifier: The model for the model checks; default the writer model (none for an offline writer);
            ``none`` for rule checks only.
        attempts: Candidates per context at most (default: the writer's own ``attempts``, 12 for ``rules``;
            else 3).
        force: Regenerate contexts that are already filled.
        converter: Converter spec for ``input_path`` (default: recognised).
        layout: Converter spec whose declarations say which contexts to fill and their relations
            (default: the input's converter spec when it declares contexts, else ragability-v0.4).
        suite: Suite spec whose variants are named as skipped for contexts that cannot be generated
            (default: the converter spec's default suite, else ragability).
        allow_partial: Return normally when fewer contexts were accepted than asked for.
        audit: Audit file (default ``<output stem>.audit.jsonl`` beside ``output``).
        rejects: Rejects report (default ``<output stem>.rejects.jsonl`` beside ``output``).
        config: LLM config file; ``settings`` (base_url, api_key_env, temperature, ...) apply to models
            named on the command line.
        cache: Response cache file; None for no cache.
        concurrency: Instances in progress at once, and requests in flight per model.
        on_progress: Gets a ``ProgressEvent`` of stage "generate" as instances finish (see ``agenerate``).

    Raises:
        InputError: the corpus cannot be read, or two output paths are the same.
        SpecError: the layout declares no context that may be empty.
        LLMError: a model has no endpoint; LLMSetupError: a model cannot be used (no key, unknown model).
        GenerationShortfall: fewer contexts accepted than asked for (files written), unless ``allow_partial``.
    """
    audit_path, rejects_path = side_paths(output, audit, rejects)
    _check_distinct(Path(output), audit_path, rejects_path)
    spec = load_converter_spec(converter) if converter is not None else guess_converter_spec(input_path)
    instances, read = read_instances(input_path, spec)
    plan = _layout_for(spec, layout)
    vname = verifier or (llm if needs_model(llm) else NO_VERIFIER)
    if vname != NO_VERIFIER and not needs_model(vname):
        raise InputError(f"verifier {vname!r}: an offline writer cannot judge candidates; name a model, or "
                         f"{NO_VERIFIER!r} for rule checks only")
    names = [n for n in dict.fromkeys([llm, vname]) if n != NO_VERIFIER and needs_model(n)]
    opened = open_llms(names, config, cache=cache, concurrency=concurrency, **settings) if names else []
    models = dict(zip(names, opened, strict=True))
    writer = open_writer(llm, models)
    checker = None if vname == NO_VERIFIER else Verifier(models[vname], attempts or 3)

    async def run() -> Generation:
        async with connected(opened):
            return await agenerate(instances, writer, checker, layout=plan, attempts=attempts, force=force,
                                   concurrency=concurrency, on_progress=on_progress)

    try:
        gen = asyncio.run(run())
    finally:
        if opened and opened[0].cache is not None:
            opened[0].cache.close()
    suite_name = suite or read.default_suite or "ragability"
    for a in gen.audits:
        if not a.possible:
            a.skipped_variants = skipped_variants(suite_name, a.context)
            gen.summary.skipped_variants[a.context] = a.skipped_variants
    gen.summary.usage = {m.spec.alias: m.usage.to_dict() for m in opened}
    rows, rejected = write_generation(gen, output, audit_path, rejects_path)
    gen.summary.written = [f"wrote {rows} instances to {output}, {len(gen.audits)} audit records to {audit_path}, "
                           f"{rejected} instances with a context not generated to {rejects_path}"]
    short = gen.summary.shortfall()
    if short is not None and not allow_partial:
        raise GenerationShortfall(f"{input_path}: {short}; --allow-partial accepts this", gen.summary, read)
    return read, gen.summary
