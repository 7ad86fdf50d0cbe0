"""ragability-gen: build and run test suites for LLMs facing contradicting passages."""

from ragability_gen.calibrate import Calibration, calibrate, compare, write_calibration
from ragability_gen.checkfuncs import CHECKS, CheckParseError, register_check
from ragability_gen.compile.core import CompileSummary, Suite, compile_suite, expected_outcome
from ragability_gen.convert.core import ConvertSummary, read_instances, register_converter, write_corpus
from ragability_gen.core.fileio import RecordSource, read_records, write_records
from ragability_gen.core.model import Answer, Check, Context, Instance, Provenance, SuiteItem
from ragability_gen.core.specs import load_converter_spec, load_prompts, load_suite_spec
from ragability_gen.core.validate import validate_file
from ragability_gen.errors import (
    InputError,
    LLMError,
    LLMSetupError,
    ModelError,
    RagabilityGenError,
    SchemaError,
    SpecError,
)
from ragability_gen.evaluate import Report, StatRow, evaluate_checked, parse_breakdowns, write_report
from ragability_gen.evaluate.export import ExportSummary, export_rows, export_tsv
from ragability_gen.generate import LLMWriter, RuleWriter, Verifier
from ragability_gen.generate.core import (
    ContextAudit,
    GenerateSummary,
    Generation,
    agenerate,
    generate_file,
    write_generation,
)
from ragability_gen.generate.textrules import rule_checks
from ragability_gen.llm.client import LLM, LLMSpec, ResponseCache, complete_json, connected, spec_for
from ragability_gen.llm.config import load_llm_config, open_llms, resolve_llms
from ragability_gen.run.core import RunSummary, check_results, query_suite
from ragability_gen.run.probes import ProbeReport, run_probes
from ragability_gen.substitute import SubstituteResult, SubstituteSummary, substitute_file, substitute_instances

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

# One call per command (what convert, eval and export decide), DataFrames, plugins' registries.
from ragability_gen.convert import CONVERTERS, ConvertResult, convert_file, default_suite_output  # noqa: E402
from ragability_gen.convert.core import corpus_spec  # noqa: E402
from ragability_gen.errors import DependencyError, PluginError  # noqa: E402
from ragability_gen.evaluate.files import (  # noqa: E402
    EvalResult,
    default_export_path,
    default_report_dir,
    eval_file,
    export_file,
)
from ragability_gen.evaluate.frames import checked_frame  # noqa: E402

__all__ += [
    "CONVERTERS", "ConvertResult", "DependencyError", "EvalResult", "PluginError", "checked_frame", "convert_file",
    "corpus_spec", "default_export_path", "default_report_dir", "default_suite_output", "eval_file", "export_file",
]
# Passage-ranking suites (compile/ranking.py, evaluate/ranking.py)
from ragability_gen.compile.ranking import RankingSuite, context_roles  # noqa: E402
from ragability_gen.evaluate.ranking import ndcg, ranking_summary  # noqa: E402

__all__ += ["RankingSuite", "context_roles", "ndcg", "ranking_summary"]
__all__ += ["Calibration", "ProbeReport", "calibrate", "compare", "run_probes", "write_calibration"]
from ragability_gen.evaluate.clid import ClidReport, evaluate_clid  # noqa: E402  (inconsistency detection metrics)
from ragability_gen.mine import MineResult, MineSummary, mine, mine_files, write_mined  # noqa: E402

__all__ += ["ClidReport", "MineResult", "MineSummary", "evaluate_clid", "mine", "mine_files", "write_mined"]
