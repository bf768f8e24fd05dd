"""The form layouts: rows that wrap, columns that close up, scatter without overlaps."""

from __future__ import annotations

import numpy as np
import pytest

from envsuite.families.gui.forms import layout
from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.theme import LIGHT

AREA = Rect(10, 10, 180, 100)


def _apart(rects):
    return all(a.intersection(b) is None for i, a in enumerate(rects) for b in rects[i + 1 :])


def test_flow_wraps_at_the_edge_and_keeps_inside():
    rects = layout.flow([70, 70, 70], AREA)
    assert [r.y for r in rects] == [10, 10, 10 + layout.ROW_HEIGHT + layout.GAP]
    assert all(r.right <= AREA.right for r in rects) and _apart(rects)


def test_column_closes_up_before_giving_up():
    roomy = layout.column([50] * 3, AREA)
    assert roomy[1].y - roomy[0].bottom == layout.GAP
    short = Rect(10, 10, 180, 80)  # 3 x 24 + 2 x 8 > 80: the gaps shrink to 4
    tight = layout.column([50] * 3, short)
    assert tight[-1].bottom <= short.bottom and tight[1].y - tight[0].bottom == 4
    with pytest.raises(ValueError):
        layout.column([50] * 4, short)


def test_scatter_keeps_widgets_apart_and_follows_the_generator():
    for seed in range(20):
        rects = layout.scatter([60, 50, 40], AREA, np.random.default_rng(seed))
        again = layout.scatter([60, 50, 40], AREA, np.random.default_rng(seed))
        assert rects == again and _apart(rects)
        assert all(
            AREA.x <= r.x and r.right <= AREA.right and r.bottom <= AREA.bottom for r in rects
        )


def test_scatter_falls_back_to_flow_when_crowded():
    crowded = layout.scatter([170] * 3, AREA, np.random.default_rng(0))
    assert crowded == layout.flow([170] * 3, AREA)


def test_labelled_fields_in_both_styles():
    labels = ["Name", "Password"]
    left = layout.labelled_fields(labels, AREA, LIGHT, "left")
    assert all(lab.y == field.y and lab.right <= field.x for lab, field in left)
    above = layout.labelled_fields(labels, AREA, LIGHT, "above")
    assert all(lab.bottom == field.y for lab, field in above)
    with pytest.raises(ValueError):
        layout.labelled_fields(labels * 3, AREA, LIGHT, "above")


def test_shifted_moves_everything_alike_inside_the_area():
    rects = layout.column([50, 60], AREA)
    moved = layout.shifted(rects, Rect(0, 0, 300, 300), np.random.default_rng(1))
    dx, dy = moved[0].x - rects[0].x, moved[0].y - rects[0].y
    assert all((m.x - r.x, m.y - r.y) == (dx, dy) for m, r in zip(moved, rects, strict=True))
