"""ragability-gen: build and run test suites for LLMs facing contradicting passages."""

from . import judge, wikicontradict  # noqa: F401  (registers the WikiContradict converters and judge check)
from .checkfuncs import CHECKS, CheckParseError, register_check
from .compile import CompileSummary, Suite, compile_suite, expected_outcome
from .convert import ConvertSummary, read_instances, register_converter, write_corpus
from .errors import InputError, LLMError, LLMSetupError, ModelError, RagabilityGenError, SchemaError, SpecError
from .evaluate import Report, StatRow, evaluate_checked, parse_breakdowns, write_report
from .export import ExportSummary, export_rows, export_tsv
from .fileio import RecordSource, read_records, write_records
from .generate import ContextAudit, GenerateSummary, Generation, agenerate, generate_file, write_generation
from .llm import LLM, LLMSpec, ResponseCache, complete_json, connected, spec_for
from .llmconfig import load_llm_config, open_llms, resolve_llms
from .model import Answer, Check, Context, Instance, Provenance, SuiteItem
from .run import RunSummary, check_results, query_suite
from .specs import load_converter_spec, load_prompts, load_suite_spec
from .substitute import SubstituteResult, SubstituteSummary, substitute_file, substitute_instances
from .textrules import rule_checks
from .validate import validate_file
from .writers import LLMWriter, RuleWriter, Verifier

__all__ = [
    "CHECKS", "LLM", "Answer", "Check", "CheckParseError", "CompileSummary", "Context", "ContextAudit",
    "ConvertSummary", "ExportSummary", "GenerateSummary", "Generation", "InputError", "Instance", "LLMError",
    "LLMSetupError", "LLMSpec", "LLMWriter", "ModelError", "Provenance", "RagabilityGenError", "RecordSource",
    "Report", "ResponseCache", "RuleWriter", "RunSummary", "SchemaError", "SpecError", "StatRow",
    "SubstituteResult", "SubstituteSummary", "Suite", "SuiteItem", "Verifier", "agenerate", "check_results",
    "compile_suite", "complete_json", "connected", "evaluate_checked", "expected_outcome", "export_rows", "export_tsv",
    "generate_file", "load_converter_spec", "load_llm_config", "open_llms", "load_prompts", "load_suite_spec",
    "parse_breakdowns", "query_suite", "read_instances", "read_records", "register_check", "register_converter",
    "resolve_llms", "rule_checks", "spec_for", "substitute_file", "substitute_instances", "validate_file",
    "write_corpus", "write_generation", "write_records", "write_report",
]
