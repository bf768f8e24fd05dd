"""Themes: colours, sizes and fonts of everything drawn; a light and a dark one ship.

Fonts are DejaVu Sans and DejaVu Sans Bold from ``envsuite/assets/fonts`` (licence beside
them), never a font of the machine, so a screen gives the same pixels wherever the same
Pillow is installed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

Colour = tuple[int, int, int]

FONT_DIR = Path(__file__).resolve().parents[2] / "assets" / "fonts"
#: The regular and bold faces every theme draws text in.
REGULAR_FONT = FONT_DIR / "DejaVuSans.ttf"
BOLD_FONT = FONT_DIR / "DejaVuSans-Bold.ttf"


@dataclass(frozen=True)
class Theme:
    """How a screen looks.

    Args:
        name: Theme name (splits hold some out).
        background: The screen behind everything.
        surface: Fields, lists, dialogs and buttons.
        text: Main text.
        muted_text: Placeholders, disabled labels, secondary text.
        border: Outlines of fields, boxes and lists.
        accent: Primary buttons, ticks, the selected tab's bar, selection.
        accent_text: Text on the accent colour.
        link: Link text (unvisited).
        visited_link: Link text once followed.
        focus: Keyboard focus ring.
        selection: Background of selected rows and options.
        title_bar: The screen's and dialogs' title bars.
        title_text: Text on title bars.
        scrim: Colour the screen is blended towards behind a modal dialog.
        scrim_alpha: How far, 0 to 255.
        font_size: Text size in pixels.
        title_size: Title bar text size.
        radius: Corner radius of buttons and fields.
        screen_title_height: Height of the screen's title bar.
    """

    name: str
    background: Colour
    surface: Colour
    text: Colour
    muted_text: Colour
    border: Colour
    accent: Colour
    accent_text: Colour
    link: Colour
    visited_link: Colour
    focus: Colour
    selection: Colour
    title_bar: Colour
    title_text: Colour
    scrim: Colour
    scrim_alpha: int = 110
    font_size: int = 12
    title_size: int = 13
    radius: int = 4
    screen_title_height: int = 24


LIGHT = Theme(
    name="light",
    background=(243, 244, 246),
    surface=(255, 255, 255),
    text=(17, 24, 39),
    muted_text=(107, 114, 128),
    border=(156, 163, 175),
    accent=(37, 99, 235),
    accent_text=(255, 255, 255),
    link=(29, 78, 216),
    visited_link=(109, 40, 217),
    focus=(245, 158, 11),
    selection=(219, 234, 254),
    title_bar=(31, 41, 55),
    title_text=(249, 250, 251),
    scrim=(0, 0, 0),
)

DARK = Theme(
    name="dark",
    background=(17, 24, 39),
    surface=(31, 41, 55),
    text=(243, 244, 246),
    muted_text=(156, 163, 175),
    border=(107, 114, 128),
    accent=(59, 130, 246),
    accent_text=(255, 255, 255),
    link=(96, 165, 250),
    visited_link=(196, 181, 253),
    focus=(251, 191, 36),
    selection=(30, 64, 175),
    title_bar=(3, 7, 18),
    title_text=(243, 244, 246),
    scrim=(0, 0, 0),
    scrim_alpha=140,
)

#: The shipped themes by name.
THEMES: dict[str, Theme] = {theme.name: theme for theme in (LIGHT, DARK)}
