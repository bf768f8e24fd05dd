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


class UntilSettled:
    """The ``step`` or ``reset`` of the top pass-through wrapper until its layers are settled.

    Its generic call costs only until then: once settled, the instance attribute is the
    base env's own method.

    Attributes:
        wrapper: The wrapper it is the method of.
        method: ``"step"`` or ``"reset"``.
    """

    __slots__ = ("method", "wrapper")

    def __init__(self, wrapper: Any, method: str) -> None:
        self.wrapper = wrapper
        self.method = method

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """The wrapper's own method; once every layer below has checked, the base env's."""
        wrapper, method = self.wrapper, self.method
        result = getattr(type(wrapper), method)(wrapper, *args, **kwargs)
        if _all_settled(wrapper, method):
            setattr(wrapper, method, getattr(wrapper.unwrapped, method))
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
        top.step = UntilSettled(top, "step")
        top.reset = UntilSettled(top, "reset")
    return env
