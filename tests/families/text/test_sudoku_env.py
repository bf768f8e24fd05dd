"""Sudoku-v0: move forms, rules named in errors, both modes, splits, the oracle's bar."""

from __future__ import annotations

import numpy as np
import pytest

import envsuite
from envsuite.families.text.splits import split_of
from envsuite.families.text.sudoku import SudokuEnv, split_key
from envsuite.families.text.sudoku_bank import bank_file, decode, encode, load_bank
from envsuite.families.text.sudoku_oracle import sudoku_oracle
from envsuite.families.text.sudoku_rules import geometry
from envsuite.families.text.sudoku_solver import count_solutions, grade

SUDOKU = "envsuite/Sudoku-v0"


def first_empty(env: SudokuEnv) -> int:
    return env.board.grid.index(0)


def name(cell: int, n: int = 9) -> str:
    return f"r{cell // n + 1}c{cell % n + 1}"


def test_every_move_form_names_the_same_placement():
    env = SudokuEnv()
    env.reset(seed=0)
    cell = first_empty(env)
    r, c, d = cell // 9 + 1, cell % 9 + 1, env.solution[cell]
    forms = [
        f"r{r}c{c}={d}",
        f"R{r}C{c}: {d}",
        f"r{r} c{c} {d}",
        f"row {r} col {c} = {d}",
        f"(r{r}, c{c}) -> {d}",
        f"({r}, {c}) = {d}",
        f"{r},{c},{d}",
        f"\\boxed{{r{r}c{c}={d}}}",
    ]
    for form in forms:
        assert env.parse_action(form) == (cell, d), form
    for erase in (f"r{r}c{c}=0", f"r{r}c{c} 0", f"erase r{r}c{c}", f"clear R{r}C{c}"):
        env.board.place(cell, d)
        assert env.parse_action(erase) == (cell, 0), erase
        env.board.place(cell, 0)


def test_illegal_placements_name_the_rule():
    env = SudokuEnv()
    env.reset(seed=0)
    puzzle = env.board.puzzle
    given = next(i for i, d in enumerate(puzzle) if d)
    empty = first_empty(env)
    row_mate = next(i for i in range(empty - empty % 9, empty - empty % 9 + 9) if puzzle[i])
    errors = {
        "r10c1=1": "row 10 is outside 1-9",
        "r1c0=1": "column 0 is outside 1-9",
        "r1c1=12": "digit 12 is outside 1-9 (0 erases)",
        f"{name(given)}=1": f"{name(given)} is a given ({puzzle[given]}); givens cannot change",
        f"{name(empty)}=0": f"{name(empty)} is already empty",
        "r1c1 five": "expected a placement like r3c4=5",
    }
    for action, message in errors.items():
        _, reward, _, _, info = env.step(action)
        assert info["parse_error"].startswith(message), (action, info["parse_error"])
        assert reward == -0.1
    digit = puzzle[row_mate]
    error = env.step(f"{name(empty)}={digit}")[4]["parse_error"]
    assert error.startswith(f"{digit} is already in the ") and name(row_mate) in error
    d = env.solution[empty]
    env.step(f"{name(empty)}={d}")
    assert env.step(f"{name(empty)}={d}")[4]["parse_error"] == f"{name(empty)} already holds {d}"


def test_a_wrong_but_rule_abiding_digit_is_allowed_unless_mistakes_are_revealed():
    for reveal in (False, True):
        env = SudokuEnv(reveal_mistakes=reveal)
        env.reset(seed=4)
        wrong = next(
            (cell, v) for cell, v in env.board.legal_placements() if v and v != env.solution[cell]
        )
        error = env.step(f"{name(wrong[0])}={wrong[1]}")[4]["parse_error"]
        if reveal:
            assert error == f"{name(wrong[0])}={wrong[1]} is not the solution's digit"
        else:
            assert error is None and env.board.grid[wrong[0]] == wrong[1]


def test_text_shows_givens_entries_and_feedback_holds_the_board():
    env = SudokuEnv()
    observation, info = env.reset(seed=2)
    assert "r1 " in observation and "c9" in observation and "empty cells:" in observation
    cell = first_empty(env)
    move = f"{name(cell)}={env.solution[cell]}"
    assert move in info["legal_actions"]
    observation, *_ = env.step(move)
    assert observation.startswith(f"{move} placed.\n") and f"*{env.solution[cell]}" in observation
    for key in info:
        assert "solution" not in key


def test_single_turn_grades_the_whole_grid_once():
    env = SudokuEnv(mode="single")
    env.reset(seed=1)
    solution = env.solution
    wrong = list(solution)
    blanks = [i for i, d in enumerate(env.board.puzzle) if not d]
    wrong[blanks[0]], wrong[blanks[1]] = 0, 0
    _, reward, terminated, truncated, info = env.step("```\n" + encode(tuple(wrong)) + "\n```")
    assert (reward, terminated, truncated, info["success"]) == (0.0, True, False, False)
    assert info["score"] == pytest.approx((len(blanks) - 2) / len(blanks))
    env = SudokuEnv(mode="single", max_turns=3)
    env.reset(seed=1)
    assert env.step("1 2 3")[4]["parse_error"] == "the answer has 3 cells; a 9x9 grid has 81"
    given = next(i for i, d in enumerate(env.board.puzzle) if d)
    changed = list(solution)
    changed[given] = solution[given] % 9 + 1
    assert env.step(encode(tuple(changed)))[4]["parse_error"].startswith(
        f"{name(given)} is a given"
    )
    rows = "\n".join(
        f"r{r + 1} | " + " ".join(map(str, solution[r * 9 : r * 9 + 9])) for r in range(9)
    )
    _, reward, terminated, _, info = env.step(f"Here it is:\n\\boxed{{{rows}}}")
    assert (reward, terminated, info["success"], info["score"]) == (1.0, True, True, 1.0)


def test_single_turn_malformed_answer_ends_the_default_episode():
    env = SudokuEnv(mode="single")
    env.reset(seed=0)
    _, _, terminated, truncated, info = env.step("no idea")
    assert (terminated, truncated, info["success"]) == (False, True, False)


def test_vector_mode_board_planes_and_mask_agree_with_the_text_moves():
    env = SudokuEnv(observation_mode="vector", size=6)
    observation, info = env.reset(seed=3)
    assert observation.shape == (2, 6, 6) and observation.dtype == np.int8
    assert (observation[1] == (observation[0] > 0)).all()
    legal = env.board.legal_placements()
    assert sorted(np.flatnonzero(info["action_mask"]).tolist()) == sorted(
        cell * 7 + v for cell, v in legal
    )
    cell = first_empty(env)
    observation, *_ = env.step(cell * 7 + env.solution[cell])
    assert observation[0].flat[cell] == env.solution[cell] and observation[1].flat[cell] == 0
    given = next(i for i, d in enumerate(env.board.puzzle) if d)
    error = env.step(given * 7 + 1)[4]["parse_error"]
    assert error.startswith(f"{name(given, 6)} is a given")


@pytest.mark.parametrize("source", ["bank", "generate"])
@pytest.mark.parametrize("split", ["train", "test"])
def test_splits_hold_their_puzzles_and_seeds_repeat(source, split):
    kwargs = {"size": 6, "source": source, "split": split}
    keys = []
    for seed in range(6):
        env = SudokuEnv(**kwargs)
        env.reset(seed=seed)
        again = SudokuEnv(**kwargs)
        again.reset(seed=seed)
        assert again.board.puzzle == env.board.puzzle and again.solution == env.solution
        keys.append(env.instance_key())
        if source == "generate":
            assert split_of("sudoku", split_key(env.board.puzzle, env.solution)) == split
    assert len(set(keys)) == 6


def test_bank_draws_come_from_entries_of_the_split():
    entries = load_bank(bank_file(9, "hard"))
    geo = geometry(9)
    for split in ("val", "test"):
        env = SudokuEnv(difficulty="hard", split=split)
        for seed in range(3):
            env.reset(seed=seed)
            puzzle, solution = (decode(text) for text in entries[env.bank_entry])
            assert split_of("sudoku", split_key(puzzle, solution)) == split
            assert count_solutions(geo, env.board.puzzle) == 1
            assert grade(geo, env.board.puzzle) == 3
            assert sum(1 for d in env.board.puzzle if d) == sum(1 for d in puzzle if d)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"size": 4, "difficulty": "hard"},
        {"size": 6, "difficulty": "medium"},
        {"difficulty": "easy"},
        {"difficulty": "medium", "observation_mode": "vector"},
        {"difficulty": "hard", "mode": "single"},
    ],
    ids=str,
)
def test_oracle_solves_every_puzzle_with_optimal_efficiency(kwargs):
    env = envsuite.make(SUDOKU, **kwargs)
    oracle = sudoku_oracle(env)
    for seed in range(20):
        observation, info = env.reset(seed=seed)
        oracle.reset(seed)
        while True:
            observation, _, terminated, truncated, info = env.step(oracle.act(observation, info))
            if terminated or truncated:
                break
        assert info["success"] and info["efficiency"] == 1.0, (seed, info)


def test_oracle_repairs_a_board_with_wrong_digits():
    env = SudokuEnv()
    env.reset(seed=6)
    oracle = sudoku_oracle(env)
    wrong = next((c, v) for c, v in env.board.legal_placements() if v and v != env.solution[c])
    env.step(f"{name(wrong[0])}={wrong[1]}")
    info: dict = {}
    for _ in range(200):
        *_, terminated, truncated, info = env.step(oracle.act(None, info))
        if terminated or truncated:
            break
    assert info["success"]


def test_constructor_refuses_bad_settings():
    with pytest.raises(ValueError, match="difficulty must be one of"):
        SudokuEnv(difficulty="fiendish")
    with pytest.raises(ValueError, match="text only"):
        SudokuEnv(mode="single", observation_mode="vector")
    with pytest.raises(ValueError, match="size must be one of"):
        SudokuEnv(size=8)
