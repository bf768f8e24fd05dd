"""Decision envs refuse absurd sizes by name, before numpy meets them with a MemoryError."""

from __future__ import annotations

import pytest

import envsuite
from envsuite.families.decision.size_limits import MAX_ARMS, MAX_HORIZON, MAX_TABLE_CELLS


@pytest.mark.parametrize(
    ("env_id", "kwargs", "named"),
    [
        ("envsuite/Bandit-v0", {"num_arms": 10**11}, "num_arms must be at most 10,000"),
        ("envsuite/Bandit-v0", {"horizon": 10**12}, "horizon must be at most 1,000,000"),
        ("envsuite/ContextualBandit-v0", {"num_arms": 10**11}, "num_arms must be at most"),
        ("envsuite/ContextualBandit-v0", {"context_dim": 10**11}, "context_dim must be at most"),
        (
            "envsuite/ContextualBandit-v0",
            {"horizon": MAX_HORIZON, "context_dim": 11},
            r"horizon x max\(num_arms, context_dim\) must be at most 10,000,000",
        ),
        ("envsuite/Experts-v0", {"num_actions": 10**11}, "num_actions must be at most"),
        (
            "envsuite/Experts-v0",
            {"horizon": MAX_HORIZON, "num_actions": 11},
            "horizon x num_actions must be at most",
        ),
        ("envsuite/RepeatedGame-v0", {"horizon": 10**12}, "horizon must be at most"),
    ],
)
def test_an_absurd_size_is_refused_by_name(env_id, kwargs, named):
    with pytest.raises(ValueError, match=named):
        envsuite.make(env_id, **kwargs)


def test_the_largest_allowed_sizes_are_accepted():
    assert MAX_HORIZON * 10 == MAX_TABLE_CELLS
    envsuite.make("envsuite/Bandit-v0", num_arms=MAX_ARMS, horizon=MAX_HORIZON).close()
    envsuite.make("envsuite/Experts-v0", num_actions=10, horizon=MAX_HORIZON).close()
