"""Names the NER model does not see as such: binomials, other scripts, named periods, sibling codes, initialisms.

A small English NER model reads "Lynx pardinus" as an animal and a lower-case word, "Москва" and
"[mɐˈskva]" as noise, "the end of the Second World War" as a date, and "(ESP)" beside a tagged
"(FRA)" as nothing. Each of them still tells a reader what the instance is about, so each is found
here by its shape and handed to the mapping like any NER mention:

- TAXON: a scientific binomial, a capitalised genus and a Latin epithet that is no English word
  ("Lynx pardinus"; "L. pardinus" then follows through the epithet), and a binomial or trinomial with
  its genus abbreviated ("P. c. cristatus");
- SCRIPT: a word in a non-Latin script, a word romanised from one ("Kyōto", "al-muʾminīn"), a foreign
  word right after a language's name ("Latin alteri") or in lower case inside a name ("Union des
  républiques"), and a bracketed IPA transcription;
- PROPN: the name such a rendering follows in brackets ("Kyoto (Japanese: ...)");
- CURRENCY: a currency unit English hardly uses, where the text speaks of money ("50 kwanzas", "the
  kroon (EEK)"): it names its country as well as the country's name does;
- EVENT: a named event or period that would date the instance ("Second World War", "the Great
  Depression", "Renaissance"), even inside a date NER found;
- TERM: a common noun English hardly uses ("the newel", "aardwolves", "ytterbium"), in every case: it
  tells a reader the thing or field the instance is about ("a spiral staircase without a newel")
  as well as a name does;
- ORG: the other upper-case codes of a parenthesised list ("(ESP)") once one of them is a name or a
  country code, and an initialism of a name of the instance ("PRI" beside "Partido Revolucionario
  Institucional").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache, lru_cache, partial
from string import ascii_lowercase

from .dates import WEEKDAYS
from .entities import (
    _ROMAN,
    EVENT_AFTER,
    FUNCTION,
    GENERIC,
    TERM_ZIPF,
    designators_only,
    label_words,
    opening_word,
    ordinary,
)
from .names import english_plural, is_common, is_word, singulars
from .places import (
    country_of,
    currency_units,
    demonym_or_language,
    faith_spans,
    holiday_names,
    language_names,
    listed_place,
    one_people_units,
    place_names,
    state_codes_after_towns,
)
from .words import cell_span, degree_spans, in_row, never_name, sentence_start

_BINOMIAL = re.compile(r"(?<![\w.])([A-Z][a-z]{2,})\s+([a-z]{3,})(?!\w)")
_ABBREVIATED = re.compile(r"(?<![\w.])[A-Z]\.\s+(?:[a-z]\.\s+)?([a-z]{3,})(?:\s+([a-z]{3,}))?(?!\w)")
"""An abbreviated genus, maybe a species initial, and one or two epithets: "P. cristata", "P. c. cristatus"."""
_LATIN_END = re.compile(r"(?:us|a|um|is|ae|ii|i|es|ensis|ica|icus|ata|atus|oides|ops|ina|ana|ora|ix|ex|on)$")
_SCRIPT = re.compile(r"[\u0370-\u03ff\u0400-\u052f\u0530-\u058f\u0590-\u05ff\u0600-\u06ff\u0700-\u08ff"
                     r"\u0900-\u0dff\u0e00-\u0eff\u0f00-\u0fff\u1000-\u109f\u10a0-\u10ff\u1100-\u11ff\u1200-\u137f"
                     r"\u1380-\u139f\u1f00-\u1fff\u3040-\u30ff\u3100-\u312f\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff"
                     r"\uac00-\ud7af\uf900-\ufaff\ufb1d-\ufdff\ufe70-\ufeff]"
                     r"[\u0300-\u036f\u0370-\u03ff\u0400-\u052f\u0530-\u058f\u0590-\u05ff\u0600-\u06ff\u0700-\u08ff"
                     r"\u0900-\u0dff\u0e00-\u0eff\u0f00-\u0fff\u1000-\u109f\u10a0-\u10ff\u1100-\u11ff\u1200-\u137f"
                     r"\u1380-\u139f\u1f00-\u1fff\u3040-\u30ff\u3100-\u312f\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff"
                     r"\uac00-\ud7af\uf900-\ufaff\ufb1d-\ufdff\ufe70-\ufeff'’-]*")
_WORD = r"[^\W\d_](?:[^\W\d_]|['’ʾʿʼʻ-](?=[^\W\d_]))*"
"""A word of letters, with apostrophes, hamza, ayn and hyphens inside ("muʾminīn", "l'épopée", "Kitō-ryū")."""
_ROMANISED = re.compile(r"(?<![\w'’-])(?=ʼ|[\w'’ʾʿʼʻ-]*[āēīōūȳǖĀĒĪŌŪȲḍḥḷṃṇṛṣṭẓḌḤḶṂṆṚṢṬẒǎǐǒǔʾʿʻ])" + _WORD)
"""A word romanised from another script: long vowels, dots below, pinyin tones, hamza and ayn ("Kyōto",
"amīr", "al-muʾminīn"). No English word and no word of a Latin-script language beside English carries
these marks, so such a word is a rendering of a name (or of a term that names its place) like "Москва"."""
_IPA_CHARS = "ɐɑɒæɓʙβɔɕçɗɖðʤəɘɚɛɜɝɞɟʄɡɠɢʛɦɧħɥʜɨɪʝɭɬɫɮʟɱɯɰŋɳɲɴøɵɸθœɶʘɹɺɾɻʀʁɽʂʃʈʧʉʊʋⱱʌɣɤʍχʎʏʑʐʒʔʡʕʢǀǁǂǃˈˌːˑ"
_IPA = re.compile(r"(?<=[\[/])[^\]/\n]{1,40}(?=[\]/])")
_IPA_ONLY = frozenset(_IPA_CHARS + "ʰʲʷˠˤˡⁿ˞˥˦˧˨˩") - frozenset("æðøœθβçχħŋ")
"""IPA letters, modifiers and tone letters that no language's spelling writes ("ʃ", "ɪ", "ˈ", "ʲ", "˥"; not "æ" of
"Encyclopædia" nor "ø")."""
_BRACKETED_IPA = re.compile(r"(?<=\()[^()\[\]/:;,\n]{1,60}(?=\))")
"""A transcription in round brackets, as a copy of a page without its square ones writes it ("Irish pronunciation:
(ˈʃɪnjeːd̪ɣ)", "Mandarin: (pèi. tɕíŋ)")."""
_EVENT_HEADS = frozenset("Deal Massacre Rising Conquest Mutiny Putsch Coup Purge Schism Scare Panic Rush Bubble Plague "
                         "Riots Terror Armistice Exodus Migration".split())
"""Event words that end a name: before another capitalised word they are a modifier ("Most Favourite Rising Star",
"Rush Hour")."""
_EVENT_WORDS = ("War|Wars|Revolution|Era|Age|Ages|Depression|Dynasty|Period|Crusade|Crusades|Rebellion|Uprising|"
                "Olympics|Olympic Games|World Cup|Expo|Exposition|Famine|Restoration|Blockade|Blitz|Revolt|"
                "Reformation|Renaissance|Enlightenment|Holocaust|Prohibition|Reconstruction|Occupation|Partition|"
                + "|".join(sorted(_EVENT_HEADS)))
_PERIODS = frozenset("Renaissance Reformation Enlightenment Holocaust Prohibition Blitz".split())
"""Periods named by one word; the other event words name an event only after a capitalised word."""
_EVENT = re.compile(r"(?<![\w-])(?:(?:[A-Z][\w'’-]*|of|the|and)[ \t]+)*?(?:[A-Z][\w'’-]*[ \t]+)?(?:" + _EVENT_WORDS
                    + r")(?!\w)")
_CAPITALS_AFTER = re.compile(r"(?:[ \t]+[A-Z][\w'’-]*)+")
_CODE_IN_PARENS = re.compile(r"\(([A-Z]{2,5})\)")
_UPPER = re.compile(r"(?<![\w.])[A-Z]{2,6}(?![\w.])")
_FUNCTION = frozenset("of the and for de la le del della di do da das dos y et & in on at to".split())

Found = tuple[int, int, str, str]
"""(start, end, text, label) of a name found by its shape."""


_NAMED_TAXON = re.compile(r"(?<!\w)(?i:genus|species|specific|generic|subspecies|subspecific)\s+(?i:name|epithet)"
                          r"[,:]?\s+[\"“'‘*]*([a-z]{3,})(?!\w)")
"""A genus or epithet named as such in lower case: "The species name, cristatus, ...", "the genus name proteles"."""


def abbreviation(name: str) -> tuple[str, str] | None:
    """The genus's initial and the epithet of an abbreviated binomial ("E. coli" -> ("E", "coli"), "P. c. cristatus"
    -> ("P", "cristatus")), or None."""
    m = _ABBREVIATED.match(name)
    return (m[0][0], m[1]) if m is not None else None


def abbreviated_pairs(texts: Sequence[str]) -> frozenset[tuple[str, str]]:
    """The (initial, epithet) pairs the texts of an instance write abbreviated ("E. coli") and in full ("Escherichia
    coli"): a binomial written both ways is one whatever its epithet ("coli", "sapiens", "rex" are common enough
    alone)."""
    short = {(m[0][0], m[1]) for t in texts for m in _ABBREVIATED.finditer(t)}
    full = {(m[1][0], m[2]) for t in texts for m in _BINOMIAL.finditer(t)}
    return frozenset(p for p in short & full  # no common word: not "J. and" beside "Julius and"
                     if not never_name(p[1]) and not is_common(p[1], 4.5))


def taxa(text: str, classes: Callable[[str], frozenset[str]] = lambda word: frozenset(),
         pairs: frozenset[tuple[str, str]] = frozenset()) -> list[Found]:
    """Scientific binomials: a capitalised genus that is no common word and a rare epithet ending as Latin does,
    which is no English verb (``classes``: "Knowles impersonates"), or any epithet where the instance also writes the
    binomial abbreviated (``pairs``, see ``abbreviated_pairs``: "Escherichia coli" beside "E. coli", both binomials);
    and a genus or epithet in lower case after "genus name" or "species name" that English hardly has."""
    out = [(m.start(1), m.end(1), m[1], "TAXON") for m in _NAMED_TAXON.finditer(text)
           if not is_common(m[1], 3.0) and not is_word(m[1])]
    for m in _BINOMIAL.finditer(text):
        genus, epithet = m[1], m[2]
        third = _THIRD_EPITHET.match(text, m.end())
        end = m.end(1) if third is None or not _latin(third[1]) else third.end()
        if (genus[0], epithet) in pairs and not never_name(genus) and country_of(genus) is None:
            out.append((m.start(), max(end, m.end()), text[m.start():max(end, m.end())], "TAXON"))
            continue
        if never_name(genus) or not (_latin(epithet) or (end > m.end(1) or _latin_genus(genus))
                                     and _english_epithet(epithet)
                                     or end > m.end(1) and _latin_genus(genus) and _rare_epithet(epithet)):
            continue  # "fennica" (1.4), "vulgaris" (2.6), "sapiens" (3.0) are rare; "arena" is not; "Canis lupus
            # familiaris" and "Canis lupus" are binomials although "lupus" is an English word
        if (is_common(genus, 4.0) or country_of(genus) is not None or demonym_or_language(genus)
                or genus.endswith(("ian", "ean")) or "verb" in classes(epithet) or english_plural(epithet)):
            continue  # "Roman basilica", "Several species", "Macedonian emigres", "Iberian lynxes": no genus, no
            # epithet; "Knowles impersonates": no epithet
        end = max(end, m.end())
        out.append((m.start(), end, text[m.start():end], "TAXON"))
    for m in _ABBREVIATED.finditer(text):
        epithets = [e for e in (m[1], m[2]) if e and _latin(e)]
        if epithets and epithets[0] == m[1]:
            end = m.end(2) if len(epithets) == 2 else m.end(1)
            out.append((m.start(), end, text[m.start():end], "TAXON"))
        elif (m[0][0], m[1]) in pairs:
            out.append((m.start(), m.end(1), text[m.start():m.end(1)], "TAXON"))
    return out


_THIRD_EPITHET = re.compile(r"\s+([a-z]{3,})(?!\w)")


def _latin_genus(genus: str) -> bool:
    """True for a capitalised word that is no dictionary word, rare in English and ending as Latin does ("Canis",
    "Ursus"): a genus also before an epithet that English has ("lupus")."""
    return not is_word(genus) and not is_common(genus, 3.0) and _LATIN_END.search(genus.lower()) is not None


_STRICT_LATIN_END = re.compile(r"(?:us|um|is|ae|ii|ensis|icus|atus|ata|oides)$")
_RANKS = frozenset("genus genera species subspecies family families order orders class classes tribe".split())


def _english_epithet(epithet: str) -> bool:
    """True for an epithet English also has, after a Latin genus or before a third epithet: not common (below Zipf
    3.5), no stop word or rank, ending as Latin nouns and adjectives do ("lupus"; not "comes", "genus", "semi")."""
    return (not is_common(epithet, 3.5) and not never_name(epithet) and epithet not in _RANKS
            and _STRICT_LATIN_END.search(epithet) is not None)


def _rare_epithet(epithet: str) -> bool:
    """True for an epithet between a Latin genus and a Latin third epithet that is no everyday English word ("leo" of
    "Panthera leo persica", a name too)."""
    return not is_common(epithet, 5.0) and not never_name(epithet) and epithet not in _RANKS


def _latin(epithet: str) -> bool:
    """True for a rare word that ends as Latin does: "cristatus", "septentrionalis"; not "arena" or "sapiens"."""
    return not is_common(epithet, 3.0) and _LATIN_END.search(epithet) is not None


_CLICKED = re.compile(r"(?<![\w'’-])[ǀǁǂǃ][^\W\d_]*(?:[ǀǁǂǃ'’-][^\W\d_]+)*")
"""A word written with a click letter, as the Khoisan languages' names and words are ("the ǀXam people", "ǃKung")."""
_ARTICLED = re.compile(r"(?<![\w'’ʾʿ-])(?:al|el|ul)-['’ʾʿ]?[^\W\d_]{2,}(?:['’ʾʿ-][^\W\d_]+)*")
"""A romanised Arabic word after its article in lower case: "ul-'alam" of "Hudud ul-'alam", "al-Qaeda"."""


def scripts(text: str) -> list[Found]:
    """Words in a non-Latin script, romanised words, words with a click letter, and IPA transcriptions in brackets or
    slashes (in round brackets word by word, see ``_BRACKETED_IPA``). A Greek letter alone is a symbol, no name ("γ
    form: 33.6 GPa", "α decay", "a problem, Π2, to another, Π1", "ΔH")."""
    out = [(m.start(), m.end(), m[0], "SCRIPT") for m in _SCRIPT.finditer(text)
           if not (len(m[0]) == 1 and "\u0391" <= m[0] <= "\u03c9")]
    out += [(m.start(), m.end(), m[0], "SCRIPT") for m in _ROMANISED.finditer(text) if not _SCRIPT.search(m[0])]
    out += [(m.start(), m.end(), m[0], "SCRIPT") for m in _ARTICLED.finditer(text)
            if not _ROMANISED.match(text, m.start())]
    out += [(m.start(), m.end(), m[0], "SCRIPT") for m in _CLICKED.finditer(text)]  # "the ǀXam people", "ǃke e"
    for m in _IPA.finditer(text):
        body = m[0].strip()
        if body and any(c in _IPA_CHARS for c in body) and not _SCRIPT.search(body):
            start = m.start() + m[0].index(body)
            out.append((start, start + len(body), body, "SCRIPT"))
    for m in _BRACKETED_IPA.finditer(text):  # every word a transcription's or a syllable ("(so. pho. klɛ̂ːs)"); a
        # syllable that is an English word ("so", "ee" of "(pə-TAS-ee-əm)") or a letter stays
        pieces = [(p.start(), p[0].rstrip(".")) for p in re.finditer(r"[^\s-]+", m[0])]
        if any(c in _IPA_ONLY for c in m[0]) and all(any(c in _IPA_ONLY for c in w) or len(w) <= 3 for _, w in pieces):
            out += [(m.start() + a, m.start() + a + len(w), w, "SCRIPT") for a, w in pieces
                    if any(c in _IPA_ONLY for c in w) or len(w) > 1 and not is_common(w)]
    return out


_TRANSLITERATED = re.compile(r"(?<![\w.])(?:tr|translit|transl|rom)\.[ \t]*|(?<![\w-])(?i:romani[sz]ed|romani[sz]ation|"
                             r"transliterat(?:ed|ion)|hepburn|pinyin|wade[-–]giles|jyutping|revised romani[sz]ation|"
                             r"mccune[-–]reischauer|rr|mr)[ \t]*:[ \t]*")
_TRANSLITERATION = re.compile(r"[\"“'‘*]*(" + _WORD + r"(?:[ \t]+" + _WORD + r"){0,3})(?=[\"”'’*]*[ \t]*[,;)\]])")


def transliterations(text: str) -> list[Found]:
    """The words a label marks as a transliteration, in whatever letters ("(Russian: Москва, tr. Moskva)",
    "romanized: Al-Qahira", "RR: Hanguk"): plain ASCII, no mark tells them from English, but the label does, and
    they render the name beside them. Up to four words, ended by a comma, semicolon or bracket, each capitalised or
    no common English word."""
    out = []
    for label in _TRANSLITERATED.finditer(text):
        m = _TRANSLITERATION.match(text, label.end())
        if m is not None and all(w[:1].isupper() or not is_common(w) for w in m[1].split()):
            out.append((m.start(1), m.end(1), m[1], "SCRIPT"))  # not "(tr. by Maria Loeb)", a translator
    return out


_RENDERED = re.compile(r"(?<![\w'’-])([A-Z][^\W\d_]+(?:[ -][A-Z][^\W\d_]+)*)\s+\(([^()\n]{1,160})\)")


def rendered(text: str) -> list[Found]:
    """Names followed by a rendering in brackets, which NER may miss where a sentence starts: "Kyoto"
    of "Kyoto (Japanese: Kyōto)", "Athens (Ancient Greek: Ἀθῆναι)"."""
    return [(m.start(1), m.end(1), m[1], "PROPN") for m in _RENDERED.finditer(text)
            if not never_name(m[1].split()[0]) and scripts(m[2])]


_ARTICLE_BEFORE = re.compile(r"(?i)(?<!\w)(?:a|an|the)\s+(?:\d{4}\s+)?$")
_AFTER_LABEL = re.compile(r"[:,]?\s+(?:(?:word|words|term|name|form)\s+)?[\"'“‘(*]*")
_RENDERING_WORD = re.compile(_WORD)
_NEXT_RENDERING = re.compile(r"[\"'”’)*]*(?:,\s*|\s+or\s+|\s*/\s*)[\"'“‘(*]*")


def _foreign(word: str, below: float = 3.0, dictionary: bool = True) -> bool:
    """True for a lower-case word that English neither writes nor uses ("alteri", "alquemie"; not "albedo",
    nor "economy's"): rarer than Zipf ``below`` and, unless ``dictionary`` is off, no dictionary entry."""
    word = re.sub(r"['’]s$", "", word)
    if "-" in word.strip("-"):  # a compound is foreign when a part is: not "light-bellied", but "au-delà"
        return word[:1].islower() and any(_foreign(part, below, dictionary) for part in word.split("-"))
    return (len(word) >= 3 and word[:1].islower() and not is_common(word, below)
            and not (dictionary and is_word(word)))


def renderings(text: str, labels: Iterable[tuple[int, int]],
               classes: Callable[[str], frozenset[str]] = lambda word: frozenset()) -> list[Found]:
    """Foreign words right after a language's name ("Latin alteri", "Old French alquemie, alkimie",
    "(Afrikaans: erdvark)"): where the language is replaced, such a word would still tell which it was and
    what the word renders. Up to three, separated by commas, "or" or slashes. A word with a word class in
    English (``classes``) is English, also where the dictionary predates it ("Danish peacekeepers", "Russian
    cosmonauts"), and so is any word after an article and a nationality that names no language ("an American
    mockumentary")."""
    out = []
    for start, end in labels:
        if _ARTICLE_BEFORE.search(text, max(0, start - 12), start) and text[start:end] not in language_names():
            continue  # "a 1998 American mockumentary": a nationality describes ("the Latin acidus" is a rendering)
        m = _AFTER_LABEL.match(text, end)
        pos = m.end() if m else end
        for _ in range(3):
            w = _RENDERING_WORD.match(text, pos)
            if w is None or not _foreign(w[0]) or classes(w[0]):
                break
            out.append((w.start(), w.end(), w[0], "SCRIPT"))
            more = _NEXT_RENDERING.match(text, w.end())
            if more is None:
                break
            pos = more.end()
    return out


_NEXT_WORD = re.compile(r"[ \t]*(" + _WORD + ")")


_FOREIGN_NAME = re.compile(r"(?<![\w'’-])[A-Z][^\W\d_]*(?=[ \t]+(?:des|du|der|die|das|del|della|dei|degli|delle|dos|"
                           r"las|los)[ \t]+[^\W\d_])")
"""A capitalised word and a French, German, Italian, Spanish or Portuguese article: a foreign name starts
("Union des républiques ...") whether NER found it there or not."""


def foreign_in_names(text: str, spans: Iterable[tuple[int, int]],
                     classes: Callable[[str], frozenset[str]] = lambda word: frozenset()) -> list[Found]:
    """Foreign words in lower case inside a name NER found or one a foreign article shows, or going on from
    it through function words ("Union des républiques socialistes soviétiques"): NER keeps a name to its
    capitals, and the mapping keeps lower-case parts, so such words would stay and tell the name. At most
    six words past the span. A slip of English (see ``_made_of_english``) is none: "Tom Varley alsosaid"."""
    out: list[Found] = []
    spans = list(spans) + [(m.start(), m.end()) for m in _FOREIGN_NAME.finditer(text)]
    for start, end in spans:
        pos, past, seen = start, 0, False
        while (m := _NEXT_WORD.match(text, pos)) is not None:
            word = m[1]
            # English hardly knows it (not "endosymbiotic" of a span NER got wrong); after one such word, the
            # dictionary is not asked ("socialistes" looks English by its stem)
            foreign = (word.casefold() not in FUNCTION and _foreign(word, 1.0, dictionary=not seen)
                       and (seen or not _made_of_english(word, classes(word))))
            if m.start(1) >= end:
                if past == 6 or not (foreign or word.casefold() in FUNCTION):
                    break
                past += 1
            if foreign:
                out.append((m.start(1), m.end(1), word, "SCRIPT"))
                seen = True
            pos = m.end()
    return list(dict.fromkeys(out))  # a name NER found and its article's span give the same words


_LETTERS = re.compile(r"[^\W\d_]+")
_MONEY_CUE = re.compile(r"(?i)(?<!\w)(?:currenc(?:y|ies)|coins?|banknotes?|monetary|exchange rates?|pegged|"
                        r"denominations?|minted|mints?)(?!\w)")
_AMOUNT_BEFORE = re.compile(r"\d(?:[\d,.]*\d)?\s*(?:(?:million|billion|thousand|bn|m)\s+)?"
                            r"(?:[A-Z][\w'’-]*\s+)?$")
_CODE_AFTER = re.compile(r"\s*\([A-Z]{3}\)")


def currencies(text: str) -> list[Found]:
    """Currency units English hardly uses (see ``places.currency_units``), where the text speaks of money: an
    amount before ("50 kwanzas", "8 Estonian kroons"), an ISO code after ("the kroon (EEK)"), or a word of
    money anywhere in the text ("currency", "coins", "exchange rate"). "Dram" or "austral" elsewhere stay. A common
    unit of one people alone (``places.one_people_units``) is one after that people's word ("the Vietnamese dong",
    "South African rand") or after an amount where the text names the people or speaks of money ("20,000 dong",
    "50 rand coins"); "a yen for travel" stays."""
    units, common = currency_units(), one_people_units()
    cue: bool | None = None
    out = []
    for m in _LETTERS.finditer(text):
        if m[0].casefold() in common and m[0].islower():
            people = re.escape(common[m[0]])
            if re.search(rf"(?<!\w){people}\s+\Z", text[max(0, m.start() - 30):m.start()]) or (
                    _AMOUNT_BEFORE.search(text, max(0, m.start() - 40), m.start())
                    and (re.search(rf"(?<!\w){people}(?!\w)", text) or _MONEY_CUE.search(text))):
                out.append((m.start(), m.end(), m[0], "CURRENCY"))  # "the Vietnamese dong", "50 rand coins"
            continue
        if m[0].casefold() not in units:
            continue
        if cue is None:
            cue = _MONEY_CUE.search(text) is not None
        if cue or _AMOUNT_BEFORE.search(text, max(0, m.start() - 40), m.start()) or _CODE_AFTER.match(text, m.end()):
            out.append((m.start(), m.end(), m[0], "CURRENCY"))
    return out


_LONGEST_WORD = 30
"""Longer runs of letters are no English words, and no terms: a sequence ("atgcgtacgt..."), a code."""
TERM_RARE_ZIPF = 2.0
"""A common noun written in lower case and rarer than this in English is a term ("newel" 1.9, "aardwolf" 1.1;
not "hectare" 3.1): one that tells a reader what and where the text is about as a name does."""
_LOWER = re.compile(r"(?<![^\W\d_])[^\W\d_]{4,}(?![^\W\d_])")
_NOUN_TAGS = frozenset({"NN", "NNS", "NNP", "NNPS"})
_ADJECTIVE_END = re.compile(r"(?:al|ar|ic|ous|ive|able|ible|ful|less|ish|like|ary|ory|ed|ing|ant|ent|ian|ese|oid|ose"
                            r"|ile|ine)$")
"""Endings of English adjectives: a rare word the tagger calls an adjective without one is a noun before a noun
("hyolith conchs", "agnostid species")."""


def terms(text: str, tags: Callable[[], Mapping[int, str]],
          classes: Callable[[str], frozenset[str]] = lambda word: frozenset()) -> list[Found]:
    """Rare common nouns in lower case ("the newel", "stoneworts", "ytterbium"): a word rarer than
    ``TERM_RARE_ZIPF`` whose singular, if it is a plural, is no common word either ("aardvarks" of "aardvark"
    2.4 is a term; "racecourses" of "racecourse" 3.0 is not), and that is a noun. Such a word names the
    thing or the field the instance is about, and a reader who knows it can answer from memory.

    Args:
        tags: The tags of the text's lower-case words by start; asked only when a rare word is there.
        classes: The word classes English gives a word (``Annotations.classes``): a word only ever a noun
            is one ("the newel or central pole", which the small tagger calls an adjective); one never a noun
            is none ("polyphyletic", "subsists"); for one that may be either, or that the lists lack, the
            tagger decides (see ``_noun``).
    """
    rare = [m for m in _LOWER.finditer(text) if m[0].islower() and _rare_noun_form(m[0])]
    if not rare:
        return []
    tagged = tags()
    return [(m.start(), m.end(), m[0], "TERM") for m in rare
            if _noun(m[0], tagged.get(m.start(), ""), known := classes(m[0])) and not _made_of_english(m[0], known)]


def _rare_noun_form(word: str) -> bool:
    return (len(word) <= _LONGEST_WORD and not is_common(word, TERM_RARE_ZIPF) and not never_name(word)
            and not any(is_common(s, TERM_ZIPF) for s in singulars(word)))


def _made_of_english(word: str, known: frozenset[str]) -> bool:
    """True for a slip of English, which a reader reads through: a stop word run together with a common
    dictionary word ("thehuge", "breaksin"; not "satrap", nor a compound such as "loanword", which is a term),
    or a word of six ASCII letters or more that neither the dictionary nor the word lists (``known``) have,
    one slip away from a common word: a letter added, dropped or changed, or two swapped ("officals",
    "opporunity", "inconsistancies")."""
    if len(word) > _LONGEST_WORD:
        return False  # no typing slip: a sequence ("atgcgt..."), whose slips would be too many to try
    if any(_joined(word[:i], word[i:]) for i in range(2, len(word) - 1)):
        return True
    if known or is_word(word) or len(word) < 6 or not word.isascii():  # short words and foreign ones have
        return False  # common neighbours by chance: "vark" is one slip from "park", "lógos" from "logos"
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    slips = ({a + b[1:] for a, b in splits if b} | {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
             | {a + c + b[1:] for a, b in splits if b for c in ascii_lowercase}
             | {a + c + b for a, b in splits for c in ascii_lowercase})
    return any(is_common(s, TERM_ZIPF) for s in slips - {word})


def _joined(a: str, b: str) -> bool:
    return (never_name(a) and _common_word(b)) or (_common_word(a) and never_name(b))


def _common_word(word: str) -> bool:
    return len(word) > 2 and is_common(word) and is_word(word)


def _noun(word: str, tag: str, known: frozenset[str]) -> bool:
    """Whether a rare word is a noun, by its word classes and its tag. The tagger is unsure of words it has
    hardly seen: a word the lists lack is a noun when tagged one, when tagged an adjective but ending as no
    adjective does ("hyolith conchs", "agnostid species"), or when tagged a verb in the third person that
    the dictionary does not have, nor its stem ("carboranes"; not "subsists")."""
    if known:
        return "noun" in known and (known == {"noun"} or tag in _NOUN_TAGS)
    if tag in _NOUN_TAGS:
        return True
    if tag in ("JJ", "JJS", "JJR"):
        return _ADJECTIVE_END.search(word) is None
    return tag == "VBZ" and not is_word(word)


_NAMED_PERIOD = re.compile(r"(?<![\w'’-])((?:[A-Z][^\W\d_]*(?:['’-][^\W\d_]+)*[ \t]+)+)(dynasty|dynasties|era|period|"
                           r"shogunate|caliphate|sultanate|khanate)(?!\w)")
"""A period named by capitalised words before a lower-case period word: "the Meiji era", "the Heian period"."""
_HOUSES = frozenset("dynasty dynasties shogunate caliphate sultanate khanate".split())
"""Period words that follow a house's name only: "the Ming dynasty", "the Song dynasty" ("ming", "song" are words
too), where "the Christmas period" and "the Romantic period" are no names."""


_WEEKDAY_EVENT = re.compile(r"(?<![\w'’-])(?:[A-Z][a-z]+[ \t]+){1,2}(?:" + "|".join(d.title() for d in WEEKDAYS)
                            + r")(?![\w'’-])")
"""Capitalised words before a weekday: an event ("Bloody Sunday", "Black Tuesday"), unless a holiday ("Good
Friday")."""


_DATE_EVENT = re.compile(
    r"(?<![\w/'’-])(?P<cue>(?i:(?:post|pre)-|(?:after|since|before|until|following)[ \t]+))?"
    r"(?P<name>D-Day|V-?[EJ][- ]Day|\d{1,2}/\d{1,2})(?![\w/-])")
_CLAUSE_GOES_ON = re.compile(r"[ \t]*[,.;:)]|[ \t]+(?:and|in|when|which|that)\b")
"""Events named by their day, which a shift of years would leave beside dates they contradict: "D-Day", "VE Day",
"V-J Day", and a day and month written with a slash before a word for an attack or its aftermath ("the 9/11 attacks",
"the 7/7 bombings", "the 9/11 Commission"), after "post-" or "pre-" ("post-9/11 America"), or after "after",
"since", "before", "until" or "following" where the clause goes on ("since 9/11, airports"; not "since 3/4 of")."""


def named_by_day(name: str) -> bool:
    """True for the name of an event named by its day alone ("9/11", "D-Day"; see ``date_events``)."""
    m = _DATE_EVENT.fullmatch(name)
    return m is not None and not m["cue"]


def date_events(text: str) -> list[Found]:
    """The events named by their day (``_DATE_EVENT``); they change as a whole ("the 9/11 attacks" -> "the Glanice
    attacks", see ``mapping``)."""
    out = []
    for m in _DATE_EVENT.finditer(text):
        if m["name"][0].isdigit() and not (EVENT_AFTER.match(text, m.end()) or m["cue"] and (
                m["cue"].endswith("-") or _CLAUSE_GOES_ON.match(text, m.end()))):
            continue
        out.append((m.start("name"), m.end(), m["name"], "EVENT"))
    return out


def _weekday_events(text: str) -> list[Found]:
    """Events named by a weekday after capitalised words inside a sentence ("on Bloody Sunday", "the crash of Black
    Monday"), not a holiday of any country (``holiday_names``: "Good Friday", "Easter Monday") nor a day after a word
    that opens a sentence or names no event ("Last Sunday", "Every Monday")."""
    out = []
    for m in _WEEKDAY_EVENT.finditer(text):
        words = m[0].split()
        if sentence_start(text, m.start()) or any(never_name(w) for w in words[:-1]) or m[0] in holiday_names() \
                or " ".join(words[-2:]) in holiday_names():
            continue
        out.append((m.start(), m.end(), m[0], "EVENT"))
    return out


def events(text: str, classes: Callable[[str], frozenset[str]] = lambda word: frozenset()) -> list[Found]:
    """Named events and periods: a capitalised run ending in an event word, a capitalised period word, or a
    capitalised run before "era" or "period" with a word that is no ordinary word ("the Meiji era", "the Early
    Cambrian period"), or before "dynasty" or another house's word ("the Song dynasty", "the Ayyubid sultanate").
    A word opening the sentence before the name is no part of it ("Following World War II", see
    ``entities.opening_word``; ``classes`` gives the word classes English has for a word)."""
    out = []
    for m in _NAMED_PERIOD.finditer(text):
        start = m.start(1)
        for w in re.finditer(r"\S+", m[1]):  # not "During" or "The" before the name
            if not never_name(w[0]) and w[0].lower() not in FUNCTION:
                start = m.start(1) + w.start()
                break
        else:
            continue
        if m[2] not in _HOUSES and all(ordinary(w) for w in m[1][start - m.start(1):].split()):
            continue  # "the Christmas period", "the Romantic period"
        out.append((start, m.end(), text[start:m.end()], "EVENT"))
    for m in _EVENT.finditer(text):
        words = m[0].split()
        start = m.start()
        while words and (words[0].lower() in ("the", "of", "and") or never_name(words[0]) and len(words) > 2
                         and words[0].lower() not in ("first", "second", "third")
                         or opening_word(text, start, start + len(words[0]), words[1:], classes)):
            start = text.find(words[1], start + len(words[0])) if len(words) > 1 else m.end()
            words = words[1:]
        if not words:
            continue
        phrase = " ".join(words)
        start = m.end() - len(phrase) if m[0].endswith(phrase) else text.find(phrase, m.start())
        if len(words) == 1 and (words[0] not in _PERIODS or sentence_start(text, start)):
            continue  # "Occupation | Film director", "Restoration work began"
        after = _CAPITALS_AFTER.match(text, start + len(phrase))
        if after is not None and (words[-1] in _EVENT_HEADS or label_words(words + after[0].split(), text, start,
                                                                           after.end())):
            continue  # a row's label "| Direct War Losses |": "War" is no event's there; "Favourite Rising Star"
        out.append((start, start + len(phrase), phrase, "EVENT"))
    out += date_events(text) if "/" in text or "Day" in text else []
    return out + _weekday_events(text) if "day" in text else out


def faiths(text: str) -> list[Found]:
    """The faiths' words (``places.faith_spans``) wherever they stand: NER calls "Catholicism" or "Hinduism" a name in
    one sentence and nothing in the next, or in a table's cell ("| Religion | Roman Catholicism |"), and a faith kept
    beside replaced ones ("Sovianism, Roman Catholicism") tells a reader the real one."""
    return [(a, b, text[a:b], "NORP") for a, b in faith_spans(text)]


@cache
def _designated_places() -> re.Pattern[str] | None:
    """The known places whose words are ``designators_only`` ("United States", "Northern Territory", "Port-au-Prince";
    not "North-East"), as written and whole."""
    chosen = [r"\s+".join(re.escape(w) for w in name.split()) for name in place_names()
              if name[:1].isupper() and not name.startswith("The ")
              and designators_only(re.findall(r"[^\W\d_]+", name))]
    if not chosen:
        return None
    return re.compile(r"(?<![\w'’-])(?:" + "|".join(sorted(chosen, key=lambda p: (-len(p), p))) + r")(?![\w-])")


def designated_places(text: str) -> list[Found]:
    """Known places named by designators alone ("the United States", "the Northern Territory's coroner"), also
    inside a longer name ("United States Congress"): NER may call them an organisation or miss them, and each of
    their words alone is kept in names, so nothing else would replace them."""
    pattern = _designated_places()
    return [] if pattern is None else [(m.start(), m.end(), m[0], "GPE") for m in pattern.finditer(text)]


def codes(texts: Sequence[str], named: Callable[[str], bool]) -> list[list[Found]]:
    """Per text, the parenthesised upper-case codes of an instance once one of them is named or a country code."""
    found = [[(m.start(1), m.end(1), m[1]) for m in _CODE_IN_PARENS.finditer(t)] for t in texts]
    every = {c for f in found for _, _, c in f}
    if not any(named(c) or (country_of(c) is not None and country_of(c).code == c) for c in every):  # type: ignore[union-attr]
        return [[] for _ in texts]
    return [[(a, b, c, "ORG") for a, b, c in f] + _coded_in_cells(t, f) for t, f in zip(texts, found, strict=True)]


_CODED_NAME = re.compile(r"[A-Z][\w'’.-]*(?:[^\S\n]+(?:of|and|the|[A-Z][\w'’.-]*))*[^\S\n]*\Z")


def _coded_in_cells(text: str, codes: Sequence[tuple[int, int, str]]) -> list[Found]:
    """The names a table cell gives before their code ("| Soviet Union (URS) |" of a medal table, where the rows
    above have "Australia (AUS)"), proper nouns (``shaped`` keeps those NER missed: it names athletes too)."""
    out: list[Found] = []
    for a, _, _ in codes:
        start, _ = cell_span(text, a, a)
        name = _CODED_NAME.search(text, start, a - 1)
        words = name[0].split() if name is not None else []
        if (name is not None and name.start() == start and in_row(text, start) and not never_name(words[0])
                and not name[0].isupper()  # "CARRIAGE RETURN (CR)" of a table of characters
                and not (len(words) == 1 and ordinary(words[0]) and country_of(words[0]) is None)):  # "Total (TOT)"
            out.append((name.start(), name.start() + len(name[0].rstrip()), name[0].rstrip(), "PROPN"))
    return out


def initials(name: str) -> set[str]:
    """The initialisms of a multi-word name, with and without its function words ("PRI", "CPC", "COC"); a Roman
    numeral is written whole ("World War II" is "WWII", never "WWI")."""
    words = [w for w in re.findall(r"[^\W\d_][\w'’-]*", name)]
    if len(words) < 2:
        return set()
    letters = [w if w != "I" and _ROMAN.fullmatch(w) else w[0] for w in words]  # "I" alone is a word
    full = "".join(letters).upper()
    content = "".join(c for c, w in zip(letters, words, strict=True) if w.lower() not in _FUNCTION).upper()
    return {i for i in (full, content) if len(i) >= 2}


_BODIES = frozenset("""association union council commission committee organisation organization authority service
    agency league federation institute institution party bank fund office board department ministry corporation company
    society foundation trust court alliance coalition front movement conference bureau administration division
    directorate branch secretariat tribunal survey corps regiment squadron group""".split())
"""Words that name a body, which a name spelled out before its initialism holds ("Energy Union (CFMEU)")."""
_INITIALISM_AFTER = re.compile(r"[ \t]+\(([A-Z]{3,8})[),;]")
_SPELLED = re.compile(r"[A-Z][\w'’-]*(?:[ \t]+(?:of|for|and|on|in|the|de|[A-Z][\w'’-]*))*\Z")


def _spelled_out(text: str) -> list[tuple[int, int, int, int]]:
    """(start, end) of each run of capitalised words spelling out the initialism in brackets after it, and (start,
    end) of that initialism, outside tables' rows, where a header spells out its abbreviation ("Goals Against (GA)")."""
    out = []
    for m in _INITIALISM_AFTER.finditer(text):
        run = _SPELLED.search(text, max(0, m.start() - 160), m.start())
        if run is None or in_row(text, m.start()):
            continue
        for w in list(re.finditer(r"\S+", run[0]))[:-1]:
            name = text[run.start() + w.start():m.start()]
            if name[:1].isupper() and w[0].casefold() not in _FUNCTION and m[1] in initials(name):
                out.append((run.start() + w.start(), m.start(), m.start(1), m.end(1)))
                break
    return out


def spelled_out_names(text: str) -> list[Found]:
    """The names of bodies spelled out before their initialism in brackets: "the South Asian Association for Regional
    Cooperation (SAARC)", "Senior Construction Forestry Mining and Energy Union (CFMEU) officials" (from
    "Construction"), which NER may miss as its words are all ordinary ones; only with a word naming a body
    (``_BODIES``)."""
    return [(a, b, text[a:b], "ORG") for a, b, _, _ in _spelled_out(text)
            if any(w.casefold() in _BODIES for w in text[a:b].split())]


def spelled_out_terms(text: str) -> list[tuple[int, int]]:
    """The spans of terms spelled out before their initialism in brackets, and of the initialism: "Gross Domestic
    Product (GDP)", "Command Module Pilot (CMP)", whose words are all ordinary ones and no designator (``GENERIC``:
    "International Space Station (ISS)" is a name). NER calls them organisations; they name nothing."""
    return [span for a, b, c, d in _spelled_out(text)
            if all(is_word(w.casefold()) and w.casefold() not in GENERIC and w.casefold() not in _BODIES
                   for w in re.findall(r"[^\W\d_][\w'’-]*", text[a:b]) if w.casefold() not in _FUNCTION)
            for span in ((a, b), (c, d))]


_LOWER_INITIALISM = re.compile(r"((?:[a-z][a-z'’-]*[ \t]+){1,8})\(([A-Z]{2,8})s?[),;]")


def lower_spelled_out_terms(text: str) -> list[tuple[int, int]]:
    """The spans of initialisms in brackets after the lower-case words they abbreviate, also in the plural:
    "internally displaced persons (IDPs)", "gross domestic product (GDP)", "freedom of information (FOI)": terms,
    which NER may call a people or an organisation."""
    out = []
    for m in _LOWER_INITIALISM.finditer(text):
        n, every = len(m[2]), m[1].split()
        for words in (every[-n:], [w for w in every if w not in _FUNCTION][-n:]):  # "freedom of information (FOI)"
            if len(words) == n and "".join(w[0] for w in words).upper() == m[2]:
                out.append((m.start(2), m.end(0) - 1))
                break
    return out


_SYMBOL_AFTER = re.compile(r"(?<![\w-])([a-z]{3,})[ \t]+\(([A-Z][a-z]{0,2})\)")


def symbols_after_words(text: str) -> list[tuple[int, int]]:
    """The spans of symbols in brackets after the common word they abbreviate, its first letter and later ones in
    order: "rubidium (Rb)", "caesium (Cs)", "kelvin (K)"; the symbol of an element, a unit or a quantity, which NER
    may call a person and which stays as its word does (not after a rare word a term replaces: "ununennium
    (Uue)")."""
    out = []
    for m in _SYMBOL_AFTER.finditer(text):
        word, symbol = m[1], m[2].lower()
        later = iter(word[1:])  # the symbol's later letters in order: each found after the one before it
        if symbol[0] == word[0] and all(c in later for c in symbol[1:]) and is_common(word, TERM_RARE_ZIPF):
            out.append((m.start(2), m.end(2)))
    return out


@lru_cache(maxsize=1 << 12)
def plain_terms(text: str) -> tuple[tuple[int, int], ...]:
    """The spans of ``text`` that name no one thing though NER may say so: academic degrees (``degree_spans``),
    terms spelled out before their initialism (``spelled_out_terms``, ``lower_spelled_out_terms``) and symbols after
    their word (``symbols_after_words``)."""
    found = degree_spans(text)
    if "(" not in text:
        return found
    return found + tuple(spelled_out_terms(text) + lower_spelled_out_terms(text) + symbols_after_words(text))


_TERM_CODE = re.compile(r"[A-Z]{2,8}s?")


def term_codes(texts: Sequence[str]) -> set[str]:
    """The initialisms among the ``plain_terms`` of ``texts`` ("GDP", "IDPs", "BA"): terms wherever the instance writes
    them ("How many IDPs?" beside "internally displaced persons (IDPs)")."""
    return {t[a:b] for t in texts for a, b in plain_terms(t) if _TERM_CODE.fullmatch(t[a:b])}


_CLOCK = re.compile(r"\d(?:[:.]\d\d)?\s?$")
"""A time before "AM" or "PM": "4:52 AM", "11 PM"."""


def initialisms(texts: Sequence[str], names: Iterable[str]) -> list[list[Found]]:
    """Per text, the upper-case words that are the initials of a multi-word name of the instance; not "AM" and "PM"
    after a time ("4:52 AM" beside "Arlington Mill")."""
    wanted = {i for n in names for i in initials(n)}
    if not wanted:
        return [[] for _ in texts]
    return [[(m.start(), m.end(), m[0], "ORG") for m in _UPPER.finditer(t) if m[0] in wanted
             and not (m[0] in ("AM", "PM") and _CLOCK.search(t, max(0, m.start() - 8), m.start()))] for t in texts]


PASSAGE_LANGUAGES = ("fr", "de", "es", "it", "pt", "nl")
"""Languages a passage quoted in a Wikipedia article is most often in; spaCy ships their stop words."""
_SENTENCE = re.compile(r"[^.!?\n]+(?:[.!?]+(?=\s|$)|$)?|[.!?\n]+")
_ELISION = re.compile(r"^([^\W\d_]{1,3}['’])")


@cache
def _stop_words(lang: str) -> frozenset[str]:
    """The stop words of ``lang``, spaCy's list (a few hundred words), read from its module alone: importing the
    language's package would build its tokenizer's exceptions (two seconds for French)."""
    import importlib.util
    from pathlib import Path

    import spacy

    path = Path(spacy.__file__).parent / "lang" / lang / "stop_words.py"
    spec = importlib.util.spec_from_file_location(f"_ragability_stop_words_{lang}", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return frozenset(module.STOP_WORDS)


def _stop_in(word: str, lang: str) -> bool:
    """True for a stop word of ``lang``, or a word after an elided one ("l'épopée", "c'est")."""
    stops = _stop_words(lang)
    return word in stops or ((m := _ELISION.match(word)) is not None and m[1] in stops)


def foreign_passages(text: str) -> tuple[tuple[int, int, str], ...]:
    """(start, end, language) of the sentences of ``text`` written in another language (see
    ``PASSAGE_LANGUAGES``): five lower-case words or more, half of them rare in English (below Zipf 3.0), and
    three in ten stop words of that language, twice the share of English ones and under a fifth ("C'est cependant à
    partir de 1936 que ..."). A quotation stays readable: its own words are no terms or renderings, only its names
    change."""
    out = []
    english = _stop_words("en")
    for m in _SENTENCE.finditer(text):
        words = [w[0].lower() for w in _RENDERING_WORD.finditer(m[0]) if w[0][:1].islower() and len(w[0]) > 1]
        if len(words) < 5 or sum(w in english for w in words) * 5 >= len(words):
            continue  # English: a fifth of its words or more are English stop words (cheap sets first)
        if sum(not is_common(w, TERM_ZIPF) for w in words) * 2 < len(words):
            continue
        share = {lang: sum(_stop_in(w, lang) for w in words) / len(words) for lang in ("en", *PASSAGE_LANGUAGES)}
        best = max(PASSAGE_LANGUAGES, key=lambda lang: share[lang])
        if share[best] >= 0.3 and share[best] >= 2 * share["en"]:
            out.append((m.start(), m.end(), best))
    return tuple(out)


def passage_word(text: str, start: int, end: int, passages: Sequence[tuple[int, int, str]]) -> bool:
    """True for a capitalised word opening a sentence of a foreign passage that is a stop word of its language or
    follows an elided one: "C'est", which the English tagger takes for a proper noun."""
    return any(a <= start < b and sentence_start(text, start) and _stop_in(text[start:end].lower(), lang)
               for a, b, lang in passages)


def _outside(found: list[Found], spans: Sequence[tuple[int, int, str]]) -> list[Found]:
    return [f for f in found if not any(a <= f[0] < b for a, b, _ in spans)]


_LOWER_WORD = re.compile(r"[^\W\d_]+")
_GLUED_BEFORE = re.compile(r"[\w.@/-]\Z")
_GLUED_AFTER = re.compile(r"[\w@/-]|\.\w")


def lower_places(text: str) -> list[Found]:
    """In a text with no capital at all (a question as search engines get them), the places and peoples written in
    lower case, which NER misses there: one to three words that, capitalised, are a country or its people, a place
    ``countryinfo`` knows or a large city ("south korea", "los angeles", "alabama", "belgian riders"); a word of one
    that the dictionary also writes in lower case is a word ("china", "turkey", "reading"), unless a people's or
    a language's ("french")."""
    if any(c.isupper() for c in text):
        return []
    words = list(_LOWER_WORD.finditer(text))
    out: list[Found] = []
    i = 0
    while i < len(words):
        for n in (3, 2, 1):
            run = words[i:i + n]
            if len(run) < n or any(text[a.end():b.start()] != " " for a, b in zip(run, run[1:], strict=False)) \
                    or _GLUED_BEFORE.search(text, 0, run[0].start()) or _GLUED_AFTER.match(text, run[-1].end()):
                continue  # "coca-cola.com", "www.rome.it": no place
            name = " ".join(w[0].capitalize() for w in run)
            country = country_of(name)
            people = n == 1 and country is not None and country.demonym == name
            if not people and not listed_place(name):
                continue
            if n == 1 and not people and is_word(run[0][0]):
                continue
            out.append((run[0].start(), run[-1].end(), text[run[0].start():run[-1].end()], "NORP" if people else "GPE"))
            i += n - 1
            break
        i += 1
    return out


def shaped(texts: Sequence[str], ner_names: Sequence[str], labels: Iterable[str],
           languages: Sequence[Sequence[tuple[int, int]]], names: Sequence[Sequence[tuple[int, int]]],
           tags: Callable[[str], Mapping[int, str]] = lambda text: {},
           classes: Callable[[str], frozenset[str]] = lambda word: frozenset(),
           quoted: Sequence[Sequence[tuple[int, int, str]]] | None = None) -> list[list[Found]]:
    """Per text, every name found by its shape (see the module notes) whose label is among ``labels``.

    Args:
        ner_names: The names NER found in the instance (for sibling codes and initialisms).
        languages: Per text, the spans of the languages and nationalities found in it (for renderings).
        names: Per text, the spans NER found names in (for foreign words inside names).
        tags: The tags of a text's lower-case words by start (for terms); asked only for texts with a rare word.
        classes: The word classes of a word (for terms).
        quoted: Per text, its ``foreign_passages``, where no terms or renderings are looked for; None finds them.
    """
    wanted = set(labels)
    out: list[list[Found]] = []
    passages = quoted if quoted is not None else [foreign_passages(t) for t in texts]
    pairs = abbreviated_pairs(texts) if "TAXON" in wanted else frozenset()
    for t, language_spans, name_spans, here in zip(texts, languages, names, passages, strict=True):
        found: list[Found] = []
        if "TAXON" in wanted:
            found += taxa(t, classes, pairs)
        if "SCRIPT" in wanted:
            found += scripts(t) + transliterations(t) + _outside(renderings(t, language_spans, classes)
                                           + foreign_in_names(t, name_spans, classes), here)
        if "CURRENCY" in wanted:
            found += currencies(t)
        if "EVENT" in wanted:
            found += events(t, classes)
        if "NORP" in wanted:
            found += faiths(t)
        if "GPE" in wanted:
            found += designated_places(t) + lower_places(t)
            found += [(a, b, t[a:b], "GPE") for a, b in state_codes_after_towns(t)]
        if "TERM" in wanted:
            found += _outside(terms(t, partial(tags, t), classes), here)
        if "PROPN" in wanted:
            found += rendered(t)
        out.append(found)
    if "ORG" in wanted:
        known = {n.casefold() for n in ner_names}
        for i, (coded, initial) in enumerate(zip(codes(texts, lambda c: c.casefold() in known),
                                                 initialisms(texts, ner_names), strict=True)):
            out[i] += [f for f in coded if f[3] != "PROPN" or not any(a < f[1] and f[0] < b for a, b in names[i])]
            out[i] += initial + spelled_out_names(texts[i])
    return out
