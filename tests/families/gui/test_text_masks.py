from envsuite.families.gui.text_masks import ELLIPSIS, fit_text, text_mask, text_width
from envsuite.families.gui.theme import DARK, LIGHT, THEMES


def test_fit_text_cuts_with_an_ellipsis():
    assert fit_text("Save", 100, 12) == "Save"
    cut = fit_text("A rather long label for a small button", 60, 12)
    assert cut.endswith(ELLIPSIS) and text_width(cut, 12) <= 60
    assert fit_text("Wide", 2, 12) == ""


def test_masks_are_cached_and_bold_is_wider():
    assert text_mask("Hello", 12) is text_mask("Hello", 12)
    assert text_width("Hello", 12, bold=True) > text_width("Hello", 12)
    assert text_mask("Hello", 12).getbbox() is not None


def test_shipped_themes():
    assert THEMES == {"light": LIGHT, "dark": DARK}
    assert sum(LIGHT.background) > sum(LIGHT.text) and sum(DARK.background) < sum(DARK.text)
