import pytest

from envsuite.action_errors import InvalidAction
from envsuite.families.gui.keys import canonical_key


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Return", "enter"),
        ("Enter", "enter"),
        ("BackSpace", "backspace"),
        ("ArrowDown", "down"),
        ("Page_Down", "pagedown"),
        ("ctrl c", "ctrl+c"),
        ("Control+C", "ctrl+c"),
        ("shift+ctrl+Tab", "ctrl+shift+tab"),
        ("a", "a"),
        ("A", "A"),
        ("ctrl++", "ctrl++"),
        ("space", "space"),
    ],
)
def test_dialects_map_to_one_spelling(text, expected):
    assert canonical_key(text) == expected


@pytest.mark.parametrize("text", ["", "   ", "ctrl", "ctrl+shift", "a+b", "F13x", "x" * 41])
def test_bad_keys_raise_invalid_action(text):
    with pytest.raises(InvalidAction):
        canonical_key(text)
