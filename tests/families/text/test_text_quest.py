"""TextQuest: a certified shortest planner, the parser, rewards, splits and the oracle's bar."""

from __future__ import annotations

import numpy as np
import pytest

import envsuite
from envsuite.families.text.splits import split_of
from envsuite.families.text.text_quest import TextQuestEnv
from envsuite.families.text.text_quest_generator import _draw_once, draw_world
from envsuite.families.text.text_quest_oracle import text_quest_oracle
from envsuite.families.text.text_quest_planner import exhaustive_plan_length, plan, winnable
from envsuite.families.text.text_quest_rules import CARRIED, LOCKED, OPEN, QuestGame

ID = "envsuite/TextQuest-v0"


def make(**kwargs):
    return envsuite.make(ID, **kwargs)


@pytest.mark.parametrize(
    "settings",
    [
        (2, 1, 1, 1),
        (3, 1, 1, 1),
        (2, 2, 0, 1),
        (3, 2, 0, 0),
        (1, 2, 1, 2),
        (2, 2, 1, 3),
        (4, 1, 1, 2),
    ],
)
def test_the_walkthrough_is_as_short_as_an_exhaustive_search_of_the_full_state(settings):
    rng = np.random.default_rng(11)
    for _ in range(12):
        world, walkthrough = draw_world(rng, "text_quest", "train", *settings)
        assert exhaustive_plan_length(world) == len(walkthrough)
        game = QuestGame(world)
        for command in walkthrough:  # every step is legal, and the last one wins
            assert command in game.legal_commands(examine=False)
            assert not game.won
            game.apply(command)
        assert game.won


@pytest.mark.parametrize("settings", [(3, 1, 1, 1), (2, 2, 0, 3)])
def test_replanning_from_a_deviated_state_is_shortest_too(settings):
    rng = np.random.default_rng(5)
    chooser = np.random.default_rng(6)
    for _ in range(10):
        world, _ = draw_world(rng, "text_quest", "train", *settings)
        game = QuestGame(world)
        for _ in range(6):
            moves = game.legal_commands(examine=False)
            game.apply(moves[int(chooser.integers(len(moves)))])
        if game.won:
            continue
        path = plan(world, game.state())
        assert path is not None and len(path) == exhaustive_plan_length(world, game.state())


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_the_oracle_wins_every_quest_in_optimal_steps(difficulty):
    env = make(difficulty=difficulty)
    oracle = text_quest_oracle(env)
    for seed in range(40):
        obs, info = env.reset(seed=seed)
        oracle.reset()
        done = False
        while not done:
            action = oracle.act(obs, info)
            assert action in info["admissible_commands"]
            obs, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        assert info["success"] and info["efficiency"] == 1.0
        assert info["turn"] == env.unwrapped.optimal_steps


def test_the_oracle_replans_after_the_agent_deviates():
    env = make()
    oracle = text_quest_oracle(env)
    chooser = np.random.default_rng(3)
    for seed in range(15):
        obs, info = env.reset(seed=seed)
        oracle.reset()
        for _ in range(5):  # random legal commands and a bad one first
            legal = info["admissible_commands"]
            obs, _, terminated, _, info = env.step(legal[int(chooser.integers(len(legal)))])
            if terminated:
                break
        env.step("dance")
        done = terminated
        while not done:
            obs, _, terminated, truncated, info = env.step(oracle.act(obs, info))
            done = terminated or truncated
        assert info["success"]


def test_every_admissible_command_parses_to_a_legal_command_of_the_engine():
    env = make(difficulty="hard")
    chooser = np.random.default_rng(0)
    for seed in range(10):
        _, info = env.reset(seed=seed)
        raw = env.unwrapped
        for _ in range(40):
            legal = raw.game.legal_commands()
            assert info["admissible_commands"] == [raw.command_text(c) for c in legal]
            assert info["legal_actions"] == info["admissible_commands"]
            for text, command in zip(info["admissible_commands"], legal, strict=True):
                assert raw.parse_move(text) == command
            _, _, terminated, _, info = env.step(
                info["admissible_commands"][int(chooser.integers(len(legal)))]
            )
            assert info["parse_error"] is None
            if terminated:
                break


def test_abbreviations_and_synonyms():
    env = make()
    env.reset(seed=0)
    raw = env.unwrapped
    assert raw.parse_move("l") == ("look",)
    assert raw.parse_move("i") == raw.parse_move("inventory") == ("inventory",)
    assert raw.parse_move("w") == raw.parse_move("go west") == raw.parse_move("West")
    assert raw.parse_move("x the coffer") == raw.parse_move("examine coffer")


def find_seed(predicate, **kwargs):
    env = make(**kwargs)
    for seed in range(300):
        env.reset(seed=seed)
        if predicate(env.unwrapped):
            return env
    raise AssertionError("no such world in 300 seeds")


def test_closed_and_locked_things_and_wrong_keys_are_illegal():
    env = find_seed(
        lambda raw: any(
            raw.world.door_states[d] == LOCKED for d in raw.world.room_doors[raw.world.start]
        ),
        num_locks=3,
        num_rooms=3,
    )
    raw = env.unwrapped
    world = raw.world
    door = next(d for d in world.room_doors[world.start] if world.door_states[d] == LOCKED)
    name = world.door_names[door]
    direction = next(d for d, _, dr in world.exits[world.start] if dr == door)
    for command, reason in (
        (f"go {direction}", "locked"),
        (f"open {name}", "locked"),
        (f"close {name}", "already closed"),
        (f"take {name}", "cannot be taken"),
    ):
        _, reward, _, _, info = env.step(command)
        assert reason in info["parse_error"] and reward == -0.1
    # A wrong key: carry another key (teleport it to the player for the test).
    wrong = next(
        k for k in range(world.num_objects) if world.object_keys[k] and k != world.door_keys[door]
    )
    raw.game.places[wrong] = CARRIED
    _, _, _, _, info = env.step(f"unlock {name} with {world.object_names[wrong]}")
    assert "does not fit" in info["parse_error"]


def test_ambiguous_and_unseen_names_are_refused():
    env = make(num_locks=3)
    env.reset(seed=0)
    raw = env.unwrapped
    raw.game.places[:] = [raw.game.room] * len(raw.game.places)  # everything here
    keys = sorted(n for k, n in enumerate(raw.world.object_names) if raw.world.object_keys[k])
    _, _, _, _, info = env.step("take key")
    assert (
        info["parse_error"]
        == (f"'key' could mean the {keys[0]}, the {keys[1]} and the {keys[2]}; say which")
        or "could mean" in info["parse_error"]
    )
    _, _, _, _, info = env.step("take unicorn")
    assert "you see no 'unicorn' here" in info["parse_error"]
    _, reward, _, _, info = env.step(f"take {keys[0]}")
    assert info["parse_error"] is None and reward == 0.0


def test_each_subgoal_pays_once():
    env = make(difficulty="easy")
    env.reset(seed=4)
    raw = env.unwrapped
    obj, _ = raw.world.goal[0]
    raw.game.places[obj] = raw.game.room  # put the goal object at the player's feet
    name = raw.world.object_names[obj]
    assert env.step(f"take {name}")[1] == pytest.approx(0.1)
    assert env.step(f"drop {name}")[1] == 0.0
    assert env.step(f"take {name}")[1] == 0.0


def test_admissible_commands_can_be_turned_off():
    env = make(admissible_commands=False)
    _, info = env.reset(seed=0)
    assert "admissible_commands" not in info and "legal_actions" not in info
    _, _, _, _, info = env.step("look")
    assert "admissible_commands" not in info


@pytest.mark.parametrize("split", ["train", "val", "test"])
def test_worlds_are_in_their_split_and_determined_by_the_seed(split):
    a, b = make(split=split), make(split=split)
    for seed in range(8):
        obs_a, _ = a.reset(seed=seed)
        obs_b, _ = b.reset(seed=seed)
        assert obs_a == obs_b
        assert split_of("text_quest", a.unwrapped.instance_key()) == split


def test_the_world_is_consistent():
    env = make(difficulty="hard")
    for seed in range(20):
        env.reset(seed=seed)
        world = env.unwrapped.world
        for room, exits in enumerate(world.exits):  # every passage goes both ways
            for _, dest, door in exits:
                assert any(d == room and dr == door for _, d, dr in world.exits[dest])
        for obj, rec in world.goal:
            assert world.object_places[obj] != len(world.rooms) + rec
        for rec, key in enumerate(world.receptacle_keys):
            assert (key >= 0) == (world.receptacle_states[rec] == LOCKED)
            if world.supporters[rec]:
                assert world.receptacle_states[rec] == OPEN


@pytest.mark.parametrize(
    "kwargs",
    [
        {"difficulty": "impossible"},
        {"num_rooms": 0},
        {"quest_length": 9},
        {"num_locks": -1},
        {"subgoal_reward": -1},
        {"admissible_commands": 1},
    ],
)
def test_bad_arguments_are_refused(kwargs):
    with pytest.raises(ValueError):
        TextQuestEnv(**kwargs)


def test_winnable_agrees_with_the_search():
    rng = np.random.default_rng(9)
    for _ in range(150):
        world = _draw_once(rng, 3, 2, 0, 2)
        assert winnable(world) == (plan(world) is not None)


def test_looking_changes_nothing_but_costs_a_turn():
    env = make()
    env.reset(seed=2)
    raw = env.unwrapped
    before = raw.game.state()
    for command in ("look", "inventory", "i", "l"):
        obs, reward, terminated, _, info = env.step(command)
        assert reward == 0.0 and not terminated and info["parse_error"] is None
    assert raw.game.state() == before and info["turn"] == 4
    assert obs == raw.describe_room()


def test_taking_from_a_receptacle_and_putting_on_a_supporter_read_naturally():
    env = find_seed(
        lambda raw: (
            any(raw.world.supporters)
            and any(
                raw.world.receptacle_rooms[r] == raw.world.start and raw.world.supporters[r]
                for r in range(len(raw.world.supporters))
            )
        ),
        difficulty="hard",
    )
    raw = env.unwrapped
    world = raw.world
    rec = next(
        r
        for r in range(len(world.supporters))
        if world.receptacle_rooms[r] == world.start and world.supporters[r]
    )
    shelf = world.receptacle_names[rec]
    obj = world.num_objects - 1  # a distractor, put on the supporter for the test
    raw.game.places[obj] = len(world.rooms) + rec
    name = world.object_names[obj]
    obs, *_ = env.step(f"take the {name} from the {shelf}")
    assert obs == f"You take the {name} from the {shelf}."
    obs, *_ = env.step(f"put {name} in {shelf}")  # either preposition is understood
    assert obs == f"You put the {name} on the {shelf}."
    assert f"put {name} on {shelf}" not in env.step("look")[4]["admissible_commands"]
