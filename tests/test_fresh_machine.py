"""The README's two set-up commands pass on a fresh machine, and CI runs exactly the second.

Each command runs verbatim, as README.md has it, in its own container of a fresh Debian 12
machine (see :mod:`tests.fresh_machine`: envsuite's debootstrap rootfs with python3.11,
python3-venv, pip, git and ca-certificates) holding a clean copy of the repository (the
files a commit of the working tree would hold; no .git, .venv, runs/ or caches):

- the main job must exit 0 and leave ``runs/demo/report/report.md`` and its PNG figures;
- the test command must install the Debian packages (``scripts/install-system-packages``),
  the ``test`` extra, and pass the whole suite.

What the inner suite covers: everything the outer one does except what needs Docker or a
git checkout. There is no Docker engine in the container, so it runs with
``ENVSUITE_REQUIRE_DOCKER=0``: the swe family's Docker tests (sandboxes, images, the SWE
env in containers) skip inside, and so does this module (``ENVSUITE_FRESH_MACHINE=1``
stops the recursion); they run in the outer suite, on the machine with Docker. The
leaderboard's ``check-frozen`` test skips inside too (the copy is not a git checkout).
Every extra, chromium and headless EGL rendering run inside.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from envsuite.errors import MissingExtraError
from envsuite.sandbox.docker_client import (
    REQUIRE_DOCKER_VARIABLE,
    docker_required,
    docker_unavailable_reason,
)
from tests.fresh_machine import (
    build_fresh_machine_image,
    container_settings,
    fresh_container,
    list_files,
    remove_image,
    run_to_end,
)

README = Path(__file__).resolve().parents[1] / "README.md"
CI_RUN = README.parent / ".ci" / "run"
#: Set in the fresh-machine containers: the suite inside does not run this module again.
INNER_VARIABLE = "ENVSUITE_FRESH_MACHINE"
INSTALL_SCRIPT = "scripts/install-system-packages"
#: Generous upper bounds; a command that needs more has hung.
MAIN_JOB_TIMEOUT_S = 15 * 60
TEST_COMMAND_TIMEOUT_S = 40 * 60


def setup_commands() -> list[str]:
    """The one-line commands of the ``bash`` blocks in README.md's "Set up" section."""
    text = README.read_text(encoding="utf-8")
    section = re.search(r"^## Set up\n(.*?)(?=^## )", text, re.S | re.M)
    assert section, "README.md has no '## Set up' section"
    return [block.strip() for block in re.findall(r"^```bash\n(.*?)^```", section[1], re.S | re.M)]


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


# The fresh machine: Docker (and root, for debootstrap) on this machine.

skip_inside_fresh_machine = pytest.mark.skipif(
    os.environ.get(INNER_VARIABLE) == "1",
    reason="inside the fresh-machine container (no Docker; it would recurse)",
)


@pytest.fixture(scope="module")
def fresh_image():
    try:
        problem = docker_unavailable_reason()
    except MissingExtraError as exc:
        problem = str(exc)
    if problem is not None:
        if docker_required():
            pytest.fail(
                f"Docker is required ({REQUIRE_DOCKER_VARIABLE}=1) but unavailable: {problem}"
            )
        pytest.skip(f"Docker is not available: {problem}")
    tag = build_fresh_machine_image()
    yield tag
    remove_image(tag)


def _inner_environment() -> dict[str, str]:
    # Unbuffered output: after a kill, the log still shows where the command was; the
    # slowest tests are listed in it (neither changes what runs).
    return {
        INNER_VARIABLE: "1",
        "ENVSUITE_REQUIRE_DOCKER": "0",
        "PYTHONUNBUFFERED": "1",
        "PYTEST_ADDOPTS": "--durations=15",
    }


@skip_inside_fresh_machine
def test_readme_main_job_runs_on_a_fresh_machine(fresh_image: str, tmp_path: Path):
    command = setup_commands()[0]
    with fresh_container(fresh_image, command, container_settings(), _inner_environment()) as box:
        run = run_to_end(box, tmp_path / "main-job.log", MAIN_JOB_TIMEOUT_S)
        print(f"fresh machine: the README's main job took {run.seconds:.0f} s")
        assert run.status == 0 and not run.timed_out, run.describe()
        report = list_files(box, "/root/envsuite/runs/demo/report")
    assert "report.md" in report and any(name.endswith(".png") for name in report), report


@skip_inside_fresh_machine
def test_readme_test_command_passes_on_a_fresh_machine(fresh_image: str, tmp_path: Path):
    command = setup_commands()[1]
    with fresh_container(fresh_image, command, container_settings(), _inner_environment()) as box:
        run = run_to_end(box, tmp_path / "test-command.log", TEST_COMMAND_TIMEOUT_S)
    print(f"fresh machine: the README's test command took {run.seconds:.0f} s")
    assert run.status == 0 and not run.timed_out, run.describe()
    assert re.search(r"=+ \d+ passed", "".join(run.tail)), run.describe()
