"""Recognisability: sentence skeletons, and which texts share a template across rows."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from ragability_gen import read_instances
from ragability_gen.generate.distinct import (
    SHARED_TEMPLATE,
    TemplateIndex,
    closest,
    grams,
    overlap,
    shaped,
    skeleton,
    template_clash,
)


def test_skeleton_masks_the_instance_material_and_keeps_the_template() -> None:
    material = ["In which year was Queen Isaura of Tallowmere crowned?", "Queen Isaura was crowned in 1342."]
    assert skeleton("The name Queen Isaura appears in several archival records.", material) == (
        "the", "name", "_", "appears", "in", "several", "archival", "records")
    assert skeleton("In 1342, Queen Isaura of Tallowmere was crowned.", material) == (
        "in", "#", "_", "of", "_", "was", "_")
    # a sentence made only of the instance's material and function words has no template 3-grams
    assert grams(skeleton("In 1342, Queen Isaura of Tallowmere was crowned.", material)) == frozenset()


def test_overlap_is_the_same_both_ways() -> None:
    a = grams(("x", "own", "words", "here", "too"))
    b = grams(("own", "words", "here"))
    assert overlap(a, b) == overlap(b, a) == 1.0
    assert overlap(a, frozenset()) == 0.0


def test_the_old_template_is_caught_and_the_hand_written_demo_contexts_are_not(demo_tsv: Path) -> None:
    instances, _ = read_instances(demo_tsv)
    for cid in ("3", "4"):
        shapes = [shaped(i, cid, i.contexts[cid].text) for i in instances if cid in i.contexts]
        assert all(template_clash(s, shapes) is None for s in shapes), cid
        assert max(closest(s, shapes) for s in shapes) < SHARED_TEMPLATE
    a, b = instances[0], instances[2]
    old_a = shaped(a, "4", "The name Olinde brevicula appears in several archival records.")
    old_b = shaped(b, "4", "The name Queen Isaura of Tallowmere appears in several archival records.")
    assert template_clash(old_b, [old_a]) == (
        "it shares its sentence skeleton with row 1 (3-gram overlap 0.83; a template from 0.5)")
    # rows of one contradiction id share their contexts, so they are never compared
    twin = dataclasses.replace(a, query="Another question about Olinde brevicula?", variation=2)
    assert template_clash(shaped(twin, "4", "The name Olinde brevicula appears in several archival records."),
                          [old_a]) is None


def test_the_same_skeleton_of_material_and_function_words_is_one_template(demo_tsv: Path) -> None:
    instances, _ = read_instances(demo_tsv)
    town = next(i for i in instances if i.id == "11")
    kingdom = next(i for i in instances if i.id == "19")
    a = shaped(town, "4", "Carrowden is a town.")
    b = shaped(kingdom, "4", "Tallowmere is a kingdom.")
    assert a.grams == frozenset() and a.skeleton == b.skeleton == ("_", "is", "a", "_")
    assert template_clash(b, [a]) == "it has the same sentence skeleton as row 11 ('_ is a _')"
    assert closest(b, [a]) == 1.0


def test_the_index_answers_as_the_plain_comparison_does(demo_tsv: Path) -> None:
    instances, _ = read_instances(demo_tsv)
    texts = [i.contexts[c].text for i in instances for c in ("3", "4") if c in i.contexts]
    texts += ["The name X appears in several archival records.", "Carrowden is a town.", "Tallowmere is a kingdom."]
    shapes = [shaped(instances[n % len(instances)], "4", t) for n, t in enumerate(texts)]
    index = TemplateIndex()
    for n, s in enumerate(shapes):
        assert index.clash(s) == template_clash(s, shapes[:n])
        assert index.closest(s) == closest(s, shapes[:n])
        index.add(s)
    assert any(index.clash(s) for s in shapes)  # the comparison found something to agree on
