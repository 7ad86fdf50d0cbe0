"""ragability-gen: build and run test suites for LLMs facing contradicting passages."""

from . import judge, wikicontradict  # noqa: F401  (registers the WikiContradict converters and judge check)
from .compile import CompileSummary, Suite, compile_suite, expected_outcome
from .convert import ConvertSummary, read_instances, register_converter, write_corpus
from .errors import InputError, LLMError, LLMSetupError, RagabilityGenError, SchemaError, SpecError
from .fileio import read_records, write_records
from .generate import ContextAudit, GenerateSummary, Generation, agenerate, generate_file, write_generation
from .model import Answer, Check, Context, Instance, Provenance, SuiteItem
from .specs import load_converter_spec, load_prompts, load_suite_spec
from .textrules import rule_checks
from .validate import validate_file
from .writers import LLMWriter, RuleWriter, Verifier

__all__ = [
    "Answer", "Check", "CompileSummary", "Context", "ContextAudit", "ConvertSummary", "GenerateSummary",
    "Generation", "InputError", "Instance", "LLMError", "LLMSetupError", "LLMWriter", "Provenance",
    "RagabilityGenError", "RuleWriter", "SchemaError", "SpecError", "Suite", "SuiteItem", "Verifier", "agenerate",
    "compile_suite", "expected_outcome", "generate_file", "load_converter_spec", "load_prompts", "load_suite_spec",
    "read_instances", "read_records", "register_converter", "rule_checks", "validate_file", "write_corpus",
    "write_generation", "write_records",
]
