"""Offscreen rendering of the arm scene, headless by default.

MuJoCo chooses its OpenGL backend from ``MUJOCO_GL`` when ``mujoco`` is first imported,
and falls back to GLFW, which needs a display. envsuite renders on machines without one
(CI, clusters), so it picks the backend itself when rendering starts: ``MUJOCO_GL`` if the
user set it, GLFW if there is a display, and EGL (Mesa's software renderer works too)
otherwise. Importing ``mujoco.egl`` sets ``PYOPENGL_PLATFORM=egl`` if it is unset.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any

import numpy as np

from envsuite import arguments
from envsuite.registry import import_optional

#: GL backends this module can open a context with.
BACKENDS = ("egl", "osmesa", "glfw")


def choose_backend() -> str:
    """The OpenGL backend to render with (see the module docstring)."""
    chosen = os.environ.get("MUJOCO_GL", "").strip().lower()
    if chosen in BACKENDS:
        return chosen
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        return "egl"
    return "glfw"


def frame_size(model: Any, width: Any, height: Any) -> tuple[int, int]:
    """Check a frame size against the model's offscreen buffer, which bounds it.

    Args:
        model: The ``MjModel`` to render (``model.vis.global_.offwidth/offheight``).
        width: Frame width in pixels.
        height: Frame height in pixels.

    Returns:
        ``(width, height)`` as Python ints.

    Raises:
        ValueError: If either is not an int from 1 to the buffer's size.
    """
    buffer = model.vis.global_
    offwidth, offheight = int(buffer.offwidth), int(buffer.offheight)
    why = f"the model's offscreen buffer is {offwidth}x{offheight}"
    return (
        arguments.integer_in("width", width, 1, offwidth, why=why),
        arguments.integer_in("height", height, 1, offheight, why=why),
    )


class OffscreenRenderer:
    """Renders RGB frames of one model from a named camera into numpy arrays.

    Args:
        model: The ``MjModel`` to render (its offscreen buffer bounds the frame size).
        width: Frame width in pixels.
        height: Frame height in pixels.
    """

    def __init__(self, model: Any, width: int, height: int) -> None:
        mujoco = import_optional("mujoco", extra="physics")
        self.mujoco = mujoco
        width, height = frame_size(model, width, height)
        self.model = model
        self.width, self.height = width, height
        backend = choose_backend()
        context_class = importlib.import_module(f"mujoco.{backend}").GLContext
        self._gl = context_class(width, height)
        self._gl.make_current()
        self._context: Any = mujoco.MjrContext(model, mujoco.mjtFontScale.mjFONTSCALE_150)
        mujoco.mjr_setBuffer(mujoco.mjtFramebuffer.mjFB_OFFSCREEN, self._context)
        self._scene = mujoco.MjvScene(model, maxgeom=1000)
        self._option = mujoco.MjvOption()
        self._camera = mujoco.MjvCamera()
        self._rect = mujoco.MjrRect(0, 0, width, height)
        self._pixels = np.empty((height, width, 3), dtype=np.uint8)

    def render(self, data: Any, camera: str) -> np.ndarray:
        """A ``(height, width, 3)`` uint8 frame of ``data`` seen from ``camera``."""
        mujoco = self.mujoco
        if self._context is None:
            raise RuntimeError("the renderer is closed")
        self._gl.make_current()
        self._camera.type = mujoco.mjtCamera.mjCAMERA_FIXED
        self._camera.fixedcamid = self.model.camera(camera).id
        mujoco.mjv_updateScene(
            self.model,
            data,
            self._option,
            None,
            self._camera,
            mujoco.mjtCatBit.mjCAT_ALL,
            self._scene,
        )
        mujoco.mjr_render(self._rect, self._scene, self._context)
        mujoco.mjr_readPixels(self._pixels, None, self._rect, self._context)
        return np.flipud(self._pixels).copy()

    def close(self) -> None:
        """Free the MuJoCo and OpenGL contexts."""
        if self._context is not None:
            self._context.free()
            self._context = None
            self._gl.free()
