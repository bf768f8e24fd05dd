"""Render modes shared by every env: checking them, and the frames of text envs.

A text env writes one hook, ``render_text()`` (its ``ansi`` frame), and the env bases
turn it into every mode of :data:`TEXT_RENDER_MODES`:

- ``"ansi"``: the text;
- ``"rgb_array"``: the text drawn on an image (:func:`envsuite.text_image.text_image`),
  for video recorders and vision-language agents;
- ``"human"``: the text printed to standard output after every ``reset`` and ``step``
  (Gymnasium's rule that human mode renders by itself), and again by every call of
  ``render()``, which returns None. PettingZoo's text games (``rps``) do the same.

Envs with pictures of their own (the drones, the arm) keep their own ``render``; those
that must offer ``"human"`` (PettingZoo's ``render_test`` makes every env with
``render_mode="human"``) show their frames in a :class:`FrameWindow`.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from envsuite.text_image import text_image

#: The render modes of every text env.
TEXT_RENDER_MODES = ("ansi", "rgb_array", "human")

#: The warning of a human-mode window on a machine that cannot show one.
NO_DISPLAY = (
    "render_mode='human' cannot show frames: matplotlib's backend {backend!r} is not "
    "interactive (no display?); use render_mode='rgb_array' to get the frames"
)


def checked_render_mode(render_mode: Any, modes: Sequence[str]) -> str | None:
    """``render_mode`` when it is None or one of ``modes``; otherwise a ValueError."""
    if render_mode is None or (isinstance(render_mode, str) and render_mode in modes):
        return render_mode
    allowed = ", ".join(repr(mode) for mode in modes)
    raise ValueError(f"render_mode must be None or one of {allowed}; got {render_mode!r}")


def render_text_frame(text: str, render_mode: str | None) -> str | np.ndarray | None:
    """The frame of a text env in ``render_mode`` (see the module docstring)."""
    if render_mode == "ansi":
        return text
    if render_mode == "rgb_array":
        return text_image(text)
    if render_mode == "human":
        print(text, file=sys.stdout, flush=True)
    return None


class FrameWindow:
    """A matplotlib window showing RGB frames, for the ``human`` mode of image envs.

    The window opens on the first frame. Where matplotlib's backend is not interactive
    (a machine without a display, where it falls back to Agg), nothing can be shown: the
    first frame warns once (:data:`NO_DISPLAY`) and frames are dropped. A pickled window
    comes back closed, and opens again on its next frame.
    """

    def __init__(self, title: str) -> None:
        self.title = title
        self._figure: Any = None
        self._image: Any = None
        self._disabled = False

    def available(self) -> bool:
        """Whether frames can be shown; the first call that finds they cannot warns."""
        if self._disabled:
            return False
        import matplotlib
        from matplotlib.backends import BackendFilter, backend_registry

        backend = matplotlib.get_backend().lower()
        if backend not in backend_registry.list_builtin(BackendFilter.INTERACTIVE):
            self._disabled = True
            warnings.warn(NO_DISPLAY.format(backend=backend), RuntimeWarning, stacklevel=3)
            return False
        return True

    def show(self, frame: np.ndarray) -> None:
        """Show ``frame`` (``(height, width, 3)`` uint8), replacing the one shown."""
        if not self.available():
            return
        import matplotlib.pyplot as plt

        if self._figure is None or not plt.fignum_exists(self._figure.number):
            self._figure = plt.figure(self.title)
            axes = self._figure.add_axes((0, 0, 1, 1))
            axes.set_axis_off()
            self._image = axes.imshow(frame)
            plt.show(block=False)
        else:
            self._image.set_data(frame)
        self._figure.canvas.draw_idle()
        self._figure.canvas.flush_events()

    def close(self) -> None:
        """Close the window (if it is open)."""
        if self._figure is not None:
            import matplotlib.pyplot as plt

            plt.close(self._figure)
            self._figure = self._image = None

    def __getstate__(self) -> dict[str, Any]:
        """The title only: a window does not travel with a pickled env."""
        return {"title": self.title}

    def __setstate__(self, state: dict[str, Any]) -> None:
        """A closed window with the same title."""
        self.__init__(state["title"])  # type: ignore[misc]


class TextRendering:
    """The ``render`` of every envsuite base, made from the env's :meth:`render_text`.

    A text env writes ``render_text()`` and gets the three modes of
    :data:`TEXT_RENDER_MODES`; an env with pictures of its own overrides ``render``.
    """

    render_mode: str | None

    def render_text(self) -> str:
        """The env's ``ansi`` frame: the state as a person reading the env sees it now."""
        raise NotImplementedError(f"{type(self).__name__} does not render as text")

    def render(self) -> Any:
        """The frame of ``self.render_mode``, made from :meth:`render_text`.

        ``"ansi"``: the text; ``"rgb_array"``: an ``(H, W, 3)`` uint8 image of the text,
        the same shape for every frame; ``"human"``: prints the text and returns None.
        None when the env was made without a render mode.
        """
        if self.render_mode is None:
            return None
        return render_text_frame(self.render_text(), self.render_mode)
