"""What a GUI env shows its agent: the observation modes and their spaces.

Four parts exist (:data:`PARTS`): ``instruction`` (the goal's sentence), ``screenshot``
(an RGB picture of the screen), ``a11y`` (the accessibility tree as indented text, see
:func:`~envsuite.families.gui.accessibility.accessibility_text`) and ``a11y_json`` (the
same tree as JSON). An ``observation_mode`` is

- one part's name: the observation is that part alone (an image array or a string);
- ``"text"``: one string, the instruction then the accessibility text (what a text-only
  agent or ``envsuite play`` needs);
- ``"vector"``: the screenshot, for classic RL (the env's actions then default to
  ``[verb, x, y]``, see :mod:`~envsuite.families.gui.discrete_actions`);
- ``"dict"``: a dict of ``instruction``, ``screenshot`` and ``a11y`` (the default: chat
  agents send it part by part, the screenshot as an image part);
- part names joined by ``+`` (``"screenshot+instruction"``): a dict of those parts, in
  that order.

Text parts use envsuite's :class:`~envsuite.spaces.UnicodeText`; a text longer than
:data:`MAX_TEXT_CHARS` is cut, ending with :data:`CUT_MARK`.
"""

from __future__ import annotations

import copy
import functools
from dataclasses import dataclass
from typing import Any

import numpy as np
from gymnasium import spaces

from envsuite.spaces import UnicodeText

#: The parts an observation can hold.
PARTS: tuple[str, ...] = ("instruction", "screenshot", "a11y", "a11y_json")
#: Named modes besides single parts and ``+`` lists.
NAMED_MODES: dict[str, tuple[str, ...]] = {
    "dict": ("instruction", "screenshot", "a11y"),
}
#: The one-string mode of instruction plus accessibility text.
TEXT_MODE = "text"
#: The classic-RL mode: the screenshot alone (the env's default actions become discrete).
VECTOR_MODE = "vector"
#: Every named mode.
OBSERVATION_MODES: tuple[str, ...] = (*NAMED_MODES, *PARTS, TEXT_MODE, VECTOR_MODE)
#: Longest text part, in characters.
MAX_TEXT_CHARS = 65_536
#: How a cut text ends.
CUT_MARK = "\n[... cut]"


@dataclass(frozen=True)
class ObservationMode:
    """A parsed ``observation_mode``.

    Attributes:
        name: The mode as given.
        parts: The parts computed each step, in order.
        as_dict: Whether the observation is a dict of the parts (else one value).
    """

    name: str
    parts: tuple[str, ...]
    as_dict: bool

    @property
    def needs_screenshot(self) -> bool:
        """Whether each step draws the screen."""
        return "screenshot" in self.parts


def parse_observation_mode(mode: Any) -> ObservationMode:
    """Read an ``observation_mode`` (see the module docstring).

    Raises:
        ValueError: an unknown mode or part, or a part named twice.
    """
    if not isinstance(mode, str) or not mode:
        raise ValueError(f"observation_mode must be a non-empty string; got {mode!r}")
    if mode == TEXT_MODE:
        return ObservationMode(mode, ("instruction", "a11y"), as_dict=False)
    if mode == VECTOR_MODE:
        return ObservationMode(mode, ("screenshot",), as_dict=False)
    if mode in NAMED_MODES:
        return ObservationMode(mode, NAMED_MODES[mode], as_dict=True)
    parts = tuple(mode.split("+"))
    unknown = [part for part in parts if part not in PARTS]
    if unknown or len(set(parts)) != len(parts):
        known = ", ".join(OBSERVATION_MODES)
        raise ValueError(
            f"unknown observation_mode {mode!r}: give one of {known}, or parts joined by '+' "
            "(each part once)"
        )
    return ObservationMode(mode, parts, as_dict=len(parts) > 1)


def part_space(part: str, image_size: tuple[int, int]) -> spaces.Space[Any]:
    """The space of one part; ``image_size`` is the screenshot's ``(width, height)``."""
    if part == "screenshot":
        width, height = image_size
        return spaces.Box(0, 255, (height, width, 3), np.uint8)
    return text_space(MAX_TEXT_CHARS)


def text_space(max_length: int) -> UnicodeText:
    """A new ``UnicodeText(max_length)``, copied from one made once per length.

    Building the space indexes its sample alphabet with a numpy scalar per character
    (about 0.25 ms, twice per env made); a shallow copy shares those read-only tables
    and gets its own generator when first seeded or sampled (the template is never
    sampled, so it has none to share).
    """
    return copy.copy(_text_space_template(max_length))


@functools.cache
def _text_space_template(max_length: int) -> UnicodeText:
    return UnicodeText(max_length)


def observation_space(mode: ObservationMode, image_size: tuple[int, int]) -> spaces.Space[Any]:
    """The observation space of ``mode``."""
    if mode.as_dict:
        return spaces.Dict({part: part_space(part, image_size) for part in mode.parts})
    if mode.name == TEXT_MODE:
        return text_space(MAX_TEXT_CHARS)
    return part_space(mode.parts[0], image_size)


def fitted(text: str) -> str:
    """``text`` cut to :data:`MAX_TEXT_CHARS` characters (ending with :data:`CUT_MARK`)."""
    if len(text) <= MAX_TEXT_CHARS:
        return text
    return text[: MAX_TEXT_CHARS - len(CUT_MARK)] + CUT_MARK


def action_help(width: int, height: int, element_ids: bool) -> str:
    """How to act, in a few lines (sent once, with the first observation)."""
    target = 'click(x, y) or click("element_id")' if element_ids else "click(x, y)"
    ids = " Element ids are the [ids] of the accessibility tree." if element_ids else ""
    return (
        f'Act with one action per reply: {target}, double_click(...), type("text") '
        'into the focused field, key("enter") (also tab, escape, backspace, arrows, '
        "pageup, pagedown, ctrl+a, ...), scroll(dx, dy) or scroll(dx, dy, x, y) in pixels, "
        "drag(x1, y1, x2, y2), back(), home(), done() when the task is finished. "
        f"Coordinates are screen pixels: the screen is {width} x {height}, (0, 0) at the "
        f"top left.{ids}"
    )


def text_observation(instruction: str, a11y: str) -> str:
    """The ``"text"`` mode's string: the instruction, then the screen's elements."""
    return fitted(f"Instruction: {instruction}\n\nScreen:\n{a11y}")
