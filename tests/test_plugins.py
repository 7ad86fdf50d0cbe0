"""Plugins: another package's converter and check function, found through entry points and used from a suite.

The plugin is a real (tiny) installed distribution: a package and its ``.dist-info`` folder with an
``entry_points.txt``, in a temporary folder put on ``sys.path``, which is all ``importlib.metadata``
needs to find it.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ragability_gen import read_records, write_records
from ragability_gen.checkfuncs import CHECKS
from ragability_gen.convert import CONVERTERS
from ragability_gen.core.registry import Registry
from ragability_gen.errors import PluginError

CHECKS_PY = '''\
from ragability_gen.checkfuncs import register_check


@register_check("shouts", "binary", description="1 when the reply is in capitals")
def shouts(response: str) -> str:
    return "1" if response.isupper() else "0"
'''
LINES_PY = '''\
from ragability_gen.convert.core import ConvertSummary, register_converter
from ragability_gen.core.model import Answer, Context, Instance, Provenance


def register() -> None:
    @register_converter("pipe-lines")
    def pipe_lines(path, spec, options):
        """One instance per line: id|query|passage 1|passage 2|answer 1|answer 2."""
        instances = []
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            i, q, c1, c2, a1, a2 = line.split("|")
            instances.append(Instance(
                id=i, query=q,
                contexts={"1": Context("1", c1, "qeu", "1"), "2": Context("2", c2, "qeu", "2", contradicts=("1",))},
                answers={"1": Answer(a1, a1), "2": Answer(a2, a2)}, provenance=Provenance(str(path), n, spec.name)))
        return instances, ConvertSummary(str(path), spec.name, records_read=len(instances), instances=len(instances))
'''
ENTRY_POINTS = """\
[ragability_gen.checks]
shouts = ragplug.checks

[ragability_gen.converters]
pipe-lines = ragplug.lines:register
"""


def install(site: Path, entry_points: str = ENTRY_POINTS, lines_py: str = LINES_PY) -> None:
    pkg = site / "ragplug"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "checks.py").write_text(CHECKS_PY, encoding="utf-8")
    (pkg / "lines.py").write_text(lines_py, encoding="utf-8")
    info = site / "ragplug-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: ragplug\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(entry_points, encoding="utf-8")


@pytest.fixture
def plugin_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder on sys.path for the plugin; afterwards the registries hold only what they held before."""
    site = tmp_path / "site"
    site.mkdir()
    before = {id(reg): dict(reg._items) for reg in (CHECKS, CONVERTERS)}
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    yield site
    for reg in (CHECKS, CONVERTERS):
        reg._items.clear()
        reg._items.update(before[id(reg)])  # type: ignore[arg-type]
    for name in [m for m in sys.modules if m == "ragplug" or m.startswith("ragplug.")]:
        del sys.modules[name]


def test_a_plugin_converter_and_check_are_used_from_a_suite(cli: Any, plugin_site: Path, tmp_path: Path) -> None:
    install(plugin_site)
    CHECKS.refill()
    CONVERTERS.refill()
    (tmp_path / "data.pipe").write_text("7|Is the door red?|The door is red.|The door is blue.|red|blue\n",
                                        encoding="utf-8")
    (tmp_path / "pipe.hjson").write_text('{name: "pipe", converter: "pipe-lines"}\n', encoding="utf-8")
    suite = Path(__file__).resolve().parent.parent / "checks" / "ragability.hjson"
    text = suite.read_text(encoding="utf-8").replace(
        '{cid: "answer_correct", func: "affirmative", metrics: ["correct_answer_all", "contradiction_identification"]}',
        '{cid: "answer_correct", func: "shouts", metrics: ["correct_answer_all", "contradiction_identification"]}')
    assert text.count('func: "shouts"') == 1
    (tmp_path / "loud.hjson").write_text(text, encoding="utf-8")
    (tmp_path / "ragability-prompts.hjson").write_text(
        (suite.parent / "ragability-prompts.hjson").read_text(encoding="utf-8"), encoding="utf-8")

    result = cli("convert", "data.pipe", "--converter", "pipe.hjson", "--suite", "loud.hjson", "-o", "s.jsonl")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[0] == "data.pipe: read 1 records with converter 'pipe', kept 1 instances"
    items = read_records(tmp_path / "s.jsonl")
    ic_yes = [it for it in items if it["checks"][0]["func"] == "shouts"]
    assert [it["qid"] for it in ic_yes] == ["7-ctx12ic-var01", "7-ctx21ic-var01"]
    results = [{**it, "pid": it["pids"][0], "llm": "m", "response": reply, "error": ""}
               for it, reply in zip(ic_yes, ["YES", "yes"], strict=True)]
    write_records(results, tmp_path / "res.jsonl", "jsonl")
    result = cli("check", "res.jsonl", "-o", "checked.jsonl", "--no-cache", "-q")
    assert result.exit_code == 0, result.output
    assert [c["result"] for rec in read_records(tmp_path / "checked.jsonl") for c in rec["checks"]] == ["1", "0"]


def test_a_broken_plugin_is_one_error_line(cli: Any, plugin_site: Path, demo_tsv: Path) -> None:
    install(plugin_site, lines_py="raise RuntimeError('half-installed')\n")
    with pytest.raises(PluginError) as err:
        CONVERTERS.refill()
    assert err.value.problems == [
        "plugin pipe-lines = ragplug.lines:register (entry point group ragability_gen.converters, distribution "
        "ragplug): cannot be loaded: RuntimeError: half-installed"]
    result = cli("convert", demo_tsv, "-q")
    assert (result.exit_code, result.stderr) == (1, f"error: {err.value.problems[0]}\n")


def test_builtins_register_when_the_registry_is_first_read() -> None:
    code = ("import sys, ragability_gen\n"
            "lazy = ('ragability_gen.checkfuncs.judge', 'ragability_gen.convert.wikicontradict')\n"
            "print(*[m in sys.modules for m in lazy])\n"
            "from ragability_gen import CHECKS\n"
            "from ragability_gen.convert import CONVERTERS\n"
            "print('wc_judge' in CHECKS, 'wikicontradict-csv' in CONVERTERS, *[m in sys.modules for m in lazy])\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}).stdout
    assert out.splitlines() == ["False False", "True True True True"]


def test_a_registry_is_a_mapping_filled_on_first_read() -> None:
    reg: Registry[int] = Registry("ragability_gen.no_such_group")
    reg["x"] = 1
    assert reg._items == {"x": 1} and not reg._filled
    assert dict(reg) == {"x": 1} and len(reg) == 1 and reg.get("y") is None and reg._filled
    del reg["x"]
    assert "x" not in reg
