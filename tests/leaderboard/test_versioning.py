"""Board versions: publishing freezes, a changed env or dataset needs a new version, CI diffs."""

from __future__ import annotations

import shutil
import subprocess

import pytest
import yaml

from envsuite.evaluation.run_directory import evaluate
from envsuite.leaderboard import board as board_module
from envsuite.leaderboard import frozen_git
from envsuite.leaderboard.board import load_board_version
from envsuite.leaderboard.board_admin import create_board, new_version, publish
from envsuite.leaderboard.errors import BoardError, FrozenBoardError, VersionLockError
from envsuite.leaderboard.layout import list_versions
from envsuite.leaderboard.submit import make_submission
from envsuite.leaderboard.verify import verify_submission
from envsuite.leaderboard.verify_tree import verify_tree
from envsuite.registry import EnvSpec, file_sha256, register, registry
from tests.leaderboard.helpers import DAY, entry

DATA_ID = "envsuite/TestDataTarget-v0"


def test_publishing_sets_the_date_and_freezes_board_and_protocol(board_copy):
    board = board_copy()
    root = board.path.parent.parent
    published = publish(root, board.name, today=DAY)
    assert published.frozen and published.settings.published == DAY
    with pytest.raises(BoardError, match="already published"):
        publish(root, board.name)
    protocol = board.path / "protocol.yaml"
    protocol.write_text(protocol.read_text() + "# harmless?\n")
    with pytest.raises(FrozenBoardError, match=r"protocol.yaml changed since publication"):
        load_board_version(board.path)


def test_a_board_marked_published_without_its_frozen_file_is_refused(board_copy):
    board = board_copy()
    data = yaml.safe_load((board.path / "board.yaml").read_text())
    data["published"] = "2026-12-02"
    (board.path / "board.yaml").write_text(yaml.safe_dump(data))
    with pytest.raises(FrozenBoardError, match=r"marked published but has no FROZEN.sha256"):
        load_board_version(board.path)


def test_new_submissions_still_verify_on_a_published_board(board_copy, runs_dir):
    board = board_copy()
    shutil.rmtree(entry(board, "oracle"))  # the same run may not be entered twice
    published = publish(board.path.parent.parent, board.name, today=DAY)
    folder = make_submission(
        published,
        runs_dir / "mini-bandit-oracle",
        name="oracle again",
        authors=["B"],
        leakage="none",
        date=DAY,
    )
    assert verify_submission(folder).checks[-1] == "replay"


def test_a_new_version_needs_a_change_unless_forced(board_copy, tmp_path):
    board = board_copy()
    root = board.path.parent.parent
    with pytest.raises(BoardError, match="nothing to bump"):
        new_version(root, board.name)
    assert new_version(root, board.name, force=True, today=DAY).version == 2
    fewer = tmp_path / "fewer.yaml"
    data = yaml.safe_load((board.path / "protocol.yaml").read_text())
    data["seeds"] = {"start": 0, "count": 2}
    fewer.write_text(yaml.safe_dump(data))
    third = new_version(root, board.name, protocol_path=fewer, today=DAY)
    assert third.version == 3 and third.protocol.seed_values() == [0, 1]
    assert list_versions(root, board.name) == [1, 2, 3]
    assert "Supersedes v2" in (third.path / "KNOWN_ISSUES.md").read_text()
    assert not third.frozen and third.settings.ranking == board.settings.ranking


def test_a_board_refuses_an_installed_envsuite_outside_its_series(board_copy, monkeypatch):
    board = board_copy()
    monkeypatch.setattr(board_module, "__version__", "0.2.0")
    with pytest.raises(
        BoardError, match=r"accepts envsuite 0\.1\.x; the installed envsuite is 0\.2\.0"
    ):
        load_board_version(board.path)


@pytest.fixture
def data_env(tmp_path):
    register(
        EnvSpec(
            id=DATA_ID,
            entry_point="tests.leaderboard.box_target_env:BoxTargetEnv",
            family="test",
            api="gymnasium",
            description="Continuous-action test env that reads a dataset file.",
        )
    )
    data = tmp_path / "scale.txt"
    data.write_text("0.5\n")
    try:
        yield data
    finally:
        registry.unregister(DATA_ID)


def test_a_changed_dataset_makes_the_board_stale_until_a_new_version(data_env, tmp_path):
    protocol = tmp_path / "data.yaml"
    env = {"id": DATA_ID, "kwargs": {"data_file": str(data_env)}}
    protocol.write_text(yaml.safe_dump({"id": "data", "envs": [env], "seeds": {"count": 2}}))
    root = tmp_path / "leaderboards"
    board = create_board(root, protocol, today=DAY)
    assert board.settings.envs[0].datasets == {data_env.name: file_sha256(data_env)}
    evaluate(board.protocol, "random", tmp_path / "run1", progress=False)
    make_submission(board, tmp_path / "run1", name="old", authors=["A"], leakage="x", date=DAY)
    publish(root, "data", today=DAY)

    data_env.write_text("0.75\n")  # the dataset changes under the published board
    with pytest.raises(BoardError, match=r"dataset files changed.*new-version data"):
        load_board_version(board.path)
    second = new_version(root, "data", today=DAY)
    assert second.settings.envs[0].datasets != board.settings.envs[0].datasets

    # records made now carry the new spec hash, which v1 does not accept
    evaluate(second.protocol, "random", tmp_path / "run2", progress=False)
    stale = make_submission(
        second, tmp_path / "run2", name="new", authors=["A"], leakage="x", date=DAY
    )
    moved = board.path / "submissions" / stale.name
    stale.rename(moved)
    with pytest.raises(VersionLockError, match="spec hash"):
        verify_submission(moved, check_installed=False, replay="none")
    moved.rename(stale)

    outcomes = {o.path.name: o for o in verify_tree(root, replay="all")}
    assert outcomes["20261201_old"].error is None
    assert outcomes["20261201_old"].superseded.startswith("superseded by v2")
    assert outcomes["20261201_old"].report.replayed == 0
    assert outcomes["20261201_new"].error is None and outcomes["20261201_new"].report.replayed == 2


class FakeGit:
    """Answers the read-only git calls of frozen_git from a described base commit."""

    def __init__(self, changes, at_base, shown=""):
        self.changes = changes
        self.at_base = at_base
        self.shown = shown

    def __call__(self, repo, *args):
        if args[0] == "diff":
            out = "".join(f"{state}\t{path}\n" for state, path in self.changes)
            return subprocess.CompletedProcess(args, 0, out, "")
        if args[0] == "cat-file":
            path = args[2].split(":", 1)[1]
            return subprocess.CompletedProcess(args, 0 if path in self.at_base else 1, "", "")
        if args[0] == "show":
            return subprocess.CompletedProcess(args, 0, self.shown, "")
        raise AssertionError(args)


V1 = "leaderboards/b/v1"


@pytest.mark.parametrize(
    ("changes", "at_base", "problem"),
    [
        ([("M", f"{V1}/board.yaml")], {f"{V1}/FROZEN.sha256"}, "published versions are frozen"),
        ([("D", f"{V1}/FROZEN.sha256")], {f"{V1}/FROZEN.sha256"}, "published versions are frozen"),
        ([("A", f"{V1}/extra.md")], {f"{V1}/FROZEN.sha256"}, "published versions are frozen"),
        (
            [("M", f"{V1}/submissions/20261201_x/episodes.jsonl")],
            {f"{V1}/submissions/20261201_x"},
            "submissions never change",
        ),
        (
            [("A", f"{V1}/submissions/20261201_x/logs/more.log")],
            {f"{V1}/submissions/20261201_x"},
            "submissions never change",
        ),
    ],
)
def test_ci_refuses_changes_to_frozen_content(tmp_path, monkeypatch, changes, at_base, problem):
    monkeypatch.setattr(frozen_git, "_git", FakeGit(changes, at_base))
    (tmp_path / "leaderboards").mkdir()
    with pytest.raises(FrozenBoardError, match=problem):
        frozen_git.check_against_base(tmp_path, tmp_path / "leaderboards", "origin/main")


def test_ci_allows_new_submissions_readmes_drafts_and_appended_known_issues(tmp_path, monkeypatch):
    issues = tmp_path / V1 / "KNOWN_ISSUES.md"
    issues.parent.mkdir(parents=True)
    issues.write_text("# Known issues\n\nNone so far.\n- seed 3 of stag hunt: see #12\n")
    changes = [
        ("A", f"{V1}/submissions/20261202_new/episodes.jsonl"),
        ("M", "leaderboards/b/README.md"),
        ("M", f"{V1}/KNOWN_ISSUES.md"),
        ("M", "leaderboards/b/v2/board.yaml"),
    ]
    fake = FakeGit(changes, {f"{V1}/FROZEN.sha256"}, shown="# Known issues\n\nNone so far.\n")
    monkeypatch.setattr(frozen_git, "_git", fake)
    allowed = frozen_git.check_against_base(tmp_path, tmp_path / "leaderboards", "origin/main")
    assert allowed == [path for _, path in changes]
    issues.write_text("# Known issues\n\nRewritten.\n")
    with pytest.raises(FrozenBoardError, match="may only be appended to"):
        frozen_git.check_against_base(tmp_path, tmp_path / "leaderboards", "origin/main")
