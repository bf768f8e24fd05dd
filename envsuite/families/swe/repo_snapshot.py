"""The base repository of a problem as a tar, with a ``.git`` holding only the base commit.

Its files are those at the base commit, and its git history holds that single commit, so
the sandbox shows nothing after it (no fix).

Built on the host with ``git`` (author, committer and dates fixed, so the commit id is the
same on every machine) and cached under ``~/.cache/envsuite/swe/repos``.
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

from envsuite.families.swe.dataset import SourceFile, sdist_tree, swe_root
from envsuite.families.swe.problem import SWEProblem
from envsuite.families.swe.unified_diff import apply_diff, split_file_diffs
from envsuite.sandbox.cache import cache_dir

#: Identity and date of every base commit envsuite makes.
COMMIT_ENV = {
    "GIT_AUTHOR_NAME": "envsuite",
    "GIT_AUTHOR_EMAIL": "envsuite@localhost",
    "GIT_AUTHOR_DATE": "2000-01-01T00:00:00+0000",
    "GIT_COMMITTER_NAME": "envsuite",
    "GIT_COMMITTER_EMAIL": "envsuite@localhost",
    "GIT_COMMITTER_DATE": "2000-01-01T00:00:00+0000",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}
#: Ignored by the diff the agent submits (build and test debris).
GIT_EXCLUDE = "__pycache__/\n*.py[cod]\n.pytest_cache/\n*.egg-info/\n"
BUMP = "2"  # change to invalidate every cached archive


class SnapshotError(RuntimeError):
    """The base repository could not be built (a patch that does not apply, no git)."""


def git(args: list[str], cwd: Path, input_bytes: bytes | None = None) -> bytes:
    """Run host git with envsuite's fixed identity; return stdout (SnapshotError on failure)."""
    try:
        result = subprocess.run(
            ["git", *args],
            cwd=cwd,
            input=input_bytes,
            capture_output=True,
            env={**os.environ, **COMMIT_ENV},
            check=False,
        )
    except FileNotFoundError as exc:
        raise SnapshotError("git is not installed on this machine") from exc
    if result.returncode != 0:
        raise SnapshotError(f"git {' '.join(args[:2])} failed: {result.stderr.decode()[-500:]}")
    return result.stdout


def source_tree(problem: SWEProblem) -> dict[str, SourceFile]:
    """The repository's files before the problem's own changes (its source)."""
    kind = problem.source.get("kind")
    if kind == "sdist":
        return sdist_tree(swe_root() / problem.repo / "v1" / str(problem.source["file"]))
    if kind == "git":
        return git_tree(Path(str(problem.source["path"])), str(problem.source["commit"]))
    raise SnapshotError(f"{problem.instance_id}: unknown source kind {kind!r}")


def git_tree(repo: Path, commit: str) -> dict[str, SourceFile]:
    """The files of ``repo`` at ``commit`` (``git archive``)."""
    data = git(["archive", "--format=tar", commit], repo)
    files: dict[str, SourceFile] = {}
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as tar:
        for member in tar.getmembers():
            if member.isfile():
                handle = tar.extractfile(member)
                assert handle is not None
                files[member.name] = SourceFile(handle.read(), bool(member.mode & 0o111))
    return files


def base_tree(problem: SWEProblem) -> dict[str, SourceFile]:
    """The files at the problem's base commit: source + bug patch, hidden tests removed."""
    tree = source_tree(problem)
    if problem.bug_patch:
        touched = _touched(problem.bug_patch)
        texts = {p: tree[p].data.decode("utf-8") for p in touched if p in tree}
        patched = apply_diff(texts, problem.bug_patch)
        for path, text in patched.items():
            executable = tree[path].executable if path in tree else False
            tree[path] = SourceFile(text.encode("utf-8"), executable)
        for path in set(texts) - set(patched):
            del tree[path]
    for hidden in problem.hidden_tests:
        tree.pop(hidden, None)
    return tree


def _touched(diff: str) -> set[str]:
    return {p for section in split_file_diffs(diff) for p in section.paths}


def commit_tree(tree: dict[str, SourceFile], folder: Path) -> str:
    """Write ``tree`` into the empty ``folder``, commit it as the only commit; return its id."""
    for relative, source in tree.items():
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(source.data)
        target.chmod(0o755 if source.executable else 0o644)
    git(["init", "-q"], folder)
    git(["config", "core.autocrlf", "false"], folder)
    (folder / ".git" / "info").mkdir(exist_ok=True)
    (folder / ".git" / "info" / "exclude").write_text(GIT_EXCLUDE)
    git(["add", "-A", "-f", "."], folder)
    git(["commit", "-q", "--no-verify", "--no-gpg-sign", "-m", "base commit"], folder)
    shutil.rmtree(folder / ".git" / "hooks", ignore_errors=True)
    shutil.rmtree(folder / ".git" / "logs", ignore_errors=True)
    return git(["rev-parse", "HEAD"], folder).decode().strip()


def tar_folder(folder: Path) -> bytes:
    """An uncompressed tar of ``folder``'s contents (sorted, uid 1000, times kept)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for path in sorted(folder.rglob("*")):
            info = tar.gettarinfo(str(path), arcname=str(path.relative_to(folder)))
            info.uid = info.gid = 1000
            info.uname = info.gname = "agent"
            if info.isfile():
                with path.open("rb") as handle:
                    tar.addfile(info, handle)
            else:
                tar.addfile(info)
    return buffer.getvalue()


def _cache_key(problem: SWEProblem) -> str:
    payload = "\n".join(
        [
            BUMP,
            problem.instance_id,
            problem.base_commit,
            repr(sorted(problem.source.items())),
            problem.bug_patch,
            *problem.hidden_tests,
        ]
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:24]


def repo_archive(problem: SWEProblem) -> tuple[bytes, str]:
    """The problem's base repository as a tar, and its commit id (cached on disk).

    Raises:
        SnapshotError: the commit id differs from ``problem.base_commit`` (when that is set
            for an envsuite-made commit), or the tree cannot be built.
    """
    cached = cache_dir("repos") / f"{problem.instance_id}-{_cache_key(problem)}.tar"
    commit_file = cached.with_suffix(".commit")
    if cached.is_file() and commit_file.is_file():
        return cached.read_bytes(), commit_file.read_text().strip()
    with tempfile.TemporaryDirectory(prefix="envsuite-snapshot-") as scratch:
        folder = Path(scratch) / "repo"
        folder.mkdir()
        commit = commit_tree(base_tree(problem), folder)
        if (
            problem.source.get("kind") == "sdist"
            and problem.base_commit
            and commit != problem.base_commit
        ):
            raise SnapshotError(
                f"{problem.instance_id}: rebuilt base commit {commit} != {problem.base_commit}"
            )
        data = tar_folder(folder)
    partial = cached.with_suffix(f".{os.getpid()}.part")
    partial.write_bytes(data)
    partial.replace(cached)
    commit_file.write_text(commit + "\n")
    return data, commit
