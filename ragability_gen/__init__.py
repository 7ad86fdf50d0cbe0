"""ragability-gen: build and run test suites for LLMs facing contradicting passages.

The names below are imported when first used (PEP 562), not when the package is imported: a command
that only converts a corpus does not pay for the LLM client, pandas or the evaluation code. Type
checkers and IDEs see the same names through the ``TYPE_CHECKING`` imports.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

# Where each public name lives; importing ``ragability_gen`` imports none of these modules.
_EXPORTS: dict[str, tuple[str, ...]] = {
    "ragability_gen.calibrate": ("Calibration", "calibrate", "compare", "write_calibration"),
    "ragability_gen.checkfuncs": ("CHECKS", "CheckParseError", "register_check"),
    "ragability_gen.compile.core": ("CompileSummary", "Suite", "compile_suite", "expected_outcome"),
    "ragability_gen.convert.core": (
        "ConvertSummary", "read_instances", "register_converter", "write_corpus", "corpus_spec",
    ),
    "ragability_gen.core.fileio": ("RecordSource", "read_records", "write_records"),
    "ragability_gen.core.model": ("Answer", "Check", "Context", "Instance", "Provenance", "SuiteItem"),
    "ragability_gen.core.specs": ("load_converter_spec", "load_prompts", "load_suite_spec"),
    "ragability_gen.core.validate": ("validate_file",),
    "ragability_gen.errors": (
        "InputError", "LLMError", "LLMSetupError", "ModelError", "RagabilityGenError", "SchemaError",
        "SpecError", "DependencyError", "PluginError",
    ),
    "ragability_gen.evaluate": ("Report", "StatRow", "evaluate_checked", "parse_breakdowns", "write_report"),
    "ragability_gen.evaluate.export": ("ExportSummary", "export_rows", "export_tsv"),
    "ragability_gen.generate": ("LLMWriter", "RuleWriter", "Verifier"),
    "ragability_gen.generate.core": (
        "ContextAudit", "GenerateSummary", "Generation", "agenerate", "generate_file", "write_generation",
    ),
    "ragability_gen.generate.textrules": ("rule_checks",),
    "ragability_gen.llm.client": ("LLM", "LLMSpec", "ResponseCache", "complete_json", "connected", "spec_for"),
    "ragability_gen.llm.config": ("load_llm_config", "open_llms", "resolve_llms"),
    "ragability_gen.run.core": ("RunSummary", "check_results", "query_suite"),
    "ragability_gen.run.probes": ("ProbeReport", "run_probes", "probe_file"),
    "ragability_gen.core.progress": ("Progress", "ProgressEvent"),
    "ragability_gen.substitute": ("SubstituteResult", "SubstituteSummary", "substitute_file", "substitute_instances"),
    "ragability_gen.convert": ("CONVERTERS", "ConvertResult", "convert_file", "default_suite_output"),
    "ragability_gen.evaluate.files": (
        "EvalResult", "default_export_path", "default_report_dir", "eval_file", "export_file",
    ),
    "ragability_gen.evaluate.frames": ("checked_frame",),
    "ragability_gen.compile.ranking": ("RankingSuite", "context_roles"),
    "ragability_gen.evaluate.ranking": ("ndcg", "ranking_summary"),
    "ragability_gen.evaluate.clid": ("ClidReport", "evaluate_clid"),
    "ragability_gen.mine": ("MineResult", "MineSummary", "mine", "mine_files", "write_mined"),
}
_SUBPACKAGES = frozenset(("calibrate", "checkfuncs", "cli", "compile", "convert", "core", "errors", "evaluate",
                          "generate", "llm", "mine", "run", "substitute"))
_MODULE_OF = {name: module for module, names in _EXPORTS.items() for name in names}

__all__ = [
    "CHECKS", "LLM", "Answer", "Check", "CheckParseError", "CompileSummary", "Context", "ContextAudit",
    "ConvertSummary", "ExportSummary", "GenerateSummary", "Generation", "InputError", "Instance", "LLMError",
    "LLMSetupError", "LLMSpec", "LLMWriter", "ModelError", "Provenance", "RagabilityGenError", "RecordSource",
    "Report", "ResponseCache", "RuleWriter", "RunSummary", "SchemaError", "SpecError", "StatRow", "SubstituteResult",
    "SubstituteSummary", "Suite", "SuiteItem", "Verifier", "agenerate", "check_results", "compile_suite",
    "complete_json", "connected", "evaluate_checked", "expected_outcome", "export_rows", "export_tsv",
    "generate_file", "load_converter_spec", "load_llm_config", "open_llms", "load_prompts", "load_suite_spec",
    "parse_breakdowns", "query_suite", "read_instances", "read_records", "register_check", "register_converter",
    "resolve_llms", "rule_checks", "spec_for", "substitute_file", "substitute_instances", "validate_file",
    "write_corpus", "write_generation", "write_records", "write_report", "CONVERTERS", "ConvertResult",
    "DependencyError", "EvalResult", "PluginError", "checked_frame", "convert_file", "corpus_spec",
    "default_export_path", "default_report_dir", "default_suite_output", "eval_file", "export_file", "RankingSuite",
    "context_roles", "ndcg", "ranking_summary", "Calibration", "ProbeReport", "calibrate", "compare", "run_probes",
    "probe_file", "Progress", "ProgressEvent",
    "write_calibration", "ClidReport", "MineResult", "MineSummary", "evaluate_clid", "mine", "mine_files",
    "write_mined",
]


def __getattr__(name: str) -> Any:
    """Import the module holding ``name`` on first use, and keep the name here for the next lookup."""
    module = _MODULE_OF.get(name)
    if module is None:
        if name in _SUBPACKAGES:  # ``ragability_gen.core`` and the like, as when every stage was imported eagerly
            return importlib.import_module(f"{__name__}.{name}")
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


class _Package(types.ModuleType):
    """Keeps ``calibrate`` and ``mine`` the functions when their subpackages are imported.

    Importing ``ragability_gen.calibrate`` sets the package's attribute ``calibrate`` to the subpackage;
    the eager imports used to bind the function over it right after, and so does this.
    """

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _MODULE_OF and isinstance(value, types.ModuleType) and value.__name__ == f"{__name__}.{name}":
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


if TYPE_CHECKING:
    from ragability_gen.calibrate import Calibration, calibrate, compare, write_calibration
    from ragability_gen.checkfuncs import CHECKS, CheckParseError, register_check
    from ragability_gen.compile.core import CompileSummary, Suite, compile_suite, expected_outcome
    from ragability_gen.compile.ranking import RankingSuite, context_roles
    from ragability_gen.convert import CONVERTERS, ConvertResult, convert_file, default_suite_output
    from ragability_gen.convert.core import (
        ConvertSummary,
        corpus_spec,
        read_instances,
        register_converter,
        write_corpus,
    )
    from ragability_gen.core.fileio import RecordSource, read_records, write_records
    from ragability_gen.core.model import Answer, Check, Context, Instance, Provenance, SuiteItem
    from ragability_gen.core.progress import Progress, ProgressEvent
    from ragability_gen.core.specs import load_converter_spec, load_prompts, load_suite_spec
    from ragability_gen.core.validate import validate_file
    from ragability_gen.errors import (
        DependencyError,
        InputError,
        LLMError,
        LLMSetupError,
        ModelError,
        PluginError,
        RagabilityGenError,
        SchemaError,
        SpecError,
    )
    from ragability_gen.evaluate import Report, StatRow, evaluate_checked, parse_breakdowns, write_report
    from ragability_gen.evaluate.clid import ClidReport, evaluate_clid
    from ragability_gen.evaluate.export import ExportSummary, export_rows, export_tsv
    from ragability_gen.evaluate.files import (
        EvalResult,
        default_export_path,
        default_report_dir,
        eval_file,
        export_file,
    )
    from ragability_gen.evaluate.frames import checked_frame
    from ragability_gen.evaluate.ranking import ndcg, ranking_summary
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
    from ragability_gen.mine import MineResult, MineSummary, mine, mine_files, write_mined
    from ragability_gen.run.core import RunSummary, check_results, query_suite
    from ragability_gen.run.probes import ProbeReport, probe_file, run_probes
    from ragability_gen.substitute import SubstituteResult, SubstituteSummary, substitute_file, substitute_instances
