"""What makes substitution cheaper must not change it: tags tagged in batches, groups built side by side."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from ragability_gen import read_instances, substitute_instances
from ragability_gen.substitute import core, nlp

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "corpora" / "demo.tsv"


@pytest.fixture(scope="module")
def model():
    return nlp.load_model()


def demo_texts() -> list[str]:
    instances, _ = read_instances(DEMO)
    return list(dict.fromkeys(t for inst in instances for _, t in core.text_fields(inst)))


def test_batched_tags_are_the_tags_of_one_text_at_a_time(model) -> None:
    texts = demo_texts()
    alone = {t: nlp.Annotations(model, []).tags(t) for t in texts}  # a fresh cache: each text tagged on its own

    shuffled = random.Random(3).sample(texts, len(texts))
    batched = nlp.Annotations(model, [])
    got = batched.batched([lambda t=t: batched.tags(t) for t in shuffled], lambda: None, lambda state: None)

    assert got == [alone[t] for t in shuffled]
    assert any(tags.proper for tags in got) and any(tags.plural_starts for tags in got)


def test_batched_jobs_wait_for_tags_and_get_their_own_generator_state_back(model) -> None:
    texts = ["Bremen lies on the Weser.", "Will they come in 1990?", "Notes and coins were issued.",
             "In 1995 engineers arrived.", "Paris is large."]
    ann = nlp.Annotations(model, [])
    rng = random.Random()
    asked: list[str] = []

    def job(seed: int, mine: list[str]) -> tuple[list[float], list[nlp.Tags]]:
        rng.seed(seed)
        draws, tags = [], []
        for t in mine:
            draws.append(rng.random())
            asked.append(t)
            tags.append(ann.tags(t))  # waits: every job runs to here before any text is tagged
            draws.append(rng.random())
        return draws, tags

    jobs = [lambda s=s, m=m: job(s, m) for s, m in ((1, texts[:3]), (2, texts[2:]), (3, texts[::2]))]
    got = ann.batched(jobs, rng.getstate, rng.setstate)

    assert asked[:3] == [texts[0], texts[2], texts[0]]  # the first text of each job, before any tagging
    for (draws, tags), (seed, mine) in zip(got, ((1, texts[:3]), (2, texts[2:]), (3, texts[::2])), strict=True):
        alone = random.Random(seed)
        assert draws == [alone.random() for _ in range(2 * len(mine))]
        assert tags == [nlp.Annotations(model, []).tags(t) for t in mine]


def test_batched_passes_a_job_error_on(model) -> None:
    ann = nlp.Annotations(model, [])

    def fails() -> None:
        ann.tags("Bremen lies on the Weser.")
        raise ValueError("broken job")

    with pytest.raises(ValueError, match="broken job"):
        ann.batched([fails], lambda: None, lambda state: None)
    assert ann.tags("Paris is large.").proper == ((0, 5),)  # no batch left running: tagged at once


def test_one_process_and_two_workers_give_the_same_result(model) -> None:
    instances, _ = read_instances(DEMO)
    many = [replace(inst, id=f"{inst.id}-{k}") for k in range(12) for inst in instances]
    one = substitute_instances(many, seed=5, workers=1)
    two = substitute_instances(many, seed=5, workers=2)
    assert one.instances == two.instances and one.audit == two.audit
    assert len(one.audit) == len(many) and any(rec["entities"] for rec in one.audit)


def test_zipf_without_the_tokenizer_is_wordfreqs_zipf() -> None:
    from wordfreq import get_frequency_dict, zipf_frequency

    from ragability_gen.substitute import names

    listed = [w for w in list(get_frequency_dict("en"))[::40] if w.isascii() and w.isalpha()]
    rng = random.Random(4)
    letters = "abcdefghijklmnopqrstuvwxyz"
    invented = ["".join(rng.choice(letters) for _ in range(rng.randint(1, 11))) for _ in range(3000)]
    other = ["Zürich", "don't", "New York", "1990s", "naïve", "", "l'Orient", "ARNOLD"]
    words = [v for w in listed + invented for v in (w, w.capitalize(), w.upper())] + other
    assert len(listed) > 5000
    assert [names.zipf_en.__wrapped__(w) for w in words] == [zipf_frequency(w, "en") for w in words]
    assert [names._listed(w) for w in words] == [zipf_frequency(w, "en") > 0 for w in words]
    assert names.zipf_en("the") > 7 and names.zipf_en("Jasonlandish") == 0
