"""Generate: fill extra contexts under declared relations, verified by rules and a model."""

from ragability_gen.generate.core import (
    ContextAudit,
    GenerateSummary,
    Generation,
    agenerate,
    generate_file,
    write_generation,
)

__all__ = ["ContextAudit", "GenerateSummary", "Generation", "agenerate", "generate_file", "write_generation"]
