"""Titles of works: found where their context marks them, replaced whole by English words that read in their place."""

from __future__ import annotations

import random
import re

import pytest
from lemminflect import getAllLemmas
from test_substitute_names import maker

from ragability_gen import Answer, Context, Instance, substitute_instances
from ragability_gen.substitute import nlp
from ragability_gen.substitute.english import contracted, english_word, plural, readings, spoken
from ragability_gen.substitute.entities import Mention
from ragability_gen.substitute.mapping import build_table
from ragability_gen.substitute.names import is_common, vowel_sound
from ragability_gen.substitute.titles import title_mentions


def titles(text: str, found: list[tuple[int, int]] | None = None) -> list[str]:
    return [m.text for m in title_mentions("contexts/1", text, found or [])[0]]


@pytest.mark.parametrize("text, expected", [
    ("Dire Straits released their fifth album Brothers in Arms in 1985.", ["Brothers in Arms"]),
    ("Houses of the Holy is the fifth studio album by the English rock band Led Zeppelin.", ["Houses of the Holy"]),
    ("The television series ''Breaking Bad'' was created by Vince Gilligan.", ["Breaking Bad"]),
    ("The song \"Come On Over\" topped the charts.", ["Come On Over"]),
    ("Their first single, Love Me Do, was released in October 1962.", ["Love Me Do"]),
    ("The novel In Cold Blood appeared in 1966.", ["In Cold Blood"]),
    ("Tolkien's novel The Lord of the Rings was published in 1954.", ["Lord of the Rings"]),
    ("The movie Titanic's success surprised the studio.", ["Titanic"]),
    ("Love Story is a 1970 American romantic drama film directed by Arthur Hiller.", ["Love Story"]),
    ("The sequel Despicable Me 3 followed the film Despicable Me 2 in 2017.", ["Despicable Me 3", "Despicable Me 2"]),
])
def test_titles_after_the_kind_of_work_or_opening_a_lead_sentence(text: str, expected: list[str]) -> None:
    assert titles(text) == expected


@pytest.mark.parametrize("text", [
    "He released the album. Then Smith left the band.",  # a sentence ends after the kind of work
    "The film's director won an award.",
    "The book I wrote was published in 2001.",  # a pronoun alone names nothing
    "In the series finale, the hero dies.",
    "| 1999 | film | The Matrix | Warner Bros. |",  # a table cell: no title run after the kind of work
    "| Film | Year |\n| Heat | 1995 |",
    "The song is about love.",
    "Apple is the company whose products include the iPhone series.",  # no work before a relative clause
    "The song \"We will fight on the beaches\" was quoted.",  # a quotation is no title unless in title case
])
def test_no_title_where_none_is_marked(text: str) -> None:
    assert titles(text) == []


def test_a_title_ends_before_a_name_after_a_function_word_and_takes_in_ordinary_words() -> None:
    text = "Michael Jackson released the album Thriller in Europe in 1982."
    europe = (text.index("Europe"), text.index("Europe") + 6)
    assert titles(text, [europe]) == ["Thriller"]
    text = "The novel In Cold Blood by Truman Capote appeared in 1966."
    cold = (text.index("Cold"), text.index("Blood") + 5)
    capote = (text.index("Truman"), text.index("Capote") + 6)
    found, taken = title_mentions("contexts/1", text, [cold, capote])
    assert [m.text for m in found] == ["In Cold Blood"] and taken == {cold}  # "Cold Blood" (FAC) is the title's
    text = "Her novel Harry Potter and the Goblet of Fire came out in 2000."
    harry = (text.index("Harry"), text.index("Potter") + 6)
    found, taken = title_mentions("contexts/1", text, [harry])
    assert [m.text for m in found] == ["Harry Potter and the Goblet of Fire"] and taken == set()  # a name stays one


@pytest.mark.parametrize("word, reading", [
    ("Brothers", ("NOUN", "NNS")), ("Breaking", ("VERB", "VBG")), ("Holy", ("ADJ", "JJ")),
    ("Greatest", ("ADJ", "JJS")), ("Thriller", ("NOUN", "NN")), ("Love", ("VERB", "VB")),
])
def test_an_english_word_keeps_the_readings_and_form(word: str, reading: tuple[str, str]) -> None:
    rng = random.Random(4)
    for _ in range(20):
        new = english_word(rng, word, set())
        assert new is not None and new != word.lower() and is_common(new, 3.0)
        assert reading in readings(new), (word, new, readings(new))
        assert vowel_sound(new) == vowel_sound(word)  # "an Old Man" stays "an ...", "a Thriller" no "a Union"


def test_english_words_are_seeded_and_avoid_taken_words() -> None:
    first = [english_word(random.Random(7), w, set()) for w in ("Arms", "Sea", "Bad")]
    assert first == [english_word(random.Random(7), w, set()) for w in ("Arms", "Sea", "Bad")]
    taken = set(first[:1])
    assert all(english_word(random.Random(s), "Arms", taken) not in taken for s in range(30))
    def lemmas(word: str) -> set[str]:
        return {lemma for found in getAllLemmas(word).values() for lemma in found}

    free = {english_word(random.Random(s), "Lights", set()) for s in range(30)}
    singular = {lemma for w in free for lemma in lemmas(w or "")}  # "culture" of "cultures"
    for s in range(30):  # nor a form of a word taken: "Lights" never becomes "cultures" once "Love" is "culture"
        new = english_word(random.Random(s), "Lights", singular)
        assert new is not None and not lemmas(new) & singular, new
    assert english_word(random.Random(1), "Zqxv", set()) is not None  # an unknown word reads as a noun
    assert english_word(random.Random(1), "the", set()) is None  # no function word is replaced


@pytest.fixture(scope="module")
def substituted() -> tuple[Instance, dict]:
    nlp.load_model()
    inst = Instance("t1", "How many copies did Brothers in Arms sell?", {
        "1": Context("1", "Dire Straits' fifth album Brothers in Arms sold 30 million copies after 1985.", "qeu",
                     "1", (), ()),
        "2": Context("2", "Brothers in Arms is the fifth studio album by the band, released in 1985. The single "
                     "\"Walk of Life\" followed.", "qeu", "2", (), ("1",)),
    }, {"1": Answer("30 million", "Brothers in Arms sold 30 million copies."),
        "2": Answer("20 million", "Brothers in Arms sold 20 million copies.")})
    result = substitute_instances([inst], seed=5)
    return result.instances[0], result.audit[0]


def test_a_title_is_replaced_whole_and_alike_in_every_field(substituted: tuple[Instance, dict]) -> None:
    out, audit = substituted
    entry = next(e for e in audit["entities"] if e["original"] == "Brothers in Arms")
    new = entry["fantasy"]
    assert entry["type"] == "TITLE" and re.fullmatch(r"[A-Z][a-z]+ in [A-Z][a-z]+", new), new
    assert all(is_common(w, 3.0) for w in new.split())  # English words, not invented ones
    texts = [out.query, out.contexts["1"].text, out.contexts["2"].text, out.answers["1"].long, out.answers["2"].long]
    assert all("Brothers" not in t and "Arms" not in t for t in texts)
    assert all(new in t for t in texts)
    assert "fifth studio album by the band" in out.contexts["2"].text and " copies" in out.query
    walk = next(e["fantasy"] for e in audit["entities"] if e["original"] == "Walk of Life")
    assert re.fullmatch(r"[A-Z][a-z]+ of [A-Z][a-z]+", walk) and "Walk" not in out.contexts["2"].text


def test_a_name_is_no_title() -> None:
    text = "In the film Jack Nicholson starred in, a writer goes mad."
    jack = (text.index("Jack"), text.index("Nicholson") + 9)
    assert titles(text, [jack]) == []


def compose(title: str, label: str = "TITLE") -> str:
    return build_table([Mention("contexts/1", 0, len(title), title, label)], maker(3)).compose(title)


@pytest.mark.parametrize("title, kept, changed", [
    ("Greatest Hits Volume Two", ["Volume Two"], ["Greatest", "Hits"]),  # a designator that numbers stays
    ("Guitar Hero II", [" II"], ["Guitar", "Hero"]),  # so does a Roman numeral
    ("Tonight I'm Gonna Rock You Tonight", [" I'm Gonna ", " You "], ["Tonight", "Rock"]),  # and "I'm", "Gonna"
    ("The Old Man and the Sea", ["The ", " and the "], ["Old", "Man", "Sea"]),  # designators are title words
])
def test_every_word_of_a_title_but_function_words_and_numbering_changes(title: str, kept: list[str],
                                                                        changed: list[str]) -> None:
    new = compose(title)
    assert all(k in new for k in kept), new
    assert not any(re.search(rf"\b{w}\b", new) for w in changed), new


@pytest.mark.parametrize("title, label, kept, changed", [
    ("I Know You Don't Love Me", "WORK_OF_ART", ["I ", " You Don't ", " Me"], ["Know", "Love"]),  # NER's title too
    ("Why Haven't I Heard from You", "WORK_OF_ART", ["Why Haven't I ", " from You"], ["Heard"]),
    ("That Ain't All", "TITLE", ["That Ain't All"], []),  # nothing else to change: a contraction is no name
    ("Glad You're Mine", "PERSON", [" You're Mine"], ["Glad"]),  # NER's person of a title's words
    ("Forgettin' 'Bout You", "TITLE", ["in' 'Bout You"], ["Forgettin"]),  # "'Bout": "about", a function word
])
def test_a_contraction_stays_in_any_name(title: str, label: str, kept: list[str], changed: list[str]) -> None:
    new = compose(title, label)
    assert all(k in new for k in kept), new
    assert not any(re.search(rf"\b{w}\b", new) for w in changed), new


@pytest.mark.parametrize("title", ["Talkin' Blues", "Sittin' in the Balcony", "Fool Passin' Through"])
def test_a_dropped_g_becomes_another_verb_s_dropped_g(title: str) -> None:
    old = re.search(r"(\w+in)'", title)[1]  # type: ignore[index]
    new = compose(title)
    said = re.search(r"\b([A-Z][a-z]+in)' ", new + " ")
    assert said is not None and said[1] != old, new
    assert ("VERB", "VBG") in readings(said[1].lower() + "g")  # "Standin'": a form of "standing"


@pytest.mark.parametrize("word, standard, joined", [
    ("Talkin'", "talking", False), ("lovin’", "loving", False), ("Ol'", "old", False), ("'Bout", "about", False),
    ("Nothin'", "nothing", False), ("Don't", None, True), ("I'm", None, True), ("Gonna", None, True),
    ("C'mon", None, True), ("Wed", None, False), ("O'Brien", None, False), ("o'clock", None, False),
    ("Martin", None, False),
])
def test_spoken_spellings_and_contractions(word: str, standard: str | None, joined: bool) -> None:
    assert spoken(word) == standard and contracted(word) is joined


def test_names_in_a_title_get_invented_names_and_words_english_ones() -> None:
    new = compose("Jack of Fables").split()
    assert new[1] == "of" and not is_common(new[0], 1.0)  # "Jack" is a given name: an invented one
    assert is_common(new[2], 3.0) and new[2].endswith("s")  # "Fables": a plural noun


@pytest.mark.parametrize("word, ending, expected", [
    ("Door", "es", "Doors"), ("participant", "es", "participants"), ("Child", "s", "Children"),
    ("Man", "s", "Men"), ("Felix", "s", "Felixes"), ("Schen", "s", "Schens"), ("Bates", "s", "Bateses"),
    ("Academy", "s", "Academies"), ("XQ", "s", "XQs"), ("DOOR", "ES", "DOORS"),
])
def test_a_plural_follows_the_new_word_not_the_old_ending(word: str, ending: str, expected: str) -> None:
    assert plural(word, ending) == expected


def test_a_title_word_in_the_plural_gets_the_new_word_s_plural() -> None:
    nlp.load_model()
    text = "The film My Hero Academia: Two Heroes premiered in Los Angeles in 2018."
    inst = Instance("t1", "When did the film premiere?", {"1": Context("1", text, "qeu", "1", (), ())},
                    {"1": Answer("2018", "in 2018")})
    for seed in range(6):
        out = substitute_instances([inst], seed=seed).instances[0].contexts["1"].text
        new = re.search(r"Two (\w+) premiered", out)
        assert new is not None and new[1] != "Heroes", out
        singular = {lemma for lemmas in getAllLemmas(new[1].lower()).values() for lemma in lemmas}
        assert any(plural(lemma, "s") == new[1].lower() for lemma in singular), out  # "Doors", never "Doores"


def test_titled_names_a_title_and_entitled_to_does_not() -> None:
    assert titles("She wrote a memoir, later a film, titled Eat Pray Love in 2006.") == ["Eat Pray Love"]
    assert titles("Workers are entitled to Sunday pay.") == []


def test_a_quoted_title_ends_before_the_punctuation_inside_the_quotes() -> None:
    assert titles('In the episode "Fin Del Camino." the crew returns.') == ["Fin Del Camino"]
    assert titles('The single "Is There Life Out There?" charted.') == ["Is There Life Out There"]


@pytest.mark.parametrize("text, expected", [
    ('| 2015 | 9 and the Numbers | "Hide and Seek" |', ["Hide and Seek"]),
    ("Leenalchi won for “Tiger Is Coming” in 2021.", ["Tiger Is Coming"]),
    ('During the opening weekend, "My Hero Academia: Two Heroes" ranked 4th.', ["My Hero Academia: Two Heroes"]),
    ('He was nicknamed "Magic" as a boy.', []),  # one capitalised word: a nickname, no title
    ('She said "we will stay" and left.', []),  # a quotation in lower case
    ('The "Black Friday" sales began.', ["Black Friday"]),
])
def test_a_quoted_run_of_capitalised_words_is_a_title(text: str, expected: list[str]) -> None:
    assert titles(text) == expected


def test_a_quoted_title_is_a_work_of_art_and_keeps_its_designators() -> None:
    found, _ = title_mentions("contexts/1", 'Its name makes the Atlantic the "Sea of Atlas".', [])
    assert [(m.text, m.label) for m in found] == [("Sea of Atlas", "WORK_OF_ART")]
    found, _ = title_mentions("contexts/1", 'The single "Walk of Life" followed.', [])
    assert [(m.text, m.label) for m in found] == [("Walk of Life", "TITLE")]  # the kind of work is said
    found, _ = title_mentions("contexts/1", 'The single "Walk of Life" followed.', [], ("WORK_OF_ART",))
    assert [m.label for m in found] == ["WORK_OF_ART"]  # --types without TITLE: a quoted title is still one
    assert compose("Sea of Atlas", "WORK_OF_ART").startswith("Sea of ")


def test_content_words_of_the_stop_list_change_in_a_title() -> None:
    best = compose("Best in Show")
    assert re.fullmatch(r"[A-Z][a-z]+ in [A-Z][a-z]+", best) and "Show" not in best
    assert "Back" not in compose("Back to the Future") and compose("Part of Me").endswith(" of Me")


def test_a_title_changes_words_other_names_keep_in_that_title_only() -> None:
    found = [Mention("contexts/1", 0, 12, "Best in Show", "TITLE"),
             Mention("contexts/1", 20, 35, "Crufts Dog Show", "ORG"),
             Mention("contexts/1", 40, 63, "The Old Man and the Sea", "TITLE"),
             Mention("contexts/1", 70, 77, "Red Sea", "LOC")]
    table = build_table(found, maker(3))
    assert "Show" not in table.compose("Best in Show") and table.compose("Crufts Dog Show").endswith(" Show")
    assert "Sea" not in table.compose("The Old Man and the Sea") and table.compose("Red Sea").endswith(" Sea")


def test_a_title_ends_before_a_name_after_a_preposition_but_not_after_of() -> None:
    text = "The novel Dracula by Bram Stoker and the film Return of the Jedi came out."
    stoker = (text.index("Bram"), text.index("Stoker") + 6)
    jedi = (text.index("Jedi"), text.index("Jedi") + 4)
    assert titles(text, [stoker, jedi]) == ["Dracula", "Return of the Jedi"]


def test_the_subject_of_a_lead_sentence_is_a_title_whole() -> None:
    text = "Crisis on Infinite Earths was a novel released in the winter."
    earths = (text.index("Infinite"), text.index("Earths") + 6)
    assert titles(text, [earths]) == ["Crisis on Infinite Earths"]


@pytest.mark.parametrize("text, expected", [
    ("Pride and Prejudice, a novel by Jane Austen, was published in 1813.", ["Pride and Prejudice"]),
    ("The Grapes of Wrath (1939) is a novel by John Steinbeck.", ["Grapes of Wrath"]),
    ("Hamlet is a tragic play by William Shakespeare.", ["Hamlet"]),
    ("Swift published the essay A Modest Proposal in 1729.", ["Modest Proposal"]),
    ("Swift's main target in A Modest Proposal was not the conditions in Ireland.", ["Modest Proposal"]),
    ("She starred in A Star Is Born, and later in An American in Paris.", ["Star Is Born", "American in Paris"]),
    ("In The Sky Falls Twice (1979), the captain leads a rebel camp.", ["Sky Falls Twice"]),
    ("His films include Paper Moon Rising (1994), Mrs. Tibbet (1996), and Cold Grey Stone (2001).",
     ["Paper Moon Rising", "Mrs. Tibbet", "Cold Grey Stone"]),
    ("She played Megan Price in Harbour Lights (1998–2003) in her roles of the decade.", []),  # no list: no cue
    ("known for her roles in dramas playing Megan Price in Harbour Lights (1998–2003) and Tess in The Long Meadow "
     "(2005–09).", ["Harbour Lights", "Long Meadow"]),
    ("The mare, sometimes referred to as Dusty or Lightning, won.", ["Dusty", "Lightning"]),
    ("Nicknamed the Red Devils, the club was known as the Heathens before 1902.", ["Heathens"]),
])
def test_titles_in_apposition_after_a_year_and_after_a_capital_article(text: str, expected: list[str]) -> None:
    assert sorted(titles(text)) == sorted(expected)


@pytest.mark.parametrize("text", [
    "Later, a novel by an unknown author appeared.",  # one word before an apposition: no title
    "Vitamin A Deficiency is common; Exhibit A Shows the knife.",  # a letter after a capitalised word
    "She took her A Levels in 1990 and wrote a sonata in A Major.",  # an exam, a key: one word after the letter
    "The results, a report by the board, were published.",  # an apposition that names no work
    "| A | Team | Points |",  # a table's header, not inside a sentence
    "In Hong Kong, a film by a local studio grossed HK$870,000.",  # an apposition opening with a function word
    "In Hong Kong, the film grossed HK$870,000.",
    "Roy Winsor (April 13, 1912 - May 31, 1987) was an American soap opera writer.",  # a writer, no work
    "The Great Lakes are a series of interconnected freshwater lakes.",  # "a series of" names no series
    "The role led to a sequel, Yes, Prime Minister, in 1986.",  # an everyday word alone: no title
    "Cannes Film Festival, a film festival in France, began in 1946.",  # a festival, a firm: no work
    "Faber and Faber, a book publisher, printed it.",
    "The disease, commonly known as Type 2 diabetes, affects millions.",  # a designator and its number
    "The agency, known as NASA since 1958, was called Monday's hero.",  # an acronym; a day
    "The convention was signed in The Hague (1899) by many states.",  # one word after "In The"
])
def test_no_title_from_an_apposition_or_article_that_marks_none(text: str) -> None:
    assert titles(text) == []


def test_a_place_inside_a_title_stays_a_place_in_the_title_and_elsewhere() -> None:
    inst = Instance("1", "Who starred in An American in Paris?", {
        "1": Context("1", "Gene Kelly starred in the film An American in Paris, shot in 1951.", "qeu", "1", (),
                     ("2",)),
        "2": Context("2", "Paris itself was never used in the film.", "qeu", "2", (), ("1",)),
    }, {"1": Answer("Gene Kelly", "Gene Kelly starred in it."), "2": Answer("nobody", "Nobody did.")})
    nlp.load_model()
    for seed in range(4):
        result = substitute_instances([inst], seed=seed)
        out, audit = result.instances[0], result.audit[0]
        place = next(e["fantasy"] for e in audit["entities"] if e["original"] == "Paris")
        title = next(e["fantasy"] for e in audit["entities"] if e["original"] == "American in Paris")
        assert title.endswith(" in " + place) and not is_common(place, 2.0), (title, place)  # an invented place
        assert out.contexts["2"].text.startswith(place + " itself") and "Paris" not in out.query


def test_a_tables_column_of_titles_gives_each_cells_title_case_run() -> None:
    from ragability_gen.substitute.titles import _column_titles

    text = ("Year | Film | Song\n2005 | The Tiger | Theme song\n2006 | Agent trouble | Don't Judge Me\n"
            "2007 | Pirates of the Caribbean: At World's End | \"Hog\"[3]\n\nName | Title\nJane Roe | Chief Executive "
            "Officer\n\ntitle | Social work (Occupation)\nFilm | Seventh Heaven")
    found = [text[w[0][0]:w[-1][1]] for w in _column_titles(text)]
    assert found == ["The Tiger", "Don't Judge Me", "Pirates of the Caribbean", "Hog"]
