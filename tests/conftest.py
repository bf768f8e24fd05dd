"""The test configuration: Docker and every extra are required unless opted out.

The README's test command (which CI runs verbatim) installs every extra and a machine with
Docker, so a test that finds one missing fails instead of skipping. A machine without
Docker opts out explicitly with ``ENVSUITE_REQUIRE_DOCKER=0``; one without some extra with
``ENVSUITE_REQUIRE_ALL_EXTRAS=0``. Set here, before any test module is imported, because
several modules read these variables at import time.
"""

from __future__ import annotations

import os

import pytest

#: The variables and their default in the tests (``0`` in the environment opts out).
REQUIRED_BY_DEFAULT = ("ENVSUITE_REQUIRE_DOCKER", "ENVSUITE_REQUIRE_ALL_EXTRAS")

for _variable in REQUIRED_BY_DEFAULT:
    os.environ.setdefault(_variable, "1")


def pytest_sessionstart(session):
    """Build the fresh-machine image during collection when the run will want it."""
    from tests.fresh_machine_runs import start_image_build_early

    start_image_build_early(session.config)


@pytest.hookimpl(trylast=True)  # after -k, -m, --deselect and --lf have chosen the tests
def pytest_collection_modifyitems(config, items):
    """Start the README's commands on a fresh machine early (see tests/fresh_machine_runs.py).

    Only for the tests that will run: a fresh-machine test deselected by ``-k`` starts no
    container, and no suite split waits for one.
    """
    from tests.fresh_machine import setup_commands
    from tests.fresh_machine_runs import start_fresh_machine_runs
    from tests.split_suite import SPLIT_KEY, container_split

    inside = container_split()
    if inside is not None:  # in the fresh machine, sharing the suite with the host
        config.stash[SPLIT_KEY] = inside
    commands = setup_commands()
    if len(commands) == 2:  # otherwise test_readme_sets_up_with_two_one_line_commands fails
        start_fresh_machine_runs(config, items, (commands[0], commands[1]))


def pytest_runtestloop(session):
    """Run this side's share of a suite split with the fresh machine (tests/split_suite.py)."""
    from tests.split_suite import SPLIT_KEY, run_split

    split = session.config.stash.get(SPLIT_KEY, None)
    return None if split is None else run_split(session, split)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """Say what this side of a suite split ran."""
    from tests.split_suite import SPLIT_KEY

    split = config.stash.get(SPLIT_KEY, None)
    if split is not None:
        terminalreporter.write_line(split.summary(exitstatus == pytest.ExitCode.INTERRUPTED))


def pytest_sessionfinish(session, exitstatus):
    """Kill what is left of the fresh-machine runs and remove their image and queue."""
    from tests.fresh_machine_runs import stop_fresh_machine_runs
    from tests.split_suite import SPLIT_KEY

    stop_fresh_machine_runs(session.config)
    split = session.config.stash.get(SPLIT_KEY, None)
    if split is not None:
        split.close()
