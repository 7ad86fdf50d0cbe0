"""Convert: source files (Ragability TSV, WikiContradict, team tables) -> canonical instances -> corpus files.

Converters are looked up by name in ``CONVERTERS``: the table and instances converters (``core``), the
WikiContradict ones (``wikicontradict``, registered when the registry is first read) and plugins in
the ``ragability_gen.converters`` entry point group (see ``ragability_gen.core.registry``).
"""

from ragability_gen.convert.core import CONVERTERS, ConvertSummary, read_instances, register_converter, write_corpus
from ragability_gen.convert.files import ConvertResult, convert_file, default_suite_output

__all__ = ["CONVERTERS", "ConvertResult", "ConvertSummary", "convert_file", "default_suite_output", "read_instances",
           "register_converter", "write_corpus"]
