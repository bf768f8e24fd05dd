"""The Pillow renderer: a screen and a theme in, an RGB numpy array out.

Deterministic: the same screen, theme and size give byte-identical pixels (integer
geometry, bundled fonts, Pillow's basic text layout, no anti-aliasing that depends on
the machine). Fast: text is rasterised once per distinct string
(:mod:`~envsuite.families.gui.text_masks`), widgets are drawn straight onto one image,
and only a widget cut by a scrolling container's edge goes through a scratch image.

Drawing order follows :func:`~envsuite.families.gui.placement.place`: the screen's title
bar, its widgets, a dimming scrim when a modal dialog is open, dialogs, then open dropdown
lists. Scroll bars are drawn over a container's items once they are all drawn.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.painters import draw_text, painter_for, scroll_bars
from envsuite.families.gui.placement import Placed, place
from envsuite.families.gui.screen import Screen
from envsuite.families.gui.scroll_container import ScrollContainer
from envsuite.families.gui.theme import LIGHT, Theme


def render_screen(
    screen: Screen, theme: Theme = LIGHT, size: tuple[int, int] | None = None
) -> np.ndarray:
    """Draw ``screen`` in ``theme``.

    Args:
        screen: What to draw.
        theme: Colours, fonts and sizes.
        size: ``(width, height)`` of the picture; the screen's own size when None.
            Another size scales the drawn screen (pixels repeated for whole-number
            enlargements, bilinear otherwise), so clicks stay in the screen's logical
            pixels.

    Returns:
        A ``(height, width, 3)`` uint8 array.
    """
    return np.asarray(render_image(screen, theme, size))


def render_image(screen: Screen, theme: Theme = LIGHT, size: tuple[int, int] | None = None) -> Any:
    """:func:`render_screen` as a Pillow ``Image`` (for saving as PNG)."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (screen.width, screen.height), theme.background)
    draw = ImageDraw.Draw(image)
    if screen.title:
        bar = Rect(0, 0, screen.width, theme.screen_title_height)
        draw.rectangle(bar.box(), fill=theme.title_bar)
        draw_text(
            image, 8, bar, screen.title, theme.title_text, theme, bold=True, size=theme.title_size
        )
    placed = place(screen)
    scrim_done = False
    open_containers: list[Placed] = []
    for item in placed:
        while open_containers and open_containers[-1].depth >= item.depth:
            _finish_container(draw, open_containers.pop(), theme)
        if not item.inert and not scrim_done and any(p.inert for p in placed):
            while open_containers:
                _finish_container(draw, open_containers.pop(), theme)
            image = _dim(image, theme)
            draw = ImageDraw.Draw(image)
            scrim_done = True
        if item.visible is not None:
            focused = screen.focus_id == item.widget.element_id and not item.inert
            _paint(image, draw, item, theme, focused)
        if isinstance(item.widget, ScrollContainer):
            open_containers.append(item)
    while open_containers:
        _finish_container(draw, open_containers.pop(), theme)
    if size is not None and (size[0], size[1]) != image.size:
        # Whole-number enlargements copy pixels (crisp and cheap); other sizes blend.
        whole = size[0] % screen.width == 0 and size[1] % screen.height == 0
        method = Image.Resampling.NEAREST if whole else Image.Resampling.BILINEAR
        image = image.resize((size[0], size[1]), method)
    return image


def _paint(image: Any, draw: Any, item: Placed, theme: Theme, focused: bool) -> None:
    """Paint one widget, through a scratch image when part of it is clipped away."""
    painter = painter_for(item.widget)
    visible = item.visible
    assert visible is not None
    if visible == item.rect:
        painter(draw, image, item.rect, item.widget, theme, focused)
        return
    from PIL import ImageDraw

    # Paint at the origin of a copy of the pixels under it (plus a margin for focus rings),
    # then paste back only the visible part.
    margin = 2
    area = Rect(
        item.rect.x - margin,
        item.rect.y - margin,
        item.rect.width + 2 * margin,
        item.rect.height + 2 * margin,
    )
    scratch = image.crop((area.x, area.y, area.right, area.bottom))
    local = Rect(margin, margin, item.rect.width, item.rect.height)
    painter(ImageDraw.Draw(scratch), scratch, local, item.widget, theme, focused)
    window = (
        visible.x - area.x,
        visible.y - area.y,
        visible.right - area.x,
        visible.bottom - area.y,
    )
    image.paste(scratch.crop(window), (visible.x, visible.y))


def _finish_container(draw: Any, item: Placed, theme: Theme) -> None:
    """Draw a scrolling container's border and scroll bars over its items."""
    if item.visible is None:
        return
    assert isinstance(item.widget, ScrollContainer)
    draw.rectangle(item.rect.box(), outline=theme.border)
    scroll_bars(draw, item.rect, item.widget, theme)


def _dim(image: Any, theme: Theme) -> Any:
    """``image`` blended towards the theme's scrim colour (behind a modal dialog)."""
    return image.point(_scrim_table(theme.scrim, theme.scrim_alpha))


@functools.cache
def _scrim_table(scrim: tuple[int, int, int], alpha: int) -> list[int]:
    """Per-channel look-up table of the blend, in integers (no floating point)."""
    return [
        (value * (255 - alpha) + channel * alpha + 127) // 255
        for channel in scrim
        for value in range(256)
    ]
