"""navigate-tree: open folders of a file tree to find and click the named file or folder.

Instance: 2 to 4 top-level entries; an entry above the third level is a folder with
probability one half, holding 2 or 3 entries; folders are capitalised words, files words
with an extension, all from the split's pool; one target anywhere in the tree. Entries
are links (a folder's name after its open / closed mark). Every folder starts closed.
Activating a folder opens or closes it (its entries show indented below it); the tree
scrolls when it grows past the screen. Train indents by 14 pixels and
marks folders with a triangle; test indents by 22 and marks them with a ``+`` / ``-``.

Success: the target is activated. Failure: another file is activated first (opening
folders is never wrong). Fewest steps: the target's depth (folders to open) plus one: the
rows the path opens (at most 10) always show in the viewport, on screens down to 200
pixels tall. Distinct instances: tree shapes x C(162, 4..40)
names: far beyond 10^5.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from envsuite.families.gui.actions import GuiAction
from envsuite.families.gui.buttons import Link
from envsuite.families.gui.forms import layout
from envsuite.families.gui.forms.form_task import FormTask
from envsuite.families.gui.forms.vocabulary import WORDS, pool
from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.screen import Screen
from envsuite.families.gui.scroll_container import ScrollContainer
from envsuite.families.gui.task import Goal, Outcome
from envsuite.families.gui.widget import Widget

#: Height of a tree row.
ROW = 18
#: File name endings.
EXTENSIONS = (".txt", ".pdf", ".png", ".doc", ".csv", ".mp3")


@dataclass
class Node:
    """An entry of the tree: a folder (with children) or a file."""

    name: str
    path: tuple[int, ...]
    folder: bool
    children: list[Node] = field(default_factory=list)

    @property
    def element_id(self) -> str:
        """``node-<i>-<j>-...`` from the path."""
        return "node-" + "-".join(map(str, self.path))


class NavigateTree(FormTask):
    """Find and click the named entry of a file tree (MiniWoB++ ``navigate-tree``)."""

    name: ClassVar[str] = "navigate-tree"
    held_out_fields: ClassVar[tuple[str, ...]] = ("name",)
    layout_shifts: ClassVar[bool] = False
    layouts: ClassVar[dict[str, tuple[str, ...]]] = {"train": ("triangles",), "test": ("signs",)}

    def generate(self, rng: np.random.Generator) -> None:
        """The tree and the target."""
        words = list(pool(WORDS, self.split))
        order = [int(i) for i in rng.permutation(len(words))]
        names = iter(words[i] for i in order)

        def make(path: tuple[int, ...]) -> Node:
            folder = len(path) < 3 and rng.random() < 0.5
            word = next(names)
            if folder:
                node = Node(word.capitalize(), path, True)
                node.children = [make((*path, i)) for i in range(int(rng.integers(2, 4)))]
                return node
            return Node(word + EXTENSIONS[int(rng.integers(len(EXTENSIONS)))], path, False)

        self.roots = [make((i,)) for i in range(int(rng.integers(2, 5)))]
        nodes = self.all_nodes()
        self.target = nodes[int(rng.integers(len(nodes)))]
        kind = "folder" if self.target.folder else "file"
        self.goal = Goal(
            f'Navigate through the file tree. Find and click on the {kind} "{self.target.name}".',
            {"name": self.target.name},
        )
        self.optimal_steps = len(self.target.path)

    def all_nodes(self) -> list[Node]:
        """Every entry, depth first."""
        out: list[Node] = []
        stack = list(reversed(self.roots))
        while stack:
            node = stack.pop()
            out.append(node)
            stack.extend(reversed(node.children))
        return out

    def _opened(self) -> list[str]:
        return list(self.app_data().get("open", []))

    def _rows(self, area: Rect) -> list[Widget]:
        opened = set(self._opened())
        indent = 14 if self.layout == "triangles" else 22
        rows: list[Widget] = []

        def add(node: Node) -> None:
            depth = len(node.path) - 1
            x = area.x + 4 + depth * indent
            rect = Rect(x, area.y + 2 + len(rows) * ROW, area.width - 16 - depth * indent, ROW - 2)
            if node.folder:
                is_open = node.element_id in opened
                if self.layout == "triangles":
                    mark = "▾" if is_open else "▸"
                else:
                    mark = "-" if is_open else "+"
                label = f"{mark} {node.name}"
                width = layout.label_width(label, self.theme)
                rows.append(Link(node.element_id, Rect(x, rect.y, width, rect.height), name=label))
                if is_open:
                    for child in node.children:
                        add(child)
            else:
                width = layout.label_width(node.name, self.theme)
                rows.append(
                    Link(
                        node.element_id,
                        Rect(rect.x + 12, rect.y, width, rect.height),
                        name=node.name,
                    )
                )

        for root in self.roots:
            add(root)
        return rows

    def _tree(self, scroll_y: int = 0) -> ScrollContainer:
        area = layout.content_area(self.width, self.height, self.theme, False)
        return ScrollContainer(
            "tree", area, name="Files", items=self._rows(area), scroll_y=scroll_y
        )

    def build_screen(self, screen_id: str) -> Screen:
        """The tree in a scrolling pane."""
        return Screen(self.width, self.height, items=[self._tree()])

    def on_event(self, kind: str, element_id: str) -> str | None:
        """A folder opens or closes."""
        node = next((n for n in self.all_nodes() if n.element_id == element_id), None)
        if kind != "activate" or node is None or not node.folder:
            return None
        opened = self._opened()
        if element_id in opened:
            opened.remove(element_id)
        else:
            opened.append(element_id)
        self.app.data["open"] = sorted(opened)
        old = self.app.screen.find("tree")
        self.app.screen.items = [
            self._tree(old.scroll_y if isinstance(old, ScrollContainer) else 0)
        ]
        self.mark_changed()
        return None

    def judge(self) -> Outcome | None:
        """The target activated is a success; another file first is a failure."""
        files = {n.element_id for n in self.all_nodes() if not n.folder}
        for element_id in self.activations():
            if element_id == self.target.element_id:
                return "success"
            if element_id in files:
                return "failure"
        return None

    def solve(self) -> GuiAction:
        """Open the target's closed ancestors, outermost first, then click it."""
        opened = set(self._opened())
        for depth in range(1, len(self.target.path)):
            ancestor = "node-" + "-".join(map(str, self.target.path[:depth]))
            if ancestor not in opened:
                return self.reach(ancestor)
        return self.reach(self.target.element_id)
