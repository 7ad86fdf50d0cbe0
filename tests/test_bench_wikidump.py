"""The tiny mode of ``benchmarks/wikidump_corpus.py``: a MediaWiki dump becomes canonical instances of its prose."""

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "wikidump_corpus.py"


def built(tmp_path: Path, *flags: str) -> list[dict]:
    """The instances the script writes from its tiny input with ``flags``."""
    out = tmp_path / "out.jsonl"
    proc = subprocess.run([sys.executable, str(SCRIPT), *flags, "-o", str(out)], capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def test_tiny_dump_gives_instances_of_plain_text(tmp_path):
    rows = built(tmp_path, "--tiny")
    assert [r["query"] for r in rows] == ["What do the passages say about Harbour of Quellin?"] * 2  # no talk page
    texts = [c["text"] for r in rows for c in r["contexts"]]
    assert texts[2] == "Year | Ships | Tonnage\n1901 | 312 | 40,200\n1911 | 455 | 61,900"
    assert texts[3] == "• The lighthouse at Cape Orrin was built in 1880.\n• The breakwater was extended in 1935."
    joined = "\n".join(texts)
    for markup in ("{{", "[[", "'''", "<ref", "A source", "Infobox"):
        assert markup not in joined
    assert "coast of Ostrava's north" in texts[0]  # a piped link keeps its label
    for r in rows:
        for c in r["contexts"]:
            answer = r["answers"][c["answer"]]
            assert answer["short"] in answer["long"] and answer["long"] in c["text"]
    assert rows[0]["answers"]["1"]["short"] == "1871"  # the first year of the context


def test_tiny_text_gives_two_halves_of_each_story(tmp_path):
    rows = built(tmp_path, "--text", "--tiny")
    assert [[c["text"] for c in r["contexts"]] for r in rows] == [
        ["Hundreds of residents left Orrin Bay today as a bushfire moved towards the town.",
         "The Marlow Fire Service says 60 units are in the area. Officals said thehuge fire began in 1998."],
        ["Britain will lead the force, the minister said. AFP said the talks went on.",
         "Americans' fears grew as European leaders met in Quellin."]]
    assert {r["query"] for r in rows} == {"What do the passages say about the news?"}
    assert rows[0]["answers"]["2"] == {"short": "1998", "long": "Officals said thehuge fire began in 1998."}


def test_tiny_qa_pairs_neighbouring_paragraphs_with_their_questions(tmp_path):
    rows = built(tmp_path, "--qa", "--tiny")
    assert len(rows) == 1 and rows[0]["query"] == "Who opened the Harbour of Quellin?"
    assert rows[0]["answers"] == {
        "1": {"short": "Idris Vanholt", "long": "The Harbour of Quellin was opened in 1871 by Idris Vanholt."},
        "2": {"short": "1902", "long": "In 1902 the Quellin Dock Company added a dry dock."}}
    assert [c["contradicts"] for c in rows[0]["contexts"]] == [["2"], ["1"]]


def test_tiny_qed_pairs_neighbouring_examples_and_undoes_the_tokeniser(tmp_path):
    rows = built(tmp_path, "--qed", "--tiny")
    assert len(rows) == 1 and rows[0]["query"] == "who opened the harbour of quellin?"
    assert [c["text"] for c in rows[0]["contexts"]] == [
        'The Harbour of Quellin (/ ˈkwɛlɪn /) was opened in 1871 – 72 by Idris Vanholt, who "built" it.',
        "In 1902 the Quellin Dock Company added a dry dock (the first in Ostrava)."]
    assert rows[0]["answers"]["1"] == {"short": "Idris Vanholt", "long": rows[0]["contexts"][0]["text"]}
    assert rows[0]["answers"]["2"]["short"] == "1902"


def test_tiny_gap_pairs_neighbouring_snippets_without_unencoded_letters(tmp_path):
    rows = built(tmp_path, "--gap", "--tiny")
    assert len(rows) == 1 and rows[0]["query"] == "What does the passage say about Orvel Tresk?"
    assert [c["text"] for c in rows[0]["contexts"]] == [
        'Bassist Orvel Tresk joined the band in 1998. He was replaced by Ilse Marrow, who "saved" it.',
        "In 1862 Ysolde was appointed Maid of Honour in Ordinary to the Queen of Carvessa – her aunt."]  # not "C*rdoba"
    assert rows[0]["answers"] == {
        "1": {"short": "Orvel Tresk", "long": "Bassist Orvel Tresk joined the band in 1998."},
        "2": {"short": "Ysolde", "long": rows[0]["contexts"][1]["text"]}}


def test_tiny_sentences_make_contexts_of_four_with_the_homograph_the_short_answer(tmp_path):
    rows = built(tmp_path, "--sentences", "--tiny")
    assert len(rows) == 1 and rows[0]["query"] == "What do the passages say?"
    assert rows[0]["contexts"][1]["text"] == ("Reading is a town in Berkshire. His reading of the text was praised. "
                                              "The Reading Festival began in 1971. They met at a reading in Leeds.")
    assert rows[0]["answers"]["1"] == {"short": "Discount", "long": "Discount items can include clothing and toys."}


def test_a_file_of_sentences_gives_its_first_column(tmp_path):
    src = tmp_path / "concise.tsv"
    src.write_text("".join(f"Sentence {n} of Orlen Varrick.\tA rewrite.\n" for n in range(1, 10)), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    subprocess.run([sys.executable, str(SCRIPT), "--sentences", str(src), "-o", str(out)], check=True, timeout=600)
    rows = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 1 and rows[0]["contexts"][0]["text"].startswith("Sentence 1 of Orlen Varrick. Sentence 2 of")
    assert rows[0]["answers"]["2"]["short"] == "Sentence 5 of Orlen"


def test_tiny_tables_split_a_table_under_its_header(tmp_path):
    rows = built(tmp_path, "--tables", "--tiny")
    assert len(rows) == 1 and rows[0]["query"] == "which nation won the most gold medals?"
    assert [c["text"] for c in rows[0]["contexts"]] == [
        "Rank | Nation | Gold | Notes\n1 | Quellin | 5 | Host nation\n2 | Ostrava | 3 | ",  # "\n" of a cell undone
        "Rank | Nation | Gold | Notes\n3 | Marrow Isles | 1 | Debut"]
    assert rows[0]["answers"] == {  # the question's answer where the context writes it, else the first cell
        "1": {"short": "Quellin", "long": "1 | Quellin | 5 | Host nation"},
        "2": {"short": "3", "long": "3 | Marrow Isles | 1 | Debut"}}


def test_tiny_infoboxes_pair_an_infobox_with_the_statements_about_it(tmp_path):
    rows = built(tmp_path, "--infobox", "--tiny")
    assert len(rows) == 1 and rows[0]["query"] == "Is it true that Idris Vanholt was born in Quellin?"
    assert [c["text"] for c in rows[0]["contexts"]] == [
        "title | Idris Vanholt\nBorn | ( 1840-03-02 ) 2 March 1840  Quellin, Ostrava\nOccupation | merchant, shipowner",
        "The merchant sailed from Lisbon before 1870."]  # the scraped spacing kept, values of a key joined
    assert rows[0]["answers"] == {"1": {"short": "Idris Vanholt", "long": "title | Idris Vanholt"},
                                  "2": {"short": "1870", "long": "The merchant sailed from Lisbon before 1870."}}


def test_a_missing_or_broken_source_is_one_line_and_no_output(tmp_path):
    out = tmp_path / "out.jsonl"
    broken = tmp_path / "dump.xml"
    broken.write_text("<mediawiki><page>", encoding="utf-8")
    qa = tmp_path / "qa.json"
    qa.write_text("{", encoding="utf-8")
    qed = tmp_path / "qed.jsonl"
    qed.write_text('{"paragraph_text": "A.", "original_nq_answers": [[{"string": "A"}]]}\n', encoding="utf-8")
    gap = tmp_path / "gap.tsv"
    gap.write_text("ID\tText\tPronoun\nd-1\tShe sang.\tShe\n", encoding="utf-8")
    hom = tmp_path / "hom"
    hom.mkdir()
    (hom / "row.tsv").write_text('"homograph"\t"sentence"\n"row"\t"A row."\n', encoding="utf-8")
    for args, error in [([str(tmp_path / "none.xml")], f"error: {tmp_path / 'none.xml'}: No such file or directory"),
                        ([str(broken)], f"error: {broken}: no element found: line 1, column 17"),
                        (["--qa", str(qa)], f"error: {qa}: Expecting property name enclosed in double quotes: "
                                            "line 1 column 2 (char 1)"),
                        (["--qed", str(qed)], f"error: {qed}: line 1: no QED example (field 'question_text')"),
                        (["--gap", str(gap)], f"error: {gap}: line 2: no GAP example (field 'A')"),
                        (["--sentences", str(hom)], f"error: {hom}: {hom / 'row.tsv'}: line 2: no homograph example "
                                                    "(KeyError: 'start')")]:
        proc = subprocess.run([sys.executable, str(SCRIPT), *args, "-o", str(out)], capture_output=True, text=True,
                              timeout=600)
        assert (proc.returncode, proc.stderr) == (1, error + "\n")
        assert sorted(p.name for p in tmp_path.iterdir()) == ["dump.xml", "gap.tsv", "hom", "qa.json", "qed.jsonl"]
