"""No text env touches the network: with sockets blocked, every one is made, reset and played."""

from __future__ import annotations

import pytest

import envsuite
from envsuite.families.text.specs import TEXT_SPECS
from envsuite.testing.rollout import ActionChooser


def test_the_family_has_envs():
    assert TEXT_SPECS, "the text family registers no env"


def play_two_player(env, spec) -> None:
    """The AEC form: random-legal play for two seeds, then the oracle in every seat."""
    chooser = ActionChooser(0)
    for seed in (0, 1):
        env.reset(seed=seed)
        for agent in env.agent_iter(60):
            _, _, terminated, truncated, info = env.last()
            done = terminated or truncated
            env.step(None if done else chooser.choose(env.action_space(agent), info))
    seats = spec.load_oracle()(env)
    env.reset(seed=2)
    for seat in seats.values():
        seat.reset(seed=2)
    final = {}
    for agent in env.agent_iter(10_000):
        observation, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            final[agent] = info
            env.step(None)
        else:
            env.step(seats[agent].act(observation, info))
    assert env.unwrapped.episode_success(final) is True, "the oracle failed with sockets blocked"
    env.close()


@pytest.mark.parametrize("spec", TEXT_SPECS, ids=lambda spec: spec.id)
def test_made_reset_and_played_with_sockets_blocked(no_network, spec):
    env = envsuite.make(spec.id, **dict(spec.test_kwargs))
    if spec.api == "aec":
        play_two_player(env, spec)
        return
    chooser = ActionChooser(0)
    for seed in (0, 1):
        _, info = env.reset(seed=seed)
        for _ in range(30):
            _, _, terminated, truncated, info = env.step(chooser.choose(env.action_space, info))
            if terminated or truncated:
                break
    oracle = spec.load_oracle()(env)
    observation, info = env.reset(seed=2)
    oracle.reset(seed=2)
    for _ in range(10_000):
        observation, _, terminated, truncated, info = env.step(oracle.act(observation, info))
        if terminated or truncated:
            break
    assert info.get("success") is True, "the oracle did not win with sockets blocked"
    env.close()
