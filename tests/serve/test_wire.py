"""The wire format: exact round trips, and refusals of whatever is not a valid encoding."""

from __future__ import annotations

import math

import numpy as np
import pytest
from gymnasium import spaces

import envsuite
from envsuite.remote import wire
from envsuite.remote.actions import UNENCODABLE, encode_action, encode_joint_action
from envsuite.remote.space_wire import build_space, describe_space
from envsuite.spaces import UnicodeText
from envsuite.testing.logical_state import same

VALUES = [
    None,
    True,
    -(2**70),
    0.1,
    float("inf"),
    "héllo \udcff 😀",
    [1, [2, "x"]],
    (1, (2.5, None)),
    {"a": 1, "$b": 2},
    {1: "one", (2, 3): None},
    b"\x00\xffbytes",
    np.float32(0.25),
    np.int8(-3),
    np.bool_(True),
    np.arange(6, dtype=np.int16).reshape(2, 3),
    np.zeros((0, 4), dtype=np.float64),
    np.array([True, False]),
    np.arange(48, dtype=np.uint8).reshape(4, 4, 3),  # an image: PNG on the wire
    np.full((2, 3, 1), 7, dtype=np.uint8),
    {"text": "board", "image": np.ones((5, 6, 4), dtype=np.uint8) * 200},
]


@pytest.mark.parametrize("value", VALUES, ids=lambda v: type(v).__name__)
def test_values_round_trip_exactly(value) -> None:
    again = wire.decode(wire.loads(wire.dumps(wire.encode(value))))
    assert same(again, value)
    assert type(again) is type(value)
    if isinstance(value, np.ndarray):
        assert again.dtype == value.dtype and again.shape == value.shape


def test_nan_round_trips() -> None:
    assert math.isnan(wire.decode(wire.loads(wire.dumps(wire.encode(float("nan"))))))


def test_images_travel_as_png() -> None:
    image = np.arange(48, dtype=np.uint8).reshape(4, 4, 3)
    encoded = wire.encode(image)
    assert encoded["$image"][0].startswith("data:image/png;base64,")


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"$array": ["O", [1], [None]]}, "does not travel"),
        ({"$array": ["<f8", [3], [1.0, 2.0]]}, "has shape"),
        ({"$array": ["<f8", [10**6, 10**6], []]}, "more than"),
        ({"$array": ["<u1", [1], [300]]}, "does not fit"),
        ({"$scalar": ["<i1", 1000]}, "does not fit"),
        ({"$image": ["data:image/png;base64,AAAA", [1, 1, 3]]}, "not a readable PNG"),
        ({"$image": ["data:image/gif;base64,AAAA", [1, 1, 3]]}, "png"),
        ({"$tuple": [1], "x": 2}, "exactly one key"),
        ({"$pickle": "..."}, "unknown"),
        ({"$dict": [[[1], 2]]}, "not hashable"),
        ({"$bytes": "!!"}, "base64"),
    ],
)
def test_invalid_encodings_are_refused(data, words) -> None:
    with pytest.raises(wire.WireError, match=words):
        wire.decode(data)


def test_deep_nesting_is_refused() -> None:
    deep: list = []
    for _ in range(wire.MAX_DEPTH + 5):
        deep = [deep]
    with pytest.raises(wire.WireError, match="deeper"):
        wire.decode(deep)
    with pytest.raises(wire.WireError, match="JSON"):
        wire.loads("[" * 100_000 + "]" * 100_000)


def test_any_action_is_sent_never_raised() -> None:
    assert encode_action("blue") == "blue"
    assert UNENCODABLE in encode_action(object())
    assert UNENCODABLE in encode_action([0] * 1_000_000)  # more items than an action holds
    assert UNENCODABLE in encode_action(iter([1, 2]))


def test_joint_actions_are_read_agent_by_agent() -> None:
    class Hostile(dict):
        def __getitem__(self, key):
            raise RuntimeError("no")

    joint = encode_joint_action(Hostile(a=1, b=2), ["a", "b"])
    assert set(joint) == {"a", "b"} and all(UNENCODABLE in v for v in joint.values())
    assert encode_joint_action({"a": 1, "zzz": 2}, ["a", "b"]) == {"a": 1}
    assert encode_joint_action([1, 2], ["a"]) == [1, 2]


SPACES = [
    spaces.Discrete(5, start=-2),
    spaces.Box(low=-1.0, high=np.array([1.0, 2.0], dtype=np.float32), dtype=np.float32),
    spaces.Box(0, 255, (3, 4, 3), dtype=np.uint8),
    spaces.MultiDiscrete([3, 4]),
    spaces.MultiBinary(6),
    UnicodeText(100, min_length=1),
    spaces.Text(10, charset="xyz"),
    spaces.Dict({"board": spaces.Box(0, 1, (2,)), "text": UnicodeText(5)}),
    spaces.Tuple((spaces.Discrete(2), UnicodeText(3))),
]


@pytest.mark.parametrize("space", SPACES, ids=repr)
def test_spaces_round_trip(space) -> None:
    again = build_space(wire.loads(wire.dumps(describe_space(space))))
    assert again == space
    space.seed(3)
    again.seed(3)
    assert same(space.sample(), again.sample())


def test_an_envsuite_space_subclass_samples_as_in_process() -> None:
    local = envsuite.make("envsuite/SAT-v0").action_space
    again = build_space(describe_space(local))
    assert type(again) is type(local)
    local.seed(5)
    again.seed(5)
    assert [local.sample() for _ in range(3)] == [again.sample() for _ in range(3)]


def test_a_space_subclass_outside_envsuite_is_never_imported() -> None:
    described = {**describe_space(UnicodeText(4)), "class": "os:system", "attributes": {}}
    assert type(build_space(described)) is UnicodeText


def test_unknown_spaces_are_refused() -> None:
    with pytest.raises(wire.WireError, match="cannot be served"):
        describe_space(spaces.Graph(spaces.Discrete(2), None))
    with pytest.raises(wire.WireError, match="unknown"):
        build_space({"kind": "Nope"})
