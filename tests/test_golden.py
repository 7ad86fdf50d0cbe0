"""Golden outputs: every file the convert, eval and export commands write, compared byte for byte.

The goldens in tests/data/golden/ were written by the code before the spec and layout rework, over
the shipped demo corpus and the WikiContradict RAG-QA sample: suites, prompt files, ``--to-corpus``
TSV and JSONL, and the eval report and export of a checked file whose results come from a fixed,
hash-based script (no model). A difference means a user's pipeline would see other files. (The
WikiContradict corpus TSV now needs ``--drop-unmapped``: the Ragability columns have no place for
WikiContradict's title, url and tags, and dropping them is no longer silent.)

To accept an intended change, regenerate with ``python tests/test_golden.py`` and review the diff.
"""

from __future__ import annotations

import copy
import gzip
import re
import shutil
import sys
import zlib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ragability_gen import convert_file, eval_file, export_file
from ragability_gen.cli import main
from ragability_gen.core.fileio import read_records, write_records
from ragability_gen.core.resources import data_dir

HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "data" / "golden"
SOURCES = {"demo.tsv": data_dir("corpora") / "demo.tsv",
           "wc.csv": HERE / "data" / "wikicontradict" / "rag_qa_sample.csv"}
COMMANDS = [
    ["convert", "demo.tsv", "-o", "demo.hjson"],
    ["convert", "demo.tsv", "--to-corpus", "demo.corpus.tsv"],
    ["convert", "demo.tsv", "--to-corpus", "demo.corpus.jsonl"],
    ["convert", "wc.csv", "-o", "wc.hjson"],
    ["convert", "wc.csv", "--to-corpus", "wc.corpus.tsv", "--drop-unmapped"],
    ["convert", "wc.csv", "--to-corpus", "wc.corpus.jsonl"],
    ["convert", "demo.corpus.jsonl", "-o", "demo-from-jsonl.json"],
]
CHECKED = [("demo.hjson", "demo.checked.jsonl"), ("wc.hjson", "wc.checked.jsonl")]
AFTER = [
    ["eval", "demo.checked.jsonl"],
    ["eval", "wc.checked.jsonl", "--by-tags", "default", "--by-tags", "wc_template_*&wc_explicit,wc_implicit",
     "--by-fields", "check.cid"],
    ["export", "demo.checked.jsonl"],
    ["export", "wc.checked.jsonl", "--all"],
]


def _pick(key: str, n: int) -> int:
    """A fixed pseudo-random choice from a name: the same files on every machine and run."""
    return zlib.crc32(key.encode("utf-8")) % n


def _checked(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Two testees' results with check results (pass, fail, check error, failed query) chosen by hashing."""
    out = []
    for llm in ("alpha", "beta"):
        for item in items:
            for pid in item["pids"]:
                rec = copy.deepcopy(item)
                key = f"{llm}/{item['qid']}/{pid}"
                failed = _pick(key, 23) == 0
                rec.update(pid=pid, llm=llm, response="" if failed else f"reply {_pick(key, 1000)}",
                           error="HTTP 500" if failed else "", cost=0.25)
                for c in rec["checks"]:
                    k = _pick(f"{key}/{c['cid']}", 20)
                    if failed:
                        c.update(result=None, error="the testee query failed")
                    elif k == 0:
                        c.update(result=None, error="expected a yes/no answer, got 'Maybe.'")
                    elif "wc_judge" == c.get("func"):
                        c.update(result=("correct", "partially correct", "incorrect")[k % 3], error="")
                    else:
                        c.update(result="1" if k % 3 else "0", error="")
                out.append(rec)
    return out


def build(folder: Path) -> dict[str, bytes]:
    """Run the commands in ``folder``; return every file written (relative name -> bytes)."""
    for name, src in SOURCES.items():
        shutil.copyfile(src, folder / name)
    runner = CliRunner()
    for args in COMMANDS:
        result = runner.invoke(main, args, catch_exceptions=False)
        assert result.exit_code == 0, (args, result.output)
    for suite, out in CHECKED:
        write_records(_checked(read_records(folder / suite)), folder / out, "jsonl")
    for args in AFTER:
        result = runner.invoke(main, args, catch_exceptions=False)
        assert result.exit_code == 0, (args, result.output)
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name not in SOURCES}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    folder = tmp_path_factory.mktemp("golden")
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(folder)
        return build(folder)


def _unversioned(data: bytes) -> bytes:
    """The suite header names the installed version; that alone may differ."""
    return re.sub(rb"made by ragability-gen \S+ with", b"made by ragability-gen VERSION with", data, count=1)


def _goldens() -> list[str]:
    return sorted(str(p.relative_to(GOLDEN))[:-3] for p in GOLDEN.rglob("*.gz"))


def test_the_same_files_are_written(built: dict[str, bytes]) -> None:
    assert sorted(built) == _goldens()
    assert len(built) > 20


@pytest.mark.parametrize("name", _goldens())
def test_every_file_is_byte_identical(built: dict[str, bytes], name: str) -> None:
    want = _unversioned(gzip.decompress((GOLDEN / f"{name}.gz").read_bytes()))
    got = _unversioned(built[name]) if name in built else None
    if got != want:
        got_lines, want_lines = (got or b"").splitlines(), want.splitlines()
        first = next((i for i, (a, b) in enumerate(zip(got_lines, want_lines, strict=False)) if a != b),
                     min(len(got_lines), len(want_lines)))
        pytest.fail(f"{name} differs from its golden from line {first + 1}:\n"
                    f"  golden:  {want_lines[first][:200] if first < len(want_lines) else '<end>'!r}\n"
                    f"  written: {got_lines[first][:200] if first < len(got_lines) else '<end>'!r}")


def test_the_library_calls_write_the_same_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """convert_file, eval_file and export_file, with the commands' defaults, give the commands' files."""
    monkeypatch.chdir(tmp_path)
    shutil.copyfile(SOURCES["demo.tsv"], tmp_path / "demo.tsv")
    shutil.copyfile(SOURCES["wc.csv"], tmp_path / "wc.csv")
    assert convert_file("demo.tsv").output == Path("demo.hjson")
    assert convert_file("wc.csv", to_corpus="wc.corpus.tsv", drop_unmapped=True).written == 20
    write_records(_checked(read_records(tmp_path / "demo.hjson")), tmp_path / "demo.checked.jsonl", "jsonl")
    assert eval_file("demo.checked.jsonl").output == Path("demo.checked-report")
    assert export_file("demo.checked.jsonl")[1] == Path("demo.checked.export.tsv")
    for name in ("demo.hjson", "demo.prompts.hjson", "wc.corpus.tsv", "demo.checked-report/overall.tsv",
                 "demo.checked-report/report.md", "demo.checked.export.tsv"):
        want = _unversioned(gzip.decompress((GOLDEN / f"{name}.gz").read_bytes()))
        assert _unversioned((tmp_path / name).read_bytes()) == want, name


def regenerate() -> None:  # pragma: no cover - a maintainer's tool
    """Rewrite the goldens from the current code (run after an intended change, then review the diff)."""
    import os
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        files = build(Path(tmp))
    shutil.rmtree(GOLDEN, ignore_errors=True)
    for name, data in files.items():
        target = GOLDEN / f"{name}.gz"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
    print(f"wrote {len(files)} goldens to {GOLDEN}", file=sys.stderr)


if __name__ == "__main__":  # pragma: no cover
    regenerate()
