"""The 6 x 7 alpha-beta bot: deterministic given its seed, and stronger with depth.

The score rates are measured here (seeded, so the same every run) and printed with
``pytest -s``: a win counts 1, a draw 1/2, seats alternate, and each game starts from four
random moves so the games differ.
"""

from __future__ import annotations

import numpy as np
import pytest

from envsuite.families.text.connect_four_bot import HeuristicBot, windows
from envsuite.families.text.connect_four_rules import ConnectFourBoard, Geometry

GEOMETRY = Geometry()


def score_rate(depth: int, opponent_depth: int | None, games: int) -> float:
    """``depth``'s score against ``opponent_depth`` (None: uniformly random moves)."""
    rng = np.random.default_rng(2026)
    total = 0.0
    for game in range(games):
        bot = HeuristicBot(GEOMETRY, depth)
        bot.reset(seed=game)
        other = None if opponent_depth is None else HeuristicBot(GEOMETRY, opponent_depth)
        if other is not None:
            other.reset(seed=10_000 + game)
        seat = game % 2
        board = ConnectFourBoard(GEOMETRY)
        while len(board.moves) < 4 or board.over:
            if board.over:
                board = ConnectFourBoard(GEOMETRY)
            legal = board.legal_moves()
            board.play(legal[int(rng.integers(len(legal)))])
        while not board.over:
            if board.to_move == seat:
                board.play(bot.choose(board))
            elif other is None:
                legal = board.legal_moves()
                board.play(legal[int(rng.integers(len(legal)))])
            else:
                board.play(other.choose(board))
        total += 0.5 if board.winner is None else float(board.winner == seat)
    return total / games


@pytest.mark.parametrize(
    ("depth", "opponent", "games", "bar"),
    [
        (1, None, 20, 0.9),
        (5, None, 12, 1.0),
        (2, 1, 20, 0.6),
        (3, 1, 16, 0.6),
        (5, 3, 16, 0.6),
        (5, 4, 12, 0.6),
    ],
)
def test_deeper_bots_score_more(depth, opponent, games, bar):
    rate = score_rate(depth, opponent, games)
    print(f"depth {depth} vs {'random' if opponent is None else f'depth {opponent}'}: {rate:.2f}")
    assert rate >= bar


def test_the_bot_is_deterministic_given_its_seed():
    def moves(seed: int) -> list[int]:
        board = ConnectFourBoard(GEOMETRY)
        bots = [HeuristicBot(GEOMETRY, 2), HeuristicBot(GEOMETRY, 2)]
        for index, bot in enumerate(bots):
            bot.reset(seed=seed + index)
        while not board.over:
            board.play(bots[board.to_move].choose(board))
        return board.moves

    assert moves(3) == moves(3)
    assert len({tuple(moves(seed)) for seed in range(6)}) > 1  # ties broken by the seed


def test_the_bot_takes_a_win_and_blocks_a_loss():
    bot = HeuristicBot(GEOMETRY, 1)
    board = ConnectFourBoard(GEOMETRY)
    for col in (0, 6, 1, 6, 2):
        board.play(col)
    assert bot.choose(board) == 3  # player 1 must block column 4
    board.play(5)
    assert bot.choose(board) == 3  # player 0 wins in column 4


def test_windows_cover_every_line():
    assert len(windows(GEOMETRY)) == 69  # the classic count for 6 x 7, connect 4
    assert len(windows(Geometry(4, 4))) == 10


def test_depth_is_checked():
    with pytest.raises(ValueError, match="depth"):
        HeuristicBot(GEOMETRY, 0)
