"""Passage-ranking suites (ContraPRT-style): a query over shuffled candidates, two of which conflict.

Each item gives a testee the query and m candidate passages ``[1]..[m]``: the instance's contexts
and k distractors (one context each of k other instances, drawn with a seed so a suite compiles the
same every time), shuffled, the conflict pair placed adjacent or apart as the variant says. The
order is recorded in the item (field ``ranking``), with each passage's relevance grade, so the checks
and a reader can score any reply.

Roles come from the instance's declared relations, not from guesses: contexts that agree (declared,
or supporting the same answer) form a side; two sides conflict when a context of one is declared to
contradict one of the other, or they support different answers. When one side is strictly the
largest of the conflicting sides it is the majority: its contexts that answer the query are graded
``answer``, those annotated as not answering ``background``, every context of a side that
conflicts with it ``conflicting``; other contexts are ``background``; distractors ``distractor``.
The grade of each role is data (the spec's ``ranking.relevance``). Without a majority (two contexts
that contradict each other and nothing else) there is no right ranking: rank and chain variants are
skipped for that instance and counted; detect variants, which ask for the pair, still apply.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

from ragability_gen.checkfuncs import CHECKS
from ragability_gen.compile.base import CompileSummary, SuiteBase
from ragability_gen.compile.core import Suite
from ragability_gen.core.model import Instance, SuiteItem
from ragability_gen.core.progress import Progress
from ragability_gen.core.specs import Spec
from ragability_gen.errors import InputError, SpecError

TASKS = ("rank", "detect", "chain")
LAYOUTS = ("adjacent", "apart", "random")
ROLES = ("answer", "background", "conflicting", "distractor")
PLACEHOLDERS = ("{relevance}", "{conflicting}", "{pairs}", "{m}")
"""Check arguments filled per item: grades per passage, conflicting ids, expected pairs, passage count."""


@dataclass(frozen=True)
class Roles:
    """The role of each context of an instance, and the pairs of contexts in conflict.

    ``majority`` is False when no side outnumbers the others (then no ranking has a right answer);
    ``pair`` is the conflict pair the layout places: a conflicting context and a majority context
    it conflicts with, or the first conflicting pair when there is no majority.
    """

    roles: dict[str, str]
    pairs: list[tuple[str, str]]
    majority: bool
    pair: tuple[str, str] | None


def context_roles(inst: Instance, ids: list[str]) -> Roles:
    """Work out the roles of the contexts ``ids`` of ``inst`` from its declared relations."""
    side = {c: c for c in ids}

    def find(c: str) -> str:
        while side[c] != c:
            c = side[c]
        return c

    ctx = inst.contexts
    conflict = [(a, b) for a, b in combinations(ids, 2) if inst.contradicting(a, b) or (
        ctx[a].answer is not None and ctx[b].answer is not None and ctx[a].answer != ctx[b].answer)]
    for a, b in combinations(ids, 2):
        same = b in ctx[a].agrees or a in ctx[b].agrees or (
            ctx[a].answer is not None and ctx[a].answer == ctx[b].answer)
        if same and (a, b) not in conflict:
            side[find(a)] = find(b)
    members: dict[str, list[str]] = {}
    for c in ids:
        members.setdefault(find(c), []).append(c)
    in_conflict = {find(c) for pair in conflict for c in pair}
    sizes = sorted((len(members[s]) for s in in_conflict), reverse=True)
    roles = {c: "answer" if ctx[c].answers_query else "background" for c in ids}
    if not conflict:
        return Roles(roles, [], False, None)
    if len(sizes) > 1 and sizes[0] == sizes[1]:
        return Roles(roles, conflict, False, conflict[0])
    major = next(s for s in in_conflict if len(members[s]) == sizes[0])
    against = {find(b if find(a) == major else a) for a, b in conflict if major in (find(a), find(b))}
    for c in ids:
        root = find(c)
        if root in against:
            roles[c] = "conflicting"
        elif root != major or not ctx[c].answers_query:
            roles[c] = "background"
    pair = next(((a, b) if roles[a] == "conflicting" else (b, a) for a, b in conflict
                 if {roles[a], roles[b]} == {"conflicting", "answer"}), None)
    if pair is None:
        pair = next((a, b) if roles[a] == "conflicting" else (b, a) for a, b in conflict
                    if "conflicting" in (roles[a], roles[b]))
    return Roles(roles, conflict, True, pair)


def _layout(rng: random.Random, m: int, layout: str) -> tuple[int, int] | None:
    """Positions (0-based) for the conflict pair: adjacent, at least half the list apart, or None (random)."""
    if layout == "adjacent":
        p = rng.randrange(m - 1)
        return (p, p + 1) if rng.random() < 0.5 else (p + 1, p)
    if layout == "apart":
        gap = max(2, m // 2)
        options = [(p, q) for p in range(m) for q in range(m) if abs(p - q) >= gap]
        return rng.choice(options) if options else None
    return None


class RankingSuite(SuiteBase):
    """A ranking suite spec made ready to compile: prompts loaded, references and settings checked."""

    title = "Passage-ranking test suite"

    def __init__(self, spec: Spec):
        super().__init__(spec)
        self.settings: dict[str, Any] = spec.get("ranking") or {}
        self.relevance: dict[str, float] = {"answer": 2, "background": 1, "conflicting": 0, "distractor": 0,
                                            **self.settings.get("relevance", {})}
        self._check_references()

    def _check_references(self) -> None:
        where, pids = str(self.spec.path), self.pids
        metrics = set(self.spec["metrics"])
        outcomes = self.spec["outcomes"]
        problems = self.duplicate_variant_problems()
        for v in self.spec["variants"]:
            at = f"{where}: variant {v['name']}"
            if v["task"] not in TASKS:
                problems.append(f"{at}: field task: a ranking suite has tasks {', '.join(TASKS)}, not {v['task']!r}")
            problems += [f"{at}: field {f}: no prompt {pid!r} in {self.prompts_path.name}"
                         for f in ("pids", "turns") for pid in v.get(f, []) if pid not in pids]
            if v["task"] == "chain" and not v.get("turns"):
                problems.append(f"{at}: field turns: a chain variant needs its turn prompts")
            needed = ("detect_pair", "detect_none") if v["task"] == "detect" else ("rank",)
            problems += [f"{at}: no outcome {o!r} in outcomes" for o in needed if o not in outcomes]
        for name, o in outcomes.items():
            for c in o["checks"]:
                at = f"{where}: outcome {name}, check {c['cid']}"
                if c["func"] not in CHECKS:
                    problems.append(f"{at}: field func: unknown check function {c['func']!r}")
                elif len(c.get("args", [])) != CHECKS[c["func"]].nargs:
                    problems.append(f"{at}: field args: {c['func']} takes {CHECKS[c['func']].nargs} argument(s)")
                if "pid" in c and c["pid"] not in pids:
                    problems.append(f"{at}: field pid: no prompt {c['pid']!r}")
                problems += [f"{at}: field metrics: unknown metric {m!r}" for m in c["metrics"] if m not in metrics]
        try:
            self.spec["qid"].format_map({"id": "x", "variant": "v", "variation": 1})
        except (KeyError, ValueError, IndexError) as e:
            problems.append(f"{where}: field qid: {self.spec['qid']!r}: use the fields {{id}}, {{variant}} and "
                            f"{{variation}} only ({type(e).__name__}: {e})")
        if set(self.relevance) != set(ROLES):
            problems.append(f"{where}: field ranking.relevance: roles are {', '.join(ROLES)}")
        if problems:
            raise SpecError(problems)

    def _distractors(self, v: dict[str, Any], contexts: int) -> int:
        """Distractors for an item of variant ``v`` with ``contexts`` own passages (given, or up to ``candidates``)."""
        for where in (v, self.settings):
            if "candidates" in where:
                return max(0, int(where["candidates"]) - contexts)
            if "distractors" in where:
                return int(where["distractors"])
        return 6

    def items(self, instances: Iterable[Instance], summary: CompileSummary | None = None,
              laid_out: bool = False) -> Iterator[SuiteItem]:
        """Yield the items of every instance and variant; distractors need every instance, so all are read first."""
        summary = summary if summary is not None else CompileSummary()
        pool = list(instances)
        ids = sorted({inst.id for inst in pool})
        by_id: dict[str, list[Instance]] = {}
        for inst in pool:
            by_id.setdefault(inst.id, []).append(inst)
        for inst in pool:
            summary.instances += 1
            for v in self.spec["variants"]:
                item = self._item(inst, v, ids, by_id, summary)
                if item is not None:
                    summary.items += 1
                    summary.per_variant[v["name"]] += 1
                    yield item

    def _item(self, inst: Instance, v: dict[str, Any], ids: list[str], by_id: dict[str, list[Instance]],
              summary: CompileSummary) -> SuiteItem | None:
        name, task = v["name"], v["task"]
        wanted = list(inst.contexts) if v["contexts"] == ["*"] else v["contexts"]
        missing = [c for c in wanted if c not in inst.contexts]
        if missing:
            summary.skipped[(name, f"context {', '.join(missing)} missing")] += 1
            return None
        roles = context_roles(inst, wanted)
        if task != "detect" and not roles.majority:
            reason = "no conflict among the contexts" if not roles.pairs else "no majority (detect variants only)"
            summary.skipped[(name, reason)] += 1
            return None
        outcome = "rank" if task != "detect" else ("detect_pair" if roles.pairs else "detect_none")
        rng = random.Random(f"{self.settings.get('seed', 0)}|{inst.id}|{inst.variation}|{name}")
        texts = {inst.contexts[c].text for c in wanted}
        others = [i for i in ids if i != inst.id]
        passages: list[tuple[str, str, str]] = [(f"ctx{c}", inst.contexts[c].text, roles.roles[c]) for c in wanted]
        k = self._distractors(v, len(wanted))
        if len(others) < k:
            raise InputError(f"{self.spec.path}: variant {name}: {k} distractors need at least {k + 1} "
                             f"contradiction ids in the input, it has {len(ids)}")
        for other in rng.sample(others, len(others)):
            if len(passages) - len(wanted) == k:
                break
            source = rng.choice(by_id[other])
            cid = rng.choice(sorted(source.contexts))
            if source.contexts[cid].text not in texts:
                texts.add(source.contexts[cid].text)
                passages.append((f"distractor:{source.id}:{cid}", source.contexts[cid].text, "distractor"))
        order = self._order(rng, passages, roles.pair, v.get("layout", "random"))
        m = len(order)
        position = {p[0]: n for n, p in enumerate(order, 1)}
        relevance = [self.relevance[p[2]] for p in order]
        conflicting = [n for n, p in enumerate(order, 1) if p[2] == "conflicting"]
        pairs = sorted(sorted([position[f"ctx{a}"], position[f"ctx{b}"]]) for a, b in roles.pairs)
        values: dict[str, Any] = {"{relevance}": relevance, "{conflicting}": conflicting, "{pairs}": pairs, "{m}": m}
        fields = _fields(inst, name)
        checks = []
        for c in self.spec["outcomes"][outcome]["checks"]:
            filled = _fill_check(c, fields)
            if "args" in c:
                filled["args"] = [values.get(a, a) if isinstance(a, str) else a for a in c["args"]]
            bad = CHECKS[c["func"]].args_problem(filled.get("args", []))
            if bad is not None:
                raise SpecError(f"{self.spec.path}: outcome {outcome}, check {c['cid']}: field args: {bad} "
                                f"(instance {inst.id})")
            checks.append(filled)
        layout = v.get("layout", "random")
        tags = [*v.get("tags", []), *self.spec["outcomes"][outcome].get("tags", []), f"task_{task}",
                f"rank_variant_{name}", "hint" if v.get("hint") else "nohint", f"layout_{layout}",
                "majority" if roles.majority else "no_majority", *[f"reasoning_{r}" for r in inst.reasoning],
                *inst.tags]
        item: dict[str, Any] = {
            "qid": self.spec["qid"].format_map(fields), "tags": ", ".join(dict.fromkeys(tags)),
            "facts": [p[1] for p in order], "query": inst.query, "pids": list(v["pids"])}
        if v.get("turns"):
            item["turns"] = list(v["turns"])
        item["checks"] = checks
        item["ranking"] = {"passages": [p[0] for p in order], "relevance": relevance, "conflicting": conflicting,
                           "pairs": pairs}
        if self.spec.get("copy_metadata", True):
            for field_name, val in inst.metadata.items():
                item.setdefault(field_name, val)
        summary.outcomes[outcome] += 1
        return item  # type: ignore[return-value]

    @staticmethod
    def _order(rng: random.Random, passages: list[tuple[str, str, str]], pair: tuple[str, str] | None,
               layout: str) -> list[tuple[str, str, str]]:
        """Shuffle the passages; place the conflict pair as ``layout`` says."""
        rest = list(passages)
        rng.shuffle(rest)
        spots = _layout(rng, len(passages), layout) if pair is not None else None
        if pair is None or spots is None:
            return rest
        placed = [p for key in (f"ctx{pair[0]}", f"ctx{pair[1]}") for p in rest if p[0] == key]
        rest = [p for p in rest if p not in placed]
        out: list[tuple[str, str, str] | None] = [None] * len(passages)
        out[spots[0]], out[spots[1]] = placed
        fill = iter(rest)
        return [p if p is not None else next(fill) for p in out]


def _fields(inst: Instance, variant: str) -> dict[str, Any]:
    """The fields a qid template and check texts may use (as in the answer suites)."""
    f: dict[str, Any] = {"id": inst.id, "variant": variant, "variation": inst.variation, "query": inst.query,
                         "answers_short": " | ".join(a.short for a in inst.answers.values()),
                         "answers_long": " | ".join(a.long for a in inst.answers.values())}
    for aid, a in inst.answers.items():
        f[f"answer{aid}_short"], f[f"answer{aid}_long"] = a.short, a.long
    return f


def _fill_check(check: dict[str, Any], fields: dict[str, Any]) -> dict[str, Any]:
    out = dict(check)
    for key in ("query", "check_for"):
        if "{" in out.get(key, ""):
            try:
                out[key] = out[key].format_map(fields)
            except (KeyError, ValueError) as e:
                raise SpecError(f"check {check['cid']}: field {key}: cannot fill {out[key]!r} for instance "
                                f"{fields['id']}: {e}") from None
    return out


def ready_suite(spec: Spec) -> SuiteBase:
    """The compiler of a suite spec: a :class:`RankingSuite` for ``kind: ranking``, else the answer suite's."""
    return RankingSuite(spec) if spec.get("kind") == "ranking" else Suite(spec)


def compile_ranking_suite(instances: Iterable[Instance], output: str | Path, spec: Spec, fmt: str | None = None,
                          prompts_output: str | Path | None = None,
                          on_progress: Progress | None = None) -> tuple[CompileSummary, Path]:
    """Write a ranking suite for ``instances`` and the prompt file it needs (staged, then renamed)."""
    return RankingSuite(spec).compile(instances, output, fmt, prompts_output, on_progress)
