"""Question games over a knowledge base: the engine, the shared grammar, the data loader.

TwentyQuestions-v0 and GuessMyCity-v0 are one game over two knowledge bases: a secret item
of a table; the player asks yes/no questions and finally names the item. This module holds
what they share:

- :func:`fold`: how question texts and names are compared (lower case, accents dropped,
  punctuation a space, apostrophes dropped, decimal points and digits kept);
- :class:`KnowledgeBase`: the items, and the grammar that turns a question's text into a
  :data:`Question` (a ``(kind, argument)`` pair) whose answer for every item is a row of
  booleans (:meth:`KnowledgeBase.truth`), computed once per question. The questions on the
  items' names (first letter, a letter anywhere, length) are here, the rest in each base;
- :class:`QuestionGame`: the rules engine (no text): the secret, what was asked and
  answered, the guesses; it refuses a question asked before;
- :func:`load_table`: a TSV file of ``datasets/text/<kb>/v1``, checked against its
  MANIFEST the first time it is read.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path

import numpy as np

from envsuite.data_paths import datasets_root

#: A grammar question: its kind and its argument (e.g. ``("category", "mammal")``).
Question = tuple[str, str]
#: The version folder of the knowledge bases.
KB_VERSION = "v1"
MANIFEST = "MANIFEST"

_APOSTROPHES = str.maketrans("", "", "'\u2019`\u2018")
_NOT_WORD = re.compile(r"[^a-z0-9.]+")
_LONE_DOT = re.compile(r"(?<![0-9])\.|\.(?![0-9])")
_THOUSANDS = re.compile(r"(?<=[0-9]),(?=[0-9]{3}\b)")

_NAME_START = re.compile(
    r"^does (?:its|the) name (?:start|begin) with (?:the letter |an? )?([a-z])$"
)
_NAME_LENGTH = re.compile(
    r"^does (?:its|the) name have (more than|fewer than|less than) ([0-9]+) letters$"
)
_NAME_HAS = re.compile(
    r"^does (?:its|the) name (?:contain|have|include) (?:the letter |an? )?([a-z])$"
)
_GUESS = re.compile(
    r"^(?:is it|it is|its|i guess|my guess is|guess|the answer is|is the answer)? ?"
    r"(?:an? |the )?(.+)$"
)


class KnowledgeBaseError(FileNotFoundError):
    """A knowledge-base file that is missing, or that does not match its MANIFEST."""


def fold(text: str) -> str:
    """``text`` as the grammar compares it: ``"Is it São Paulo?"`` -> ``"is it sao paulo"``."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    plain = _THOUSANDS.sub("", plain.lower().translate(_APOSTROPHES))
    return " ".join(_LONE_DOT.sub(" ", _NOT_WORD.sub(" ", plain)).split())


def name_letters(name: str) -> str:
    """The letters a-z of ``name`` (folded), as the name questions count them."""
    return "".join(c for c in fold(name) if "a" <= c <= "z")


class KnowledgeBase:
    """Items (by name) and the question grammar over them.

    A subclass sets :attr:`names` and implements :meth:`parse_question` (folded text ->
    question or None), :meth:`compute` (question -> booleans over the items), and
    :meth:`describe` / :meth:`oracle_questions`.
    """

    #: What the items are, for texts ("object", "city").
    noun = "item"
    nouns = "items"

    def __init__(self, names: Sequence[str]) -> None:
        self.names: tuple[str, ...] = tuple(names)
        self.index: dict[str, int] = {}
        for i, name in enumerate(self.names):
            key = fold(name)
            if key in self.index:
                raise KnowledgeBaseError(f"two items fold to the same name {key!r}")
            self.index[key] = i
        self._letters = [name_letters(name) for name in self.names]
        self._truth: dict[Question, np.ndarray] = {}

    # -- the subclass's part -------------------------------------------------------------
    def parse_question(self, folded: str) -> Question | None:
        """The question ``folded`` asks in the base's own grammar, or None."""
        return None

    def compute(self, question: Question) -> np.ndarray:
        """The answer to ``question`` for every item (booleans)."""
        kind, arg = question
        if kind == "starts":
            return np.array([w.startswith(arg) for w in self._letters])
        if kind == "contains":
            return np.array([arg in w for w in self._letters])
        if kind == "longer":
            return np.array([len(w) > int(arg) for w in self._letters])
        if kind == "shorter":
            return np.array([len(w) < int(arg) for w in self._letters])
        raise KeyError(f"unknown question {question!r}")

    def card(self, item: int) -> str:
        """The item's table row in words (what a free-form answerer is told)."""
        return self.names[item]

    def describe(self, question: Question) -> str:
        """The question's canonical text (the oracle asks it this way)."""
        kind, arg = question
        if kind == "starts":
            return f"Does its name start with the letter {arg.upper()}?"
        if kind == "contains":
            return f"Does its name contain the letter {arg.upper()}?"
        if kind == "longer":
            return f"Does its name have more than {arg} letters?"
        if kind == "shorter":
            return f"Does its name have fewer than {arg} letters?"
        raise KeyError(f"unknown question {question!r}")

    def oracle_questions(self) -> list[Question]:
        """The finite set of questions the oracle chooses from."""
        letters = "abcdefghijklmnopqrstuvwxyz"
        lengths = sorted({len(w) for w in self._letters})[:-1]
        return (
            [("starts", c) for c in letters]
            + [("contains", c) for c in letters]
            + [("longer", str(n)) for n in lengths]
        )

    # -- shared --------------------------------------------------------------------------
    @cached_property
    def question_list(self) -> tuple[Question, ...]:
        """:meth:`oracle_questions`, fixed once (the vector mode's question actions)."""
        return tuple(self.oracle_questions())

    @cached_property
    def question_number(self) -> dict[Question, int]:
        """Each question of :attr:`question_list` and its position."""
        return {q: i for i, q in enumerate(self.question_list)}

    @cached_property
    def question_table(self) -> np.ndarray:
        """The answers to :attr:`question_list` (questions x items, bool, read-only)."""
        table = np.stack([self.truth(q) for q in self.question_list])
        table.flags.writeable = False
        return table

    def truth(self, question: Question) -> np.ndarray:
        """The answer to ``question`` for every item (cached; read-only)."""
        row = self._truth.get(question)
        if row is None:
            row = np.asarray(self.compute(question), dtype=bool)
            row.flags.writeable = False
            self._truth[question] = row
        return row

    def answer(self, question: Question, item: int) -> bool:
        """The answer to ``question`` for item ``item``."""
        return bool(self.truth(question)[item])

    def parse(self, text: str) -> tuple[str, Question | int | None]:
        """Read a question: ``("question", q)``, ``("guess", item)`` or ``("unknown", None)``."""
        folded = fold(text)
        question = self.parse_name_question(folded) or self.parse_question(folded)
        if question is not None:
            return "question", question
        item = self.lookup_guess(folded)
        if item is not None:
            return "guess", item
        return "unknown", None

    def parse_name_question(self, folded: str) -> Question | None:
        """A question on the item's name, or None."""
        match = _NAME_START.match(folded)
        if match:
            return ("starts", match.group(1))
        match = _NAME_LENGTH.match(folded)
        if match:
            kind = "longer" if match.group(1) == "more than" else "shorter"
            return (kind, str(int(match.group(2))))
        match = _NAME_HAS.match(folded)
        if match:
            return ("contains", match.group(1))
        return None

    def lookup(self, folded: str) -> int | None:
        """The item named ``folded`` (also without a leading article), or None."""
        item = self.index.get(folded)
        if item is None:
            for article in ("the ", "a ", "an "):
                if folded.startswith(article):
                    item = self.index.get(folded[len(article) :])
                    if item is not None:
                        break
        return item

    def lookup_guess(self, folded: str) -> int | None:
        """The item a guess names (``"is it paris"``, ``"paris"``), or None."""
        item = self.index.get(folded)
        if item is not None:
            return item
        match = _GUESS.match(folded)
        if match is None:  # pragma: no cover - the pattern matches every text
            return None
        return self.lookup(match.group(1))


@dataclass
class QuestionGame:
    """The rules engine: a secret item, the questions answered, the guesses made.

    Attributes:
        kb: The knowledge base.
        secret: The secret item's index.
        answered: Every grammar question asked, with its answer (in order).
        free: Every free-form question asked (folded), with the answerer's reply.
        guesses: Every item guessed (in order).
    """

    kb: KnowledgeBase
    secret: int
    answered: dict[Question, bool] = field(default_factory=dict)
    free: dict[str, str] = field(default_factory=dict)
    guesses: list[int] = field(default_factory=list)
    found: bool = False

    def refusal(self, kind: str, payload: object) -> str | None:
        """Why a move may not be played now (a repeat), or None."""
        if kind == "question" and payload in self.answered:
            said = "yes" if self.answered[payload] else "no"
            return f"that question was asked already (the answer was {said}); ask another"
        if kind == "guess" and payload in self.guesses:
            return f"{self.kb.names[payload]} was guessed already; it is not the answer"
        if kind == "free" and payload in self.free:
            return "that question was asked already; ask another"
        return None

    def ask(self, question: Question) -> bool:
        """Answer a grammar question about the secret and remember it."""
        answer = self.kb.answer(question, self.secret)
        self.answered[question] = answer
        return answer

    def guess(self, item: int) -> bool:
        """Guess an item; True when it is the secret (the game is then won)."""
        self.guesses.append(item)
        self.found = item == self.secret
        return self.found

    def candidates(self) -> np.ndarray:
        """Indices of the items consistent with every answer and wrong guess so far."""
        ok = np.ones(len(self.kb.names), dtype=bool)
        for question, answer in self.answered.items():
            ok &= self.kb.truth(question) == answer
        for item in self.guesses:
            if item != self.secret:
                ok[item] = False
        return np.flatnonzero(ok)


def kb_folder(name: str) -> Path:
    """``datasets/text/<name>/v1`` (under ``$ENVSUITE_DATASETS`` when set)."""
    return datasets_root() / "text" / name / KB_VERSION


def load_table(name: str, file: str) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """The header and rows of the TSV ``file`` of knowledge base ``name``, checked.

    Raises:
        KnowledgeBaseError: the file or MANIFEST is missing, the sha256 differs, or a row
            has the wrong number of fields.
    """
    return _load(str(kb_folder(name) / file))


@cache
def _load(path_text: str) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    path = Path(path_text)
    manifest = path.parent / MANIFEST
    try:
        lines = manifest.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise KnowledgeBaseError(f"{manifest}: cannot read the MANIFEST") from exc
    expected: dict[str, str] = {}
    for line in lines:
        digest, _, name = line.partition("  ")
        expected[name] = digest
    if path.name not in expected:
        raise KnowledgeBaseError(f"{path}: not listed in {manifest}")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise KnowledgeBaseError(f"{path}: cannot read it ({exc.strerror})") from exc
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected[path.name]:
        raise KnowledgeBaseError(
            f"{path}: sha256 is {actual} but {MANIFEST} lists {expected[path.name]}; the "
            "file was changed or damaged (restore it from the envsuite checkout)"
        )
    text_lines = data.decode("utf-8").splitlines()
    header = tuple(text_lines[0].split("\t"))
    rows = tuple(tuple(line.split("\t")) for line in text_lines[1:] if line)
    for row in rows:
        if len(row) != len(header):
            raise KnowledgeBaseError(
                f"{path}: row {row!r} has {len(row)} fields, not {len(header)}"
            )
    return header, rows


def clear_cache() -> None:
    """Forget the tables read so far (tests that damage a copy of the data use this)."""
    _load.cache_clear()
