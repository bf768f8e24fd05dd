"""What a split may draw: themes, layouts, icons, graph topologies and depths.

Every axis is held out: the ``test`` split draws only values the ``train`` split never
draws (a test checks the sets are disjoint), so a policy trained on ``train`` meets new
icons, new colour schemes, new screen layouts, new graph shapes and deeper targets on
``test``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from envsuite.families.gui.theme import DARK, LIGHT, Theme


@dataclass(frozen=True)
class Layout:
    """How a screen presents its navigation edges.

    Args:
        name: Layout name.
        style: ``"stack"`` (full-width buttons), ``"grid"`` (buttons in two columns),
            ``"links"`` (a column of links) or ``"rows"`` (rows of a list; selecting one
            opens it).
        toolbar: ``"top"`` or ``"bottom"``: where the icon bar to the top-level sections
            sits.
        tabs: Screens with many edges spread them over tabs.
        menu: Screens with many edges put the last few in a "More" menu.
    """

    name: str
    style: str
    toolbar: str
    tabs: bool
    menu: bool


#: Layouts by split.
LAYOUTS: dict[str, tuple[Layout, ...]] = {
    "train": (
        Layout("stack-top", "stack", "top", tabs=False, menu=False),
        Layout("links-top-menu", "links", "top", tabs=False, menu=True),
        Layout("rows-top", "rows", "top", tabs=False, menu=False),
        Layout("stack-bottom-tabs", "stack", "bottom", tabs=True, menu=False),
        Layout("rows-bottom-menu", "rows", "bottom", tabs=False, menu=True),
    ),
    "test": (
        Layout("grid-top", "grid", "top", tabs=False, menu=False),
        Layout("grid-bottom-tabs-menu", "grid", "bottom", tabs=True, menu=True),
        Layout("links-bottom-tabs", "links", "bottom", tabs=True, menu=False),
    ),
}


def _variant(base: Theme, name: str, **changes: object) -> Theme:
    return replace(base, name=name, **changes)  # type: ignore[arg-type]


#: Themes by split (the two shipped themes and colour variants of them).
THEMES: dict[str, tuple[Theme, ...]] = {
    "train": (
        LIGHT,
        DARK,
        _variant(
            LIGHT, "ocean", accent=(13, 148, 136), title_bar=(15, 76, 92), link=(14, 116, 144)
        ),
        _variant(
            LIGHT,
            "forest",
            accent=(22, 163, 74),
            title_bar=(20, 83, 45),
            background=(240, 247, 240),
        ),
        _variant(DARK, "graphite", accent=(234, 88, 12), background=(28, 28, 30), radius=2),
    ),
    "test": (
        _variant(
            LIGHT,
            "rose",
            accent=(219, 39, 119),
            title_bar=(131, 24, 67),
            background=(253, 242, 248),
            radius=9,
        ),
        _variant(
            DARK, "midnight", accent=(147, 51, 234), background=(8, 8, 32), surface=(24, 24, 60)
        ),
        _variant(
            LIGHT,
            "contrast",
            background=(255, 255, 255),
            text=(0, 0, 0),
            border=(0, 0, 0),
            accent=(0, 0, 0),
            title_bar=(0, 0, 0),
            radius=0,
        ),
    ),
}

#: Icons (and so section names) by split.
ICONS: dict[str, tuple[str, ...]] = {
    "train": ("settings", "user", "mail", "bell", "star", "calendar", "search"),
    "test": ("heart", "lock", "trash", "check", "plus"),
}

#: Graph topologies by split (see :mod:`~envsuite.families.gui.apps.graph`).
TOPOLOGIES: dict[str, tuple[str, ...]] = {
    "train": ("tree", "tree_cross", "hub"),
    "test": ("chain", "grid"),
}

#: Depths (levels below the home screen; the target sits on the deepest) by split.
DEPTHS: dict[str, tuple[int, ...]] = {
    "train": (2, 3, 4),
    "test": (5, 6, 7),
}
