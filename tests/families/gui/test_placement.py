from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.placement import focus_order, hit, place
from envsuite.families.gui.showcase import showcase_screen


def _by_id(screen):
    return {p.widget.element_id: p for p in place(screen)}


def test_scrolled_items_move_and_clip():
    screen = showcase_screen()
    screen.items[0].switch(1)
    pane = screen.find("inbox_scroll")
    pane.scroll_by(0, 40)
    placed = _by_id(screen)
    assert placed["inbox/0"].rect == Rect(8, 18, 228, 24)
    assert placed["inbox/0"].visible is None  # scrolled above the viewport
    assert placed["inbox/1"].visible == Rect(8, 58, 228, 8)  # cut at the viewport's top
    assert "name" not in placed  # the Profile panel is hidden


def test_modal_dialog_makes_the_screen_inert():
    screen = showcase_screen(with_dialog=True)
    placed = place(screen)
    by_id = {p.widget.element_id: p for p in placed}
    assert by_id["save"].inert and not by_id["discard"].inert
    assert hit(placed, *by_id["save"].rect.center) is None
    assert hit(placed, *by_id["discard"].rect.center).widget.element_id == "discard"
    assert [p.widget.element_id for p in focus_order(placed)] == [
        "confirm/close",
        "discard",
        "keep",
    ]


def test_open_dropdown_list_is_on_top():
    screen = showcase_screen()
    screen.find("country").expanded = True
    placed = place(screen)
    assert placed[-1].widget.element_id == "country/3"
    option = next(p for p in placed if p.widget.element_id == "country/2")
    # The list covers the radio group's area: the option wins the hit.
    assert hit(placed, *option.rect.center).widget.element_id == "country/2"
