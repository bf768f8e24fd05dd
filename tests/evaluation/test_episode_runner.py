"""The runner on each API's loop: AEC envs, per-agent outcomes and env-level success."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from envsuite.evaluation.episode_runner import EnvCache, run_job
from envsuite.evaluation.jobs import EpisodeJob
from envsuite.evaluation.protocol import adhoc_protocol
from envsuite.evaluation.run_directory import evaluate
from envsuite.leaderboard.errors import TraceReplayError
from envsuite.leaderboard.trace_replay import replay_record
from envsuite.records import AgentOutcome, EpisodeRecord, Step
from envsuite.registry import EnvSpec
from tests.turn_taking_env import TURN_GAME, registered_turn_game

GAME = "envsuite/RepeatedGame-v0"


@pytest.fixture
def turn_game() -> Iterator[EnvSpec]:
    with registered_turn_game() as spec:
        yield spec


def job(agent: str, **fields: object) -> EpisodeJob:
    return EpisodeJob(run_id="t", env_id=TURN_GAME, seed=0, agent=agent, **fields)  # type: ignore[arg-type]


def test_the_env_cache_makes_each_spec_in_its_native_form(turn_game: EnvSpec) -> None:
    cache = EnvCache()
    try:
        _, aec = cache.get(job("random"))
        _, parallel = cache.get(EpisodeJob(run_id="t", env_id=GAME, seed=0, agent="random"))
    finally:
        cache.close()
    assert hasattr(aec, "agent_iter") and not hasattr(parallel, "agent_iter")
    assert EnvCache.kind(turn_game) == "aec"


def test_an_aec_record_has_one_trace_step_per_agent_action(turn_game: EnvSpec) -> None:
    record = run_job(job("first=oracle,second=oracle"))
    assert record.infra_error is None
    assert record.length == 4
    assert [step.action for step in record.trace] == [{"first": "3"}, {"second": "3"}] * 2
    assert record.trace[0].reward == {"first": 3.0}  # zero rewards are left out
    assert record.episode_return == {"first": 6.0, "second": 6.0}
    assert record.agents == {
        "first": AgentOutcome(episode_return=6.0, outcome="draw"),
        "second": AgentOutcome(episode_return=6.0, outcome="draw"),
    }
    assert record.success is False  # the env's own rule: "first" won
    assert record.stop_reason == "terminated" and record.terminated


def test_multi_agent_success_is_the_envs_rule_not_every_agents(turn_game: EnvSpec) -> None:
    # "second" names garbage, so "first" wins: one agent lost, yet the env calls it success.
    record = run_job(job("first=oracle,second=random"))
    assert record.agents["first"].outcome == "win"
    assert record.agents["second"].outcome == "loss"
    assert record.success is True


def test_the_step_budget_counts_agent_actions(turn_game: EnvSpec) -> None:
    record = run_job(job("oracle", step_budget=3))
    assert record.length == 3 and record.stop_reason == "step_limit" and record.truncated
    assert record.agents["first"].outcome is None  # the game did not end


def test_old_step_limit_name_is_still_accepted_by_jobs() -> None:
    assert EpisodeJob(run_id="t", env_id=GAME, seed=0, agent="x", max_steps=5).step_budget == 5


def test_an_aec_trace_replays_and_a_changed_reward_does_not(turn_game: EnvSpec) -> None:
    record = run_job(job("first=oracle,second=random"))
    replay_record(record)
    steps = [step.model_dump() for step in record.trace]
    steps[1]["reward"] = {**steps[1]["reward"], "second": 5.0}
    altered = record.model_copy(update={"trace": [Step.model_validate(s) for s in steps]})
    with pytest.raises(TraceReplayError, match="step 2: recorded reward"):
        replay_record(altered)
    outcomes = dict(record.agents)
    outcomes["first"] = outcomes["first"].model_copy(update={"outcome": "loss"})
    with pytest.raises(TraceReplayError, match=r"agents\['first'\]\['outcome'\]"):
        replay_record(record.model_copy(update={"agents": outcomes}))


def test_parallel_records_carry_per_agent_outcomes(tmp_path) -> None:
    protocol = adhoc_protocol(GAME, {"game": "matching_pennies", "horizon": 6}, 2, 1)
    records = evaluate(protocol, "player_0=oracle", tmp_path, progress=False).records
    for record in records:
        assert set(record.agents) == {"player_0", "player_1"}
        assert isinstance(record.episode_return, dict)
        for name, outcome in record.agents.items():
            assert outcome.episode_return == record.episode_return[name]
            assert outcome.outcome in ("success", "failure")
        # The repeated game keeps its rule: success when every agent succeeded.
        assert record.success == all(o.outcome == "success" for o in record.agents.values())
        replay_record(record)


def test_records_without_per_agent_outcomes_still_replay(tmp_path) -> None:
    protocol = adhoc_protocol(GAME, {"game": "matching_pennies", "horizon": 4}, 1, 1)
    record = evaluate(protocol, "oracle", tmp_path, progress=False).records[0]
    old = EpisodeRecord.model_validate({**record.model_dump(), "agents": {}})
    replay_record(old)


def test_an_aec_env_that_fails_is_an_infra_error_not_a_crash(
    turn_game: EnvSpec, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.turn_taking_env import TurnGame

    def broken_step(self: TurnGame, action: object) -> None:
        raise RuntimeError("engine lost")

    monkeypatch.setattr(TurnGame, "step", broken_step)
    record = run_job(job("oracle", max_infra_retries=0))
    assert record.stop_reason == "infra_error"
    assert record.infra_error == "env.step raised RuntimeError: engine lost"


def test_an_agent_that_fails_is_named_in_the_infra_error(turn_game: EnvSpec) -> None:
    record = run_job(job("first=oracle,second=tests.evaluation.flaky_agents:AlwaysCrashes"))
    assert record.infra_error is not None and record.infra_error.startswith("second.act raised")


def test_a_reused_random_agent_plays_as_a_fresh_one() -> None:
    bandit = {"env_id": "envsuite/Bandit-v0", "env_kwargs": {"horizon": 20}, "agent": "random"}
    cache = EnvCache()
    try:
        reused = [run_job(EpisodeJob(run_id="t", seed=seed, **bandit), cache) for seed in (0, 1, 0)]
    finally:
        cache.close()
    fresh = run_job(EpisodeJob(run_id="t", seed=0, **bandit))
    assert reused[0].trace == reused[2].trace == fresh.trace
    assert reused[1].trace != fresh.trace
