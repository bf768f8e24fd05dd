"""Board integrity: check-frozen reads the working checkout, pins' spec hashes are checked,
a run is entered once, and no link (hard or symbolic) is followed."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess

import pytest
import yaml

from envsuite.leaderboard.board import frozen_digests, load_board_version
from envsuite.leaderboard.board_admin import publish
from envsuite.leaderboard.duplicates import run_fingerprint
from envsuite.leaderboard.errors import BoardError, DuplicateRunError, UnsafeInputError
from envsuite.leaderboard.layout import FROZEN_FILE
from envsuite.leaderboard.submit import make_submission
from envsuite.leaderboard.verify import verify_submission
from envsuite.leaderboard.verify_tree import verify_tree
from envsuite.records import read_records
from tests.leaderboard.helpers import DAY, entry, rewrite_records, rewrite_yaml
from tests.leaderboard.test_cli import run


def _git(repo, *args):
    subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
        check=True,
        capture_output=True,
    )


def _refreeze(path):
    digests = frozen_digests(path)
    lines = [f"{digest}  {name}\n" for name, digest in sorted(digests.items())]
    (path / FROZEN_FILE).write_text("".join(lines))


# -- check-frozen ----------------------------------------------------------------------------
@pytest.fixture
def checkout(board_copy, tmp_path, monkeypatch):
    """A git checkout (tmp_path) whose leaderboards/ holds a published, committed board."""
    board = board_copy()
    publish(board.path.parent.parent, board.name, today=DAY)
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "leaderboards")
    _git(tmp_path, "commit", "-q", "-m", "boards")
    monkeypatch.delenv("ENVSUITE_LEADERBOARDS", raising=False)
    return load_board_version(board.path)


@pytest.mark.parametrize("where", [".", "leaderboards/mini-bandit"])
def test_check_frozen_without_root_checks_the_working_checkout(
    checkout, tmp_path, monkeypatch, where
):
    board_file = checkout.path / "board.yaml"
    board_file.write_text(board_file.read_text().replace("per_env: 1", "per_env: 0"))
    _refreeze(checkout.path)  # FROZEN.sha256 rewritten to match: only git history tells
    load_board_version(checkout.path)
    monkeypatch.chdir(tmp_path / where)
    result = run("leaderboard", "check-frozen", "--base", "HEAD")
    assert result.exit_code == 2, result.output
    assert "published versions are frozen" in result.output
    assert "(edited) belongs to mini-bandit v1" in result.output


def test_check_frozen_counts_allowed_changes_of_the_working_checkout(
    checkout, tmp_path, monkeypatch
):
    (checkout.path / "KNOWN_ISSUES.md").write_text(
        (checkout.path / "KNOWN_ISSUES.md").read_text() + "- a new issue\n"
    )
    monkeypatch.chdir(tmp_path)
    result = run("leaderboard", "check-frozen", "--base", "HEAD")
    assert result.exit_code == 0, result.output
    assert "1 changed file(s)" in result.output


def test_check_frozen_outside_a_checkout_says_so(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    result = run("leaderboard", "check-frozen", "--base", "HEAD")
    assert result.exit_code == 2
    assert "not inside a git checkout" in result.output and "--root" in result.output


def test_check_frozen_in_a_checkout_without_boards_says_so(tmp_path, monkeypatch):
    _git(tmp_path, "init", "-q")
    monkeypatch.chdir(tmp_path)
    result = run("leaderboard", "check-frozen", "--base", "HEAD")
    assert result.exit_code == 2 and "has no leaderboards/ folder" in result.output


# -- pinned spec hashes ----------------------------------------------------------------------
def _edit_pin_hash(board, value):
    rewrite = board.path / "board.yaml"
    data = yaml.safe_load(rewrite.read_text())
    data["envs"][1]["spec_hash"] = value
    rewrite.write_text(yaml.safe_dump(data, sort_keys=False))


@pytest.mark.parametrize("published", [False, True])
def test_an_edited_pinned_spec_hash_is_refused(board_copy, published):
    board = board_copy()
    if published:
        publish(board.path.parent.parent, board.name, today=DAY)
    _edit_pin_hash(board, hashlib.sha256(b"forged").hexdigest())
    if published:
        _refreeze(board.path)
    with pytest.raises(BoardError, match=r"with spec hash [0-9a-f]{64}, but its pinned id"):
        load_board_version(board.path)
    with pytest.raises(BoardError, match="the pin was edited"):
        verify_submission(entry(board))
    outcomes = verify_tree(board.path.parent.parent, replay="none")
    assert [o.path for o in outcomes] == [board.path]
    assert "the pin was edited" in str(outcomes[0].error)


# -- duplicate runs --------------------------------------------------------------------------
def _copy_entry(board, slug, new_slug, **meta):
    original = entry(board, slug)
    copy = original.with_name(f"20261202_{new_slug}")
    shutil.copytree(original, copy)
    rewrite_yaml(copy, "submission.yaml", lambda d: d.update(date="2026-12-02", **meta))
    return copy


def test_the_same_records_under_a_second_name_are_rejected(board_copy):
    board = board_copy()
    copy = _copy_entry(board, "random", "shiny-new-agent", name="Shiny new agent")
    with pytest.raises(DuplicateRunError, match=r"same episodes as .*20261201_random"):
        verify_submission(copy, replay="none")
    verify_submission(entry(board), replay="none")  # the original stays accepted


def test_relabelled_run_and_agent_are_still_the_same_run(board_copy):
    board = board_copy()
    copy = _copy_entry(board, "oracle", "mine", name="Mine", agent="my_pkg:Mine", run_id="r2")
    relabel = {"agent_id": "my_pkg:Mine", "run_id": "r2", "wall_time_s": 9.0}
    rewrite_records(copy, lambda rs: [r.model_copy(update=relabel) for r in rs])
    with pytest.raises(DuplicateRunError, match=r"same episodes as .*20261201_oracle"):
        verify_submission(copy, replay="none")


def test_submit_refuses_a_run_already_entered(board_copy, runs_dir):
    board = board_copy()
    with pytest.raises(DuplicateRunError, match=r"same episodes as .*20261201_random"):
        make_submission(
            board, runs_dir / "mini-bandit-random", name="again", authors=["A"], leakage="x"
        )
    assert sorted(p.name for p in (board.path / "submissions").iterdir()) == [
        "20261201_oracle",
        "20261201_random",
    ]


def test_the_fingerprint_ignores_names_and_order_but_not_what_happened(runs_dir):
    records = read_records(runs_dir / "mini-bandit-random" / "episodes.jsonl")
    relabelled = [r.model_copy(update={"run_id": "x", "agent_id": "y"}) for r in records]
    assert run_fingerprint(relabelled[::-1]) == run_fingerprint(records)
    changed = [records[0].model_copy(update={"episode_return": 1e9}), *records[1:]]
    assert run_fingerprint(changed) != run_fingerprint(records)


# -- links -----------------------------------------------------------------------------------
def _list_in_manifest(folder, name):
    """Add ``name`` to the manifest by hand (write_manifest itself refuses hard links)."""
    digest = hashlib.sha256((folder / name).read_bytes()).hexdigest()
    manifest = folder / "MANIFEST.sha256"
    lines = sorted([*manifest.read_text().splitlines(), f"{digest}  {name}"], key=lambda x: x[66:])
    manifest.write_text("\n".join(lines) + "\n")


def test_a_hard_linked_log_is_refused(board_copy, tmp_path):
    folder = entry(board_copy())
    secret = tmp_path / "secret.txt"
    secret.write_text("a secret of the verifying machine\n")
    (folder / "logs").mkdir()
    os.link(secret, folder / "logs" / "agent.log")
    _list_in_manifest(folder, "logs/agent.log")
    with pytest.raises(UnsafeInputError, match=r"agent.log is a hard link \(2 names"):
        verify_submission(folder, replay="none")


def test_records_hard_linked_to_another_submission_are_refused(board_copy):
    board = board_copy()
    folder = entry(board, "random")
    (folder / "episodes.jsonl").unlink()
    os.link(entry(board, "oracle") / "episodes.jsonl", folder / "episodes.jsonl")
    manifest = folder / "MANIFEST.sha256"
    lines = [x for x in manifest.read_text().splitlines() if not x.endswith("episodes.jsonl")]
    manifest.write_text("\n".join(lines) + "\n")
    _list_in_manifest(folder, "episodes.jsonl")
    with pytest.raises(UnsafeInputError, match=r"episodes.jsonl is a hard link"):
        verify_submission(folder, replay="none")


def test_a_hard_linked_board_file_is_refused(board_copy, tmp_path):
    board = board_copy()
    outside = tmp_path / "outside.yaml"
    os.link(board.path / "board.yaml", outside)
    with pytest.raises(BoardError, match=r"board.yaml is a hard link"):
        load_board_version(board.path)


@pytest.mark.parametrize("level", ["version", "board"])
def test_a_symlinked_board_or_version_folder_is_not_followed(board_copy, tmp_path, level):
    board = board_copy()
    root = board.path.parent.parent
    linked = board.path if level == "version" else board.path.parent
    moved = tmp_path / f"elsewhere-{level}"
    linked.rename(moved)
    os.symlink(moved, linked)
    with pytest.raises(BoardError, match="is a symbolic link"):
        verify_submission(entry(board), replay="none")
    outcomes = verify_tree(root, replay="none")
    assert len(outcomes) == 1 and "is a symbolic link" in str(outcomes[0].error)


def test_a_symlinked_submissions_folder_is_not_followed(board_copy, tmp_path, runs_dir):
    board = board_copy()
    submissions = board.path / "submissions"
    moved = tmp_path / "elsewhere"
    submissions.rename(moved)
    os.symlink(moved, submissions)
    with pytest.raises(UnsafeInputError, match="submissions is a symbolic link"):
        verify_submission(entry(board), replay="none")
    shutil.rmtree(moved / "20261201_random")
    with pytest.raises(UnsafeInputError, match="submissions is a symbolic link"):
        make_submission(
            board, runs_dir / "mini-bandit-random", name="r", authors=["A"], leakage="x"
        )
