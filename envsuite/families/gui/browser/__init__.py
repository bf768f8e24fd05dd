"""The ``gui`` family's real-browser backend: the same screens in Debian's headless Chromium.

A :class:`~envsuite.families.gui.screen.Screen` is drawn as HTML/CSS (absolute positions
from :func:`~envsuite.families.gui.placement.place`, the theme's colours, the shipped DejaVu
fonts through ``@font-face`` file URLs, element ids on the DOM nodes); a page script
(``page.js``) gives the widgets the simulator's semantics
(:func:`~envsuite.families.gui.events.dispatch`); actions are performed as real input
(pointer, wheel, keys, text insertion) and the page's widget state is written back into
the Python screen, so the app and task logic run on the same objects in both backends.

Driver choice: the DevTools protocol over ``--remote-debugging-pipe``, not Debian's
chromedriver and not a websocket. The protocol is what the backend needs (input events
at pixel coordinates, ``Input.insertText`` as an input method commits text, clipped PNG
screenshots, script evaluation with a result), all in one process and one round trip per
call; chromedriver would add a second process to start, watch and kill, its W3C actions
have no text insertion and it speaks HTTP on a port. The pipe opens no port at all (no
socket, no port race, nothing for a test's socket guard to block) and needs no package
beyond the standard library. Chromium comes from Debian (``scripts/install-system-packages``);
nothing is downloaded at run time.
"""

from envsuite.families.gui.browser.browser_screen import BrowserScreen
from envsuite.families.gui.browser.chromium_process import (
    BrowserCrashed,
    BrowserError,
    BrowserHung,
    BrowserUnavailable,
)

__all__ = ["BrowserCrashed", "BrowserError", "BrowserHung", "BrowserScreen", "BrowserUnavailable"]
