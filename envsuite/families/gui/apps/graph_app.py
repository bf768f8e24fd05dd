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

from typing import Any, NamedTuple

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
#: Widest the "More" menu gets.
MENU_WIDTH = 168


def screen_id(screen: int) -> str:
    """Id of screen number ``screen``."""
    return f"s{screen}"


def screen_index(screen_id: str) -> int:
    """Number of the screen with id ``screen_id``."""
    return int(screen_id[1:])


class Target(NamedTuple):
    """A widget that does something: where it leads or what it sets.

    A named tuple: immutable, and cheap to make for every edge of every screen built.

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
        self._index: dict[str, Widget] = {}
        self._indexed: Screen | None = None
        self._leads_to: dict[str, int] = {}
        self._choosers: list[Target] = []
        super().__init__(screen_id(0))
        self.theme = graph.theme
        self.data.setdefault("settings", {})
        self.data.setdefault("pressed", [])

    # ----------------------------------------------------------------- building screens
    def build_screen(self, screen_id: str) -> Screen:
        """Screen ``screen_id`` as it looks on this visit.

        Also sets :attr:`plan`, :attr:`edges`, :attr:`settings` and :attr:`actions` for it.
        """
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
        top_items, panel_items = self._edge_widgets(out, plan, slots)
        self._control_widgets(screen_id, settings, actions, plan, panel_items[0])
        items = [*top_items, self._content(plan, panel_items)]
        dialogs = []
        popup = int(graph.popup[index])
        if self.distractors and popup:
            dialogs.append(self._popup(popup - 1))
        screen = Screen(
            self.width, self.height, title=graph.title(index), items=items, dialogs=dialogs
        )
        self._index = screen.tree().by_id  # ids are distinct (the screen checked)
        self._indexed = screen
        return screen

    def _edge_widgets(
        self, out: list[int], plan: ScreenPlan, slots: list[Slot]
    ) -> tuple[list[Widget], list[list[Widget]]]:
        """The toolbar and menu (top items) and each tab's edge widgets; sets :attr:`edges`."""
        graph, width = self.graph, self.width
        toolbar_y = 26 if graph.layout.toolbar == "top" else self.height - 26
        top_items: list[Widget] = []
        panel_items: list[list[Widget]] = [[] for _ in range(plan.panels)]
        rows: dict[int, list[tuple[int, int, int, Slot]]] = {}  # panel -> row, edge, target
        menu: list[tuple[int, int, int]] = []
        edges: list[Target | None] = [None] * len(out)
        for position, (target, slot) in enumerate(zip(out, slots, strict=True)):
            title = graph.title(target)
            element_id = f"go/{position}"
            if slot.kind == "toolbar":
                box = Rect(4 + 28 * slot.index, toolbar_y, 24, 24)
                top_items.append(Button(element_id, box, name=title, icon=graph.icon(target)))
                edges[position] = Target(element_id, "button", 0, "", slot, target)
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
                container = f"panel{slot.panel}"
                edges[position] = Target(element_id, "button", slot.panel, container, slot, target)
        for panel, entries in sorted(rows.items()):
            entries.sort()
            list_id = f"list{panel}"
            box = Rect(8, plan.panel_top, width - 28, ROW * len(entries))
            titles = [graph.title(target) for _, _, target, _ in entries]
            panel_items[panel].insert(
                0, ListBox(list_id, box, name="Sections", items=titles, item_height=ROW)
            )
            for row, position, target, slot in entries:
                edges[position] = Target(
                    f"{list_id}/{row}", "row", panel, f"panel{panel}", slot, target
                )
        if menu:
            menu.sort()
            # As wide as the top row leaves free (its entries are as wide as the box).
            icons = sum(1 for slot in slots if slot.kind == "toolbar")
            free = width - 8 - (28 * icons + 4 if graph.layout.toolbar == "top" else 0)
            menu_width = min(free, MENU_WIDTH)
            top_items.append(
                Dropdown(
                    MENU_ID,
                    Rect(width - 4 - menu_width, 27, menu_width, 22),
                    name="More",
                    options=[graph.title(target) for _, _, target in menu],
                    placeholder="More",
                )
            )
            for entry, position, target in menu:
                edges[position] = Target(
                    f"{MENU_ID}/{entry}", "option", 0, "", slots[position], target
                )
        self.edges = [edge for edge in edges if edge is not None]
        self._choosers = [edge for edge in self.edges if edge.kind in ("row", "option")]
        self._leads_to = {t.element_id: t.screen for t in self.edges if t.kind == "button"}
        return top_items, panel_items

    def _control_widgets(
        self,
        screen_id: str,
        settings: list[tuple[str, bool]],
        actions: list[str],
        plan: ScreenPlan,
        panel: list[Widget],
    ) -> None:
        """Add the settings and action buttons to the first tab's ``panel``."""
        self.settings, self.actions = {}, {}
        stored = self.data.get("settings", {})
        for k, ((name, default), slot) in enumerate(zip(settings, plan.settings, strict=True)):
            key = f"{screen_id}/{name}"
            box = self._row_rect(plan, slot, full=True)
            checked = stored.get(key, default)
            box = Rect(box.x, box.y + 2, box.width, 20)
            panel.append(Checkbox(f"set/{k}", box, name=name, checked=checked))
            self.settings[key] = Target(f"set/{k}", "checkbox", 0, "panel0", slot)
            self._setting_defaults[key] = default
        for k, (name, slot) in enumerate(zip(actions, plan.actions, strict=True)):
            box = self._row_rect(plan, slot, full=True)
            panel.append(Button(f"act/{k}", box, name=name, primary=True))
            self.actions[f"{screen_id}/{name}"] = Target(f"act/{k}", "button", 0, "panel0", slot)
        if not panel:
            box = Rect(8, plan.panel_top + 6, self.width - 28, 16)
            panel.append(Label("empty", box, text="Nothing here yet.", muted=True))

    def _content(self, plan: ScreenPlan, panel_items: list[list[Widget]]) -> Widget:
        """One scrolling viewport per tab; under a tab strip when there are several."""
        height = plan.visible_rows * ROW
        containers = [
            ScrollContainer(
                f"panel{panel}",
                Rect(4, plan.panel_top, self.width - 8, height),
                name=TAB_LABELS[panel] if plan.panels > 1 else "Content",
                items=items,
            )
            for panel, items in enumerate(panel_items)
        ]
        if plan.panels == 1:
            return containers[0]
        return Tabs(
            TABS_ID,
            Rect(0, CONTENT_TOP, self.width, TAB_STRIP_HEIGHT),
            name="Sections",
            labels=list(TAB_LABELS[: plan.panels]),
            panels=[[container] for container in containers],
        )

    def widget(self, element_id: str) -> Widget | None:
        """The shown screen's widget ``element_id`` (by an index made when it was built)."""
        if self.screen is self._indexed:
            return self._index.get(element_id)
        return self.screen.find(element_id)  # a backend replaced the screen object

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
        if element_id in self._leads_to:
            return screen_id(self._leads_to[element_id])
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
            widget = self.widget(target.element_id)
            if isinstance(widget, Checkbox):
                before = stored.get(key, self._setting_defaults[key])
                if widget.checked != before:
                    stored[key] = widget.checked

    def _chosen_screen(self) -> int | None:
        """The screen a selected list row or chosen menu entry leads to, if any."""
        for target in self._choosers:
            if target.kind == "row":
                list_id, row = target.element_id.split("/")
                widget = self.widget(list_id)
                if isinstance(widget, ListBox) and widget.selected == int(row):
                    return target.screen
            elif target.kind == "option":
                widget = self.widget(MENU_ID)
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
