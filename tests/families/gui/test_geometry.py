from envsuite.families.gui.geometry import Rect


def test_contains_is_half_open():
    rect = Rect(10, 20, 5, 4)
    assert rect.contains(10, 20) and rect.contains(14, 23)
    assert not rect.contains(15, 20) and not rect.contains(10, 24) and not rect.contains(9, 20)


def test_intersection_and_touching():
    a = Rect(0, 0, 10, 10)
    assert a.intersection(Rect(5, 5, 10, 10)) == Rect(5, 5, 5, 5)
    assert a.intersection(Rect(10, 0, 5, 5)) is None  # touching rectangles share no pixel
    assert a.moved(3, -2) == Rect(3, -2, 10, 10)
    assert a.center == (5, 5) and a.box() == (0, 0, 9, 9) and a.as_list() == [0, 0, 10, 10]
