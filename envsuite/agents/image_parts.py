"""Observations as OpenAI chat content: text parts, PNG image parts, small JSON.

An observation is text, an image, or a dict of named parts (text, images, small values).
:func:`observation_content` turns one into the ``content`` of a user message:

- a string is sent as it is (the message's content stays a plain string when no image
  takes part, exactly as before images were supported);
- an image is a ``uint8`` array of shape ``(H, W, 1)``, ``(H, W, 3)`` or ``(H, W, 4)``
  (what a Gymnasium ``Box`` image space holds; as Stable-Baselines3 decides, a 2-D array
  is not taken for an image, since boards and grids are often 2-D ``uint8``). It becomes an
  ``{"type": "image_url", "image_url": {"url": "data:image/png;base64,..."}}`` part, PNG
  encoded with Pillow within the caps of :class:`ImageLimits`: first scaled down so that
  its longer side is at most ``max_side``, then halved in area until its PNG is at most
  ``max_bytes``. An image that still does not fit at :data:`MIN_SIDE` pixels is replaced
  by a text part :data:`IMAGE_TOO_BIG` saying so, and the agent counts it; the episode
  goes on;
- a dict is sent part by part in its own key order: ``key: text`` lines, ``key:`` followed
  by the image part, and other values as below;
- any other value (numbers, short lists, small non-image arrays) is sent as compact JSON
  when that is at most :data:`MAX_JSON_CHARS` characters; a bigger one, or a numeric array
  of more than :data:`MAX_JSON_NUMBERS` numbers, is replaced by :data:`VALUE_TOO_BIG`
  (its shape and type, never its numbers). Pixels are never sent as JSON numbers.
"""

from __future__ import annotations

import base64
import dataclasses
import io
import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from envsuite.jsonable import canonical_json

#: Default cap on one image's PNG, in bytes (before base64, which adds a third).
MAX_IMAGE_BYTES = 1 << 20
#: Default cap on an image's longer side, in pixels.
MAX_IMAGE_SIDE = 1024
#: Smallest longer side an image is scaled down to before it is given up on.
MIN_SIDE = 8
#: Longest JSON text sent for a non-text, non-image value.
MAX_JSON_CHARS = 2000
#: Most numbers of an array sent as JSON (a bigger array is summarised).
MAX_JSON_NUMBERS = 256
#: Prefix of an image part's data URL.
PNG_DATA_URL_PREFIX = "data:image/png;base64,"
#: Text sent instead of an image that does not fit the caps.
IMAGE_TOO_BIG = (
    "[image of {width}x{height} pixels not sent: its PNG does not fit "
    "max_image_bytes={max_bytes} even scaled down to {min_side} pixels]"
)
#: Text sent instead of a value too big for JSON.
VALUE_TOO_BIG = "[{kind} not sent: too big to send as text]"
#: Text that stands in for an image dropped from the history (see the chat agent).
IMAGE_DROPPED = "[earlier image omitted]"

Part = dict[str, Any]
Content = str | list[Part]


@dataclasses.dataclass(frozen=True)
class ImageLimits:
    """Caps on the images of one message.

    Attributes:
        max_bytes: Largest PNG (before base64) sent for one image.
        max_side: Largest longer side, in pixels; bigger images are scaled down first.
    """

    max_bytes: int = MAX_IMAGE_BYTES
    max_side: int = MAX_IMAGE_SIDE

    def __post_init__(self) -> None:
        for name in ("max_bytes", "max_side"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"max_image_{name[4:]} must be an int >= 1, got {value!r}")


def is_image(value: Any) -> bool:
    """Whether ``value`` is an image: a non-empty ``uint8`` ``(H, W, 1 | 3 | 4)`` array."""
    if not isinstance(value, np.ndarray) or value.dtype != np.uint8 or value.size == 0:
        return False
    return value.ndim == 3 and value.shape[2] in (1, 3, 4)


def png_bytes(image: np.ndarray, limits: ImageLimits) -> bytes | None:
    """The PNG of ``image`` within ``limits``, scaled down as needed; None when it cannot fit."""
    from PIL import Image

    pixels = image[:, :, 0] if image.shape[2] == 1 else image
    picture = Image.fromarray(np.ascontiguousarray(pixels))
    height, width = pixels.shape[:2]
    scale = min(1.0, limits.max_side / max(width, height))
    while True:
        size = (max(1, round(width * scale)), max(1, round(height * scale)))
        # LANCZOS is deterministic for a given Pillow; shrinking only, never enlarging.
        # zlib level 6 (the default): level 9 is several times slower on noisy screens
        # for a few percent fewer bytes.
        shown = (
            picture if size == (width, height) else picture.resize(size, Image.Resampling.LANCZOS)
        )
        buffer = io.BytesIO()
        shown.save(buffer, format="PNG", optimize=False, compress_level=6)
        data = buffer.getvalue()
        if len(data) <= limits.max_bytes:
            return data
        if max(size) <= MIN_SIDE:
            return None
        # Halve the area (at least), never going below MIN_SIDE on the longer side.
        shrink = min(math.sqrt(limits.max_bytes / len(data)), math.sqrt(0.5))
        scale = max(scale * shrink, MIN_SIDE / max(width, height))


def image_part(image: np.ndarray, limits: ImageLimits) -> Part | None:
    """The ``image_url`` content part of ``image``; None when it cannot fit ``limits``."""
    data = png_bytes(image, limits)
    if data is None:
        return None
    url = PNG_DATA_URL_PREFIX + base64.b64encode(data).decode("ascii")
    return {"type": "image_url", "image_url": {"url": url}}


def text_part(text: str) -> Part:
    """A ``text`` content part."""
    return {"type": "text", "text": text}


def value_text(value: Any) -> str:
    """A non-text, non-image value as compact JSON, or a summary when it is too big."""
    if isinstance(value, np.ndarray):
        kind = f"array of shape {tuple(value.shape)} and dtype {value.dtype}"
        if value.size > MAX_JSON_NUMBERS:
            return VALUE_TOO_BIG.format(kind=kind)
    else:
        kind = f"value of type {type(value).__name__}"
    try:
        text = canonical_json(value)
    except (TypeError, ValueError):
        return VALUE_TOO_BIG.format(kind=kind)
    return text if len(text) <= MAX_JSON_CHARS else VALUE_TOO_BIG.format(kind=kind)


class _Builder:
    """Collects parts, merging neighbouring text into one part."""

    def __init__(self, limits: ImageLimits) -> None:
        self.limits = limits
        self.parts: list[Part] = []
        self.lines: list[str] = []
        self.images_sent = 0
        self.images_too_big = 0

    def text(self, line: str) -> None:
        self.lines.append(line)

    def image(self, image: np.ndarray) -> None:
        part = image_part(image, self.limits)
        if part is None:
            self.images_too_big += 1
            height, width = image.shape[:2]
            self.text(
                IMAGE_TOO_BIG.format(
                    width=width, height=height, max_bytes=self.limits.max_bytes, min_side=MIN_SIDE
                )
            )
            return
        self._flush()
        self.parts.append(part)
        self.images_sent += 1

    def value(self, value: Any, label: str | None) -> None:
        prefix = "" if label is None else f"{label}: "
        if isinstance(value, str):
            self.text(prefix + value)
        elif is_image(value):
            if label is not None:
                self.text(f"{label}:")
            self.image(value)
        elif isinstance(value, Mapping) and any(_holds_image(v) for v in value.values()):
            for key, inner in value.items():
                self.value(inner, str(key) if label is None else f"{label}.{key}")
        else:
            shown = value_text(value)
            self.text(prefix + shown if label is not None else f"Observation: {shown}")

    def _flush(self) -> None:
        if self.lines:
            self.parts.append(text_part("\n".join(self.lines)))
            self.lines = []

    def content(self) -> Content:
        if not self.images_sent:
            return "\n".join(self.lines)
        self._flush()
        return self.parts


def _holds_image(value: Any) -> bool:
    if is_image(value):
        return True
    return isinstance(value, Mapping) and any(_holds_image(v) for v in value.values())


@dataclasses.dataclass(frozen=True)
class BuiltContent:
    """A user message's content and what happened to its images.

    Attributes:
        content: A string (no image sent) or a list of text and image parts.
        images_sent: Images sent as image parts.
        images_too_big: Images replaced by :data:`IMAGE_TOO_BIG`.
    """

    content: Content
    images_sent: int = 0
    images_too_big: int = 0


def observation_content(
    observation: Any, info: Mapping[str, Any], limits: ImageLimits | None = None
) -> BuiltContent:
    """The user-message content for one observation (see the module docstring).

    When ``info`` lists ``legal_actions``, a last line ``Valid actions: a, b, c`` follows.
    """
    builder = _Builder(limits or ImageLimits())
    if isinstance(observation, Mapping) and (
        _holds_image(observation) or _is_text_dict(observation)
    ):
        for key, value in observation.items():
            builder.value(value, str(key))
    else:
        builder.value(observation, None)
    legal = info.get("legal_actions") if isinstance(info, Mapping) else None
    if legal:
        builder.text("Valid actions: " + ", ".join(str(action) for action in legal))
    return BuiltContent(builder.content(), builder.images_sent, builder.images_too_big)


def _is_text_dict(observation: Mapping[str, Any]) -> bool:
    """A dict holding some text: sent as ``key: value`` lines rather than one JSON blob."""
    return any(isinstance(value, str) for value in observation.values())


def content_text(content: Content) -> str:
    """The text of a message's content (its text parts joined by newlines)."""
    if isinstance(content, str):
        return content
    return "\n".join(
        part["text"]
        for part in content
        if isinstance(part, Mapping)
        and part.get("type") == "text"
        and isinstance(part.get("text"), str)
    )


def drop_images(content: Content, keep: int = 0) -> Content:
    """``content`` with all but its last ``keep`` image parts replaced by :data:`IMAGE_DROPPED`."""
    if isinstance(content, str):
        return content
    positions = [i for i, part in enumerate(content) if part.get("type") == "image_url"]
    dropped = set(positions[: len(positions) - keep])
    return [text_part(IMAGE_DROPPED) if i in dropped else part for i, part in enumerate(content)]


def count_images(content: Content) -> int:
    """How many image parts ``content`` holds."""
    if isinstance(content, str):
        return 0
    return sum(1 for part in content if part.get("type") == "image_url")
