import hashlib

import numpy as np
import PIL
import pytest

from envsuite.families.gui.buttons import Icon
from envsuite.families.gui.dialog import Dialog
from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.icon_shapes import ICON_NAMES
from envsuite.families.gui.renderer import render_image, render_screen
from envsuite.families.gui.screen import Screen
from envsuite.families.gui.showcase import showcase_screen
from envsuite.families.gui.theme import DARK, LIGHT

#: Pixel hashes of the showcase pinned per Pillow version (rasterisation may differ
#: between versions; within one version it must never change).
GOLDEN = {
    "13.0.0": {
        "light": "9a856c5b434171e4e34e370b7d10e08879fb96c08f0601f7dd723f9e6b5667f5",
        "dark_dialog": "6bfd05a43850382da270031495ab7cb5cf02e6664ba3d35db07b62be67d59272",
    }
}


def _hash(frame: np.ndarray) -> str:
    return hashlib.sha256(frame.tobytes()).hexdigest()


def test_same_screen_same_pixels():
    first = render_screen(showcase_screen(), LIGHT)
    second = render_screen(showcase_screen(), LIGHT)
    assert first.shape == (256, 256, 3) and first.dtype == np.uint8
    assert _hash(first) == _hash(second)


def test_golden_hashes():
    golden = GOLDEN.get(PIL.__version__)
    if golden is None:
        pytest.skip(f"no golden hashes recorded for Pillow {PIL.__version__}")
    assert _hash(render_screen(showcase_screen(), LIGHT)) == golden["light"]
    assert _hash(render_screen(showcase_screen(with_dialog=True), DARK)) == golden["dark_dialog"]


def test_state_changes_change_pixels_and_themes_differ():
    screen = showcase_screen()
    before = render_screen(screen)
    screen.find("newsletter").checked = False
    after = render_screen(screen)
    changed = np.argwhere((before != after).any(axis=2))
    box = screen.find("newsletter").bounds
    # Only the checkbox's pixels changed.
    assert changed.size and all(box.contains(int(x), int(y)) for y, x in changed)
    assert _hash(render_screen(screen, DARK)) != _hash(after)
    assert tuple(render_screen(screen, DARK)[255, 0]) == DARK.background


def test_size_scaling():
    screen = showcase_screen()
    big = render_screen(screen, size=(512, 512))
    assert big.shape == (512, 512, 3)
    assert np.array_equal(big[::2, ::2], render_screen(screen))  # whole-number: pixels repeated
    assert render_screen(screen, size=(200, 120)).shape == (120, 200, 3)


def test_modal_dialog_dims_the_background():
    plain = render_screen(showcase_screen(), LIGHT)
    dimmed = render_screen(showcase_screen(with_dialog=True), LIGHT)
    corner = (250, 5)  # far from the dialog
    assert dimmed[corner].sum() < plain[corner].sum()


def test_scrolled_content_is_clipped_to_its_viewport():
    still = showcase_screen()
    still.items[0].switch(1)
    scrolled = showcase_screen()
    scrolled.items[0].switch(1)
    scrolled.find("inbox_scroll").scroll_by(0, 30)
    pane = still.find("inbox_scroll").bounds
    a, b = render_screen(still), render_screen(scrolled)
    # Outside the viewport nothing changes: the scrolled rows do not bleed out of it.
    outside = np.ones(a.shape[:2], dtype=bool)
    outside[pane.y : pane.bottom, pane.x : pane.right] = False
    assert np.array_equal(a[outside], b[outside])
    assert not np.array_equal(a[pane.y : pane.bottom], b[pane.y : pane.bottom])


@pytest.mark.parametrize("shape", ICON_NAMES)
def test_every_icon_draws_ink_and_differs(shape):
    frame = render_screen(Screen(32, 32, items=[Icon("i", Rect(4, 4, 24, 24), shape=shape)]))
    ink = (frame != np.array(LIGHT.background, dtype=np.uint8)).any(axis=2)
    assert 10 < ink.sum() < 24 * 24


def test_icons_are_distinct():
    frames = {
        _hash(render_screen(Screen(32, 32, items=[Icon("i", Rect(4, 4, 24, 24), shape=s)])))
        for s in ICON_NAMES
    }
    assert len(frames) == len(ICON_NAMES)


def test_sample_pngs_light_and_dark(tmp_path):
    screen = showcase_screen()
    screen.find("country").expanded = True
    light = render_image(screen, LIGHT, (512, 512))
    dark = render_image(showcase_screen(with_dialog=True), DARK, (512, 512))
    light.save(tmp_path / "light.png")
    dark.save(tmp_path / "dark.png")
    assert light.size == dark.size == (512, 512)


def test_closed_dialog_is_not_drawn():
    base = showcase_screen()
    closed = Screen(256, 256, title=base.title, items=base.items, focus_id="name")
    closed.dialogs.append(Dialog("d", Rect(20, 20, 100, 100), name="x", is_open=False))
    assert _hash(render_screen(closed)) == _hash(render_screen(showcase_screen()))
