"""Text drawn once per (string, size, face) and reused: the renderer's glyph cache.

Labels repeat from frame to frame, so each distinct string is rasterised once into an
8-bit coverage mask (Pillow's basic layout engine: no shaping library of the machine takes
part) and pasted through the mask in the colour wanted. Strings too wide for their box are
cut with an ellipsis by :func:`fit_text`.
"""

from __future__ import annotations

import functools
from typing import Any

from envsuite.families.gui.theme import BOLD_FONT, REGULAR_FONT

ELLIPSIS = "…"


@functools.cache
def font(size: int, bold: bool = False) -> Any:
    """The shipped DejaVu Sans face at ``size`` pixels."""
    from PIL import ImageFont

    path = BOLD_FONT if bold else REGULAR_FONT
    return ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.BASIC)


@functools.lru_cache(maxsize=8192)
def text_width(text: str, size: int, bold: bool = False) -> int:
    """Advance width of ``text`` in pixels."""
    return round(font(size, bold).getlength(text))


@functools.lru_cache(maxsize=4096)
def fit_text(text: str, width: int, size: int, bold: bool = False) -> str:
    """``text`` cut (with an ellipsis) to at most ``width`` pixels."""
    if text_width(text, size, bold) <= width:
        return text
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if text_width(text[:middle] + ELLIPSIS, size, bold) <= width:
            low = middle
        else:
            high = middle - 1
    return text[:low] + ELLIPSIS if low else ""


def line_height(size: int, bold: bool = False) -> int:
    """Ascent plus descent of the face."""
    ascent, descent = font(size, bold).getmetrics()
    return int(ascent + descent)


@functools.lru_cache(maxsize=8192)
def text_mask(text: str, size: int, bold: bool = False) -> Any:
    """An ``"L"`` image of ``text``'s coverage, one line tall (ascent plus descent)."""
    from PIL import Image, ImageDraw

    width = max(text_width(text, size, bold), 1) + 2
    image = Image.new("L", (width, line_height(size, bold)), 0)
    ImageDraw.Draw(image).text((0, 0), text, font=font(size, bold), fill=255)
    return image
