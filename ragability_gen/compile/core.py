"""Stage: canonical instances -> test items in the ragability format, driven by a suite spec.

A suite spec lists variants (which contexts, in which order, with which prompt, for which task);
the expected outcome of each (instance, variant) follows from the declared relations and query
annotations by fixed rules (see ``expected_outcome``), and each outcome names the tags and checks
its items get. Everything suite-specific is data in ``checks/``.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragability_gen.compile.base import CompileSummary, SuiteBase
from ragability_gen.compile.base import prompts_path_for as prompts_path_for
from ragability_gen.core.fileio import member
from ragability_gen.core.model import Instance, SuiteItem
from ragability_gen.core.progress import Progress
from ragability_gen.core.specs import Spec, load_suite_spec
from ragability_gen.errors import SpecError

if TYPE_CHECKING:
    from ragability_gen.checkfuncs import CheckFunc

OUTCOME_RULES = """\
Task q (answer the query), for the contexts of the variant:
  no contexts                                         -> no_context
  no context answers the query (none supports an answer, or all are annotated qn)
                                                      -> noinfo
  two answering contexts are declared to contradict, or support different answers
                                                      -> conflict
  otherwise                                           -> answer (the answer the answering contexts support)
Task ic (do the passages contradict each other?):
  two contexts of the variant are declared to contradict -> ic_yes, else ic_no
A variant needing a context the instance does not have (not filled in yet) is skipped and counted."""

BASE_FIELDS = ("id", "variant", "variation", "query", "answer_id", "answer_short", "answer_long",
               "answers_short", "answers_long")


def expected_outcome(inst: Instance, ctx_ids: list[str], task: str) -> tuple[str, str | None]:
    """The expected outcome of asking ``task`` over the given contexts, and the expected answer id."""
    return _outcome(inst, ctx_ids, task, _has_contradiction(inst, ctx_ids))


def _has_contradiction(inst: Instance, ctx_ids: list[str]) -> bool:
    return any(inst.contradicting(a, b) for a, b in combinations(ctx_ids, 2))


def _outcome(inst: Instance, ctx_ids: list[str], task: str, contradiction: bool) -> tuple[str, str | None]:
    if task == "ic":
        return ("ic_yes" if contradiction else "ic_no"), None
    if not ctx_ids:
        return "no_context", None
    answering = [inst.contexts[c] for c in ctx_ids if inst.contexts[c].answers_query]
    if not answering:
        return "noinfo", None
    for a, b in combinations(answering, 2):
        if a.answer != b.answer or inst.contradicting(a.id, b.id):
            return "conflict", None
    return "answer", answering[0].answer


class Suite(SuiteBase):
    """A suite spec made ready to compile: prompts loaded, references checked, templates parsed."""

    lays_out = True

    def __init__(self, spec: Spec):
        super().__init__(spec)
        self.qid = spec["qid"]
        self.copy_metadata = spec.get("copy_metadata", True)
        self.single_fact_as_string = spec.get("single_fact_as_string", True)
        self._check_references()
        self._tag_cache: dict[tuple[Any, ...], str] = {}
        self._plan_cache: dict[tuple[Any, ...], list[_Plan]] = {}
        self._slots: list[_Plan] = []

    def _check_references(self) -> None:
        """Every name the spec uses must exist: prompts, outcomes, check functions, metrics, template fields."""
        where, pids = str(self.spec.path), self.pids
        problems = self.duplicate_variant_problems()
        check_sets: list[tuple[str, list[dict[str, Any]]]] = [
            (f"outcome {k}", o["checks"]) for k, o in self.spec["outcomes"].items()]
        for v in self.spec["variants"]:
            problems += self._variant_problems(where, v, pids)
            if "checks" in v:
                check_sets.append((f"variant {v['name']}", v["checks"]))
        for owner, checks in check_sets:
            for c in checks:
                problems += self._check_problems(f"{where}: {owner}, check {c['cid']}", c, pids)
        problems += [f"{where}: field qid: {p}" for p in _template_problems(self.qid)]
        if problems:
            raise SpecError(problems)

    def _variant_problems(self, where: str, v: dict[str, Any], pids: set[str]) -> list[str]:
        """Unknown prompt ids, and outcomes a variant without its own checks needs but the spec lacks."""
        problems = [f"{where}: variant {v['name']}: field pids: no prompt {pid!r} in {self.prompts_path.name}"
                    for pid in v["pids"] if pid not in pids]
        if "checks" not in v:
            needed = ("no_context", "noinfo", "conflict", "answer") if v["task"] == "q" else ("ic_yes", "ic_no")
            problems += [f"{where}: variant {v['name']}: no outcome {o!r} in outcomes"
                         for o in needed if o not in self.spec["outcomes"]]
        return problems

    def _check_problems(self, at: str, c: dict[str, Any], pids: set[str]) -> list[str]:
        """A check's unknown function, bad arguments, unknown prompt or metric, metric kind, template fields."""
        problems = []
        from ragability_gen.checkfuncs import CHECKS  # here: the registry loads every check module

        func = CHECKS.get(c["func"])
        if func is None:
            problems.append(f"{at}: field func: unknown check function {c['func']!r}")
        elif (bad := func.args_problem(c.get("args", []))) is not None:
            problems.append(f"{at}: field args: {bad}")
        if "pid" in c and c["pid"] not in pids:
            problems.append(f"{at}: field pid: no prompt {c['pid']!r}")
        metrics = self.spec["metrics"]
        for m in c["metrics"]:
            if m not in metrics:
                problems.append(f"{at}: field metrics: unknown metric {m!r}")
            elif func is not None and (bad := metric_kind_problem(m, metrics[m]["kind"], func)) is not None:
                problems.append(f"{at}: field metrics: {bad}")
        for key in ("query", "check_for"):
            problems += [f"{at}: field {key}: {p}" for p in _template_problems(c.get(key, ""))]
        return problems

    def _tags(self, inst: Instance, variant: dict[str, Any], outcome: str, contradiction: bool) -> str:
        ids = variant["contexts"]
        ann = tuple([inst.contexts[c].annotation for c in ids])
        key = (variant["name"], outcome, ann, inst.reasoning, inst.tags, contradiction)
        cached = self._tag_cache.get(key)
        if cached is None:
            tags = list(variant.get("tags", []))
            tags += self.spec["outcomes"].get(outcome, {}).get("tags", [])
            tags.append("ctx_" + ("+".join(ids) if ids else "none"))
            tags.append(f"task_{variant['task']}")
            tags.append("hint" if variant.get("hint") else "nohint")
            tags.append("contradiction_in_facts" if contradiction else "no_contradiction_in_facts")
            tags += [f"reasoning_{r}" for r in inst.reasoning]
            for cid, a in zip(ids, ann, strict=True):
                if a:
                    tags += [f"c{cid}xq_{a}", a]
            tags += inst.tags
            cached = ", ".join(dict.fromkeys(tags))
            self._tag_cache[key] = cached
        return cached

    def items(self, instances: Iterable[Instance], summary: CompileSummary | None = None,
              laid_out: bool = False) -> Iterator[SuiteItem]:
        """Yield the test items of every instance, variant by variant, lazily.

        With ``laid_out``, every value that is not a string is an encoded fragment (``fileio.member``),
        made once for what items share (a variant's pids and checks, an instance's passages), for
        ``write_records(..., laid_out=True)``: the same file at a fraction of the cost.
        """
        summary = summary if summary is not None else CompileSummary()
        qid, single = self.qid, self.single_fact_as_string
        counts: list[int] = []  # items per plan slot, added to the summary at the end
        try:
            for inst in instances:
                summary.instances += 1
                fields = _fields(inst)
                contexts, query, answers = inst.contexts, inst.query, inst.answers
                meta = inst.metadata if self.copy_metadata else {}
                extra: dict[str, Any] = {k: v for k, v in meta.items() if k not in _ITEM_KEYS}
                laid: dict[Any, Any] = {}  # with laid_out: this instance's passages and filled checks, encoded
                if laid_out:
                    extra = {k: member(v) for k, v in extra.items()}
                extra_no_facts = {k: v for k, v in extra.items() if k != "facts"}
                answer_now: str | None = None
                plans = self._plans(inst)
                if len(counts) < len(self._slots):
                    counts += [0] * (len(self._slots) - len(counts))
                for p in plans:
                    if p.skip is not None:
                        summary.skipped[(p.name, p.skip)] += 1
                        continue
                    fields["variant"] = p.name
                    if p.answer_id != answer_now:
                        answer_now = p.answer_id
                        if answer_now is not None:
                            answer = answers[answer_now]
                            fields.update(answer_id=answer_now, answer_short=answer.short, answer_long=answer.long)
                        else:
                            fields.update(answer_id="", answer_short="", answer_long="")
                    ids = p.ids
                    if laid_out:
                        pids, checks = p._laid or p.laid_out(fields, laid)
                    else:
                        pids = list(p.pids)
                        checks = [_fill_check(c, fields) if t else dict(c) for c, t in p.checks]
                    if not ids:
                        item: dict[str, Any] = {"qid": qid.format_map(fields), "tags": p.tags,
                                                "query": query if p.ask else "", "pids": pids, "checks": checks,
                                                **extra}
                    else:
                        if len(ids) == 1 and single:
                            facts: Any = contexts[ids[0]].text
                        elif laid_out:
                            facts = laid.get(key := tuple(ids))
                            if facts is None:
                                facts = laid[key] = member([contexts[c].text for c in ids])
                        else:
                            facts = [contexts[c].text for c in ids]
                        item = {"qid": qid.format_map(fields), "tags": p.tags, "facts": facts,
                                "query": query if p.ask else "", "pids": pids, "checks": checks, **extra_no_facts}
                    counts[p.slot] += 1
                    yield item  # type: ignore[misc]
        finally:
            for p, n in zip(self._slots, counts, strict=False):
                if n:
                    summary.per_variant[p.name] += n
                    summary.outcomes[p.outcome] += n
                    summary.items += n

    def _plans(self, inst: Instance) -> list[_Plan]:
        """What every variant makes of instances shaped like ``inst``, worked out once per shape.

        Outcome, tags and checks depend only on the contexts' ids, annotations, answers and relations,
        the reasoning types and the tags (the shape), and a corpus has few shapes: so the per-item work
        is filling in texts and templates.
        """
        key = (tuple([(c.id, c.annotation, c.answer, c.agrees, c.contradicts) for c in inst.contexts.values()]),
               tuple(inst.answers), inst.reasoning, inst.tags)
        plans = self._plan_cache.get(key)
        if plans is None:
            plans = self._plan_cache[key] = [self._plan(inst, v) for v in self.spec["variants"]]
            for p in plans:
                p.slot = len(self._slots)
                self._slots.append(p)
        return plans

    def _plan(self, inst: Instance, v: dict[str, Any]) -> _Plan:
        ids = list(v["contexts"])
        missing = [c for c in ids if c not in inst.contexts]
        if missing:
            return _Plan(v["name"], ids, f"context {', '.join(missing)} missing")
        contradiction = len(ids) > 1 and _has_contradiction(inst, ids)
        outcome, answer_id = _outcome(inst, ids, v["task"], contradiction)
        checks = v.get("checks") or self.spec["outcomes"][outcome]["checks"]
        return _Plan(v["name"], ids, None, outcome, answer_id, self._tags(inst, v, outcome, contradiction),
                     v["task"] == "q", list(v["pids"]),
                     [(c, any("{" in c.get(k, "") for k in ("query", "check_for"))) for c in checks])


_ITEM_KEYS = frozenset(("qid", "tags", "query", "pids", "checks"))  # metadata never overrides these (nor facts)


@dataclass
class _Plan:
    """One variant for one shape of instance: skipped (and why), or its outcome, tags, pids and checks."""

    name: str
    ids: list[str]
    skip: str | None
    outcome: str = ""
    answer_id: str | None = None
    tags: str = ""
    ask: bool = True  # task q: the item carries the query
    pids: list[str] = field(default_factory=list)
    checks: list[tuple[dict[str, Any], bool]] = field(default_factory=list)  # (check, has templates)
    slot: int = -1  # its place in Suite._slots, where items() counts the items made from it
    _laid: tuple[Any, Any] | None = None  # pids and checks encoded, when no check has templates
    _pids: Any = None  # pids encoded
    _key: tuple[Any, ...] = ()  # its checks (ids of the spec's dicts) and the template fields they use

    def laid_out(self, fields: dict[str, Any], laid: dict[Any, Any]) -> tuple[Any, Any]:
        """Pids and checks as encoded fragments: once per plan, or once per value of the fields its templates use."""
        if self._laid is not None:
            return self._laid
        if self._pids is None:
            self._pids = member(list(self.pids))
            names = {name for c, t in self.checks if t for key in ("query", "check_for")
                     for _, name, _, _ in string.Formatter().parse(c.get(key, "")) if name is not None}
            self._key = (*[id(c) for c, _ in self.checks], *sorted(names))
            if not names:
                self._laid = (self._pids, member([c for c, _ in self.checks]))
                return self._laid
        key = (*self._key, *[fields.get(n) for n in self._key if type(n) is str])
        found = laid.get(key)  # plans with the same checks share them: per instance, once per answer
        if found is None:
            found = laid[key] = member([_fill_check(c, fields) if t else c for c, t in self.checks])
        return self._pids, found


def metric_kind_problem(metric: str, kind: str, func: CheckFunc) -> str | None:
    """Why a metric of ``kind`` cannot count the results of check function ``func``, or None.

    A binary metric is a share of "1" results, a multiclass one a share per label, a score one a
    mean: results of another kind would be miscounted (or refused by eval only after a paid run).
    """
    if func.kind == kind:
        return None
    return f"metric {metric!r} is {kind} but check function {func.name!r} gives {func.kind} results"


def _fields(inst: Instance) -> dict[str, Any]:
    f: dict[str, Any] = {
        "id": inst.id, "variation": inst.variation, "query": inst.query,
        "answer_id": "", "answer_short": "", "answer_long": "",
        "answers_short": " | ".join(a.short for a in inst.answers.values()),
        "answers_long": " | ".join(a.long for a in inst.answers.values()),
    }
    for aid, a in inst.answers.items():
        f[f"answer{aid}_short"] = a.short
        f[f"answer{aid}_long"] = a.long
    return f


def _template_problems(template: str) -> list[str]:
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError as e:
        return [f"bad template {template!r}: {e} (write literal braces as {{{{ and }}}})"]
    out = []
    for _lit, name, _spec, _conv in parsed:
        if name is None:
            continue
        ok = name in BASE_FIELDS or (
            name.startswith("answer") and name.endswith(("_short", "_long")))
        if not ok:
            out.append(f"unknown template field {{{name}}} (known: {', '.join(BASE_FIELDS)}, "
                       "answer<ID>_short, answer<ID>_long)")
    return out


def _fill_check(check: dict[str, Any], fields: dict[str, Any]) -> dict[str, Any]:
    out = dict(check)
    for key in ("query", "check_for"):
        text = out.get(key)
        if text and "{" in text:
            try:
                out[key] = text.format_map(fields)
            except KeyError as e:
                raise SpecError(f"check {check['cid']}: field {key}: instance {fields['id']} has no "
                                f"{e.args[0]}") from None
    return out


def compile_suite(instances: Iterable[Instance], output: str | Path, suite: str | Path | Spec = "ragability",
                  fmt: str | None = None, prompts_output: str | Path | None = None,
                  on_progress: Progress | None = None) -> tuple[CompileSummary, Path]:
    """Write the test suite for ``instances`` and the prompt file it needs.

    Both files are written to temporary names and renamed only when complete. ``on_progress`` gets
    events of stage "compile" (see ``SuiteBase.compile``).

    Returns:
        The summary and the path of the prompt file written.
    """
    spec = suite if isinstance(suite, Spec) else load_suite_spec(suite)
    if spec.get("kind") == "ranking":  # passage-ranking suites have their own compiler
        from ragability_gen.compile.ranking import RankingSuite
        return RankingSuite(spec).compile(instances, output, fmt, prompts_output, on_progress)
    return Suite(spec).compile(instances, output, fmt, prompts_output, on_progress)
