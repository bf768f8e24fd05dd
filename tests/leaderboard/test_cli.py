"""``envsuite leaderboard ...`` end to end: create, eval, submit, verify, render, publish."""

from __future__ import annotations

import json
import shutil

import pytest
import typer
import yaml
from typer.testing import CliRunner

from envsuite.cli.evaluate import register as register_eval
from envsuite.cli.leaderboard import register
from envsuite.cli.root import build_app
from envsuite.data_paths import REPO_ROOT
from envsuite.leaderboard.submission import SubmissionMeta
from tests.leaderboard.helpers import GAMES_PROTOCOL, rewrite_records


def _app() -> typer.Typer:
    app = build_app()
    register_eval(app)
    register(app)
    return app


def run(*args: str):
    return CliRunner().invoke(_app(), list(args))


def test_the_whole_flow_from_a_protocol_to_a_rendered_board(tmp_path):
    root = tmp_path / "leaderboards"
    protocol = tmp_path / "games.yaml"
    protocol.write_text(yaml.safe_dump({**GAMES_PROTOCOL, "id": "cli-games"}))
    result = run("leaderboard", "create", str(protocol), "--root", str(root), "--metric", "regret")
    assert result.exit_code == 0, result.output
    assert "created cli-games v1 (draft)" in result.output
    board_protocol = root / "cli-games" / "v1" / "protocol.yaml"
    runs = tmp_path / "runs"
    for agent in ("random", "oracle"):
        result = run(
            "eval",
            str(board_protocol),
            "--agent",
            agent,
            "--out",
            str(runs / agent),
            "--no-progress",
        )
        assert result.exit_code == 0, result.output
        result = run(
            "leaderboard",
            "submit",
            str(runs / agent),
            "--board",
            "cli-games",
            "--name",
            f"My {agent}",
            "--author",
            "Ada",
            "--author",
            "Grace",
            "--model",
            "none",
            "--date",
            "2026-12-01",
            "--leakage",
            "Never saw the seeds.",
            "--root",
            str(root),
            "--replay",
            "all",
        )
        assert result.exit_code == 0, result.output
        folder = root / "cli-games" / "v1" / "submissions" / f"20261201_my-{agent}"
        assert f"wrote {folder}" in result.output and f"OK {folder}" in result.output
    meta = SubmissionMeta.model_validate(yaml.safe_load((folder / "submission.yaml").read_text()))
    assert meta.authors == ["Ada", "Grace"] and meta.leakage.disclosure == "Never saw the seeds."

    result = run("leaderboard", "verify", str(folder), "--root", str(root))
    assert result.exit_code == 0 and "checks board, safety, manifest" in result.output
    result = run("leaderboard", "publish", "cli-games", "--root", str(root), "--date", "2026-12-02")
    assert result.exit_code == 0 and "published cli-games v1" in result.output
    site = tmp_path / "site"
    result = run("leaderboard", "render", "--root", str(root), "--site", str(site))
    assert result.exit_code == 0, result.output
    assert (site / "cli-games" / "v1" / "index.html").is_file()
    readme = (root / "cli-games" / "README.md").read_text()
    assert "## v1 (published 2026-12-02, frozen)" in readme and "My oracle" in readme


def test_verify_reports_each_rejection_with_its_check_and_exits_2(boards_root, tmp_path):
    root = tmp_path / "leaderboards"
    shutil.copytree(boards_root, root)
    bad = root / "mini-bandit" / "v1" / "submissions" / "20261201_random"
    rewrite_records(bad, lambda rs: [r for r in rs if r.seed != 0])
    result = run("leaderboard", "verify", "--root", str(root), "--replay", "none")
    assert result.exit_code == 2
    assert f"REJECTED {bad} (completeness)" in result.output
    assert result.output.count("OK ") == 4  # every other submission is still checked
    assert "1 of 5 checked item(s) rejected" in result.output


def test_verify_accepts_board_and_version_folders(boards_root):
    for path in (boards_root / "mini-games", boards_root / "mini-games" / "v1"):
        result = run(
            "leaderboard", "verify", str(path), "--replay", "none", "--root", str(boards_root)
        )
        assert result.exit_code == 0, result.output
        assert result.output.count("OK ") == 3


def test_usage_errors_exit_2_with_a_message(boards_root, tmp_path):
    result = run(
        "leaderboard",
        "submit",
        str(tmp_path),
        "--board",
        "nope",
        "--name",
        "x",
        "--root",
        str(boards_root),
    )
    assert result.exit_code == 2 and "no board 'nope'" in result.output
    result = run("leaderboard", "verify", "--replay", "most", "--root", str(boards_root))
    assert result.exit_code == 2 and "--replay must be sample, all or none" in result.output
    result = run("leaderboard", "verify", str(tmp_path), "--root", str(boards_root))
    assert (
        result.exit_code == 2
        and "is not a submission, board version or board folder" in result.output
    )
    result = run("leaderboard", "new-version", "mini-games", "--root", str(boards_root))
    assert result.exit_code == 2 and "nothing to bump" in result.output


def test_schema_prints_the_json_schema_of_submission_yaml():
    result = run("leaderboard", "schema")
    schema = json.loads(result.output)
    assert schema["title"] == "SubmissionMeta" and "leakage" in schema["required"]


def test_render_has_one_no_site_flag():
    # A bool option named no_site used to show as "--no-site / --no-no-site".
    result = CliRunner().invoke(_app(), ["leaderboard", "render", "--help"], terminal_width=200)
    assert "--no-site" in result.output and "--no-no-site" not in result.output
    refused = run("leaderboard", "render", "--no-no-site")
    assert refused.exit_code == 2 and "No such option" in refused.output


def test_check_frozen_passes_on_this_checkout():
    if not (REPO_ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    result = run("leaderboard", "check-frozen", "--base", "HEAD")
    assert result.exit_code == 0, result.output
