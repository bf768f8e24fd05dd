"""An agent's own copy of an action space: its own generator, nothing else duplicated.

An agent samples from a copy of the env's action space so that seeding it never touches
the env's generator. ``copy.deepcopy`` gives that, but duplicates everything the space
holds (a text space's character tables, a box's bounds, the generator it is about to
replace) and costs about half a millisecond per agent, which the runner pays once per
episode. :func:`independent_space_copy` copies only what seeding replaces: a shallow copy
of each space of the tree, with no generator yet (the first ``seed`` or ``sample`` makes
one). The read-only parts (bounds, character sets) are shared with the original, which
neither side mutates.
"""

from __future__ import annotations

import copy
from typing import Any, cast

import numpy as np
from gymnasium import spaces

#: Spaces with no sub-spaces whose only state that sampling changes is the generator.
_LEAF_SPACES: tuple[type[spaces.Space[Any]], ...] = (
    spaces.Discrete,
    spaces.Box,
    spaces.MultiBinary,
    spaces.MultiDiscrete,
    spaces.Text,
)


def independent_space_copy(space: spaces.Space[Any]) -> spaces.Space[Any]:
    """A copy of ``space`` whose seeding and sampling leave ``space`` as it was.

    Leaf spaces and ``Dict``/``Tuple`` trees of them (subclasses included) are copied
    shallowly, generator dropped; any other space is deep-copied.
    """
    kind = type(space)
    if not (_shallow_copyable(kind) and _no_extra_spaces(space)):
        return copy.deepcopy(space)
    copied: Any = copy.copy(space)
    copied._np_random = None  # gymnasium makes a fresh one on first use
    if isinstance(space, spaces.Dict):
        copied.spaces = {key: independent_space_copy(sub) for key, sub in space.spaces.items()}
    elif isinstance(space, spaces.Tuple):
        copied.spaces = tuple(independent_space_copy(sub) for sub in space.spaces)
    return cast(spaces.Space[Any], copied)


def _shallow_copyable(kind: type) -> bool:
    return issubclass(kind, (*_LEAF_SPACES, spaces.Dict, spaces.Tuple))


def _no_extra_spaces(space: spaces.Space[Any]) -> bool:
    """Whether ``space`` keeps no sub-space or generator outside the ones copied here.

    A subclass could hold another space (or generator) in an attribute of its own, which a
    shallow copy would share; such a space is deep-copied instead.
    """
    for name, value in vars(space).items():
        if name in ("_np_random", "spaces"):
            continue
        if isinstance(value, spaces.Space | np.random.Generator):
            return False
    return True
