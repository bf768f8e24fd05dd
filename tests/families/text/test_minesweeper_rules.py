"""Minesweeper: rules, a sound solver (checked by brute force), no-guess boards, the oracle."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import envsuite
from envsuite.families.text.minesweeper import MinesweeperEnv
from envsuite.families.text.minesweeper_generator import draw_board, draw_candidate
from envsuite.families.text.minesweeper_oracle import minesweeper_oracle
from envsuite.families.text.minesweeper_rules import MinesweeperBoard, MinesweeperGame, neighbours
from envsuite.families.text.minesweeper_solver import LogicSolver, bits, solves_without_guessing
from envsuite.families.text.splits import split_of


def board_from(picture: str, start: tuple[int, int]) -> MinesweeperBoard:
    lines = picture.split()
    cols = len(lines[0])
    mines = tuple(
        r * cols + c for r, line in enumerate(lines) for c, ch in enumerate(line) if ch == "*"
    )
    return MinesweeperBoard(len(lines), cols, mines, start[0] * cols + start[1])


def test_numbers_flood_fill_and_flags():
    board = board_from("*.... ..... ..... ....*", (2, 2))
    assert board.numbers[1] == 1 and board.numbers[6] == 1 and board.numbers[12] == 0
    game = MinesweeperGame(board)
    game.set_flag(4, True)
    opened = game.reveal(12)
    assert 0 not in opened and 19 not in opened and 4 not in opened  # mines and flags stay hidden
    assert game.revealed_count == len(opened) == 20 - 2 - 1
    assert not game.won
    game.set_flag(4, False)
    assert game.reveal(4) == [4] and game.won and game.over
    with pytest.raises(ValueError, match="the game is over"):
        game.reveal(0)


def test_a_mine_loses():
    game = MinesweeperGame(board_from("*... .... ....", (2, 3)))
    assert game.reveal(0) == [] and game.lost and game.exploded == 0 and not game.won


def test_three_bv_counts_openings_and_lone_numbers():
    # one opening (the right part) and the cells around the mine that no opening touches
    board = board_from("..*.. ..... .....", (2, 4))
    assert board.three_bv == 1
    board = board_from(".*. *.* .*.", (0, 0))
    # no zero cell: every safe cell takes its own click
    assert board.three_bv == 5


def consistent_layouts(board, revealed, total):
    """Every mine layout agreeing with the revealed numbers and the mine total."""
    cells = board.cells
    around = neighbours(board.rows, board.cols)
    shown = [c for c in range(cells) if revealed[c]]
    free = [c for c in range(cells) if not revealed[c]]
    for mines in itertools.combinations(free, total):
        mine_set = set(mines)
        if all(sum(n in mine_set for n in around[c]) == board.numbers[c] for c in shown):
            yield mine_set


def test_the_solver_is_sound_against_brute_force():
    rng = np.random.default_rng(0)
    checked = 0
    for _ in range(40):
        board = draw_candidate(rng, 4, 5, 4)
        game = MinesweeperGame(board)
        solver = LogicSolver(4, 5, 4)
        for cell in game.reveal(board.start):
            solver.observe(cell, board.numbers[cell])
        while not game.over:
            safe, mines = solver.deduce()
            layouts = list(consistent_layouts(board, game.revealed, 4))
            known = set(bits(solver.mines))
            layouts = [layout for layout in layouts if known <= layout]
            for cell in bits(safe):
                assert all(cell not in layout for layout in layouts)
            for cell in bits(mines):
                assert all(cell in layout for layout in layouts)
            checked += 1
            if not safe and not mines:
                break
            solver.mark_mines(mines)
            for cell in bits(safe):
                if not game.revealed[cell]:
                    for opened in game.reveal(cell):
                        solver.observe(opened, board.numbers[opened])
            assert not game.lost
    assert checked > 40


def test_the_solver_never_proves_a_wrong_fact_on_big_boards():
    rng = np.random.default_rng(1)
    for rows, cols, mines in ((9, 9, 10), (16, 16, 40), (16, 30, 99)):
        for _ in range(15):
            board = draw_candidate(rng, rows, cols, mines)
            game = MinesweeperGame(board)
            solver = LogicSolver(rows, cols, mines)
            for cell in game.reveal(board.start):
                solver.observe(cell, board.numbers[cell])
            while not game.won:
                safe, found = solver.deduce()
                assert not set(bits(safe)) & board.mine_set
                assert set(bits(found)) <= board.mine_set
                if not safe and not found:
                    break
                solver.mark_mines(found)
                for cell in bits(safe):
                    if not game.revealed[cell]:
                        for opened in game.reveal(cell):
                            solver.observe(opened, board.numbers[opened])


def stuck_view(board):
    """Play the certifier's rounds until it is stuck; the game and the solver there."""
    game = MinesweeperGame(board)
    solver = LogicSolver(board.rows, board.cols, len(board.mines))
    for cell in game.reveal(board.start):
        solver.observe(cell, board.numbers[cell])
    while not game.won:
        safe, mines = solver.deduce()
        if not safe and not mines:
            break
        solver.mark_mines(mines)
        for cell in bits(safe):
            if not game.revealed[cell]:
                for opened in game.reveal(cell):
                    solver.observe(opened, board.numbers[opened])
    return game, solver


def test_the_mine_total_settles_the_last_cells():
    board = board_from("..... ..... ..... ..... ...*.", (0, 0))
    assert solves_without_guessing(board) is True


def test_rejected_small_boards_really_need_a_guess():
    rng = np.random.default_rng(7)
    rejected = 0
    for _ in range(150):
        board = draw_candidate(rng, 4, 5, 4)
        if solves_without_guessing(board):
            continue
        rejected += 1
        game, solver = stuck_view(board)
        known = set(bits(solver.mines))
        layouts = [m for m in consistent_layouts(board, game.revealed, 4) if known <= m]
        hidden = [c for c in range(board.cells) if not game.revealed[c] and c not in known]
        # no hidden cell is safe in every layout the view allows: a guess is needed
        assert all(any(cell in layout for layout in layouts) for cell in hidden)
    assert rejected >= 5


def test_generated_boards_are_certified_deterministic_and_in_their_split():
    for split in ("train", "val", "test"):
        rng = np.random.default_rng(3)
        for _ in range(20):
            board = draw_board(rng, "minesweeper", split, 9, 9, 10, 100)
            assert split_of("minesweeper", board.key()) == split
            assert board.start not in board.mine_set and board.numbers[board.start] == 0
            assert solves_without_guessing(board) and board.three_bv > 1
    one = draw_board(np.random.default_rng(5), "minesweeper", "train", 9, 9, 10, 100)
    two = draw_board(np.random.default_rng(5), "minesweeper", "train", 9, 9, 10, 100)
    assert one == two


def test_generation_is_bounded_and_raises_naming_the_cause():
    with pytest.raises(
        RuntimeError,
        match="no 8x8 board with 50 mines could be solved without guessing in 2 attempts",
    ):
        draw_board(np.random.default_rng(0), "minesweeper", "train", 8, 8, 50, 2)
    with pytest.raises(RuntimeError, match="could be solved without guessing in 2 attempts"):
        MinesweeperEnv(rows=8, cols=8, mines=50, max_attempts=2).reset(seed=0)


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ("poke 1 1", "unknown action 'poke'"),
        ("hello", "cannot read 'hello'"),
        ("reveal 10 1", "row 10 is off the board; rows are 1 to 9"),
        ("flag 1 0", "column 0 is off the board; columns are 1 to 9"),
        ("unflag 1 1", "row 1, column 1 has no flag to remove"),
    ],
)
def test_each_rule_is_named(answer, message):
    env = MinesweeperEnv()
    env.reset(seed=0)
    _, reward, _, _, info = env.step(answer)
    assert info["parse_error"].startswith(message) and reward == -0.1


def test_revealed_and_flagged_cells_refuse_the_wrong_actions():
    env = MinesweeperEnv()
    env.reset(seed=0)
    start = env.board.start
    row, col = start // 9 + 1, start % 9 + 1
    hidden = next(c for c in range(81) if not env.game.revealed[c])
    hrow, hcol = hidden // 9 + 1, hidden % 9 + 1
    errors = [
        env.step(f"reveal {row} {col}")[4]["parse_error"],
        env.step(f"flag {row} {col}")[4]["parse_error"],
        env.step(f"f ({hrow}, {hcol})")[4]["parse_error"],
        env.step(f"flag {hrow} {hcol}")[4]["parse_error"],
        env.step(f"{hrow} {hcol}")[4]["parse_error"],
    ]
    where = f"row {hrow}, column {hcol}"
    assert errors == [
        f"row {row}, column {col} is already revealed",
        f"row {row}, column {col} is revealed; only hidden cells can be flagged",
        None,
        f"{where} is already flagged",
        f"{where} is flagged; unflag it before revealing it",
    ]


def test_losing_pays_minus_one_and_scores_the_revealed_fraction():
    env = MinesweeperEnv()
    env.reset(seed=2)
    mine = env.board.mines[0]
    revealed = env.game.revealed_count
    observation, reward, terminated, _, info = env.step(f"reveal {mine // 9 + 1} {mine % 9 + 1}")
    assert (reward, terminated, info["success"]) == (-1.0, True, False)
    assert info["score"] == revealed / 71 and "a mine! You lost." in observation
    assert observation.count("*") == 10


def test_the_vector_grid_and_mask_follow_the_game():
    env = MinesweeperEnv(observation_mode="vector")
    grid, info = env.reset(seed=4)
    text = MinesweeperEnv()
    text.reset(seed=4)
    rows = text.state_text().split("\n")[2:]
    for r, line in enumerate(rows):
        for c, mark in enumerate(line.split()[1:]):
            assert {"#": 9, "F": 10, ".": 0}.get(
                mark, None if not mark.isdigit() else int(mark)
            ) == grid[r, c]
    mask = info["action_mask"]
    hidden = grid.reshape(-1) == 9
    assert (mask[:81] == hidden).all() and (mask[81:] == hidden).all()
    cell = int(np.flatnonzero(hidden)[0])
    grid, _, _, _, info = env.step(81 + cell)  # flag
    assert grid.reshape(-1)[cell] == 10 and info["action_mask"][cell] == 0
    assert info["action_mask"][81 + cell] == 1
    grid, _, _, _, info = env.step(81 + cell)  # unflag
    assert grid.reshape(-1)[cell] == 9 and info["action_mask"][cell] == 1
    shown = int(np.flatnonzero(grid.reshape(-1) != 9)[0])
    assert env.step(shown)[4]["parse_error"].endswith("is already revealed")


@pytest.mark.parametrize(
    ("kwargs", "seeds"),
    [
        ({}, 300),
        ({"observation_mode": "vector"}, 100),
        ({"preset": "intermediate"}, 60),
        ({"rows": 10, "cols": 12, "density": 0.18, "split": "test"}, 60),
        ({"preset": "expert", "observation_mode": "vector"}, 8),
    ],
)
def test_the_oracle_clears_every_board(kwargs, seeds):
    env = envsuite.make("envsuite/Minesweeper-v0", **kwargs)
    oracle = minesweeper_oracle(env)
    turns = optimal = 0
    for seed in range(seeds):
        observation, info = env.reset(seed=seed)
        oracle.reset(seed=seed)
        done = False
        while not done:
            observation, _, done, truncated, info = env.step(oracle.act(observation, info))
            assert info["parse_error"] is None and not truncated
        assert info["success"] is True and info["score"] == 1.0
        assert 1 <= info["optimal_steps"] <= info["turn"]
        turns += info["turn"]
        optimal += info["optimal_steps"]
    print(f"Minesweeper {kwargs}: {seeds}/{seeds} cleared, efficiency {optimal / turns:.3f}")


def test_legal_actions_are_listed_on_small_boards_only():
    env = MinesweeperEnv()
    _, info = env.reset(seed=0)
    hidden = 81 - env.game.revealed_count
    assert len(info["legal_actions"]) == 2 * hidden and info["legal_actions"][0].startswith(
        "reveal "
    )
    _, info = MinesweeperEnv(preset="intermediate").reset(seed=0)
    assert "legal_actions" not in info


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"preset": "huge"}, "preset must be one of beginner, intermediate, expert"),
        ({"rows": 3}, "rows must be an int from 4 to 40"),
        ({"mines": 73}, "mines must be an int from 1 to 72"),
        ({"mines": 5, "density": 0.1}, "give mines or density, not both"),
        ({"density": 1.5}, "density must be a number in"),
        ({"max_attempts": 0}, "max_attempts must be a positive int"),
    ],
)
def test_bad_settings_are_refused_by_name(kwargs, message):
    with pytest.raises(ValueError, match=message):
        MinesweeperEnv(**kwargs)
