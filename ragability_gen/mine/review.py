"""The review page: each candidate with both passages side by side, the conflicting spans highlighted.

One self-contained HTML file (inline style, no scripts, no links out), every text escaped, so a
reviewer can open it from a mail or a share and decide row by row what to keep.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .core import MineResult

_CSS = """body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;max-width:1200px;margin:2em auto;
padding:0 1em;color:#222;line-height:1.45}section{border:1px solid #ccc;border-radius:4px;margin:1.2em 0;
padding:.6em 1em}.pair{display:grid;grid-template-columns:1fr 1fr;gap:1em}.passage{background:#fafafa;
padding:.5em .7em;border-left:3px solid #4e79a7;white-space:pre-wrap}.src{color:#555;font-size:.85em}
mark{background:#ffd966;padding:0 .1em}.fact{background:#e8f0fa}.score{font-weight:bold}"""


def _highlight(text: str, spans: list[str]) -> str:
    """The text escaped, with every occurrence of the non-empty spans marked (longest first)."""
    marks: list[tuple[int, int]] = []
    for span in sorted({s for s in spans if s.strip()}, key=len, reverse=True):
        start = text.find(span)
        while start >= 0:
            end = start + len(span)
            if not any(a < end and start < b for a, b in marks):
                marks.append((start, end))
            start = text.find(span, end)
    out, pos = [], 0
    for a, b in sorted(marks):
        out += [html.escape(text[pos:a]), "<mark>", html.escape(text[a:b]), "</mark>"]
        pos = b
    out.append(html.escape(text[pos:]))
    return "".join(out)


def review_html(result: MineResult) -> str:
    """The review page as text."""
    s = result.summary
    e = html.escape
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>Candidate conflicts ({s.candidates})</title><style>{_CSS}</style></head><body>",
             f"<h1>Candidate conflicts: {s.candidates}</h1>",
             f"<p>{s.documents} documents, {s.passages} passages, {s.facts} facts, {s.pairs} pairs verified "
             f"({e(s.settings)})."
             " Each candidate shows the fact's passage (left, the fact shaded) and the passage that contradicts it "
             "(right); the conflicting words are highlighted. Sorted by score, best first.</p>"]
    if s.skipped:
        parts.append("<p>Skipped documents:</p><ul>" + "".join(f"<li>{e(p.line())}</li>" for p in s.skipped)
                     + "</ul>")
    for inst, c in zip(result.instances, result.candidates, strict=True):
        v = c.verdict
        left = _highlight(c.fact.passage.text, [v.fact_span])
        fact_html = _highlight(c.fact.text, [v.fact_span])
        esc_fact = html.escape(c.fact.text)
        if esc_fact in left:  # shade the fact inside its passage, keeping the span's mark
            left = left.replace(esc_fact, f'<span class="fact">{fact_html}</span>', 1)
        right = _highlight(c.evidence.text, [v.evidence_span])
        parts.append(
            f'<section id="{e(inst.id)}"><h2>{e(inst.id)} <span class="score">score {v.score:g}</span> '
            f"({e(v.verdict)}, {e(v.reasoning)})</h2>"
            f"<p>{e(v.explanation)}</p>"
            f"<p><b>Drafted query:</b> {e(inst.query)}<br><b>Answers:</b> {e(inst.answers['1'].short)} / "
            f"{e(inst.answers['2'].short)}</p>"
            '<div class="pair">'
            f'<div><div class="src">{e(c.fact.passage.file)}, passage {c.fact.passage.position}'
            f"{e(' - ' + c.fact.passage.heading) if c.fact.passage.heading else ''}</div>"
            f'<div class="passage">{left}</div></div>'
            f'<div><div class="src">{e(c.evidence.file)}, passage {c.evidence.position}'
            f"{e(' - ' + c.evidence.heading) if c.evidence.heading else ''}</div>"
            f'<div class="passage">{right}</div></div>'
            "</div></section>")
    if not result.candidates:
        parts.append("<p>No candidate conflicts were found.</p>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def write_review(result: MineResult, path: str | Path) -> None:
    Path(path).write_text(review_html(result), encoding="utf-8")
