"""ragability-gen: build and run test suites for LLMs facing contradicting passages."""

from . import judge, wikicontradict  # noqa: F401  (registers the WikiContradict converters and judge check)
from .compile import CompileSummary, Suite, compile_suite, expected_outcome
from .convert import ConvertSummary, read_instances, register_converter, write_corpus
from .errors import InputError, LLMError, ModelError, RagabilityGenError, SchemaError, SpecError
from .fileio import read_records, write_records
from .model import Answer, Check, Context, Instance, Provenance, SuiteItem
from .specs import load_converter_spec, load_prompts, load_suite_spec
from .substitute import SubstituteResult, SubstituteSummary, substitute_file, substitute_instances
from .validate import validate_file

__all__ = [
    "Answer", "Check", "CompileSummary", "Context", "ConvertSummary", "InputError", "Instance", "LLMError",
    "ModelError", "Provenance", "RagabilityGenError", "SchemaError", "SpecError", "SubstituteResult",
    "SubstituteSummary", "Suite", "SuiteItem", "compile_suite", "expected_outcome", "load_converter_spec",
    "load_prompts", "load_suite_spec", "read_instances", "read_records", "register_converter", "substitute_file",
    "substitute_instances", "validate_file", "write_corpus", "write_records",
]
