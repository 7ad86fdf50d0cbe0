"""Reading and writing delimited tables (TSV/CSV) with errors that name file, line and column.

Quoted fields may hold delimiters, newlines (LF or CRLF) and doubled quotes; a UTF-8 BOM and CRLF
line ends are accepted. Cells are kept exactly as written so a table survives a round trip.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from ragability_gen.core.fileio import atomic_output, read_text
from ragability_gen.errors import InputError


@dataclass
class Table:
    """A parsed table: header cells and data rows with the line each row starts on."""

    path: str
    header: list[str]
    rows: list[tuple[int, list[str]]]


def read_table(path: str | Path, delimiter: str = "\t") -> Table:
    """Parse a delimited file; every layout problem is collected and raised as one InputError."""
    rows = TableRows(path, delimiter)
    body = list(rows)
    if rows.problems:
        raise InputError(rows.problems)
    return Table(rows.path, rows.header, body)


class TableRows:
    """The data rows of a delimited file, read as a stream: memory stays flat in the number of rows.

    The header is read when the object is made (a file without one raises InputError then); problems
    with it (empty or repeated column names) go to ``problems``, as do layout problems of the rows. Iterating
    yields ``(line, cells)`` for every well-formed row; a row with the wrong number of fields or a
    broken quote is a problem instead, for the caller to raise at the end.
    Reading stops at a broken quote, as nothing after it can be trusted.
    """

    def __init__(self, path: str | Path, delimiter: str = "\t"):
        self.path = str(path)
        self.delimiter = delimiter
        self.problems: list[str] = []
        if not Path(path).is_file():
            raise InputError(f"{path}: no such file")
        self._fh = open(path, encoding="utf-8-sig", newline="")  # noqa: SIM115 - closed when iterated or dropped
        self._reader = csv.reader(self._fh, delimiter=delimiter, strict=True)
        self.header: list[str] = []
        for start, cells in self._records():
            self.header = [c.strip() for c in cells]
            self.problems.extend(_header_problems(self.path, start, self.header))
            break
        else:
            self._fh.close()
            raise InputError([f"{self.path}: line 1: the file is empty (no header row)", *self.problems])

    def _records(self) -> Iterator[tuple[int, list[str]]]:
        """Non-blank records with the line each starts on; a broken quote ends them with a problem."""
        reader = self._reader
        while True:
            start = reader.line_num + 1
            try:
                cells = next(reader)
            except StopIteration:
                return
            except UnicodeDecodeError:
                self._fh.close()
                read_text(self.path)  # raises InputError naming the line and column of the bad bytes
                raise
            except csv.Error as e:
                text = read_text(self.path)
                col = _quote_problem(_physical_lines(text), start - 1, self.delimiter)
                where = f"column {_colname(self.header or None, col[0])}, " if col else ""
                detail = col[1] if col else str(e)
                self.problems.append(f"{self.path}: line {start}, {where}{detail}; reading stopped here")
                return
            if any(c.strip() for c in cells):
                yield start, cells

    def __iter__(self) -> Iterator[tuple[int, list[str]]]:
        header, delimiter, reader = self.header, self.delimiter, self._reader
        try:
            for start, cells in self._records():
                if len(cells) != len(header):
                    hint = ""
                    multi = [i for i, c in enumerate(cells) if "\n" in c and delimiter in c]
                    if multi:
                        hint = (f" (the quoted field in column {_colname(header, multi[0])} spans lines "
                                f"{start}-{reader.line_num}: a quote is probably not closed)")
                    self.problems.append(f"{self.path}: line {start}: {len(cells)} fields, expected "
                                         f"{len(header)}{hint}")
                    continue
                yield start, cells
        finally:
            self._fh.close()


def _physical_lines(text: str) -> list[str]:
    """Lines as csv counts them (ended by CR, LF or CRLF only, unlike str.splitlines)."""
    return re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", text)


def _colname(header: Sequence[str] | None, index: int) -> str:
    if header is not None and 0 <= index < len(header):
        return f"{index + 1} ({header[index]})"
    return str(index + 1)


def _header_problems(name: str, line: int, header: list[str]) -> list[str]:
    out = []
    seen: dict[str, int] = {}
    for i, col in enumerate(header, 1):
        if not col:
            out.append(f"{name}: line {line}, column {i}: empty column name in the header")
        elif col in seen:
            out.append(f"{name}: line {line}, column {i}: duplicate column {col!r} (also column {seen[col]})")
        else:
            seen[col] = i
    return out


def _quote_problem(lines: list[str], first: int, delim: str) -> tuple[int, str] | None:
    """Find the field of the record starting at line index ``first`` whose quoting is broken."""
    text = "".join(lines[first:])
    field, i, n = 0, 0, len(text)
    at_start = True
    while i < n:
        ch = text[i]
        if at_start and ch == '"':
            j = i + 1
            while True:
                k = text.find('"', j)
                if k < 0:
                    return field, "quote opened here is never closed"
                if k + 1 < n and text[k + 1] == '"':
                    j = k + 2
                    continue
                nxt = text[k + 1] if k + 1 < n else "\n"
                if nxt not in (delim, "\n", "\r"):
                    line_off = text.count("\n", 0, k)
                    if line_off == 0:
                        return field, ("text after the closing quote of a quoted field "
                                       '(inside a quoted field, write a quote as "")')
                    return field, (f"quote opened here closes {line_off} line(s) further down and is "
                                   "followed by text: a quote is probably unbalanced")
                i = k + 1
                at_start = False
                break
            continue
        if ch == delim:
            field += 1
            at_start = True
        elif ch in "\r\n":
            return None
        else:
            at_start = False
        i += 1
    return None


def write_table(path: str | Path, header: Sequence[str], rows: Iterable[Sequence[str]],
                delimiter: str = "\t") -> int:
    """Write a table atomically, quoting only cells that need it; return the number of rows."""
    # csv.writer with lineterminator="\n" leaves a cell holding a lone "\r" unquoted, which no reader
    # can then parse; quoting is done here instead, for every cell with a delimiter, quote, CR or LF.
    special = set(delimiter + '"\r\n')

    def line(cells: Sequence[str]) -> str:
        return delimiter.join('"' + c.replace('"', '""') + '"' if special.intersection(c) else c
                              for c in cells) + "\n"

    n = 0
    with atomic_output(path, newline="") as fh:
        fh.write(line(header))
        for row in rows:
            fh.write(line(row))
            n += 1
    return n
