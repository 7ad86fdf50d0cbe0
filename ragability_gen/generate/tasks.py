"""What a generated context must be, read from the relations a converter spec declares.

A converter spec declares every context of an instance: the answer it supports, the contexts it agrees
with or contradicts, its relation to the query. The contexts it marks ``required: false`` are the ones
a corpus may leave empty, and so the ones ``generate`` fills. Nothing here knows context ids: a spec
whose contexts are ``a``/``b``/``c``/``d`` is served like the Ragability ``1``/``2``/``3``/``4``.

A declared relation that cannot hold for an instance (a context must contradict one that gives no
answer; it must carry an answer that is "not stated") makes the context impossible: it is not generated,
and the reason is reported instead.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ragability_gen.core.model import Answer, Context, Instance
from ragability_gen.core.specs import Spec
from ragability_gen.errors import SpecError
from ragability_gen.generate.textrules import NO_FACT_ANSWERS, RuleVerdict, normalise, rule_checks


@dataclass(frozen=True)
class Declared:
    """One context as a converter spec declares it."""

    id: str
    required: bool
    answer: str | None = None
    agrees: tuple[str, ...] = ()
    contradicts: tuple[str, ...] = ()
    annotation: str | None = None
    annotation_from: str | None = None


@dataclass(frozen=True)
class Layout:
    """The declared contexts of a converter spec, in declaration order, and which of them generate fills."""

    spec: str
    contexts: dict[str, Declared]

    @property
    def fillable(self) -> tuple[str, ...]:
        """The optional contexts, in declaration order: a context may relate only to those before it."""
        return tuple(c.id for c in self.contexts.values() if not c.required)


def layout_of(spec: Spec) -> Layout:
    """The context declarations of a table converter spec.

    Raises:
        SpecError: the spec declares no contexts (it is not a table spec) or none that may be empty.
    """
    if "contexts" not in spec.data:
        raise SpecError(f"{spec.path}: converter spec {spec.name!r} declares no contexts, so it cannot say which "
                        "contexts to generate (give --layout with a table converter spec)")
    contexts = {c["id"]: Declared(c["id"], bool(c.get("required", False)), c.get("answer"),
                                  tuple(c.get("agrees", ())), tuple(c.get("contradicts", ())),
                                  c.get("annotation"), c.get("annotation_from"))
                for c in spec["contexts"]}
    layout = Layout(spec.name, contexts)
    if not layout.fillable:
        raise SpecError(f"{spec.path}: field contexts: no context has required: false, so there is nothing to "
                        "generate")
    return layout


@dataclass(frozen=True)
class ContextTask:
    """What one generated context must be.

    Attributes:
        cid: The id of the context to write.
        query: The instance's question.
        contexts: The contexts the new one relates to, by id (shown to the writer and the verifier).
        others: Every other context of the instance, by id: the new one must copy none of them.
        agrees: Ids of contexts it must agree with.
        contradicts: Ids of contexts it must contradict.
        carries: The answer it must give (its declared answer), by id; None for a neutral context.
        avoids: Answers it must not contain, by id: those of the contexts it contradicts, and for a
            neutral context every answer.
        answers: Every answer of the instance, by id: the material the rules writer may use.
        context_answers: The answer each shown context supports, by context id.
        instance: The instance id, so the recognisability check can tell rows apart.
    """

    cid: str
    query: str
    contexts: dict[str, str]
    others: dict[str, str]
    agrees: tuple[str, ...]
    contradicts: tuple[str, ...]
    carries: tuple[str, Answer] | None
    avoids: dict[str, Answer]
    answers: dict[str, Answer]
    context_answers: dict[str, Answer]
    instance: str = ""

    @property
    def kind(self) -> str:
        """Either "agree" (the context gives an answer) or "neutral" (background that answers nothing)."""
        return "neutral" if self.carries is None else "agree"

    def rules(self, candidate: str) -> list[RuleVerdict]:
        """The rule checks for this context (see :func:`textrules.rule_checks`)."""
        carries = {self.carries[0]: self.carries[1].short} if self.carries else {}
        avoids = {aid: a.short for aid, a in self.avoids.items()}
        return rule_checks(candidate, self.others, carries=carries, avoids=avoids, query=self.query)


def gives_fact(answer: Answer | None) -> bool:
    """False for a missing answer and for one saying there is none ("not stated", "unknown", ...)."""
    return answer is not None and normalise(answer.short) not in NO_FACT_ANSWERS and bool(answer.short.strip())


def _states_answer(inst: Instance, ctx: Context) -> bool:
    return ctx.answer is not None and ctx.annotation != "qn" and gives_fact(inst.answers.get(ctx.answer))


def annotation_for(inst: Instance, decl: Declared) -> str | None:
    """The annotation a generated context gets: fixed, or taken from the context the spec names."""
    if decl.annotation_from is not None and decl.annotation_from in inst.contexts:
        return inst.contexts[decl.annotation_from].annotation
    return decl.annotation


def context_task(inst: Instance, cid: str, layout: Layout) -> ContextTask | str:
    """What context ``cid`` of ``inst`` must be, or why no text can meet its declared relations."""
    decl = layout.contexts[cid]
    for rel, ids in (("agree with", decl.agrees), ("contradict", decl.contradicts)):
        for other in ids:
            if other not in inst.contexts:
                return f"context {cid} must {rel} context {other}, which the instance does not have"
    for other in decl.contradicts:
        ctx = inst.contexts[other]
        if not _states_answer(inst, ctx):
            shown = inst.answers[ctx.answer].short if ctx.answer in inst.answers else None
            what = f"annotation {ctx.annotation}" if ctx.annotation == "qn" else "no annotation"
            what += f", answer {shown!r}" if shown is not None else ", no answer"
            return (f"context {cid} must contradict context {other}, but context {other} gives no answer to the "
                    f"query ({what}): nothing can contradict it")
    carries: tuple[str, Answer] | None = None
    if decl.answer is not None:
        answer = inst.answers.get(decl.answer)
        if annotation_for(inst, decl) == "qn" or not gives_fact(answer):
            shown = repr(answer.short) if answer is not None else "missing"
            return (f"context {cid} must give answer {decl.answer}, but answer {decl.answer} is {shown} "
                    f"(annotation {annotation_for(inst, decl) or 'none'}): there is no fact to state")
        assert answer is not None
        carries = (decl.answer, answer)
        for other in decl.contradicts:
            theirs = inst.answers.get(inst.contexts[other].answer or "")
            if theirs is not None and normalise(theirs.short) == normalise(answer.short):
                return (f"context {cid} must give answer {decl.answer} and contradict context {other}, "
                        f"which gives the same answer ({answer.short!r})")
    avoids: dict[str, Answer] = {}
    if carries is None:
        avoids = {aid: a for aid, a in inst.answers.items() if gives_fact(a)}
    else:
        for other in decl.contradicts:
            aid = inst.contexts[other].answer
            if aid is not None and aid != carries[0]:
                avoids[aid] = inst.answers[aid]
    related = (*decl.agrees, *decl.contradicts)
    order = list(layout.contexts) + [i for i in inst.contexts if i not in layout.contexts]
    related_ids = related if carries is not None and related else tuple(
        i for i in order if i != cid and i in inst.contexts)
    context_answers = {i: inst.answers[a] for i in related_ids
                       if (a := inst.contexts[i].answer) is not None and a in inst.answers}
    return ContextTask(
        cid=cid, query=inst.query, contexts={i: inst.contexts[i].text for i in related_ids},
        others={i: c.text for i, c in inst.contexts.items() if i != cid},
        agrees=decl.agrees, contradicts=decl.contradicts, carries=carries, avoids=avoids,
        answers=dict(inst.answers), context_answers=context_answers, instance=inst.id)


def with_context(inst: Instance, cid: str, text: str, layout: Layout) -> Instance:
    """A copy of ``inst`` with context ``cid`` set to ``text``, with the relations the layout declares."""
    decl = layout.contexts[cid]
    ctx = Context(cid, text, annotation_for(inst, decl), decl.answer, decl.agrees, decl.contradicts)
    merged = {**inst.contexts, cid: ctx}
    order = [i for i in layout.contexts if i in merged] + [i for i in merged if i not in layout.contexts]
    return dataclasses.replace(inst, contexts={i: merged[i] for i in order})

