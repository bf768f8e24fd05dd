from __future__ import annotations

import base64
import io

import numpy as np
import pytest
from PIL import Image

from envsuite.agents.image_parts import (
    IMAGE_DROPPED,
    PNG_DATA_URL_PREFIX,
    ImageLimits,
    content_text,
    drop_images,
    is_image,
    observation_content,
)


def _pixels(part: dict) -> np.ndarray:
    url = part["image_url"]["url"]
    assert url.startswith(PNG_DATA_URL_PREFIX)
    data = base64.b64decode(url.removeprefix(PNG_DATA_URL_PREFIX), validate=True)
    return np.asarray(Image.open(io.BytesIO(data)))


def _noise(height: int, width: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 256, (height, width, 3), dtype=np.uint8)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (np.zeros((4, 5, 3), np.uint8), True),
        (np.zeros((4, 5), np.uint8), False),  # a board, not a picture
        (np.zeros((4, 5, 1), np.uint8), True),
        (np.zeros((4, 5, 4), np.uint8), True),
        (np.zeros((4, 5, 2), np.uint8), False),
        (np.zeros((4, 5, 3), np.float32), False),
        (np.zeros((0, 5, 3), np.uint8), False),
        ([[1, 2]], False),
        ("text", False),
    ],
)
def test_what_counts_as_an_image(value, expected):
    assert is_image(value) is expected


def test_an_image_is_sent_as_a_lossless_png_part():
    image = _noise(12, 20)
    built = observation_content(image, {"legal_actions": ["up", "down"]})
    assert built.images_sent == 1 and built.images_too_big == 0
    first, second = built.content
    assert first["type"] == "image_url"
    assert np.array_equal(_pixels(first), image)
    assert second == {"type": "text", "text": "Valid actions: up, down"}


def test_a_grey_image_is_sent_grey():
    image = _noise(6, 7)[:, :, :1]
    (part,) = observation_content(image, {}).content
    assert np.array_equal(_pixels(part), image[:, :, 0])


def test_text_observations_stay_plain_strings():
    assert observation_content("hello", {}).content == "hello"
    assert observation_content("hello", {"legal_actions": [1]}).content == "hello\nValid actions: 1"


def test_a_long_image_is_scaled_to_max_side_keeping_its_aspect():
    built = observation_content(_noise(50, 400), {}, ImageLimits(max_side=100))
    (part,) = built.content
    assert _pixels(part).shape == (12, 100, 3)  # 50 * 100 / 400 = 12.5, rounded


def test_an_image_over_max_bytes_is_scaled_down_until_it_fits():
    limits = ImageLimits(max_bytes=6000)
    (part,) = observation_content(_noise(128, 128), {}, limits).content
    data = base64.b64decode(part["image_url"]["url"].removeprefix(PNG_DATA_URL_PREFIX))
    assert len(data) <= 6000
    height, width, _ = _pixels(part).shape
    assert height == width and 8 <= width < 128


def test_an_image_that_cannot_fit_becomes_a_clear_text():
    built = observation_content(_noise(64, 64), {}, ImageLimits(max_bytes=20))
    assert built.images_sent == 0 and built.images_too_big == 1
    assert isinstance(built.content, str)
    assert built.content.startswith("[image of 64x64 pixels not sent")
    assert "max_image_bytes=20" in built.content


def test_pixels_are_never_sent_as_json_numbers():
    big = np.arange(10_000, dtype=np.float32).reshape(100, 100)
    text = observation_content(big, {}).content
    assert text == (
        "Observation: [array of shape (100, 100) and dtype float32 not sent: "
        "too big to send as text]"
    )
    assert observation_content([1, 2], {}).content == "Observation: [1,2]"
    assert observation_content({"x": ["a" * 5000]}, {}).content.endswith("too big to send as text]")


def test_a_dict_of_text_and_images_keeps_its_order():
    screen = _noise(8, 8)
    built = observation_content({"goal": "click OK", "screen": screen, "step": 3}, {})
    text_before, image, text_after = built.content
    assert text_before == {"type": "text", "text": "goal: click OK\nscreen:"}
    assert np.array_equal(_pixels(image), screen)
    assert text_after == {"type": "text", "text": "step: 3"}
    assert content_text(built.content) == "goal: click OK\nscreen:\nstep: 3"


def test_a_dict_of_text_without_images_is_text_lines():
    assert observation_content({"board": "X.O", "turn": 2}, {}).content == "board: X.O\nturn: 2"


def test_drop_images_keeps_the_last_ones():
    parts = observation_content({"a": _noise(4, 4), "b": _noise(4, 4, 1)}, {}).content
    kept = drop_images(parts, keep=1)
    kinds = [p["type"] for p in kept]
    assert kinds == ["text", "text", "text", "image_url"]
    assert kept[1] == {"type": "text", "text": IMAGE_DROPPED}
    assert drop_images("plain", 0) == "plain"


@pytest.mark.parametrize("bad", [{"max_bytes": 0}, {"max_side": -1}, {"max_side": 1.5}])
def test_limits_refuse_nonsense(bad):
    with pytest.raises(ValueError, match="max_image_"):
        ImageLimits(**bad)
