"""``import ragability_gen`` is cheap: the public names are imported when first used (PEP 562)."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import ragability_gen


def run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_importing_the_package_imports_no_stage() -> None:
    loaded = run("import sys, ragability_gen; print(sorted(m for m in sys.modules if m.startswith('ragability_gen')))")
    assert loaded == "['ragability_gen']"


def test_every_exported_name_is_the_object_of_its_module() -> None:
    assert sorted(ragability_gen.__all__) == sorted(ragability_gen._MODULE_OF)
    assert len(set(ragability_gen.__all__)) == len(ragability_gen.__all__)
    for name, module in ragability_gen._MODULE_OF.items():
        assert getattr(ragability_gen, name) is getattr(importlib.import_module(module), name), name
    assert set(ragability_gen.__all__) <= set(dir(ragability_gen))


def test_unknown_names_and_subpackages() -> None:
    with pytest.raises(AttributeError, match="has no attribute 'nosuch'"):
        ragability_gen.nosuch  # noqa: B018
    assert ragability_gen.core is importlib.import_module("ragability_gen.core")


def test_registries_are_filled_when_first_read_in_a_fresh_interpreter() -> None:
    code = ("from ragability_gen import CHECKS, CONVERTERS; "
            "print('affirmative' in CHECKS, 'rank_ndcg' in CHECKS, 'table' in CONVERTERS, 'instances' in CONVERTERS)")
    assert run(code) == "True True True True"


@pytest.mark.parametrize("module", ["ragability_gen.core.validate", "ragability_gen.evaluate", "ragability_gen.cli",
                                    "ragability_gen.compile", "ragability_gen.convert", "ragability_gen.run.core"])
def test_each_stage_imports_first_in_a_fresh_interpreter(module: str) -> None:
    """No import cycle hides behind an order in which the package used to import its stages."""
    assert run(f"import {module}; print('ok')") == "ok"


def test_functions_named_like_their_subpackages_stay_functions() -> None:
    code = ("import ragability_gen.calibrate, ragability_gen.mine, ragability_gen as r; "
            "from ragability_gen import calibrate, mine; "
            "print(callable(r.calibrate), callable(r.mine), calibrate is r.calibrate, mine is r.mine)")
    assert run(code) == "True True True True"
