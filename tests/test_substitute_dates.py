"""Date expressions: what counts as a date, the offset choice, rendering, and the interval invariants."""

from __future__ import annotations

import datetime as dt
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragability_gen.substitute.dates import (
    CENTURY,
    DECADE,
    DECADE2,
    HUNDREDS,
    YEAR,
    Bare,
    Evidence,
    choose_offset,
    decide,
    find_dates,
    fits,
    interval_problems,
    read,
    render,
)


def shifted(text: str, offset: int, ev: Evidence | None = None) -> str:
    slots, bares = find_dates(text, ev or Evidence())
    slots += decide({"t": bares}, slots).get("t", [])
    out = text
    for s in sorted(slots, key=lambda s: -s.start):
        out = out[:s.start] + render(s, text[s.start:s.end], offset) + out[s.end:]
    return out


@pytest.mark.parametrize("text, found", [
    ("on 14 April 1912", [("1912", YEAR, 1912, 4, 14)]),
    ("on April 14, 1912", [("1912", YEAR, 1912, 4, 14)]),
    ("the 10th of March 1814", [("1814", YEAR, 1814, 3, 10)]),
    ("in March 1912", [("1912", YEAR, 1912, 3, None)]),
    ("on 1912-04-14", [("1912", YEAR, 1912, 4, 14)]),
    ("on 24/12/1989", [("1989", YEAR, 1989, 12, 24)]),
    ("in the 1990s", [("1990", DECADE, 1990, None, None)]),
    ("in the mid-1840s", [("1840", DECADE, 1840, None, None)]),
    ("in the '90s", [("90", DECADE2, 1990, None, None)]),
    ("in the 1800s", [("1800", HUNDREDS, 1800, None, None)]),
    ("the 19th century", [("19th", CENTURY, 1801, None, None)]),
    ("the nineteenth-century house", [("nineteenth", CENTURY, 1801, None, None)]),
    ("the 1st century AD", [("1st century AD", CENTURY, 1, None, None)]),
    ("the 7th-6th century BC", [("7th", CENTURY, -699, None, None), ("6th century BC", CENTURY, -599, None, None)]),
    ("the 12th–13th centuries", [("12th", CENTURY, 1101, None, None), ("13th", CENTURY, 1201, None, None)]),
    ("in AD 79", [("AD 79", YEAR, 79, None, None)]),
    ("in 44 BC", [("44 BC", YEAR, -43, None, None)]),
    ("from 799 to 684 BC", [("799", YEAR, -798, None, None), ("684", YEAR, -683, None, None)]),
    ("(1781–1845)", [("1781", YEAR, 1781, None, None), ("1845", YEAR, 1845, None, None)]),
    ("in 1802–03", [("1802", YEAR, 1802, None, None), ("03", YEAR, 1803, None, None)]),
    ("between 1911 and 1946", [("1911", YEAR, 1911, None, None), ("1946", YEAR, 1946, None, None)]),
    ("In 2019 and 1998-99.", [("1998", YEAR, 1998, None, None), ("99", YEAR, 1999, None, None)]),
    ("in 1936–7", [("1936", YEAR, 1936, None, None), ("7", YEAR, 1937, None, None)]),
    ("the 1948-9 season", [("1948", YEAR, 1948, None, None), ("9", YEAR, 1949, None, None)]),
    ("died 20 March 1726/27", [("1726", YEAR, 1726, 3, 20), ("27", YEAR, 1727, None, None)]),
    ("in February 1714/5", [("1714", YEAR, 1714, 2, None), ("5", YEAR, 1715, None, None)]),
    ("on 1 May 1726/29", [("1726", YEAR, 1726, 5, 1)]),  # two years apart: no Old Style date
    ("the truce of 446/5 BC", [("446", YEAR, -445, None, None), ("5", YEAR, -444, None, None)]),
    ("the lists of 410/09 BC", [("410", YEAR, -409, None, None), ("09", YEAR, -408, None, None)]),
    ("(c. 497/6 – winter 406/5 BC)", [("497", YEAR, -496, None, None), ("6", YEAR, -495, None, None),
                                      ("406", YEAR, -405, None, None), ("5", YEAR, -404, None, None)]),
    ("(c. 497 / 6 – winter 406 / 5 BC)", [("497", YEAR, -496, None, None), ("6", YEAR, -495, None, None),
                                          ("406", YEAR, -405, None, None), ("5", YEAR, -404, None, None)]),
])
def test_date_expressions(text: str, found: list[tuple[str, str, int, int | None, int | None]]) -> None:
    slots, _ = find_dates(text)
    assert [(text[s.start:s.end], s.unit, s.value, s.month, s.day) for s in slots] == found


@pytest.mark.parametrize("text", [
    "It lasted for 25 years.", "three days later", "a decade of war", "1201 people died",
    "the 1,266 passengers", "a mirror 4.2 metres wide", "at the age of 56", "page 1200", "5:00 pm on 11 March",
    "ages 11–16", "in her 30s", "for 1000 years", "1687 kilometres in 26 hours",
])
def test_durations_counts_and_day_months_are_no_dates(text: str) -> None:
    plural = Evidence(is_plural=lambda pos: text[pos:].startswith(("people", "kilometres")))
    assert shifted(text, 30, plural) == text


def test_bare_years_follow_evidence_and_the_vote() -> None:
    text = "In 1850 the town grew; by 1900 it had 1900 houses"
    slots, bares = find_dates(text, Evidence(is_plural=lambda pos: text[pos:].startswith("houses")))
    assert [(b.number, b.decision) for b in bares] == [("1850", True), ("1900", True), ("1900", False)]
    # an undecided "1912" (a lone answer) follows a "1912" that is a year elsewhere in the instance
    votes = decide({"answer": [Bare(0, 4, "1912", None)], "context": [Bare(3, 7, "1912", True)]})
    assert sorted(votes) == ["answer", "context"]
    # ... and stays a number when NER called it one and no occurrence is a year
    assert decide({"answer": [Bare(0, 4, "1201", None, weak=True)]}) == {}
    assert decide({"a": [Bare(0, 4, "1201", None)], "b": [Bare(0, 4, "1201", False)]}) == {}
    assert list(decide({"answer": [Bare(0, 4, "1961", None)]})) == ["answer"]


@pytest.mark.parametrize("text, offset, expected", [
    ("on 14 April 1912", 28, "on 14 April 1940"),
    ("in the 1990s and '90s", -30, "in the 1960s and '60s"),
    ("from 799 to 684 BC", 100, "from 699 to 584 BC"),
    ("in AD 79", -100, "in 22 BC"),
    ("in 44 B.C.", 100, "in 57 A.D."),
    ("in 44 BCE", 100, "in 57 CE"),
    ("the 1st century AD.", -100, "the 1st century BC."),
    ("the nineteenth century", 100, "the twentieth century"),
    ("the 21st century", -100, "the 20th century"),
    ("the 7th-6th century BC", -300, "the 10th-9th century BC"),
    ("from the 3rd to 5th century AD", 200, "from the 5th to 7th century AD"),
    ("in 1802–03", 10, "in 1812–13"),
    ("in 1998–02", 5, "in 2003–07"),
    ("in 1995–05", 1, "in 1996–2006"),
    ("in 1936–7", -38, "in 1898–9"),
    ("Founded | October 1983; 36 years ago (1983-10)", -45, "Founded | October 1938; 36 years ago (1938-10)"),
    ("born May 3, 2001 (2001-05)", 3, "born May 3, 2004 (2004-05)"),  # a year and its month, no range
    ("the 2001-05 period", 3, "the 2004-08 period"),  # no month in words before it: a range
    ("the 1948-9 season", 3, "the 1951-2 season"),
    ("in 1936–7", 3, "in 1939–40"),
    ("in 1996–7", 3, "in 1999–2000"),
    ("died 20 March 1726/27 in Bath", -47, "died 20 March 1679/80 in Bath"),
    ("the truce of 446/5 BC", -42, "the truce of 488/487 BC"),  # the year of two in full, never "5 BC" moved
    ("(c. 497/6 – winter 406/5 BC)", 30, "(c. 467/466 – winter 376/375 BC)"),
    ("in February 1699/1700", 3, "in February 1702/1703"),
])
def test_rendering(text: str, offset: int, expected: str) -> None:
    assert shifted(text, offset) == expected


def test_offset_constraints() -> None:
    decade, _ = find_dates("the 1990s")
    assert all(fits(decade, o) == (o % 10 == 0 and o != 10) for o in range(-40, 41))  # not "the 2000s"
    century, _ = find_dates("the 19th century")
    assert all(fits(century, o) == (o % 100 == 0) for o in range(-300, 301))
    leap, _ = find_dates("born on 29 February 1912")
    assert [o for o in range(-12, 13) if fits(leap, o)] == [-8, -4, 0, 4, 8, 12]  # 1900 was no leap year
    weekday, _ = find_dates("on Monday, 15 April 1912")
    kept = [o for o in range(-60, 61) if dt.date(1912 + o, 4, 15).weekday() == 0]
    assert [o for o in range(-60, 61) if fits(weekday, o)] == kept and 28 in kept and 1 not in kept
    four_digits, _ = find_dates("on 1 January 1020")
    assert not fits(four_digits, -40) and fits(four_digits, -20)
    shared_bc, _ = find_dates("from 30 to 10 BC")
    assert not fits(shared_bc, 10) and fits(shared_bc, 9) and fits(shared_bc, -100)
    marked, _ = find_dates("in 30 BC")
    assert fits(marked, 100)  # its own marker flips
    assert choose_offset(find_dates("from 20 to 5 BC and from 3 to 9 AD")[0], Random(1)) is None


def test_offsets_prefer_the_past() -> None:
    slots, _ = find_dates("in May 2020")
    assert {choose_offset(slots, Random(s)) for s in range(40)} <= set(range(-60, 6))
    future, _ = find_dates("settled from 3 to 9 AD, surveyed in May 2024")  # only forward shifts fit
    assert 5 <= choose_offset(future, Random(1)) <= 60


def test_read_back_detects_a_wrong_shift() -> None:
    slots, _ = find_dates("on 14 April 1912 and 20 April 1912")
    assert interval_problems([(s, s.value + 28) for s in slots], 28) == []
    assert interval_problems([(slots[0], 1940), (slots[1], 1941)], 28) == [
        "date year 1912 became 1941 instead of 1940"]
    assert read(slots[0], "1940", 28) == 1940


FORMATS = ["{d} {M} {y}", "{M} {d}, {y}", "{W}, {d} {M} {y}", "{y}-{m:02d}-{d:02d}", "{M} {y}", "in {y}",
           "the {dec}s", "the '{dd:02d}s", "the {c} century", "{y}–{y2}", "{b} BC", "AD {a}"]


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


@st.composite
def dated_texts(draw: st.DrawFn) -> str:
    days = draw(st.lists(st.dates(min_value=dt.date(1200, 1, 1), max_value=dt.date(2020, 12, 31)),
                         min_size=1, max_size=6))
    forms = draw(st.lists(st.sampled_from(FORMATS), min_size=len(days), max_size=len(days)))
    parts = [f.format(d=d.day, m=d.month, M=f"{d:%B}", W=f"{d:%A}", y=d.year, y2=d.year + d.day,
                      dec=d.year // 10 * 10 if d.year % 100 >= 10 else d.year // 10 * 10 + 10,
                      dd=d.year // 10 * 10 % 100, c=_ordinal(d.year // 100 + 1), b=d.year - 1150, a=d.year - 1150)
             for d, f in zip(days, forms, strict=True)]
    return "; then ".join(parts) + "."


def _comparable(slots: list) -> list[tuple[str, int]]:
    return [(s.unit, s.value % 100 if s.unit == DECADE2 else s.value) for s in slots]


@settings(max_examples=150, deadline=None)
@given(dated_texts(), st.integers(0, 2**32))
def test_shift_keeps_every_interval_and_ordering(text: str, seed: int) -> None:
    before, _ = find_dates(text)
    offset = choose_offset(before, Random(seed))
    if offset is None:  # no offset fits every date: the instance is excluded; say so only for real conflicts
        assert not any(fits(before, o) for o in range(-2000, 2001) if abs(o) >= 5)
        return
    assert abs(offset) >= 5
    after, _ = find_dates(shifted(text, offset))
    assert [u for u, _ in _comparable(after)] == [u for u, _ in _comparable(before)]
    for a, b in zip(after, before, strict=True):
        assert (a.value - b.value) % 100 == offset % 100 if a.unit == DECADE2 else a.value - b.value == offset
    days_before = [dt.date(s.value, s.month, s.day) for s in before if s.day]
    days_after = [dt.date(s.value, s.month, s.day) for s in after if s.day]
    assert [b - a for a, b in zip(days_before, days_before[1:], strict=False)] == [
        b - a for a, b in zip(days_after, days_after[1:], strict=False)]
    assert [d.weekday() for d in days_before] == [d.weekday() for d in days_after] or "day," not in text
    order = [s for s in before if s.unit != DECADE2]
    moved = [s for s in after if s.unit != DECADE2]
    assert sorted(range(len(order)), key=lambda i: order[i].value) == sorted(range(len(moved)),
                                                                               key=lambda i: moved[i].value)


@settings(max_examples=60, deadline=None)
@given(st.integers(-3000, 2100).filter(lambda y: y != 0), st.integers(-20, 20).map(lambda k: 100 * k))
def test_era_years_cross_year_0_without_a_year_0(year: int, offset: int) -> None:
    text = f"in {abs(year)} BC" if year < 0 else f"in AD {year}"
    slots, _ = find_dates(text)
    astro = year + 1 if year < 0 else year
    if not fits(slots, offset):
        return
    new = shifted(text, offset)
    (after,), _ = find_dates(new)
    assert after.value == astro + offset
    assert ("BC" in new) == (astro + offset <= 0)


@pytest.mark.parametrize("text, expected", [
    ("first named in a 1237 document", "first named in a 1267 document"),
    ("the 1984 election", "the 2014 election"),
    ("won the 1500 metre race", "won the 1500 metre race"),  # a number a measure counts
    ("a 1000 word essay", "a 1000 word essay"),
    ("the 1201 people", "the 1201 people"),  # a plural noun: a count
])
def test_a_number_after_an_article_and_before_a_singular_noun_is_a_year(text: str, expected: str) -> None:
    plural = Evidence(spans=[(text.find("1"), text.find("1") + 4, "CARDINAL")],
                      is_plural=lambda pos: text[pos:].startswith("people"))
    assert shifted(text, 30, plural) == expected


@pytest.mark.parametrize("text, expected", [
    ("Season | Team | Apps\n2011 | Rovers | 14\n2012 | Rovers | 20",
     "Season | Team | Apps\n2041 | Rovers | 14\n2042 | Rovers | 20"),
    ("| Year | Goals |\n| 1998 | 1500 |", "| Year | Goals |\n| 2028 | 1500 |"),  # the goals column holds counts
    ("Rank | Points\n1 | 2011\n2 | 1980", "Rank | Points\n1 | 2011\n2 | 1980"),  # no column of years
])
def test_a_number_filling_a_cell_under_a_year_header_is_a_year(text: str, expected: str) -> None:
    numbers = [(i, i + 4, "CARDINAL") for i in range(len(text) - 3) if text[i:i + 4].isdigit()]
    assert shifted(text, 30, Evidence(spans=numbers)) == expected


@pytest.mark.parametrize("text, expected", [
    ("Battery | 2000 mAh", "Battery | 2000 mAh"),
    ("Networks | GSM 850, 900, 1800, and 1900 MHz", "Networks | GSM 850, 900, 1800, and 1900 MHz"),
    ("Records 1080p at 30fps and 720p at 90fps", "Records 1080p at 30fps and 720p at 90fps"),
    ("Display | 4.3 inches @ 1280px x 720px (341 PPI)", "Display | 4.3 inches @ 1280px x 720px (341 PPI)"),
    ("Storage | 1024 GB", "Storage | 1024 GB"),
    ("a 2000 cc engine built in 1998", "a 2000 cc engine built in 2028"),
    ("In 1990, 2000 km of road were built", "In 2020, 2000 km of road were built"),  # a cue word: a year
    ("as Smith (2004a) and 1998 show", "as Smith (2034a) and 2028 show"),  # a citation's letter
    ("since the mid-1970ss", "since the mid-2000ss"),  # a decade mistyped still moves
])
def test_a_number_measured_by_a_unit_or_glued_to_one_is_no_year(text: str, expected: str) -> None:
    """Even where NER calls every four-digit number a date: a specification's frequencies, capacities and
    resolutions are no years."""
    dates = [(i, i + 4, "DATE") for i in range(len(text) - 3) if text[i:i + 4].isdigit()]
    assert shifted(text, 30, Evidence(spans=dates)) == expected


def test_a_number_glued_to_letters_keeps_the_same_number_elsewhere_from_being_a_year() -> None:
    """Where nothing else tells (no NER date, no cue word), the glued number's vote holds its other occurrences."""
    text = "Alfa Romeo 6C 1750GS | 1.8 L6\nAlfa Romeo 6C 1750 | 1.5 L6\nAlfa Romeo 8C 1900 | 2.3 L8"
    assert shifted(text, 30) == text.replace("1900", "1930")  # a bare number with no evidence: a year


def test_an_era_glued_to_its_year_renders_and_a_code_is_no_year() -> None:
    slots, _ = find_dates("AD43C | Iranian Railways | 1972")  # a locomotive class, not the year 43
    assert [s.value for s in slots] == []
    assert shifted("Pompeii was buried in AD79.", -100) == "Pompeii was buried in 22 BC."


def test_a_year_in_a_web_address_moves_with_the_instance_s_years() -> None:
    """A year between a web address's separators ("wiki/2019_Halle_Open", "#2019:_Two") moves where the instance
    writes the number as a year; a number there that it never writes so stays (a page's number)."""
    text = ("Title: 2019 Halle Open\nURL: https://en.wikipedia.org/wiki/2019_Halle_Open#Doubles In 2019, Melo won. "
            "See https://en.wikipedia.org/wiki/Marcelo_Melo#2019:_Two_finals, https://example.org/item/1234_b")
    assert shifted(text, 32) == text.replace("2019", "2051")


@pytest.mark.parametrize("text, expected", [
    ("He won the Shanghai Masters 1000 in 2019 and the top 1200 list.",
     "He won the Shanghai Masters 1000 in 2051 and the top 1200 list."),  # NER's date label alone tells nothing
    ("The settlements date back to 1000 AD.\n1000", "The settlements date back to 1032 AD.\n1032"),  # a lone answer
    ("The 1200 charter was signed.", "The 1232 charter was signed."),
])
def test_a_round_number_before_1500_is_a_year_only_where_the_instance_says_so(text: str, expected: str) -> None:
    dates = [(i, i + 4, "DATE") for i in range(len(text) - 3) if text[i:i + 4].isdigit()]
    assert shifted(text, 32, Evidence(spans=dates)) == expected
