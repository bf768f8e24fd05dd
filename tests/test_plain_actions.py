"""No action, however hostile, raises from ``step``: each case on its own, in every env form.

The conformance kit (``check_malformed_actions``) steps every registered env with the same
corpus and stops at the first failure; here each hostile action is its own test case, over
both multi-agent game modes (Parallel and AEC) and a sample of single-agent envs.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import envsuite
from envsuite.action_errors import ParseActionBugWarning, describe_parse_failure
from envsuite.env_base import InvalidAction
from envsuite.parallel_env_base import MISSING_ACTION
from envsuite.plain_actions import (
    MAX_ACTION_DEPTH,
    MAX_ACTION_ITEMS,
    UNREADABLE_ACTION,
    plain_action,
    read_joint_action,
)
from envsuite.testing.hostile_actions import (
    HOSTILE_ACTIONS,
    HOSTILE_ALWAYS_WRONG,
    HOSTILE_JOINT_ACCEPTED,
    HOSTILE_JOINT_ACTIONS,
    RaisingContains,
    RaisingStr,
    UnprintableError,
)

PARALLEL_FORMS = [
    ("envsuite/RepeatedGame-v0", {"horizon": 5}),
    ("envsuite/RepeatedGame-v0", {"horizon": 5, "observation_mode": "vector"}),
]
SINGLE_AGENT = [
    ("envsuite/Bandit-v0", {"horizon": 5}),
    ("envsuite/Bandit-v0", {"horizon": 5, "observation_mode": "vector"}),
    ("envsuite/Experts-v0", {"horizon": 5, "observation_mode": "vector"}),
    ("envsuite/SAT-v0", {}),
]
_ENVS: dict[str, Any] = {}


def _env(env_id: str, kwargs: dict[str, Any], **options: Any) -> Any:
    key = repr((env_id, sorted(kwargs.items()), sorted(options.items())))
    if key not in _ENVS:
        _ENVS[key] = envsuite.make(env_id, **kwargs, **options)
    return _ENVS[key]


def _valid(infos: dict[str, Any]) -> dict[str, Any]:
    """A valid action per agent: its first legal action (text mode), else index 0."""
    return {agent: info.get("legal_actions", [0])[0] for agent, info in infos.items()}


def _label(case: tuple[str, dict[str, Any]]) -> str:
    env_id, kwargs = case
    return env_id.removeprefix("envsuite/") + "".join(f",{k}={v}" for k, v in kwargs.items())


@pytest.mark.parametrize("case", SINGLE_AGENT, ids=_label)
@pytest.mark.parametrize(("name", "make"), HOSTILE_ACTIONS, ids=[n for n, _ in HOSTILE_ACTIONS])
def test_a_hostile_action_is_a_parse_error_in_single_agent_envs(case, name, make):
    env = _env(*case)
    env.reset(seed=0)
    _, reward, _, _, info = env.step(make())
    assert math.isfinite(reward)
    if name in HOSTILE_ALWAYS_WRONG:
        assert info["parse_error"]


@pytest.mark.parametrize("case", PARALLEL_FORMS, ids=_label)
@pytest.mark.parametrize(("name", "make"), HOSTILE_ACTIONS, ids=[n for n, _ in HOSTILE_ACTIONS])
def test_a_hostile_action_of_one_agent_is_its_parse_error(case, name, make):
    env = _env(*case, parallel=True)
    _, infos = env.reset(seed=0)
    other = _valid(infos)["player_1"]
    _, rewards, _, _, infos = env.step({"player_0": make(), "player_1": other})
    assert set(rewards) == {"player_0", "player_1"}
    if name in HOSTILE_ALWAYS_WRONG:
        assert infos["player_0"]["parse_error"]
    assert infos["player_1"]["parse_error"] is None


@pytest.mark.parametrize("case", PARALLEL_FORMS, ids=_label)
@pytest.mark.parametrize(
    ("name", "build"), HOSTILE_JOINT_ACTIONS, ids=[n for n, _ in HOSTILE_JOINT_ACTIONS]
)
def test_a_hostile_joint_action_never_raises(case, name, build):
    env = _env(*case, parallel=True)
    _, infos = env.reset(seed=0)
    _, rewards, _, _, infos = env.step(build(_valid(infos)))
    assert set(rewards) == {"player_0", "player_1"}
    errors = [infos[agent]["parse_error"] for agent in ("player_0", "player_1")]
    if name in HOSTILE_JOINT_ACCEPTED:
        assert errors == [None, None]
    else:
        assert all(errors)


@pytest.mark.parametrize(
    ("name", "build"), HOSTILE_JOINT_ACTIONS, ids=[n for n, _ in HOSTILE_JOINT_ACTIONS]
)
def test_a_hostile_joint_action_after_the_end_never_raises(name, build):
    env = _env("envsuite/RepeatedGame-v0", {"horizon": 1}, parallel=True)
    env.reset(seed=0)
    env.step({agent: env.action_space(agent).sample() for agent in env.agents})
    assert env.agents == []
    valid = {agent: env.action_space(agent).sample() for agent in env.possible_agents}
    env.step(build(valid))


@pytest.mark.parametrize(("name", "make"), HOSTILE_ACTIONS, ids=[n for n, _ in HOSTILE_ACTIONS])
def test_a_hostile_action_in_the_aec_form_never_raises(name, make):
    env = _env("envsuite/RepeatedGame-v0", {"horizon": 5})
    env.reset(seed=0)
    env.step(make())
    env.step(env.action_space(env.agent_selection).sample())
    if name in HOSTILE_ALWAYS_WRONG:
        assert env.infos["player_0"]["parse_error"]


def test_the_issues_dict_subclass_costs_each_agent_its_penalty():
    env = envsuite.make("envsuite/RepeatedGame-v0", horizon=3, parallel=True)
    env.reset(seed=0)
    _, _, _, _, infos = env.step(RaisingContains(player_0="defect", player_1="defect"))
    for agent in ("player_0", "player_1"):
        assert infos[agent]["parse_error"].startswith("could not read this agent's action")
        assert "HostileError: hostile override" in infos[agent]["parse_error"]


def test_builtin_subclasses_become_exact_builtins():
    assert type(plain_action(RaisingStr("defect"))) is str
    copied = plain_action({"a": [RaisingStr("x"), (1, 2.5)], "b": np.float32(1)})
    assert copied == {"a": ["x", (1, 2.5)], "b": np.float32(1)}
    assert type(copied["a"][0]) is str
    env = envsuite.make("envsuite/RepeatedGame-v0", horizon=3, parallel=True)
    env.reset(seed=0)
    _, _, _, _, infos = env.step({"player_0": RaisingStr("defect"), "player_1": "defect"})
    assert infos["player_0"]["parse_error"] is None and infos["player_0"]["action"] == 1


def test_plain_actions_are_returned_as_they_are():
    array = np.arange(3)
    assert plain_action(array) is array
    text = "cooperate"
    assert plain_action(text) is text


def test_item_cap():
    assert len(plain_action([0] * MAX_ACTION_ITEMS)) == MAX_ACTION_ITEMS
    with pytest.raises(InvalidAction, match=f"more than {MAX_ACTION_ITEMS:,} items"):
        plain_action([[0]] * (MAX_ACTION_ITEMS // 2 + 1))


def test_depth_cap_and_self_holding_lists():
    nested: list[Any] = []
    for _ in range(MAX_ACTION_DEPTH):
        nested = [nested]
    plain_action(nested)
    with pytest.raises(InvalidAction, match=f"nested more than {MAX_ACTION_DEPTH} levels"):
        plain_action([nested])
    looped: list[Any] = []
    looped.append(looped)
    with pytest.raises(InvalidAction, match="nested more than"):
        plain_action(looped)


def test_an_object_lying_about_its_class_is_malformed():
    liar = type("Liar", (), {"__class__": property(lambda _: str)})()
    assert isinstance(liar, str)
    with pytest.raises(InvalidAction, match="Liar whose __class__ claims to be str"):
        plain_action(liar)


def test_interrupts_still_propagate():
    interrupting = type("Ctrl", (), {"__class__": property(_interrupt)})()
    with pytest.raises(KeyboardInterrupt):
        plain_action(interrupting)
    found, errors = read_joint_action({"a": 1}, ["a"], MISSING_ACTION)
    assert found == {"a": 1} and errors == {}


def _interrupt(_: object) -> type:
    raise KeyboardInterrupt


def test_unreadable_and_missing_agents_are_told_apart():
    found, errors = read_joint_action(RaisingContains(a=1), ["a"], MISSING_ACTION)
    assert found == {}
    assert errors["a"] == UNREADABLE_ACTION.format(why="HostileError: hostile override")
    found, errors = read_joint_action(["a"], ["a"], MISSING_ACTION)
    assert errors == {"a": MISSING_ACTION}


def test_an_exception_whose_str_raises_still_has_a_description():
    with pytest.warns(ParseActionBugWarning, match="UnprintableError"):
        text = describe_parse_failure(UnprintableError())
    assert (
        text == "could not interpret the action (UnprintableError: <its message could not be read>)"
    )
