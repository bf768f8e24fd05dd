"""Canonical key names as DevTools key events, and the chords kept from the browser."""

from __future__ import annotations

import pytest

from envsuite.families.gui.browser.browser_screen import browser_reserved, key_event, split_chord


@pytest.mark.parametrize(
    ("key", "modifiers", "name"),
    [
        ("tab", [], "tab"),
        ("shift+tab", ["shift"], "tab"),
        ("+", [], "+"),
        ("ctrl++", ["ctrl"], "+"),
    ],
)
def test_chords_split_into_modifiers_and_a_key(key, modifiers, name):
    assert split_chord(key) == (modifiers, name)


def test_key_events_carry_the_dom_key_and_the_modifier_bits():
    assert key_event("shift+tab") == {
        "key": "Tab",
        "code": "Tab",
        "windowsVirtualKeyCode": 9,
        "nativeVirtualKeyCode": 9,
        "modifiers": 8,
    }
    assert key_event("ctrl+alt+a")["key"] == "a" and key_event("ctrl+alt+a")["modifiers"] == 3
    assert key_event("space")["key"] == " " and key_event("é")["windowsVirtualKeyCode"] == 0


def test_only_tab_and_window_chords_are_kept_from_the_browser():
    assert browser_reserved("ctrl+w") and browser_reserved("ctrl+shift+w")
    assert browser_reserved("meta+q") and browser_reserved("ctrl+t")
    assert not browser_reserved("w") and not browser_reserved("shift+w")
    assert not browser_reserved("ctrl+a") and not browser_reserved("ctrl+backspace")
