from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import envsuite
from envsuite.agent_protocol import Agent
from envsuite.agents import RandomAgent, load_agent
from envsuite.agents.loading import AgentLoadError


def test_random_agent_prefers_legal_actions_and_is_seeded():
    env = envsuite.make("envsuite/Bandit-v0")
    agent = RandomAgent(env.action_space)
    agent.reset(seed=3)
    picks = [agent.act("", {"legal_actions": ["a", "b", "c"]}) for _ in range(30)]
    agent.reset(seed=3)
    assert picks == [agent.act("", {"legal_actions": ["a", "b", "c"]}) for _ in range(30)]
    assert set(picks) == {"a", "b", "c"}


def test_random_agent_samples_the_space_without_legal_actions():
    env = envsuite.make("envsuite/Bandit-v0", observation_mode="vector", num_arms=4)
    agent = RandomAgent(env.action_space)
    agent.reset(seed=0)
    assert {agent.act(None, {}) for _ in range(50)} == {0, 1, 2, 3}


def test_agent_strings():
    spec = envsuite.spec("envsuite/Bandit-v0")
    env = envsuite.make(spec.id)
    assert isinstance(load_agent("random", spec, env), RandomAgent)
    assert isinstance(load_agent("oracle", spec, env), Agent)
    custom = load_agent(
        "envsuite.agents.random_agent:RandomAgent", spec, env, {"action_space": env.action_space}
    )
    assert isinstance(custom, RandomAgent)


@pytest.mark.parametrize(
    ("agent", "message"),
    [
        ("nonsense", "unknown agent"),
        ("no.such.module:Agent", "cannot import"),
        ("envsuite:make", "cannot build agent"),
        ("envsuite.errors:EnvsuiteError", "lacks reset/act"),
    ],
)
def test_bad_agent_strings_are_clear_errors(agent, message):
    spec = envsuite.spec("envsuite/Bandit-v0")
    with pytest.raises(AgentLoadError, match=message):
        load_agent(agent, spec, envsuite.make(spec.id))


def _game():
    spec = envsuite.spec("envsuite/RepeatedGame-v0")
    return spec, envsuite.make(spec.id, parallel=True)


def test_a_lineup_seats_each_agent_in_any_written_order():
    spec, env = _game()
    agents = load_agent("player_1=oracle, player_0=random", spec, env)
    assert isinstance(agents["player_0"], RandomAgent)
    assert not isinstance(agents["player_1"], RandomAgent)
    assert isinstance(load_agent("player_1=oracle", spec, env)["player_0"], RandomAgent)


@pytest.mark.parametrize(
    ("agent", "message"),
    [
        ("player_9=oracle", "'player_9' does not name an agent of envsuite/RepeatedGame-v0"),
        ("player_0=", "is not NAME=AGENT"),
        ("player_0=oracle,player_0=random", "named twice"),
    ],
)
def test_bad_lineups_are_clear_errors(agent, message):
    spec, env = _game()
    with pytest.raises(AgentLoadError, match=message):
        load_agent(agent, spec, env)


def test_random_agent_samples_under_the_action_mask():
    agent = RandomAgent(gymnasium.spaces.Discrete(6))
    agent.reset(seed=3)
    mask = np.array([0, 1, 0, 0, 1, 0], dtype=np.int8)
    picks = {agent.act(None, {"action_mask": mask}) for _ in range(200)}
    assert picks == {1, 4}


@pytest.mark.parametrize(
    "mask",
    [np.zeros(6, dtype=np.int8), np.ones(5, dtype=np.int8), np.full(6, 2), "not a mask", None],
    ids=["off-turn zeros", "wrong length", "not 0/1", "text", "none"],
)
def test_random_agent_ignores_a_mask_it_cannot_use(mask):
    agent = RandomAgent(gymnasium.spaces.Discrete(6))
    agent.reset(seed=3)
    picks = {agent.act(None, {"action_mask": mask}) for _ in range(300)}
    assert picks == set(range(6))


def test_random_agent_plays_vector_nim_without_forfeiting():
    """With the mask, random play in vector mode makes legal moves only (no forfeits)."""
    env = envsuite.make("envsuite/Nim-v0", observation_mode="vector")
    agents = {name: RandomAgent(env.action_space(name)) for name in env.possible_agents}
    for seed in range(10):
        env.reset(seed=seed)
        for agent in agents.values():
            agent.reset(seed=seed)
        for name in env.agent_iter():
            _, _, terminated, truncated, info = env.last()
            assert info.get("parse_error") is None
            env.step(None if terminated or truncated else agents[name].act(None, info))
