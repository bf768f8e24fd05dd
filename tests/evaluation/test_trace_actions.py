"""The runner's trace: steps built at the episode's end equal the steps built at each step."""

from __future__ import annotations

import math

import numpy as np
import pytest

from envsuite.evaluation.trace_actions import (
    MAX_TRACE_ACTION_BYTES,
    TraceCollector,
    stored_action,
)
from envsuite.records import EpisodeRecord, Step, shared_steps, trusted_step


def _record(trace: list[Step]) -> EpisodeRecord:
    return EpisodeRecord(
        run_id="r", env_id="envsuite/Bandit-v0", spec_hash="h", envsuite_version="0",
        agent_id="random", seed=0, episode_return=0.0, length=len(trace), terminated=True,
        truncated=False, wall_time_s=0.0, trace=trace,
    )  # fmt: skip


def test_shared_steps_equal_steps_built_one_by_one_and_write_the_same_bytes() -> None:
    nan = float("nan")
    cases = [
        (["blue", "red", "blue", "blue"], [1.0, 0.0, 1.0, 0.0]),
        ([1, True, 1, True, None, None], [0.5, 0.5, 0.5, 0.5, 0.0, -0.0]),
        (["a", "a", "a"], [0.0, -0.0, 0.0]),  # -0.0 == 0.0, yet written "-0.0"
        ([2, 2, 2], [nan, nan, math.inf]),
        ([[1, 2], {"k": "v"}, 1.5, 1.5], [1.0, 1.0, -0.0, 0.0]),  # not shared: built apart
        ([], []),
    ]
    for actions, rewards in cases:
        shared = shared_steps(actions, rewards)
        alone = [trusted_step(a, r, None) for a, r in zip(actions, rewards, strict=True)]
        assert [s.model_dump_json() for s in shared] == [s.model_dump_json() for s in alone]
        assert _record(shared).to_json_line() == _record(alone).to_json_line()
        for step in shared:
            assert (
                step.model_dump_json()
                == Step.model_validate_json(step.model_dump_json()).model_dump_json()
            )


def test_equal_steps_are_one_object_and_unequal_ones_are_not() -> None:
    steps = shared_steps(["blue", "blue", "red", 1, 1, None], [1.0, 1.0, 1.0, 1.0, 0.0, 1.0])
    assert steps[0] is steps[1]
    assert len({id(step) for step in steps}) == 5
    with_bool = shared_steps([1, True, 1], [1.0, 1.0, 1.0])  # True == 1: built apart
    assert with_bool[1].action is True and type(with_bool[0].action) is int
    zeros = shared_steps(["a", "a"], [0.0, -0.0])
    assert zeros[0] is not zeros[1] and math.copysign(1.0, zeros[1].reward) == -1.0  # type: ignore[arg-type]


def test_shared_steps_refuse_lists_of_different_lengths() -> None:
    with pytest.raises(ValueError, match="2 actions but 1 rewards"):
        shared_steps(["a", "b"], [1.0])


def _observe(collector: TraceCollector, steps: list[tuple[object, float, dict]]) -> None:
    observer = collector.observer()
    for action, reward, info in steps:
        observer(None, action, None, reward, False, False, info)


def test_the_collected_trace_is_the_stored_actions_of_each_step() -> None:
    huge = "é" * (MAX_TRACE_ACTION_BYTES // 2 + 1)  # over the cap: stored as a cut stand-in
    sent = ["blue", 3, np.int64(4), [1, 2], huge, None, 2.5, True]
    collector = TraceCollector(True, None, ())
    _observe(collector, [(action, float(i), {}) for i, action in enumerate(sent)])
    expected = [trusted_step(stored_action(a), float(i), None) for i, a in enumerate(sent)]
    assert collector.steps() == expected
    assert "trace_cut" in collector.steps()[4].action  # type: ignore[operator]


def test_an_action_the_agent_changes_later_is_stored_as_it_was_sent() -> None:
    action = [1, 2]
    collector = TraceCollector(True, None, ())
    _observe(collector, [(action, 1.0, {})])
    action.append(3)
    assert collector.steps()[0].action == [1, 2]


def test_probabilities_and_curves_are_kept_per_step_in_order_of_first_value() -> None:
    chances = iter([0.25, None, 0.5])
    collector = TraceCollector(True, lambda: next(chances), ("late", "early"))
    _observe(
        collector,
        [("a", 1.0, {"early": 1}), ("b", 0.0, {"early": 2, "late": 0.5}), ("a", 1.0, {})],
    )
    assert [s.probability for s in collector.steps()] == [0.25, None, 0.5]
    assert list(collector.curves.items()) == [("early", [1.0, 2.0]), ("late", [0.5])]


def test_without_a_trace_only_curves_are_kept() -> None:
    collector = TraceCollector(False, None, ("regret",))
    _observe(collector, [("a", 1.0, {"regret": 0.25}), ("b", 1.0, {"regret": None})])
    assert collector.steps() == [] and collector.curves == {"regret": [0.25]}


def test_long_str_actions_are_cut_beside_unhashable_and_repeated_actions() -> None:
    huge = "é" * (MAX_TRACE_ACTION_BYTES // 2 + 1)
    for sent in ([[1, 2], huge, "blue"], [huge, huge], [{"k": 1}, huge, huge, 3]):
        collector = TraceCollector(True, None, ())
        _observe(collector, [(action, 1.0, {}) for action in sent])
        expected = [trusted_step(stored_action(a), 1.0, None) for a in sent]
        assert collector.steps() == expected
        cut = [step.action for step, action in zip(expected, sent, strict=True) if action is huge]
        assert cut and all("trace_cut" in action for action in cut)  # type: ignore[operator]


def test_shared_steps_of_all_distinct_rewards_equal_steps_built_one_by_one() -> None:
    rewards = [0.1 * i for i in range(50)] + [float("nan")] * 3
    actions = [["a", "b", None, 7][i % 4] for i in range(len(rewards))]
    shared = shared_steps(actions, rewards)
    alone = [trusted_step(a, r, None) for a, r in zip(actions, rewards, strict=True)]
    assert [s.model_dump_json() for s in shared] == [s.model_dump_json() for s in alone]
    assert [s.action for s in shared] == actions


def test_a_negative_zero_is_found_among_rewards_of_any_kind() -> None:
    from envsuite.records import _has_negative_zero

    assert _has_negative_zero([1.0, 0.0, -0.0])
    assert not _has_negative_zero([0.0, 1.0, 2.0**-1074])  # the smallest float is not -0.0
    assert not _has_negative_zero([])
    assert _has_negative_zero([10**400, -0.0])  # too big for a double: asked one by one
    assert _has_negative_zero([np.float32(-0.0)])


def test_the_trace_runs_no_hash_of_an_agents_str_subclass() -> None:
    import enum

    hashed: list[str] = []

    class Noisy(str):
        def __hash__(self) -> int:
            hashed.append(str(self))
            return str.__hash__(self)

    class Choice(enum.Enum):  # an enum's value passes into the stored action as it is
        A = Noisy("a")

    assert type(stored_action(Choice.A)) is Noisy
    collector = TraceCollector(True, None, ())
    _observe(collector, [(Choice.A, 1.0, {}), ("a", 0.0, {})])
    hashed.clear()
    assert collector.steps() == [trusted_step("a", 1.0, None), trusted_step("a", 0.0, None)]
    assert hashed == []


def test_shared_steps_given_the_action_types_are_the_steps_found_without_them() -> None:
    for actions in (["a", "b", "a"], [1, True, 1], ["a", None, 2], [[1], "a", "a"]):
        rewards = [1.0, 0.0, 1.0]
        given = shared_steps(actions, rewards, action_types=set(map(type, actions)))
        assert given == shared_steps(actions, rewards)
        assert [s.model_dump_json() for s in given] == [
            trusted_step(a, r, None).model_dump_json()
            for a, r in zip(actions, rewards, strict=True)
        ]
