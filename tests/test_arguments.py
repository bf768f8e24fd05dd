"""envsuite.arguments: canonical values back, or a ValueError naming the argument."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from envsuite.arguments import boolean, integer_in, one_of, point_in, real_in


@pytest.mark.parametrize("value", [1, 7, 1000, np.int64(7), np.int32(1), np.uint8(200)])
def test_integer_in_accepts_python_and_numpy_ints_and_returns_an_int(value):
    result = integer_in("frame_skip", value, 1, 1000)
    assert result == value and type(result) is int


@pytest.mark.parametrize(
    "value",
    [0, -5, 1001, 10**7, True, False, np.bool_(True), 10.0, np.float64(3), math.nan, math.inf,
     "10", None, [10], np.array([10])],
)  # fmt: skip
def test_integer_in_refuses_other_values_naming_the_argument_and_bounds(value):
    with pytest.raises(ValueError, match=r"^frame_skip must be an int in \[1, 1000\], got "):
        integer_in("frame_skip", value, 1, 1000)


def test_integer_in_gives_the_reason_for_its_bounds():
    with pytest.raises(ValueError, match=r"width must be an int in \[1, 640\] \(buffer\), got 641"):
        integer_in("width", 641, 1, 640, why="buffer")


def test_the_message_shows_the_value_given():
    with pytest.raises(ValueError) as caught:
        integer_in("frame_skip", 10**7, 1, 1000)
    assert str(caught.value) == "frame_skip must be an int in [1, 1000], got 10000000"


@pytest.mark.parametrize("value", [0.02, 0.1, 1e-9, np.float32(0.05), np.float64(0.1), np.int64(0)])
def test_real_in_accepts_python_and_numpy_numbers_and_returns_a_float(value):
    low_open = value != 0
    result = real_in("x", value, 0.0, 0.1, low_open=low_open)
    assert result == float(value) and type(result) is float


@pytest.mark.parametrize(
    "value", [0.0, 0.2, -1, True, np.bool_(True), math.nan, np.nan, math.inf, -math.inf, "0.05",
              None, 1j, [0.05], np.array([0.05])],
)  # fmt: skip
def test_real_in_refuses_other_values(value):
    with pytest.raises(ValueError, match=r"^x must be a number in \(0, 0.1\], got "):
        real_in("x", value, 0.0, 0.1, low_open=True)


def test_real_in_with_an_infinite_bound_still_refuses_infinity():
    assert real_in("penalty", 1e300, 0.0, math.inf) == 1e300
    for value in (math.inf, np.float64("inf"), -0.5):
        with pytest.raises(ValueError, match=r"penalty must be a number in \[0, inf\)"):
            real_in("penalty", value, 0.0, math.inf)


def test_real_in_open_upper_bound():
    with pytest.raises(ValueError, match=r"in \[0, 1\)"):
        real_in("x", 1.0, 0.0, 1.0, high_open=True)


@pytest.mark.parametrize("value", [True, False, np.bool_(True), np.bool_(False)])
def test_boolean_accepts_python_and_numpy_bools(value):
    result = boolean("goal_observable", value)
    assert result == bool(value) and type(result) is bool


@pytest.mark.parametrize("value", ["no", "False", "", 0, 1, 1.0, None, [], np.array([True])])
def test_boolean_refuses_truthy_and_falsy_non_bools(value):
    with pytest.raises(ValueError, match=r"^goal_observable must be a bool \(True or False\)"):
        boolean("goal_observable", value)


def test_one_of_returns_the_canonical_choice():
    assert one_of("reward_type", "dense", ("dense", "sparse")) == "dense"
    result = one_of("reward_type", np.str_("sparse"), ("dense", "sparse"))
    assert result == "sparse" and type(result) is str
    assert one_of("render_mode", None, (None, "rgb_array")) is None


@pytest.mark.parametrize(
    "value", ["shaped", "Dense", "", None, 0, b"dense", ["dense"], np.array(["dense"])]
)
def test_one_of_refuses_anything_else(value):
    with pytest.raises(ValueError, match=r"^reward_type must be one of 'dense', 'sparse', got "):
        one_of("reward_type", value, ("dense", "sparse"))


@pytest.mark.parametrize("value", [True, "2", None, math.nan, math.inf, -math.inf, [2.0]])
def test_real_in_refuses_non_numbers(value: Any) -> None:
    with pytest.raises(ValueError, match=r"^speed must be a number in \[0\.05, 20\] m/s, got"):
        real_in("speed", value, 0.05, 20.0, unit="m/s")


def test_real_in_accepts_python_and_numpy_numbers_and_checks_bounds() -> None:
    for value in (2, 2.0, np.int64(2), np.float32(2.0), np.float64(2.0)):
        result = real_in("speed", value, 0.05, 20.0)
        assert result == 2.0 and type(result) is float
    assert real_in("x", 0.0, 0.0, 1.0) == 0.0
    with pytest.raises(ValueError, match=r"x must be a number in \(0, 1\], got 0"):
        real_in("x", 0, 0.0, 1.0, low_open=True)
    with pytest.raises(ValueError, match=r"\[0, 1\)"):
        real_in("x", 1.0, 0.0, 1.0, high_open=True)


def test_integer_in() -> None:
    assert integer_in("n", np.int64(3), 1, 10) == 3
    for value in (True, 3.0, "3", None, 0, 11, np.float64(3.0)):
        with pytest.raises(ValueError, match=r"^n must be an int in \[1, 10\], got"):
            integer_in("n", value, 1, 10)


def test_point_in() -> None:
    assert point_in("p", (0, np.float32(1.0)), (-1, -1), (1, 1)) == (0.0, 1.0)
    for value in (None, "ab", (0,), (0, 2), (0, math.nan), (0, True)):
        with pytest.raises(ValueError, match=r"^p must be 2 numbers"):
            point_in("p", value, (-1, -1), (1, 1))
