from __future__ import annotations

import json
import os

import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("pysat")  # the sat extra; CI installs it and wants failures, not skips
import typer
from sat_skill_agent import SkillAgent
from typer.testing import CliRunner

import envsuite
from envsuite.evaluation.protocol import TaskProtocol
from envsuite.evaluation.run_directory import evaluate
from envsuite.families.sat.cli import curriculum as curriculum_cli
from envsuite.families.sat.curriculum import (
    CurriculumController,
    CurriculumSettings,
    CurriculumStateError,
)
from envsuite.families.sat.levels import LADDERS, Level
from envsuite.seeding import derive_seed


def controller(**overrides) -> CurriculumController:
    settings = {"ladder": ["n3-k4-l4", "n3-k5-l13", "n3-k7-l40"], "k": 2, "epsilon": 0.5}
    settings.update({"window": 3, "attempts": 2, **overrides})
    return CurriculumController(CurriculumSettings.from_config(settings))


def test_advances_only_when_the_full_window_reaches_epsilon():
    c = controller(epsilon=0.8)
    # Problem p0 solved once in two attempts: pass@2 = 1.
    assert not c.record("p0", True) and not c.record("p0", False)
    assert c.pending == {} and c.pass_at_k() == 1.0
    for name in ("p1", "p2"):
        c.record(name, False)
        c.record(name, False)
    assert c.pass_at_k() == pytest.approx(1 / 3) and c.stage == 0
    # The window rolls: only three solved problems in a row lift it to 0.8.
    advanced = [c.record(f"q{i}", True) or c.record(f"q{i}", True) for i in range(3)]
    assert advanced == [False, False, True]
    assert c.level == Level(3, 5, 13) and c.window == type(c.window)() and c.pass_at_k() is None
    assert c.history[0]["event"] == "advanced" and c.history[0]["level"] == "n3-k4-l4"


def test_pass_at_k_uses_the_unbiased_estimator():
    c = controller(k=2, attempts=4, window=1, epsilon=0.6)
    for success in (True, False, False, False):
        c.record("p", success)
    # pass@2 with n=4, c=1 is 1 - C(3,2)/C(4,2) = 0.5 < 0.6: no advance.
    assert c.pass_at_k() == pytest.approx(0.5) and c.stage == 0


def test_stale_and_repeated_results_are_not_counted():
    c = controller()
    assert not c.record("p", True, level="n3-k7-l40")
    assert c.stale == 1 and c.pending == {}
    c.record("p", True, level="n3-k4-l4", result_key="run|1")
    c.record("p", True, level="n3-k4-l4", result_key="run|1")
    assert c.duplicates == 1 and c.pending == {"p": [1, 1]}


def test_top_level_finishes_and_stays():
    c = controller(ladder=["n3-k4-l4"], window=1, attempts=2)
    assert not c.record("a", True)
    assert c.record("a", True) and c.finished and c.stage == 0
    c.record("b", True)
    assert not c.record("b", True)  # already finished: no second report


def test_state_round_trips_and_bad_files_fail_cleanly(tmp_path):
    c = controller()
    c.record("p", True)
    c.record("p", False, result_key="k")
    c.next_problems(3)
    path = tmp_path / "state.json"
    c.save(path)
    again = CurriculumController.load(path)
    assert again.to_dict() == c.to_dict() and again.settings == c.settings
    assert again.next_problems(1) == c.next_problems(1)
    path.write_text("{not json")
    with pytest.raises(CurriculumStateError, match="cannot read"):
        CurriculumController.load(path)
    path.write_text(json.dumps({"format": "something-else", "version": 1}))
    with pytest.raises(CurriculumStateError, match="not an envsuite SAT curriculum"):
        CurriculumController.load(path)
    broken = c.to_dict()
    broken["stage"] = 9
    path.write_text(json.dumps(broken))
    with pytest.raises(CurriculumStateError, match="outside the ladder"):
        CurriculumController.load(path)
    with pytest.raises(CurriculumStateError, match="no curriculum state"):
        CurriculumController.load(tmp_path / "absent.json")


def test_problems_handed_out_are_fresh_and_reproducible():
    first, second = controller(), controller()
    batch = first.next_problems(5)
    assert batch == second.next_problems(5)
    assert len({p["seed"] for p in batch + first.next_problems(5)}) == 10
    assert batch[0]["env_kwargs"] == {"clause_width": 3, "num_vars": 4, "num_clauses": 4}


def run_curriculum_env(problems: int, settings: dict, state: str | None = None) -> object:
    env = envsuite.make("envsuite/SAT-v0", curriculum=settings, curriculum_state=state)
    agent = SkillAgent()
    for problem in range(problems):
        seed = derive_seed(0, "curriculum-test-problem", problem)
        for attempt in range(settings["attempts"]):
            agent.reset(derive_seed(seed, "attempt", attempt))
            observation, info = env.reset(seed=seed)
            env.step(agent.act(observation, info))
    return env.unwrapped.curriculum


SKILL_SETTINGS = {"ladder": "default", "k": 2, "epsilon": 0.5, "window": 8, "attempts": 4}


def test_in_env_curriculum_climbs_to_where_the_agent_fails_and_stops():
    curriculum = run_curriculum_env(150, SKILL_SETTINGS)
    ladder = LADDERS["default"]
    mastered = [level for level in ladder if level.difficulty <= 11.0]
    # Every level the agent masters is passed, in order; the first one it fails holds it.
    assert [e["level"] for e in curriculum.history] == [level.name for level in mastered]
    assert all(e["pass_at_k"] >= 0.5 for e in curriculum.history)
    assert curriculum.level == ladder[len(mastered)] and curriculum.level.difficulty > 11.0
    assert curriculum.pass_at_k() < 0.5 and not curriculum.finished


def test_in_env_curriculum_resumes_from_its_state_file(tmp_path):
    state = str(tmp_path / "curriculum.json")
    run_curriculum_env(20, SKILL_SETTINGS, state)
    saved = CurriculumController.load(state)
    assert saved.stage == 2  # 8 problems per passed level
    resumed = envsuite.make("envsuite/SAT-v0", curriculum_state=state)
    _, info = resumed.reset(seed=1)
    assert info["curriculum_level"] == saved.level.name == info["level"]
    with pytest.raises(ValueError, match="other settings"):
        envsuite.make(
            "envsuite/SAT-v0", curriculum={**SKILL_SETTINGS, "k": 1}, curriculum_state=state
        )


def cli() -> typer.Typer:
    app = typer.Typer()
    curriculum_cli.register(app)
    return app


def test_cli_drives_an_external_trainer_through_eval(tmp_path):
    runner = CliRunner()
    state = tmp_path / "state.json"
    ladder = "n3-k4-l4,n3-k5-l13,n3-k7-l40"
    result = runner.invoke(
        cli(), ["curriculum", "init", str(state), "--ladder", ladder, "--k", "1",
                "--epsilon", "0.6", "--window", "5", "--attempts", "2"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    stages = []
    for round_ in range(4):
        protocol_file = tmp_path / f"round{round_}.yaml"
        result = runner.invoke(
            cli(),
            ["curriculum", "protocol", str(state), "--out", str(protocol_file), "--count", "5"],
        )
        assert result.exit_code == 0, result.output
        protocol = TaskProtocol.load(protocol_file)
        assert protocol.attempts == 2 and len(protocol.seed_values()) == 5
        run = evaluate(
            protocol, "sat_skill_agent:SkillAgent", tmp_path / f"run{round_}", progress=False
        )
        assert len(run.records) == 10
        result = runner.invoke(
            cli(),
            ["curriculum", "record", str(state), str(tmp_path / f"run{round_}" / "episodes.jsonl")],
        )
        assert result.exit_code == 0, result.output
        status = json.loads(
            runner.invoke(cli(), ["curriculum", "status", str(state), "--json"]).output
        )
        stages.append(status["stage"])
    # D: 4.33 and 8.39 are within the agent's skill, 12.78 is not.
    assert stages == [1, 2, 2, 2]
    # Feeding a run again counts nothing twice.
    again = runner.invoke(
        cli(), ["curriculum", "record", str(state), str(tmp_path / "run3" / "episodes.jsonl")]
    )
    assert "recorded 0 results (10 stale or repeated)" in " ".join(again.output.split())


def test_cli_next_hands_out_prompts_and_takes_plain_results(tmp_path):
    runner = CliRunner()
    state = tmp_path / "state.json"
    runner.invoke(
        cli(),
        [
            "curriculum",
            "init",
            str(state),
            "--ladder",
            "saturn",
            "--window",
            "2",
            "--attempts",
            "1",
        ],
    )
    result = runner.invoke(cli(), ["curriculum", "next", str(state), "--count", "2"])
    problems = [json.loads(line) for line in result.output.splitlines()]
    assert len(problems) == 2 and problems[0]["level"] == "n3-k5-l5"
    assert problems[0]["prompt"].startswith("You are now required to solve a SAT")
    results = tmp_path / "results.jsonl"
    results.write_text(
        "".join(
            json.dumps({"problem": p["problem"], "success": True, "level": p["level"]}) + "\n"
            for p in problems
        )
    )
    result = runner.invoke(cli(), ["curriculum", "record", str(state), str(results)])
    assert result.exit_code == 0 and "advanced n3-k5-l5 -> n3-k5-l6" in result.output


def test_cli_errors_are_messages_not_tracebacks(tmp_path):
    runner = CliRunner()
    state = tmp_path / "state.json"
    state.write_text("garbage")
    result = runner.invoke(cli(), ["curriculum", "status", str(state)])
    assert result.exit_code == 2 and "cannot read curriculum state" in result.output
    result = runner.invoke(
        cli(), ["curriculum", "init", str(tmp_path / "new.json"), "--ladder", "n3-k5-l20,n3-k5-l5"]
    )
    assert result.exit_code == 2 and "must get harder" in result.output
    result = runner.invoke(cli(), ["curriculum", "init", str(state)])
    assert result.exit_code == 2 and "--force" in result.output
    runner.invoke(cli(), ["curriculum", "init", str(state), "--force"])
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"problem": 3}\n')
    result = runner.invoke(cli(), ["curriculum", "record", str(state), str(bad)])
    assert result.exit_code == 2 and "bad.jsonl:1" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
