"""Unsafe input is refused before anything is trusted: names, symlinks, sizes, malformed JSON."""

from __future__ import annotations

import os

import pytest

from envsuite.leaderboard.errors import UnsafeInputError
from envsuite.leaderboard.manifest import MANIFEST_NAME, write_manifest
from envsuite.leaderboard.safety import (
    check_relative_path,
    check_slug,
    read_json_lines,
    slugify,
    strict_json,
)
from envsuite.leaderboard.verify import verify_submission
from envsuite.leaderboard.verify_tree import verify_tree
from tests.leaderboard.helpers import entry


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("My Agent (v2)", "my-agent-v2"),
        ("../../etc/passwd", "etc-passwd"),
        ("Ünïcödé  bot", "unicode-bot"),
    ],
)
def test_names_become_slugs_that_cannot_traverse(name, slug):
    assert slugify(name) == slug


@pytest.mark.parametrize("name", ["", "../..", "!!!", "中文"])
def test_names_with_nothing_usable_are_refused(name):
    with pytest.raises(UnsafeInputError, match="no letters or digits"):
        slugify(name)


@pytest.mark.parametrize("name", ["../x", "x/y", "Upper", "a--b", "-a", "a" * 65, ""])
def test_board_and_entry_names_must_be_slugs(name):
    with pytest.raises(UnsafeInputError, match="is not allowed"):
        check_slug(name, "board name")


@pytest.mark.parametrize(
    "path", ["../outside", "/etc/passwd", "logs/../../x", "logs/.hidden", "a\\b", "./x", "a//b"]
)
def test_paths_that_could_leave_the_folder_are_refused(path):
    with pytest.raises(UnsafeInputError, match="is not allowed"):
        check_relative_path(path)


def test_a_manifest_entry_with_path_traversal_is_refused(board_copy):
    folder = entry(board_copy())
    manifest = folder / MANIFEST_NAME
    manifest.write_text(manifest.read_text() + f"{'0' * 64}  ../../../etc/passwd\n")
    with pytest.raises(UnsafeInputError, match=r"path '\.\./\.\./\.\./etc/passwd' is not allowed"):
        verify_submission(folder)


def test_a_submission_folder_with_a_bad_name_is_refused(board_copy):
    folder = entry(board_copy())
    renamed = folder.with_name("2026_12_01 random")
    folder.rename(renamed)
    with pytest.raises(UnsafeInputError, match="must be YYYYMMDD_slug"):
        verify_submission(renamed)


def test_a_symlink_in_a_submission_is_refused(board_copy, tmp_path):
    folder = entry(board_copy())
    secret = tmp_path / "secret.txt"
    secret.write_text("not yours\n")
    (folder / "logs").mkdir()
    os.symlink(secret, folder / "logs" / "agent.log")
    with pytest.raises(UnsafeInputError, match=r"agent.log is a symbolic link"):
        verify_submission(folder)


def test_a_symlinked_submission_folder_is_refused(board_copy, tmp_path):
    board = board_copy()
    folder = entry(board)
    moved = tmp_path / "elsewhere"
    folder.rename(moved)
    os.symlink(moved, folder)
    with pytest.raises(UnsafeInputError, match="is a symbolic link"):
        verify_submission(folder)


def test_an_oversize_file_is_refused_before_it_is_read(board_copy):
    folder = entry(board_copy())
    (folder / "logs").mkdir()
    (folder / "logs" / "huge.log").write_bytes(b"x" * ((1 << 20) + 1))
    write_manifest(folder, 1 << 26)
    with pytest.raises(UnsafeInputError, match=r"huge.log is 1,048,577 bytes, over the 1,048,576"):
        verify_submission(folder)


def test_a_file_that_is_not_a_submission_file_is_refused(board_copy):
    folder = entry(board_copy())
    (folder / "run.sh").write_text("rm -rf /\n")
    write_manifest(folder, 1 << 26)
    with pytest.raises(UnsafeInputError, match=r"run.sh is not a submission file"):
        verify_submission(folder)


def test_malformed_json_in_the_records_is_refused_with_its_line(board_copy):
    folder = entry(board_copy())
    episodes = folder / "episodes.jsonl"
    lines = episodes.read_text().splitlines()
    lines[2] = lines[2][:-5]
    episodes.write_text("\n".join(lines) + "\n")
    write_manifest(folder, 1 << 26)
    with pytest.raises(UnsafeInputError, match=r"episodes.jsonl:3: malformed JSON"):
        verify_submission(folder)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('{"a": NaN}', "NaN is not valid JSON"),
        ('{"a": Infinity}', "Infinity is not valid JSON"),
        ('{"a": 1, "a": 2}', "duplicate key 'a'"),
        ("[1, 2", "Expecting"),
    ],
)
def test_json_is_parsed_strictly(text, why):
    with pytest.raises(UnsafeInputError, match=why):
        strict_json(text, "x.json")


def test_a_partial_last_line_is_refused(tmp_path):
    path = tmp_path / "episodes.jsonl"
    path.write_text('{"a": 1}\n{"b": 2}')
    with pytest.raises(UnsafeInputError, match="the last line has no newline"):
        read_json_lines(path, 1000)


def test_metadata_that_is_not_a_mapping_is_refused(board_copy):
    folder = entry(board_copy())
    (folder / "submission.yaml").write_text("- just\n- a list\n")
    write_manifest(folder, 1 << 26)
    with pytest.raises(UnsafeInputError, match="must hold a mapping, not list"):
        verify_submission(folder)


def test_a_stray_file_among_the_submissions_is_rejected(board_copy):
    board = board_copy()
    (board.path / "submissions" / "notes.txt").write_text("hi\n")
    outcomes = verify_tree(board.path.parent.parent, replay="none")
    errors = {o.path.name: o.error for o in outcomes if o.error is not None}
    assert list(errors) == ["notes.txt"]
    assert isinstance(errors["notes.txt"], UnsafeInputError)
