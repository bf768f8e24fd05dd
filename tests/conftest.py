"""The test configuration: Docker and every extra are required unless opted out.

The README's test command (which CI runs verbatim) installs every extra and a machine with
Docker, so a test that finds one missing fails instead of skipping. A machine without
Docker opts out explicitly with ``ENVSUITE_REQUIRE_DOCKER=0``; one without some extra with
``ENVSUITE_REQUIRE_ALL_EXTRAS=0``. Set here, before any test module is imported, because
several modules read these variables at import time.
"""

from __future__ import annotations

import os

#: The variables and their default in the tests (``0`` in the environment opts out).
REQUIRED_BY_DEFAULT = ("ENVSUITE_REQUIRE_DOCKER", "ENVSUITE_REQUIRE_ALL_EXTRAS")

for _variable in REQUIRED_BY_DEFAULT:
    os.environ.setdefault(_variable, "1")


def pytest_sessionstart(session):
    """Build the fresh-machine image during collection when the run will want it."""
    from tests.fresh_machine_runs import start_image_build_early

    start_image_build_early(session.config)


def pytest_collection_modifyitems(config, items):
    """Start the README's commands on a fresh machine early (see tests/fresh_machine_runs.py)."""
    from tests.fresh_machine import setup_commands
    from tests.fresh_machine_runs import start_fresh_machine_runs

    commands = setup_commands()
    if len(commands) == 2:  # otherwise test_readme_sets_up_with_two_one_line_commands fails
        start_fresh_machine_runs(config, items, (commands[0], commands[1]))


def pytest_sessionfinish(session, exitstatus):
    """Kill what is left of the fresh-machine runs and remove their image."""
    from tests.fresh_machine_runs import stop_fresh_machine_runs

    stop_fresh_machine_runs(session.config)
