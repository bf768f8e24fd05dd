"""The kit's AEC episode loop: one transition per live agent's action, dead steps drained."""

from __future__ import annotations

import envsuite
from envsuite.families.decision.nim_oracle import nim_oracle
from envsuite.testing.rollout import episode_success, form_of, iter_step_values, run_episode

NIM = "envsuite/Nim-v0"


def test_the_form_comes_from_the_spec():
    assert form_of(envsuite.spec(NIM)) == "aec"
    assert form_of(envsuite.spec("envsuite/RepeatedGame-v0")) == "parallel"
    assert form_of(envsuite.spec("envsuite/RepeatedGame-v0"), parallel=False) == "aec"
    assert form_of(envsuite.spec("envsuite/Bandit-v0")) == "gymnasium"


def test_an_oracle_game_records_every_move_and_ends_with_outcomes():
    env = envsuite.make(NIM)
    oracle = nim_oracle(env)
    episode = run_episode("aec", env, 0, lambda agent, obs, info: oracle[agent].act(obs, info))
    assert env.agents == []  # every finished agent took its dead step
    # One transition per move: the objects left fall at every one, to none.
    left = [sum(t.info["player_0"]["heaps"]) for t in episode.transitions]
    assert left == sorted(set(left), reverse=True) and left[-1] == 0
    assert sum(episode.info["player_0"]["heaps"]) == 12 > left[0]
    last = episode.transitions[-1]
    assert last.info["player_0"]["outcome"] == "win"  # (3, 4, 5) is a first-player win
    assert last.info["player_1"]["outcome"] == "loss"
    returns = {"player_0": 0.0, "player_1": 0.0}
    for agent, _, reward, _ in iter_step_values(episode):
        returns[agent] += reward
    assert returns == {"player_0": 1.0, "player_1": -1.0}
    assert episode_success(envsuite.spec(NIM), env, episode) is True


def test_max_steps_bounds_the_actions_of_live_agents():
    env = envsuite.make(NIM)
    episode = run_episode("aec", env, 0, lambda agent, obs, info: "take 1 from heap 3", 3)
    assert len(episode.transitions) == 3
    assert env.agents == ["player_0", "player_1"]  # the game is still on
