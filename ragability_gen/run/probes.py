"""Checker probes: dummy testee answers whose right verdict is known, sent through the real check path.

No human labels are needed. From the items of a suite (or results) file, each probe builds a testee
answer a checker must not be fooled by ("Yes", "Sure", an empty answer, the question restated, a
refusal, a hedge naming both answers, an answer padded with irrelevant text, ...), and the verdict
the check should give it. The probe answers are written as an ordinary results file and checked by
``check_results`` (prompts, check functions, journal, cache, retries: the same code as ``check``),
so a probe measures the checker as ``check`` uses it. The repeat probe sends the same request n
times past the cache and measures self-agreement at the configured temperature.

A check's *role* decides which probes apply and what they expect:

- ``answer``: a binary check with a ``check_for`` (the expected answer): passes only when the
  response gives that answer;
- ``decline``: a binary check with neither ``check_for`` nor a ``query`` of its own, on an item tagged
  ``expect_conflict``, ``expect_noinfo`` or ``expect_no_context``: passes when the response declines or
  points out the conflict (a check with a query asks something else, such as "does the response say
  the passages conflict?", and is not probed);
- ``judge``: the WikiContradict judge (multiclass): ``correct`` for both answers of a conflict (or
  the one expected answer), ``partially correct`` for one answer of a conflict, else ``incorrect``.
"""

from __future__ import annotations

import json
import random
import re
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ragability_gen.compile.core import prompts_path_for
from ragability_gen.core.fileio import RecordSource, read_records
from ragability_gen.core.progress import Progress
from ragability_gen.errors import InputError, SpecError
from ragability_gen.llm.client import LLM
from ragability_gen.run.core import _prompts, check_results

PADDING = ("The committee met twice that spring to discuss the budget for the new library wing. "
           "Several members noted that the weather had been unusually mild, and the meeting ran late. ")
REFUSAL = "I cannot answer this question from the information I was given."
DECLINE_TAGS = ("expect_conflict", "expect_noinfo", "expect_no_context")
_SHORT = re.compile(r"short answer:\s*(.*)", re.I)
_LONG = re.compile(r"long answer:\s*(.*)", re.I)


@dataclass(frozen=True)
class Case:
    """What a probe works from: one check of one item, its role and the answers it knows."""

    item: dict[str, Any]
    check: dict[str, Any]
    role: str  # answer, decline, judge
    answers: tuple[str, ...]  # the expected answer(s), short form first
    long: str | None  # the expected long answer (answer role)
    others: tuple[str, ...]  # answers to the same query that are not the expected one
    conflict: bool  # judge role: both answers of a conflict are expected


@dataclass(frozen=True)
class ProbeAnswer:
    """One probe's testee answer for one case, the verdict the check should give, and an optional check edit."""

    text: str
    expected: str
    check: dict[str, Any] | None = None


ProbeFunc = Callable[[Case], ProbeAnswer | None]
PROBES: dict[str, tuple[str, ProbeFunc]] = {}


def register_probe(name: str, description: str) -> Callable[[ProbeFunc], ProbeFunc]:
    """Register a probe: a function from a case to its answer and expected verdict (None: does not apply)."""
    def wrap(func: ProbeFunc) -> ProbeFunc:
        PROBES[name] = (description, func)
        return func
    return wrap


def _no(case: Case) -> str:
    return "incorrect" if case.role == "judge" else "0"


def _wrong(text: str) -> ProbeFunc:
    return lambda case: ProbeAnswer(text, _no(case))


for _name, _text, _what in (("yes", "Yes", "the bare word 'Yes'"), ("no", "No", "the bare word 'No'"),
                            ("sure", "Sure", "the bare word 'Sure'"), ("empty", "", "an empty answer")):
    register_probe(_name, f"{_what}: no answer at all")(_wrong(_text))


@register_probe("restated", "the question restated, no answer")
def _restated(case: Case) -> ProbeAnswer:
    return ProbeAnswer(f"The question is: {case.item.get('query') or ''}", _no(case))


@register_probe("refusal", "a refusal: right only where the item expects a decline")
def _refusal(case: Case) -> ProbeAnswer:
    return ProbeAnswer(REFUSAL, "1" if case.role == "decline" else _no(case))


def _hedge_text(a: str, b: str) -> str:
    return f"The passages disagree: one says {a}, the other says {b}, so I cannot tell which is right."


@register_probe("hedge_both", "a hedge naming both answers: right only where the item expects the conflict")
def _hedge(case: Case) -> ProbeAnswer | None:
    both = (case.answers + case.others)[:2]
    if len(both) < 2 or (case.role == "judge" and not case.conflict):
        return None
    expected = {"answer": "0", "decline": "1", "judge": "correct"}[case.role]
    return ProbeAnswer(_hedge_text(*both), expected)


@register_probe("pasted_answer", "the expected answer's own wording pasted (for a decline: one of the answers)")
def _pasted(case: Case) -> ProbeAnswer | None:
    if case.role == "answer":
        return ProbeAnswer(case.answers[0], "1")
    one = (case.answers + case.others)[:1]
    if not one:
        return None
    if case.role == "decline":
        return ProbeAnswer(one[0], "0")
    return ProbeAnswer(one[0], "partially correct" if case.conflict else "correct")


@register_probe("swapped_order", "the right long answer, with the long answer before the short one in check_for")
def _swapped(case: Case) -> ProbeAnswer | None:
    if case.role != "answer" or case.long is None:
        return None
    return ProbeAnswer(case.long, "1", {**case.check, "check_for": f"long answer: {case.long}\n"
                                                                   f"short answer: {case.answers[0]}"})


def _right(case: Case) -> str | None:
    """The answer the check should pass, or None when the case cannot make one."""
    if case.role == "answer":
        return case.long or case.answers[0]
    if case.role == "decline":
        return REFUSAL
    if case.conflict:
        both = case.answers[:2]
        return _hedge_text(*both) if len(both) == 2 else None
    return case.answers[0]


def _pass(case: Case) -> str:
    return "correct" if case.role == "judge" else "1"


@register_probe("padded_right", "the right answer padded with irrelevant text (verbosity)")
def _padded_right(case: Case) -> ProbeAnswer | None:
    right = _right(case)
    return None if right is None else ProbeAnswer(f"{PADDING}{right} {PADDING}", _pass(case))


@register_probe("padded_wrong", "another answer padded with irrelevant text (verbosity)")
def _padded_wrong(case: Case) -> ProbeAnswer | None:
    if case.role == "decline":
        wrong = (case.answers + case.others)[:1]
    elif case.role == "answer" or (case.role == "judge" and not case.conflict):
        wrong = case.others[:1]
    else:
        return None
    return ProbeAnswer(f"{PADDING}It is {wrong[0]}. {PADDING}", _no(case)) if wrong else None


REPEAT = "repeat"
"""The repeat probe: the right answer sent ``repeats`` times past the cache (self-agreement)."""


@dataclass
class ProbeResult:
    """One probe over its cases for one checker: verdicts against the expected ones."""

    probe: str
    checker: str
    role: str
    expected: str
    cases: int = 0
    wrong: int = 0
    no_verdict: int = 0
    verdicts: Counter[str] = field(default_factory=Counter)

    @property
    def error_rate(self) -> float | None:
        n = self.cases - self.no_verdict
        return self.wrong / n if n else None


@dataclass
class SelfAgreement:
    """The repeat probe for one checker and role: how often repeats of one request give the same verdict."""

    checker: str
    role: str
    requests: int
    repeats: int
    unanimous: int = 0  # requests whose repeats all gave the same verdict
    agreement_sum: float = 0.0  # per request: share of repeats that gave the most frequent verdict

    @property
    def agreement(self) -> float | None:
        return self.agreement_sum / self.requests if self.requests else None


@dataclass
class ProbeReport:
    """Everything the probe report shows, and the probe answers as checked (for reading)."""

    source: str
    cases: dict[str, int]  # per role
    results: list[ProbeResult]
    self_agreement: list[SelfAgreement]
    checked: list[dict[str, Any]]


def _role(item: Mapping[str, Any], check: Mapping[str, Any]) -> str | None:
    if not check.get("pid"):
        return None  # a rule check: no checker is asked
    if check.get("func") == "wc_judge":
        return "judge"
    if check.get("func") != "affirmative":
        return None
    if check.get("check_for"):
        return "answer"
    tags = {t.strip() for t in str(item.get("tags") or "").split(",")}
    return "decline" if tags & set(DECLINE_TAGS) and not check.get("query") else None


def _answers(check: Mapping[str, Any]) -> tuple[tuple[str, ...], str | None]:
    text = str(check.get("check_for") or "")
    short, long = _SHORT.search(text), _LONG.search(text)
    if short:
        return (short.group(1).strip(),), long.group(1).strip() if long else None
    parts = tuple(p.strip() for p in text.split(" | ") if p.strip())
    return parts, None


def cases(items: Iterable[Mapping[str, Any]], per_role: int, seed: int = 0) -> list[Case]:
    """Up to ``per_role`` probe cases per role, chosen at random (seeded) among the checks a checker answers."""
    found: list[tuple[dict[str, Any], dict[str, Any], str]] = []
    by_query: dict[str, dict[str, None]] = {}
    seen: set[str] = set()
    for item in items:
        if item.get("qid") in seen:
            continue  # a results file repeats items per prompt id and testee
        seen.add(str(item.get("qid")))
        for check in item.get("checks") or ():
            role = _role(item, check)
            if role is None:
                continue
            found.append((dict(item), dict(check), role))
            for a in _answers(check)[0]:
                by_query.setdefault(str(item.get("query") or ""), {})[a] = None
    rng = random.Random(seed)
    out = []
    for role in ("answer", "decline", "judge"):
        mine = [f for f in found if f[2] == role]
        for item, check, _ in sorted(rng.sample(mine, min(per_role, len(mine))), key=lambda f: str(f[0]["qid"])):
            answers, long = _answers(check)
            others = tuple(a for a in by_query.get(str(item.get("query") or ""), {}) if a not in answers)
            out.append(Case(item, check, role, answers, long, others, role == "judge" and len(answers) > 1))
    return out


def _record(case: Case, llm: str, answer: ProbeAnswer) -> dict[str, Any]:
    item = {k: v for k, v in case.item.items() if k not in ("llm", "response", "error", "cost", "pid")}
    pid = case.item.get("pid") or (case.item.get("pids") or [""])[0]
    return {**item, "pid": pid, "llm": llm, "response": answer.text, "error": "", "cost": 0.0,
            "checks": [answer.check or case.check], "probe_expected": answer.expected}


def run_probes(source: str | Path, checkers: Sequence[LLM], *, prompts: str | Path | None = None,
               per_role: int = 20, repeats: int = 5, seed: int = 0,
               on_progress: Progress | None = None) -> ProbeReport:
    """Probe each checker with dummy answers built from the items of a suite or results file.

    Args:
        source: A suite or results file (its items and checks; responses are not used).
        checkers: The checker models; each is probed alike.
        prompts: The prompt file with the checker prompts (default: the one beside ``source``).
        per_role: Items probed per role (answer, decline, judge), chosen at random with ``seed``.
        repeats: How often the repeat probe sends one request (past the cache); 0 or 1 for no repeat probe.
        on_progress: Gets a ``ProgressEvent`` of stage "probe" while the probes are checked, then "repeat"
            while the repeat probe runs.

    Raises:
        InputError: the file has no check a checker answers in a role the probes know.
        SpecError: no checker is given.
    """
    source = Path(source)
    if not checkers:
        raise SpecError(f"{source}: no checker to probe: give one with --checker MODEL")
    _, prompts_path, _ = _prompts(Path(prompts) if prompts else None, source)
    picked = cases(RecordSource(source), per_role, seed)
    if not picked:
        raise InputError(f"{source}: no item has a check a checker answers (an answer check with check_for, a "
                         "decline check without a query on an item tagged expect_conflict/expect_noinfo/"
                         "expect_no_context, or the WikiContradict judge): nothing to probe")
    records = [_record(c, f"probe/{name}", a) for name, (_, func) in PROBES.items() for c in picked
               if (a := func(c)) is not None]
    repeat_records = []
    if repeats > 1:
        for c in picked:
            right = _right(c)
            if right is not None:
                repeat_records += [_record(c, f"probe/{REPEAT}-{i}", ProbeAnswer(right, _pass(c)))
                                   for i in range(1, repeats + 1)]
    if prompts_path is None:
        raise InputError(f"{source}: the checker prompts are needed, but there is no {prompts_path_for(source).name} "
                         "beside it: give the prompt file with --prompts")
    with tempfile.TemporaryDirectory(prefix="ragability-gen-probes.") as tmp:  # the source's folder may be read-only
        checked = _check(Path(tmp) / "probes.jsonl", records, checkers, prompts_path, _as("probe", on_progress))
        if repeat_records:  # past the cache, so that each repeat is a new request
            fresh = [LLM(c.spec, cache=None, concurrency=c.concurrency) for c in checkers]
            checked += _check(Path(tmp) / "repeats.jsonl", repeat_records, fresh, prompts_path,
                              _as(REPEAT, on_progress))
    return _tally(str(source), picked, checked, checkers, repeats)


def default_probe_dir(source: str | Path) -> Path:
    """Where ``probe`` writes its report by default: the input's name up to its first dot + ``-probes``, here."""
    return Path(Path(source).name.split(".")[0] + "-probes")


def probe_file(source: str | Path, output: str | Path | None = None, checkers: Sequence[str] = (), *,
               prompts: str | Path | None = None, per_role: int = 20, repeats: int = 5, seed: int = 0,
               on_progress: Progress | None = None,
               llm_settings: Mapping[str, Any] | None = None) -> tuple[ProbeReport, list[str], Path]:
    """What the ``probe`` command does: open the checkers, probe them, write the report folder.

    Args:
        output: The report folder (default: ``default_probe_dir(source)``); refused before any request when it
            holds files a report does not write.
        checkers: Checker names (config aliases or provider/model); none: the config's first model.
        llm_settings: How the checkers are reached, as ``open_llms`` takes them (config, base_url, cache, ...).

    Returns:
        The report, the names of the files written, and the folder.
    """
    from ragability_gen.calibrate.report import write_probe_report  # the report writer needs the stats code
    from ragability_gen.evaluate import check_report_dir
    from ragability_gen.llm.config import open_checkers

    out = Path(output) if output else default_probe_dir(source)
    check_report_dir(out)
    report = run_probes(source, open_checkers(checkers, **dict(llm_settings or {})), prompts=prompts, per_role=per_role,
                        repeats=repeats, seed=seed, on_progress=on_progress)
    return report, write_probe_report(report, out), out


def _check(path: Path, records: list[dict[str, Any]], checkers: Sequence[LLM], prompts: Path,
           on_progress: Progress | None) -> list[dict[str, Any]]:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    out = path.with_name(path.stem + ".checked.jsonl")
    check_results(path, out, list(checkers), prompts=prompts, on_progress=on_progress)
    return read_records(out)


def _as(stage: str, on_progress: Progress | None) -> Progress | None:
    """The check run's events, renamed to the probe step they belong to."""
    return (lambda event: on_progress(replace(event, stage=stage))) if on_progress else None


def _verdicts(check: Mapping[str, Any], checkers: Sequence[LLM]) -> dict[str, Any]:
    if len(checkers) > 1:
        return {e["llm"]: e["result"] for e in check.get("checkers") or []}
    return {checkers[0].spec.alias: check.get("result")}


def _tally(source: str, picked: list[Case], checked: list[dict[str, Any]], checkers: Sequence[LLM],
           repeats: int) -> ProbeReport:
    results: dict[tuple[str, str, str], ProbeResult] = {}
    repeat_votes: dict[tuple[str, str, str], list[Any]] = {}
    for rec in checked:
        probe = rec["llm"].removeprefix("probe/")
        repeat = probe.startswith(f"{REPEAT}-")
        probe = REPEAT if repeat else probe
        check = rec["checks"][0]
        role = _role(rec, check) or "?"
        for checker, verdict in _verdicts(check, checkers).items():
            if repeat:
                repeat_votes.setdefault((checker, role, rec["qid"]), []).append(verdict)
            key = (probe, checker, role)
            r = results.setdefault(key, ProbeResult(probe, checker, role, rec["probe_expected"]))
            r.cases += 1
            if verdict is None:
                r.no_verdict += 1
            else:
                r.verdicts[str(verdict)] += 1
                r.wrong += str(verdict) != rec["probe_expected"]
    agreement: dict[tuple[str, str], SelfAgreement] = {}
    for (checker, role, _), votes in repeat_votes.items():
        s = agreement.setdefault((checker, role), SelfAgreement(checker, role, 0, repeats))
        s.requests += 1
        top = Counter(str(v) for v in votes).most_common(1)[0][1]
        s.unanimous += top == len(votes)
        s.agreement_sum += top / len(votes)
    order = {name: i for i, name in enumerate([*PROBES, REPEAT])}
    return ProbeReport(source, dict(Counter(c.role for c in picked)),
                       sorted(results.values(), key=lambda r: (r.role, order[r.probe], r.checker)),
                       list(agreement.values()), checked)
