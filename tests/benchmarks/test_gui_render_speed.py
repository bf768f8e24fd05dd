"""GUI simulator speed: screenshots/s of the Pillow renderer, against peers in the same run.

Workload: a fixed script of ``STEPS`` actions on the showcase screen (every widget kind:
typing, focus moves, a dropdown opened and chosen, tab switches, list scrolling, a modal
dialog opened and closed), each parsed from text and dispatched; after each step the
screen is turned into an observation.

- ``gui-render``: a 256 x 256 RGB screenshot after every step (``gui_steps_render``)
  against the peer (``text_frame_steps``): the same steps with the screen's accessibility
  text drawn by :func:`envsuite.text_image.text_image`, the ``rgb_array`` frame envsuite's
  text envs render; ``raw_ratio`` is screenshot time over text-frame time.
- ``gui-render-512``: 512 x 512 screenshots (pixels repeated from the 256 x 256 drawing).
- ``gui-no-render``: parse, dispatch and the accessibility text only, no pixels.

Each envsuite row puts ``env_steps_per_s``, ``raw_steps_per_s`` and ``raw_ratio`` in
``extra_info`` (both timed in the same test, in turns, by CPU time).
``pytest tests/benchmarks/test_gui_render_speed.py --benchmark-enable`` prints the tables.
The repo's config passes ``--benchmark-disable``, so in CI each runs once as a plain test
of its result. Nothing here asserts a time.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from envsuite.families.gui.accessibility import accessibility_text
from envsuite.families.gui.action_grammar import parse_gui_action
from envsuite.families.gui.events import dispatch
from envsuite.families.gui.renderer import render_screen
from envsuite.families.gui.screen import Screen
from envsuite.families.gui.showcase import showcase_screen
from envsuite.text_image import text_image
from tests.benchmarks.paired_timing import timed_against_raw

ROUNDS = 3
#: One pass over the showcase; it is repeated ``REPEATS`` times on fresh screens.
SCRIPT = [
    "click(name)",
    'type("Ada Lovelace")',
    "key(tab)",
    'type("pw")',
    "key(tab)",
    "key(space)",
    "click(country)",
    "click('country/2')",
    "click('plan/2')",
    "click('tabs/1')",
    "scroll(0, 24, 100, 100)",
    "scroll(0, 24, 100, 100)",
    "click(100, 120)",
    "key(down)",
    "click('tabs/2')",
    "click('tabs/0')",
    "click(help)",
    "OPEN_DIALOG",
    "click(keep)",
    "click(save)",
]
REPEATS = 5
STEPS = len(SCRIPT) * REPEATS


def _episodes(observe: Callable[[Screen], Any]) -> tuple[int, str]:
    """Run the script ``REPEATS`` times, observing after each step; (steps, digest)."""
    digest = hashlib.sha256()
    steps = 0
    for _ in range(REPEATS):
        screen = showcase_screen()
        dialog = showcase_screen(with_dialog=True).dialogs[0]
        for text in SCRIPT:
            if text == "OPEN_DIALOG":
                screen.dialogs = [dialog]
                dialog.is_open = True
            else:
                dispatch(screen, parse_gui_action(text))
            observation = observe(screen)
            digest.update(
                observation.tobytes()
                if isinstance(observation, np.ndarray)
                else observation.encode()
            )
            steps += 1
    return steps, digest.hexdigest()


def gui_steps_render() -> tuple[int, str]:
    return _episodes(render_screen)


def gui_steps_render_512() -> tuple[int, str]:
    return _episodes(lambda screen: render_screen(screen, size=(512, 512)))


def text_frame_steps() -> tuple[int, str]:
    return _episodes(lambda screen: text_image(accessibility_text(screen)))


def gui_steps_no_render() -> tuple[int, str]:
    return _episodes(accessibility_text)


@pytest.mark.benchmark(group="gui-render")
def test_gui_render_256(benchmark: Any) -> None:
    steps, digest = timed_against_raw(benchmark, gui_steps_render, text_frame_steps, ROUNDS)
    assert steps == STEPS and digest == gui_steps_render()[1]  # deterministic frames


@pytest.mark.benchmark(group="gui-render")
def test_gui_render_text_frame_peer(benchmark: Any) -> None:
    steps, _ = benchmark(text_frame_steps)
    assert steps == STEPS


@pytest.mark.benchmark(group="gui-render-512")
def test_gui_render_512(benchmark: Any) -> None:
    steps, _ = timed_against_raw(benchmark, gui_steps_render_512, gui_steps_render, ROUNDS)
    assert steps == STEPS


@pytest.mark.benchmark(group="gui-no-render")
def test_gui_steps_without_pixels(benchmark: Any) -> None:
    steps, _ = timed_against_raw(benchmark, gui_steps_no_render, gui_steps_render, ROUNDS)
    assert steps == STEPS
