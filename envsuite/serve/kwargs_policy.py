"""What a client may choose when it makes or resets a served env.

A client picks keyword arguments of the env (within an allow-list), a render mode and,
for single-agent envs, a step limit; everything else is the server's. The default
allow-list of an env is its *typed scalar arguments*: the constructor parameters
annotated ``int``, ``float``, ``bool``, ``str`` or a ``Literal`` of those (optionally
``| None``), except ``render_mode`` (an option of its own) and names that point outside
the env (paths, directories, files, URLs, hosts, images, commands). So ``num_arms`` and
``difficulty`` of Bandit-v0 are allowed, and ``arm_means`` (a tuple) is not. The server
operator replaces the list per env (``envsuite serve --allow-kwargs ID=a,b``) and may fix
arguments no client can change (``--set ID:key=value``).

Values must be JSON scalars (None, bool, int, float, str); the env's own checks then
refuse values out of range, with their message.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
import typing
from collections.abc import Mapping
from typing import Any, Literal, get_args, get_origin

from envsuite.registry import EnvSpec
from envsuite.serve.errors import RequestError

#: Parameter names never allowed by default: they reach outside the env.
OUTSIDE_NAMES = re.compile(r"(path|dir|file|url|host|image|command|docker|socket)", re.I)
#: Options (besides env kwargs) a client may set.
MAKE_OPTIONS = ("render_mode", "max_episode_steps")
#: Largest step limit a client may ask for.
MAX_STEP_LIMIT = 1_000_000
#: Render modes a server never makes (``human`` would draw on the server's terminal).
SERVER_SIDE_MODES = frozenset({"human"})

_SCALARS = (bool, int, float, str, type(None))


def _scalar_type(annotation: Any) -> bool:
    if annotation in (bool, int, float, str):
        return True
    origin = get_origin(annotation)
    if origin is Literal:
        return all(isinstance(value, _SCALARS) for value in get_args(annotation))
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        args = [a for a in get_args(annotation) if a is not type(None)]
        return bool(args) and all(_scalar_type(a) for a in args)
    return False


def default_allowed_kwargs(spec: EnvSpec) -> frozenset[str]:
    """The typed scalar arguments of ``spec``'s env (see the module docstring)."""
    target = spec.load()
    init = target.__init__ if inspect.isclass(target) else target
    try:
        hints = typing.get_type_hints(init)
    except Exception:  # unresolvable annotations: nothing is allowed by default
        return frozenset()
    names = []
    for name, parameter in inspect.signature(target).parameters.items():
        if parameter.kind not in (parameter.KEYWORD_ONLY, parameter.POSITIONAL_OR_KEYWORD):
            continue
        if name == "render_mode" or OUTSIDE_NAMES.search(name):
            continue
        if _scalar_type(hints.get(name)):
            names.append(name)
    return frozenset(names)


@dataclasses.dataclass(frozen=True)
class KwargsPolicy:
    """The allow-list and fixed arguments of one served env.

    Attributes:
        spec: The served env's spec.
        allowed: Keyword arguments a client may set.
        fixed: Keyword arguments the server sets; a client cannot change them.
        render_modes: Render modes a client may ask for.
        allow_oracle: Whether clients may ask the env's oracle for actions (it reads the
            env's hidden state: off unless the operator turns it on).
    """

    spec: EnvSpec
    allowed: frozenset[str]
    fixed: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    render_modes: frozenset[str] = frozenset()
    allow_oracle: bool = False

    @classmethod
    def for_spec(
        cls,
        spec: EnvSpec,
        allowed: frozenset[str] | None = None,
        fixed: Mapping[str, Any] | None = None,
        allow_oracle: bool = False,
    ) -> KwargsPolicy:
        """The policy of ``spec``: the default allow-list unless ``allowed`` is given."""
        fixed = dict(fixed or {})
        spec.canonical_kwargs(fixed)  # unknown fixed names fail at startup
        names = default_allowed_kwargs(spec) if allowed is None else frozenset(allowed)
        spec.canonical_kwargs(dict.fromkeys(names))  # so do unknown allowed names
        metadata = getattr(spec.load(), "metadata", {}) or {}
        modes = frozenset(metadata.get("render_modes", [])) - SERVER_SIDE_MODES
        return cls(spec, names - set(fixed), fixed, modes, allow_oracle)

    def check_kwargs(self, kwargs: Mapping[str, Any]) -> dict[str, Any]:
        """``kwargs`` if every name is allowed and every value a JSON scalar.

        Raises:
            RequestError: ``KWARG_NOT_ALLOWED`` naming the refused names and the allowed
                ones, or ``VALIDATION_ERROR`` for a value that is not a scalar.
        """
        if not isinstance(kwargs, Mapping):
            raise RequestError("VALIDATION_ERROR", "kwargs must be an object")
        refused = sorted(str(name) for name in kwargs if name not in self.allowed)
        if refused:
            allowed = ", ".join(sorted(self.allowed)) or "none"
            raise RequestError(
                "KWARG_NOT_ALLOWED",
                f"{self.spec.id}: this server does not let clients set {', '.join(refused)}"
                f" (allowed: {allowed})",
            )
        for name, value in kwargs.items():
            if not isinstance(value, _SCALARS):
                raise RequestError(
                    "VALIDATION_ERROR",
                    f"{self.spec.id}: {name} must be a JSON scalar, got {type(value).__name__}",
                )
        return dict(kwargs)

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The make options (``render_mode``, ``max_episode_steps``) if the server allows them.

        Raises:
            RequestError: an unknown option, a render mode the env lacks (or ``human``), or
                a step limit that is not an int in [1, :data:`MAX_STEP_LIMIT`] (or is asked
                of a multi-agent env).
        """
        unknown = sorted(set(options) - set(MAKE_OPTIONS))
        if unknown:
            raise RequestError("VALIDATION_ERROR", f"unknown make options: {', '.join(unknown)}")
        checked = {k: v for k, v in options.items() if v is not None}
        mode = checked.get("render_mode")
        if mode is not None and mode not in self.render_modes:
            modes = ", ".join(sorted(self.render_modes)) or "none"
            raise RequestError(
                "VALIDATION_ERROR", f"render_mode must be one of {modes} on this server"
            )
        limit = checked.get("max_episode_steps")
        if limit is not None:
            if self.spec.multi_agent:
                raise RequestError(
                    "VALIDATION_ERROR", "max_episode_steps applies to single-agent envs"
                )
            if type(limit) is not int or not 1 <= limit <= MAX_STEP_LIMIT:
                raise RequestError(
                    "VALIDATION_ERROR",
                    f"max_episode_steps must be an int in [1, {MAX_STEP_LIMIT}]",
                )
        return checked

    def describe(self) -> dict[str, Any]:
        """The policy as JSON (what ``GET /envs`` shows)."""
        return {
            "allowed_kwargs": sorted(self.allowed),
            "fixed_kwargs": dict(self.fixed),
            "render_modes": sorted(self.render_modes),
            "oracle": self.allow_oracle and self.spec.oracle is not None,
        }
