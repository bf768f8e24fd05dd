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
surrogates) become U+FFFD; a character the font lacks (CJK, emoji) is its empty box.
Each character takes one cell: glyphs are drawn once and cached, and frames are put
together from them with numpy.
"""

from __future__ import annotations

import functools
import textwrap
from pathlib import Path
from typing import Any

import numpy as np

#: The font every text frame is drawn in.
FONT_PATH = Path(__file__).resolve().parent / "assets" / "fonts" / "DejaVuSansMono.ttf"
#: Character cells per line and lines per frame.
COLUMNS = 100
ROWS = 48
#: Font size in pixels (each cell is 8 x 18 pixels at 14).
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
#: Letters whose accents rise highest above the font's ascent, to make room for.
ACCENTED_CAPITALS = "ÀÁÂÃÄÅÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝ"


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


@functools.cache
def _headroom(font_size: int) -> int:
    """Pixels above the font's ascent that accented capitals reach (À, Å, ...)."""
    return max(0, -min(_font(font_size).getbbox(char)[1] for char in ACCENTED_CAPITALS))


def cell_size(font_size: int = FONT_SIZE) -> tuple[int, int]:
    """``(width, height)`` in pixels of one character cell (room for accents included)."""
    font = _font(font_size)
    ascent, descent = font.getmetrics()
    return round(font.getlength("M")), _headroom(font_size) + ascent + descent


def frame_shape(
    columns: int = COLUMNS, rows: int = ROWS, font_size: int = FONT_SIZE
) -> tuple[int, int, int]:
    """``(height, width, 3)`` of every frame drawn with these settings."""
    width, height = cell_size(font_size)
    return (
        -(-(2 * PADDING + rows * height) // BLOCK) * BLOCK,
        -(-(2 * PADDING + columns * width) // BLOCK) * BLOCK,
        3,
    )


@functools.lru_cache(maxsize=4096)
def _glyph(char: str, font_size: int) -> np.ndarray:
    """The ink (0 to 255) of ``char`` in its cell and the cells either side (it may overhang).

    Shape ``(cell height, 3, cell width)``: the left neighbour's cell, its own, the right's.
    """
    from PIL import Image, ImageDraw

    width, height = cell_size(font_size)
    image = Image.new("L", (3 * width, height), 0)
    ImageDraw.Draw(image).text((width, _headroom(font_size)), char, font=_font(font_size), fill=255)
    glyph = np.asarray(image, dtype=np.uint8).reshape(height, 3, width)
    glyph.flags.writeable = False
    return glyph


def _ink(lines: list[str], columns: int, rows: int, font_size: int) -> np.ndarray:
    """The ink of ``lines``, one character per cell, with one more cell either side.

    Shape ``(rows * cell height, (columns + 2) * cell width)``: the outer cells hold what
    the first and last characters of lines spill over. Each character is drawn once per
    font size (a cached glyph), and the ink is put together from glyphs with numpy.
    """
    chars = sorted({" ", *"".join(lines)})
    number = {char: index for index, char in enumerate(chars)}
    atlas = np.stack([_glyph(char, font_size) for char in chars])  # (glyphs, h, 3, w)
    grid = np.full((rows, columns + 4), number[" "], dtype=np.intp)  # two blank cells a side
    for row, line in enumerate(lines):
        grid[row, 2 : 2 + len(line)] = [number[char] for char in line]
    # A cell's ink: its own glyph's, and what its neighbours' glyphs spill into it.
    ink = np.maximum(atlas[grid[:, 1:-1], :, 1], atlas[grid[:, :-2], :, 2])
    np.maximum(ink, atlas[grid[:, 2:], :, 0], out=ink)  # (rows, columns + 2, h, w)
    width, height = cell_size(font_size)
    return ink.transpose(0, 2, 1, 3).reshape(rows * height, (columns + 2) * width)


@functools.cache
def _blend(colour: tuple[int, int, int]) -> np.ndarray:
    """The RGB pixel of every ink level (0 to 255) of ``colour`` on the background.

    Integer arithmetic, rounded, so the bytes never depend on floating point.
    """
    ink = np.arange(256, dtype=np.int32)[:, None]
    background = np.array(BACKGROUND, dtype=np.int32)
    shift = background - np.array(colour, dtype=np.int32)
    table = (background - (shift * ink + 127) // 255).astype(np.uint8)
    table.flags.writeable = False
    return table


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
    lines, marker = fit_lines(wrap_lines(text, columns), rows)
    ink = _ink(lines, columns, rows, font_size)
    text_pixels = np.take(_blend(FOREGROUND), ink, axis=0)  # a table look-up per pixel
    if marker is not None:
        _, cell_height = cell_size(font_size)
        band = slice(marker * cell_height, (marker + 1) * cell_height)
        text_pixels[band] = np.take(_blend(ELLIPSIS_COLOUR), ink[band], axis=0)
    frame = np.empty(frame_shape(columns, rows, font_size), dtype=np.uint8)
    frame[:] = BACKGROUND
    # The ink starts a cell left of the text; spill past the frame's edges is cut.
    cell_width, _ = cell_size(font_size)
    left = PADDING - cell_width
    cut = max(0, -left)
    right = min(frame.shape[1], left + ink.shape[1])
    frame[PADDING : PADDING + ink.shape[0], left + cut : right] = text_pixels[:, cut : right - left]
    return frame
