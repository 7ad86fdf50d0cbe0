"""What every suite compiler shares: loading a suite spec with its prompt file, and writing the suite.

The answer suites (``core.Suite``) and the passage-ranking suites (``ranking.RankingSuite``) differ in how
they turn instances into items; they load a spec the same way (its ``prompts`` file, resolved beside the
spec, loaded and validated once), check the same spec-wide rules, and write the same two files: the suite,
with a header naming the tool and spec, and a copy of the prompt file beside it, both staged and renamed
only when complete. Keeping that here means a fix to loading or writing reaches both kinds at once.
"""

from __future__ import annotations

import shutil
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from ragability_gen.core.fileio import atomic_output, beside, format_for, write_records
from ragability_gen.core.model import Instance, SuiteItem
from ragability_gen.core.progress import Progress, emit
from ragability_gen.core.specs import Spec, load_prompts

__all__ = ["CompileSummary", "SuiteBase", "prompts_path_for"]


@dataclass
class CompileSummary:
    """What compilation produced, per variant and outcome, and what it skipped and why."""

    instances: int = 0
    items: int = 0
    per_variant: Counter[str] = field(default_factory=Counter)
    outcomes: Counter[str] = field(default_factory=Counter)
    skipped: Counter[tuple[str, str]] = field(default_factory=Counter)

    def lines(self) -> list[str]:
        out = [f"compiled {self.instances} instances into {self.items} items"]
        if self.outcomes:
            out.append("  outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(self.outcomes.items())))
        by_reason: Counter[str] = Counter()
        for (_variant, reason), n in self.skipped.items():
            by_reason[reason] += n
        for reason, n in sorted(by_reason.items()):
            variants = sorted({v for (v, r) in self.skipped if r == reason})
            out.append(f"  skipped {n} items ({reason}): variants {', '.join(variants)}")
        return out


def prompts_path_for(output: str | Path) -> Path:
    """Where the prompt file goes beside a suite: ``v0d4.hjson`` -> ``v0d4.prompts.hjson``."""
    return beside(output, ".prompts.hjson")


def _version() -> str:
    from importlib import metadata  # here: importing it costs more than a small convert

    try:
        return metadata.version("ragability-gen")
    except metadata.PackageNotFoundError:  # running from a source tree that is not installed
        return "(source)"


class SuiteBase:
    """A suite spec loaded for compiling: the spec, its prompt file (path, prompts, prompt ids).

    Subclasses check their own references in ``__init__`` (after this one's) and make the items.
    """

    title: ClassVar[str] = "Test suite"
    """How the suite file's header names what it is."""

    lays_out: ClassVar[bool] = False
    """``items`` takes ``laid_out=True`` and then yields records ``write_records`` can hand to orjson whole."""

    def __init__(self, spec: Spec):
        self.spec = spec
        self.prompts_path = (spec.path.parent / spec["prompts"]).resolve()
        self.prompts = load_prompts(self.prompts_path)
        self.pids = {p["pid"] for p in self.prompts}

    def duplicate_variant_problems(self) -> list[str]:
        """One problem per variant name used more than once (items would share qids)."""
        names = [v["name"] for v in self.spec["variants"]]
        return [f"{self.spec.path}: variant {d}: duplicate variant name"
                for d in sorted({n for n in names if names.count(n) > 1})]

    def items(self, instances: Iterable[Instance], summary: CompileSummary | None = None,
              laid_out: bool = False) -> Iterator[SuiteItem]:
        """The test items of ``instances``, counted in ``summary`` (``laid_out`` only where ``lays_out``)."""
        raise NotImplementedError

    def compile(self, instances: Iterable[Instance], output: str | Path, fmt: str | None = None,
                prompts_output: str | Path | None = None,
                on_progress: Progress | None = None) -> tuple[CompileSummary, Path]:
        """Write the suite for ``instances`` and the prompt file it needs, both staged and renamed when complete.

        ``on_progress`` gets events of stage "compile": items written so far (total unknown while the
        instances stream in), then one with ``done == total`` once the suite is written.

        Returns:
            The summary and the path of the prompt file written.
        """
        summary = CompileSummary()
        prompts_out = Path(prompts_output) if prompts_output else prompts_path_for(output)
        with atomic_output(prompts_out) as fh, open(self.prompts_path, encoding="utf-8") as src:
            shutil.copyfileobj(src, fh)
            header = [f"{self.title} in the ragability format, made by ragability-gen {_version()} with suite spec "
                      f"{self.spec.name!r}.", f"Prompts: {prompts_out.name}"]
            fmt = fmt or format_for(output)
            laid_out = self.lays_out and fmt != "jsonl"  # orjson writes the hjson/json layout from fragments
            written = write_records(self.items(instances, summary, laid_out), output, fmt,
                                    (lambda n: emit(on_progress, "compile", n)) if on_progress else None, header,
                                    laid_out)
        emit(on_progress, "compile", written, written)
        return summary, prompts_out
