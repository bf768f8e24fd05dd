"""The Docker sandbox on the real engine: hardening, commands, files, health."""

from __future__ import annotations

import pytest

from envsuite.families.swe.dataset import tar_bytes
from envsuite.sandbox.docker_sandbox import DockerSandbox
from envsuite.sandbox.interface import FileAccessError, SandboxEnvironment
from envsuite.sandbox.output_limits import OutputLimits


@pytest.fixture
def sandbox(inflection_image):
    box = DockerSandbox.start(SandboxEnvironment(inflection_image, (".",)))
    box.load_repo(tar_bytes({"pkg/mod.py": b"VALUE = 41\n", "README": b"hello\n"}))
    yield box
    box.close()


def test_container_is_hardened(sandbox):
    attrs = sandbox.container.attrs["HostConfig"]
    assert attrs["NetworkMode"] == "none"
    assert attrs["CapDrop"] == ["ALL"] and not attrs["CapAdd"]
    assert "no-new-privileges" in attrs["SecurityOpt"]
    assert attrs["PidsLimit"] > 0 and attrs["Memory"] == attrs["MemorySwap"] > 0
    assert attrs["NanoCpus"] > 0 and attrs["Init"] is True
    result = sandbox.run("id -u; grep CapEff /proc/self/status; ls /sys/class/net")
    uid, caps, interfaces = result.output.split("\n", 2)
    assert uid == "1000"
    assert caps.split()[-1] == "0000000000000000"
    assert interfaces.split() == ["lo"]


def test_commands_run_in_the_repository_with_its_import_roots(sandbox):
    result = sandbox.run("pwd && python -c 'import pkg.mod as m; print(m.VALUE + 1)'")
    assert result.output == "/repo\n42\n" and result.exit_code == 0 and not result.timed_out


def test_exit_codes_and_stderr_are_reported(sandbox):
    result = sandbox.run("echo out; echo err >&2; exit 3")
    assert result.exit_code == 3 and result.output == "out\nerr\n"


def test_timeout_kills_the_whole_process_group(sandbox):
    result = sandbox.run("sleep 300 & sleep 300; echo never", timeout_s=1.5)
    assert result.timed_out and result.exit_code == 124 and "never" not in result.output
    assert sandbox.run("pgrep -c -f 'sleep [3]00' || true").output.strip() == "0"


def test_output_is_cut_to_head_and_tail(sandbox):
    limits = OutputLimits(keep_bytes=100, stream_bytes=1_000_000)
    result = sandbox.run("seq 1 20000", limits=limits)
    assert result.output.startswith("1\n2\n") and result.output.endswith("19999\n20000\n")
    assert result.bytes_cut == result.output_bytes - 100 and "bytes cut" in result.output


def test_files_are_written_and_read_as_the_user(sandbox):
    sandbox.write_file("new/dir/file.txt", "héllo\n".encode())
    assert sandbox.read_file("/repo/new/dir/file.txt") == "héllo\n".encode()
    assert sandbox.run("stat -c %u new/dir/file.txt").output.strip() == "1000"
    with pytest.raises(FileAccessError):
        sandbox.read_file("missing.txt")
    with pytest.raises(FileAccessError):
        sandbox.read_file("../etc/passwd")
    sandbox.run("ln -s /etc/passwd link")
    with pytest.raises(FileAccessError):
        sandbox.write_file("link", b"root::0:0::/:/bin/sh\n")
    sandbox.run("head -c 100 /dev/zero > big")
    with pytest.raises(FileAccessError):
        sandbox.read_file("big", max_bytes=10)


def test_health_reports_a_dead_container(sandbox):
    assert sandbox.health() is None
    sandbox.run("kill 1", timeout_s=5)
    sandbox.container.wait(timeout=30)
    assert "stopped" in (sandbox.health() or "")


def test_the_sealed_copy_belongs_to_root_and_the_user_cannot_change_it(sandbox):
    sealed = sandbox.seal_repo({"test_extra.py": b"X = 1\n"})
    result = sandbox.run(
        f"cd {sealed}; cat pkg/mod.py test_extra.py; stat -c %U pkg/mod.py; "
        "touch new; echo 1 > pkg/mod.py; rm test_extra.py; chmod u+w pkg/mod.py"
    )
    assert result.output.startswith("VALUE = 41\nX = 1\nroot\n")
    assert result.output.count("Permission denied") + result.output.count("not permitted") == 4
    assert sandbox.run(f"cat {sealed}/pkg/mod.py").output == "VALUE = 41\n"


def test_the_collector_keeps_what_the_channels_carry_and_the_user_cannot_stop_it(sandbox):
    collector = sandbox.start_collector()
    pid = f"$(cat {collector.folder}/collector.pid)"
    result = sandbox.run(
        f"exec 3>{collector.events_path} 4>{collector.junit_path}; echo hello >&3; "
        f"echo '<x/>' >&4; kill -TERM {pid} 2>&1; cat {collector.events_path} 2>&1; "
        f"test -e {collector.events_path} || echo names-gone"
    )
    assert "not permitted" in result.output and "names-gone" in result.output
    collected = collector.finish()
    assert collected.connected and collected.ended == (True, True)
    assert (collected.events, collected.junit) == ("hello\n", "<x/>\n")


def test_a_collector_nobody_connects_to_is_stopped_and_says_so(sandbox):
    collected = sandbox.start_collector().finish()
    assert collected.error is None and not collected.connected and collected.events == ""
