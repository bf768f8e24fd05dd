"""The README's two set-up commands pass on a fresh machine, and CI runs exactly the second.

Each command runs verbatim, as README.md has it, in its own container of a fresh Debian 12
machine (see :mod:`tests.fresh_machine`: envsuite's debootstrap rootfs with python3.11,
python3-venv, pip, git and ca-certificates) holding a clean copy of the repository (the
files a commit of the working tree would hold; no .git, .venv, runs/ or caches):

- the main job must exit 0 and leave ``runs/demo/report/report.md`` and its PNG figures;
- the test command must install the Debian packages (``scripts/install-system-packages``),
  the ``test`` extra, collect the whole suite and pass its share of it.

Its share: the suite inside and the outer one split the test modules between them, each
module running once, on whichever side claims it first (:mod:`tests.split_suite`); the
container, ready minutes after the outer suite starts, takes what is left when it gets
there. The outer suite keeps what needs Docker (there is no Docker engine in the container,
which runs with ``ENVSUITE_REQUIRE_DOCKER=0``: the swe family's sandboxes, images and SWE
env in containers), this module (``ENVSUITE_FRESH_MACHINE=1`` stops the recursion) and the
tests marked ``host_only``. A test that skips inside (the leaderboard's ``check-frozen``:
the copy is not a git checkout) is handed back and runs outside. Every extra, chromium and
headless EGL rendering run inside, in the modules the container takes.

Both commands start in the background as soon as pytest has collected these tests (see
:mod:`tests.fresh_machine_runs`): the suite inside runs beside the outer one instead of
after it. These tests run last and wait for their command's result.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from envsuite.sandbox.docker_client import REQUIRE_DOCKER_VARIABLE, docker_required
from tests.fresh_machine import README, setup_commands
from tests.fresh_machine_runs import (
    INNER_VARIABLE,
    FreshMachineRuns,
    docker_problem,
    started_runs,
)

CI_RUN = README.parent / ".ci" / "run"
INSTALL_SCRIPT = "scripts/install-system-packages"


def test_readme_sets_up_with_two_one_line_commands():
    commands = setup_commands()
    assert len(commands) == 2 and all("\n" not in command for command in commands), commands
    main_job, tests = commands
    assert "envsuite report runs/demo" in main_job
    assert tests.startswith(f"{INSTALL_SCRIPT} && ") and tests.endswith("&& pytest"), tests


def test_ci_runs_exactly_the_readme_test_command():
    result = subprocess.run(
        [str(CI_RUN), "--print-command"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == setup_commands()[1]


def _checkout_with_setup(tmp_path: Path, *blocks: str) -> Path:
    """A folder with .ci/run and a README whose "Set up" holds ``blocks``; the script's path."""
    (tmp_path / ".ci").mkdir()
    shutil.copy(CI_RUN, tmp_path / ".ci" / "run")
    fenced = "".join(f"```bash\n{block}\n```\n\n" for block in blocks)
    (tmp_path / "README.md").write_text(
        f"# x\n\n## Set up\n\n{fenced}## Next\n\n```bash\nno\n```\n"
    )
    return tmp_path / ".ci" / "run"


@pytest.mark.parametrize(
    ("command", "status", "message"),
    [
        ("touch ran && echo ok", 0, "ci: passed"),
        ("touch ran && exit 5", 1, "pytest collected no tests"),
        ("touch ran && exit 3", 3, "exited with 3"),
    ],
)
def test_ci_runs_the_readme_test_command_and_judges_its_status(tmp_path, command, status, message):
    ci_run = _checkout_with_setup(tmp_path, "echo main job", command)
    result = subprocess.run([str(ci_run)], capture_output=True, text=True, check=False)
    assert result.returncode == status and message in result.stdout + result.stderr
    assert (tmp_path / "ran").exists()  # in the checkout's root


def test_ci_refuses_a_set_up_section_without_exactly_two_commands(tmp_path):
    ci_run = _checkout_with_setup(tmp_path, "echo one", "echo two", "echo three")
    result = subprocess.run([str(ci_run)], capture_output=True, text=True, check=False)
    assert result.returncode == 1 and "must hold two one-line bash blocks" in result.stderr


# The fresh machine: Docker (and root, for debootstrap) on this machine. Both commands start
# in the background as soon as these tests are collected (tests/fresh_machine_runs.py), so
# the suite inside the container runs beside the outer one; these tests run last and wait.

skip_inside_fresh_machine = pytest.mark.skipif(
    os.environ.get(INNER_VARIABLE) == "1",
    reason="inside the fresh-machine container (no Docker; it would recurse)",
)


@pytest.fixture
def fresh_runs(request: pytest.FixtureRequest) -> FreshMachineRuns:
    runs = started_runs(request.config)
    if runs is None:
        problem = docker_problem()
        if problem is not None and docker_required():
            pytest.fail(
                f"Docker is required ({REQUIRE_DOCKER_VARIABLE}=1) but unavailable: {problem}"
            )
        pytest.skip(f"Docker is not available: {problem}")
    return runs


@skip_inside_fresh_machine
def test_readme_main_job_runs_on_a_fresh_machine(fresh_runs: FreshMachineRuns):
    main_job = fresh_runs.main_job.result()
    print(f"fresh machine: the README's main job took {main_job.run.seconds:.0f} s")
    assert main_job.run.status == 0 and not main_job.run.timed_out, main_job.run.describe()
    report = main_job.report_files
    assert "report.md" in report and any(name.endswith(".png") for name in report), report


@skip_inside_fresh_machine
def test_readme_test_command_passes_on_a_fresh_machine(fresh_runs: FreshMachineRuns):
    run = fresh_runs.test_command.result()
    print(f"fresh machine: the README's test command took {run.seconds:.0f} s")
    for line in run.tail:
        if line.startswith("suite split:"):
            print(f"fresh machine: {line.strip()}")
    assert run.status == 0 and not run.timed_out, run.describe()
    # Its share can be empty when this machine ran every module before the container was
    # ready; the command still installed everything and collected the whole suite.
    assert re.search(r"=+ (\d+ passed|no tests ran)", "".join(run.tail)), run.describe()
