"""Convert: source files (Ragability TSV, WikiContradict, team tables) -> canonical instances -> corpus files."""

from ragability_gen.convert import (
    wikicollide,  # noqa: F401  (registers the WikiCollide converter)
    wikicontradict,  # noqa: F401  (registers the WikiContradict converters)
)
from ragability_gen.convert.core import ConvertSummary, read_instances, register_converter, write_corpus

__all__ = ["ConvertSummary", "read_instances", "register_converter", "write_corpus"]
