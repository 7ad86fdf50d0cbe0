"""Write ``ragability_gen/substitute/data/modern-words.txt``: the English words a modern dictionary writes in lower
case that Webster's Second (1934, the ``english-words`` package, substitution's dictionary) lacks.

Substitution tells a name from an ordinary word by the dictionary's lower-case entries; Webster's Second has no
"indie", "megapixel", "smartphone", "playoff" or "teleplay", so such words, capitalised in a cell or tagged by
NER, were taken for names. The source is SCOWL's en_US Hunspell dictionary (size 60, the one LibreOffice and most
spell checkers ship; wordlist.sourceforge.net). Kept: entries of four letters or more (no slang such as "def" of
"Def Jam" or "bro" of "Bros"), all lower case, that are no form of an entry of Webster's Second (``singulars``,
``stems``: "abated" of "abate"), and whose capitalised form neither dictionary has as a name ("google" beside
"Google", "amazon" beside "Amazon" stay out).

    python tools/make_modern_words.py path/to/en_US.dic [--version 2019.10.06]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from ragability_gen.substitute.names import _web2, singulars, stems, web2_lexicon  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "ragability_gen" / "substitute" / "data" / "modern-words.txt"
NOTICE = """\
# English words a modern dictionary writes in lower case and Webster's Second lacks (tools/make_modern_words.py).
# From SCOWL's en_US Hunspell dictionary, version {version}, http://wordlist.sourceforge.net:
#
#   Copyright 2000-2018 by Kevin Atkinson
#
#   Permission to use, copy, modify, distribute and sell these word lists, the associated scripts, the output
#   created from the scripts, and its documentation for any purpose is hereby granted without fee, provided that
#   the above copyright notice appears in all copies and that both that copyright notice and this permission
#   notice appear in supporting documentation. Kevin Atkinson makes no representations about the suitability of
#   this array for any purpose. It is provided "as is" without express or implied warranty.
#
# SCOWL's other sources and their notices: README_en_US.txt of that dictionary.
"""


def modern_words(dic: str) -> list[str]:
    """The lower-case stems of a Hunspell .dic file (its first line is a count) that Webster's Second lacks."""
    entries = [line.split("/")[0].strip() for line in dic.splitlines()[1:]]
    capitalised = {w for w in entries if w[:1].isupper()} | {w for w in _web2() if w[:1].isupper()}
    known = web2_lexicon()
    return sorted({w for w in entries if len(w) >= 4 and w.isalpha() and w.islower() and w.isascii()
                   and not any(f in known for f in (w, *singulars(w), *stems(w)))
                   and w.capitalize() not in capitalised})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dic", type=Path, help="SCOWL's en_US.dic")
    ap.add_argument("--version", default="2019.10.06", help="the dictionary's version, for the notice")
    args = ap.parse_args()
    words = modern_words(args.dic.read_text(encoding="utf-8"))
    OUT.write_text(NOTICE.format(version=args.version) + "\n".join(words) + "\n", encoding="utf-8")
    print(f"{len(words)} words written to {OUT}")


if __name__ == "__main__":
    main()
