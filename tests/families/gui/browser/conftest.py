"""A browser shared by the module's tests (starting Chromium takes about a second)."""

from __future__ import annotations

import os

import pytest

from envsuite.families.gui.browser import BrowserScreen, BrowserUnavailable
from envsuite.families.gui.browser.chromium_process import chromium_binary


def require_chromium() -> None:
    """Skip (or fail, when every extra is required) without Debian's Chromium."""
    try:
        chromium_binary()
    except BrowserUnavailable:
        if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") == "1":
            pytest.fail("chromium is required (scripts/install-system-packages installs it)")
        pytest.skip("chromium is not installed")


@pytest.fixture(scope="module")
def browser():
    require_chromium()
    with BrowserScreen() as screen:
        yield screen
