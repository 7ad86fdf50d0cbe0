"""Keep docs, data files and packaging honest."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from jsonschema import Draft7Validator

from ragability_gen.cli import main
from ragability_gen.core.resources import data_dir
from ragability_gen.core.schemas import KINDS, load_schema
from ragability_gen.core.validate import validate_file

ROOT = Path(__file__).resolve().parent.parent


def test_every_schema_is_a_valid_schema() -> None:
    files = sorted(p.name for p in data_dir("schemas").glob("*.json"))
    assert files == sorted(KINDS.values())
    for kind in KINDS:
        Draft7Validator.check_schema(load_schema(kind))


@pytest.mark.parametrize("path", sorted(
    [*data_dir("converters").glob("*.hjson"), *data_dir("checks").glob("*.hjson"), *data_dir("corpora").glob("*.tsv")]),
    ids=lambda p: p.name)
def test_every_shipped_data_file_validates(path: Path) -> None:
    kind, problems, _ = validate_file(path)
    assert problems == []
    assert kind == ("prompts" if path.stem.endswith("-prompts") else
                    {"converters": "converter-spec", "checks": "suite-spec", "corpora": "corpus"}[path.parent.name])


def test_every_command_has_help_and_is_in_the_readme() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name, command in main.commands.items():
        result = CliRunner().invoke(main, [name, "--help"])
        assert result.exit_code == 0 and command.help, name
        assert f"### `ragability-gen {name}`" in readme, name
        for param in command.params:
            for opt in param.opts:
                if opt.startswith("--") and opt != "--help":
                    assert opt in readme, f"{name} {opt} is not documented in README.md"


def test_readme_starts_with_the_two_commands_ci_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8").split("```")
    commands = [line for line in readme[1].splitlines()[1:] if line.strip()]
    assert len(commands) == 2
    assert commands[0].startswith('pip install ".[dev]" && ragability-gen convert corpora/demo.tsv')
    assert commands[1].startswith("python -m pytest")
    assert "awk '/^```/{n++; next} n==1' README.md" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_data_folders_ship_with_a_plain_install(tmp_path: Path) -> None:
    """Install the package (no deps, no network) into a folder and run convert from elsewhere.

    The build runs in a copy of the source tree: setuptools writes build/ and *.egg-info into the tree it
    builds, and two test runs in one checkout would otherwise build over each other.
    """
    target, source = tmp_path / "site", tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", "build", "*.egg-info", "__pycache__",
                                                                ".pytest_cache", ".mypy_cache", ".ruff_cache"))
    build = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--no-build-isolation", "--no-index", "-q",
         "--target", str(target), str(source)], capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    for folder in ("schemas", "converters", "checks", "corpora"):
        assert sorted(p.name for p in (target / "ragability_gen" / folder).iterdir() if p.suffix != ".py") == sorted(
            p.name for p in (ROOT / folder).iterdir() if p.suffix != ".py" and p.name != "__pycache__"), folder
    work = tmp_path / "work"
    work.mkdir()
    env = {**os.environ, "PYTHONPATH": str(target)}
    code = ("import ragability_gen, sys; from ragability_gen.cli import main; "
            "assert ragability_gen.__file__.startswith(sys.argv[1]), ragability_gen.__file__; "
            "sys.argv = ['ragability-gen', 'convert', sys.argv[2], '-o', 'demo.hjson', '-q']; main()")
    demo = target / "ragability_gen" / "corpora" / "demo.tsv"
    run = subprocess.run([sys.executable, "-c", code, str(target), str(demo)], cwd=work, env=env,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert (work / "demo.hjson").is_file() and (work / "demo.prompts.hjson").is_file()


def test_every_subpackage_is_listed_for_installation():
    """A subpackage missing from setup.cfg's ``packages`` works from a checkout and breaks once installed."""
    import configparser

    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg")
    listed = {line.strip() for line in cfg["options"]["packages"].splitlines() if line.strip()}
    found = {".".join(init.parent.relative_to(ROOT).parts) for init in (ROOT / "ragability_gen").rglob("__init__.py")}
    assert found - listed == set()


def test_demo_document_collection_ships_and_its_planted_conflicts_are_real() -> None:
    """Every file of corpora/acme-docs matches a package_data glob, and every planted conflict names two
    documents of the collection and a statement that is in each."""
    import configparser
    import fnmatch

    from ragability_gen.mine import read_collection
    from ragability_gen.mine.planted import read_planted

    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg")
    globs = [g.strip() for g in cfg["options.package_data"]["ragability_gen.corpora"].split(",")]
    docs = sorted(p.relative_to(ROOT / "corpora").as_posix() for p in (ROOT / "corpora" / "acme-docs").iterdir())
    assert [d for d in docs if not any(fnmatch.fnmatch(d, g) for g in globs)] == []
    passages, problems = read_collection([data_dir("corpora") / "acme-docs"])
    assert problems == []
    text = {}
    for p in passages:
        text[p.file] = text.get(p.file, "") + "\n" + p.text
    planted = read_planted(data_dir("corpora") / "acme-docs-conflicts.jsonl")
    assert len(planted) == 13 and len({p["kind"] for p in planted}) >= 4
    for p in planted:
        assert p["text_1"] in text[p["file_1"]] and p["text_2"] in text[p["file_2"]], p["id"]
