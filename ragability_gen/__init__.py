"""ragability-gen: build and run test suites for LLMs facing contradicting passages."""

from . import judge, wikicontradict  # noqa: F401  (registers the WikiContradict converters and judge check)
from .checkfuncs import CHECKS, CheckParseError, register_check
from .compile import CompileSummary, Suite, compile_suite, expected_outcome
from .convert import ConvertSummary, read_instances, register_converter, write_corpus
from .errors import InputError, LLMError, ModelError, RagabilityGenError, SchemaError, SpecError
from .evaluate import Report, StatRow, evaluate_checked, parse_breakdowns, write_report
from .export import ExportSummary, export_rows, export_tsv
from .fileio import RecordSource, read_records, write_records
from .llm import LLM, LLMSpec, ResponseCache, complete_json, spec_for
from .llmconfig import load_llm_config, resolve_llms
from .model import Answer, Check, Context, Instance, Provenance, SuiteItem
from .run import RunSummary, check_results, query_suite
from .specs import load_converter_spec, load_prompts, load_suite_spec
from .substitute import SubstituteResult, SubstituteSummary, substitute_file, substitute_instances
from .validate import validate_file

__all__ = [
    "CHECKS", "LLM", "Answer", "Check", "CheckParseError", "CompileSummary", "Context", "ConvertSummary",
    "ExportSummary", "InputError", "Instance", "LLMError", "LLMSpec", "ModelError", "Provenance",
    "RagabilityGenError", "RecordSource", "Report", "ResponseCache", "RunSummary", "SchemaError", "SpecError",
    "StatRow", "SubstituteResult", "SubstituteSummary", "Suite", "SuiteItem", "check_results", "compile_suite",
    "complete_json", "evaluate_checked", "expected_outcome", "export_rows", "export_tsv", "load_converter_spec",
    "load_llm_config", "load_prompts", "load_suite_spec", "parse_breakdowns", "query_suite", "read_instances",
    "read_records", "register_check", "register_converter", "resolve_llms", "spec_for", "substitute_file",
    "substitute_instances", "validate_file", "write_corpus", "write_records", "write_report",
]
