"""No social env touches the network: with sockets blocked, every one is made and played."""

from __future__ import annotations

import pytest

import envsuite
from envsuite.families.social.specs import SOCIAL_SPECS
from envsuite.testing.rollout import ActionChooser


def test_the_family_has_envs():
    assert SOCIAL_SPECS, "the social family registers no env"


@pytest.mark.parametrize("spec", SOCIAL_SPECS, ids=lambda spec: spec.id)
def test_made_and_played_with_sockets_blocked(no_network, spec):
    env = envsuite.make(spec.id, **dict(spec.test_kwargs))
    chooser = ActionChooser(0)
    env.reset(seed=0)
    for agent in env.agent_iter(400):
        _, _, terminated, truncated, info = env.last()
        env.step(None if terminated or truncated else chooser.choose(env.action_space(agent), info))
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
    assert env.unwrapped.episode_success(final) is True, "the oracle's game was not decided"
