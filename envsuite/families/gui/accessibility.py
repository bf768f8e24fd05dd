"""The accessibility tree: what a screen reader (or a text-only agent) is told.

Built from the same placement the renderer and the hit test use, and pruned as browsers
prune theirs:

- hidden widgets (``visible=False``), inactive tab panels, closed dropdown lists and
  closed dialogs are absent;
- while a modal dialog is open, everything beneath it is absent (``aria-modal``);
- a widget scrolled out of its container's viewport (or off the screen) stays in the JSON
  form with ``"offscreen": true`` and its full bounds, as Chromium keeps offscreen nodes;
  the text form leaves it out unless asked, since an agent cannot click it without
  scrolling first;
- a partly clipped widget's ``bounds`` are its visible part (what a click can hit);
- plain containers (``Group``) with no name are flattened away, their children lifted.

Each node: ``id``, ``role``, ``name``, ``bounds`` ``[x, y, width, height]``, ``states``
(``disabled``, ``focused``, ``checked``, ``selected``, ``expanded``, ``visited``,
``modal``, ``offscreen`` when they hold; ``value`` and ``scroll`` as values), ``children``.
"""

from __future__ import annotations

import json
from typing import Any

from envsuite.families.gui.placement import Placed, place
from envsuite.families.gui.screen import Screen
from envsuite.families.gui.widget import Group

#: Boolean states listed when true, in this order.
FLAG_STATES = (
    "disabled",
    "focused",
    "checked",
    "selected",
    "expanded",
    "visited",
    "modal",
    "offscreen",
)
#: Valued states, in this order.
VALUE_STATES = ("value", "scroll")


def _node(item: Placed, screen: Screen) -> dict[str, Any]:
    widget = item.widget
    raw = widget.state()
    flags = {
        "disabled": not widget.enabled,
        "focused": screen.focus_id == widget.element_id,
        "offscreen": item.visible is None,
    }
    for key in ("checked", "selected", "expanded", "visited", "modal"):
        if key in raw:
            flags[key] = bool(raw[key])
    states: dict[str, Any] = {key: True for key in FLAG_STATES if flags.get(key)}
    for key in VALUE_STATES:
        if key in raw:
            states[key] = raw[key]
    bounds = item.rect if item.visible is None else item.visible
    return {
        "id": widget.element_id,
        "role": widget.role,
        "name": widget.name,
        "bounds": bounds.as_list(),
        "states": states,
        "children": [],
    }


def accessibility_tree(screen: Screen) -> dict[str, Any]:
    """The tree of ``screen`` as JSON-ready dicts; the root is the screen itself."""
    root: dict[str, Any] = {
        "id": "",
        "role": "window",
        "name": screen.title,
        "bounds": [0, 0, screen.width, screen.height],
        "states": {},
        "children": [],
    }
    nodes: dict[str, dict[str, Any]] = {}
    for item in place(screen):
        if item.inert:
            continue
        parent = nodes.get(item.parent_id, root) if item.parent_id is not None else root
        if isinstance(item.widget, Group) and not item.widget.name:
            nodes[item.widget.element_id] = parent  # flattened: children join its parent
            continue
        node = _node(item, screen)
        nodes[item.widget.element_id] = node
        parent["children"].append(node)
    return root


def accessibility_json(screen: Screen) -> str:
    """:func:`accessibility_tree` as compact, key-ordered JSON text."""
    return json.dumps(accessibility_tree(screen), ensure_ascii=False, separators=(",", ":"))


def accessibility_text(screen: Screen, include_offscreen: bool = False) -> str:
    """The tree as indented lines, one element a line.

    Example line: ``  [save] button "Save" @168,222,80,26 focused``; values are quoted
    (``value="Bob"``). Offscreen elements are left out unless ``include_offscreen``.
    """
    lines: list[str] = []

    def visit(node: dict[str, Any], depth: int) -> None:
        states = node["states"]
        if states.get("offscreen") and not include_offscreen:
            return
        parts = [
            f"[{node['id']}]" if node["id"] else "",
            node["role"],
            json.dumps(node["name"], ensure_ascii=False),
        ]
        parts.append("@" + ",".join(str(v) for v in node["bounds"]))
        for key in FLAG_STATES:
            if states.get(key):
                parts.append(key)
        for key in VALUE_STATES:
            if key in states:
                value = states[key]
                shown = (
                    json.dumps(value, ensure_ascii=False)
                    if isinstance(value, str)
                    else ",".join(map(str, value))
                )
                parts.append(f"{key}={shown}")
        lines.append("  " * depth + " ".join(part for part in parts if part))
        for child in node["children"]:
            visit(child, depth + 1)

    visit(accessibility_tree(screen), 0)
    return "\n".join(lines)
