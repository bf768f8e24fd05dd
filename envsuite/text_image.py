"""Text drawn on an RGB image: the ``rgb_array`` frame of a text env.

Video recorders (Gymnasium's ``RecordVideo``, SB3's ``VecVideoRecorder``) and
vision-language agents want images; a text env's image is its ``ansi`` text drawn in a
fixed-width font that ships with envsuite (DejaVu Sans Mono, its licence beside it in
``envsuite/assets/fonts``), never a font of the machine, so the same text gives
byte-identical images wherever the same Pillow is installed.

The canvas has one size for every text (``columns`` x ``rows`` character cells, padded to
multiples of 16 pixels as video encoders want), so the frames of an episode can be
written to one video. Lines longer than ``columns`` wrap; a text with more lines than
``rows`` keeps its first and last lines around a marker saying how many were left out.
Tabs become spaces and characters that cannot be printed (control characters, lone
surrogates) become U+FFFD.
"""

from __future__ import annotations

import functools
import math
import textwrap
from pathlib import Path
from typing import Any

import numpy as np

#: The font every text frame is drawn in.
FONT_PATH = Path(__file__).resolve().parent / "assets" / "fonts" / "DejaVuSansMono.ttf"
#: Character cells per line and lines per frame.
COLUMNS = 100
ROWS = 48
#: Font size in pixels (each cell is 8 x 17 pixels at 14).
FONT_SIZE = 14
#: Margin around the text, in pixels.
PADDING = 8
#: Frame sides are multiples of this (video encoders work on 16-pixel macroblocks).
BLOCK = 16
BACKGROUND = (255, 255, 255)
FOREGROUND = (24, 24, 24)
#: Marker colour of the line that stands for the lines left out.
ELLIPSIS_COLOUR = (160, 32, 32)
#: What a character that cannot be printed is drawn as.
REPLACEMENT = "\ufffd"


@functools.cache
def _font(size: int) -> Any:
    from PIL import ImageFont

    # The basic layout engine: no shaping library of the machine takes part.
    return ImageFont.truetype(str(FONT_PATH), size, layout_engine=ImageFont.Layout.BASIC)


def _printable(line: str) -> str:
    return "".join(ch if ch.isprintable() else REPLACEMENT for ch in line.expandtabs(4))


def wrap_lines(text: str, columns: int = COLUMNS) -> list[str]:
    """The lines of ``text`` as drawn: tabs expanded, unprintables replaced, wrapped.

    Lines wrap after a space where one is near enough, and inside a word that is too
    long; every character is kept (the pieces of a line join back into it).
    """
    wrapper = textwrap.TextWrapper(
        width=columns,
        expand_tabs=False,
        replace_whitespace=False,
        drop_whitespace=False,
        break_on_hyphens=False,
    )
    lines: list[str] = []
    for line in text.splitlines() or [""]:
        lines.extend(wrapper.wrap(_printable(line)) or [""])
    return lines


def fit_lines(lines: list[str], rows: int = ROWS) -> tuple[list[str], int | None]:
    """At most ``rows`` lines: the first and last ones, with a marker between if some are cut.

    Returns:
        The lines to draw, and the index of the marker line (None when nothing was cut).
    """
    if len(lines) <= rows:
        return lines, None
    tail = (rows - 1) // 2
    head = rows - 1 - tail
    left_out = len(lines) - head - tail
    marker = f"[... {left_out} more lines ...]"
    return [*lines[:head], marker, *lines[len(lines) - tail :]], head


def frame_shape(
    columns: int = COLUMNS, rows: int = ROWS, font_size: int = FONT_SIZE
) -> tuple[int, int, int]:
    """``(height, width, 3)`` of every frame drawn with these settings."""
    font = _font(font_size)
    ascent, descent = font.getmetrics()
    width = 2 * PADDING + math.ceil(columns * font.getlength("M"))
    height = 2 * PADDING + rows * (ascent + descent)
    return (-(-height // BLOCK) * BLOCK, -(-width // BLOCK) * BLOCK, 3)


def text_image(
    text: str, columns: int = COLUMNS, rows: int = ROWS, font_size: int = FONT_SIZE
) -> np.ndarray:
    """``text`` drawn dark on white in DejaVu Sans Mono.

    Args:
        text: The text (any string; see the module docstring for what is drawn).
        columns: Character cells per line; longer lines wrap.
        rows: Lines per frame; a longer text keeps its first and last lines.
        font_size: Font size in pixels.

    Returns:
        A ``(height, width, 3)`` uint8 array whose shape depends on the settings alone
        (:func:`frame_shape`), never on the text.
    """
    from PIL import Image, ImageDraw

    font = _font(font_size)
    ascent, descent = font.getmetrics()
    height, width, _ = frame_shape(columns, rows, font_size)
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    lines, marker = fit_lines(wrap_lines(text, columns), rows)
    for index, line in enumerate(lines):
        colour = ELLIPSIS_COLOUR if index == marker else FOREGROUND
        draw.text((PADDING, PADDING + index * (ascent + descent)), line, font=font, fill=colour)
    return np.asarray(image, dtype=np.uint8).copy()
