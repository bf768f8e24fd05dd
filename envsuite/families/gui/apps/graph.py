"""Seeded screen graphs: the compact arrays an app is built from.

:func:`generate_graph` draws everything an app needs as a few numpy arrays with one
entry per screen (level, parent, title code, pop-up, settings, action) and the edges in
compressed rows (``offsets`` into ``targets``, each screen's out-edges in display order).
Nothing per screen is turned into Python objects until the screen is shown
(:class:`~envsuite.families.gui.apps.graph_app.GraphApp` asks :meth:`AppGraph.out`,
:meth:`AppGraph.title`, ... on each visit), so drawing a 500-screen app costs a few dozen
numpy calls.

Topologies (each with a depth, the number of levels below home; a task's target sits on
the deepest level):

- ``tree``: 2-5 top-level sections, then levels growing by a random factor; every
  screen has one parent on the level above;
- ``tree_cross``: a tree plus about ``n / 4`` cross links between random screens;
- ``hub``: a tree whose 2-5 top-level sections (hubs) every screen links to (a global
  navigation bar);
- ``chain``: one path from home to the deepest level, with leaf screens hanging off it
  (home keeps at most 3 of them, so its screen stays short);
- ``grid``: screens on a grid of 2 or 3 rows (the last one partial), each linked to its
  four neighbours (a paginated gallery); a screen's level is its grid distance from
  home, and the depth is at most half the screens.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from envsuite.families.gui.apps.styles import DEPTHS, ICONS, LAYOUTS, THEMES, TOPOLOGIES, Layout
from envsuite.families.gui.apps.vocabulary import (
    ACTION_NAMES,
    APP_NAMES,
    ICON_CONCEPTS,
    NUM_PAIR_TITLES,
    POPUPS,
    SETTING_NAMES,
    pair_title,
)
from envsuite.families.gui.theme import Theme

#: Fewest and most screens an app may have.
MIN_SCREENS = 10
MAX_SCREENS = 500
#: Most top-level sections reached by an icon (they fit the toolbar at width 224).
MAX_ICON_SECTIONS = 5
#: Fewest and most levels below home an app may be asked for (``depth``).
MIN_DEPTH = 2
MAX_DEPTH = 9
#: Chance that a screen shows a distractor pop-up on arrival (when distractors are on).
POPUP_CHANCE = 0.3
#: Chance that a screen has an action button; settings per screen are 0, 1 or 2.
ACTION_CHANCE = 0.4


@dataclass
class AppGraph:
    """One generated app as compact arrays (no widgets, no per-screen Python objects).

    Attributes:
        seed: Root of the per-visit generators (layout shifts), drawn from the task's rng.
        topology: One of the topologies in the module docstring.
        depth: Levels below home; the deepest level holds at least one screen.
        layout: How screens present their edges.
        theme: The app's theme.
        name: The app's name (home's title).
        level: Per screen, its level (home is 0).
        parent: Per screen, its parent on the route instructions describe (-1 for home).
        offsets: Screen ``s``'s out-edges are ``targets[offsets[s]:offsets[s + 1]]``.
        targets: Out-edge targets, grouped by source, in display order.
        sections: Top-level sections reached by an icon: screen -> icon name.
        title_codes: Per screen, its two-word title's code (see :func:`~.vocabulary.pair_title`).
        popup: Per screen, 1 + index into :data:`~.vocabulary.POPUPS` of the pop-up shown on
            every arrival, or 0.
        setting_counts: Per screen, how many settings (0-2) it has.
        setting_codes: Per screen, two distinct indices into :data:`~.vocabulary.SETTING_NAMES`.
        setting_defaults: Per screen, the two settings' initial values.
        action_codes: Per screen, an index into :data:`~.vocabulary.ACTION_NAMES`, or -1.
    """

    seed: int
    topology: str
    depth: int
    layout: Layout
    theme: Theme
    name: str
    level: np.ndarray
    parent: np.ndarray
    offsets: np.ndarray
    targets: np.ndarray
    sections: dict[int, str]
    title_codes: np.ndarray
    popup: np.ndarray
    setting_counts: np.ndarray
    setting_codes: np.ndarray
    setting_defaults: np.ndarray
    action_codes: np.ndarray
    _out: dict[int, list[int]] = field(default_factory=dict, repr=False)
    _edge_sources: np.ndarray | None = field(default=None, repr=False, compare=False)
    _incoming: tuple[np.ndarray, list[int], list[int]] | None = field(
        default=None, repr=False, compare=False
    )

    @property
    def size(self) -> int:
        """Number of screens."""
        return len(self.level)

    def out(self, screen: int) -> list[int]:
        """Screens ``screen`` links to, in display order."""
        edges = self._out.get(screen)
        if edges is None:
            edges = self.targets[self.offsets[screen] : self.offsets[screen + 1]].tolist()
            self._out[screen] = edges
        return edges

    def edge_sources(self) -> np.ndarray:
        """Per edge (``targets`` order), the screen it leaves (computed once)."""
        if self._edge_sources is None:
            counts = self.offsets[1:] - self.offsets[:-1]
            self._edge_sources = np.repeat(np.arange(self.size), counts)
        return self._edge_sources

    def incoming(self) -> tuple[np.ndarray, list[int], list[int]]:
        """The edges grouped by target (computed once): ``(order, sources, starts)``.

        ``order`` lists edge numbers by target (stably), ``sources[k]`` is the source of
        edge ``order[k]``, and screen ``s``'s incoming edges are ``order[starts[s]:starts[s
        + 1]]``.
        """
        if self._incoming is None:
            order = np.argsort(self.targets, kind="stable")
            sources = self.edge_sources()[order].tolist()
            starts = np.searchsorted(self.targets[order], np.arange(self.size + 1)).tolist()
            self._incoming = (order, sources, starts)
        return self._incoming

    def title(self, screen: int) -> str:
        """The title shown on ``screen`` (and on everything that leads to it)."""
        if screen == 0:
            return self.name
        if screen in self.sections:
            return ICON_CONCEPTS[self.sections[screen]]
        return pair_title(int(self.title_codes[screen]))

    def icon(self, screen: int) -> str:
        """The icon that leads to ``screen``, or "" (not a top-level section)."""
        return self.sections.get(screen, "")

    def settings(self, screen: int) -> list[tuple[str, bool]]:
        """``(name, default)`` of each setting on ``screen``."""
        count = int(self.setting_counts[screen])
        codes = self.setting_codes[screen, :count].tolist()
        defaults = self.setting_defaults[screen, :count].tolist()
        return [(SETTING_NAMES[c], d) for c, d in zip(codes, defaults, strict=True)]

    def actions(self, screen: int) -> list[str]:
        """Names of the action buttons on ``screen``."""
        code = int(self.action_codes[screen])
        return [ACTION_NAMES[code]] if code >= 0 else []

    def route(self, screen: int) -> list[int]:
        """Screens from home to ``screen`` along parents."""
        parent, path = self.parent, [screen]
        while (up := int(parent[path[-1]])) >= 0:
            path.append(up)
        return path[::-1]

    def structure_key(self) -> bytes:
        """Bytes that tell two apps apart (for counting distinct apps)."""
        parts: list[str | np.ndarray] = [
            f"{self.topology}|{self.layout.name}|{self.theme.name}|{self.name}|{self.sections}",
            self.offsets,
            self.targets,
            self.title_codes,
            self.popup,
            self.setting_counts,
            self.setting_codes,
            self.setting_defaults,
            self.action_codes,
        ]
        return b"#".join(p.encode() if isinstance(p, str) else p.tobytes() for p in parts)


def generate_graph(
    rng: np.random.Generator,
    split: str,
    min_screens: int = MIN_SCREENS,
    max_screens: int = 100,
    distractors: bool = False,
    depth: int | None = None,
) -> AppGraph:
    """Draw an app from ``split``'s topologies, depths, layouts, themes and icons.

    Args:
        rng: The only source of randomness.
        split: ``"train"`` or ``"test"`` (see :mod:`~envsuite.families.gui.apps.styles`).
        min_screens: Fewest screens (at least :data:`MIN_SCREENS`).
        max_screens: Most screens (at most :data:`MAX_SCREENS`).
        distractors: Draw pop-ups for about :data:`POPUP_CHANCE` of the screens.
        depth: Levels below home (:data:`MIN_DEPTH` to :data:`MAX_DEPTH`), instead of the
            split's depths; a grid holds at most ``n // 2`` levels.

    Raises:
        ValueError: a screen range outside ``[MIN_SCREENS, MAX_SCREENS]`` or empty, or a
            depth outside ``[MIN_DEPTH, MAX_DEPTH]``.
    """
    if not MIN_SCREENS <= min_screens <= max_screens <= MAX_SCREENS:
        raise ValueError(
            f"need {MIN_SCREENS} <= min_screens <= max_screens <= {MAX_SCREENS}, "
            f"got {min_screens} and {max_screens}"
        )
    # Two draws of uniforms feed every choice (numpy calls dominate a small app's cost).
    if depth is not None and (
        isinstance(depth, bool) or not isinstance(depth, int) or not MIN_DEPTH <= depth <= MAX_DEPTH
    ):
        raise ValueError(f"depth must be an int from {MIN_DEPTH} to {MAX_DEPTH}; got {depth!r}")
    picks = rng.random(9).tolist()
    n = min_screens + int(picks[0] * (max_screens - min_screens + 1))
    draws = rng.random((n, 11))
    topology = _pick(TOPOLOGIES[split], picks[1])
    depth = _pick(DEPTHS[split], picks[2]) if depth is None else depth
    layout = _pick(LAYOUTS[split], picks[3])
    theme = _pick(THEMES[split], picks[4])
    name = _pick(APP_NAMES, picks[5])
    if topology == "grid":
        depth = min(depth, n // 2)
        level, parent, sources, targets = _grid(n, depth, picks[6])
    elif topology == "chain":
        level, parent, sources, targets = _chain(n, depth, picks[6], draws[:, 8])
    else:
        level, parent, sources, targets = _tree(rng, n, depth, topology, picks[6:8], draws)
    order = np.argsort(sources, kind="stable")
    targets = targets[order]
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(sources, minlength=n), out=offsets[1:])

    icons = ICONS[split]
    top = np.flatnonzero(level == 1)[:MAX_ICON_SECTIONS].tolist()
    shuffled = rng.permutation(len(icons)).tolist()
    sections = {screen: icons[which] for screen, which in zip(top, shuffled, strict=False)}
    title_codes = rng.choice(NUM_PAIR_TITLES, size=n, replace=False)
    if distractors:
        popup = np.where(
            draws[:, 0] < POPUP_CHANCE, 1 + (draws[:, 1] * len(POPUPS)).astype(np.int64), 0
        )
    else:
        popup = np.zeros(n, dtype=np.int64)
    vocab = len(SETTING_NAMES)
    codes = (draws[:, 5:7] * [vocab, vocab - 1]).astype(np.int64)
    codes[:, 1] = (codes[:, 0] + 1 + codes[:, 1]) % vocab
    setting_counts = (draws[:, 2] * 3).astype(np.int64)
    action_codes = np.where(
        draws[:, 3] < ACTION_CHANCE, (draws[:, 4] * len(ACTION_NAMES)).astype(np.int64), -1
    )
    setting_defaults = draws[:, 9:11] < 0.5
    seed = int(picks[8] * (1 << 53))
    return AppGraph(
        seed,
        topology,
        depth,
        layout,
        theme,
        name,
        level,
        parent,
        offsets,
        targets,
        sections,
        title_codes,
        popup,
        setting_counts,
        codes,
        setting_defaults,
        action_codes,
    )


def _pick(options: tuple, draw: float):  # type: ignore[no-untyped-def]
    return options[int(draw * len(options))]


Edges = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _tree(
    rng: np.random.Generator,
    n: int,
    depth: int,
    topology: str,
    picks: list[float],
    draws: np.ndarray,
) -> Edges:
    """Level sizes, parents one level up, then cross links (``tree_cross``) or hubs."""
    top = min(2 + int(picks[0] * 4), n - depth)
    rest = n - 1 - top - (depth - 1)
    growth = 1.2 + 1.8 * picks[1]
    weights = growth ** np.arange(depth - 1, dtype=float)
    extra = rng.multinomial(rest, weights / weights.sum())
    sizes = np.concatenate(([1, top], 1 + extra))
    starts = np.concatenate(([0], np.cumsum(sizes)))
    level = np.repeat(np.arange(depth + 1), sizes)
    above = np.maximum(level - 1, 0)
    parent = starts[above] + (draws[:, 7] * sizes[above]).astype(np.int64)
    parent[0] = -1
    sources, targets = parent[1:], np.arange(1, n)
    if topology == "tree_cross":
        count = max(1, n // 4)
        extra_sources = (draws[:count, 8] * n).astype(np.int64)
        extra_targets = 1 + (draws[-count:, 8] * (n - 1)).astype(np.int64)
        keep = (extra_sources != extra_targets) & (parent[extra_targets] != extra_sources)
        pairs = extra_sources[keep] * n + extra_targets[keep]
        _, first = np.unique(pairs, return_index=True)
        first.sort()
        sources = np.concatenate((sources, extra_sources[keep][first]))
        targets = np.concatenate((targets, extra_targets[keep][first]))
    elif topology == "hub":
        hubs = np.arange(1, 1 + top)
        screens = np.repeat(np.arange(1, n), top)
        links = np.tile(hubs, n - 1)
        keep = screens != links
        sources = np.concatenate((sources, screens[keep]))
        targets = np.concatenate((targets, links[keep]))
    return level, parent, sources, targets


def _chain(n: int, depth: int, pick: float, draws: np.ndarray) -> Edges:
    """Screens 0..depth form the path; the others hang off path screens."""
    leaves = n - 1 - depth
    anchors = 1 + (draws[:leaves] * (depth - 1)).astype(np.int64)
    anchors[: int(pick * (min(3, leaves) + 1))] = 0
    parent = np.concatenate(([-1], np.arange(depth), anchors))
    level = np.concatenate((np.arange(depth + 1), anchors + 1))
    return level, parent, parent[1:], np.arange(1, n)


def _grid(n: int, depth: int, pick: float) -> Edges:
    """``rows`` rows (the last one partial), home in the top-left corner."""
    rows = 2
    if pick < 0.5 and n >= 12:
        columns = -(-n // 3)
        last = n - 2 * columns
        if max(2 + last - 1, columns) >= depth:
            rows = 3
    columns = -(-n // rows)
    screens = np.arange(n)
    row, column = np.divmod(screens, columns)
    level = row + column
    parent = np.where(row > 0, screens - columns, screens - 1)
    parent[0] = -1
    right = (column + 1 < columns) & (screens + 1 < n)
    down = screens + columns < n
    left = column > 0
    up = row > 0
    sources = np.concatenate((screens[right], screens[down], screens[left], screens[up]))
    targets = np.concatenate(
        (screens[right] + 1, screens[down] + columns, screens[left] - 1, screens[up] - columns)
    )
    # Each screen's edges in the order right, down, left, up.
    kind = np.concatenate(
        (np.zeros(right.sum()), np.ones(down.sum()), np.full(left.sum(), 2), np.full(up.sum(), 3))
    )
    order = np.lexsort((kind, sources))
    return level, parent, sources[order], targets[order]
