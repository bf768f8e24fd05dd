"""ChessEndgame-v0: the oracle mates in the depth to mate, the defender resists longest."""

from __future__ import annotations

import chess
import numpy as np
import pytest

import envsuite
from envsuite.families.text.chess_endgame import NUM_ACTIONS, ChessEndgameEnv, action_of
from envsuite.families.text.chess_endgame_notation import Notation
from envsuite.families.text.chess_endgame_oracle import chess_endgame_oracle, fastest_mate
from envsuite.families.text.chess_endgame_rules import EndgameBoard
from envsuite.families.text.chess_endgame_tables import DRAW, endgame_tables, position_value
from envsuite.families.text.splits import split_counts, split_of

ENV_ID = "envsuite/ChessEndgame-v0"


def resistance(value: int) -> float:
    """How good a position (strong side to move) is for the defender."""
    return np.inf if value == DRAW else value


def check_reply(before: EndgameBoard, move, after: EndgameBoard) -> None:
    """The defender's reply to ``move`` in ``before`` was one that resists longest."""
    position = before.after(move)
    replies = position.weak_moves()
    best = max(resistance(position_value(position.after(r))) for r in replies)
    chosen = [r for r in replies if r.target == after.weak_king]
    assert len(chosen) == 1
    assert resistance(position_value(position.after(chosen[0]))) == best


def play_oracle_episode(env, seed: int) -> tuple[int, dict]:
    """Play the oracle; check each defender reply; return (moves, final info)."""
    raw = env.unwrapped
    oracle = chess_endgame_oracle(env)
    observation, info = env.reset(seed=seed)
    oracle.reset(seed=seed)
    for turn in range(1, 200):
        before = raw.board.copy()
        move = fastest_mate(before)
        assert position_value(before) == position_value(before.after(move)) + 1
        observation, _reward, terminated, truncated, info = env.step(oracle.act(observation, info))
        assert info["parse_error"] is None
        if terminated or truncated:
            return turn, info
        check_reply(before, move, raw.board)
    raise AssertionError("the oracle did not finish")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"endgame": "KQK"},
        {"endgame": "KRK", "colour": "black"},
        {"endgame": "KPK", "colour": "either"},
        {"endgame": "KPK", "observation_mode": "vector", "split": "test"},
        {"endgame": "any", "observation_mode": "vector", "colour": "either", "min_dtm": 12},
    ],
)
def test_the_oracle_mates_in_exactly_the_depth_to_mate(kwargs):
    env = envsuite.make(ENV_ID, **kwargs)
    lengths = []
    for seed in range(40):
        moves, info = play_oracle_episode(env, seed)
        assert info["success"] is True and info["score"] == 1.0
        assert moves == info["optimal_steps"] and info["efficiency"] == 1.0
        lengths.append(moves)
    assert max(lengths) > 5


def test_the_defender_takes_a_draw_when_offered_and_resists_longest_otherwise():
    env = envsuite.make(ENV_ID, endgame="any", colour="either")
    raw = env.unwrapped
    rng = np.random.default_rng(0)
    endings = set()
    for seed in range(60):
        env.reset(seed=seed)
        for _ in range(100):
            before = raw.board.copy()
            legal = before.strong_moves()
            if rng.random() < 0.7:  # mostly best play, so that games reach both ends
                move = fastest_mate(before)
            else:
                move = legal[int(rng.integers(len(legal)))]
            _, _, terminated, truncated, _info = env.step(raw.move_text(move))
            if terminated or truncated:
                endings.add(raw.result.split(":")[0])
                break
            check_reply(before, move, raw.board)
    assert {"Draw", "Checkmate"} <= endings


def test_legal_actions_are_python_chess_san_for_the_fen_shown():
    env = envsuite.make(ENV_ID, colour="either")
    for seed in range(30):
        observation, info = env.reset(seed=seed)
        for _ in range(6):
            fen = observation.split("FEN: ")[1].splitlines()[0]
            reference = chess.Board(fen)
            assert sorted(info["legal_actions"]) == sorted(
                reference.san(m) for m in reference.legal_moves
            )
            assert "Legal moves: " + " ".join(info["legal_actions"]) in observation
            observation, _, terminated, truncated, info = env.step(info["legal_actions"][-1])
            if terminated or truncated:
                break


def test_the_start_is_the_fen_the_split_is_a_hash_of_it_and_seeds_repeat():
    for split in ("train", "val", "test"):
        env = envsuite.make(ENV_ID, split=split, colour="either")
        keys = set()
        for seed in range(25):
            observation, _ = env.reset(seed=seed)
            key = env.unwrapped.instance_key()
            assert split_of("chess-endgame", key) == split
            assert f"FEN: {key}" in observation
            keys.add(key)
        assert len(keys) == 25
    first = envsuite.make(ENV_ID).reset(seed=7)[0]
    assert envsuite.make(ENV_ID).reset(seed=7)[0] == first


def fen_env(fen: str, **kwargs):
    env = envsuite.make(ENV_ID, **kwargs)
    observation, info = env.reset(seed=0, options={"fen": fen})
    return env, observation, info


def test_a_given_fen_starts_the_game_and_a_mate_ends_it():
    env, observation, info = fen_env("k7/8/1K6/8/8/8/8/7R w - - 0 1")
    assert "Rh8#" in info["legal_actions"]
    observation, reward, terminated, truncated, info = env.step("\\boxed{Rh8#}")
    assert (reward, terminated, truncated) == (1.0, True, False)
    assert info["success"] is True and info["optimal_steps"] == 1
    assert "Checkmate: you won in 1 move." in observation and info["legal_actions"] == []


@pytest.mark.parametrize(
    ("fen", "move", "result"),
    [
        ("k7/8/1K6/8/8/8/8/2Q5 w - - 0 1", "Qc7", "Draw: stalemate."),
        ("k7/8/8/2K5/8/8/8/1R6 w - - 0 1", "Rb7", "Draw: your piece was captured"),
        ("8/4P3/8/8/8/8/8/k3K3 w - - 0 1", "e8=N", "Draw: a king and a knight cannot mate."),
        ("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1", "Kf5", "Draw: this position can no longer be won"),
        ("8/PK6/3k4/8/8/8/8/8 w - - 0 1", "Ka8", "Draw: stalemate (you have no legal move)."),
    ],
)
def test_every_draw_ends_the_game_without_success(fen, move, result):
    env, _, _ = fen_env(fen)
    observation, reward, terminated, _, info = env.step(move)
    assert result in observation
    assert (reward, terminated, info["success"], info["score"]) == (0.0, True, False, 0.0)


def test_the_oracle_promotes_to_a_rook_where_a_queen_stalemates():
    env, _, info = fen_env("8/k1P5/2K5/8/8/8/8/8 w - - 0 1")
    assert env.unwrapped.optimal_steps == 2
    assert chess_endgame_oracle(env).act(None, info) == "c8=R"
    assert "Draw: stalemate." in env.step("c8=Q")[0]


def test_a_black_player_plays_down_the_board_with_a_black_fen():
    _env, observation, info = fen_env("8/8/8/8/8/8/4p3/k6K b - - 0 1", colour="black")
    assert "Black (you) to move." in observation and "e1=Q" in " ".join(info["legal_actions"])
    assert "You play Black" in observation


def test_a_bad_move_costs_the_penalty_and_a_turn_and_changes_nothing():
    env, observation, _ = fen_env("8/8/8/8/8/4k3/8/R3K3 w - - 0 1", invalid_penalty=0.5)
    board = env.unwrapped.board.copy()
    observation, reward, terminated, truncated, info = env.step("Rb2")
    assert (reward, terminated, truncated) == (-0.5, False, False)
    assert info["parse_error"] == "the rook moves along ranks and files"
    assert observation == "Invalid action: the rook moves along ranks and files"
    assert env.unwrapped.board == board and info["invalid_actions"] == 1


def test_vector_mode_planes_mask_and_actions():
    env = envsuite.make(ENV_ID, observation_mode="vector", colour="black", endgame="KPK")
    observation, info = env.reset(seed=4)
    raw = env.unwrapped
    assert observation.shape == (7, 8, 8) and observation.sum() == 3
    board = raw.board
    # The player's frame: Black's pawn moves up the planes as White's would.
    assert observation[5].reshape(64)[board.piece_square] == 1
    assert observation[0].reshape(64)[board.strong_king] == 1
    mask = info["action_mask"]
    assert mask.shape == (NUM_ACTIONS,) and mask.sum() == len(board.strong_moves())
    assert {action_of(m) for m in board.strong_moves()} == set(np.flatnonzero(mask))
    illegal = int(np.flatnonzero(mask == 0)[0])
    _, reward, _, _, info = env.step(illegal)
    assert reward == -0.1 and info["parse_error"]
    _, _, _, _, info = env.step(NUM_ACTIONS)
    assert info["parse_error"].startswith("move index 67 is outside")


def test_a_vector_action_off_the_board_or_for_the_wrong_piece_is_named():
    env, _, _ = fen_env("8/8/8/8/8/4k3/8/R3K3 w - - 0 1", observation_mode="vector")
    assert env.step(4)[4]["parse_error"] == "that move leaves the board from e1"
    assert env.step(8 + 7 * 1)[4]["parse_error"] == "the rook moves along ranks and files"
    assert env.step(64)[4]["parse_error"] == "only a pawn promotes"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"endgame": "KBK"}, "endgame must be one of"),
        ({"colour": "red"}, "colour must be one of"),
        ({"min_dtm": 0}, "min_dtm must be a positive int"),
        ({"max_dtm": 2.5}, "max_dtm must be a positive int"),
        ({"min_dtm": 5, "max_dtm": 4}, "is below min_dtm"),
        ({"endgame": "KQK", "min_dtm": 11}, "no KQK position has a depth to mate"),
    ],
)
def test_bad_settings_are_refused_by_name(kwargs, message):
    with pytest.raises(ValueError, match=message):
        ChessEndgameEnv(**kwargs)


def test_max_dtm_bounds_the_depth_to_mate():
    env = envsuite.make(ENV_ID, max_dtm=2)
    for seed in range(20):
        _, _info = env.reset(seed=seed)
        assert env.unwrapped.optimal_steps in (1, 2)


def test_the_documented_split_sizes():
    notation = Notation(True)
    keys = [
        notation.fen(EndgameBoard.from_index(piece, int(index)))
        for piece, table in endgame_tables().items()
        for index in np.flatnonzero(table.strong >= 1)
    ]
    assert len(keys) == 444_636
    assert split_counts("chess-endgame", keys) == {"train": 355_749, "val": 44_666, "test": 44_221}
