"""A generated app: screens built on each visit from an :class:`~.graph.AppGraph`.

Edges appear as toolbar icons (to top-level sections), buttons, grid buttons, links or
list rows (by layout), entries of a "More" menu (a dropdown whose choice navigates) and
rows on further tabs; a screen also shows its settings (checkboxes, remembered in
:attr:`App.data` across visits) and action buttons (each press is recorded).

Distractors (opt-in): a screen with a pop-up shows it, modal, on every arrival (dismiss
it with either button, its close button, ``escape`` or ``back``); and every visit
reshuffles where things sit: the toolbar's order, the menu's order, and the rows within
each tab's shown part and within its hidden part (so a row never moves across the fold
and the fewest actions to reach it never change, but remembered pixels go stale).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from envsuite.families.gui.app import App
from envsuite.families.gui.apps.graph import AppGraph
from envsuite.families.gui.apps.screen_plan import (
    CONTENT_TOP,
    ROW,
    ScreenPlan,
    Slot,
    plan_screen,
)
from envsuite.families.gui.apps.vocabulary import POPUPS, TAB_LABELS
from envsuite.families.gui.buttons import Button, Link
from envsuite.families.gui.dialog import Dialog
from envsuite.families.gui.dropdown import Dropdown
from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.list_box import ListBox
from envsuite.families.gui.screen import Screen
from envsuite.families.gui.scroll_container import ScrollContainer
from envsuite.families.gui.tabs import Tabs
from envsuite.families.gui.toggles import Checkbox
from envsuite.families.gui.widget import Label, Widget

#: Element id of the menu dropdown, the tab strip and the distractor pop-up.
MENU_ID = "menu"
TABS_ID = "tabs"
POPUP_ID = "popup"
#: Height of the tab strip's tabs.
TAB_STRIP_HEIGHT = 24


def screen_id(screen: int) -> str:
    """Id of screen number ``screen``."""
    return f"s{screen}"


def screen_index(screen_id: str) -> int:
    """Number of the screen with id ``screen_id``."""
    return int(screen_id[1:])


@dataclass(frozen=True)
class Target:
    """A widget that does something: where it leads or what it sets.

    Attributes:
        element_id: What to click.
        kind: ``"button"`` (buttons, links, icons), ``"row"`` (a list row), ``"option"``
            (a menu entry) or ``"checkbox"``.
        panel: Its tab (0 when not on a tab, or in the toolbar or menu).
        container: Element id of its scrolling viewport, or "" outside one.
        slot: Its slot in the screen plan.
        screen: The screen it leads to (-1 for settings and actions).
    """

    element_id: str
    kind: str
    panel: int
    container: str
    slot: Slot
    screen: int = -1


class GraphApp(App):
    """An app drawn from a graph; screen ``"s0"`` is home.

    Args:
        graph: The app's compact data.
        width: Screen width in pixels.
        height: Screen height in pixels.
        distractors: Show pop-ups and reshuffle layouts between visits.

    Attributes:
        plan: The shown screen's slot plan.
        edges: The shown screen's navigation widgets, one per out-edge, graph order.
        settings: The shown screen's setting checkboxes, by ``"<screen>/<name>"`` key.
        actions: The shown screen's action buttons, by ``"<screen>/<name>"`` key.
    """

    def __init__(
        self, graph: AppGraph, width: int = 256, height: int = 256, distractors: bool = False
    ) -> None:
        self.graph = graph
        self.width = width
        self.height = height
        self.distractors = distractors
        self.plan: ScreenPlan
        self.edges: list[Target] = []
        self.settings: dict[str, Target] = {}
        self.actions: dict[str, Target] = {}
        self._setting_defaults: dict[str, bool] = {}
        super().__init__(screen_id(0))
        self.theme = graph.theme
        self.data.setdefault("settings", {})
        self.data.setdefault("pressed", [])

    # ----------------------------------------------------------------- building screens
    def build_screen(self, screen_id: str) -> Screen:
        """Screen ``screen_id`` as it looks on this visit."""
        graph, index = self.graph, screen_index(screen_id)
        out = graph.out(index)
        settings, actions = graph.settings(index), graph.actions(index)
        plan = plan_screen(
            graph.layout,
            tuple(target in graph.sections for target in out),
            len(settings),
            len(actions),
            self.height,
        )
        self.plan = plan
        shuffle = self._visit_rng(screen_id) if self.distractors else None
        slots = _shifted(plan, shuffle) if shuffle is not None else list(plan.edges)

        width = self.width
        toolbar_y = 26 if graph.layout.toolbar == "top" else self.height - 26
        top_items: list[Widget] = []
        panel_items: list[list[Widget]] = [[] for _ in range(plan.panels)]
        rows: dict[int, list[tuple[int, int, int, Slot]]] = {}  # panel -> row, edge, target
        menu: list[tuple[int, int, int]] = []
        self.edges = [None] * len(out)  # type: ignore[list-item]
        for position, (target, slot) in enumerate(zip(out, slots, strict=True)):
            title = graph.title(target)
            element_id = f"go/{position}"
            if slot.kind == "toolbar":
                top_items.append(
                    Button(
                        element_id,
                        Rect(4 + 28 * slot.index, toolbar_y, 24, 24),
                        name=title,
                        icon=graph.icon(target),
                    )
                )
                self.edges[position] = Target(element_id, "button", 0, "", slot, target)
            elif slot.kind == "menu":
                menu.append((slot.index, position, target))
            elif graph.layout.style == "rows":
                rows.setdefault(slot.panel, []).append((slot.row, position, target, slot))
            else:
                box = self._row_rect(plan, slot)
                widget: Widget
                if graph.layout.style == "links":
                    widget = Link(element_id, Rect(box.x, box.y + 2, box.width, 20), name=title)
                else:
                    widget = Button(element_id, box, name=title)
                panel_items[slot.panel].append(widget)
                self.edges[position] = Target(
                    element_id, "button", slot.panel, f"panel{slot.panel}", slot, target
                )
        for panel, entries in sorted(rows.items()):
            entries.sort()
            list_id = f"list{panel}"
            top = plan.panel_top
            panel_items[panel].insert(
                0,
                ListBox(
                    list_id,
                    Rect(8, top, width - 28, ROW * len(entries)),
                    name="Sections",
                    items=[graph.title(target) for _, _, target, _ in entries],
                    item_height=ROW,
                ),
            )
            for row, position, target, slot in entries:
                self.edges[position] = Target(
                    f"{list_id}/{row}", "row", panel, f"panel{panel}", slot, target
                )
        if menu:
            menu.sort()
            top_items.append(
                Dropdown(
                    MENU_ID,
                    Rect(width - 78, 27, 74, 22),
                    name="More",
                    options=[graph.title(target) for _, _, target in menu],
                    placeholder="More",
                )
            )
            for entry, position, target in menu:
                self.edges[position] = Target(
                    f"{MENU_ID}/{entry}", "option", 0, "", slots[position], target
                )

        self.settings, self.actions = {}, {}
        stored = self.data.get("settings", {})
        for k, ((name, default), slot) in enumerate(zip(settings, plan.settings, strict=True)):
            key = f"{screen_id}/{name}"
            box = self._row_rect(plan, slot, full=True)
            panel_items[0].append(
                Checkbox(
                    f"set/{k}",
                    Rect(box.x, box.y + 2, box.width, 20),
                    name=name,
                    checked=stored.get(key, default),
                )
            )
            self.settings[key] = Target(f"set/{k}", "checkbox", 0, "panel0", slot)
            self._setting_defaults[key] = default
        for k, (name, slot) in enumerate(zip(actions, plan.actions, strict=True)):
            panel_items[0].append(
                Button(f"act/{k}", self._row_rect(plan, slot, True), name=name, primary=True)
            )
            self.actions[f"{screen_id}/{name}"] = Target(f"act/{k}", "button", 0, "panel0", slot)
        if not panel_items[0]:
            panel_items[0].append(
                Label(
                    "empty",
                    Rect(8, plan.panel_top + 6, width - 28, 16),
                    text="Nothing here yet.",
                    muted=True,
                )
            )

        bottom = plan.panel_top + plan.visible_rows * ROW
        containers = [
            ScrollContainer(
                f"panel{panel}",
                Rect(4, plan.panel_top, width - 8, bottom - plan.panel_top),
                name=TAB_LABELS[panel] if plan.panels > 1 else "Content",
                items=items,
            )
            for panel, items in enumerate(panel_items)
        ]
        items: list[Widget] = list(top_items)
        if plan.panels > 1:
            items.append(
                Tabs(
                    TABS_ID,
                    Rect(0, CONTENT_TOP, width, TAB_STRIP_HEIGHT),
                    name="Sections",
                    labels=list(TAB_LABELS[: plan.panels]),
                    panels=[[container] for container in containers],
                )
            )
        else:
            items.append(containers[0])
        dialogs = []
        popup = int(graph.popup[index])
        if self.distractors and popup:
            dialogs.append(self._popup(popup - 1))
        return Screen(width, self.height, title=graph.title(index), items=items, dialogs=dialogs)

    def _row_rect(self, plan: ScreenPlan, slot: Slot, full: bool = False) -> Rect:
        """The box of a content slot (before scrolling); ``full`` spans both columns."""
        y = plan.panel_top + slot.row * ROW + 2
        whole = self.width - 28
        if plan.columns == 1 or full:
            return Rect(8, y, whole, 24)
        half = (whole - 6) // 2
        return Rect(8 + slot.column * (half + 6), y, half, 24)

    def _popup(self, kind: int) -> Dialog:
        title, message, confirm, dismiss = POPUPS[kind]
        width, middle = self.width - 40, self.height // 2
        left = 20
        return Dialog(
            POPUP_ID,
            Rect(left, middle - 55, width, 110),
            name=title,
            items=[
                Label(
                    f"{POPUP_ID}/text", Rect(left + 10, middle - 24, width - 20, 20), text=message
                ),
                Button(
                    f"{POPUP_ID}/no",
                    Rect(left + 10, middle + 14, (width - 30) // 2, 26),
                    name=dismiss,
                    dismisses=True,
                ),
                Button(
                    f"{POPUP_ID}/yes",
                    Rect(left + 20 + (width - 30) // 2, middle + 14, (width - 30) // 2, 26),
                    name=confirm,
                    primary=True,
                    dismisses=True,
                ),
            ],
        )

    def _visit_rng(self, screen_id: str) -> np.random.Generator:
        """The generator of this visit's layout shift (counts the visit)."""
        visits = self.data.setdefault("visits", {})
        visit = visits.get(screen_id, 0)
        visits[screen_id] = visit + 1
        sequence = np.random.SeedSequence(
            self.graph.seed, spawn_key=(screen_index(screen_id), visit)
        )
        return np.random.default_rng(sequence)

    # ----------------------------------------------------------------- reacting
    def on_event(self, kind: str, element_id: str) -> str | None:
        """A navigation button leads to its screen; an action button is recorded."""
        if kind != "activate":
            return None
        for target in self.edges:
            if target.element_id == element_id and target.kind == "button":
                return screen_id(target.screen)
        for key, target in self.actions.items():
            if target.element_id == element_id:
                self.data["pressed"].append(key)
        return None

    def after_action(self, events: list[tuple[str, str]], navigation: str | None) -> None:
        """Remember settings, follow a chosen list row or menu entry, then the base rules."""
        self._remember_settings()
        chosen = self._chosen_screen()
        if chosen is not None:
            self.go(screen_id(chosen))
            events = []
        super().after_action(events, navigation)

    def _remember_settings(self) -> None:
        stored: dict[str, bool] = self.data["settings"]
        for key, target in self.settings.items():
            widget = self.screen.find(target.element_id)
            if isinstance(widget, Checkbox):
                before = stored.get(key, self._setting_defaults[key])
                if widget.checked != before:
                    stored[key] = widget.checked

    def _chosen_screen(self) -> int | None:
        """The screen a selected list row or chosen menu entry leads to, if any."""
        for target in self.edges:
            if target.kind == "row":
                list_id, row = target.element_id.split("/")
                widget = self.screen.find(list_id)
                if isinstance(widget, ListBox) and widget.selected == int(row):
                    return target.screen
            elif target.kind == "option":
                widget = self.screen.find(MENU_ID)
                index = int(target.element_id.split("/")[1])
                if isinstance(widget, Dropdown) and widget.selected == index:
                    return target.screen
        return None

    def setting_value(self, key: str) -> bool:
        """Current value of setting ``"<screen id>/<name>"`` (its default until changed)."""
        stored: dict[str, Any] = self.data["settings"]
        if key in stored:
            return bool(stored[key])
        index = screen_index(key.split("/", 1)[0])
        name = key.split("/", 1)[1]
        return dict(self.graph.settings(index))[name]


def _shifted(plan: ScreenPlan, rng: np.random.Generator) -> list[Slot]:
    """The edges' slots, reshuffled within their groups (see the module docstring).

    Groups: the toolbar, the menu, and each tab's shown rows and its hidden rows.
    """
    slots = list(plan.edges)
    groups: dict[tuple, list[int]] = {}
    for position, slot in enumerate(slots):
        if slot.kind == "panel":
            key: tuple = ("panel", slot.panel, slot.row >= plan.visible_rows)
        else:
            key = (slot.kind,)
        groups.setdefault(key, []).append(position)
    for key in sorted(groups):
        members = groups[key]
        if len(members) < 2:
            continue
        order = rng.permutation(len(members)).tolist()
        places = [slots[members[k]] for k in order]
        for position, place in zip(members, places, strict=True):
            slots[position] = place
    return slots
