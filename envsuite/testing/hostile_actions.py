"""Hostile action objects the conformance kit steps every env with.

Each is made fresh by a factory (some are consumed or changed by reading them). They attack
what an env does with an action before it understands it: comparing, hashing, iterating,
measuring, printing, converting, or reading keys, with overrides that raise (also
``BaseException`` subclasses and exceptions whose own ``__str__`` raises), objects that lie
about their class, a list that holds itself, nesting and size bombs. No ``step`` may raise
on any of them (see :mod:`envsuite.plain_actions`).

:data:`HOSTILE_JOINT_ACTIONS` attack a multi-agent env's ``actions`` mapping itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, NoReturn

import numpy as np


class HostileError(Exception):
    """Raised by every hostile override."""


class HostileBaseError(BaseException):
    """Raised by overrides that skip ``Exception`` (caught by ``except Exception`` nowhere)."""


class UnprintableError(Exception):
    """An exception whose own ``__str__`` and ``__repr__`` raise."""

    def __str__(self) -> str:
        raise HostileError("__str__ of the exception")

    def __repr__(self) -> str:
        raise HostileError("__repr__ of the exception")


def _boom(*args: Any, **kwargs: Any) -> NoReturn:
    raise HostileError("hostile override")


def _base_boom(*args: Any, **kwargs: Any) -> NoReturn:
    raise HostileBaseError("hostile override")


def _unprintable_boom(*args: Any, **kwargs: Any) -> NoReturn:
    raise UnprintableError()


_DUNDERS = (
    "__eq__",
    "__ne__",
    "__lt__",
    "__le__",
    "__gt__",
    "__ge__",
    "__hash__",
    "__len__",
    "__iter__",
    "__contains__",
    "__getitem__",
    "__str__",
    "__repr__",
    "__format__",
    "__bool__",
    "__int__",
    "__index__",
    "__float__",
    "__array__",
)


def _raising(base: type, name: str, raiser: Callable[..., NoReturn]) -> type:
    methods: dict[str, Any] = dict.fromkeys(_DUNDERS, raiser)
    for method in ("lower", "upper", "strip", "split", "keys", "items", "values", "get"):
        if hasattr(base, method):
            methods[method] = raiser
    if base is object:
        methods["__getattr__"] = raiser
    return type(name, (base,), methods)


RaisingObject = _raising(object, "RaisingObject", _boom)
RaisingStr = _raising(str, "RaisingStr", _boom)
RaisingInt = _raising(int, "RaisingInt", _boom)
RaisingFloat = _raising(float, "RaisingFloat", _boom)
RaisingBytes = _raising(bytes, "RaisingBytes", _boom)
RaisingList = _raising(list, "RaisingList", _boom)
RaisingTuple = _raising(tuple, "RaisingTuple", _boom)
RaisingDict = _raising(dict, "RaisingDict", _boom)
BaseRaisingObject = _raising(object, "BaseRaisingObject", _base_boom)
BaseRaisingStr = _raising(str, "BaseRaisingStr", _base_boom)
UnprintableRaisingObject = _raising(object, "UnprintableRaisingObject", _unprintable_boom)


class RaisingArray(np.ndarray):
    """A numpy array subclass whose item access, comparisons and conversions raise."""

    __getitem__ = _boom
    __eq__ = _boom
    __iter__ = _boom
    __len__ = _boom
    __float__ = _boom
    __int__ = _boom
    __bool__ = _boom


def _class_claiming(claimed: type) -> type:
    return type(f"Claims{claimed.__name__.title()}", (), {"__class__": property(lambda _: claimed)})


class ClassRaises:
    """An object whose ``__class__`` raises (so do ``isinstance`` checks on it)."""

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        raise HostileError("__class__")


class RecursingEquality:
    """Comparing or hashing it recurses until Python's recursion limit."""

    def __eq__(self, other: object) -> bool:
        return self == other

    def __hash__(self) -> int:
        return hash(self)


class ReturnsHostile:
    """Every method returns another hostile object instead of a value."""

    def __getattr__(self, name: str) -> Any:
        return lambda *args, **kwargs: RaisingObject()

    def __eq__(self, other: object) -> Any:
        return RaisingObject()

    __hash__ = object.__hash__


class HugeLength(list[Any]):
    """A list that claims to be longer than any index can be."""

    def __len__(self) -> int:
        return 2**70


def _self_holding_list() -> list[Any]:
    looped: list[Any] = []
    looped.append(looped)
    return looped


def _nested(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


def _generator() -> Iterator[int]:
    yield from range(3)


def _object_array() -> np.ndarray:
    array = np.empty(3, dtype=object)
    for index, item in enumerate((RaisingStr("a"), RaisingInt(1), RaisingObject())):
        array[index] = item
    return array


class EqualityRaisingStr(str):
    """A str subclass that hashes like its text but raises when compared."""

    __hash__ = str.__hash__
    __eq__ = _boom


#: (name, factory) of each hostile action.
HOSTILE_ACTIONS: tuple[tuple[str, Callable[[], Any]], ...] = (
    ("object whose every method raises", RaisingObject),
    ("str subclass whose methods raise", lambda: RaisingStr("0")),
    ("int subclass whose methods raise", lambda: RaisingInt(0)),
    ("float subclass whose methods raise", lambda: RaisingFloat(0.5)),
    ("bytes subclass whose methods raise", lambda: RaisingBytes(b"0")),
    ("list subclass whose methods raise", lambda: RaisingList([0, 0, 0, 0])),
    ("tuple subclass whose methods raise", lambda: RaisingTuple((0, 0))),
    ("dict subclass whose methods raise", lambda: RaisingDict(action=0)),
    ("dict with non-string keys", lambda: {1: 0, (2, 3): "x", None: 1.5, 4.5: b"y"}),
    ("dict with a hostile key", lambda: {EqualityRaisingStr("action"): 0}),
    ("object raising a BaseException", BaseRaisingObject),
    ("str subclass raising a BaseException", lambda: BaseRaisingStr("0")),
    ("object raising an unprintable exception", UnprintableRaisingObject),
    ("object claiming to be a str", lambda: _class_claiming(str)()),
    ("object claiming to be an int", lambda: _class_claiming(int)()),
    ("object whose __class__ raises", ClassRaises),
    ("equality that recurses forever", RecursingEquality),
    ("methods that return hostile objects", ReturnsHostile),
    ("list claiming 2**70 items", lambda: HugeLength([0, 0])),
    ("list that holds itself", _self_holding_list),
    ("list nested 100,000 deep", lambda: _nested(100_000)),
    ("list of 1,000,000 items", lambda: [0] * 1_000_000),
    ("dict of 200,000 items", lambda: {f"k{i}": i for i in range(200_000)}),
    ("generator", _generator),
    ("object array of hostile items", _object_array),
    ("array subclass whose methods raise", lambda: np.zeros(4).view(RaisingArray)),
    ("exception instance", lambda: UnprintableError()),
    ("class object", lambda: RaisingObject),
    ("function", lambda: _boom),
)

#: Of those, the ones no env can accept: they must set ``parse_error``.
HOSTILE_ALWAYS_WRONG = frozenset(
    name
    for name, _ in HOSTILE_ACTIONS
    if name
    not in {
        "str subclass whose methods raise",
        "int subclass whose methods raise",
        "float subclass whose methods raise",
        "bytes subclass whose methods raise",
        "list subclass whose methods raise",
        "tuple subclass whose methods raise",
        "str subclass raising a BaseException",
        "list claiming 2**70 items",
        "array subclass whose methods raise",
        "generator",
    }
)


class RaisingContains(dict[str, Any]):
    """The joint action of the issue: a dict subclass whose ``__contains__`` raises."""

    __contains__ = _boom


class RaisingLookup(dict[str, Any]):
    """A dict subclass whose item lookups raise."""

    __getitem__ = _boom
    get = _boom


class RaisingMapping(Mapping[str, Any]):
    """A ``Mapping`` (not a dict) whose every method raises."""

    __getitem__ = _boom
    __iter__ = _boom
    __len__ = _boom
    __contains__ = _base_boom


def _claims_dict() -> Any:
    return _class_claiming(dict)()


#: (name, factory taking the live agents and one valid-looking action per agent) of each
#: hostile joint action for Parallel envs' ``step``.
HOSTILE_JOINT_ACTIONS: tuple[tuple[str, Callable[[dict[str, Any]], Any]], ...] = (
    ("dict subclass whose __contains__ raises", lambda ok: RaisingContains(ok)),
    ("dict subclass whose lookups raise", lambda ok: RaisingLookup(ok)),
    ("Mapping whose every method raises", lambda ok: RaisingMapping()),
    ("object claiming to be a dict", lambda ok: _claims_dict()),
    ("object whose __class__ raises", lambda ok: ClassRaises()),
    ("dict with non-string keys", lambda ok: {1: 0, None: 0, (1, 2): 0}),
    ("dict of 200,000 unknown names", lambda ok: {**ok, **{f"x{i}": 0 for i in range(200_000)}}),
    ("dict holding hostile actions", lambda ok: dict.fromkeys(ok, RaisingObject())),
    ("dict holding itself", lambda ok: _self_holding_dict(ok)),
    ("list of the actions", lambda ok: list(ok.values())),
)


#: Of those, the ones that still carry every agent's valid action (unknown names are ignored).
HOSTILE_JOINT_ACCEPTED = frozenset({"dict of 200,000 unknown names"})


def _self_holding_dict(ok: dict[str, Any]) -> dict[str, Any]:
    looped: dict[str, Any] = {}
    for name in ok:
        looped[name] = looped
    return looped
