from __future__ import annotations

import subprocess
import sys

import pytest
from typer.testing import CliRunner

from envsuite.agents.scripted_endpoint import ScriptedEndpoint
from envsuite.cli import app
from envsuite.records import read_records
from envsuite.registry import EnvSpec, registry

runner = CliRunner()


def test_eval_env_id_writes_records_and_prints_a_summary(tmp_path):
    out = tmp_path / "run"
    result = runner.invoke(
        app,
        [
            "eval",
            "envsuite/Bandit-v0",
            "--agent",
            "oracle",
            "--episodes",
            "4",
            "--attempts",
            "2",
            "--set",
            "horizon=30",
            "--out",
            str(out),
            "--no-progress",
        ],
    )
    assert result.exit_code == 0, result.output
    records = read_records(out / "episodes.jsonl")
    assert len(records) == 8 and {r.env_kwargs["horizon"] for r in records} == {30}
    assert "pass@2" in result.output and "success rate" in result.output
    again = runner.invoke(
        app,
        [
            "eval",
            "envsuite/Bandit-v0",
            "--agent",
            "oracle",
            "--episodes",
            "4",
            "--attempts",
            "2",
            "--set",
            "horizon=30",
            "--out",
            str(out),
            "--no-progress",
        ],
    )
    assert again.exit_code == 0 and "0 new, 8 resumed" in " ".join(again.output.split())


def test_eval_protocol_file(tmp_path):
    task = tmp_path / "mini.yaml"
    task.write_text(
        "id: mini\nenvs:\n  - {id: envsuite/Experts-v0, kwargs: {horizon: 20}}\n"
        "  - {id: envsuite/RepeatedGame-v0, kwargs: {horizon: 5}}\nseeds: {count: 2}\n"
    )
    result = runner.invoke(
        app, ["eval", str(task), "--agent", "oracle", "--out", str(tmp_path / "r"), "--no-progress"]
    )
    assert result.exit_code == 0, result.output
    records = read_records(tmp_path / "r" / "episodes.jsonl")
    assert {r.env_id for r in records} == {"envsuite/Experts-v0", "envsuite/RepeatedGame-v0"}
    assert "player_0" in result.output


@pytest.mark.parametrize(
    ("options", "named"),
    [
        (["--episodes", "2"], "--episodes only applies"),
        (["--attempts", "3", "--seed-start", "5"], "--attempts, --seed-start only apply"),
        (["--episodes", "10"], "--episodes only applies"),  # the default's value, but given
        (["--set", "horizon=4", "--wall-time", "9"], "--set, --wall-time only apply"),
        (["--max-steps", "3"], "--step-budget only applies"),
    ],
)
def test_eval_refuses_env_target_options_with_a_protocol_file(tmp_path, options, named):
    # A protocol pins its seeds and attempts: --episodes 2 with one used to run all of them.
    task = tmp_path / "mini.yaml"
    task.write_text("id: mini\nenvs:\n  - {id: envsuite/Experts-v0, kwargs: {horizon: 5}}\n")
    out = tmp_path / "r"
    arguments = ["eval", str(task), "--agent", "oracle", "--out", str(out), *options]
    result = runner.invoke(app, [*arguments, "--no-progress"])
    assert result.exit_code == 2, result.output
    assert named in " ".join(result.output.split()) and "Traceback" not in result.output
    assert not out.exists()


def test_eval_through_an_openai_compatible_endpoint(tmp_path):
    with ScriptedEndpoint() as endpoint:
        result = runner.invoke(
            app,
            [
                "eval",
                "envsuite/Bandit-v0",
                "--agent",
                "openai:scripted",
                "--base-url",
                endpoint.base_url,
                "--episodes",
                "2",
                "--set",
                "horizon=5",
                "--out",
                str(tmp_path / "r"),
                "--no-progress",
            ],
        )
    assert result.exit_code == 0, result.output
    records = read_records(tmp_path / "r" / "episodes.jsonl")
    assert all(r.agent_info["requests"] == 5 for r in records)


def test_eval_errors_are_clear_and_without_traceback(tmp_path):
    cases = [
        (
            ["eval", "envsuite/Bandt-v0", "--agent", "oracle", "--out", str(tmp_path / "a")],
            "Did you mean",
        ),
        (
            ["eval", "envsuite/Bandit-v0", "--agent", "nonsense", "--out", str(tmp_path / "b")],
            "unknown agent",
        ),
        (
            [
                "eval",
                str(tmp_path / "missing.yaml"),
                "--agent",
                "oracle",
                "--out",
                str(tmp_path / "c"),
            ],
            "cannot read",
        ),
    ]
    bandit = ["eval", "envsuite/Bandit-v0", "--agent", "oracle"]
    cases += [
        # A value the env rejects: a usage error before anything is run or recorded.
        ([*bandit, "--set", "num_arms=1", "--out", str(tmp_path / "e")], "could not make"),
        ([*bandit, "--executor", "dask", "--out", str(tmp_path / "f")], "unknown executor"),
    ]
    for arguments, message in cases:
        result = runner.invoke(app, [*arguments, "--no-progress"])
        assert result.exit_code == 2, result.output
        assert message in result.output and "Traceback" not in result.output
    # Refused before anything is written: no run directory is left behind.
    assert not any((tmp_path / name).exists() for name in "abcef")
    runner.invoke(
        app,
        [
            "eval",
            "envsuite/Bandit-v0",
            "--agent",
            "oracle",
            "--episodes",
            "1",
            "--out",
            str(tmp_path / "d"),
            "--no-progress",
        ],
    )
    clash = runner.invoke(
        app,
        [
            "eval",
            "envsuite/Bandit-v0",
            "--agent",
            "random",
            "--episodes",
            "1",
            "--out",
            str(tmp_path / "d"),
            "--no-progress",
        ],
    )
    assert clash.exit_code == 2 and "different run" in clash.output
    assert not (tmp_path / "e").exists()
    unwritable = tmp_path / "file"
    unwritable.write_text("not a directory")
    result = runner.invoke(app, [*bandit, "--out", str(unwritable / "run"), "--no-progress"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert str(unwritable) in result.output


def test_eval_runs_as_an_installed_command(tmp_path):
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "envsuite",
            "eval",
            "tasks/decision-games.yaml",
            "--agent",
            "random",
            "--out",
            str(tmp_path / "g"),
            "--workers",
            "2",
            "--no-progress",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert len(read_records(tmp_path / "g" / "episodes.jsonl")) == 50


ABSENT_MODULE = '''"""An env module whose optional dependency is not installed."""
import envsuite_cli_test_absent_dependency
'''


@pytest.fixture
def needs_missing_extra(tmp_path, monkeypatch):
    (tmp_path / "cli_eval_absent_env.py").write_text(ABSENT_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    spec = EnvSpec(
        id="envsuite/CliEvalNeedsExtra-v0",
        entry_point="cli_eval_absent_env:Env",
        family="clitest",
        api="gymnasium",
        description="Needs a package nobody has.",
        extra="sat",
    )
    registry.register(spec)
    yield spec.id
    registry.unregister(spec.id)


def test_eval_with_a_missing_extra_fails_before_making_the_run_directory(
    tmp_path, needs_missing_extra
):
    out = tmp_path / "never"
    result = runner.invoke(
        app, ["eval", needs_missing_extra, "--agent", "random", "--out", str(out)]
    )
    assert result.exit_code == 1, result.output
    assert "pip install 'envsuite[sat]'" in result.output
    assert not out.exists()


def test_eval_checks_the_extras_of_every_env_of_a_protocol(tmp_path, monkeypatch):
    # pybullet is imported when a drone env is made, not when its module loads: the
    # installed-extras metadata is what tells, before anything is written
    import envsuite.cli.evaluate as evaluate_cli

    monkeypatch.setattr(evaluate_cli, "extra_installed", lambda extra: extra != "physics")
    protocol = tmp_path / "mixed.yaml"
    protocol.write_text(
        "id: mixed\nenvs:\n  - id: envsuite/Bandit-v0\n  - id: envsuite/DroneHover-v0\n"
        "seeds: {start: 0, count: 1}\n"
    )
    out = tmp_path / "never"
    result = runner.invoke(app, ["eval", str(protocol), "--agent", "random", "--out", str(out)])
    assert result.exit_code == 1, result.output
    assert "pip install 'envsuite[physics]'" in result.output
    assert not out.exists()


def test_eval_a_turn_based_game_with_a_step_budget(tmp_path):
    from tests.turn_taking_env import TURN_GAME, registered_turn_game

    with registered_turn_game():
        result = runner.invoke(
            app,
            [
                "eval", TURN_GAME, "--agent", "first=oracle,second=random", "--episodes", "2",
                "--step-budget", "3", "--out", str(tmp_path / "r"), "--no-progress",
            ],
        )  # fmt: skip
        old_flag = runner.invoke(
            app,
            [
                "eval", TURN_GAME, "--agent", "oracle", "--max-steps", "2",
                "--out", str(tmp_path / "old"), "--no-progress",
            ],
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    records = read_records(tmp_path / "r" / "episodes.jsonl")
    assert [r.length for r in records] == [3, 3]
    assert all(r.stop_reason == "step_limit" and r.truncated for r in records)
    assert [list(step.action) for step in records[0].trace] == [["first"], ["second"], ["first"]]
    assert old_flag.exit_code == 0, old_flag.output
    assert read_records(tmp_path / "old" / "episodes.jsonl")[0].length == 2


def test_an_interrupted_eval_says_how_to_resume(tmp_path, monkeypatch):
    import envsuite.cli.evaluate as evaluate_command

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(evaluate_command, "evaluate", interrupted)
    out = tmp_path / "r"
    result = runner.invoke(
        app, ["eval", "envsuite/Bandit-v0", "--agent", "random", "--out", str(out), "--no-progress"]
    )
    assert result.exit_code == 130, result.output
    said = " ".join(result.output.split())
    assert f"Interrupted: the episodes finished so far are in {out / 'episodes.jsonl'}" in said
    assert "run the same command again to resume" in said


def _eval_against_failing_endpoint(tmp_path, failures: int):
    with ScriptedEndpoint() as endpoint:
        endpoint.fail_next(failures, status=503)
        return runner.invoke(
            app,
            [
                "eval", "envsuite/Bandit-v0", "--agent", "openai:scripted",
                "--base-url", endpoint.base_url, "--agent-option", "max_retries=0",
                "--agent-option", "backoff_s=0.001", "--episodes", "2", "--set", "horizon=3",
                "--out", str(tmp_path / "r"), "--no-progress",
            ],
        )  # fmt: skip


def test_eval_fails_when_every_episode_hit_an_infra_error(tmp_path):
    # each episode tries three times (max_infra_retries=2), one request each: 6 failures
    result = _eval_against_failing_endpoint(tmp_path, failures=6)
    assert result.exit_code == 1, result.output
    message = " ".join(result.output.split())
    assert "every episode (2) hit an infrastructure error" in message and "HTTP 503" in message
    assert "Traceback" not in result.output
    assert len(read_records(tmp_path / "r" / "episodes.jsonl")) == 2


def test_eval_warns_but_succeeds_when_some_episodes_hit_infra_errors(tmp_path):
    result = _eval_against_failing_endpoint(tmp_path, failures=3)
    assert result.exit_code == 0, result.output
    assert "1 episode(s) hit infra errors" in result.output
