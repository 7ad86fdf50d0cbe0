"""The exceptions the library raises; the CLI turns each into a one-line message per problem."""

from __future__ import annotations

from collections.abc import Iterable


class RagabilityGenError(Exception):
    """Base class: every error the library raises on purpose derives from it.

    Carries one or more problem lines so a caller can report every problem at once.
    """

    def __init__(self, problems: str | Iterable[str]):
        self.problems: list[str] = [problems] if isinstance(problems, str) else list(problems)
        super().__init__("\n".join(self.problems))


class InputError(RagabilityGenError):
    """A file the user gave cannot be read: bad encoding, layout, or cell values."""


class SchemaError(RagabilityGenError):
    """A file or record does not match its JSON Schema."""


class SpecError(RagabilityGenError):
    """A converter spec, suite spec or prompt file is inconsistent."""


class LLMError(RagabilityGenError):
    """An LLM endpoint failed or answered outside its contract."""


class ModelError(RagabilityGenError):
    """A language model the tool needs (the spaCy NER model) is missing or unusable."""


class LLMSetupError(LLMError):
    """A model cannot be used at all: no API key, credentials refused, unknown model or endpoint path.

    Every request would fail the same way, so a run stops instead of failing each item in turn.
    """


class PluginError(RagabilityGenError):
    """A plugin (an entry point in the ragability_gen.checks or ragability_gen.converters group) fails to load."""


class DependencyError(RagabilityGenError):
    """An optional dependency a feature needs is not installed (e.g. pandas for DataFrames)."""
class OutputError(RagabilityGenError):
    """An output cannot be written: another run holds it, the disk is full, or permission is refused.

    A run keeps its journal, so the same command resumes once the cause is gone.
    """


class Interrupted(RagabilityGenError):
    """The user stopped a run (Ctrl-C); the message says what was kept and how to resume."""
