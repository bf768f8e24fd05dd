"""No text env touches the network: with sockets blocked, every one is made, reset and played."""

from __future__ import annotations

import socket

import pytest

import envsuite
from envsuite.families.text.specs import TEXT_SPECS
from envsuite.testing.rollout import ActionChooser


class NetworkBlocked(RuntimeError):
    pass


@pytest.fixture
def no_network(monkeypatch):
    def refuse(*args, **kwargs):
        raise NetworkBlocked("a text env tried to use the network")

    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)


def test_the_family_has_envs():
    assert TEXT_SPECS, "the text family registers no env"


@pytest.mark.parametrize("spec", TEXT_SPECS, ids=lambda spec: spec.id)
def test_made_reset_and_played_with_sockets_blocked(no_network, spec):
    env = envsuite.make(spec.id, **dict(spec.test_kwargs))
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
