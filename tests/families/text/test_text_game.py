"""The text-game base: history modes, turns, penalties, shared info keys, vector mode."""

from __future__ import annotations

import numpy as np
import pytest

from envsuite.families.text.splits import split_of
from tests.families.text.guess_game import GuessGame


def play(env: GuessGame, guesses):
    return [env.step(guess) for guess in guesses]


def test_reset_shows_instructions_and_state_in_every_history():
    for history in ("last", "summary", "full"):
        observation, info = GuessGame(history=history).reset(seed=0)
        assert observation.startswith("Guess a number from 1 to 16.\n\nlast guess: -")
        legal = [str(n) for n in range(1, 17)]
        assert info == {"turn": 0, "invalid_actions": 0, "legal_actions": legal}


def test_history_modes_show_last_feedback_state_or_everything():
    envs = {h: GuessGame(history=h) for h in ("last", "summary", "full")}
    for env in envs.values():
        env.reset(seed=3)
    wrong = "1" if envs["last"].target != 1 else "2"
    outs = {h: env.step(f"I say \\boxed{{{wrong}}}")[0] for h, env in envs.items()}
    assert outs["last"] in (f"{wrong}: higher", f"{wrong}: lower")
    assert outs["summary"] == (
        f"Guess a number from 1 to 16.\n\nlast guess: {wrong}\n\n{outs['last']}"
    )
    assert outs["full"].endswith(f"> {wrong}\n{outs['last']}")
    assert outs["full"].startswith("Guess a number")
    bad = envs["full"].step("what?")[0]
    assert bad.endswith("> what\nInvalid action: not a number")


def test_a_bad_action_costs_the_penalty_and_a_turn_and_changes_nothing_else():
    env = GuessGame(invalid_penalty=0.25)
    env.reset(seed=1)
    before = env.state_text()
    observation, reward, terminated, truncated, info = env.step("seventeen")
    assert (reward, terminated, truncated) == (-0.25, False, False)
    assert info["parse_error"] == "not a number" and observation == "Invalid action: not a number"
    assert (info["turn"], info["invalid_actions"]) == (1, 1)
    assert env.state_text() == before
    assert env.step(12345)[4]["parse_error"].startswith("expected a text answer (str)")


def test_a_win_ends_with_success_score_and_efficiency():
    env = GuessGame()
    env.reset(seed=2)
    wrong = 1 if env.target != 1 else 2
    env.step(str(wrong))
    _, reward, terminated, truncated, info = env.step(str(env.target))
    assert (reward, terminated, truncated) == (1.0, True, False)
    assert info["success"] is True and info["score"] == 1.0
    assert info["optimal_steps"] == 1 and info["efficiency"] == 0.5


def test_turns_run_out_into_truncation_without_success():
    env = GuessGame(max_turns=3)
    env.reset(seed=2)
    wrong = "1" if env.target != 1 else "2"
    steps = play(env, [wrong, "x", wrong])
    assert [s[3] for s in steps] == [False, False, True]
    info = steps[-1][4]
    assert info["success"] is False and info["score"] == 0.0 and info["efficiency"] == 0.0


def test_vector_mode_uses_the_engines_state_and_a_mask():
    env = GuessGame(observation_mode="vector")
    observation, info = env.reset(seed=5)
    assert env.observation_space.contains(observation)
    assert info["action_mask"].dtype == np.int8 and "legal_actions" not in info
    observation, _, _, _, info = env.step(np.int64(env.target - 1))
    assert info["success"] is True and observation[0] == env.target
    env.reset(seed=5)
    assert env.step("3")[4]["parse_error"].startswith("expected number index (int)")


def test_splits_draw_only_their_own_instances():
    for split in ("train", "val", "test"):
        env = GuessGame(split=split)
        targets = set()
        for seed in range(40):
            env.reset(seed=seed)
            targets.add(env.target)
            assert split_of("guess-test", str(env.target)) == split
        assert targets


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"observation_mode": "pixels"}, "observation_mode must be one of"),
        ({"history": "some"}, "history must be one of"),
        ({"max_turns": 0}, "max_turns must be a positive int"),
        ({"split": "dev"}, "split must be one of train, val, test"),
        ({"invalid_penalty": -1}, "invalid_penalty must be a non-negative number"),
    ],
)
def test_bad_settings_are_refused_by_name(kwargs, message):
    with pytest.raises(ValueError, match=message):
        GuessGame(**kwargs)


def test_state_hash_follows_the_state():
    env = GuessGame()
    env.reset(seed=0)
    first = env.state_hash()
    env.step("x")
    assert env.state_hash() != first
    again = GuessGame()
    again.reset(seed=0)
    assert again.state_hash() == first
