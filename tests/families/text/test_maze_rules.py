"""Maze: generator guarantees, moves and walls, BFS, views, splits and the oracle's bar."""

from __future__ import annotations

import numpy as np
import pytest

import envsuite
from envsuite.families.text.maze import HELD_OUT_SIZES, SYMBOLS, MazeEnv
from envsuite.families.text.maze_generator import braid, carve_perfect_maze, draw_layout
from envsuite.families.text.maze_oracle import maze_oracle
from envsuite.families.text.maze_rules import (
    DIRECTIONS,
    MazeGame,
    MazeLayout,
    distances_to,
    shortest_path,
)
from envsuite.families.text.splits import split_of


def open_cells(walls):
    return [(r, c) for r in range(1, walls.shape[0], 2) for c in range(1, walls.shape[1], 2)]


def dead_ends(walls):
    return [
        (r, c)
        for r, c in open_cells(walls)
        if sum(not walls[r + dr, c + dc] for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))) == 1
    ]


@pytest.mark.parametrize(("width", "height"), [(2, 2), (5, 3), (7, 7), (12, 9)])
def test_a_perfect_maze_is_a_spanning_tree_of_the_cells(width, height):
    rng = np.random.default_rng(7)
    for _ in range(20):
        walls = carve_perfect_maze(rng, width, height)
        assert walls.shape == (2 * height + 1, 2 * width + 1)
        assert walls[0].all() and walls[-1].all() and walls[:, 0].all() and walls[:, -1].all()
        # every cell reachable, and exactly cells - 1 passages: a tree (one path between cells)
        distance = distances_to(walls, (1, 1))
        assert all(distance[cell] >= 0 for cell in open_cells(walls))
        assert int((~walls).sum()) == 2 * width * height - 1


def test_braiding_makes_loops_and_full_braiding_leaves_no_dead_end():
    rng = np.random.default_rng(3)
    perfect = carve_perfect_maze(rng, 8, 8)
    assert dead_ends(perfect)
    braided = braid(rng, perfect, 1.0)
    assert dead_ends(braided) == []
    assert int((~braided).sum()) > 2 * 64 - 1  # extra passages: loops
    half = braid(np.random.default_rng(3), perfect, 0.5)
    assert 0 < len(dead_ends(half)) < len(dead_ends(perfect))
    assert braid(rng, perfect, 0.0) is perfect


def test_generation_is_a_function_of_the_generator_only():
    one = draw_layout(np.random.default_rng(11), "maze", "train", 7, 7)
    two = draw_layout(np.random.default_rng(11), "maze", "train", 7, 7)
    three = draw_layout(np.random.default_rng(12), "maze", "train", 7, 7)
    assert one.key() == two.key() and one.key() != three.key()


def test_instances_are_distinct_and_land_in_their_split():
    keys = {}
    for split in ("train", "val", "test"):
        env = MazeEnv(width=5, height=5, split=split)
        for seed in range(60):
            env.reset(seed=seed)
            assert split_of("maze", env.instance_key()) == split
            keys.setdefault(split, set()).add(env.instance_key())
    assert all(len(found) == 60 for found in keys.values())
    assert not (keys["train"] & keys["val"] or keys["train"] & keys["test"])


def test_the_tiniest_maze_has_instances_in_every_split():
    for split in ("train", "val", "test"):
        env = MazeEnv(width=2, height=2, split=split)
        for seed in range(10):
            env.reset(seed=seed)


def test_walls_stop_the_walker_and_moves_count():
    walls = np.ones((3, 5), dtype=bool)
    walls[1, 1:4] = False
    game = MazeGame(MazeLayout(walls, (1, 1), (1, 3)))
    assert game.legal_directions() == [DIRECTIONS.index("right")]
    assert game.blocked(DIRECTIONS.index("up")) and game.blocked(DIRECTIONS.index("left"))
    with pytest.raises(ValueError, match="a wall blocks the move up"):
        game.move(0)
    assert game.move(3) is False and game.move(3) is True and game.won and game.moves == 2


def test_bfs_gives_the_shortest_path_around_a_loop():
    walls = np.ones((5, 5), dtype=bool)
    walls[1:4, 1:4] = False
    walls[2, 2] = True  # a ring around a pillar
    layout = MazeLayout(walls, (1, 1), (3, 3))
    assert len(shortest_path(layout)) == 4
    assert distances_to(walls, (3, 3))[1, 1] == 4


def test_moves_have_synonyms_and_a_wall_is_an_illegal_move_naming_the_rule():
    env = MazeEnv(width=5, height=5)
    env.reset(seed=4)
    legal = env.legal_moves()
    blocked = next(d for d in DIRECTIONS if d not in legal)
    compass = {"up": "north", "down": "south", "left": "west", "right": "east"}
    before = env.state_text()
    _, reward, _, _, info = env.step(f"\\boxed{{{compass[blocked].upper()}}}")
    assert reward == -0.1 and info["parse_error"].startswith(f"a wall blocks {blocked} (")
    assert "you cannot walk into a wall" in info["parse_error"] and env.state_text() == before
    assert env.step("jump")[4]["parse_error"].startswith("unknown move 'jump'")
    assert env.step("up left")[4]["parse_error"].startswith("unknown move")
    go = legal[0]
    for answer in (f"go {go}", go[0], f"move: {compass[go][0].upper()}"):
        env.reset(seed=4)
        observation, _, _, _, info = env.step(answer)
        assert info["parse_error"] is None and observation.startswith(f"You moved {go}")


def test_text_and_vector_show_the_same_map_and_window():
    for radius in (None, 1, 3):
        text = MazeEnv(width=6, height=4, view_radius=radius)
        vector = MazeEnv(width=6, height=4, view_radius=radius, observation_mode="vector")
        text.reset(seed=9)
        grid, info = vector.reset(seed=9)
        for _ in range(12):
            lines = text.state_text().split("\n")[1:]
            assert lines == ["".join(SYMBOLS[v] for v in row) for row in grid.tolist()]
            assert vector.observation_space.contains(grid)
            move = int(np.flatnonzero(info["action_mask"])[0])
            text.step(DIRECTIONS[move])
            grid, _, done, _, info = vector.step(move)
            if done:
                break


def test_the_window_is_centred_on_the_walker_and_walls_off_the_outside():
    env = MazeEnv(width=4, height=4, view_radius=2, observation_mode="vector")
    env.reset(seed=1)
    env.game.position = (1, 1)
    window = env.vector_observation()
    assert window.shape == (5, 5) and window[2, 2] == 3
    assert (window[:2] == 1).all() and (window[:, :2] == 1).all()


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"observation_mode": "vector"},
        {"view_radius": 1, "braid": 0.5},
        {"observation_mode": "vector", "view_radius": 2, "braid": 1.0},
        {"width": HELD_OUT_SIZES[0], "height": HELD_OUT_SIZES[-1], "split": "test"},
    ],
)
def test_the_oracle_walks_a_shortest_path_on_every_seed(kwargs):
    env = envsuite.make("envsuite/Maze-v0", **kwargs)
    oracle = maze_oracle(env)
    for seed in range(40):
        observation, info = env.reset(seed=seed)
        oracle.reset(seed=seed)
        optimal = env.unwrapped.optimal_steps
        assert optimal == len(shortest_path(env.unwrapped.layout)) > 0
        done = False
        while not done:
            observation, _, done, truncated, info = env.step(oracle.act(observation, info))
            assert info["parse_error"] is None and not truncated
        assert info["success"] and info["turn"] == optimal and info["efficiency"] == 1.0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"width": 1}, "width must be an int from 2 to 64"),
        ({"height": 65}, "height must be an int from 2 to 64"),
        ({"view_radius": 0}, "view_radius must be a positive int or None"),
        ({"braid": 1.5}, "braid must be a number in"),
    ],
)
def test_bad_settings_are_refused_by_name(kwargs, message):
    with pytest.raises(ValueError, match=message):
        MazeEnv(**kwargs)


def test_turns_default_to_four_per_cell():
    assert MazeEnv(width=5, height=3).max_turns == 60
    assert MazeEnv(max_turns=9).max_turns == 9
