"""Record files: what is written reads back identically, through our reader and the hjson library."""

from __future__ import annotations

import json
from pathlib import Path

import hjson
import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragability_gen.core import reading
from ragability_gen.core.fileio import (
    NotStreamable,
    RecordSource,
    member,
    read_records,
    stream_records,
    write_records,
)
from ragability_gen.errors import InputError

text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
value = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4),
    max_leaves=12,
)
record = st.dictionaries(text, value, max_size=6)


@settings(max_examples=150, deadline=None)
@given(records=st.lists(record, max_size=5))
def test_hjson_round_trip_matches_the_hjson_library(tmp_path_factory: pytest.TempPathFactory, records: list) -> None:
    path = tmp_path_factory.mktemp("rt") / "r.hjson"
    write_records(records, path, header=["made by a test", "second # line"])
    assert read_records(path) == records
    with open(path, encoding="utf-8") as fh:
        assert json.loads(json.dumps(hjson.load(fh))) == records


@settings(max_examples=60, deadline=None)
@given(records=st.lists(record, max_size=5), fmt=st.sampled_from(["json", "jsonl"]))
def test_json_and_jsonl_round_trip(tmp_path_factory: pytest.TempPathFactory, records: list, fmt: str) -> None:
    path = tmp_path_factory.mktemp("rt") / f"r.{fmt}"
    write_records(records, path)
    assert read_records(path) == records


def test_hand_written_hjson_falls_back_to_the_hjson_library(tmp_path: Path) -> None:
    (tmp_path / "h.hjson").write_text(
        "# a suite\n[\n  {\n    qid: a-1  # comment\n    query: '''\n      two\n      lines\n      '''\n  }\n]\n",
        encoding="utf-8")
    # hjson reads a quoteless value to the end of the line, comment marks included
    assert read_records(tmp_path / "h.hjson") == [{"qid": "a-1  # comment", "query": "two\nlines"}]


def test_syntax_errors_name_line_and_column(tmp_path: Path) -> None:
    (tmp_path / "bad.hjson").write_text('[\n  {\n    "qid": "x",\n    }\n  ]]\n', encoding="utf-8")
    with pytest.raises(InputError) as err:
        read_records(tmp_path / "bad.hjson")
    assert err.value.problems[0].startswith(f"{tmp_path / 'bad.hjson'}: line ")
    (tmp_path / "bad.jsonl").write_text('{"qid": "x"}\n[1]\n{"qid": \n', encoding="utf-8")
    with pytest.raises(InputError) as err:
        read_records(tmp_path / "bad.jsonl")
    assert err.value.problems == [
        f"{tmp_path / 'bad.jsonl'}: line 2: expected an object, got list",
        f"{tmp_path / 'bad.jsonl'}: line 3, column 9: Expecting value",
    ]


def test_a_failing_writer_leaves_nothing_behind(tmp_path: Path) -> None:
    def records():
        yield {"qid": "1"}
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        write_records(records(), tmp_path / "s.hjson")
    assert list(tmp_path.iterdir()) == []


def test_empty_suite_is_an_empty_list(tmp_path: Path) -> None:
    for fmt in ("hjson", "json", "jsonl"):
        write_records([], tmp_path / f"e.{fmt}")
        assert read_records(tmp_path / f"e.{fmt}") == []


@pytest.mark.parametrize("fmt", ["hjson", "json", "jsonl"])
def test_record_source_streams_what_the_writer_writes(tmp_path: Path, fmt: str) -> None:
    recs = [{"i": i, "text": "x" * (i % 9) + ' ]"[ é\n', "n": 123456789} for i in range(3000)]
    path = tmp_path / f"r.{fmt}"
    write_records(recs, path)
    assert list(stream_records(path, chunk_size=97)) == recs  # values cut at every chunk boundary
    source = RecordSource(path)
    assert list(source) == recs and list(source) == recs


def test_record_source_falls_back_for_hjson_and_bad_bytes(tmp_path: Path) -> None:
    mixed = tmp_path / "m.hjson"
    mixed.write_text('# hand edited\n[\n  {"a": 1},\n  {a: 2}\n]\n')
    with pytest.raises(NotStreamable):
        list(stream_records(mixed))
    source = RecordSource(mixed)
    assert list(source) == list(source) == [{"a": 1}, {"a": 2}]
    bad = tmp_path / "b.jsonl"
    bad.write_bytes(b'{"a": 1}\n{"a": "\xff"}\n')
    with pytest.raises(InputError) as e:
        list(RecordSource(bad))
    assert e.value.problems == [f"{bad}: line 2, byte column 8: not valid UTF-8 (byte 0xff)"]
    with pytest.raises(InputError) as e:
        list(RecordSource(tmp_path / "none.json"))
    assert e.value.problems == [f"{tmp_path / 'none.json'}: no such file"]

def test_staged_outputs_are_all_or_nothing(tmp_path: Path) -> None:
    from ragability_gen.core.fileio import staged_outputs

    (tmp_path / "a.txt").write_text("old a", encoding="utf-8")
    with pytest.raises(RuntimeError), staged_outputs(tmp_path / "a.txt", tmp_path / "sub" / "b.txt") as (a, b):
        a.write_text("new a", encoding="utf-8")
        b.write_text("new b", encoding="utf-8")
        raise RuntimeError("the second writer failed")
    assert (tmp_path / "a.txt").read_text(encoding="utf-8") == "old a"
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["a.txt", "sub"]
    with staged_outputs(tmp_path / "a.txt", tmp_path / "sub" / "b.txt") as (a, b):
        assert (a.name, b.name) == ("a.txt", "b.txt")
        a.write_text("new a", encoding="utf-8")
        b.write_text("new b", encoding="utf-8")
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["a.txt", "b.txt", "sub"]
    assert (tmp_path / "sub" / "b.txt").read_text(encoding="utf-8") == "new b"


@pytest.mark.parametrize("indent", [None, 2, 4, "\t"])
@pytest.mark.parametrize("chunk", [7, 97, 1 << 20])
def test_streaming_reads_any_json_array_layout(tmp_path: Path, indent: object, chunk: int) -> None:
    recs = [{"i": i, "nested": {"a": [1, {"b": "}\n  }"}]}, "s": "é" * (i % 5)} for i in range(40)]
    path = tmp_path / "r.json"
    path.write_text("// made by hand\n" + json.dumps(recs, indent=indent, ensure_ascii=False), encoding="utf-8")
    assert list(stream_records(path, chunk_size=chunk)) == recs


@pytest.mark.parametrize("text", ['[\n  {"a": 1\n  },\n  {"a": 2\n  }\n] x', '[\n  {"a": 1\n  },\n  {"a": 2\n  }',
                                  '[\n  {"a": 1\n  },\n  3\n]', '[\n  {"a": 1\n  } {"b": 2}\n]'])
def test_streaming_refuses_what_is_not_an_array_of_records(tmp_path: Path, text: str) -> None:
    path = tmp_path / "r.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(NotStreamable):
        list(stream_records(path, chunk_size=5))


def test_written_records_end_where_the_streaming_reader_cuts(tmp_path: Path) -> None:
    recs = [{"qid": f"q{i}", "facts": ["a", "b"], "checks": [{"cid": "c", "metrics": ["m"]}]} for i in range(5)]
    write_records(recs, tmp_path / "s.hjson", header=["h"])
    text = (tmp_path / "s.hjson").read_text(encoding="utf-8")
    assert text.startswith("# h\n[\n  {\n") and text.endswith("\n  }\n]\n")
    assert text.count("\n  },\n  {\n") == 4


laid_value = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | text
    | st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from([1e16, 1e-05, -0.0, 123456789.123]),
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner) | st.dictionaries(text, inner, max_size=4),
    max_leaves=12,
)
long_texts = st.lists(st.text(st.characters(blacklist_categories=("Cs",)), min_size=30, max_size=60), min_size=2,
                      max_size=3)


@settings(max_examples=200, deadline=None)
@given(records=st.lists(st.dictionaries(text, laid_value | long_texts, min_size=1, max_size=6), max_size=5),
       fmt=st.sampled_from(["hjson", "json"]))
def test_laid_out_records_are_written_byte_for_byte_as_plain_ones(tmp_path_factory: pytest.TempPathFactory,
                                                                   records: list, fmt: str) -> None:
    """orjson writes records of strings and member() fragments exactly as the value-by-value encoder does
    (floats in the standard library's forms, NaN, tuples, control characters, lists one element a line)."""
    folder = tmp_path_factory.mktemp("laid")
    write_records(records, folder / f"plain.{fmt}", header=["h"])
    write_records(({k: member(v) for k, v in r.items()} for r in records), folder / f"laid.{fmt}", header=["h"],
                  laid_out=True)
    assert (folder / f"laid.{fmt}").read_bytes() == (folder / f"plain.{fmt}").read_bytes()


def test_laid_out_records_are_not_written_as_jsonl(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="jsonl"):
        write_records([{"a": "b"}], tmp_path / "x.jsonl", laid_out=True)
    assert not (tmp_path / "x.jsonl").exists()


def test_strings_are_encoded_by_orjson_as_by_the_standard_library() -> None:
    """The laid-out writer leaves strings to orjson: every code point must come out as json.dumps writes it."""
    chars = "".join(chr(i) for i in range(0x11000) if not 0xD800 <= i < 0xE000) + "\U0001F600\U0010FFFF"
    for start in range(0, len(chars), 4096):
        s = chars[start:start + 4096]
        assert orjson.dumps(s) == json.dumps(s, ensure_ascii=False).encode()


def test_records_longer_than_many_chunks_stream_through_the_fast_path(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A record far longer than a chunk is read whole by the chunked reader, not left to the slow decoder."""
    records = [{"qid": "1", "facts": ["x" * 300_000, "y"]}, {"qid": "2", "facts": "z" * 70_000}, {"qid": "3"}]
    write_records(records, tmp_path / "s.hjson")
    assert list(stream_records(tmp_path / "s.hjson")) == records

    def slow(*args: object) -> None:
        raise AssertionError("the incremental decoder was used")

    monkeypatch.setattr(reading, "_stream_array_text", slow)
    with open(tmp_path / "s.hjson", "rb") as fh:
        assert list(reading._stream_array(fh, "s.hjson", 1 << 12)) == records
