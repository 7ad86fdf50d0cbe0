"""Reading and writing the record files that cross stage boundaries (hjson, json, jsonl).

One import for the three parts, each in its own module: output paths and atomic staging
(``staging``), readers and streaming (``reading``), writers (``writing``).
"""

from ragability_gen.core.reading import (
    NotStreamable,
    RecordSource,
    load_data,
    loads_hjson,
    read_records,
    read_text,
    stream_records,
)
from ragability_gen.core.staging import (
    FORMATS,
    atomic_dir,
    atomic_output,
    beside,
    clean_orphans,
    format_for,
    staged_outputs,
)
from ragability_gen.core.writing import format_record, member, write_records

__all__ = ["FORMATS", "NotStreamable", "RecordSource", "atomic_dir", "atomic_output", "beside", "clean_orphans",
           "format_for", "format_record", "load_data", "loads_hjson", "member", "read_records", "read_text",
           "staged_outputs", "stream_records", "write_records"]
