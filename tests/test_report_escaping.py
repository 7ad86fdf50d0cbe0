"""Everything from the data is shown, never rendered, in report.md and report.html.

Hostile strings go into every field that reaches a report (model name, tags, prompt id, metric, check
id, error text, the input's file name); report.md is rendered with a CommonMark renderer (tables on),
as GitHub or an editor preview would, and both pages are searched for live markup.
"""

from __future__ import annotations

import copy
import html
import re
from pathlib import Path
from typing import Any

import pytest

from ragability_gen import compile_suite, read_instances, read_records, write_records
from ragability_gen.core.resources import data_dir
from ragability_gen.evaluate.report import md_text

HOSTILE = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(2)>",
    "![pwn](javascript:alert(3))",
    "[link](http://evil.example)",
    "**bold** `code` _u_ ~~s~~ &amp; | pipe #h \\ back",
]


def hostile_checked(tmp_path: Path) -> Path:
    suite = tmp_path / "demo.hjson"
    compile_suite(read_instances(data_dir("corpora") / "demo.tsv")[0], suite)
    items = read_records(suite)[:40]
    records = []
    for k, llm in enumerate([HOSTILE[0], HOSTILE[1] + " " + HOSTILE[4]]):
        for i, item in enumerate(items):
            rec = copy.deepcopy(item)
            rec["tags"] += ", script " + HOSTILE[i % len(HOSTILE)].replace(",", ";")
            rec.update(pid=HOSTILE[(i + k) % len(HOSTILE)], llm=llm, response="r", error="", cost=0.0)
            for j, c in enumerate(rec["checks"]):
                c["metrics"] = [*c["metrics"], HOSTILE[(i + j) % len(HOSTILE)]]
                c["cid"] = HOSTILE[(i + 1) % len(HOSTILE)]
                bad = i % 4 == 0
                c.update(result=None if bad else "1", error=HOSTILE[i % len(HOSTILE)] if bad else "")
            records.append(rec)
    name = tmp_path / "<img src=x onerror=alert(9)>.json"
    write_records(records, name)
    return name


def test_md_text_escapes_every_markup_character() -> None:
    assert md_text("<b>*x*</b>|[y](z)\n") == "\\<b\\>\\*x\\*\\</b\\>\\|[y\\](z) "
    assert md_text("q_no_context _u_ [86.2, 100.0] ![i][r] [d]: u") == \
        "q_no_context \\_u\\_ [86.2, 100.0] ![i\\][r] [d\\]: u"


def test_hostile_strings_are_shown_not_rendered(cli: Any, tmp_path: Path) -> None:
    markdown_it = pytest.importorskip("markdown_it")
    checked = hostile_checked(tmp_path)
    r = cli("eval", checked, "-o", tmp_path / "rep", "--by-tags", "default", "--by-tags", "evil=script*",
            "--by-fields", "pid", "--by-fields", "check.cid")
    assert r.exit_code == 0, r.output
    md = (tmp_path / "rep" / "report.md").read_text(encoding="utf-8")
    rendered = markdown_it.MarkdownIt("commonmark").enable("table").render(md)
    page = (tmp_path / "rep" / "report.html").read_text(encoding="utf-8")
    for out in (rendered, page):
        assert "<script" not in out.lower()
        links = re.findall(r"<a\b[^>]*>", out, flags=re.I)
        imgs = re.findall(r"<img\b[^>]*>", out, flags=re.I)
        assert all('src="charts/' in t for t in imgs), imgs  # the report's own charts only
        assert all(re.fullmatch(r'<a href="#[a-z0-9-]*">', a) for a in links), links  # the page's own contents
        text = html.unescape(re.sub(r"<[^>]+>", "", out))
        for h in HOSTILE[:4]:
            assert h in text, (h, out[:2000])
    assert "<strong>bold</strong>" not in rendered and "<code>code</code>" not in rendered
    assert "**bold** `code` _u_ ~~s~~ &amp; | pipe #h \\ back" in html.unescape(re.sub(r"<[^>]+>", "", rendered))
