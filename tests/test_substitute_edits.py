"""The leak scan and --strict, edited mappings (--mapping-in), and the LLM reviewer against a scripted server."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import row, tsv_text

from ragability_gen import Answer, Context, Instance, read_instances, read_records, substitute_instances
from ragability_gen.core.schemas import record_problems
from ragability_gen.llm.client import LLM, spec_for
from ragability_gen.llm.testing import Reply, ScriptedServer, user_text
from ragability_gen.substitute import core, nlp
from ragability_gen.substitute.edits import Entry, read_mapping
from ragability_gen.substitute.entities import Mention, norm
from ragability_gen.substitute.mapping import build_table
from ragability_gen.substitute.rewrite import rewrite


@pytest.fixture(scope="module", autouse=True)
def spacy_model() -> Any:
    return nlp.load_model()


def make(contexts: list[str], query: str, iid: str = "1") -> Instance:
    ctx = {str(i): Context(str(i), t, "qeu", str(i) if i <= 2 else None, (), ("1",) if i == 2 else ())
           for i, t in enumerate(contexts, 1)}
    return Instance(iid, query, ctx, {"1": Answer("yes", "Yes."), "2": Answer("no", "No.")})


SHIP = make(["Charles Darwin reached Chile aboard HMS Beagle in 1835.",
             "Darwin reached Chile in 1834, nine years before he left London."],
            "When did Charles Darwin reach Chile?")


def texts(inst: Instance) -> list[str]:
    return [t for _, t in core.text_fields(inst)]


def has_word(word: str, inst: Instance) -> bool:
    return any(re.search(r"(?<!\w)" + re.escape(word) + r"(?!\w)", t) for t in texts(inst))


def test_the_scan_lists_names_left_and_strict_leaves_the_instance_out() -> None:
    loose = substitute_instances([SHIP], seed=2, types=["PERSON"])  # places are not replaced: they are left
    rec = loose.audit[0]
    assert rec["status"] == "substituted" and has_word("Chile", loose.instances[0])
    assert {(s["field"], s["text"], s["kind"]) for s in rec["suspects"]} >= {
        ("contexts/1", "Chile", "name"), ("contexts/2", "London", "name"), ("query", "Chile", "name")}
    assert not any(s["text"] in ("Darwin", "Charles") for s in rec["suspects"])  # replaced: not suspected
    assert loose.summary.suspected == 1 and loose.summary.suspects["name"] >= 3
    strict = substitute_instances([SHIP], seed=2, types=["PERSON"], strict=True)
    assert strict.instances == [] and strict.audit[0]["status"] == "excluded"
    (reason,) = strict.audit[0]["reasons"]
    assert reason.startswith(core.SUSPECTED + ": ") and "contexts/1: 'Chile' (name)" in reason
    clean = substitute_instances([SHIP], seed=2, strict=True)  # every name replaced: nothing suspected
    assert clean.audit[0]["suspects"] == [] and len(clean.instances) == 1


def test_the_scan_sees_other_scripts_left() -> None:
    inst = make(["The river is called Волга by its people.", "The river is short."], "What is the river called?")
    rec = substitute_instances([inst], types=["PERSON"]).audit[0]
    assert {"field": "contexts/1", "text": "Волга", "kind": "script"} in rec["suspects"]


def write_audit(tmp_path: Path, name: str, records: list[dict[str, Any]]) -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def test_an_unedited_mapping_gives_the_same_result(tmp_path: Path) -> None:
    first = substitute_instances([SHIP], seed=5)
    again = substitute_instances([SHIP], seed=5, mapping_in=read_mapping(write_audit(tmp_path, "m.jsonl",
                                                                                      first.audit)))
    assert again.instances == first.instances
    assert [e["fantasy"] for e in again.audit[0]["entities"]] == [e["fantasy"] for e in first.audit[0]["entities"]]
    assert again.audit[0]["date_offset"] == first.audit[0]["date_offset"]


@pytest.mark.parametrize(("one", "two"), [
    ("The Brahui Language is spoken in Balochistan. Daily papers appear in the Brahui language.",
     "The Brahui Language has loans from Balochi."),  # "language" stays in lower case
    ("What do the passages say about Alkali metal? Most alkali metals react with water in Ohio.",
     "The Alkali metal family is in Ohio."),  # "Alkali" is a name where a capital says so only
    ("What do the passages say about Nominations? Anna Berg had 39 nominations in Oslo.",
     "Nominations were counted in Oslo."),
    ("Albedo () or reflection coefficient, from Latin albedo, was measured in 1760 in Oslo.",
     "Albedo was measured in 1761."),  # a term replaced in every case, "albedo" too
    ("who sang the duet with reba in nashville?",
     "Reba's album sold well. Reba McEntire sang \"Share 'reba\" in Nashville."),  # "reba" in lower case only
    # where nothing is capitalised
    ("Unofficial talks began near the East Side Gallery in Berlin.",
     "Talks began between East and West Berlin."),  # "East" changed for the gallery's name alone
    ("Riders love the Monorail, opened in 1995 (www.lvmonorail.com).",
     "It is a straddle beam monorail."),  # "monorail" of the web address is no spelling of the name to record
    ("Prime Minister | Andrej Kovalik\nLegislature | Parliament",
     "The incoming Prime Minister, Andrej Kovali_ was elected."),  # a letter lost to "_": still a word's end
    ("Dire Straits released the album Brothers in Arms in 1985.",
     "Brothers in Arms is the fifth studio album by the band."),  # a title's words, replaced by English words
    ("During the opening weekend of July 2018, \"My Hero Academia: Two Heroes\" ranked 4th in Japan.",
     "when does the new my hero academia movie come out?"),  # a name matched as written only inside a longer one
])
def test_an_unedited_audit_of_words_gives_the_same_files(tmp_path: Path, one: str, two: str) -> None:
    """Names the mapping matches only as written are found where the run found them, no more, when its audit
    file is applied again; the spellings it records are found as written."""
    inst = make([one, two], "What happened?")
    first = substitute_instances([inst], seed=2)
    assert first.audit[0]["status"] == "substituted", first.audit[0]["reasons"]
    again = substitute_instances([inst], seed=2, mapping_in=read_mapping(write_audit(tmp_path, "m.jsonl",
                                                                                      first.audit)))
    assert again.instances == first.instances


def test_an_edited_mapping_is_applied_exactly_and_deterministically(tmp_path: Path) -> None:
    first = substitute_instances([SHIP], seed=5)
    rec = dict(first.audit[0])
    by = {e["original"]: e for e in rec["entities"]}
    edited = [{**by["Charles Darwin"], "fantasy": "Tomas Quillane"},  # a changed replacement
              {"original": "HMS Beagle", "fantasy": "HMS Corrin", "type": "PRODUCT"},  # kept, changed
              {"original": "London", "fantasy": "Vell", "type": "GPE"}]  # Chile removed: it stays as it is
    rec.update(entities=edited, date_offset=-40)
    path = write_audit(tmp_path, "edited.jsonl", [rec])
    outs = [substitute_instances([SHIP], seed=5, mapping_in=read_mapping(path)) for _ in range(2)]
    assert outs[0].instances == outs[1].instances
    out = outs[0].instances[0]
    assert out.contexts["1"].text == "Tomas Quillane reached Chile aboard HMS Corrin in 1795."
    assert out.contexts["2"].text == "Quillane reached Chile in 1794, nine years before he left Vell."
    assert out.query == "When did Tomas Quillane reach Chile?"
    assert {s["text"] for s in outs[0].audit[0]["suspects"]} == {"Chile"}  # removed from the mapping: left


def test_a_replacement_of_another_shape_replaces_the_whole_name(tmp_path: Path) -> None:
    rec = dict(substitute_instances([SHIP], seed=5).audit[0])
    rec["entities"] = [{"original": "Charles Darwin", "fantasy": "Ubbo", "type": "PERSON"},
                       {"original": "Darwin", "fantasy": "Ubbo", "type": "PERSON"},
                       {"original": "Chile", "fantasy": "Norvale", "type": "GPE"}]
    out = substitute_instances([SHIP], seed=5, mapping_in=read_mapping(write_audit(tmp_path, "m.jsonl", [rec])))
    assert out.instances[0].contexts["1"].text.startswith("Ubbo reached Norvale aboard HMS Beagle in ")
    assert out.instances[0].contexts["2"].text.startswith("Ubbo reached Norvale in ")


ATTACKS = make(["Airport security changed after the 9/11 attacks in 2001, and the museum opened on D-Day in 1994.",
                "Security changed in 2003, two years after 9/11, said the 9/11 Commission."],
               "When did airport security change after 9/11?")


def test_an_event_named_by_its_day_changes_whole_also_in_an_edited_mapping(tmp_path: Path) -> None:
    first = substitute_instances([ATTACKS], seed=3)
    out = first.instances[0]
    by = {e["original"]: e for e in first.audit[0]["entities"]}
    new = by["9/11"]["fantasy"]
    assert "/" not in new and not has_word("9/11", out) and not has_word("D-Day", out)
    assert out.contexts["2"].text.endswith(f"two years after {new}, said the {new} Commission.")
    again = substitute_instances([ATTACKS], seed=3, mapping_in=read_mapping(
        write_audit(tmp_path, "same.jsonl", [first.audit[0]])))
    assert again.instances == first.instances
    rec = dict(first.audit[0])
    rec["entities"] = [{**by["9/11"], "fantasy": "Great Storm"}, by["D-Day"]]  # as many words as "9" and "11"
    edited = substitute_instances([ATTACKS], seed=3, mapping_in=read_mapping(
        write_audit(tmp_path, "edited.jsonl", [rec])))
    assert edited.audit[0]["status"] == "substituted", edited.audit[0]["reasons"]
    assert edited.instances[0].query == "When did airport security change after Great Storm?"
    assert "the Great Storm attacks in " in edited.instances[0].contexts["1"].text


PYLONS = make(["Name | Height | Remarks\nPylon I | 113 m | the tallest pylon is on the third section\n"
               "Pylon II | 109 m | demolished", "the tallest pylon is on the third section"],
              "what is the total number of pylons listed?")


def test_no_plural_ending_after_a_names_last_letter_and_the_audit_applies_again_the_same(tmp_path: Path) -> None:
    first = substitute_instances([PYLONS], seed=0)
    out = first.instances[0]
    assert out.contexts["2"].text == "the tallest pylon is on the third section"  # "pylon is" is no "Pylon Is"
    assert out.query == "what is the total number of pylons listed?"
    assert not has_word("Pylon", out)
    again = substitute_instances([PYLONS], seed=0, mapping_in=read_mapping(
        write_audit(tmp_path, "same.jsonl", [first.audit[0]])))
    assert again.instances == first.instances


KWANZAS = make(["The Novo Kwanza replaced the escudo. Coins of 50 kwanzas were struck in Luanda.",
                "Nothing else is known."], "Which coins were struck?")


def test_an_audit_whose_entity_the_text_writes_only_in_the_plural_applies_again_the_same(tmp_path: Path) -> None:
    first = substitute_instances([KWANZAS], seed=0)
    by = {e["original"]: e for e in first.audit[0]["entities"]}
    assert set(by["kwanza"]["forms"]) == {"kwanzas"}  # the singular is written nowhere
    again = substitute_instances([KWANZAS], seed=0, mapping_in=read_mapping(
        write_audit(tmp_path, "same.jsonl", [first.audit[0]])))
    assert again.instances == first.instances
    assert f"50 {by['kwanza']['forms']['kwanzas']} were" in again.instances[0].contexts["1"].text


GOMES = make(["The surname comes from the given name Gomes, itself from the Middle English word gome \"man\".",
              "Nothing else is known."], "Where does the surname come from?")


def test_an_audit_whose_entity_the_text_also_writes_as_a_capitalised_plural_applies_again_the_same(
        tmp_path: Path) -> None:
    first = substitute_instances([GOMES], seed=0)
    by = {e["original"]: e for e in first.audit[0]["entities"]}
    assert set(by["gome"]["forms"]) == {"gome", "Gomes"}
    assert "Gomes" not in first.instances[0].contexts["1"].text
    again = substitute_instances([GOMES], seed=0, mapping_in=read_mapping(
        write_audit(tmp_path, "same.jsonl", [first.audit[0]])))
    assert again.instances == first.instances


CLUB = make(["title | Northern Cycling Association\nType | Not-for-profit\n"
             "Headquarters | 40 NCA Way , Harrogate, England\nWebsite | www .nca .org", "Nothing else is known."],
            "Is the club a not-for-profit?")


def test_an_initialism_a_host_writes_changes_there_also_when_the_audit_is_applied_again(tmp_path: Path) -> None:
    first = substitute_instances([CLUB], seed=0)
    text = first.instances[0].contexts["1"].text
    assert "www .nca .org" not in text and text.endswith(".org")
    again = substitute_instances([CLUB], seed=0, mapping_in=read_mapping(
        write_audit(tmp_path, "same.jsonl", [first.audit[0]])))
    assert again.instances == first.instances


def test_bad_edits_are_named(cli: Any, tmp_path: Path) -> None:
    (tmp_path / "in.tsv").write_text(tsv_text([row(contradiction_ID="7")]), encoding="utf-8")
    assert cli("substitute", "in.tsv", "-o", "out.tsv", "-q").exit_code == 0
    good = read_records(tmp_path / "out.mapping.jsonl", "jsonl")[0]
    assert record_problems([good], "mapping", str) == []
    entity = {"original": "Rangerkeep", "fantasy": "Ostvale", "type": "GPE"}
    lines = [{**good, "id": "8"}, {**good, "entities": [entity, {**entity, "fantasy": "Twice"}]},
             {**good, "entities": [{"original": "x", "type": "GPE"}]}]
    write_audit(tmp_path, "bad.jsonl", lines)
    result = cli("substitute", "in.tsv", "-o", "again.tsv", "--mapping-in", "bad.jsonl")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "error: bad.jsonl: line 2: entities/1: original 'Rangerkeep' is already entities/0",
        "error: bad.jsonl: line 3: field entities/0: 'fantasy' is a required property",
    ]
    write_audit(tmp_path, "bad.jsonl", [{**good, "id": "8"}, {**good, "entities": [entity]}])
    result = cli("substitute", "in.tsv", "-o", "again.tsv", "--mapping-in", "bad.jsonl")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "error: bad.jsonl: line 1: id '8' is not in the input",
        "error: bad.jsonl: line 2: entities/0: original 'Rangerkeep' does not occur in instance '7'"]
    assert not (tmp_path / "again.tsv").exists() and not (tmp_path / "again.mapping.jsonl").exists()
    (tmp_path / "broken.jsonl").write_text('{"id": 1\n', encoding="utf-8")
    for name, message in (("nope.jsonl", "error: nope.jsonl: no such file"),
                          ("broken.jsonl", "error: broken.jsonl: line 1, column 9: Expecting ',' delimiter")):
        result = cli("substitute", "in.tsv", "-o", "again.tsv", "--mapping-in", name)
        assert (result.exit_code, result.stderr) == (1, message + "\n")


class Reviewer:
    """Reports 'Chile' as a real name left, and the first word of the first text as broken English."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, body: dict[str, Any]) -> Reply:
        self.calls += 1
        assert body["response_format"]["type"] == "json_schema"
        text = user_text(body)
        first = text.split("[contexts/1]\n", 1)[1].split()[0]  # the invented given name
        return Reply(json.dumps({"names": ["Chile", "Atlantis"], "not_english": [first]}))


def reviewer_llm(server: ScriptedServer, tmp_path: Path) -> LLM:
    from ragability_gen.llm.client import ResponseCache

    return LLM(spec_for("reviewer", base_url=server.base_url), cache=ResponseCache(tmp_path / "cache.sqlite"))


def test_the_reviewer_findings_go_through_the_mapping(tmp_path: Path) -> None:
    script = Reviewer()
    with ScriptedServer(script) as server:
        result = substitute_instances([SHIP], seed=2, types=["PERSON"], reviewer=reviewer_llm(server, tmp_path))
        calls = script.calls
        cached = substitute_instances([SHIP], seed=2, types=["PERSON"], reviewer=reviewer_llm(server, tmp_path))
    assert calls == 1 and script.calls == 1  # one request per instance id, then from the cache
    assert cached.instances == result.instances
    out, rec = result.instances[0], result.audit[0]
    review = rec["review"]
    assert review["model"] == "reviewer" and review["names"] == ["Chile", "Atlantis"]
    assert review["added"] == ["Chile"] and review["ignored"][0] == "Atlantis"  # not in the input: not applied
    # the invented given name reported as broken English stands for a name: restoring it would leak "Charles"
    assert review["restored"] == [] and review["ignored"][1:] and review["error"] is None
    assert not has_word("Chile", out) and not has_word("Charles", out) and not has_word("Darwin", out)
    chile = {e["original"]: e["fantasy"] for e in rec["entities"]}["Chile"]
    assert all(chile in t for t in (out.contexts["1"].text, out.contexts["2"].text, out.query))
    assert result.summary.review == {"reviewed": 1, "added": 1, "restored": 0, "ignored": 2, "error": 0}


def test_a_reviewer_without_a_valid_reply_is_recorded(tmp_path: Path) -> None:
    with ScriptedServer(lambda body: Reply("no json here")) as server:
        result = substitute_instances([SHIP], seed=2, reviewer=reviewer_llm(server, tmp_path))
    review = result.audit[0]["review"]
    assert review["error"].startswith("reviewer: no valid JSON reply in 2 attempts")
    assert result.audit[0]["status"] == "substituted" and len(result.instances) == 1


def test_cli_reviewer_and_strict(cli: Any, tmp_path: Path) -> None:
    ship = {"context_1": SHIP.contexts["1"].text, "context_2": SHIP.contexts["2"].text, "query_text": SHIP.query,
            "context_3_nc1_c2": "", "context_4_nc1_nc2_nc3": "", "answer_context1": "in 1835",
            "answer_context2": "in 1834",
            "answer_context1_long": "In 1835.", "answer_context2_long": "In 1834."}
    (tmp_path / "in.tsv").write_text(tsv_text([row(contradiction_ID="7", **ship)]), encoding="utf-8")
    with ScriptedServer(lambda body: Reply(json.dumps({"names": [], "not_english": []}))) as server:
        result = cli("substitute", "in.tsv", "-o", "out.tsv", "--reviewer", "smollm2", "--base-url",
                     server.base_url, "--no-cache", "--strict")
    assert result.exit_code == 0, result.output
    assert ("  reviewer smollm2: 1 instances reviewed, 0 names added, 0 words restored, 0 findings not applicable, "
            "0 without a valid reply") in result.stderr.splitlines()
    (rec,) = read_records(tmp_path / "out.mapping.jsonl", "jsonl")
    assert rec["review"]["model"] == "smollm2" and record_problems([rec], "mapping", str) == []


def test_a_mapping_edited_by_hand_wins_over_the_reviewer(tmp_path: Path) -> None:
    first = substitute_instances([SHIP], seed=2)
    path = write_audit(tmp_path, "m.jsonl", first.audit)
    with ScriptedServer(Reviewer()) as server:
        again = substitute_instances([SHIP], seed=2, mapping_in=read_mapping(path),
                                     reviewer=reviewer_llm(server, tmp_path))
    assert again.instances == first.instances
    review = again.audit[0]["review"]
    assert review["added"] == [] and review["restored"] == [] and len(review["ignored"]) == 3


def test_a_common_word_in_lower_case_is_no_suspect() -> None:
    from ragability_gen.substitute.scan import scan

    text = "He played in midfield for Ballymore Rovers."
    suspects = scan({"c": text}, {"c": text}, {"midfield", "ballymore"}, set(), {})
    assert [(s.text, s.kind) for s in suspects] == [("Ballymore", "name")]


def test_a_sport_s_word_a_team_keeps_is_no_suspect() -> None:
    from ragability_gen.substitute.scan import scan

    old = "Chip Ganassi Racing beat Panther Racing."
    new = "Kolou Boweij Racing beat Brecka Racing."
    suspects = scan({"c": old}, {"c": new}, {"chip", "ganassi", "panther", "racing"}, {"kolou", "boweij", "brecka"}, {})
    assert suspects == []  # "Racing" names nothing alone


def test_an_article_before_an_invented_name_is_no_script_suspect() -> None:
    from ragability_gen.substitute.scan import scan

    old = "It derives from the Arabic al-Jazair and the Berber al-Kasba."
    new = "It derives from the Eindport al-Wigneland and the Berber al-Kasba."
    suspects = scan({"c": old}, {"c": new}, {"arabic", "jazair", "kasba"}, {"eindport", "wigneland"}, {})
    assert [(s.text, s.kind) for s in suspects if s.kind == "script"] == [("al-Kasba", "script")]


def test_a_broken_word_is_restored_only_where_its_original_is_an_english_word() -> None:
    from ragability_gen.substitute.review import Finding, plan

    finding = Finding(names=[], not_english=["Weymonin", "Odren.", "Qwzx"])
    add, keep = plan(finding, ["Charles was born in Kent."], {"born": "weymonin", "charles": "Odren"})
    assert (add, keep) == ([], {"born"})
    assert finding.restored == ["Weymonin"] and finding.ignored == ["Odren.", "Qwzx"]


def test_the_unedited_audit_of_the_public_sample_gives_the_same_files(tmp_path: Path) -> None:
    """Real Wikipedia text: every instance of the WikiContradict sample comes out the same when its own audit is
    applied again (names in tables and quotes, renderings, dates)."""
    instances, _ = read_instances(Path(__file__).parent / "data" / "wikicontradict" / "rag_qa_sample.csv")
    first = substitute_instances(instances, seed=4)
    again = substitute_instances(instances, seed=4, mapping_in=read_mapping(write_audit(tmp_path, "m.jsonl",
                                                                                       first.audit)))
    assert [r["status"] for r in again.audit] == [r["status"] for r in first.audit]
    assert again.instances == first.instances


def test_a_given_mapping_keeps_a_part_spelled_in_capitals_apart() -> None:
    """Applying an audit, "RAI" -> "CONIE" after "Rai FD4" -> "Conie FD4" leaves the part "Conie", which each mention
    then styles: "Rai Radio" became "CONIE Radio" where the first run wrote "Conie Radio"."""
    found = [Mention("contexts/1", 0, 7, "Rai FD4", "PERSON"), Mention("contexts/1", 10, 13, "RAI", "PROPN")]
    table = build_table(found, lambda style, original: "Unused", fixed={"rai fd4": "Conie FD4", "rai": "CONIE"})
    assert table.part_map["rai"] == "Conie"


def test_a_given_mapping_finds_the_plural_it_recorded() -> None:
    texts = ["Halogenoalkanes react with water.", "A halogenoalkane is a compound."]
    entry = Entry("Halogenoalkane", "Kreatt", "PERSON", "m.jsonl:1", ("Halogenoalkanes", "halogenoalkane"))
    assert {t[a:b] for t, a, b in core._given_spans(entry, texts)} == {"Halogenoalkanes", "halogenoalkane"}


def test_an_audit_applied_again_keeps_a_part_another_name_has_distinct_and_initials_in_their_names() -> None:
    """'Hockey' is distinct in 'Joe Hockey' (a person's family name) and a sport's word in 'Eltham Hockey Club': alone
    it is a name in both runs. A person's initial changed inside a longer name is no part of others."""
    from test_substitute_names import table_of

    names = (("Joe Hockey", "PERSON"), ("Eltham Hockey Club", "ORG"), ("S. Rajeswara Rao", "PERSON"),
             ("Lalitha Venkatraman & S. Rajeswara Rao", "ORG"), ("M. Pillai & S. Gopal", "ORG"))
    first = table_of(*names)
    found = [Mention("contexts/1", 0, len(text), text, label) for text, label in names]
    again = build_table(found, lambda style, original: "Unused",
                        fixed={norm(text): first.compose(text) for text, _ in names})
    text = "| Hockey | Results |\n| Lalitha Venkatraman & S. Rajeswara Rao | M. Pillai & S. Gopal |"
    assert rewrite(text, again, [], None, None).new == rewrite(text, first, [], None, None).new
    assert "| Hockey |" not in rewrite(text, first, [], None, None).new
    assert again.compose("M. Pillai & S. Gopal").split(" & ")[1].startswith("S. ")  # no other name's initial


def test_the_scan_does_not_suspect_the_words_a_body_s_name_keeps() -> None:
    inst = make(["Members of the Finance Sector Union will strike at Westpac on Tuesday, the union said.",
                 "The Finance Sector Union called off the strike at Westpac in Sydney."],
                "Did the Finance Sector Union strike at Westpac?")
    out = substitute_instances([inst], seed=2)
    assert has_word("Sector Union", out.instances[0]) and not has_word("Finance", out.instances[0])
    assert out.audit[0]["suspects"] == []  # "Sector" stays on purpose: no name left behind


def test_the_scan_does_not_suspect_a_court_s_or_an_office_s_words_substitution_keeps() -> None:
    inst = make(["In 1798 Edmund Hale became Registrar in the Court of Appeal in Calcutta, and later Vice-President in "
                 "Charge of Operations for Hale Freight.", "The Supreme Court of India heard Hale in Madras in 1803."],
                "When did Edmund Hale join the Court of Appeal?")
    out = substitute_instances([inst], seed=2)
    for kept in ("the Court of Appeal in ", "Vice-President in Charge of Operations for ", "The Supreme Court of "):
        assert kept in out.instances[0].contexts["1"].text + out.instances[0].contexts["2"].text, kept
    assert not has_word("Calcutta", out.instances[0]) and not has_word("India", out.instances[0])
    assert [s["text"] for s in out.audit[0]["suspects"]] == []  # the court's and office's words stay on purpose


@pytest.mark.parametrize(("text", "ends"), [
    ("the Caribs. Fragments", ["Caribs.", "Fragments"]), ("Wait! Then", ["Wait!", "Then"]),
    ("etc. The", ["etc.", "The"]), ("Warner Bros. Pictures", ["Warner Bros. Pictures"]),
    ("Acme Corp. Ltd", ["Acme Corp. Ltd"]), ("in Sept. Later", ["in Sept. Later"]), ("Mr. Smith", ["Mr. Smith"]),
    ("the Brennick Distillery Co. Following the purchase", ["Brennick Distillery Co.", "Following the purchase"]),
    ("Hall & Co. The firm", ["Hall & Co.", "The firm"]), ("Bolt Inc. Announced", ["Bolt Inc. Announced"]),
])
def test_an_ner_span_is_cut_at_a_sentence_s_end_not_after_a_word_written_short(text: str, ends: list[str]) -> None:
    from ragability_gen.substitute.entities import _pieces

    pieces = [text[a:b].strip() for a, b, _ in _pieces(text, 0, len(text), "ORG", lambda word: frozenset())]
    assert [p.removeprefix("the ") for p in pieces] == ends
