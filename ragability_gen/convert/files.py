"""One call from a source file to a suite or a corpus file: what ``ragability-gen convert`` does.

The decisions a user of the command relies on live here, so a Python user gets the same ones:
compile a suite unless a corpus is asked for, the suite spec the converter spec suggests, the default
suite file name (the input's stem with the format's suffix, in the current folder), and writing a
corpus back in the columns it came from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ragability_gen.compile.core import CompileSummary, compile_suite
from ragability_gen.convert.core import (
    ConvertSummary,
    corpus_spec,
    iter_instances,
    read_instances,
    unmapped_fields,
    write_corpus,
)
from ragability_gen.core.fileio import format_for
from ragability_gen.core.specs import Spec

DEFAULT_SUITE = "ragability"


def default_suite_output(input_path: str | Path, fmt: str | None = None) -> Path:
    """Where a suite goes when no output is named: ``v0d4.tsv`` -> ``v0d4.hjson`` in the current folder."""
    return Path(Path(input_path).stem + "." + (fmt or "hjson"))


@dataclass
class ConvertResult:
    """What :func:`convert_file` read and wrote."""

    read: ConvertSummary
    output: Path
    """The suite or corpus file written."""
    written: int
    """Suite items, or corpus rows."""
    compiled: CompileSummary | None = None
    """None when a corpus was written instead of a suite."""
    prompts: Path | None = None
    dropped: list[str] = field(default_factory=list)
    """Fields of the instances the corpus spec has no column for (only with ``drop_unmapped``)."""
    table_spec: str | None = None
    """The name of the table spec a corpus table was written in."""

    def lines(self) -> list[str]:
        """The summary the command prints."""
        out = self.read.lines()
        if self.compiled is None:
            if self.dropped:
                out.append(f"  dropped (no column in converter spec {self.table_spec!r}): {', '.join(self.dropped)}")
            out.append(f"wrote {self.written} rows to {self.output}")
        else:
            out += self.compiled.lines()
            out.append(f"wrote {self.written} items to {self.output} and prompts to {self.prompts}")
        return out


def convert_file(input_path: str | Path, output: str | Path | None = None, *, suite: str | Path | None = None,
                 prompts: str | Path | None = None, fmt: str | None = None,
                 converter: str | Path | Spec | None = None, to_corpus: str | Path | None = None,
                 out_converter: str | Path | Spec | None = None, drop_unmapped: bool = False,
                 **options: Any) -> ConvertResult:
    """Convert a source file into a test suite and its prompt file, or into a corpus file.

    Args:
        input_path: The source file (Ragability TSV, WikiContradict CSV/JSON, a team table, JSONL instances).
        output: The suite file; default :func:`default_suite_output`. Ignored with ``to_corpus``.
        suite: Suite spec name or path; default the converter spec's ``default_suite``, else ``ragability``.
        prompts: Where the prompt file goes; default beside the suite (``<stem>.prompts.hjson``).
        fmt: Suite format (hjson, json, jsonl); default from the output's suffix, else hjson.
        converter: Converter spec for the input; default recognised from the file.
        to_corpus: Write a corpus here instead of compiling a suite: ``.jsonl`` gets canonical instances,
            any other name a table in the columns of ``out_converter``, else of the input's own table spec,
            else the Ragability v0.4 columns.
        out_converter: The table spec the corpus is written in.
        drop_unmapped: Write the corpus even when fields of the instances have no column in that spec
            (they are listed in ``dropped``); by default that is refused.
        **options: Converter options, e.g. ``conflict="explicit"`` (see :func:`read_instances`).

    Raises:
        InputError, SpecError: bad input or specs; nothing is written then.
    """
    opts = {k: v for k, v in options.items() if v is not None}
    if to_corpus is not None:
        instances, read = read_instances(input_path, converter, **opts)
        dropped: list[str] = []
        spec_name = None
        if not str(to_corpus).lower().endswith(".jsonl"):
            spec = corpus_spec(instances, out_converter)
            spec_name = spec.name
            if drop_unmapped:
                dropped = list(unmapped_fields(instances, spec))
            out_converter = spec
        rows = write_corpus(instances, to_corpus, out_converter, drop_unmapped=drop_unmapped)
        return ConvertResult(read, Path(to_corpus), rows, dropped=dropped, table_spec=spec_name)
    stream, read = iter_instances(input_path, converter, **opts)  # a stream: memory stays flat in the rows
    fmt = fmt or (format_for(output) if output else "hjson")
    out = Path(output) if output else default_suite_output(input_path, fmt)
    compiled, prompts_path = compile_suite(stream, out, suite or read.default_suite or DEFAULT_SUITE, fmt,
                                           prompts)
    return ConvertResult(read, out, compiled.items, compiled=compiled, prompts=prompts_path)
