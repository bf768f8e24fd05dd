"""Repository tars unpack under the data filter's rules, also on Debian 12's Python 3.11.2.

Python 3.11.2 has no ``tarfile.data_filter`` and its ``extractall`` takes no ``filter``;
``without_data_filter`` makes this Python look like it.
"""

from __future__ import annotations

import io
import stat
import tarfile
from pathlib import Path

import pytest

from envsuite.families.swe.dataset import tar_bytes
from envsuite.sandbox.interface import SandboxEnvironment
from envsuite.sandbox.local_sandbox import LocalSandbox
from envsuite.sandbox.tar_extraction import extract_data


@pytest.fixture
def without_data_filter(monkeypatch):
    extractall = tarfile.TarFile.extractall

    def old_extractall(self, path=".", members=None, *, numeric_owner=False, **kwargs):
        if kwargs:
            raise TypeError(
                f"extractall() got an unexpected keyword argument {next(iter(kwargs))!r}"
            )
        return extractall(self, path, members, numeric_owner=numeric_owner)

    monkeypatch.delattr(tarfile, "data_filter", raising=False)
    monkeypatch.setattr(tarfile.TarFile, "extractall", old_extractall)


def _member(name: str, kind: bytes = tarfile.REGTYPE, mode: int = 0o644, link: str = ""):
    info = tarfile.TarInfo(name)
    info.type, info.mode, info.linkname = kind, mode, link
    data = b"x" if kind == tarfile.REGTYPE else b""
    info.size = len(data)
    return info, data


def _tar(*members: tuple[tarfile.TarInfo, bytes]) -> tarfile.TarFile:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for info, data in members:
            tar.addfile(info, io.BytesIO(data))
    return tarfile.open(fileobj=io.BytesIO(buffer.getvalue()))


def _modes(root: Path) -> dict[str, int]:
    return {
        path.relative_to(root).as_posix(): stat.S_IMODE(path.lstat().st_mode)
        for path in sorted(root.rglob("*"))
        if not path.is_symlink()
    }


BENIGN = (
    ("pkg", tarfile.DIRTYPE, 0o777, ""),
    ("pkg/module.py", tarfile.REGTYPE, 0o4777, ""),
    ("pkg/setuid", tarfile.REGTYPE, 0o6775, ""),
    ("pkg/data.txt", tarfile.REGTYPE, 0o466, ""),
    ("pkg/script", tarfile.REGTYPE, 0o700, ""),
    ("pkg/alias.py", tarfile.SYMTYPE, 0o777, "module.py"),
    ("pkg/copy.py", tarfile.LNKTYPE, 0o644, "pkg/module.py"),
)


def test_the_local_sandbox_loads_a_repository_without_the_data_filter(without_data_filter):
    box = LocalSandbox(SandboxEnvironment("", ("src",)))
    try:
        box.load_repo(tar_bytes({"src/pkg/__init__.py": b"VALUE = 1\n"}))
        assert box.read_file("src/pkg/__init__.py") == b"VALUE = 1\n"
    finally:
        box.close()


def test_modes_are_changed_as_the_data_filter_changes_them(without_data_filter, tmp_path):
    extract_data(_tar(*(_member(*m) for m in BENIGN)), tmp_path)
    assert _modes(tmp_path) == {
        "pkg": 0o755,
        # One inode: the hard link, extracted last, sets its mode for module.py too.
        "pkg/copy.py": 0o644,
        "pkg/data.txt": 0o644,
        "pkg/module.py": 0o644,
        "pkg/script": 0o700,
        "pkg/setuid": 0o755,
    }
    assert (tmp_path / "pkg/alias.py").read_bytes() == b"x"


@pytest.mark.skipif(not hasattr(tarfile, "data_filter"), reason="this Python has no data filter")
def test_the_same_files_and_modes_as_the_real_data_filter(tmp_path, monkeypatch):
    extract_data(_tar(*(_member(*m) for m in BENIGN)), tmp_path / "real")
    monkeypatch.delattr(tarfile, "data_filter")
    extract_data(_tar(*(_member(*m) for m in BENIGN)), tmp_path / "fallback")
    assert _modes(tmp_path / "fallback") == _modes(tmp_path / "real")


@pytest.mark.parametrize(
    ("members", "reason"),
    [
        ([("/etc/evil",)], "outside"),
        ([("../evil",)], "outside"),
        ([("a/../../evil",)], "outside"),
        ([("up", tarfile.SYMTYPE, 0o777, "../..")], "outside"),
        ([("abs", tarfile.SYMTYPE, 0o777, "/etc")], "outside"),
        ([("hard", tarfile.LNKTYPE, 0o644, "../evil")], "outside"),
        ([("d/l", tarfile.SYMTYPE, 0o777, ".."), ("d/l/../evil",)], "symbolic link"),
        ([("d/l", tarfile.SYMTYPE, 0o777, ".."), ("d/m", tarfile.SYMTYPE, 0o777, "l/..")], "link"),
        ([("dev", tarfile.CHRTYPE, 0o644)], "device"),
        ([("fifo", tarfile.FIFOTYPE, 0o644)], "fifo"),
    ],
    ids=["absolute", "dotdot", "inner-dotdot", "symlink-up", "symlink-absolute", "hardlink-up",
         "through-symlink", "symlink-through-symlink", "device", "fifo"],
)  # fmt: skip
def test_a_member_the_data_filter_refuses_is_refused(
    without_data_filter, tmp_path, members, reason
):
    with pytest.raises(tarfile.TarError, match=reason):
        extract_data(_tar(*(_member(*m) for m in members)), tmp_path)
    assert list(tmp_path.iterdir()) == []  # refused before anything was written
