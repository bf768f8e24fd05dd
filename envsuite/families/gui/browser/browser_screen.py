"""A screen shown in headless Chromium and driven by real input.

:class:`BrowserScreen` is the browser counterpart of
:func:`~envsuite.families.gui.events.dispatch`: :meth:`BrowserScreen.perform` takes the
same :class:`~envsuite.families.gui.actions.GuiAction` and the same Python
:class:`~envsuite.families.gui.screen.Screen`, performs the action as input events in
the page (the pointer moves and presses at the point, text is inserted as an input
method commits it, keys go down and up, the wheel turns), reads the page's widget state
back into the Screen and returns a :class:`~envsuite.families.gui.events.DispatchResult`.
The same checks raise the same :class:`~envsuite.families.gui.actions.GuiActionError`
before anything is sent (a point off the screen, an element not shown).

Three actions have no input event in a page: ``back`` first closes an open list or
dialog through the page script (as ``escape`` would), else it is the app's navigation,
as are ``home`` and ``done``. A ``scroll`` without a point turns the wheel with the page
told to route it by the simulator's rule (the container around the focused widget, else
the first one shown) instead of by the pointer.

The page is loaded again whenever the Python screen's page model differs from what the
page shows: another screen (an app moved on), or a change made outside the browser (a
distractor opened a dialog, a layout shift moved a widget).

Failures: every DevTools call has a deadline. A crashed or hung browser raises a
:class:`~envsuite.families.gui.browser.chromium_process.BrowserError` after the browser
was killed; the next call starts a new one (:attr:`BrowserScreen.restarts` counts them).
The error is an infrastructure failure, never a move of the agent: the env lets it
propagate and ``envsuite eval`` records the episode with ``infra_error``.
"""

from __future__ import annotations

import base64
import io
import json
import os
import weakref
from typing import Any

import numpy as np

from envsuite.families.gui.actions import GuiAction
from envsuite.families.gui.browser.chromium_process import (
    DEFAULT_CALL_TIMEOUT,
    START_TIMEOUT,
    BrowserError,
    ChromiumProcess,
)
from envsuite.families.gui.browser.page_document import page_html
from envsuite.families.gui.browser.page_model import apply_page_state, screen_model
from envsuite.families.gui.events import DispatchResult, check_point, click_point
from envsuite.families.gui.placement import place
from envsuite.families.gui.screen import Screen
from envsuite.families.gui.theme import LIGHT, Theme

#: DevTools key descriptions of the named keys: (DOM key, DOM code, Windows key code).
NAMED_KEYS: dict[str, tuple[str, str, int]] = {
    "enter": ("Enter", "Enter", 13),
    "tab": ("Tab", "Tab", 9),
    "escape": ("Escape", "Escape", 27),
    "backspace": ("Backspace", "Backspace", 8),
    "delete": ("Delete", "Delete", 46),
    "space": (" ", "Space", 32),
    "up": ("ArrowUp", "ArrowUp", 38),
    "down": ("ArrowDown", "ArrowDown", 40),
    "left": ("ArrowLeft", "ArrowLeft", 37),
    "right": ("ArrowRight", "ArrowRight", 39),
    "home": ("Home", "Home", 36),
    "end": ("End", "End", 35),
    "pageup": ("PageUp", "PageUp", 33),
    "pagedown": ("PageDown", "PageDown", 34),
}
#: Base keys of chords Chromium acts on itself before the page sees them (closing the tab
#: or window, opening new ones) when held with ``ctrl`` or ``meta``.
BROWSER_RESERVED_KEYS = frozenset("wqnt")
#: DevTools modifier bits.
MODIFIER_BITS = {"alt": 1, "ctrl": 2, "meta": 4, "shift": 8}


def split_chord(key: str) -> tuple[list[str], str]:
    """``(modifiers, key name)`` of a canonical key or chord (``"ctrl++"``: ctrl and plus)."""
    if key == "+":
        return [], "+"
    if key.endswith("++"):
        return key[:-2].split("+"), "+"
    *modifiers, name = key.split("+")
    return modifiers, name


def key_event(key: str) -> dict[str, Any]:
    """The ``Input.dispatchKeyEvent`` parameters of the canonical key or chord ``key``."""
    modifiers, name = split_chord(key)
    bits = sum(MODIFIER_BITS[m] for m in modifiers if m in MODIFIER_BITS)
    if name in NAMED_KEYS:
        dom_key, code, virtual = NAMED_KEYS[name]
    else:
        dom_key, code = name, ""
        virtual = ord(name.upper()) if name.isascii() and name.isalnum() else 0
    return {
        "key": dom_key,
        "code": code,
        "windowsVirtualKeyCode": virtual,
        "nativeVirtualKeyCode": virtual,
        "modifiers": bits,
    }


def browser_reserved(key: str) -> bool:
    """Whether ``key`` is a chord Chromium would act on itself (``ctrl+w`` closes the tab).

    A page never receives such chords in a real browser either; the backend hands them to
    the page script by name instead, so an agent's key cannot close the browser.
    """
    modifiers, name = split_chord(key)
    return name.lower() in BROWSER_RESERVED_KEYS and bool({"ctrl", "meta"} & set(modifiers))


class BrowserScreen:
    """Shows Python screens in one headless Chromium page and performs actions there.

    Args:
        width: Initial viewport width (each screen sets its own size when shown).
        height: Initial viewport height.
        call_timeout: Seconds any DevTools call may take before the browser counts as hung.

    Attributes:
        restarts: How many times a broken browser was replaced.
    """

    def __init__(
        self, width: int = 256, height: int = 256, call_timeout: float = DEFAULT_CALL_TIMEOUT
    ) -> None:
        self.width, self.height = width, height
        self.call_timeout = call_timeout
        self.restarts = 0
        self._process: ChromiumProcess | None = None
        self._session = ""
        self._viewport: tuple[int, int] | None = None
        self._shown_model = ""
        self._finalizer: weakref.finalize | None = None

    # ---- the browser's life ------------------------------------------------------------

    @property
    def process(self) -> ChromiumProcess | None:
        """The running browser, or None before the first use and after a failure."""
        return self._process

    def start(self) -> None:
        """Start the browser and open the page (done on first use; a no-op when running).

        A forked copy (a vector env's worker) leaves its parent's browser alone and starts
        its own.
        """
        if self._process is not None and self._process.owner_pid != os.getpid():
            self._discard()  # only closes this copy's pipe ends (see ChromiumProcess.kill)
        if self._process is not None:
            return
        process = ChromiumProcess(self.width, self.height, self.call_timeout)
        self._process = process
        self._finalizer = weakref.finalize(self, process.kill)
        try:
            targets = process.call("Target.getTargets", timeout=START_TIMEOUT)["targetInfos"]
            page = next((t for t in targets if t["type"] == "page"), None)
            if page is None:
                target = process.call("Target.createTarget", {"url": "about:blank"})["targetId"]
            else:
                target = page["targetId"]
            self._session = process.call(
                "Target.attachToTarget", {"targetId": target, "flatten": True}
            )["sessionId"]
            document = process.profile / "envsuite-gui.html"
            document.write_text(page_html(), encoding="utf-8")
            self._call("Page.enable")
            self._call("Emulation.setFocusEmulationEnabled", {"enabled": True})
            self._call("Page.navigate", {"url": document.as_uri()}, timeout=START_TIMEOUT)
            self._evaluate(
                "new Promise((done) => { const ready = () => document.fonts.load("
                "'12px EnvsuiteSans').then(() => document.fonts.load('bold 12px EnvsuiteSans'))"
                ".then(() => done(typeof window.envsuite)); if (document.readyState === "
                "'complete') ready(); else window.addEventListener('load', ready); })",
                timeout=START_TIMEOUT,
            )
        except BaseException:
            self._discard()
            raise

    def _discard(self) -> None:
        """Kill the browser (after a failure, or on close) and forget the page."""
        if self._finalizer is not None:
            self._finalizer.detach()
            self._finalizer = None
        if self._process is not None:
            self._process.kill()
        self._process = None
        self._viewport = None
        self._shown_model = ""

    def close(self) -> None:
        """Quit the browser; it and every process it started are gone on return."""
        if self._finalizer is not None:
            self._finalizer.detach()
            self._finalizer = None
        if self._process is not None:
            self._process.close()
        self._process = None
        self._viewport = None
        self._shown_model = ""

    def __enter__(self) -> BrowserScreen:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _call(
        self, method: str, params: dict[str, Any] | None = None, timeout: float | None = None
    ) -> dict[str, Any]:
        assert self._process is not None
        try:
            result = self._process.call(method, params, self._session, timeout)
            self._process.events.clear()
            return result
        except BrowserError:
            self.restarts += 1
            self._discard()
            raise

    def _evaluate(self, expression: str, timeout: float | None = None) -> Any:
        reply = self._call(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
            timeout,
        )
        if "exceptionDetails" in reply:
            details = reply["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text", "")
            self._discard()
            raise BrowserError(f"the page script failed: {text}"[:500])
        return reply.get("result", {}).get("value")

    def run_script(self, expression: str) -> Any:
        """Evaluate ``expression`` in the page and return its JSON value (tests, debugging).

        Raises:
            BrowserError: the script threw, or the browser crashed or hung.
        """
        self.start()
        return self._evaluate(expression)

    # ---- showing and acting ------------------------------------------------------------

    def show(self, screen: Screen, theme: Theme = LIGHT) -> None:
        """Make the page show ``screen`` in ``theme``.

        The page is loaded again only when the model of ``screen`` (everything the page
        draws and every state it holds, geometry included) differs from what the page
        shows: a new screen, a dialog opened by the app, a layout shift.
        """
        self.start()
        model = json.dumps(screen_model(screen, theme), ensure_ascii=False)
        if model == self._shown_model:
            return
        if self._viewport != (screen.width, screen.height):
            self._call(
                "Emulation.setDeviceMetricsOverride",
                {
                    "width": screen.width,
                    "height": screen.height,
                    "deviceScaleFactor": 1,
                    "mobile": False,
                },
            )
            self._viewport = (screen.width, screen.height)
        self._evaluate(f"envsuite.load({model})")
        self._shown_model = model

    def perform(self, screen: Screen, action: GuiAction, theme: Theme = LIGHT) -> DispatchResult:
        """Apply ``action`` to ``screen`` through the browser (see the module docstring).

        Raises:
            GuiActionError: as :func:`~envsuite.families.gui.events.dispatch` raises it.
            BrowserError: the browser crashed or hung (it was killed; the next call
                starts a new one).
        """
        kind = action.kind
        point: tuple[int, int] | None = None
        if kind in ("click", "double_click"):
            point = click_point(screen, place(screen), action)
        elif kind == "scroll" and action.x is not None and action.y is not None:
            check_point(screen, action.x, action.y)
        elif kind == "drag":
            check_point(screen, action.x or 0, action.y or 0)
            check_point(screen, action.dx, action.dy)
        if kind in ("home", "done"):
            return DispatchResult(False, navigation=kind)
        self.show(screen, theme)
        navigation = None
        if kind in ("click", "double_click"):
            assert point is not None
            self._click(*point, 2 if kind == "double_click" else 1)
        elif kind == "type":
            self._call("Input.insertText", {"text": action.text or ""})
        elif kind == "key" and browser_reserved(action.key or ""):
            self._evaluate(f"envsuite.reservedKey({json.dumps(action.key)})")
        elif kind == "key":
            event = key_event(action.key or "")
            self._call("Input.dispatchKeyEvent", {"type": "rawKeyDown", **event})
            self._call("Input.dispatchKeyEvent", {"type": "keyUp", **event})
        elif kind == "scroll":
            x, y = (action.x, action.y) if action.x is not None and action.y is not None else (0, 0)
            if action.x is None or action.y is None:
                self._evaluate("envsuite.aimNextWheel()")
            self._mouse("mouseWheel", x, y, deltaX=action.dx, deltaY=action.dy)
        elif kind == "drag":
            self._drag(action.x or 0, action.y or 0, action.dx, action.dy, screen)
        elif kind == "back" and not self._evaluate("envsuite.back()"):
            navigation = "back"
        report = json.loads(self._evaluate("envsuite.take()"))
        apply_page_state(screen, report)
        # The page and the Python screen agree now: remember what the page shows.
        self._shown_model = json.dumps(screen_model(screen, theme), ensure_ascii=False)
        results = report["results"]
        changed = any(r["changed"] for r in results)
        target = next((r["target"] for r in reversed(results) if r["target"] is not None), None)
        note = results[-1]["note"] if results else ("" if navigation else "nothing happened")
        return DispatchResult(changed, target, navigation, note)

    def _mouse(self, kind: str, x: int, y: int, **extra: Any) -> None:
        params = {"type": kind, "x": x, "y": y, **extra}
        self._call("Input.dispatchMouseEvent", params)

    def _click(self, x: int, y: int, count: int) -> None:
        # The button goes down at the point; no move before it: Chromium aligns a move to
        # the next frame (about 18 ms here) and the press does its own hit test.
        for number in range(1, count + 1):
            self._mouse("mousePressed", x, y, button="left", buttons=1, clickCount=number)
            self._mouse("mouseReleased", x, y, button="left", buttons=0, clickCount=number)

    def _drag(self, x: int, y: int, end_x: int, end_y: int, screen: Screen) -> None:
        self._mouse("mousePressed", x, y, button="left", buttons=1, clickCount=1)
        # Through a point beside the start, so even a drag back to the start is a drag.
        side_x = x + 1 if x + 1 < screen.width else x - 1
        self._mouse("mouseMoved", side_x, y, button="left", buttons=1)
        self._mouse("mouseMoved", end_x, end_y, button="left", buttons=1)
        self._mouse("mouseReleased", end_x, end_y, button="left", buttons=0, clickCount=1)

    def screenshot(
        self, screen: Screen, theme: Theme = LIGHT, size: tuple[int, int] | None = None
    ) -> np.ndarray:
        """The page showing ``screen`` as a ``(height, width, 3)`` uint8 array.

        Args:
            screen: What to show (loaded first if the page shows something else).
            theme: The theme it is drawn in.
            size: ``(width, height)`` of the picture; the screen's own size when None
                (scaled as the simulator's renderer scales).
        """
        from PIL import Image

        self.show(screen, theme)
        reply = self._call(
            "Page.captureScreenshot",
            {
                "format": "png",
                "clip": {
                    "x": 0,
                    "y": 0,
                    "width": screen.width,
                    "height": screen.height,
                    "scale": 1,
                },
            },
        )
        image = Image.open(io.BytesIO(base64.b64decode(reply["data"]))).convert("RGB")
        if image.size != (screen.width, screen.height):
            image = image.crop((0, 0, screen.width, screen.height))
        if size is not None and (size[0], size[1]) != image.size:
            whole = size[0] % screen.width == 0 and size[1] % screen.height == 0
            method = Image.Resampling.NEAREST if whole else Image.Resampling.BILINEAR
            image = image.resize((size[0], size[1]), method)
        return np.asarray(image)
