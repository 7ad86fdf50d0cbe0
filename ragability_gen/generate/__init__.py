"""Generate: fill extra contexts under the relations a converter spec declares, verified by rules and a model."""

from ragability_gen.generate.audit import ContextAudit, GenerateSummary, Generation
from ragability_gen.generate.core import GenerationShortfall, agenerate, generate_file, write_generation
from ragability_gen.generate.rulewriter import RuleWriter
from ragability_gen.generate.tasks import ContextTask, Layout, context_task, layout_of
from ragability_gen.generate.verifier import Verifier
from ragability_gen.generate.writers import LLMWriter, Writer, register_writer

__all__ = ["ContextAudit", "ContextTask", "GenerateSummary", "Generation", "GenerationShortfall", "LLMWriter",
           "Layout", "RuleWriter", "Verifier", "Writer", "agenerate", "context_task", "generate_file", "layout_of",
           "register_writer", "write_generation"]
