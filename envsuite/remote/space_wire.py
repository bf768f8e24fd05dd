"""Gymnasium spaces on the wire: a JSON description the client rebuilds the space from.

The server describes each space it serves (:func:`describe_space`) and the remote env
rebuilds an equal space (:func:`build_space`), so ``observation_space.contains`` and
``action_space.sample`` work on the client as in-process. Bounds travel through
:mod:`envsuite.remote.wire`, exactly. Spaces: ``Discrete``, ``Box``, ``MultiDiscrete``,
``MultiBinary``, ``Text`` (and envsuite's ``UnicodeText``), ``Dict``, ``Tuple`` and
``Sequence``; any other space raises :class:`~envsuite.remote.wire.WireError` naming it,
so a server refuses to serve an env it cannot describe instead of failing mid-episode.
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
from gymnasium import spaces

from envsuite.remote.wire import WireError, decode, encode
from envsuite.spaces import UnicodeText

#: Space subclasses a client rebuilds are envsuite's own (never a module a server names).
_TRUSTED_PREFIX = "envsuite."
_SCALARS = (bool, int, float, str, type(None))


def describe_space(space: spaces.Space[Any]) -> dict[str, Any]:
    """The JSON description of ``space`` (see the module docstring for the kinds).

    A subclass defined in envsuite (e.g. the SAT envs' answer space, whose ``sample``
    draws well-formed answers) is described as its base kind plus its class path and the
    scalar attributes it adds, so a client that has envsuite rebuilds the subclass and
    samples exactly as in-process; one that cannot import it gets the base kind.
    """
    described = _describe_kind(space)
    base = _BUILDERS[described["kind"]](described)
    cls = type(space)
    if cls is not type(base) and cls.__module__.startswith(_TRUSTED_PREFIX):
        extra = {k: v for k, v in vars(space).items() if k not in vars(base)}
        if all(isinstance(v, _SCALARS) for v in extra.values()) and not any(
            k.startswith("_") for k in extra
        ):
            described["class"] = f"{cls.__module__}:{cls.__qualname__}"
            described["attributes"] = extra
    return described


def _describe_kind(space: spaces.Space[Any]) -> dict[str, Any]:
    if isinstance(space, spaces.Discrete):
        return {"kind": "Discrete", "n": int(space.n), "start": int(space.start)}
    if isinstance(space, spaces.Box):
        return {
            "kind": "Box",
            "low": encode(space.low),
            "high": encode(space.high),
            "dtype": np.dtype(space.dtype).str,
        }
    if isinstance(space, spaces.MultiDiscrete):
        return {
            "kind": "MultiDiscrete",
            "nvec": encode(space.nvec),
            "start": encode(space.start),
            "dtype": np.dtype(space.dtype).str,
        }
    if isinstance(space, spaces.MultiBinary):
        return {"kind": "MultiBinary", "n": encode(space.n)}
    if isinstance(space, UnicodeText):
        return {
            "kind": "UnicodeText",
            "min_length": space.min_length,
            "max_length": space.max_length,
            "charset": _charset(space),
        }
    if isinstance(space, spaces.Text):
        return {
            "kind": "Text",
            "min_length": space.min_length,
            "max_length": space.max_length,
            "charset": _charset(space),
        }
    if isinstance(space, spaces.Dict):
        return {
            "kind": "Dict",
            "spaces": [[key, describe_space(sub)] for key, sub in space.spaces.items()],
        }
    if isinstance(space, spaces.Tuple):
        return {"kind": "Tuple", "spaces": [describe_space(sub) for sub in space.spaces]}
    if isinstance(space, spaces.Sequence):
        return {
            "kind": "Sequence",
            "space": describe_space(space.feature_space),
            "stack": bool(space.stack),
        }
    raise WireError(f"{type(space).__name__} spaces cannot be served")


def _charset(space: spaces.Text) -> str:
    # In the order the space was given it: ``sample`` draws by position, so a reordered
    # (``characters`` is sorted) alphabet would sample other strings from the same seed.
    return "".join(getattr(space, "_char_list", space.characters))


def build_space(description: Any) -> spaces.Space[Any]:
    """Rebuild the space :func:`describe_space` described.

    Raises:
        WireError: the description is not one :func:`describe_space` makes.
    """
    if not isinstance(description, dict) or not isinstance(description.get("kind"), str):
        raise WireError(f"not a space description: {description!r:.80}")
    kind = description["kind"]
    try:
        space = _BUILDERS[kind](description)
    except KeyError as exc:
        raise WireError(f"unknown or incomplete space description {kind!r}: {exc}") from exc
    except (TypeError, ValueError, AssertionError) as exc:
        raise WireError(f"bad {kind} space description: {exc}") from exc
    if "class" in description:
        return _subclass(space, description.get("class"), description.get("attributes"))
    return space


def _subclass(base: spaces.Space[Any], path: Any, attributes: Any) -> spaces.Space[Any]:
    """``base`` as the envsuite subclass ``path`` with ``attributes`` (``base`` if unknown)."""
    if not (isinstance(path, str) and path.startswith(_TRUSTED_PREFIX)):
        return base
    if not isinstance(attributes, dict) or not all(
        isinstance(k, str) and not k.startswith("_") and isinstance(v, _SCALARS)
        for k, v in attributes.items()
    ):
        return base
    module_name, _, name = path.partition(":")
    try:
        cls = getattr(importlib.import_module(module_name), name)
    except Exception:  # not importable here (an extra missing): the base kind samples
        return base
    if not (isinstance(cls, type) and issubclass(cls, type(base))):
        return base
    space = cls.__new__(cls)
    space.__dict__.update(base.__dict__)
    space.__dict__.update(attributes)
    return space


def _box(d: dict[str, Any]) -> spaces.Box:
    low, high = decode(d["low"]), decode(d["high"])
    return spaces.Box(low=low, high=high, shape=low.shape, dtype=np.dtype(d["dtype"]))


def _text(cls: type[spaces.Text]) -> Any:
    def build(d: dict[str, Any]) -> spaces.Text:
        if cls is UnicodeText:
            return UnicodeText(
                d["max_length"], min_length=d["min_length"], sample_alphabet=d["charset"]
            )
        return spaces.Text(d["max_length"], min_length=d["min_length"], charset=d["charset"])

    return build


_BUILDERS: dict[str, Any] = {
    "Discrete": lambda d: spaces.Discrete(d["n"], start=d["start"]),
    "Box": _box,
    "MultiDiscrete": lambda d: spaces.MultiDiscrete(
        decode(d["nvec"]), dtype=np.dtype(d["dtype"]), start=decode(d["start"])
    ),
    "MultiBinary": lambda d: spaces.MultiBinary(decode(d["n"])),
    "UnicodeText": _text(UnicodeText),
    "Text": _text(spaces.Text),
    "Dict": lambda d: spaces.Dict({key: build_space(sub) for key, sub in d["spaces"]}),
    "Tuple": lambda d: spaces.Tuple([build_space(sub) for sub in d["spaces"]]),
    "Sequence": lambda d: spaces.Sequence(build_space(d["space"]), stack=d["stack"]),
}
