"""The shipped word lists: what the README promises, and a damaged file is caught by name."""

from __future__ import annotations

import shutil

import pytest

from envsuite.data_paths import datasets_root
from envsuite.families.text import word_lists
from envsuite.families.text.word_lists import (
    WORD_LENGTHS,
    WordListError,
    checked_length,
    load_words,
    words_folder,
)
from envsuite.registry import registry

#: The counts the dataset README documents.
COUNTS = {4: (1512, 3168), 5: (2318, 6420), 6: (3999, 10742), 7: (5081, 15385)}


@pytest.mark.parametrize("length", WORD_LENGTHS)
def test_lists_hold_sorted_unique_lowercase_words_with_answers_among_guesses(length):
    answers, guesses = load_words("answers", length), load_words("guesses", length)
    assert (len(answers), len(guesses)) == COUNTS[length]
    for words in (answers, guesses):
        assert list(words) == sorted(set(words))
        assert all(len(w) == length and w.isascii() and w.isalpha() and w.islower() for w in words)
    assert set(answers) <= set(guesses)
    # Plurals of shorter words are left out of the answers (README, step 3a), not the guesses.
    if length == 5:
        assert "books" not in answers and "books" in guesses and "glass" in answers


def test_every_list_is_in_the_manifest_and_nothing_else_is():
    manifest = (words_folder() / "MANIFEST").read_text().splitlines()
    listed = {line.split("  ")[1] for line in manifest}
    shipped = {p.name for p in words_folder().iterdir() if p.name != "MANIFEST"}
    assert listed == shipped


@pytest.fixture
def data_copy(tmp_path, monkeypatch):
    """A copy of datasets/text/words the test may damage, made the one envsuite reads."""
    shutil.copytree(datasets_root() / "text", tmp_path / "text")
    monkeypatch.setenv("ENVSUITE_DATASETS", str(tmp_path))
    word_lists.clear_cache()
    yield tmp_path / "text" / "words" / "v1"
    word_lists.clear_cache()


def test_a_changed_file_is_refused_naming_the_file_and_both_digests(data_copy):
    path = data_copy / "answers-5.txt"
    path.write_text(path.read_text().replace("crane\n", "craze\n"))
    with pytest.raises(WordListError, match=r"answers-5\.txt: sha256 is [0-9a-f]{64} but MANIFEST"):
        load_words("answers", 5)
    assert load_words("answers", 4)  # the other files still load


def test_a_missing_file_or_manifest_is_refused_by_name(data_copy):
    (data_copy / "guesses-6.txt").unlink()
    with pytest.raises(WordListError, match=r"guesses-6\.txt: cannot read the word list"):
        load_words("guesses", 6)
    (data_copy / "MANIFEST").unlink()
    word_lists.clear_cache()
    with pytest.raises(WordListError, match="cannot read the word lists' MANIFEST"):
        load_words("answers", 4)


def test_word_length_is_checked_by_name():
    assert checked_length(6) == 6
    for bad in (3, 8, True, "5", 5.0):
        with pytest.raises(ValueError, match="word_length must be one of 4, 5, 6, 7"):
            checked_length(bad)


@pytest.mark.parametrize("env_id", ["envsuite/Wordle-v0", "envsuite/Hangman-v0"])
def test_the_spec_hash_covers_the_lists_the_env_reads(env_id):
    spec = registry[env_id]
    five = spec.dataset_checksums({"word_length": 5})
    seven = spec.dataset_checksums({"word_length": 7})
    assert "text/words/v1/answers-5.txt" in five and "text/words/v1/answers-7.txt" in seven
    assert spec.hash_for({"word_length": 5}) != spec.hash_for({"word_length": 7})
    if env_id.endswith("Wordle-v0"):
        assert set(five) == {"text/words/v1/answers-5.txt", "text/words/v1/guesses-5.txt"}
    else:
        assert len(spec.dataset_checksums({})) == 4  # every length when word_length is None


def test_the_spec_hash_changes_with_the_data(data_copy):
    spec = registry["envsuite/Wordle-v0"]
    before = spec.hash_for({})
    path = data_copy / "guesses-5.txt"
    path.write_text(path.read_text() + "zzzzz\n")
    assert spec.hash_for({}) != before
