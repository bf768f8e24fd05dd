"""YAML and JSON from outside: read within limits, refused with the file and line."""

from __future__ import annotations

import pytest

from envsuite import safe_load
from envsuite.safe_load import (
    MAX_DEPTH,
    DataFileError,
    check_depth,
    decode_utf8,
    load_json,
    load_yaml,
    read_text,
    read_yaml,
)


def _bomb(levels: int) -> str:
    """A billion-laughs document: 9 ** levels values from a few hundred bytes."""
    lines = ['l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for level in range(1, levels + 1):
        lines.append(f"l{level}: &l{level} [{', '.join([f'*l{level - 1}'] * 9)}]")
    return "\n".join(lines) + "\n"


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_anchors_and_merge_keys_within_the_budget_still_load():
    text = "base: &base {horizon: 5, num_arms: 3}\nenvs:\n  - <<: *base\n    horizon: 7\n"
    assert load_yaml(text, "t.yaml") == {
        "base": {"horizon": 5, "num_arms": 3},
        "envs": [{"horizon": 7, "num_arms": 3}],
    }
    assert len(load_yaml(_bomb(4), "t.yaml")["l4"]) == 9  # 9**5 values: under the budget


def test_an_alias_bomb_is_refused_where_it_goes_over_the_budget():
    with pytest.raises(DataFileError, match=r"t.yaml, line 7, column \d+: .*alias bomb"):
        load_yaml(_bomb(8), "t.yaml")


def test_an_alias_inside_its_own_anchor_is_refused():
    with pytest.raises(DataFileError, match=r"alias \*a refers to a value that contains it"):
        load_yaml("x: &a [1, *a]\n", "t.yaml")


def test_a_key_given_twice_is_refused_with_its_line():
    with pytest.raises(DataFileError, match=r"t.yaml, line 3, column 3: .*duplicate key 'b'"):
        load_yaml("a:\n  b: 1\n  b: 2\n", "t.yaml")


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 100_000])
def test_yaml_nested_deeper_than_the_limit_is_refused(depth):
    assert load_yaml(_nested(MAX_DEPTH), "t.yaml") is not None
    with pytest.raises(DataFileError, match=f"more than {MAX_DEPTH} levels deep"):
        load_yaml(_nested(depth), "t.yaml")


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 100_000])
def test_json_nested_deeper_than_the_limit_is_refused(depth):
    assert load_json(_nested(MAX_DEPTH), "--set x") is not None
    with pytest.raises(DataFileError, match=f"--set x nests .* more than {MAX_DEPTH} levels"):
        load_json(_nested(depth), "--set x")


def test_check_depth_walks_any_depth_without_recursion():
    value: list = []
    for _ in range(100_000):
        value = [value]
    with pytest.raises(DataFileError, match="more than 64 levels"):
        check_depth(value, "value")


@pytest.mark.parametrize(
    ("text", "why"),
    [("NaN", "NaN is not valid JSON"), ('{"a": 1, "a": 2}', "duplicate key 'a'"), ("[1,", "")],
)
def test_strict_json_names_the_line_and_the_problem(text, why):
    with pytest.raises(DataFileError, match=f"^f.jsonl:3: malformed JSON: {why}"):
        load_json(text, "f.jsonl", line=3)


def test_lenient_json_takes_what_python_takes():
    assert load_json('{"a": 1, "a": NaN}', "run.json", strict=False)["a"] != 1


def test_bytes_that_are_not_utf8_are_named_by_line_and_column():
    with pytest.raises(DataFileError, match=r"^x.yaml, line 2, column 3: not UTF-8 .*0xff"):
        decode_utf8(b"id: a\nab\xffc\n", "x.yaml")


def test_an_oversize_file_is_refused_before_it_is_read_whole(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_text("a: " + "x" * 100, encoding="utf-8")
    with pytest.raises(DataFileError, match="over the 50-byte limit"):
        read_text(path, limit=50)
    assert read_yaml(path) == {"a": "x" * 100}


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("a: [1\n", r"is not valid YAML \(line 2, column 1\)"),
        ("a: !!python/object/apply:os.system [ls]\n", "constructor for the tag"),
        ("a: 1\n\x07", "#x0007, a control character"),
        ("a: 1\n---\nb: 2\n", "single document"),
    ],
)
def test_other_yaml_errors_are_one_line_messages(text, match):
    with pytest.raises(DataFileError, match=match) as caught:
        load_yaml(text, "t.yaml")
    assert "\n" not in str(caught.value)


def test_a_document_too_large_without_aliases_is_refused_as_such(monkeypatch):
    monkeypatch.setattr(safe_load, "MAX_NODES", 1000)  # the real budget takes a minute to fill
    assert len(load_yaml("[" + ", ".join(["1"] * 998) + "]", "t.yaml")) == 998
    with pytest.raises(
        DataFileError, match=r"t.yaml, line 1, column \d+: .* more than 1,000 values"
    ):
        load_yaml("[" + ", ".join(["1"] * 1000) + "]", "t.yaml")
