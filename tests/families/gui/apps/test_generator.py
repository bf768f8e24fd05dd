"""The app generator: sizes, topologies, held-out splits, variety and determinism."""

from __future__ import annotations

import contextlib
import hashlib
from collections import deque

import numpy as np
import pytest

from envsuite.families.gui.actions import GuiAction, GuiActionError
from envsuite.families.gui.apps.graph import MAX_ICON_SECTIONS, generate_graph
from envsuite.families.gui.apps.styles import DEPTHS, ICONS, LAYOUTS, THEMES, TOPOLOGIES
from envsuite.families.gui.apps.vocabulary import ICON_CONCEPTS
from envsuite.families.gui.icon_shapes import ICON_NAMES
from envsuite.families.gui.placement import place
from envsuite.families.gui.renderer import render_screen
from tests.families.gui.apps.app_driver import make, run_oracle, step


def graph(seed, split="train", **kwargs):
    return generate_graph(np.random.default_rng(seed), split, **kwargs)


def hops_from_home(g):
    hops = {0: 0}
    queue = deque([0])
    while queue:
        screen = queue.popleft()
        for to in g.out(screen):
            if to not in hops:
                hops[to] = hops[screen] + 1
                queue.append(to)
    return hops


@pytest.mark.parametrize("low,high", [(10, 10), (10, 40), (200, 500), (500, 500)])
def test_sizes_stay_in_the_asked_range(low, high):
    for seed in range(30):
        g = graph(seed, ("train", "test")[seed % 2], min_screens=low, max_screens=high)
        assert low <= g.size <= high
        assert len(g.offsets) == g.size + 1 and g.offsets[-1] == len(g.targets)


@pytest.mark.parametrize("depth", [2, 5, 9])
def test_depth_can_be_asked_for(depth):
    for seed in range(40):
        split = ("train", "test")[seed % 2]
        g = graph(seed, split, max_screens=40, depth=depth)
        expected = min(depth, g.size // 2) if g.topology == "grid" else depth
        assert g.depth == expected and (g.level == g.depth).any()
        task = make("app-navigation", seed, split=split, max_screens=40, depth=depth)
        assert task.graph.level[task.target] == task.graph.depth
        assert len(run_oracle(task)) == task.optimal_steps and task.outcome() == "success"


@pytest.mark.parametrize("depth", [0, 1, 10, 2.5, True])
def test_bad_depths_are_refused(depth):
    with pytest.raises(ValueError, match="depth must be"):
        graph(0, depth=depth)


@pytest.mark.parametrize("bad", [(9, 20), (20, 10), (10, 501)])
def test_bad_screen_ranges_are_refused(bad):
    with pytest.raises(ValueError, match="min_screens"):
        graph(0, min_screens=bad[0], max_screens=bad[1])


def test_every_screen_is_reachable_and_the_target_level_is_the_depth():
    seen_topologies = set()
    for seed in range(200):
        split = ("train", "test")[seed % 2]
        g = graph(seed, split, max_screens=150)
        seen_topologies.add(g.topology)
        hops = hops_from_home(g)
        assert len(hops) == g.size, (seed, g.topology)
        assert (g.level == g.depth).any()
        assert g.level.max() == g.depth or g.topology == "grid"
        for screen in range(1, g.size):  # parents are real edges one level up
            parent = int(g.parent[screen])
            assert screen in g.out(parent)
            assert g.level[parent] == g.level[screen] - 1
        if g.topology in ("tree", "chain", "grid"):  # no shortcuts: level is hop distance
            assert all(hops[s] == g.level[s] for s in range(g.size)), (seed, g.topology)
        titles = [g.title(s) for s in range(g.size)]
        assert len(set(titles)) == g.size  # instructions can name any screen
    assert seen_topologies == set(TOPOLOGIES["train"]) | set(TOPOLOGIES["test"])


def test_topology_shapes():
    for seed in range(120):
        g = graph(seed, ("train", "test")[seed % 2], min_screens=30, max_screens=90)
        degree = np.diff(g.offsets)
        if g.topology == "tree":
            assert len(g.targets) == g.size - 1
        elif g.topology == "tree_cross":
            assert len(g.targets) > g.size - 1
        elif g.topology == "hub":
            hubs = np.flatnonzero(g.level == 1)
            for screen in range(1, g.size):
                assert set(hubs.tolist()) - {screen} <= set(g.out(screen))
        elif g.topology == "chain":
            assert [int(g.parent[s]) for s in range(1, g.depth + 1)] == list(range(g.depth))
            assert degree[0] <= 4
        elif g.topology == "grid":
            assert degree.max() <= 4 and degree.min() >= 1
            for screen in range(g.size):  # links go both ways
                assert all(screen in g.out(to) for to in g.out(screen))


def test_splits_hold_out_every_axis():
    for table in (TOPOLOGIES, DEPTHS, ICONS):
        assert not set(table["train"]) & set(table["test"])
    assert not {t.name for t in THEMES["train"]} & {t.name for t in THEMES["test"]}
    assert not {lay.name for lay in LAYOUTS["train"]} & {lay.name for lay in LAYOUTS["test"]}
    train_kinds = {(lay.style, lay.toolbar, lay.tabs, lay.menu) for lay in LAYOUTS["train"]}
    assert not train_kinds & {
        (lay.style, lay.toolbar, lay.tabs, lay.menu) for lay in LAYOUTS["test"]
    }
    for split in ("train", "test"):
        assert set(ICONS[split]) <= set(ICON_NAMES) and set(ICONS[split]) <= set(ICON_CONCEPTS)


@pytest.mark.parametrize("split", ["train", "test"])
def test_a_split_draws_only_its_own_values(split):
    drawn = {"topology": set(), "depth": set(), "layout": set(), "theme": set(), "icon": set()}
    for seed in range(400):
        g = graph(seed, split, max_screens=60)
        drawn["topology"].add(g.topology)
        drawn["depth"].add(g.depth)
        drawn["layout"].add(g.layout.name)
        drawn["theme"].add(g.theme.name)
        drawn["icon"] |= set(g.sections.values())
        assert 1 <= len(g.sections) <= MAX_ICON_SECTIONS
    assert drawn["topology"] == set(TOPOLOGIES[split])
    assert drawn["depth"] == set(DEPTHS[split])
    assert drawn["layout"] == {lay.name for lay in LAYOUTS[split]}
    assert drawn["theme"] == {t.name for t in THEMES[split]}
    assert drawn["icon"] == set(ICONS[split])


@pytest.mark.parametrize("split", ["train", "test"])
def test_thousands_of_seeds_give_thousands_of_distinct_apps(split):
    """The count behind "at least 10^5 distinct apps" (see the generator's docs), sampled:
    3,000 seeds at the smallest size give 3,000 different apps."""
    keys = {
        hashlib.sha256(graph(seed, split, min_screens=10, max_screens=10).structure_key()).digest()
        for seed in range(3000)
    }
    assert len(keys) == 3000


@pytest.mark.parametrize("split", ["train", "test"])
def test_apps_differ_in_shape_and_style_not_only_in_words(split):
    """Leaving every title, setting and pop-up aside, 3,000 seeds at the default sizes
    still give at least 2,700 different (graph, layout, theme, icons) combinations."""
    keys = set()
    for seed in range(3000):
        g = graph(seed, split)
        keys.add(
            (
                g.offsets.tobytes(),
                g.targets.tobytes(),
                g.layout.name,
                g.theme.name,
                *sorted(g.sections.items()),
            )
        )
    assert len(keys) >= 2700


def test_the_same_seed_gives_the_same_app_and_the_same_pixels():
    for seed in range(6):
        split = ("train", "test")[seed % 2]
        first = make("app-action", seed, split=split, distractors=True)
        second = make("app-action", seed, split=split, distractors=True)
        assert first.graph.structure_key() == second.graph.structure_key()
        assert first.goal == second.goal and first.optimal_steps == second.optimal_steps
        for task in (first, second):
            task.trace = []
            actions = run_oracle(task)
            task.trace = actions
        assert first.trace == second.trace
        assert first.app.state_digest() == second.app.state_digest()
        one = render_screen(first.app.screen, first.app.theme)
        two = render_screen(second.app.screen, second.app.theme)
        assert one.tobytes() == two.tobytes()
    assert graph(1).structure_key() != graph(2).structure_key()


def test_random_play_is_deterministic_too():
    """Two copies of a seed driven by the same random clicks, keys, backs and homes keep
    the same state digest and the same pixels at every step (pop-ups and shifts on)."""
    for seed in range(4):
        pair = [make("app-action", seed, distractors=True) for _ in range(2)]
        chooser = np.random.default_rng(seed)
        for _ in range(40):
            live = [p.widget.element_id for p in place(pair[0].app.screen) if not p.inert]
            options = [GuiAction("back"), GuiAction("home"), GuiAction("key", key="tab")]
            options += [GuiAction("click", element_id=e) for e in live]
            action = options[int(chooser.integers(len(options)))]
            for task in pair:
                with contextlib.suppress(GuiActionError):
                    step(task.app, action)
            assert pair[0].app.state_digest() == pair[1].app.state_digest()
            frames = [render_screen(t.app.screen, t.app.theme).tobytes() for t in pair]
            assert frames[0] == frames[1]
