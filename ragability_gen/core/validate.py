"""Validating any file the tool reads or writes, reporting every problem at once."""

from __future__ import annotations

import contextlib
import json
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragability_gen.core import schemas
from ragability_gen.core.fileio import NotStreamable, RecordSource, load_data, read_records, stream_records
from ragability_gen.core.specs import Spec, load_converter_spec, load_prompts
from ragability_gen.errors import InputError, RagabilityGenError, SchemaError

if TYPE_CHECKING:
    from ragability_gen.checkfuncs import CheckFunc

# The check functions, convert, compile and llm are imported where they are used: the ranking check
# functions import evaluate, which imports this module; and a suite read for a query needs no converter,
# compiler or client.


def _registry() -> Any:
    from ragability_gen.checkfuncs import CHECKS

    return CHECKS

FILE_KINDS = ("corpus", "instances", "suite", "prompts", "suite-spec", "converter-spec", "llm-config", "mapping",
              "generation-audit", "generation-rejects")
_RECORD_KINDS = {"qid": "suite", "attempts": "generation-audit", "rejected": "generation-rejects",
                 "date_offset": "mapping"}


def detect_kind(path: str | Path) -> str:
    """Guess what kind of file ``path`` is from its suffix and content."""
    return _detect(path)[0]


def _detect(path: str | Path) -> tuple[str, Any]:
    """The kind of file, and its parsed content when telling the kind needed it (so it is read once)."""
    from ragability_gen.convert.core import sniff_converter_spec

    p = Path(path)
    suffix = p.suffix.lower()
    if suffix in (".tsv", ".csv") or sniff_converter_spec(p) is not None:
        return "corpus", None
    if p.name.endswith((".audit.jsonl", ".rejects.jsonl")):  # the names generate gives them
        return ("generation-audit" if p.name.endswith(".audit.jsonl") else "generation-rejects"), None
    if suffix == ".jsonl":
        with open(p, encoding="utf-8", errors="replace") as fh:
            first = next((line for line in fh if line.strip()), "{}")
        try:
            record = json.loads(first)
        except json.JSONDecodeError:
            record = {}
        found = [kind for key, kind in _RECORD_KINDS.items() if isinstance(record, dict) and key in record]
        return (found[0] if found else "instances"), None
    if _first_record_has(p, "qid"):  # a suite, told from its first item without reading it all
        return "suite", None
    data = load_data(p)
    if isinstance(data, dict):
        if "variants" in data:
            return "suite-spec", None
        if "converter" in data:
            return "converter-spec", None
        if "llms" in data:
            return "llm-config", None
    if isinstance(data, list) and data and isinstance(data[0], dict):
        if "qid" in data[0]:
            return "suite", data
        if "pid" in data[0]:
            return "prompts", None
        if "contexts" in data[0]:
            return "instances", None
    raise RagabilityGenError(f"{path}: cannot tell what kind of file this is; give --kind "
                             f"({', '.join(FILE_KINDS)})")


def _first_record_has(path: Path, key: str) -> bool:
    try:
        with contextlib.closing(stream_records(path)) as records:
            first = next(records, None)
    except (NotStreamable, UnicodeDecodeError, InputError):
        return False
    return first is not None and key in first


def validate_file(path: str | Path, kind: str | None = None,
                  converter: str | Path | None = None) -> tuple[str, list[str], str]:
    """Validate one file.

    Returns:
        (kind, problems, description): problems is empty when the file is valid; description
        says what was checked, e.g. "24 rows".
    """
    from ragability_gen.convert.core import read_instances

    data = None
    if kind is None:
        kind, data = _detect(path)
    try:
        if kind == "corpus":
            instances, summary = read_instances(path, converter)
            return kind, [], f"{summary.records_read} rows, {len(instances)} instances"
        if kind == "instances":
            instances, _ = read_instances(path, "instances")
            return kind, [], f"{len(instances)} instances"
        if kind == "suite":
            checks = suite_checks(data if data is not None else RecordSource(path), str(path))
            note = checks.repeats_line()
            return kind, checks.all_problems(), f"{checks.count} items" + (f"; {note}" if note else "")
        if kind in ("generation-audit", "generation-rejects"):
            recs = read_records(path, "jsonl")
            probs = schemas.record_problems(recs, kind, lambda i: f"{path}: record {i + 1}")
            return kind, probs, f"{len(recs)} records"
        if kind == "prompts":
            prompts = load_prompts(path)
            return kind, [], f"{len(prompts)} prompts"
        if kind == "suite-spec":
            from ragability_gen.compile.ranking import ready_suite

            suite = ready_suite(Spec(Path(path), _checked(path, "suite-spec")))
            return kind, [], f"{len(suite.spec['variants'])} variants"
        if kind == "converter-spec":
            spec = load_converter_spec(path)
            return kind, [], f"converter {spec['converter']!r}"
        if kind == "llm-config":
            from ragability_gen.llm.config import load_llm_config

            llms = load_llm_config(path)
            return kind, [], f"{len(llms)} models"
        if kind == "mapping":
            records = read_records(path, "jsonl")
            probs = schemas.record_problems(records, "mapping", lambda i: f"{path}: record {i + 1}")
            return kind, probs, f"{len(records)} instance records"
    except RagabilityGenError as e:
        return kind, e.problems, ""
    raise RagabilityGenError(f"unknown kind {kind!r} (use one of {', '.join(FILE_KINDS)})")


def _checked(path: str | Path, kind: str) -> dict[str, Any]:
    data = load_data(path)
    probs = schemas.problems(data, kind, str(path))
    if probs:
        raise RagabilityGenError(probs)
    return dict(data)


def check_problems(item: dict[str, Any], at: str) -> list[str]:
    """Checks of one item that name an unknown check function or give it the wrong arguments."""
    probs = []
    for j, c in enumerate(item.get("checks") or []):
        if not isinstance(c, dict) or not isinstance(c.get("func"), str):
            continue
        checks = _registry()
        if c["func"] not in checks:
            probs.append(f"{at}: field checks/{j}/func: unknown check function {c['func']!r}")
        elif (bad := checks[c["func"]].args_problem(c.get("args", []))) is not None:
            probs.append(f"{at}: field checks/{j}/args: {bad}")
    return probs


class _MetricKinds:
    """Metrics fed by check functions of different kinds (binary, multiclass, score), once per metric and function.

    A suite file declares no metric kinds, so the first check function naming a metric sets its kind.
    Items are fed one at a time, so a streamed suite is read once.
    """

    def __init__(self, where: str):
        from ragability_gen.compile.core import metric_kind_problem

        self.where = where
        self.first: dict[str, CheckFunc] = {}
        self.told: set[tuple[str, str]] = set()
        self.done: set[tuple[str, str]] = set()  # (metric, function) pairs already judged: the first kind never changes
        self._problem = metric_kind_problem

    def item(self, i: int, it: Any) -> list[str]:
        probs: list[str] = []
        for j, c in enumerate(it.get("checks") or [] if isinstance(it, dict) else []):
            cf = _registry().get(c["func"]) if isinstance(c, dict) and isinstance(c.get("func"), str) else None
            if cf is not None:
                probs += self.check(i, j, c, cf)
        return probs

    def check(self, i: int, j: int, c: dict[str, Any], cf: CheckFunc) -> list[str]:
        """Problems of one check whose function is ``cf``."""
        metrics = c.get("metrics")
        if type(metrics) is not list:
            return []
        probs: list[str] = []
        name, done = cf.name, self.done
        for m in metrics:
            if not isinstance(m, str) or (m, name) in done:
                continue
            done.add((m, name))
            seen = self.first.setdefault(m, cf)
            if (bad := self._problem(m, seen.kind, cf)) is not None:
                self.told.add((m, name))
                probs.append(f"{self.where}: item {i}: field checks/{j}/metrics: {bad} (check function "
                             f"{seen.name!r} gives it {seen.kind} results)")
        return probs


_NO_ARGS: list[Any] = []  # a check without ``args`` (never mutated)

MAX_PROBLEMS = 50
"""Problems reported for one file at most; a file that broken needs fixing at the root, not line by line."""


def repeat_qid(qid: str, n: int) -> str:
    """The qid the ``n``-th occurrence (n >= 2) of a repeated qid runs under: ``13-ctx1#2``.

    python-ragability's converter repeats qids when a contradiction ID has several rows; the suffix makes
    them distinct, deterministically (file order), so such suites run without editing.
    """
    return qid if n < 2 else f"{qid}#{n}"


class ItemChecks:
    """Every problem of a suite or results file, checked one record at a time (files are streamed).

    One checker for every command that reads suites or results (``validate``, ``query``, ``check``), so
    they accept the same files and word problems the same way. Repeated qids (results: repeated qid, pid
    and llm) are not problems: they are counted in ``repeats`` and run under :func:`repeat_qid`.

    Args:
        where: the file, as problems name it.
        prompts: the prompt ids of the prompt file, or None when there is none.
        prompts_name: the prompt file's name, or why there is none (for the problem text).
        results: check result records (``pid``, ``llm``, ``response``, ``error``) instead of suite items.
        prompt_fields: which prompt ids must be in the prompt file: the items' ``pids``, the checks' ``pid``.
    """

    def __init__(self, where: str, prompts: set[str] | None = None, prompts_name: str = "",
                 results: bool = False, prompt_fields: tuple[str, ...] = ("pids", "checks")):
        self.where = where
        self.prompts = prompts
        self.prompts_name = prompts_name
        self.results = results
        self.prompt_fields = prompt_fields
        self.count = 0
        self.problems: list[str] = []
        self.repeats: Counter[tuple[Any, ...]] = Counter()
        self._seen: dict[Any, int] = {}  # qid (results: qid, pid, llm) -> how often it was seen
        self._missing: dict[str, list[int]] = {}
        self._validator = schemas.validator("test-item")
        self._kinds = _MetricKinds(where)
        self._funcs: dict[str, CheckFunc] = {}  # the check functions found so far, without the registry's lookup
        self._no_args: dict[str, str | None] = {}  # function name -> its problem when a check gives no args
        self._judged: set[tuple[Any, ...]] = set()  # (function, *metrics) whose metric kinds were judged
        self._item_pids = "pids" in prompt_fields
        self._kind_problems: list[str] = []
        self.needs_checker = False

    def key(self, rec: dict[str, Any]) -> tuple[Any, ...]:
        return (rec.get("qid"), rec.get("pid"), rec.get("llm")) if self.results else (rec.get("qid"),)

    def add(self, rec: dict[str, Any]) -> None:
        self.count += 1
        n = self.count
        if len(self.problems) > MAX_PROBLEMS:
            return
        probs = []
        if not self._validator.is_valid(rec):
            probs = [f"{self.where}: item {n}: {'field ' + p + ': ' if p else ''}{m}"
                     for p, m in self._validator.problems(rec)]
        if self.results:
            for f in ("pid", "llm", "response", "error"):
                if not isinstance(rec.get(f), str):
                    probs.append(f"{self.where}: item {n}: field {f}: missing or not a string (is this a query "
                                 "results file?)")
        key: Any = (rec.get("qid"), rec.get("pid"), rec.get("llm")) if self.results else rec.get("qid")
        try:
            seen = self._seen[key] = self._seen.get(key, 0) + 1
        except TypeError:  # an unhashable qid: the schema has said what is wrong with it
            seen = 1
        if seen > 1:
            self.repeats[key if self.results else (key,)] = seen
        checks = rec.get("checks")
        used: Any = ()
        if self._item_pids:
            pids, turns = rec.get("pids"), rec.get("turns")
            used = pids if turns is None and type(pids) is list else list(pids or []) + list(turns or [])
        from_checks: list[Any] = []
        if checks:
            probs += self._checks(n, checks, from_checks)
        if (used or from_checks) and (self.prompts is not None or self.prompts_name):
            prompts = self.prompts
            for pid in [*used, *from_checks] if from_checks else used:
                if isinstance(pid, str) and (prompts is None or pid not in prompts):
                    self._missing.setdefault(pid, []).append(n)
        if probs:
            self.problems += probs

    def _checks(self, n: int, checks: Any, used: list[Any]) -> list[str]:
        """Problems of an item's checks (function, arguments, metric kinds); adds the prompts they use to ``used``."""
        probs: list[str] = []
        funcs, judged = self._funcs, self._judged
        with_pids = "checks" in self.prompt_fields
        for j, c in enumerate(checks if isinstance(checks, list) else []):
            if type(c) is not dict:
                continue
            pid = c.get("pid")
            if not self.needs_checker and (pid or c.get("query")):
                self.needs_checker = True
            if with_pids and pid:
                used.append(pid)
            name = c.get("func")
            if type(name) is not str:
                continue
            cf = funcs.get(name)
            if cf is None:
                cf = _registry().get(name)
                if cf is None:
                    probs.append(f"{self.where}: item {n}: field checks/{j}/func: unknown check function {name!r}")
                    continue
                funcs[name] = cf
            args = c.get("args", _NO_ARGS)
            bad = self._no_args.get(name, False) if args is _NO_ARGS else cf.args_problem(args)
            if bad is False:
                bad = self._no_args[name] = cf.args_problem([])
            if bad is not None:
                probs.append(f"{self.where}: item {n}: field checks/{j}/args: {bad}")
            metrics = c.get("metrics")
            if type(metrics) is list:
                judge = (name, *metrics)  # a function and metrics already judged: nothing new to say
                try:
                    if judge in judged:
                        continue
                    judged.add(judge)
                except TypeError:  # a metric that is not a string (the schema says so)
                    pass
                if kinds := self._kinds.check(n, j, c, cf):
                    self._kind_problems += kinds
        return probs

    def all_problems(self) -> list[str]:
        """Every problem found, the prompts missing from the prompt file last (one line per prompt id)."""
        out = self.problems + self._kind_problems
        for pid, used in self._missing.items():
            more = f" and {len(used) - 1} more" if len(used) > 1 else ""
            out.append(f"{self.where}: item {used[0]}{more}: prompt {pid!r} {self.prompts_name}")
        if len(out) > MAX_PROBLEMS:
            out = out[:MAX_PROBLEMS] + [f"{self.where}: ... more problems not shown"]
        return out

    def repeats_line(self) -> str | None:
        """The summary line naming repeated qids and the suffix they run under, or None."""
        if not self.repeats:
            return None
        names = ", ".join(str(k[0]) for k in list(self.repeats)[:5]) + (", ..." if len(self.repeats) > 5 else "")
        extra = sum(self.repeats.values()) - len(self.repeats)
        return (f"{len(self.repeats)} qids occur more than once ({names}); their repeats run as "
                f"{repeat_qid('QID', 2)}, {repeat_qid('QID', 3)}, ... ({extra} records)")


def prompt_note(prompts_file: Path | None, beside: str | Path) -> str:
    """How a missing prompt is worded: not in the prompt file, or no prompt file at all."""
    if prompts_file is not None:
        return f"not in {prompts_file.name}"
    from ragability_gen.compile.core import prompts_path_for

    return (f"needed, but there is no {prompts_path_for(beside).name} beside it: give the prompt file with "
            "--prompts")


def suite_problems(items: Iterable[dict[str, Any]], where: str) -> list[str]:
    """Every problem of a suite: schema, check functions and arguments, prompts missing from the prompt
    file beside it. Repeated qids are accepted (see :class:`ItemChecks`)."""
    return suite_checks(items, where).all_problems()


def suite_checks(items: Iterable[dict[str, Any]], where: str) -> ItemChecks:
    from ragability_gen.compile.core import prompts_path_for

    prompts_file = prompts_path_for(where)
    pids = {p["pid"] for p in load_prompts(prompts_file)} if Path(prompts_file).is_file() else None
    checks = ItemChecks(where, pids, f"not in {prompts_file.name}" if pids is not None else "")
    for it in items:
        checks.add(it)
    return checks


class SuiteFile(RecordSource):
    """The items of a suite file that passed validation, streamed on every pass (memory stays flat)."""

    def __init__(self, path: str | Path, items: int):
        super().__init__(path)
        self.items = items

    def __len__(self) -> int:
        return self.items


def read_suite(path: str | Path) -> SuiteFile:
    """Validate a suite (hjson, json or jsonl) in one streaming pass; return its items, to iterate.

    Raises:
        SchemaError: listing every problem (item number and field) when any item is invalid.
    """
    checks = suite_checks(RecordSource(path), str(path))
    if probs := checks.all_problems():
        raise SchemaError(probs)
    return SuiteFile(path, checks.count)
