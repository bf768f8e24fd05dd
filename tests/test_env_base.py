"""EnvsuiteEnv's step contract outside any wrapper."""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from gymnasium.error import ResetNeeded

import envsuite
from envsuite.action_errors import ParseActionBugWarning
from envsuite.env_base import EPISODE_OVER, EnvsuiteEnv
from envsuite.parallel_env_base import EnvsuiteParallelEnv
from envsuite.testing.hostile_actions import HOSTILE_ACTIONS
from tests.unicode_echo_env import UnicodeEchoEnv


def test_a_step_before_the_first_reset_raises_reset_needed() -> None:
    env = envsuite.make("envsuite/Bandit-v0", num_arms=3, horizon=2, observation_mode="vector")
    raw = env.unwrapped
    with pytest.raises(ResetNeeded, match="reset"):
        raw.step(0)
    raw.reset(seed=0)
    raw.step(0)
    _, _, terminated, _, info = raw.step(0)
    assert terminated and info["parse_error"] is None
    # After the end: the last observation again, reward 0, and why.
    _, reward, terminated, _, info = raw.step(0)
    assert (reward, terminated, info["parse_error"]) == (0.0, True, EPISODE_OVER)


class _Recorder(UnicodeEchoEnv):
    """The echo env noting what ``new_episode`` got; ``"boom"`` trips a parser bug."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[int | None, dict[str, Any] | None]] = []

    def new_episode(
        self, seed: int | None, options: dict[str, Any] | None
    ) -> tuple[str, dict[str, Any]]:
        self.seen.append((seed, options))
        return super().new_episode(seed, options)

    def parse_action(self, action: Any) -> str:
        if type(action) is str and action == "boom":
            return {}["missing"]  # a parser bug: a KeyError, not an InvalidAction
        return super().parse_action(action)


def test_the_reset_seed_and_options_reach_new_episode() -> None:
    env = _Recorder()
    first, _ = env.reset(seed=3, options={"k": 1})
    env.reset()
    again, _ = env.reset(seed=3)
    assert env.seen == [(3, {"k": 1}), (None, None), (3, None)]
    assert first == again


def test_a_parser_bug_costs_the_penalty_and_warns_naming_env_and_place() -> None:
    env = _Recorder()
    env.reset(seed=0)
    with pytest.warns(ParseActionBugWarning) as caught:
        observation, reward, _, _, info = env.step("boom")
    assert (observation, reward) == ("?", -1.0)
    assert info["parse_error"] == "could not interpret the action (KeyError: 'missing')"
    (warning,) = caught
    text = str(warning.message)
    assert text.startswith("_Recorder's parse_action raised KeyError: 'missing' at ")
    assert "test_env_base.py" in text and "in parse_action" in text


def test_a_parser_bug_is_an_error_under_envsuites_test_configuration() -> None:
    env = _Recorder()
    env.reset(seed=0)
    with pytest.raises(ParseActionBugWarning):
        env.step("boom")


_MALFORMED = [("int", lambda: 123), ("None", lambda: None), ("long text", lambda: "x" * 49)]


@pytest.mark.parametrize(
    "make_action",
    [factory for _, factory in [*_MALFORMED, *HOSTILE_ACTIONS]],
    ids=[name for name, _ in [*_MALFORMED, *HOSTILE_ACTIONS]],
)
def test_malformed_and_hostile_actions_warn_nobody(
    make_action: Any, recwarn: pytest.WarningsRecorder
) -> None:
    """A hostile object failing while it is read is the agent's doing, not a parser bug."""
    env = _Recorder()
    env.reset(seed=0)
    _, _, _, _, info = env.step(make_action())
    assert "parse_error" in info
    assert not [w for w in recwarn if issubclass(w.category, ParseActionBugWarning)]


def test_hooks_are_abstract_and_render_text_is_optional() -> None:
    class Unfinished(EnvsuiteEnv[str, str, str]):
        def new_episode(
            self, seed: int | None, options: dict[str, Any] | None
        ) -> tuple[str, dict[str, Any]]:
            return "", {}

        def parse_action(self, action: Any) -> str:
            return str(action)

    with pytest.raises(TypeError, match="apply_action, apply_invalid_action"):
        Unfinished()  # type: ignore[abstract]
    assert "render_text" not in EnvsuiteEnv.__abstractmethods__
    assert set(EnvsuiteParallelEnv.__abstractmethods__) == {
        "new_episode",
        "parse_action",
        "apply_actions",
    }


def test_declared_attributes_have_defaults_a_reader_can_rely_on() -> None:
    env = UnicodeEchoEnv()
    assert (env.record_curves, env.record_metrics) == ((), ())
    assert UnicodeEchoEnv.dataset_files(anything=1) == []
    assert UnicodeEchoEnv.item_labels({}, [0, 1]) == {}
    assert EnvsuiteParallelEnv.record_curves == ()


def test_an_env_with_abstract_base_pickles_and_continues() -> None:
    env = UnicodeEchoEnv()
    env.reset(seed=5)
    twin = pickle.loads(pickle.dumps(env))
    assert twin.step("abc") == env.step("abc")
