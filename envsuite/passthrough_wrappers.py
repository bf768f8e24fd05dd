"""Stepping past Gymnasium's checking wrappers once they only pass the call on.

``gymnasium.make`` puts :class:`~gymnasium.wrappers.PassiveEnvChecker` and
:class:`~gymnasium.wrappers.OrderEnforcing` around every env. Both check something on the
first calls only: ``OrderEnforcing.step`` refuses a step before the first reset (and its
``reset`` records that one happened), ``PassiveEnvChecker.reset`` checks the first reset's
result, and ``PassiveEnvChecker.step`` checks the first step's result and whether the
second step reuses the first one's objects. After that, each is one more Python call per
step (and two per reset) that does nothing but call the layer below, which costs more
than a cheap env's whole step.

:func:`skip_settled_wrappers` gives the top layer of such wrappers a ``step`` and a
``reset`` of its own (instance attributes, which shadow the class's methods): each runs the
wrappers' own method as before until every layer has done its checks for it, and from then
on is the base env's method itself. Every check still runs when it can still fail, and the
wrappers stay where they are, so ``render`` before ``reset``, ``has_reset``, ``env.spec``,
``disable_env_checker`` and any outer wrapper (``TimeLimit``) behave as they do without
the shortcut.
"""

from __future__ import annotations

from typing import Any

import gymnasium

#: The wrappers whose ``step`` only passes the call on once they are settled.
_PASSTHROUGH = (gymnasium.wrappers.OrderEnforcing, gymnasium.wrappers.PassiveEnvChecker)


def _settled(layer: Any, method: str) -> bool:
    """Whether a wrapper of :data:`_PASSTHROUGH` has done every check its ``method`` makes."""
    if type(layer) is gymnasium.wrappers.OrderEnforcing:
        return bool(layer.has_reset)  # its reset only records this, its step only reads it
    if method == "reset":
        return bool(layer.checked_reset)  # PassiveEnvChecker: the first reset's checks
    # PassiveEnvChecker: the first step's checks, then the second step's data-reuse check.
    return bool(layer.checked_step and getattr(layer, "checked_data_reuse", True))


def _passthrough_top(env: Any) -> Any | None:
    """The outermost wrapper from which every layer down to the base env is a pass-through.

    None when the layer just above the base env is not one (nothing to skip).
    """
    top = None
    layer = env
    while isinstance(layer, gymnasium.Wrapper):
        if type(layer) not in _PASSTHROUGH:
            top = None  # the run must reach the base env unbroken
        elif top is None:
            top = layer
        layer = layer.env
    return top


class StepUntilSettled:
    """The ``step`` of the top pass-through wrapper until its layers are settled.

    Attributes:
        wrapper: The wrapper it is the ``step`` of.
    """

    __slots__ = ("wrapper",)

    def __init__(self, wrapper: Any) -> None:
        self.wrapper = wrapper

    def __call__(self, action: Any) -> Any:
        """The wrapper's own ``step``; once every layer below has checked, the base env's."""
        wrapper = self.wrapper
        result = type(wrapper).step(wrapper, action)
        if _all_settled(wrapper, "step"):
            wrapper.step = wrapper.unwrapped.step
        return result


class ResetUntilSettled:
    """The ``reset`` of the top pass-through wrapper until its layers are settled.

    Attributes:
        wrapper: The wrapper it is the ``reset`` of.
    """

    __slots__ = ("wrapper",)

    def __init__(self, wrapper: Any) -> None:
        self.wrapper = wrapper

    def __call__(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        """The wrapper's own ``reset``; once every layer below has checked, the base env's."""
        wrapper = self.wrapper
        result = type(wrapper).reset(wrapper, seed=seed, options=options)
        if _all_settled(wrapper, "reset"):
            wrapper.reset = wrapper.unwrapped.reset
        return result


def _all_settled(wrapper: Any, method: str) -> bool:
    """Whether every layer from ``wrapper`` down to the base env is settled for ``method``."""
    layer = wrapper
    while layer is not wrapper.unwrapped:
        if not _settled(layer, method):
            return False
        layer = layer.env
    return True


def skip_settled_wrappers(env: Any) -> Any:
    """Let ``env``'s checking wrappers drop out of ``step`` and ``reset`` once they have checked.

    Only an unbroken run of :data:`_PASSTHROUGH` wrappers directly around the base env is
    affected; wrappers above it (``TimeLimit``, a user's own) keep their ``step`` and call
    into the run as before.

    Returns:
        ``env`` itself.
    """
    top = _passthrough_top(env)
    if top is not None:
        top.step = StepUntilSettled(top)
        top.reset = ResetUntilSettled(top)
    return env
