"""No GUI simulator env touches the network: with sockets blocked, every task type is
made, played at random and solved by its oracle.

(The Chromium specs talk to their browser over a pipe; that the page fetches nothing is
checked in ``tests/families/gui/browser``.)
"""

from __future__ import annotations

import pytest

import envsuite
from envsuite.families.gui.specs import GUI_SPECS
from envsuite.families.gui.tasks_index import app_tasks, form_tasks

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


def test_the_fixture_really_blocks_sockets(no_network):
    import socket

    with pytest.raises(RuntimeError, match="network"):
        socket.create_connection(("127.0.0.1", 9))
    with pytest.raises(RuntimeError, match="network"):
        socket.getaddrinfo("localhost", 80)
