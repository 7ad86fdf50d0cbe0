"""The records of a generation run: every attempt of every context, the outcome, and the summary.

The audit keeps each candidate with the verdict of every rule and model check, so a reader can see
why a context was accepted or not; the summary counts the same things and says, in one line, when
fewer contexts were accepted than asked for.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ragability_gen.core.model import Instance
from ragability_gen.generate.textrules import RuleVerdict
from ragability_gen.generate.verifier import ModelVerdict
from ragability_gen.llm.client import Completion, usage_line

SHOWN_ROWS = 10
"""Rows listed by name in a summary line; the rest are counted."""


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
    raw: str = field(default="", repr=False)  # the writer's reply, sent back on a retry

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
    """How one context of one instance was generated: every attempt, and the outcome.

    ``possible`` is False when no text can meet the context's declared relations for this instance;
    the first reason says why, and no candidate was asked for.
    """

    instance: Instance
    context: str
    generator: str
    verifier: str | None
    previous: str | None = None
    attempts: list[Attempt] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    text: str | None = None
    possible: bool = True
    skipped_variants: list[str] = field(default_factory=list)

    @property
    def accepted(self) -> bool:
        return self.text is not None

    def where(self) -> str:
        """The row as a summary names it: instance id, and the query number when the id has several."""
        inst = self.instance
        return inst.id if inst.variation == 1 else f"{inst.id} (query {inst.variation})"

    def to_dict(self) -> dict[str, Any]:
        inst, att = self.instance, [a.to_dict() for a in self.attempts]
        out: dict[str, Any] = {"instance": inst.id, "variation": inst.variation, "query": inst.query}
        if inst.provenance is not None:
            out.update(source=inst.provenance.source, line=inst.provenance.line)
        out.update({
            "context": self.context, "generator": self.generator, "verifier": self.verifier,
            "accepted": self.accepted, "text": self.text, "previous": self.previous,
            "kept_previous": not self.accepted and self.previous is not None, "possible": self.possible,
            "attempts": att, "reasons": list(self.reasons),
        })
        for key in ("calls", "prompt_tokens", "completion_tokens", "cost"):
            out[key] = sum(a[key] for a in att)
        return out


@dataclass(frozen=True)
class Distinctness:
    """How recognisable one context's texts are across rows: rows whose sentence skeleton no other row shares."""

    context: str
    generated: int
    distinct: int
    mean_overlap: float
    max_overlap: float

    def line(self) -> str:
        return (f"  distinctness context {self.context}: {self.distinct} of {self.generated} generated texts have a "
                f"sentence skeleton no other row shares (3-gram overlap with the closest other row: "
                f"mean {self.mean_overlap:.2f}, max {self.max_overlap:.2f})")


def _rows(names: list[str]) -> str:
    shown = ", ".join(names[:SHOWN_ROWS])
    return shown + (f" and {len(names) - SHOWN_ROWS} more" if len(names) > SHOWN_ROWS else "")


@dataclass
class GenerateSummary:
    """What a generation run did: per context id, per outcome, per failed check, and per model."""

    generator: str = ""
    verifier: str | None = None
    layout: str = ""
    instances: int = 0
    to_generate: Counter[str] = field(default_factory=Counter)
    filled: Counter[str] = field(default_factory=Counter)
    accepted: Counter[str] = field(default_factory=Counter)
    rejected: Counter[str] = field(default_factory=Counter)
    impossible: Counter[str] = field(default_factory=Counter)
    outcomes: Counter[str] = field(default_factory=Counter)  # per candidate
    failed_checks: Counter[str] = field(default_factory=Counter)
    kept_previous: list[str] = field(default_factory=list)
    left_empty: list[str] = field(default_factory=list)
    not_possible: Counter[str] = field(default_factory=Counter)  # cannot be generated and left empty
    skipped_variants: dict[str, list[str]] = field(default_factory=dict)
    distinctness: list[Distinctness] = field(default_factory=list)
    calls: int = 0
    usage: dict[str, dict[str, Any]] = field(default_factory=dict)  # per model alias: Usage.to_dict()
    written: list[str] = field(default_factory=list)

    def add(self, audit: ContextAudit) -> None:
        self.to_generate[audit.context] += 1
        if not audit.possible:
            self.impossible[audit.context] += 1
            if audit.previous is None:
                self.not_possible[audit.context] += 1
        elif audit.accepted:
            self.accepted[audit.context] += 1
        else:
            self.rejected[audit.context] += 1
            row = f"{audit.where()} context {audit.context}"
            (self.kept_previous if audit.previous is not None else self.left_empty).append(row)
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

    @property
    def asked(self) -> int:
        """Contexts a candidate was asked for: to generate, less those whose relations cannot hold."""
        return sum(self.to_generate.values()) - sum(self.impossible.values())

    def shortfall(self) -> str | None:
        """One line saying why the run fell short, or None when every context asked for was accepted.

        A run also falls short when there were contexts to fill and it filled none, even if none could
        be asked for (their relations cannot hold).
        """
        accepted, wanted = sum(self.accepted.values()), sum(self.to_generate.values())
        if accepted < self.asked:
            return (f"generate accepted {accepted} of {self.asked} contexts asked for; "
                    f"{self.asked - accepted} rejected (rows listed in the summary and the rejects report)")
        if wanted and not accepted:
            return (f"generate filled none of the {wanted} empty contexts: no text can meet their declared "
                    "relations (reasons in the rejects report)")
        return None

    def lines(self) -> list[str]:
        verifier = f"verified by {self.verifier}" if self.verifier else "rule checks only, no verifier"
        out = [f"generate: {self.instances} instances, writer {self.generator}, {verifier}"]
        for cid in sorted(set(self.to_generate) | set(self.filled)):
            impossible = f", cannot be generated {self.impossible[cid]}" if self.impossible[cid] else ""
            out.append(f"  context {cid}: {self.to_generate[cid]} to generate ({self.filled[cid]} already filled, "
                       f"left as they are): accepted {self.accepted[cid]}, rejected {self.rejected[cid]}{impossible}")
        if self.outcomes:
            out.append(f"  candidates {sum(self.outcomes.values())}: "
                       + ", ".join(f"{k} {v}" for k, v in sorted(self.outcomes.items())))
        if self.failed_checks:
            out.append("  failed checks: " + ", ".join(f"{k} {v}" for k, v in sorted(self.failed_checks.items())))
        if self.kept_previous:
            out.append(f"  rejected, old text kept: {_rows(self.kept_previous)}")
        if self.left_empty:
            out.append(f"  rejected, left empty: {_rows(self.left_empty)}")
        for cid, n in sorted(self.impossible.items()):
            empty, variants = self.not_possible[cid], self.skipped_variants.get(cid) or []
            kept = f"; {n - empty} keep their old text" if n > empty else ""
            skipped = (f"; the suite skips variants {', '.join(variants)} for the {empty} left empty"
                       if variants and empty else "")
            out.append(f"  context {cid} not generated for {n} rows whose declared relations cannot hold "
                       f"(reasons in the rejects report){kept}{skipped}")
        out += [d.line() for d in self.distinctness]
        out += ["  " + usage_line(alias, u) for alias, u in self.usage.items()]
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
        """One record per instance with a context not accepted (see schemas/generation_rejects.schema.json)."""
        out: list[dict[str, Any]] = []
        by_instance: dict[tuple[str, int, str], dict[str, Any]] = {}
        for a in self.audits:
            if a.accepted:
                continue
            key = (a.instance.id, a.instance.variation, a.instance.query)
            rec = by_instance.get(key)
            if rec is None:
                full = a.to_dict()
                rec = {k: full[k] for k in ("instance", "variation", "query", "source", "line") if k in full}
                rec["rejected"] = []
                by_instance[key] = rec
                out.append(rec)
            entry: dict[str, Any] = {"context": a.context, "reasons": list(a.reasons),
                                     "kept_previous": a.previous is not None, "possible": a.possible}
            if not a.possible and a.previous is None:  # an old text kept: nothing is skipped
                entry["skipped_variants"] = list(a.skipped_variants)
            rec["rejected"].append(entry)
        return out
