"""One-shot two-player matrix games: named payoff tables, user-game checks, name parsing."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from envsuite.action_parsing import parse_named_choice

AGENTS = ("player_0", "player_1")

#: The named games: title, action names (the same for both players), and the payoffs as
#: ``[row action][column action] -> (row player's payoff, column player's payoff)``.
GAMES: dict[str, tuple[str, tuple[str, ...], tuple[tuple[tuple[float, float], ...], ...]]] = {
    "prisoners_dilemma": (
        "the prisoner's dilemma",
        ("cooperate", "defect"),
        (((3, 3), (0, 5)), ((5, 0), (1, 1))),
    ),
    "matching_pennies": (
        "matching pennies",
        ("heads", "tails"),
        (((1, -1), (-1, 1)), ((-1, 1), (1, -1))),
    ),
    "rock_paper_scissors": (
        "rock-paper-scissors",
        ("rock", "paper", "scissors"),
        (((0, 0), (-1, 1), (1, -1)), ((1, -1), (0, 0), (-1, 1)), ((-1, 1), (1, -1), (0, 0))),
    ),
    "battle_of_the_sexes": (
        "the battle of the sexes",
        ("opera", "football"),
        (((2, 1), (0, 0)), ((0, 0), (1, 2))),
    ),
    "stag_hunt": (
        "the stag hunt",
        ("stag", "hare"),
        (((4, 4), (1, 3)), ((3, 1), (3, 3))),
    ),
}
CUSTOM = "custom"
_NAME = re.compile(r"[a-z][a-z0-9_-]*")


def _as_matrix(value: Any, what: str) -> np.ndarray:
    try:
        array = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{what} must be numbers in nested lists or an array ({exc})") from exc
    if not np.isfinite(array).all():
        raise ValueError(f"{what} must be finite numbers (no NaN or infinity)")
    return array


def validate_payoffs(payoffs: Any, column_payoffs: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """Check a user-given game and return the row and column players' payoff matrices.

    Args:
        payoffs: One m×n×2 bimatrix whose ``[i, j]`` entry is (row player's payoff, column
            player's payoff) for row action i and column action j; or, when
            ``column_payoffs`` is given, the row player's m×n matrix.
        column_payoffs: The column player's m×n matrix (rows are still the row player's
            actions), or None when ``payoffs`` is a bimatrix.

    Raises:
        ValueError: the payoffs are not numbers, not finite, mis-shaped, give a player
            fewer than 2 actions, or give a player the same payoff everywhere.

    """
    first = _as_matrix(payoffs, "payoffs")
    if column_payoffs is None:
        if first.ndim != 3 or first.shape[2] != 2:
            raise ValueError(
                "payoffs must be an m×n×2 bimatrix, or the row player's m×n matrix together "
                f"with column_payoffs; got an array of shape {first.shape}"
            )
        row, column = first[..., 0], first[..., 1]
    else:
        row, column = first, _as_matrix(column_payoffs, "column_payoffs")
        if row.ndim != 2 or row.shape != column.shape:
            raise ValueError(
                "payoffs and column_payoffs must be m×n matrices of the same shape; got "
                f"{row.shape} and {column.shape}"
            )
    if min(row.shape) < 2:
        raise ValueError(f"each player needs at least 2 actions; the game is {row.shape}")
    for player, matrix in zip(AGENTS, (row, column), strict=True):
        if matrix.max() == matrix.min():
            raise ValueError(f"{player}'s payoffs are all equal; the game needs a payoff range")
    return row.copy(), column.copy()


def validate_action_names(names: Any, counts: tuple[int, ...]) -> tuple[tuple[str, ...], ...]:
    """Check user-given action names (one sequence per player); default ``action_<i>``.

    Raises:
        ValueError: not a pair, wrong counts, duplicates, or names that are not one word.

    """
    if names is None:
        return tuple(tuple(f"action_{i}" for i in range(n)) for n in counts)
    if not (isinstance(names, Sequence) and len(names) == 2):
        raise ValueError("action_names must be a pair: (row player's names, column player's)")
    result = []
    for player, given, n in zip(AGENTS, names, counts, strict=True):
        own = tuple(str(name).lower() for name in given)
        if len(own) != n or len(set(own)) != n or not all(_NAME.fullmatch(x) for x in own):
            raise ValueError(
                f"action_names for {player} must be {n} distinct words of letters, digits, "
                f"'_' or '-' starting with a letter; got {list(given)!r}"
            )
        result.append(own)
    return tuple(result)


def parse_action_name(text: str, names: tuple[str, ...]) -> int:
    """Return the index of the one action named in ``text`` (case-insensitive, whole words).

    Raises:
        InvalidAction: no action, or more than one action, is named.
    """
    return parse_named_choice(text, names, "action")
