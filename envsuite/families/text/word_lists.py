"""The shipped English word lists (``datasets/text/words/v1``), checked against their MANIFEST.

``answers-N.txt`` holds the common words of N letters the word games pick (N = 4 to 7),
``guesses-N.txt`` every word a guess may be (a superset). Where they come from and how
they were filtered is in ``datasets/text/words/README.md``. Each file is checked against
``MANIFEST`` the first time it is read in a process: a changed, truncated or missing file
raises :class:`WordListError` naming the file, never a failure deep inside a game.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Literal

import numpy as np

from envsuite.data_paths import datasets_root

#: The word lengths the lists hold.
WORD_LENGTHS: tuple[int, ...] = (4, 5, 6, 7)
#: The dataset's version folder.
WORDS_VERSION = "v1"
MANIFEST = "MANIFEST"

Kind = Literal["answers", "guesses"]


class WordListError(FileNotFoundError):
    """A word list that is missing, or that does not match its MANIFEST."""


def words_folder() -> Path:
    """``datasets/text/words/v1`` (under ``$ENVSUITE_DATASETS`` when set)."""
    return datasets_root() / "text" / "words" / WORDS_VERSION


def checked_length(word_length: object) -> int:
    """``word_length`` if the lists hold words of that length, else a ValueError."""
    if (
        isinstance(word_length, bool)
        or not isinstance(word_length, int | np.integer)
        or int(word_length) not in WORD_LENGTHS
    ):
        raise ValueError(
            f"word_length must be one of {', '.join(map(str, WORD_LENGTHS))}; got {word_length!r}"
        )
    return int(word_length)


def word_file(kind: Kind, word_length: int) -> Path:
    """The path of the ``kind`` list of ``word_length`` letters (not read, not checked)."""
    if kind not in ("answers", "guesses"):
        raise ValueError(f"kind must be 'answers' or 'guesses'; got {kind!r}")
    return words_folder() / f"{kind}-{checked_length(word_length)}.txt"


def load_words(kind: Kind, word_length: int) -> tuple[str, ...]:
    """The ``kind`` list of ``word_length`` letters, checked against the MANIFEST.

    Raises:
        WordListError: the file or the MANIFEST is missing, the file's sha256 differs from
            the MANIFEST's, or a line is not a word of ``word_length`` letters a-z.
    """
    return _load(str(word_file(kind, word_length)), word_length)


@cache
def _load(path_text: str, word_length: int) -> tuple[str, ...]:
    path = Path(path_text)
    expected = _manifest(str(path.parent)).get(path.name)
    if expected is None:
        raise WordListError(f"{path}: not listed in {path.parent / MANIFEST}")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise WordListError(f"{path}: cannot read the word list ({exc.strerror})") from exc
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected:
        raise WordListError(
            f"{path}: sha256 is {actual} but {MANIFEST} lists {expected}; the word list "
            "was changed or damaged (restore it from the envsuite checkout)"
        )
    words = tuple(data.decode("ascii").split())
    for word in words:
        if len(word) != word_length or not (word.isascii() and word.isalpha() and word.islower()):
            raise WordListError(f"{path}: {word!r} is not a word of {word_length} letters a-z")
    return words


@cache
def _manifest(folder_text: str) -> dict[str, str]:
    path = Path(folder_text) / MANIFEST
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise WordListError(f"{path}: cannot read the word lists' MANIFEST") from exc
    entries: dict[str, str] = {}
    for line in lines:
        digest, _, name = line.partition("  ")
        if len(digest) != 64 or not name:
            raise WordListError(f"{path}: malformed line {line!r} (want '<sha256>  <file>')")
        entries[name] = digest
    return entries


def letter_array(words: Sequence[str]) -> np.ndarray:
    """``words`` (all of one length, a-z) as an int8 array of letter numbers (0 = a)."""
    if not words:
        return np.zeros((0, 0), dtype=np.int8)
    raw = np.frombuffer("".join(words).encode("ascii"), dtype=np.uint8)
    return (raw.reshape(len(words), -1) - ord("a")).astype(np.int8)


def clear_cache() -> None:
    """Forget the lists read so far (tests that damage a copy of the data use this)."""
    _load.cache_clear()
    _manifest.cache_clear()
