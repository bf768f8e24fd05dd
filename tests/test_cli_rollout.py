"""``envsuite rollout``: groups, summary, files, resume."""

from __future__ import annotations

from typer.testing import CliRunner

from envsuite.agents.scripted_endpoint import ScriptedEndpoint
from envsuite.cli import app
from envsuite.evaluation.rollout import read_transcripts
from envsuite.records import read_records

runner = CliRunner()


def words(text: str) -> str:
    return " ".join(text.split())


def test_rollout_writes_groups_and_prints_their_mean_and_std(tmp_path):
    with ScriptedEndpoint() as endpoint:
        args = [
            "rollout", "envsuite/Bandit-v0", "--set", "horizon=4", "--model", "scripted",
            "--base-url", endpoint.base_url, "--groups", "3", "--group-size", "2",
            "--concurrency", "6", "--out", str(tmp_path),
        ]  # fmt: skip
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        assert "mean return" in result.output and "std" in result.output
        assert "(6 new, 0 resumed)" in words(result.output)
        records = read_records(tmp_path / "episodes.jsonl")
        assert sorted((r.seed, r.attempt) for r in records) == [
            (seed, member) for seed in range(3) for member in range(2)
        ]
        assert {r.agent_info["rollout"]["sampling"]["temperature"] for r in records} == {1.0}
        assert len(read_transcripts(tmp_path / "transcripts.jsonl")) == 6
        again = runner.invoke(app, args)
        assert again.exit_code == 0, again.output
        assert "(0 new, 6 resumed)" in words(again.output)
        assert len(read_records(tmp_path / "episodes.jsonl")) == 6


def test_rollout_of_a_game_against_a_bot_writes_the_model_seat(tmp_path):
    with ScriptedEndpoint() as endpoint:
        args = [
            "rollout", "envsuite/KuhnPoker-v0", "--model", "scripted",
            "--base-url", endpoint.base_url, "--groups", "2", "--group-size", "2",
            "--lineup", "player_0=oracle,player_1=model", "--rotate", "cyclic",
            "--out", str(tmp_path), "--no-progress",
        ]  # fmt: skip
        result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "(8 new, 0 resumed)" in words(result.output)
    lines = read_transcripts(tmp_path / "transcripts.jsonl")
    assert sorted(line["seat"] for line in lines) == ["player_0"] * 4 + ["player_1"] * 4


def test_rollout_refuses_a_lineup_without_the_model(tmp_path):
    result = runner.invoke(
        app,
        [
            "rollout", "envsuite/ConnectFour-v0", "--model", "m", "--lineup",
            "player_0=random", "--base-url", "http://127.0.0.1:9/v1", "--out", str(tmp_path),
        ],
    )  # fmt: skip
    assert result.exit_code != 0
    assert "seats no chat model" in words(result.output)


def test_rollout_of_a_task_protocol_takes_its_seeds_as_groups(tmp_path):
    task = tmp_path / "task.yaml"
    task.write_text(
        "id: two-envs\n"
        "envs:\n"
        "  - {id: envsuite/Bandit-v0, kwargs: {horizon: 3}}\n"
        "  - {id: envsuite/SAT-v0}\n"
        "seeds: [4, 9]\n"
        "attempts: 1\n"
        "metrics: [mean_return]\n"
    )
    out = tmp_path / "out"
    with ScriptedEndpoint() as endpoint:
        result = runner.invoke(
            app,
            [
                "rollout", str(task), "--model", "scripted", "--base-url", endpoint.base_url,
                "--group-size", "3", "--out", str(out), "--no-progress",
            ],
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    records = read_records(out / "episodes.jsonl")
    assert len(records) == 2 * 2 * 3
    groups = {(r.env_id, r.seed): r.agent_info["rollout"]["group"] for r in records}
    assert groups == {
        ("envsuite/Bandit-v0", 4): 0,
        ("envsuite/Bandit-v0", 9): 1,
        ("envsuite/SAT-v0", 4): 0,
        ("envsuite/SAT-v0", 9): 1,
    }


def test_rollout_refuses_env_target_options_with_a_protocol_file(tmp_path):
    # A protocol's seeds are the groups: --groups 3 with one used to be ignored.
    task = tmp_path / "task.yaml"
    task.write_text("id: one\nenvs:\n  - {id: envsuite/SAT-v0}\nseeds: [4, 9]\n")
    out = tmp_path / "out"
    result = runner.invoke(
        app,
        [
            "rollout", str(task), "--model", "m", "--base-url", "http://127.0.0.1:9/v1",
            "--groups", "3", "--seed-start", "1", "--out", str(out), "--no-progress",
        ],
    )  # fmt: skip
    assert result.exit_code == 2, result.output
    assert "--groups, --seed-start only apply to env targets" in words(result.output)
    assert not out.exists()


def test_an_interrupted_rollout_says_how_to_resume(tmp_path, monkeypatch):
    import envsuite.cli.rollout as rollout_command

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(rollout_command, "rollout", interrupted)
    result = runner.invoke(
        app,
        [
            "rollout", "envsuite/SAT-v0", "--model", "m", "--base-url", "http://127.0.0.1:9/v1",
            "--out", str(tmp_path / "out"), "--no-progress",
        ],
    )  # fmt: skip
    assert result.exit_code == 130, result.output
    assert "run the same command again to resume" in words(result.output)
