"""Parsing the two commonest action forms: an index into a finite set, or one of its names.

Envs with a finite action set accept an integer in vector mode and a name in text mode;
both parsers raise :class:`~envsuite.env_base.InvalidAction` with a message that says what
was expected, which the env base class turns into ``info["parse_error"]`` and a penalty.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from envsuite.env_base import InvalidAction


def parse_index(action: Any, count: int, what: str = "action") -> int:
    """Return ``action`` as an index in ``[0, count)``.

    Ints, numpy integers and 0-d integer arrays are accepted; bools are not (``True`` is an
    int in Python, but never a deliberate index).

    Raises:
        InvalidAction: not an integer, or out of range.
    """
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action.item()
    if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
        raise InvalidAction(f"expected {what} index (int), got {type(action).__name__}")
    if not 0 <= int(action) < count:
        raise InvalidAction(f"{what} index {int(action)} is outside [0, {count})")
    return int(action)


def parse_named_choice(text: Any, names: Sequence[str], what: str = "action") -> int:
    """Return the index of the one name in ``names`` that ``text`` mentions.

    Matching ignores case and needs whole words: the answer may hold other words
    ("I press Blue."), but a name glued to letters, digits, ``_`` or ``-`` does not count,
    so ``button-2`` is not found in ``button-21``.

    Raises:
        InvalidAction: ``text`` is not a string, or names none or several of ``names``.
    """
    if not isinstance(text, str):
        raise InvalidAction(f"expected {what} name (str), got {type(text).__name__}")
    lowered = text.lower()
    patterns, alone = _name_patterns(tuple(names))
    exact = alone.get(lowered)
    if exact is not None:  # the usual answer: just one name, which names no other
        return exact
    # A name's pattern runs only where its letters occur at all (a substring test costs
    # far less than a search); the patterns are compiled once per set of names.
    named = [
        i
        for i, (name, pattern) in enumerate(patterns)
        if name in lowered and pattern.search(lowered)
    ]
    if len(named) != 1:
        how_many = "no" if not named else "more than one"
        raise InvalidAction(
            f"the answer names {how_many} {what}; answer with one of: {', '.join(names)}"
        )
    return named[0]


@functools.lru_cache(maxsize=512)
def _name_patterns(
    names: tuple[str, ...],
) -> tuple[tuple[tuple[str, re.Pattern[str]], ...], dict[str, int]]:
    """The names' whole-word patterns (see above), and the names that name only themselves.

    Returns:
        ``((lowered name, pattern), ...)`` in order, and the lowered names whose own text
        mentions no other name, mapped to their index (an answer equal to one of them
        names exactly that one).
    """
    lowered = [name.lower() for name in names]
    patterns = tuple(
        (name, re.compile(rf"(?<![a-z0-9_-]){re.escape(name)}(?![a-z0-9_-])")) for name in lowered
    )
    indices: dict[str, list[int]] = {}
    for index, name in enumerate(lowered):
        indices.setdefault(name, []).append(index)
    alone: dict[str, int] = {}
    for index, name in enumerate(lowered):
        if "" in indices:  # an empty name's pattern matches at any boundary: ask the patterns
            found = {other for other, (_, pattern) in enumerate(patterns) if pattern.search(name)}
        else:
            found = _names_within(name, indices)
        if found == {index}:
            alone[name] = index
    return patterns, alone


#: The characters a whole-word name must not touch (the patterns' look-arounds).
_WORD_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_-")


def _names_within(text: str, indices: Mapping[str, list[int]]) -> set[int]:
    """The indices of the (non-empty) names whose whole-word pattern finds them in ``text``.

    The same answer as searching ``text`` with every name's pattern, found by looking up
    each piece of ``text`` that starts and ends where a whole word may: linear in the
    names, where a search per pair of names was quadratic (10,000 arms: 10**8 searches).
    """
    size = len(text)
    starts = [i for i in range(size) if i == 0 or text[i - 1] not in _WORD_CHARACTERS]
    ends = [j for j in range(1, size + 1) if j == size or text[j] not in _WORD_CHARACTERS]
    found: set[int] = set()
    for start in starts:
        for end in ends:
            if end > start:
                found.update(indices.get(text[start:end], ()))
    return found


def exact_answers(names: Sequence[str]) -> Mapping[str, int]:
    """The answers that are exactly one name (lowered), mapped to that name's index.

    ``parse_named_choice(text, names)`` returns ``exact_answers(names)[text.lower()]``
    whenever that key exists, so an env may look a usual answer up here first. The mapping
    is shared between callers: read it, never change it.
    """
    return _name_patterns(tuple(names))[1]


def parse_choice(action: Any, names: Sequence[str], *, text_mode: bool, what: str) -> int:
    """A name (text mode) or an index (vector mode) into ``names``."""
    if text_mode:
        return parse_named_choice(action, names, what)
    return parse_index(action, len(names), what)


#: The scalar types :func:`is_numeric_data` accepts (bools are ints to numpy too).
NUMBER_TYPES = (int, float, np.number, np.bool_)


def is_numeric_data(action: Any) -> bool:
    """Whether ``action`` is a number, a flat list or tuple of numbers, or a non-object array.

    Check this before handing an action to numpy: ``np.asarray`` runs the methods of any
    other object the agent sent, and a hostile one may raise anything (``BaseException``
    subclasses included), which would look like a bug in the parser rather than the
    malformed action it is. What passes may still have the wrong shape or dtype for the
    env; the env checks that next.
    """
    if isinstance(action, np.ndarray):
        return action.dtype != object
    if isinstance(action, list | tuple):
        return all(isinstance(value, NUMBER_TYPES) for value in action)
    return isinstance(action, NUMBER_TYPES)


#: Digits :func:`capped_int` reads; longer numbers are capped (never parsed in full).
MAX_INT_DIGITS = 9


def capped_int(text: str) -> int:
    """The integer a matched run of digits (optionally ``-``) names, capped in size.

    Values are capped at ``10**MAX_INT_DIGITS - 1``, so an answer holding a 5000-digit
    number cannot make a parser convert it (Python refuses over 4300 digits).
    The caller's pattern has already matched the digits; the capped value is then refused
    by the game's own range check, naming the rule.
    """
    digits = text.lstrip("-")
    value = int(digits) if len(digits) <= MAX_INT_DIGITS else 10**MAX_INT_DIGITS - 1
    return -value if text.startswith("-") else value
