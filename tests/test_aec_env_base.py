from __future__ import annotations

import pickle
import warnings
from typing import Any, ClassVar

import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.error import ResetNeeded
from pettingzoo.test import api_test, seed_test

from envsuite.action_errors import ParseActionBugWarning
from envsuite.aec_env_base import DEAD_AGENT_ACTION, OFF_TURN, EnvsuiteAECEnv, Turn
from envsuite.env_base import InvalidAction
from envsuite.rendering import TEXT_RENDER_MODES, checked_render_mode

PENALTY = -1.0
AGENTS = ["a_0", "a_1", "a_2"]


class CountEnv(EnvsuiteAECEnv[np.ndarray, int, int]):
    """Three agents in turn add 1, 2 or 3 (action 0, 1, 2) to a shared counter.

    Adding 2 is illegal while the counter is odd. The agent whose move makes the counter
    exactly 5 is eliminated (terminated) mid-game; the game ends for everyone at 10 or more,
    and the agent that got there gets 1. A refused action costs PENALTY and the same agent
    moves again; an off-turn one costs the named agent PENALTY. The counter starts at 0 or
    1, drawn from np_random.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(TEXT_RENDER_MODES),
        "name": "count_v0",
        "is_parallelizable": False,
    }

    def __init__(self, render_mode: str | None = None, bad_next: bool = False) -> None:
        super().__init__()
        self.render_mode = checked_render_mode(render_mode, TEXT_RENDER_MODES)
        self.bad_next = bad_next
        self.possible_agents = list(AGENTS)
        self.observation_spaces = {a: spaces.Box(0, 20, (1,), np.float32) for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(3) for a in AGENTS}
        self.counter = 0
        self.seeds_seen: list[int | None] = []

    def new_episode(
        self, seed: int | None, options: dict[str, Any] | None
    ) -> tuple[str, dict[str, dict[str, Any]]]:
        assert self.np_random is not None
        self.seeds_seen.append(seed)
        self.counter = int(self.np_random.integers(2))
        return "a_0", {agent: {"start": self.counter} for agent in AGENTS}

    def observe(self, agent: str) -> np.ndarray:
        return np.array([self.counter], dtype=np.float32)

    def parse_action(self, agent: str, action: Any) -> int:
        if isinstance(action, str) and action == "boom":
            raise RuntimeError("kaboom")
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise InvalidAction("not an int")
        if not 0 <= action < 3:
            raise InvalidAction("out of range")
        if action == 1 and self.counter % 2:
            raise InvalidAction("cannot add 2 to an odd counter")
        return int(action)

    def legal_actions(self, agent: str) -> list[int]:
        return [0, 2] if self.counter % 2 else [0, 1, 2]

    def apply_action(self, agent: str, parsed: int) -> Turn:
        self.counter += parsed + 1
        if self.counter >= 10:
            return Turn(
                rewards={agent: 1.0},
                terminated=list(self.agents),
                infos={a: {"counter": self.counter} for a in self.agents},
            )
        if self.counter == 5:
            return Turn(terminated=[agent], infos={agent: {"eliminated": True}})
        if self.bad_next:
            return Turn(next_agent="nobody")
        return Turn(infos={agent: {"counter": self.counter}})

    def apply_invalid_action(self, agent: str, message: str) -> Turn:
        # The refused agent moves again (or, off-turn, the agent to move keeps its turn).
        return Turn(rewards={agent: PENALTY}, next_agent=agent)

    def render_text(self) -> str:
        return f"counter {self.counter}, {self.agent_selection} to move"


def started(seed: int = 0, start: int = 0, **kwargs: Any) -> CountEnv:
    """A CountEnv reset with ``seed`` whose counter is then set to ``start``."""
    env = CountEnv(**kwargs)
    env.reset(seed=seed)
    env.counter = start
    env._mark_legal_actions()
    return env


def test_reset_seeds_own_generator_passes_the_seed_and_keeps_the_generator() -> None:
    env = CountEnv()
    env.reset(seed=3)
    first = env.np_random.bit_generator.state  # type: ignore[union-attr]
    env.reset()
    assert env.seeds_seen == [3, None]
    again = CountEnv()
    again.reset(seed=3)
    assert again.np_random.bit_generator.state == first  # type: ignore[union-attr]


def test_after_reset_the_agent_to_move_has_its_mask_and_the_others_all_zeros() -> None:
    env = started(start=1)
    assert env.agent_selection == "a_0"
    assert env.infos["a_0"]["action_mask"].tolist() == [1, 0, 1]
    assert env.infos["a_1"]["action_mask"].tolist() == [0, 0, 0]
    assert all(env.infos[a]["parse_error"] is None for a in AGENTS)
    assert env.infos["a_2"]["start"] in (0, 1)


def test_an_unchanged_empty_mask_is_kept_and_a_changed_one_is_rewritten() -> None:
    env = started(start=0)
    kept = env.infos["a_2"]
    env.step(0)  # a_0: 1; a_2's info is not named by the turn, so it stays as it was
    assert env.infos["a_2"] is kept and kept["action_mask"].tolist() == [0, 0, 0]
    assert env.infos["a_0"]["action_mask"].tolist() == [0, 0, 0]  # no longer to move
    assert env.infos["a_1"]["action_mask"].tolist() == [1, 0, 1]
    env.infos["a_0"]["action_mask"][1] = 1  # a caller scribbles on an empty mask
    env.step(0)  # a_1: 2; a_0 still waits, and gets zeros again
    assert env.infos["a_0"]["action_mask"].tolist() == [0, 0, 0]
    assert env.infos["a_2"]["action_mask"].tolist() == [1, 1, 1]


class TextCountEnv(CountEnv):
    """CountEnv with a text action space: its legal actions are listed, not masked."""

    def __init__(self) -> None:
        super().__init__()
        self.action_spaces = {a: spaces.Text(8) for a in AGENTS}


def test_legal_lists_for_text_actions_and_empty_ones_rewritten_when_changed() -> None:
    env = TextCountEnv()
    env.reset(seed=0)
    env.counter = 0
    env._mark_legal_actions()
    assert env.infos["a_0"]["legal_actions"] == [0, 1, 2]
    assert env.infos["a_1"]["legal_actions"] == env.infos["a_2"]["legal_actions"] == []
    kept = env.infos["a_2"]
    env.step(0)  # a_0: 1
    assert env.infos["a_2"] is kept and env.infos["a_0"]["legal_actions"] == []
    env.infos["a_0"]["legal_actions"].append("x")
    del env.infos["a_2"]["legal_actions"]
    env.step(0)  # a_1: 2
    assert env.infos["a_0"]["legal_actions"] == [] and env.infos["a_1"]["legal_actions"] == []
    assert env.infos["a_2"]["legal_actions"] == [0, 1, 2]


def test_a_legal_action_passes_the_turn_and_last_accumulates_rewards() -> None:
    env = started(start=7)
    env.step(0)  # a_0: 8
    assert env.agent_selection == "a_1" and env.counter == 8
    assert env.infos["a_0"]["counter"] == 8 and env.infos["a_0"]["parse_error"] is None
    assert env.infos["a_0"]["action_mask"].tolist() == [0, 0, 0]
    assert env.infos["a_1"]["action_mask"].tolist() == [1, 1, 1]
    env.step(2)  # a_1: 11, wins
    assert env.rewards == {"a_0": 0.0, "a_1": 1.0, "a_2": 0.0}
    assert all(env.terminations.values())


@pytest.mark.parametrize("bad", ["x", None, 7, -1, 2.5, True, object(), [0], 1])
def test_a_malformed_or_illegal_action_costs_the_penalty_and_the_same_agent_moves(
    bad: Any,
) -> None:
    env = started(start=1)  # odd: action 1 (add 2) is illegal
    env.step(bad)
    assert env.agent_selection == "a_0"
    assert env.infos["a_0"]["parse_error"]
    assert env.rewards["a_0"] == PENALTY
    assert env.last()[1] == PENALTY
    env.step(0)
    assert env.infos["a_0"]["parse_error"] is None
    assert env.agent_selection == "a_1"


def test_an_unexpected_exception_while_parsing_is_reported_not_raised() -> None:
    env = started()
    # The agent sees a parse_error; tests see the parser's bug as a warning (an error
    # under envsuite's pytest configuration).
    with pytest.warns(ParseActionBugWarning, match="kaboom"):
        env.step("boom")
    assert "RuntimeError: kaboom" in env.infos["a_0"]["parse_error"]


def test_an_off_turn_action_is_refused_with_the_penalty_for_the_named_agent() -> None:
    env = started(start=2)
    env.step(0, agent="a_2")
    assert env.counter == 2  # not applied
    assert env.agent_selection == "a_0"
    assert env.infos["a_2"]["parse_error"] == OFF_TURN
    assert env.infos["a_0"]["parse_error"] is None
    assert env.rewards == {"a_0": 0.0, "a_1": 0.0, "a_2": PENALTY}
    assert env.infos["a_2"]["action_mask"].tolist() == [0, 0, 0]
    env.step(0, agent="a_0")  # naming the agent to move is fine
    assert env.counter == 3 and env.agent_selection == "a_1"
    # a_2 sees its penalty when its turn comes: rewards since its last action.
    env.step(0)
    assert env.agent_selection == "a_2" and env.last()[1] == PENALTY


class Sneaky(str):
    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no comparing me")

    __hash__ = str.__hash__


@pytest.mark.parametrize("name", ["nobody", 3, None.__class__, object(), Sneaky("a_1")])
def test_an_action_for_no_live_agent_changes_nothing(name: Any) -> None:
    env = started(start=2)
    env.step(0, agent=name)
    if isinstance(name, str) and str.__str__(name) == "a_1":
        assert env.infos["a_1"]["parse_error"] == OFF_TURN  # a real name, however dressed
    else:
        assert env.counter == 2 and env.agent_selection == "a_0"
        assert all(env.infos[a]["parse_error"] is None for a in AGENTS)
        assert set(env.rewards.values()) == {0.0}


def test_an_eliminated_agent_takes_its_dead_step_first_and_only_none() -> None:
    env = started(start=2)
    env.step(2)  # a_0 makes 5: eliminated
    assert env.terminations["a_0"] and env.agent_selection == "a_0"
    env.step(0)  # not None: refused, never raised
    assert env.infos["a_0"]["parse_error"] == DEAD_AGENT_ACTION
    assert "a_0" in env.agents and env.counter == 5
    env.step(0, agent="a_0")
    assert "a_0" in env.agents
    env.step(0, agent="a_2")  # off-turn while a_0 waits for its dead step
    assert env.infos["a_2"]["parse_error"] == OFF_TURN and env.rewards["a_2"] == PENALTY
    assert env.agent_selection == "a_0"
    env.step(None)
    assert env.agents == ["a_1", "a_2"]
    assert env.agent_selection == "a_1"  # the turn goes on where it was
    assert env.infos["a_1"]["action_mask"].tolist() == [1, 0, 1]


def test_the_game_ends_with_dead_steps_and_later_steps_change_nothing() -> None:
    env = started(start=8)
    env.step(2)
    assert env.agent_selection == "a_0"
    for _ in range(3):
        _, _, terminated, _, _ = env.last()
        assert terminated
        env.step(None)
    assert env.agents == []
    env.step(0)
    env.step(None)
    assert env.agents == []


def test_step_before_reset_raises_reset_needed() -> None:
    with pytest.raises(ResetNeeded):
        CountEnv().step(0)


def test_a_next_agent_that_cannot_move_is_an_env_bug_that_surfaces() -> None:
    env = started(bad_next=True)
    with pytest.raises(ValueError, match="not a live agent"):
        env.step(0)


def test_pettingzoo_api_and_seed_tests_pass() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(CountEnv(), num_cycles=50)
        seed_test(CountEnv, num_cycles=50)


def test_pickled_env_continues_identically() -> None:
    env = started(seed=5)
    env.step(0)
    twin = pickle.loads(pickle.dumps(env))
    for action in (1, 0, 2, "x", 0, 2, 0, 2):
        env.step(action)
        twin.step(action)
        assert env.agent_selection == twin.agent_selection
        assert env.rewards == twin.rewards and env.terminations == twin.terminations
        assert env.observe("a_1").tolist() == twin.observe("a_1").tolist()


def test_render_modes_come_from_render_text() -> None:
    env = CountEnv(render_mode="ansi")
    env.reset(seed=0)
    assert env.render().startswith("counter")
    image = CountEnv(render_mode="rgb_array")
    image.reset(seed=0)
    frame = image.render()
    assert frame.ndim == 3 and frame.dtype == np.uint8
    assert CountEnv().render() is None


def test_state_digest_is_declared_and_says_so_when_missing() -> None:
    with pytest.raises(NotImplementedError, match="state_digest"):
        started().state_digest()


def test_an_env_missing_a_hook_cannot_be_built() -> None:
    class NoObserve(EnvsuiteAECEnv[Any, Any, Any]):
        def new_episode(self, seed: Any, options: Any) -> Any:
            return "a_0", {}

        def parse_action(self, agent: str, action: Any) -> Any:
            return action

        def apply_action(self, agent: str, parsed: Any) -> Turn:
            return Turn()

        def apply_invalid_action(self, agent: str, message: str) -> Turn:
            return Turn()

    with pytest.raises(TypeError, match="observe"):
        NoObserve()  # type: ignore[abstract]
