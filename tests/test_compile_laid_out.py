"""The compiler's laid-out items (encoded fragments, written by orjson) make the same files as its plain items."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from ragability_gen.compile.core import Suite, compile_suite
from ragability_gen.convert.core import read_instances
from ragability_gen.core.fileio import write_records
from ragability_gen.core.model import Instance
from ragability_gen.core.specs import load_suite_spec


def odd_metadata(instances: list[Instance]) -> list[Instance]:
    """Metadata of every JSON type, as a JSONL instance corpus may carry it (floats orjson writes otherwise)."""
    values = [1e-05, 1e16, float("nan"), [1, "two", {"three": 3.5}], {"a": ["b", "c" * 80]}, None, True, 7, "x\ty"]
    for n, inst in enumerate(instances):
        inst.metadata = {**inst.metadata, "odd": values[n % len(values)], "also": values[(n + 3) % len(values)]}
    return instances


@pytest.mark.parametrize("suite", ["ragability", "wikicollide", "wikicontradict"])
@pytest.mark.parametrize("fmt", ["hjson", "json"])
@pytest.mark.parametrize("odd", [False, True])
def test_compiled_files_are_the_plain_items_written_value_by_value(demo_tsv: Path, tmp_path: Path, suite: str,
                                                                    fmt: str, odd: bool) -> None:
    instances, _ = read_instances(demo_tsv)
    if odd:
        instances = odd_metadata(instances)
    spec = load_suite_spec(suite)
    summary, _ = compile_suite(instances, tmp_path / f"fast.{fmt}", spec, fmt)
    items = list(Suite(spec).items(instances))
    assert summary.items == len(items) > 0
    write_records(items, tmp_path / f"plain.{fmt}", fmt)
    fast = (tmp_path / f"fast.{fmt}").read_bytes()
    plain = (tmp_path / f"plain.{fmt}").read_bytes()
    if fmt == "hjson":  # the plain file has no header
        fast = fast[fast.index(b"\n[") + 1:]
    assert fast == plain


def test_laid_out_items_share_the_fragments_of_a_variant_and_an_instance(demo_tsv: Path) -> None:
    """Checks without templates are encoded once per variant and shape; passages once per instance and order."""
    instances, _ = read_instances(demo_tsv)
    twin = copy.deepcopy(instances[0])
    twin.id = "twin"
    instances[:2] = [instances[0], twin]  # two instances of the same shape
    items = list(Suite(load_suite_spec("ragability")).items(instances[:2], laid_out=True))
    by_variant: dict[str, list[object]] = {}
    for it in items:
        by_variant.setdefault(it["qid"].split("-")[1], []).append(it["checks"])
    assert by_variant["ctx12q"][0] is by_variant["ctx12q"][1]  # a conflict's checks: no templates
    first = [it for it in items if it["qid"].startswith(instances[0].id + "-")]
    assert next(it["facts"] for it in first if it["qid"].endswith("ctx12q-var01")) is next(
        it["facts"] for it in first if it["qid"].endswith("ctx12ic-var01"))
