"""Documents -> passages with provenance (file, position, heading).

A team's documents come as plain text, Markdown, HTML, Word and PDF. Each is read by a well-kept
library where the format needs one (beautifulsoup4 for HTML, python-docx for Word, pypdf for PDF; all
in the ``mine`` extra) and cut into blocks under their nearest heading; consecutive short blocks under
one heading are joined up to ``max_words`` so a passage holds a few related statements, as a
retrieved chunk would. A document that cannot be read (unreadable, empty, not UTF-8, a missing
reader library) is reported by file and skipped, never a traceback.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

SUFFIXES = {".txt": "text", ".text": "text", ".md": "markdown", ".markdown": "markdown", ".html": "html",
            ".htm": "html", ".docx": "docx", ".pdf": "pdf"}
MAX_WORDS = 120


@dataclass(frozen=True)
class Passage:
    """A passage of a document.

    Attributes:
        id: ``<file>#<position>``, unique in a collection.
        file: The document's path as given (relative to the folder it was found in).
        position: 1-based number of the passage in its document.
        heading: The nearest heading above it ("" when none).
        text: The passage text.
    """

    id: str
    file: str
    position: int
    heading: str
    text: str


@dataclass(frozen=True)
class DocumentProblem:
    """A document that was skipped, and why."""

    file: str
    reason: str

    def line(self) -> str:
        return f"{self.file}: skipped: {self.reason}"


Block = tuple[str, str]  # (heading, text)


def find_documents(inputs: Iterable[str | Path]) -> tuple[list[tuple[Path, str]], list[DocumentProblem]]:
    """The readable-format files under ``inputs`` (folders searched recursively), with display names.

    A file given by name in an unsupported format is a problem; such files met inside a folder are
    passed over silently (a folder holds other things too).
    """
    found: list[tuple[Path, str]] = []
    problems: list[DocumentProblem] = []
    for given in inputs:
        p = Path(given)
        if p.is_dir():
            for f in sorted(x for x in p.rglob("*") if x.is_file() and not x.name.startswith(".")):
                if f.suffix.lower() in SUFFIXES:
                    found.append((f, str(f.relative_to(p))))
        elif p.is_file():
            if p.suffix.lower() in SUFFIXES:
                found.append((p, p.name))
            else:
                problems.append(DocumentProblem(str(p), f"unsupported format {p.suffix or '(no suffix)'!r} "
                                                        f"(readable: {', '.join(sorted(SUFFIXES))})"))
        else:
            problems.append(DocumentProblem(str(p), "no such file or folder"))
    return found, problems


def read_collection(inputs: Iterable[str | Path], max_words: int = MAX_WORDS
                    ) -> tuple[list[Passage], list[DocumentProblem]]:
    """Every passage of every readable document, and the documents skipped with their reasons."""
    files, problems = find_documents(inputs)
    passages: list[Passage] = []
    names: dict[str, int] = {}
    for path, name in files:
        if name in names:  # the same relative name under two given folders
            names[name] += 1
            name = f"{name} ({names[name]})"
        names[name] = 1
        try:
            blocks = read_blocks(path)
        except _Unreadable as e:
            problems.append(DocumentProblem(name, str(e)))
            continue
        chunks = list(_chunks(blocks, max_words))
        if not chunks:
            problems.append(DocumentProblem(name, "no text in the document"))
            continue
        passages += [Passage(f"{name}#{i}", name, i, h, t) for i, (h, t) in enumerate(chunks, 1)]
    return passages, problems


class _Unreadable(Exception):
    pass


def read_blocks(path: Path) -> list[Block]:
    """The (heading, text) blocks of one document, in reading order.

    Raises:
        _Unreadable: with the reason, for any file that cannot be read.
    """
    kind = SUFFIXES[path.suffix.lower()]
    try:
        if kind in ("text", "markdown", "html"):
            raw = path.read_bytes()
            try:
                text = raw.decode("utf-8-sig")
            except UnicodeDecodeError as e:
                raise _Unreadable(f"not UTF-8 (byte {e.start}: {raw[e.start:e.start + 1]!r}); "
                                  "save it as UTF-8") from None
            if kind == "html":
                return _html_blocks(text)
            return _markdown_blocks(text) if kind == "markdown" else _text_blocks(text)
        if kind == "docx":
            return _docx_blocks(path)
        return _pdf_blocks(path)
    except _Unreadable:
        raise
    except ImportError as e:
        raise _Unreadable(f"reading {kind} needs {e.name}: pip install \"ragability-gen[mine]\"") from None
    except OSError as e:
        raise _Unreadable(f"cannot read the file: {e.strerror or e}") from None
    except Exception as e:  # a reader library's own error on a damaged file
        raise _Unreadable(f"not a readable {kind} file ({type(e).__name__}: {str(e)[:120]})") from None


_WS = re.compile(r"[ \t\r\f\v]+")


def _clean(text: str) -> str:
    return _WS.sub(" ", text).strip()


def _paragraphs(text: str) -> list[str]:
    """Blank-line separated paragraphs; single line breaks inside one are spaces."""
    return [_clean(p.replace("\n", " ")) for p in re.split(r"\n\s*\n", text) if p.strip()]


def _text_blocks(text: str) -> list[Block]:
    """Plain text: a short one-line paragraph without closing punctuation is taken as a heading."""
    out: list[Block] = []
    heading = ""
    for p in _paragraphs(text):
        if len(p.split()) <= 10 and not p.endswith((".", "!", "?", ":", ";")):
            heading = p
        else:
            out.append((heading, p))
    return out


def _markdown_blocks(text: str) -> list[Block]:
    out: list[Block] = []
    heading = ""
    para: list[str] = []

    def flush() -> None:
        if para:
            joined = _clean(" ".join(para))
            if joined:
                out.append((heading, joined))
            para.clear()

    for line in text.splitlines():
        m = re.match(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            flush()
            heading = _clean(m.group(1))
        elif not line.strip():
            flush()
        else:
            para.append(re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+", "", line))  # list markers are no content
            if line.rstrip().endswith((".", "!", "?")) and re.match(r"^\s*(?:[-*+]|\d+[.)])\s+", line):
                flush()
    flush()
    return out


def _html_blocks(text: str) -> list[Block]:
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(text, "html.parser")
    for tag in soup(["script", "style", "head", "nav"]):
        tag.decompose()
    out: list[Block] = []
    heading = ""
    for el in soup.find_all(["h1", "h2", "h3", "h4", "h5", "h6", "p", "li", "td", "pre", "blockquote"]):
        text_ = _clean(el.get_text(" "))
        if not text_:
            continue
        if el.name.startswith("h"):
            heading = text_
        elif not el.find_parent(["p", "li", "td", "blockquote"]):
            out.append((heading, text_))
    return out


def _docx_blocks(path: Path) -> list[Block]:
    import docx

    doc = docx.Document(str(path))
    out: list[Block] = []
    heading = ""
    for p in doc.paragraphs:
        text = _clean(p.text)
        if not text:
            continue
        style = (p.style.name if p.style is not None else "") or ""
        if style.lower().startswith(("heading", "title")):
            heading = text
        else:
            out.append((heading, text))
    for table in doc.tables:
        for row in table.rows:
            cells = [_clean(c.text) for c in row.cells]
            if any(cells):
                out.append((heading, " | ".join(cells)))
    return out


def _pdf_blocks(path: Path) -> list[Block]:
    """PDF text by line: a short line without closing punctuation is a heading, wrapped lines are joined."""
    from pypdf import PdfReader

    reader = PdfReader(str(path))
    if reader.is_encrypted:
        raise _Unreadable("the PDF is encrypted")
    out: list[Block] = []
    heading, para = "", ""
    for page in reader.pages:
        for raw in (page.extract_text() or "").splitlines():
            line = _clean(raw)
            if not line:
                continue
            if not para and len(line.split()) <= 8 and not line.endswith((".", "!", "?", ":", ";", ",")):
                heading = line
                continue
            para = f"{para} {line}".strip()
            if para.endswith((".", "!", "?")):
                out.append((heading, para))
                para = ""
    if para:
        out.append((heading, para))
    return out


def _chunks(blocks: list[Block], max_words: int) -> Iterable[Block]:
    """Join consecutive blocks under one heading up to ``max_words``; a longer block stays whole."""
    heading, words = "", 0
    buf: list[str] = []
    for h, text in blocks:
        n = len(text.split())
        if buf and (h != heading or words + n > max_words):
            yield heading, "\n".join(buf)
            buf, words = [], 0
        heading = h
        buf.append(text)
        words += n
    if buf:
        yield heading, "\n".join(buf)
