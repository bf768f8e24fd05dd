import numpy as np
import pytest

from envsuite.families.text.splits import (
    SPLITS,
    checked_split,
    draw_in_split,
    split_counts,
    split_members,
    split_of,
)

WORDS = [f"w{i:05d}" for i in range(20000)]


def test_splits_partition_the_keys_about_80_10_10():
    counts = split_counts("demo", WORDS)
    assert sum(counts.values()) == len(WORDS)
    assert 0.78 < counts["train"] / len(WORDS) < 0.82
    assert 0.09 < counts["test"] / len(WORDS) < 0.11
    members = {split: set(split_members("demo", WORDS, split)) for split in SPLITS}
    assert not members["train"] & members["test"] and not members["val"] & members["test"]


def test_a_keys_split_depends_on_the_game_and_the_key_only():
    assert split_of("demo", "crane") == split_of("demo", "crane")
    assert [split_of("a", w) for w in WORDS[:200]] != [split_of("b", w) for w in WORDS[:200]]


def test_draws_land_in_the_split_or_fail_after_bounded_tries():
    rng = np.random.default_rng(0)
    word = draw_in_split("demo", "test", lambda: WORDS[rng.integers(len(WORDS))], str)
    assert split_of("demo", word) == "test"
    only = next(w for w in WORDS if split_of("demo", w) == "train")
    with pytest.raises(RuntimeError, match="too few distinct instances"):
        draw_in_split("demo", "test", lambda: only, str, max_tries=50)


def test_unknown_split_is_refused():
    with pytest.raises(ValueError, match="split must be one of"):
        checked_split("dev")
