"""Shared fixtures: the shipped demo corpus, a CLI runner, and a TSV builder for bad-input cases."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ragability_gen.cli import main
from ragability_gen.core.resources import data_dir

V04_COLUMNS = [
    "contradiction_ID", "WikiContradict_ID", "reasoning_required_c1c2", "c1xq", "c2xq", "context_1",
    "context_2", "context_3_nc1_c2", "context_4_nc1_nc2_nc3", "query_text", "answer_context1",
    "answer_context1_long", "answer_context2", "answer_context2_long",
]

ROW = {
    "contradiction_ID": "13", "WikiContradict_ID": "42", "reasoning_required_c1c2": "categorical",
    "c1xq": "qeu", "c2xq": "qeu", "context_1": "A Cap Squirrel is a suricate.",
    "context_2": "A Cap Squirrel is a squirrel.", "context_3_nc1_c2": "A Cap squirrel is a small mongoose.",
    "context_4_nc1_nc2_nc3": "A Cap squirrel is an animal.",
    "query_text": "What kind of animal is a Cap Squirrel?", "answer_context1": "a suricate",
    "answer_context1_long": "A cap squirrel is a suricate.", "answer_context2": "a squirrel",
    "answer_context2_long": "A cap squirrel is a squirrel.",
}


def tsv_text(rows: list[dict[str, str]], columns: list[str] | None = None) -> str:
    """A TSV with plain (unquoted) cells; callers build quoting cases by hand."""
    cols = columns or V04_COLUMNS
    return "\n".join(["\t".join(cols)] + ["\t".join(r.get(c, "") for c in cols) for r in rows]) + "\n"


def row(**changes: str) -> dict[str, str]:
    return {**ROW, **changes}


def edited_suite_spec(folder: Path, edit: Callable[[str], str], name: str = "ragability") -> Path:
    """A copy of a shipped suite spec with its text edited, beside a copy of its prompt file."""
    shipped = data_dir("checks") / f"{name}.hjson"
    out = folder / f"edited-{name}.hjson"
    out.write_text(edit(shipped.read_text(encoding="utf-8")), encoding="utf-8")
    prompts = data_dir("checks") / f"{name}-prompts.hjson"
    (folder / prompts.name).write_text(prompts.read_text(encoding="utf-8"), encoding="utf-8")
    return out


@pytest.fixture
def demo_tsv() -> Path:
    return data_dir("corpora") / "demo.tsv"


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Run the CLI in a fresh working folder; returns a function taking the argument list."""
    monkeypatch.chdir(tmp_path)

    def run(*args: str) -> Result:
        return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)

    return run


@pytest.fixture(autouse=True)
def _private_llm_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep every test's LLM response cache out of the user's cache folder and away from other tests."""
    monkeypatch.setenv("RAGABILITY_GEN_CACHE", str(tmp_path_factory.mktemp("cache") / "llm-cache.sqlite"))
