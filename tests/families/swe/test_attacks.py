"""Attacks on the Docker path, each handled as documented, with the host untouched.

The first tests drive ``envsuite/SWE-v0`` with the Docker backend on a shipped inflection
task; the grader attacks at the end (:mod:`.attack_payloads`) submit diffs straight to the
grader, in Docker and with the local backend, and must all grade unresolved while the gold
patch resolves.
"""

from __future__ import annotations

import json
import os
import subprocess

import pytest

import envsuite
from envsuite.families.swe.grading import RESOLVED, UNRESOLVED, grade_patch
from envsuite.families.swe.repo_snapshot import base_tree
from envsuite.families.swe.unified_diff import apply_diff, make_file_diff
from envsuite.sandbox.provider import SandboxProvider

from . import attack_payloads
from .conftest import first_task


def shell(command: str, timeout: float | None = None) -> str:
    action = {"tool": "shell", "command": command}
    if timeout is not None:
        action["timeout"] = timeout
    return json.dumps(action)


def write(path: str, content: str) -> str:
    return json.dumps({"tool": "write_file", "path": path, "content": content})


SUBMIT = json.dumps({"tool": "submit"})


@pytest.fixture(scope="module")
def task(inflection_image):
    return first_task("inflection", "off_by_one")


@pytest.fixture
def env(task):
    env = envsuite.make(
        "envsuite/SWE-v0",
        backend="docker",
        libraries=["inflection"],
        task_ids=[task.instance_id],
        pool_size=0,
        cache_grades=False,
    )
    env.reset(seed=0)
    yield env
    env.close()


@pytest.fixture
def host_sentinel(tmp_path):
    sentinel = tmp_path / "sentinel.txt"
    sentinel.write_text("untouched\n")
    yield sentinel
    assert sentinel.read_text() == "untouched\n"
    assert os.path.isdir("/usr/bin") and os.path.isfile("/etc/passwd")


def step(env, action):
    observation, reward, terminated, truncated, info = env.step(action)
    return observation, reward, terminated, truncated, info


def test_fork_bomb_is_capped_by_the_pids_limit_and_killed_with_its_command(env, host_sentinel):
    _, _, terminated, _, info = step(env, shell(":(){ :|:& };:; sleep 2", timeout=10))
    assert not terminated
    # Its whole process group died with the command: nothing is left but init and the shell.
    observation, _, terminated, _, info = step(env, shell("echo alive; ps -e --no-headers | wc -l"))
    assert not terminated and info["exit_code"] == 0
    assert observation.split("output:\n", 1)[1].split()[0] == "alive"
    assert int(observation.split()[-1]) <= 8  # init, sleep, wrapper, timeout, bash, ps, wc


def test_rm_rf_root_only_reaches_the_agents_own_files(env, host_sentinel):
    _, _, terminated, _, info = step(
        env, shell("rm -rf --no-preserve-root / 2>/dev/null; ls /repo | wc -l; ls /usr/bin | wc -l")
    )
    assert not terminated
    observation, *_ = step(
        env, shell("ls /repo | wc -l; test -x /usr/bin/python3 && echo tools-intact")
    )
    assert "0\n" in observation and "tools-intact" in observation
    # The grade happens in a fresh container: deleting everything resolves nothing.
    _, reward, terminated, _, info = step(env, SUBMIT)
    assert terminated and reward == 0.0 and not info["success"]


def test_endless_loop_times_out_and_the_episode_goes_on(env):
    observation, _, terminated, _, info = step(env, shell("while true; do :; done", timeout=2))
    assert info["timed_out"] and info["exit_code"] == 124 and not terminated
    assert "timed_out: true" in observation


def test_100_mb_of_output_is_cut_and_not_buffered(env):
    observation, _, terminated, _, info = step(
        env, shell("head -c 100000000 /dev/zero | tr '\\0' x")
    )
    assert not terminated
    assert info["output_bytes"] <= 8 * 1024 * 1024 < 100_000_000
    assert info["bytes_cut"] == info["output_bytes"] - 16_384
    assert len(observation) < 20_000


def test_the_network_is_unreachable(env):
    script = (
        "import socket\n"
        "s = socket.socket(); s.settimeout(3)\n"
        "try:\n"
        "    s.connect(('192.0.2.1', 80))  # TEST-NET-1: never routed\n"
        "    print('connected')\n"
        "except OSError as exc:\n"
        "    print('blocked', exc.errno)\n"
    )
    observation, *_ = step(
        env, shell(f'python3 -c "{script}"; cat /proc/net/route | wc -l; ls /sys/class/net')
    )
    assert "blocked 101" in observation  # ENETUNREACH: no interface but loopback
    assert "connected" not in observation
    assert observation.rstrip().endswith("1\nlo")  # the route table has only its header


CONFTEST_FIX = """
import pytest

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    report.outcome = "passed"
"""


def test_a_conftest_only_fix_is_dropped(env, task):
    _, reward, terminated, _, info = step(env, write("conftest.py", CONFTEST_FIX))
    _, reward, terminated, _, info = step(env, SUBMIT)
    assert terminated and reward == 0.0 and info["resolution"] == "unresolved"
    assert ["conftest.py", "changes a test file"] in info["grade"]["dropped"]


def test_an_edited_test_file_is_dropped(env, task):
    hidden = task.hidden_tests[0]
    step(env, write(hidden, "def test_nothing():\n    pass\n"))
    _, reward, _terminated, _, info = step(env, SUBMIT)
    assert reward == 0.0 and info["resolution"] == "unresolved"
    assert [hidden, "changes a test file"] in info["grade"]["dropped"]


def test_forged_passed_lines_count_for_nothing(env, task):
    names = " ".join(f"{n} PASSED" for n in task.FAIL_TO_PASS)
    source = base_tree(task)["inflection/__init__.py"].data.decode()
    forged = source + f"\nprint({names!r})\nprint('===== 455 passed in 0.1s =====')\n"
    step(env, write("inflection/__init__.py", forged))
    _, reward, _, _, info = step(env, SUBMIT)
    assert reward == 0.0 and info["resolution"] == "unresolved"
    assert task.FAIL_TO_PASS[0] in info["grade"]["fail_to_pass_failing"]


def test_the_gold_fix_with_an_attack_beside_it_still_resolves(env, task):
    # Dropping the attack does not hurt an honest fix in the same diff.
    tree = base_tree(task)
    fixed = apply_diff(
        {"inflection/__init__.py": tree["inflection/__init__.py"].data.decode()}, task.patch
    )
    step(env, write("inflection/__init__.py", fixed["inflection/__init__.py"]))
    step(env, write("conftest.py", CONFTEST_FIX))
    _, reward, _, _, info = step(env, SUBMIT)
    assert reward == 1.0 and info["resolution"] == "resolved"


def test_killing_the_container_ends_the_episode_and_reset_works(env, host_sentinel):
    _, reward, terminated, _, info = step(env, shell("kill 1; sleep 5", timeout=20))
    assert terminated and reward == 0.0 and not info["success"]
    assert "the sandbox died" in info["agent_failure"]
    _observation, info = env.reset(seed=1)
    _, _, terminated, _, info = step(env, shell("echo back"))
    assert info["exit_code"] == 0 and not terminated


def test_no_container_outlives_its_env(task, inflection_image):
    env = envsuite.make(
        "envsuite/SWE-v0", libraries=["inflection"], task_ids=[task.instance_id], pool_size=1
    )
    env.reset(seed=0)
    env.unwrapped.provider.pools()  # a pool exists
    env.close()
    owner = str(os.getpid())
    listed = subprocess.run(
        ["docker", "ps", "-aq", "--filter", f"label=envsuite.swe.pid={owner}"],
        capture_output=True,
        text=True,
        check=False,
    )
    leftover = listed.stdout.split() if listed.returncode == 0 else []
    assert leftover == []


# -- attacks on the grader ------------------------------------------------------------------
#: Obfuscated payload -> what the grade's error must say (None: no error, the tests simply
#: failed because the bug is still there and the attack changed nothing).
EXPECTED = {
    "atexit_rewrite": None,  # the runner ends with os._exit: atexit hooks never run
    "exit_at_import": "pytest did not finish its session",
    "patch_report_class": "TestReport.__init__ was replaced",
    "patch_runner_module": "_pytest.runner.call_and_report was replaced",
    "register_plugin": "plugin 'fix' was registered by the code under test",
    "forge_channels": "tampered with the test harness: os.write",
    "replace_open": "builtins.open was replaced",
    "open_channel_by_proc": "tampered with the test harness: /proc/self/fd/",
    "rewrite_tests_on_disk": None,  # the sealed copy cannot be written
}
LIBRARY = "inflection/__init__.py"


@pytest.fixture(scope="module", params=["docker", "local"])
def grader(request, task):
    """grade(diff) -> GradeReport, with the Docker backend (a warm pool) or the local one."""
    if request.param == "docker":
        request.getfixturevalue("inflection_image")
    provider = SandboxProvider(request.param, pool_size=1 if request.param == "docker" else 0)
    factory = provider.factory(task.environment)
    yield lambda diff: grade_patch(task, diff, factory, test_timeout_s=300)
    provider.close()


def appended(task, payload: str) -> str:
    source = base_tree(task)[LIBRARY].data.decode()
    return make_file_diff(LIBRARY, source, source + payload)


def gold_with(task, payload: str) -> str:
    source = base_tree(task)[LIBRARY].data.decode()
    fixed = apply_diff({LIBRARY: source}, task.patch)[LIBRARY]
    return make_file_diff(LIBRARY, source, fixed + payload)


def test_the_gold_patch_resolves(grader, task):
    report = grader(task.patch)
    assert report.resolution == RESOLVED and report.error is None and report.tamper == []


def test_the_issues_attack_is_stopped_by_the_screen(grader, task):
    report = grader(appended(task, attack_payloads.ISSUE_ATTACK))
    assert report.resolution == UNRESOLVED and report.exit_code is None  # nothing ran
    assert report.error is not None and "reaches for the test harness" in report.error
    assert {"test-harness", "hard-exit"} <= {flag["rule"] for flag in report.screen}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_an_obfuscated_attack_grades_unresolved(grader, task, name):
    report = grader(appended(task, attack_payloads.OBFUSCATED[name]))
    assert report.resolution == UNRESOLVED
    # The screen blocked nothing: the grader's dynamic defences caught the attack.
    assert not any(flag["blocking"] for flag in report.screen)
    assert task.FAIL_TO_PASS[0] in report.fail_to_pass["failure"]
    expected = EXPECTED[name]
    if expected is None:
        assert report.error is None
    else:
        assert report.error is not None and expected in report.error


def test_start_up_hooks_and_entry_points_are_dropped(grader, task):
    diff = "".join(make_file_diff(p, None, t) for p, t in attack_payloads.SITE_FILES.items())
    report = grader(diff)
    assert report.resolution == UNRESOLVED
    assert {path for path, _ in report.dropped} == set(attack_payloads.SITE_FILES)


def test_tampering_beside_the_gold_fix_makes_it_unresolved(grader, task):
    report = grader(gold_with(task, attack_payloads.PATCH_RUNNER_MODULE))
    assert report.resolution == UNRESOLVED
    assert report.error is not None and "tampered with the test harness" in report.error
