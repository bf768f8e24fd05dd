"""ChessEndgame-v0 speed against the raw engine loop doing the same moves, in the same run.

Workload: ``EPISODES`` episodes of the default settings (KQK, KRK or KPK, the player
White), each a reset at its own seed and then the oracle's depth-to-mate-optimal moves
until mate (a fixed script per seed, recorded once; about 9 moves an episode, the length
of a well-played game, so resets are amortised over typical episodes). The envsuite rows
go through ``envsuite.make`` (text mode with the default ``last`` history and vector
mode). The raw rows start from the same positions and do the engine's and the notation's
work for the same moves: the legal moves (with their SAN and check marks in text mode,
their vector actions in vector mode), reading the answer, playing it, scoring every reply
of the defender from the tables and playing the one the env played, and writing the
diagram, FEN and move list (text) or the piece planes and mask (vector). The ratio is
what the env, the family base and the wrappers add.

Each envsuite row puts ``env_steps_per_s`` and ``ratio_to_raw`` (its mean time over the
raw row's, measured in the same run) in ``extra_info``. ``pytest
tests/benchmarks/test_text_chess_endgame_speed.py --benchmark-enable`` prints the tables.
The repo's pytest config passes ``--benchmark-disable``, so in CI each runs once as a
plain test of its result. Nothing here asserts a time.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import envsuite
from envsuite.families.text.chess_endgame import NUM_ACTIONS, action_of
from envsuite.families.text.chess_endgame_notation import Notation
from envsuite.families.text.chess_endgame_oracle import chess_endgame_oracle
from envsuite.families.text.chess_endgame_rules import EndgameBoard
from envsuite.families.text.chess_endgame_tables import DRAW, endgame_tables, san_marks

CHESS = "envsuite/ChessEndgame-v0"
EPISODES = 50
RAW_MEANS: dict[str, float] = {}


def record_scripts(mode: str) -> list[tuple[EndgameBoard, list[Any], list[int]]]:
    """Per seed: the start, the oracle's actions and the squares the defender went to."""
    env = envsuite.make(CHESS, observation_mode=mode)
    oracle = chess_endgame_oracle(env)
    raw = env.unwrapped
    result = []
    for seed in range(EPISODES):
        observation, info = env.reset(seed=seed)
        start = raw.board.copy()
        actions, replies = [], []
        while True:
            actions.append(oracle.act(observation, info))
            observation, _, terminated, truncated, info = env.step(actions[-1])
            replies.append(raw.board.weak_king)
            if terminated or truncated:
                break
        result.append((start, actions, replies))
    return result


SCRIPTS = {mode: record_scripts(mode) for mode in ("text", "vector")}
STEPS = sum(len(actions) for _, actions, _ in SCRIPTS["text"])


def env_run(env: Any, scripts: list[tuple[EndgameBoard, list[Any], list[int]]]) -> list[str]:
    ends = []
    for seed, (_, actions, _) in enumerate(scripts):
        env.reset(seed=seed)
        for action in actions:
            env.step(action)
        ends.append(repr(env.unwrapped.board))
    return ends


def raw_run(text: bool) -> list[str]:
    tables = endgame_tables()
    marks = san_marks()
    notation = Notation(True)
    bodies = notation.bodies
    ends = []
    for start, actions, replies in SCRIPTS["text" if text else "vector"]:
        board = start.copy()
        for action, square in zip(actions, replies, strict=True):
            moves = board.strong_moves()
            if text:
                after = board.strong_king * 4096 + board.weak_king * 64
                sans = []
                for move in moves:
                    if move.piece == "K":
                        index = move.target * 4096 + board.weak_king * 64 + board.piece_square
                        sans.append(bodies["K"][move.target] + marks[board.piece][index])
                    elif move.promotion:
                        body = bodies["P"][move.target] + "=" + move.promotion
                        mark = marks.get(move.promotion)
                        sans.append(body + (mark[after + move.target] if mark else ""))
                    else:
                        body = bodies[move.piece][move.target]
                        sans.append(body + marks[board.piece][after + move.target])
                by_text = dict(zip([san.rstrip("+#") for san in sans], moves, strict=True))
                move = by_text[action.rstrip("+#")]
            else:
                codes = [action_of(m) for m in moves]
                mask = np.zeros(NUM_ACTIONS, np.int8)
                mask[codes] = 1
                move = moves[codes.index(action)]
            board.push(move)
            if board.piece in tables:
                values = tables[board.piece].strong
                base = board.strong_king * 4096 + board.piece_square
                weak_moves = board.weak_moves()
                scores = [
                    1000
                    if r.target == board.piece_square
                    or (v := int(values[base + r.target * 64])) == DRAW
                    else v
                    for r in weak_moves
                ]
                if weak_moves:  # the defender's reply: the one the env chose among the best
                    chosen = [r.target for r in weak_moves].index(square)
                    assert scores[chosen] == max(scores)
                    board.push(weak_moves[chosen])
            if text:
                shown = notation.diagram(board) + notation.fen(board) + " ".join(sans)
                assert shown
            else:
                planes = np.zeros((7, 64), np.float32)
                planes[0, board.strong_king] = 1.0
                planes[6, board.weak_king] = 1.0
        ends.append(repr(board))
    return ends


def record(benchmark: Any, key: str, raw: bool) -> None:
    stats = getattr(benchmark, "stats", None)
    if stats is None:  # benchmarks disabled: nothing was timed
        return
    mean = stats.stats.mean
    benchmark.extra_info["env_steps_per_s"] = STEPS / mean
    if raw:
        RAW_MEANS[key] = mean
    elif key in RAW_MEANS:
        benchmark.extra_info["ratio_to_raw"] = mean / RAW_MEANS[key]


@pytest.fixture(scope="module")
def expected() -> list[str]:
    return raw_run(False)


@pytest.mark.parametrize("mode", ["text", "vector"])
def test_chess_endgame_raw(benchmark: Any, mode: str, expected: list[str]) -> None:
    benchmark.group = f"chess-endgame-{mode}"
    assert benchmark(raw_run, mode == "text") == expected
    record(benchmark, mode, raw=True)


@pytest.mark.parametrize("mode", ["text", "vector"])
def test_chess_endgame_envsuite(benchmark: Any, mode: str, expected: list[str]) -> None:
    benchmark.group = f"chess-endgame-{mode}"
    env = envsuite.make(CHESS, observation_mode=mode)
    assert benchmark(env_run, env, SCRIPTS[mode]) == expected
    record(benchmark, mode, raw=False)
