"""An agent's copy of an action space: independent generator, same samples as a deep copy."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest
from gymnasium import spaces

from envsuite.agents.space_copy import independent_space_copy
from envsuite.spaces import UnicodeText

SPACES = {
    "discrete": spaces.Discrete(7, start=2),
    "box": spaces.Box(-1.0, 1.0, (3,), dtype=np.float32),
    "multi-binary": spaces.MultiBinary(5),
    "multi-discrete": spaces.MultiDiscrete([3, 4]),
    "text": UnicodeText(max_length=20),
    "dict": spaces.Dict(
        {"a": spaces.Discrete(3), "b": spaces.Tuple((spaces.Box(0, 1, (2,)), spaces.Text(4)))}
    ),
    "graph": spaces.Graph(spaces.Box(0, 1, (2,)), spaces.Discrete(3)),
}


def _samples(space: Any, seed: int) -> list[Any]:
    space.seed(seed)
    return [repr(space.sample()) for _ in range(5)]


@pytest.mark.parametrize("name", list(SPACES))
def test_copy_samples_as_a_deep_copy_does(name: str) -> None:
    space = SPACES[name]
    assert _samples(independent_space_copy(space), 3) == _samples(copy.deepcopy(space), 3)


@pytest.mark.parametrize("name", list(SPACES))
def test_seeding_the_copy_leaves_the_original_alone(name: str) -> None:
    space = SPACES[name]
    space.seed(11)
    expected = _samples(copy.deepcopy(space), 11)
    space.seed(11)
    copied = independent_space_copy(space)
    copied.seed(99)
    copied.sample()
    assert [repr(space.sample()) for _ in range(5)] == expected
    assert copied == space  # the same space, only its generator is its own


def test_a_subclass_holding_another_space_is_deep_copied() -> None:
    class Holding(spaces.Discrete):
        def __init__(self) -> None:
            super().__init__(3)
            self.inner = spaces.Discrete(4)

    space = Holding()
    copied = independent_space_copy(space)
    assert copied.inner is not space.inner
