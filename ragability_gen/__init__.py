"""ragability-gen: build and run test suites for LLMs facing contradicting passages."""

from . import judge, wikicontradict  # noqa: F401  (registers the WikiContradict converters and judge check)
from .compile import CompileSummary, Suite, compile_suite, expected_outcome
from .convert import ConvertSummary, read_instances, register_converter, write_corpus
from .errors import InputError, LLMError, RagabilityGenError, SchemaError, SpecError
from .fileio import RecordSource, read_records, write_records
from .llm import LLM, LLMSpec, ResponseCache, complete_json, spec_for
from .llmconfig import load_llm_config, resolve_llms
from .model import Answer, Check, Context, Instance, Provenance, SuiteItem
from .run import RunSummary, check_results, query_suite
from .specs import load_converter_spec, load_prompts, load_suite_spec
from .validate import validate_file

__all__ = [
    "LLM", "Answer", "Check", "CompileSummary", "Context", "ConvertSummary", "InputError", "Instance", "LLMError",
    "LLMSpec", "Provenance", "RagabilityGenError", "RecordSource", "ResponseCache", "RunSummary", "SchemaError",
    "SpecError", "Suite", "SuiteItem", "check_results", "compile_suite", "complete_json", "expected_outcome",
    "load_converter_spec", "load_llm_config", "load_prompts", "load_suite_spec", "query_suite", "read_instances",
    "read_records", "register_converter", "resolve_llms", "spec_for", "validate_file", "write_corpus",
    "write_records",
]
