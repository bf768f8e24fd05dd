"""The local sandbox: the same command contract without isolation."""

from __future__ import annotations

import uuid
from collections import Counter
from pathlib import Path

import pytest

from envsuite.families.swe.dataset import tar_bytes
from envsuite.sandbox.interface import FileAccessError, SandboxEnvironment
from envsuite.sandbox.local_sandbox import LocalSandbox
from envsuite.sandbox.output_limits import OutputLimits


@pytest.fixture
def sandbox():
    box = LocalSandbox(SandboxEnvironment("", ("src",)))
    box.load_repo(tar_bytes({"src/pkg/__init__.py": b"VALUE = 1\n"}))
    yield box
    box.close()


def test_commands_run_in_the_copy_with_its_import_roots(sandbox):
    result = sandbox.run("python -c 'import pkg; print(pkg.VALUE)'; echo err >&2; exit 4")
    assert result.output == "1\nerr\n" and result.exit_code == 4


def _unique_sleep() -> tuple[str, str]:
    """A ``sleep`` command no other process runs, and a pgrep pattern that finds only it.

    pgrep sees every process of the machine, including another run of this suite (CI's
    fresh-machine container runs it at the same time), so each test sleeps its own time.
    """
    seconds = f"60.{uuid.uuid4().int % 10**9:09d}"
    return f"sleep {seconds}", f"'sleep [6]{seconds[1:]}'"


def test_timeout_kills_the_process_group(sandbox):
    sleep, pattern = _unique_sleep()
    result = sandbox.run(f"{sleep} & {sleep}", timeout_s=1)
    assert result.timed_out and result.exit_code == 124
    assert sandbox.run(f"pgrep -c -f {pattern} || true").output.strip() == "0"


def test_output_limit_kills_a_flood(sandbox):
    result = sandbox.run("yes", limits=OutputLimits(keep_bytes=64, stream_bytes=100_000))
    assert result.output_limit_hit and result.output_bytes == 100_000
    assert result.bytes_cut == 100_000 - 64


def test_files_stay_inside_the_repository(sandbox):
    sandbox.write_file("/repo/a/b.txt", b"x")
    assert sandbox.read_file("a/b.txt") == b"x"
    for bad in ("../outside", "/etc/passwd", ""):
        with pytest.raises(FileAccessError):
            sandbox.read_file(bad)
    sandbox.run("ln -s /etc/passwd link")
    with pytest.raises(FileAccessError):
        sandbox.read_file("link")


def test_close_removes_everything(sandbox):
    root = sandbox.repo_dir
    sandbox.close()
    assert sandbox.health() is not None
    import os

    assert not os.path.exists(root)


def test_a_program_that_closes_its_output_before_exiting_keeps_its_exit_code(sandbox):
    # The output reaches end-of-file while the program still runs: it is waited for.
    script = "import os, time; os.close(1); os.close(2); time.sleep(0.3); raise SystemExit(3)"
    result = sandbox.run(f'exec python -c "{script}"')
    assert result.exit_code == 3 and not result.timed_out


def test_wc_exits_0_in_every_one_of_200_calls(sandbox):
    # wc closes stdout just before it exits; the sandbox once killed it in that window.
    sandbox.write_file("setup.py", b"a\nb\nc\n")
    results = [sandbox.run("wc -l setup.py") for _ in range(200)]
    assert Counter(r.exit_code for r in results) == {0: 200}
    assert {r.output for r in results} == {"3 setup.py\n"}


def test_a_background_job_holding_the_output_ends_with_its_command(sandbox):
    sleep, pattern = _unique_sleep()
    result = sandbox.run(f"{sleep} & echo started", timeout_s=30)
    assert result.exit_code == 0 and not result.timed_out and result.output == "started\n"
    assert sandbox.run(f"pgrep -c -f {pattern} || true").output.strip() == "0"


def test_the_sealed_copy_is_read_only_and_close_still_removes_it(sandbox):
    sealed = sandbox.seal_repo({"test_extra.py": b"X = 1\n"})
    assert (Path(sealed) / "src/pkg/__init__.py").read_text() == "VALUE = 1\n"
    assert (Path(sealed) / "test_extra.py").read_text() == "X = 1\n"
    # Modes, not a write attempt: root (CI) writes through any mode.
    modes = [p.stat().st_mode & 0o222 for p in [Path(sealed), *Path(sealed).rglob("*")]]
    assert len(modes) > 3 and not any(modes)
    sandbox.close()
    assert not Path(sealed).exists()


def test_the_local_collector_reads_both_channels(sandbox):
    collector = sandbox.start_collector()
    sandbox.run(f"exec 3>{collector.events_path} 4>{collector.junit_path}; echo e >&3; echo j >&4")
    collected = collector.finish()
    assert (collected.connected, collected.events, collected.junit) == (True, "e\n", "j\n")
    assert not sandbox.start_collector().finish().connected
