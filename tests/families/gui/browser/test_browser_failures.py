"""Crashes and hangs are detected, the browser restarted, and no process is left behind."""

from __future__ import annotations

import gc
import os
import signal
import time
from pathlib import Path

import pytest

from envsuite.families.gui.action_grammar import parse_gui_action
from envsuite.families.gui.browser import BrowserCrashed, BrowserError, BrowserHung, BrowserScreen
from envsuite.families.gui.browser.chromium_process import processes_naming
from envsuite.families.gui.events import dispatch
from envsuite.families.gui.showcase import showcase_screen
from envsuite.families.gui.state_digest import state_digest
from tests.families.gui.browser.conftest import require_chromium


def live_processes_in_group(group: int) -> list[int]:
    """Pids of the running (not zombie) processes in process group ``group``."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[2]) == group and fields[0] != "Z":
            pids.append(int(entry.name))
    return pids


def wait_gone(group: int) -> list[int]:
    """The group's live processes after waiting up to 10 s for them to go."""
    for _ in range(100):
        left = live_processes_in_group(group)
        if not left:
            return []
        time.sleep(0.1)
    return left


@pytest.fixture
def fresh():
    require_chromium()
    screens: list[BrowserScreen] = []

    def make(**kwargs) -> BrowserScreen:
        screen = BrowserScreen(**kwargs)
        screens.append(screen)
        return screen

    yield make
    for screen in screens:
        screen.close()


def act(browser, screen, text):
    return browser.perform(screen, parse_gui_action(text))


def test_a_killed_browser_is_an_error_then_a_new_one_takes_over(fresh):
    browser = fresh()
    sim, real = showcase_screen(), showcase_screen()
    for text in ['type("Ada")', "key(tab)"]:
        dispatch(sim, parse_gui_action(text))
        act(browser, real, text)
    group = browser.process.pid
    os.killpg(group, signal.SIGKILL)
    with pytest.raises(BrowserCrashed):
        act(browser, real, "key(tab)")
    assert browser.restarts == 1 and browser.process is None
    assert wait_gone(group) == []
    # The failed action changed nothing; the next one runs in a new browser that shows
    # the screen as the Python side holds it.
    assert state_digest(real) == state_digest(sim)
    for text in ["key(tab)", "key(space)", "click(name)", 'type("!")']:
        dispatch(sim, parse_gui_action(text))
        act(browser, real, text)
    assert state_digest(real) == state_digest(sim) and real.find("name").value == "Ada!"
    assert browser.process is not None and browser.process.pid != group


def test_a_crashed_page_renderer_is_an_error_then_a_new_browser_takes_over(fresh):
    browser = fresh()
    real = showcase_screen()
    act(browser, real, "click(name)")
    profile = browser.process.profile
    renderers = [
        pid
        for pid in processes_naming(profile)
        if b"--type=renderer" in Path(f"/proc/{pid}/cmdline").read_bytes()
        and b"top-chrome" not in Path(f"/proc/{pid}/cmdline").read_bytes()
    ]
    assert renderers
    for pid in renderers:
        os.kill(pid, signal.SIGKILL)
    with pytest.raises(BrowserCrashed):
        for _ in range(20):  # the crash is noticed within a call or two
            act(browser, real, "key(tab)")
            time.sleep(0.05)
    assert browser.restarts == 1 and processes_naming(profile) == []
    act(browser, real, 'type("x")')
    assert browser.process is not None


def test_chords_the_browser_keeps_for_itself_cannot_close_it(fresh):
    browser = fresh()
    sim, real = showcase_screen(), showcase_screen()
    group = browser.process.pid if browser.process else None
    for key in ["ctrl+w", "ctrl+shift+w", "meta+w", "ctrl+q", "ctrl+n", "ctrl+t", "alt+left"]:
        dispatch(sim, parse_gui_action(f"key({key!r})"))
        act(browser, real, f"key({key!r})")
        assert state_digest(real) == state_digest(sim), key
    assert browser.restarts == 0 and group in (None, browser.process.pid)
    assert browser.run_script("location.href").endswith("envsuite-gui.html")


def test_a_page_script_that_never_returns_is_a_hang_not_a_wait(fresh):
    browser = fresh(call_timeout=2.0)
    real = showcase_screen()
    act(browser, real, "click(name)")
    group = browser.process.pid
    # The page's next key handler never returns (as a runaway page script would not).
    browser.run_script("window.addEventListener('keydown', () => { for (;;) {} }, true); true")
    with pytest.raises(BrowserHung):
        act(browser, real, "key(a)")
    assert browser.restarts == 1 and wait_gone(group) == []
    act(browser, real, 'type("kept")')
    assert real.find("name").value == "kept"


def test_a_script_that_throws_is_a_browser_error(fresh):
    browser = fresh()
    with pytest.raises(BrowserError, match="boom"):
        browser.run_script("(() => { throw new Error('boom'); })()")
    act(browser, showcase_screen(), "key(tab)")  # and the next call works


def test_close_leaves_no_process_behind(fresh):
    browser = fresh()
    act(browser, showcase_screen(), "click(save)")
    group = browser.process.pid
    assert len(live_processes_in_group(group)) > 1  # the browser and its helpers
    profile = browser.process.profile
    browser.close()
    assert wait_gone(group) == [] and browser.process is None
    assert processes_naming(profile) == [] and not profile.exists()  # crash handlers too
    browser.close()  # twice is fine


def test_a_forgotten_browser_is_killed_when_collected(fresh):
    require_chromium()
    browser = BrowserScreen()
    browser.start()
    group = browser.process.pid
    del browser
    gc.collect()
    assert wait_gone(group) == []


def test_a_forked_copy_starts_its_own_browser_and_leaves_the_parents_alone(fresh):
    browser = fresh()
    real = showcase_screen()
    act(browser, real, "click(name)")
    parent_pid = browser.process.pid
    child = os.fork()
    if child == 0:  # the copy: act, close, and report through the exit status
        status = 1
        try:
            act(browser, real, 'type("child")')
            ok = browser.process.pid != parent_pid and real.find("name").value == "child"
            browser.close()
            status = 0 if ok else 2
        finally:
            os._exit(status)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert browser.process.pid == parent_pid and browser.process.alive()
    act(browser, real, 'type("parent")')
    assert real.find("name").value == "parent"


def test_the_page_reaches_no_network(fresh):
    browser = fresh()
    outcome = browser.run_script(
        "fetch('http://example.com/', {mode: 'no-cors'}).then(() => 'reached', () => 'refused')"
    )
    assert outcome == "refused"
