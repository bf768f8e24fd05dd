"""Screenshots from the browser: the configured size, the theme's colours, the same layout.

Pixels differ from the Pillow renderer (Chromium rasterises text its own way), so the
checks are on what must agree: size, the colours of known areas, and an overall closeness
to the simulator's picture of the same screen. The pairs are saved under
``/tmp/envsuite-gui-browser`` (browser left, simulator right) for a person to look at.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from envsuite.families.gui.action_grammar import parse_gui_action
from envsuite.families.gui.renderer import render_screen
from envsuite.families.gui.showcase import showcase_screen
from envsuite.families.gui.theme import DARK, LIGHT

SHOTS = Path("/tmp/envsuite-gui-browser")


def save_pair(name: str, browser_shot: np.ndarray, sim_shot: np.ndarray) -> None:
    from PIL import Image

    SHOTS.mkdir(exist_ok=True)
    height = max(browser_shot.shape[0], sim_shot.shape[0])
    pair = np.full((height, browser_shot.shape[1] + sim_shot.shape[1] + 6, 3), 255, np.uint8)
    pair[: browser_shot.shape[0], : browser_shot.shape[1]] = browser_shot
    pair[: sim_shot.shape[0], browser_shot.shape[1] + 6 :] = sim_shot
    Image.fromarray(pair).save(SHOTS / f"{name}.png")


def close_enough(a: np.ndarray, b: np.ndarray) -> float:
    """Share of pixels whose colours differ by at most 40 in every channel."""
    return float((np.abs(a.astype(int) - b.astype(int)).max(axis=2) <= 40).mean())


@pytest.mark.parametrize("theme", [LIGHT, DARK], ids=["light", "dark"])
def test_the_showcase_looks_like_the_simulators(browser, theme):
    screen = showcase_screen()
    shot = browser.screenshot(screen, theme)
    sim = render_screen(screen, theme)
    save_pair(f"showcase-{theme.name}", shot, sim)
    assert shot.shape == sim.shape == (256, 256, 3) and shot.dtype == np.uint8
    assert tuple(shot[4, 200]) == theme.title_bar  # the title bar
    assert tuple(shot[240, 176]) == theme.accent  # inside the primary Save button
    assert tuple(shot[240, 100]) == theme.surface  # inside the Cancel button
    assert tuple(shot[210, 40]) == theme.background
    assert close_enough(shot, sim) > 0.9


def test_state_changes_show_in_the_screenshot(browser):
    screen = showcase_screen(with_dialog=True)
    sim = showcase_screen(with_dialog=True)
    shot = browser.screenshot(screen)
    save_pair("dialog", shot, render_screen(sim))
    assert close_enough(shot, render_screen(sim)) > 0.85
    # Behind the modal dialog the screen is dimmed by the scrim.
    assert shot[240, 100].sum() < sum(LIGHT.surface)
    for text in ["key(escape)", "click(country)"]:
        browser.perform(screen, parse_gui_action(text))
        from envsuite.families.gui.events import dispatch

        dispatch(sim, parse_gui_action(text))
    shot = browser.screenshot(screen)
    save_pair("dropdown-open", shot, render_screen(sim))
    assert tuple(shot[240, 100]) == LIGHT.surface  # the scrim went with the dialog
    assert close_enough(shot, render_screen(sim)) > 0.85
    # The open list is drawn over the radio group: its rows are on the surface colour.
    assert tuple(shot[147, 215]) == LIGHT.surface


def test_screenshots_come_at_the_configured_size(browser):
    screen = showcase_screen()
    big = browser.screenshot(screen, size=(512, 512))
    assert big.shape == (512, 512, 3)
    assert np.array_equal(big[::2, ::2], browser.screenshot(screen))  # whole-number: repeated
    assert browser.screenshot(screen, size=(200, 150)).shape == (150, 200, 3)


def test_icons_are_the_simulators_shapes(browser):
    from envsuite.families.gui.buttons import Button, Icon
    from envsuite.families.gui.geometry import Rect
    from envsuite.families.gui.icon_shapes import ICON_NAMES
    from envsuite.families.gui.screen import Screen

    items = [
        Icon(f"i{i}", Rect(8 + (i % 8) * 30, 8 + (i // 8) * 30, 20, 20), shape=name)
        for i, name in enumerate(ICON_NAMES)
    ]
    items += [
        Button(f"b{i}", Rect(8 + i * 40, 200, 36, 24), name=name, icon=name, enabled=i % 2 == 0)
        for i, name in enumerate(ICON_NAMES[:6])
    ]
    screen = Screen(256, 256, items=items)
    shot, sim = browser.screenshot(screen), render_screen(screen)
    save_pair("icons", shot, sim)
    icons = (slice(0, 8 + 30 * ((len(ICON_NAMES) + 7) // 8)), slice(0, 256))
    assert close_enough(shot[icons], sim[icons]) > 0.99  # the same masks, pixel for pixel
    assert close_enough(shot, sim) > 0.97
