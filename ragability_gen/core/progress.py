"""The one progress protocol: every long-running library function takes ``on_progress``, a callable that
receives a :class:`ProgressEvent`.

Why one record passed to one callable, rather than positional ``(stage, done, total)`` arguments: a notebook
user can pass ``print`` (or ``events.append``) and sees every field by name; the CLI feeds one tqdm bar per
stage from the same object; and a field can be added later (as ``failed`` and ``cost`` were, for the stages
that send requests) without breaking any callback already written. Events are cheap, frozen and carry no
reference to the library's internal state, so a callback may keep them.

The contract every function that takes ``on_progress`` keeps, and ``tests/test_progress.py`` checks:

- ``stage`` names the step that runs ("compile", "ner", "review", "generate", "facts", "verify", "query",
  "check", "probe", "repeat"); a function with several steps reports them in order.
- ``done`` never decreases within a stage; ``total`` is the work known so far, or None while it is unknown.
- the last event of a stage that finished has ``done == total``.
- callbacks run in the caller's thread (or event loop), between units of work: a slow callback slows
  the run, an exception in it stops the run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Progress", "ProgressEvent", "emit"]


@dataclass(frozen=True)
class ProgressEvent:
    """Where a stage is: ``done`` units of ``total`` (None while unknown); failures and spend for model runs."""

    stage: str
    done: int
    total: int | None = None
    failed: int = 0
    """Units of this run that ended with an error (requests failed, replies unreadable)."""
    cost: float | None = None
    """Money spent on model requests so far in this run, in the models' price unit; None where no model runs."""

    @property
    def fraction(self) -> float | None:
        """``done / total``, or None while the total is unknown (1.0 for an empty stage)."""
        if self.total is None:
            return None
        return self.done / self.total if self.total else 1.0


Progress = Callable[[ProgressEvent], None]
"""The type of every ``on_progress`` parameter."""


def emit(on_progress: Progress | None, stage: str, done: int, total: int | None = None) -> None:
    """Send one event when a callback is given: the call sites stay one line each."""
    if on_progress is not None:
        on_progress(ProgressEvent(stage, done, total))
