"""The ``"browser"`` backend of the GUI env: the app's screens in headless Chromium.

Plugs into :class:`~envsuite.families.gui.gui_env.GuiEnv` through
:data:`~envsuite.families.gui.backend.BACKENDS` (``backend="browser"``). Each action is
performed as real input in the page (:class:`~.browser_screen.BrowserScreen`), the page's
widget state is written back into ``app.screen``, and the env then runs the app's logic
and the task's predicates on the same Python objects as with the simulator. When the app
moves to another screen (or anything changes the screen outside the browser) the page is
loaded again before the next action or screenshot.

Pixels are Chromium's, not bit-reproducible: specs using this backend are declared
``nondeterministic`` and the conformance kit compares their logical state
(``state_digest``) instead. A crashed or hung browser raises a
:class:`~.chromium_process.BrowserError` out of ``step``/``reset`` (an infra error for
``envsuite eval``); the next call starts a new browser.

A pickled backend carries no browser: the copy starts its own on first use and shows the
app's screen as the Python side holds it.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from envsuite.families.gui.actions import GuiAction
from envsuite.families.gui.app import App
from envsuite.families.gui.backend import GuiBackend, Performed
from envsuite.families.gui.browser.browser_screen import BrowserScreen


class BrowserBackend(GuiBackend):
    """Headless Chromium as a GUI backend (see the module docstring).

    Args:
        call_timeout: Seconds any DevTools call may take before the browser counts as hung.
    """

    deterministic_pixels: ClassVar[bool] = False

    def __init__(self, call_timeout: float = 10.0) -> None:
        self.call_timeout = call_timeout
        self.browser = BrowserScreen(call_timeout=call_timeout)

    def start(self, app: App) -> None:
        """Show the app's first screen (starting the browser on first use)."""
        self.browser.show(app.screen, app.theme)

    def perform(self, app: App, action: GuiAction) -> Performed:
        """Perform ``action`` in the page; the page's state is written into ``app.screen``."""
        log = app.screen.event_log
        before = len(log)
        result = self.browser.perform(app.screen, action, app.theme)
        return Performed(
            events=log[before:],
            navigation=result.navigation,
            changed=result.changed,
            target=result.target,
            note=result.note,
        )

    def screenshot(self, app: App, size: tuple[int, int]) -> np.ndarray:
        """Chromium's picture of the app's screen at ``size``."""
        return self.browser.screenshot(app.screen, app.theme, size)

    def close(self) -> None:
        """Quit the browser (no process is left behind)."""
        self.browser.close()

    def __getstate__(self) -> dict[str, Any]:
        return {"call_timeout": self.call_timeout}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["call_timeout"])  # type: ignore[misc]
