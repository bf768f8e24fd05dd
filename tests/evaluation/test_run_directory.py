from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from envsuite.agents.loading import AgentLoadError
from envsuite.evaluation.protocol import EnvEntry, SeedRange, TaskProtocol, adhoc_protocol
from envsuite.evaluation.record_store import RECORDS_FILE
from envsuite.evaluation.run_directory import RunDirError, evaluate
from envsuite.records import read_records
from tests.evaluation import flaky_agents

BANDIT = "envsuite/Bandit-v0"


def _comparable(records):
    return {r.key: r.model_dump(exclude={"wall_time_s", "run_id"}) for r in records}


def test_every_episode_is_recorded_once_with_identity_and_outcome(tmp_path):
    protocol = adhoc_protocol(BANDIT, {"horizon": 50}, episodes=4, attempts=2)
    result = evaluate(protocol, "oracle", tmp_path / "run", progress=False)
    assert result.new == 8 and result.resumed == 0
    records = read_records(tmp_path / "run" / RECORDS_FILE)
    assert sorted((r.seed, r.attempt) for r in records) == [
        (s, a) for s in range(4) for a in range(2)
    ]
    for record in records:
        assert record.env_id == BANDIT and record.agent_id == "oracle"
        assert record.length == 50 and record.stop_reason == "terminated"
        assert record.episode_return == sum(step.reward for step in record.trace)
        assert len(record.curves["regret"]) == 50
        assert record.metrics["cumulative_regret"] == pytest.approx(sum(record.curves["regret"]))
    meta = json.loads((tmp_path / "run" / "run.json").read_text())
    assert meta["agent"] == "oracle" and meta["run_id"] == result.run_id


def test_same_seed_and_agent_give_identical_records(tmp_path):
    protocol = adhoc_protocol(BANDIT, {"horizon": 30}, episodes=3, attempts=2)
    first = evaluate(protocol, "random", tmp_path / "a", progress=False).records
    second = evaluate(protocol, "random", tmp_path / "b", progress=False).records
    assert _comparable(first) == _comparable(second)
    by_attempt = {(r.seed, r.attempt): r.trace for r in first}
    assert by_attempt[(0, 0)] != by_attempt[(0, 1)]  # attempts differ in the agent's seed


def test_rerun_resumes_and_skips_recorded_episodes(tmp_path):
    protocol = adhoc_protocol(BANDIT, {"horizon": 20}, episodes=5, attempts=1)
    evaluate(protocol, "oracle", tmp_path / "run", progress=False)
    path = tmp_path / "run" / RECORDS_FILE
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:2]) + lines[2][: len(lines[2]) // 2])  # killed mid-write
    again = evaluate(protocol, "oracle", tmp_path / "run", progress=False)
    assert again.resumed == 2 and again.new == 3
    records = read_records(path, skip_partial_last_line=False)
    assert sorted(r.seed for r in records) == [0, 1, 2, 3, 4]


def test_a_directory_holding_another_run_is_refused(tmp_path):
    evaluate(adhoc_protocol(BANDIT, {"horizon": 5}, 1, 1), "oracle", tmp_path, progress=False)
    with pytest.raises(RunDirError, match="different run"):
        evaluate(adhoc_protocol(BANDIT, {"horizon": 5}, 1, 1), "random", tmp_path, progress=False)


NEEDS_AN_ARGUMENT = """
class NeedsArgument:
    def __init__(self, x):
        pass

    def reset(self, seed=None):
        pass

    def act(self, observation, info):
        return "blue"
"""


@pytest.mark.parametrize("agent", ["player_0=oracle", "needs_argument:NeedsArgument"])
@pytest.mark.parametrize("folder_existed", [False, True])
def test_an_agent_that_cannot_be_built_leaves_no_run_behind(
    tmp_path, monkeypatch, agent, folder_existed
):
    # Found when the first episode builds it, after run.json was written: the corrected
    # command into the same folder was then refused as "a different run".
    (tmp_path / "needs_argument.py").write_text(NEEDS_AN_ARGUMENT)
    monkeypatch.chdir(tmp_path)
    run = tmp_path / "run"
    if folder_existed:
        run.mkdir()
    protocol = adhoc_protocol(BANDIT, {"horizon": 5}, 2, 1)
    with pytest.raises(AgentLoadError):
        evaluate(protocol, agent, run, progress=False)
    assert run.exists() == folder_existed and not (folder_existed and any(run.iterdir()))
    assert evaluate(protocol, "random", run, progress=False).new == 2


def test_the_refusal_of_another_run_says_what_differs(tmp_path):
    # Same agent and task id, only --episodes changed: the message must say so.
    evaluate(adhoc_protocol(BANDIT, {"horizon": 5}, 1, 1), "random", tmp_path, progress=False)
    with pytest.raises(RunDirError) as refused:
        evaluate(adhoc_protocol(BANDIT, {"horizon": 5}, 3, 1), "random", tmp_path, progress=False)
    message = str(refused.value)
    assert 'protocol seeds: recorded {"count":1,"start":0}, asked {"count":3,"start":0}' in message
    assert "agent:" not in message and "envs" not in message
    with pytest.raises(RunDirError, match=r"asked \[\{.*\"horizon\":6"):
        evaluate(adhoc_protocol(BANDIT, {"horizon": 6}, 1, 1), "random", tmp_path, progress=False)


KILL_SCRIPT = """
import sys
from envsuite.evaluation.protocol import adhoc_protocol
from envsuite.evaluation.run_directory import evaluate
evaluate(adhoc_protocol("envsuite/Bandit-v0", {"horizon": 1500, "text_history": "summary"}, 40, 1),
         "oracle", sys.argv[1], progress=False)
"""


def test_a_run_killed_with_sigkill_resumes_with_every_record_exactly_once(tmp_path):
    run_dir = tmp_path / "run"
    process = subprocess.Popen([sys.executable, "-c", KILL_SCRIPT, str(run_dir)])
    path = run_dir / RECORDS_FILE
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if path.exists() and path.read_text().count("\n") >= 3:
            break
        if process.poll() is not None:
            pytest.fail("the run finished before it could be killed")
        time.sleep(0.01)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    killed_with = path.read_text().count("\n")
    assert 3 <= killed_with < 40
    protocol = adhoc_protocol(BANDIT, {"horizon": 1500, "text_history": "summary"}, 40, 1)
    resumed = evaluate(protocol, "oracle", run_dir, progress=False)
    assert resumed.resumed >= 3 and resumed.new + resumed.resumed == 40
    records = read_records(path, skip_partial_last_line=False)
    assert sorted(r.seed for r in records) == list(range(40))
    clean = evaluate(protocol, "oracle", tmp_path / "clean", progress=False).records
    assert _comparable(records) == _comparable(clean)


def test_infra_errors_are_retried_then_recorded_apart(tmp_path):
    flaky_agents.CALLS.clear()
    protocol = adhoc_protocol(BANDIT, {"horizon": 5}, 1, 1)
    result = evaluate(
        protocol, "tests.evaluation.flaky_agents:AlwaysCrashes", tmp_path / "a", progress=False
    )
    record = result.records[0]
    assert record.infra_error and "ConnectionError" in record.infra_error
    assert record.stop_reason == "infra_error" and record.success is None
    assert flaky_agents.CALLS["always"] == 3  # one try and two retries


def test_a_transient_infra_error_is_retried_away(tmp_path):
    flaky_agents.CALLS.clear()
    protocol = adhoc_protocol(BANDIT, {"horizon": 5}, 1, 1)
    result = evaluate(
        protocol, "tests.evaluation.flaky_agents:CrashesOnce", tmp_path / "a", progress=False
    )
    record = result.records[0]
    assert record.infra_error is None and record.length == 5


def test_runner_step_limit_truncates(tmp_path):
    protocol = TaskProtocol(
        id="limits", envs=[EnvEntry(id=BANDIT)], seeds=SeedRange(count=1), max_steps=7
    )
    record = evaluate(protocol, "oracle", tmp_path, progress=False).records[0]
    assert record.length == 7 and record.truncated and record.stop_reason == "step_limit"


def test_runner_wall_clock_limit_truncates(tmp_path):
    protocol = TaskProtocol(
        id="limits",
        envs=[EnvEntry(id=BANDIT, kwargs={"horizon": 1000})],
        seeds=SeedRange(count=1),
        wall_time_s=0.1,
    )
    record = evaluate(
        protocol, "tests.evaluation.flaky_agents:Slow", tmp_path, progress=False
    ).records[0]
    assert record.stop_reason == "wall_time_limit" and record.truncated
    assert 0 < record.length < 1000


def test_process_pool_gives_the_same_records(tmp_path):
    protocol = adhoc_protocol(BANDIT, {"horizon": 20}, episodes=6, attempts=1)
    serial = evaluate(protocol, "random", tmp_path / "serial", progress=False).records
    pooled = evaluate(protocol, "random", tmp_path / "pool", workers=2, progress=False).records
    assert _comparable(serial) == _comparable(pooled)


def test_ray_executor_gives_the_same_records_as_local(tmp_path):
    if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
        pytest.importorskip("ray")
    protocol = adhoc_protocol(BANDIT, {"horizon": 20}, episodes=6, attempts=2)
    local = evaluate(protocol, "random", tmp_path / "local", workers=2, progress=False).records
    ray_records = evaluate(
        protocol, "random", tmp_path / "ray", executor="ray", workers=2, progress=False
    ).records
    assert len(local) == 12
    assert _comparable(local) == _comparable(ray_records)


def test_unknown_executor_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="unknown executor"):
        evaluate(
            adhoc_protocol(BANDIT, {}, 1, 1), "random", tmp_path, executor="slurm", progress=False
        )


def test_multi_agent_runs_record_per_agent_returns(tmp_path):
    protocol = adhoc_protocol(
        "envsuite/RepeatedGame-v0", {"game": "prisoners_dilemma", "horizon": 10}, 2, 1
    )
    records = evaluate(protocol, "player_0=oracle", tmp_path, progress=False).records
    assert len(records) == 2
    for record in records:
        assert set(record.episode_return) == {"player_0", "player_1"}
        assert record.length == 10
        for name in ("player_0", "player_1"):
            assert record.episode_return[name] == sum(
                step.reward.get(name, 0.0) for step in record.trace
            )
        assert set(record.trace[0].action) == {"player_0", "player_1"}
        assert "player_0/cumulative_regret" in record.metrics


def test_multi_agent_oracle_self_play_succeeds(tmp_path):
    protocol = adhoc_protocol("envsuite/RepeatedGame-v0", {"game": "matching_pennies"}, 3, 1)
    records = evaluate(protocol, "oracle", tmp_path, progress=False).records
    assert all(record.success for record in records)


def test_hostile_actions_are_parse_errors_and_recorded_as_descriptions(tmp_path):
    from envsuite.testing.hostile_actions import HOSTILE_ACTIONS

    steps = len(HOSTILE_ACTIONS)
    protocol = adhoc_protocol(BANDIT, {"horizon": steps}, 1, 1)
    result = evaluate(
        protocol, "tests.evaluation.flaky_agents:Hostile", tmp_path / "a", progress=False
    )
    record = result.records[0]
    assert record.infra_error is None and record.length == steps
    assert len(record.to_json_line()) < steps * 70_000
