"""No GUI simulator env touches the network: with sockets blocked, every task type is
made, played at random and solved by its oracle.

(The Chromium specs talk to their browser over a pipe; that the page fetches nothing is
checked in ``tests/families/gui/browser``.)
"""

from __future__ import annotations

import socket

import pytest

import envsuite
from envsuite.families.gui.specs import GUI_SPECS
from envsuite.families.gui.tasks_index import app_tasks, form_tasks


class NetworkBlocked(RuntimeError):
    pass


@pytest.fixture
def no_network(monkeypatch):
    def refuse(*args, **kwargs):
        raise NetworkBlocked("a GUI env tried to use the network")

    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)


CASES = [("envsuite/GuiForm-v0", name) for name in sorted(form_tasks())] + [
    ("envsuite/GuiApp-v0", name) for name in sorted(app_tasks())
]


def test_every_simulator_spec_is_covered():
    assert {spec.id for spec in GUI_SPECS} == {env_id for env_id, _ in CASES}


@pytest.mark.parametrize(("env_id", "task"), CASES, ids=lambda value: str(value))
def test_made_and_played_with_sockets_blocked(no_network, env_id, task):
    env = envsuite.make(env_id, task=task)
    env.action_space.seed(0)
    env.reset(seed=0)
    for _ in range(20):
        *_, terminated, truncated, _ = env.step(env.action_space.sample())
        if terminated or truncated:
            break
    oracle = envsuite.spec(env_id).load_oracle()(env)
    observation, info = env.reset(seed=1)
    oracle.reset()
    done = False
    while not done:
        observation, _, terminated, truncated, info = env.step(oracle.act(observation, info))
        done = terminated or truncated
    assert info["success"] is True
