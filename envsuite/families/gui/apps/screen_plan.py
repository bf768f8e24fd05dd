"""Where a screen puts each of its edges, settings and actions, and what reaching each costs.

One function, :func:`plan_screen`, decides the slots from the screen's compact data and
the layout, and both the screen builder and the shortest-path planner read it, so the
planner's edge costs are the costs of the screen the agent sees:

- an icon in the toolbar: 1 action (click);
- an entry of the "More" menu: 2 (open the menu, click the entry);
- a row of the content: 1, plus 1 when its tab is not the first (click the tab), plus 1
  when it lies below the fold (one scroll brings any row into view).

Geometry (logical pixels): the title bar is 24 tall; the top row (y 26-50) holds the
toolbar when it is on top and the menu at its right end; content starts at y 52 (a tab
strip, when used, takes 26 of it); a bottom toolbar takes the last 28 pixels. Content
rows are :data:`ROW` tall, and the viewport holds a whole number of rows, so a row is
either wholly shown or wholly hidden on a fresh screen.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from envsuite.families.gui.apps.styles import Layout

#: Height of one content row in pixels.
ROW = 28
#: Top of the content area.
CONTENT_TOP = 52
#: Height of the tab strip.
TAB_STRIP = 26
#: Height reserved for a bottom toolbar.
BOTTOM_BAR = 28
#: A screen with more content edges than this moves the rest into its menu (menu layouts).
MENU_AFTER = 4
#: Most entries of a menu.
MENU_CAP = 4
#: Tabbed layouts put at most this many edges on a tab before opening another one.
TAB_AFTER = 4
#: Most tabs on a screen.
MAX_TABS = 3
#: Smallest screen the layouts fit.
MIN_WIDTH = 224
MIN_HEIGHT = 224


@dataclass(frozen=True)
class Slot:
    """Where one edge, setting or action sits.

    Attributes:
        kind: ``"toolbar"``, ``"menu"`` or ``"panel"``.
        index: Position in the toolbar or menu.
        panel: Tab index (0 without tabs).
        row: Content row within the panel.
        column: 0, or 1 for the right column of the grid style.
    """

    kind: str
    index: int = 0
    panel: int = 0
    row: int = 0
    column: int = 0


@dataclass(frozen=True)
class ScreenPlan:
    """Slots of one screen.

    Attributes:
        edges: One slot per out-edge, in the graph's order.
        settings: One slot per setting.
        actions: One slot per action button.
        panels: Number of tabs (1 means no tab strip).
        panel_top: Top of the panels' scrolling viewports.
        visible_rows: Rows each viewport shows at once.
        columns: Edges per row (2 for the grid style).
    """

    edges: tuple[Slot, ...]
    settings: tuple[Slot, ...]
    actions: tuple[Slot, ...]
    panels: int
    panel_top: int
    visible_rows: int
    columns: int

    def cost(self, slot: Slot) -> int:
        """Fewest actions that activate ``slot`` on a fresh screen."""
        if slot.kind == "toolbar":
            return 1
        if slot.kind == "menu":
            return 2
        return 1 + (slot.panel > 0) + (slot.row >= self.visible_rows)


def content_bottom(layout: Layout, height: int) -> int:
    """Bottom of the content viewport."""
    return height - 4 - (BOTTOM_BAR if layout.toolbar == "bottom" else 0)


@functools.lru_cache(maxsize=4096)
def plan_screen(
    layout: Layout,
    is_icon: tuple[bool, ...],
    settings: int,
    actions: int,
    height: int,
) -> ScreenPlan:
    """Slots for a screen whose out-edges lead to icon sections where ``is_icon`` is set.

    Args:
        layout: The app's layout.
        is_icon: Per out-edge, whether its target is reached by a toolbar icon.
        settings: Number of settings on the screen.
        actions: Number of action buttons on the screen.
        height: Screen height in pixels.
    """
    slots: list[Slot | None] = [None] * len(is_icon)
    content: list[int] = []
    icons = 0
    for position, icon in enumerate(is_icon):
        if icon:
            slots[position] = Slot("toolbar", index=icons)
            icons += 1
        else:
            content.append(position)
    if layout.menu and len(content) > MENU_AFTER:
        moved = min(len(content) - MENU_AFTER, MENU_CAP)
        for index, position in enumerate(content[len(content) - moved :]):
            slots[position] = Slot("menu", index=index)
        content = content[: len(content) - moved]
    panels = 1
    if layout.tabs and len(content) > TAB_AFTER:
        panels = min(MAX_TABS, -(-len(content) // TAB_AFTER))
    chunk = -(-len(content) // panels) if content else 0
    columns = 2 if layout.style == "grid" else 1
    for order, position in enumerate(content):
        panel, rank = divmod(order, chunk)
        row, column = divmod(rank, columns)
        slots[position] = Slot("panel", panel=panel, row=row, column=column)
    first_rows = -(-min(chunk, len(content)) // columns) if content else 0
    setting_slots = tuple(Slot("panel", row=first_rows + k) for k in range(settings))
    action_slots = tuple(Slot("panel", row=first_rows + settings + k) for k in range(actions))
    panel_top = CONTENT_TOP + (TAB_STRIP if panels > 1 else 0)
    visible = (content_bottom(layout, height) - panel_top) // ROW
    return ScreenPlan(
        tuple(s for s in slots if s is not None),
        setting_slots,
        action_slots,
        panels,
        panel_top,
        visible,
        columns,
    )


def edge_costs(
    layout: Layout,
    offsets: np.ndarray,
    to_icon: np.ndarray,
    height: int,
    source: np.ndarray | None = None,
) -> np.ndarray:
    """:meth:`ScreenPlan.cost` of every edge of a graph at once.

    A vectorised :func:`plan_screen` (a test checks the two agree).

    Args:
        layout: The app's layout.
        offsets: Compressed-row offsets of the edges by source screen.
        to_icon: Per edge, whether its target is reached by a toolbar icon.
        height: Screen height in pixels.
        source: Per edge, its source screen (computed from ``offsets`` when None).
    """
    if source is None:
        source = np.repeat(np.arange(len(offsets) - 1), offsets[1:] - offsets[:-1])
    content = ~to_icon
    before = np.concatenate(([0], np.cumsum(content)))  # content edges before each edge
    rank = before[:-1] - before[offsets[:-1]][source]  # ... of the same source
    total = before[offsets[1:]] - before[offsets[:-1]]  # content edges per screen
    moved = np.zeros_like(total)
    if layout.menu:
        moved = np.where(total > MENU_AFTER, np.minimum(total - MENU_AFTER, MENU_CAP), 0)
    kept = total - moved
    panels = np.ones_like(total)
    if layout.tabs:
        panels = np.where(kept > TAB_AFTER, np.minimum(MAX_TABS, -(-kept // TAB_AFTER)), 1)
    chunk = np.maximum(-(-kept // panels), 1)
    columns = 2 if layout.style == "grid" else 1
    bottom = content_bottom(layout, height)
    visible = np.where(
        panels > 1, (bottom - CONTENT_TOP - TAB_STRIP) // ROW, (bottom - CONTENT_TOP) // ROW
    )
    src_chunk = chunk[source]
    panel = rank // src_chunk
    row = (rank % src_chunk) // columns
    cost = 1 + (panel > 0) + (row >= visible[source])
    in_menu = content & (rank >= kept[source])
    cost = np.where(in_menu, 2, cost)
    return np.where(to_icon, 1, cost).astype(np.int64)
