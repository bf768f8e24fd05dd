"""ChessEndgame-v0 with the optional Stockfish defender.

Debian's stockfish is one of the packages ``scripts/install-system-packages`` installs, so
where every extra is required (the README's test command) a missing binary fails these
tests; elsewhere they are skipped.
"""

from __future__ import annotations

import os

import pytest

import envsuite
from envsuite.errors import EnvsuiteError
from envsuite.families.text.chess_endgame_oracle import chess_endgame_oracle
from envsuite.families.text.chess_endgame_stockfish import find_stockfish

ENV_ID = "envsuite/ChessEndgame-v0"
needs_stockfish = pytest.mark.skipif(
    find_stockfish() is None and os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1",
    reason="Stockfish is not installed",
)


def oracle_transcript(env, seed: int) -> list:
    oracle = chess_endgame_oracle(env)
    observation, info = env.reset(seed=seed)
    rows = [observation]
    for _ in range(100):
        observation, reward, terminated, truncated, info = env.step(oracle.act(observation, info))
        rows.append((observation, reward, terminated, truncated, info))
        if terminated or truncated:
            return rows
    raise AssertionError("the oracle did not finish")


def test_a_missing_stockfish_is_named_with_how_to_install_it():
    with pytest.raises(EnvsuiteError, match="apt-get install stockfish"):
        envsuite.make(ENV_ID, opponent="stockfish", engine_path="/nonexistent/stockfish")


@needs_stockfish
def test_the_oracle_mates_stockfish_within_the_depth_to_mate():
    env = envsuite.make(ENV_ID, opponent="stockfish", engine_nodes=2000, colour="either")
    try:
        for seed in range(8):
            rows = oracle_transcript(env, seed)
            info = rows[-1][-1]
            assert info["success"] is True
            assert len(rows) - 1 <= info["optimal_steps"]
    finally:
        env.close()


@needs_stockfish
def test_stockfish_replies_repeat_for_a_seed_whatever_came_before():
    first = envsuite.make(ENV_ID, opponent="stockfish", engine_nodes=2000, endgame="KRK")
    second = envsuite.make(ENV_ID, opponent="stockfish", engine_nodes=2000, endgame="KRK")
    try:
        oracle_transcript(second, 5)  # a different game first: the hash must not carry over
        assert oracle_transcript(first, 3) == oracle_transcript(second, 3)
    finally:
        first.close()
        second.close()
