from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("pysat")  # the sat extra; CI installs it and wants failures, not skips

import envsuite
from envsuite.families.sat.problem_parsing import parse_prompt
from envsuite.families.sat.saturn_jsonl import DatasetFileError
from envsuite.families.sat.solver import solve

SAT = "envsuite/SAT-v0"
SHIPPED = Path(__file__).resolve().parents[3] / "datasets" / "sat" / "envsuite-sat-2.6k" / "v1"


def answer_for(observation: str) -> str:
    model = solve(parse_prompt(observation))
    assert model is not None
    return model


def test_rewards_follow_saturn():
    env = envsuite.make(SAT)
    observation, info = env.reset(seed=3)
    model = answer_for(observation)
    assert env.step(f"reasoning...\n\\boxed{{{model}}}")[1] == 1.0
    formula = parse_prompt(observation)
    wrong = next(
        bits for bits in (format(i, "05b") for i in range(32)) if not formula.satisfies(bits)
    )
    env.reset(seed=3)
    _, reward, terminated, truncated, info = env.step(f"\\boxed{{{wrong}}}")
    assert (reward, terminated, truncated, info["success"]) == (0.0, True, False, False)
    assert info["violated_clauses"] == len(formula.violated(wrong))
    assert info["score"] == pytest.approx(1 - info["violated_clauses"] / 20)
    env.reset(seed=3)
    _, reward, _, _, info = env.step(f"the answer is {model}")
    assert reward == -1.0 and "boxed" in info["parse_error"] and info["success"] is False


def test_strict_parser_rejects_what_saturn_accepts():
    lenient = envsuite.make(SAT, level="n3-k5-l5")
    strict = envsuite.make(SAT, level="n3-k5-l5", answer_parser="strict")
    for env in (lenient, strict):
        env.reset(seed=0)
    model = answer_for(lenient.unwrapped.text)
    padded = f"\\boxed{{{model}0}}"  # one character too many: SATURN ignores it
    assert lenient.step(padded)[1] == 1.0
    _, reward, _, _, info = strict.step(padded)
    assert reward == -1.0 and "exactly 5 characters" in info["parse_error"]


def test_instance_metadata_and_determinism():
    first, second = envsuite.make(SAT, level="saturn-test-8"), envsuite.make(SAT, level="n4-k8-l40")
    a = first.reset(seed=11)
    b = second.reset(seed=11)
    assert a == b
    info = a[1]
    assert (info["clause_width"], info["num_vars"], info["num_clauses"]) == (4, 8, 40)
    assert info["difficulty"] == pytest.approx(11.64, abs=0.01) and info["satisfiable"]
    assert 1 <= info["num_solutions"] <= 100 and info["generator"] == "planted"
    assert first.reset(seed=12)[0] != a[0]


def test_decide_task():
    env = envsuite.make(SAT, task="decide", num_vars=8, num_clauses=34, answer_parser="strict")
    verdicts = []
    for seed in range(12):
        observation, info = env.reset(seed=seed)
        assert info["legal_actions"] == ["\\boxed{SAT}", "\\boxed{UNSAT}"]
        truth = solve(parse_prompt(observation)) is not None
        assert truth == info["satisfiable"]
        verdicts.append(truth)
        right = "\\boxed{SAT}" if truth else "\\boxed{UNSAT}"
        assert env.step(right)[1] == 1.0
        env.reset(seed=seed)
        assert env.step("\\boxed{UNSAT}" if truth else "\\boxed{SAT}")[1] == 0.0
    assert any(verdicts) and not all(verdicts)


def test_many_variables_use_x_names_and_fit_the_space():
    # 70 variables: past the small-formula solver, so CaDiCaL counts and solves.
    env = envsuite.make(SAT, num_vars=70, clause_ratio=4.2, prompt_format="english")
    observation, info = env.reset(seed=0)
    assert info["num_clauses"] == 294 and "x70" in observation
    assert 1 <= info["num_solutions"] <= 100
    assert env.observation_space.contains(observation)
    model = answer_for(observation)
    assert env.step(f"\\boxed{{{model}}}")[1] == 1.0


def test_solution_counting_can_be_switched_off():
    env = envsuite.make(SAT, num_vars=40, clause_ratio=4.2, solution_cap=0)
    _, info = env.reset(seed=0)
    assert info["num_solutions"] is None and info["num_solutions_capped"] is None
    with pytest.raises(ValueError, match="solution_cap"):
        envsuite.make(SAT, solution_cap=1)


def test_action_space_samples_are_random_answers():
    env = envsuite.make(SAT)
    env.action_space.seed(0)
    samples = {env.action_space.sample() for _ in range(50)}
    assert all(s.startswith("\\boxed{") and len(s) == len("\\boxed{}") + 5 for s in samples)
    assert len(samples) > 10


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"level": "n3-k5-l20", "num_vars": 6}, "already fixes the sizes"),
        ({"num_clauses": 20, "clause_ratio": 4.0}, "not both"),
        ({"level": "n3-k4-l40"}, "distinct clauses"),
        ({"task": "decide", "num_clauses": 5}, "always satisfiable"),
        ({"generator": "planted", "task": "decide"}, "give the answer away"),
        ({"prompt_format": "latex"}, "prompt_format"),
        ({"answer_parser": "loose"}, "answer_parser"),
        ({"dataset_file": "x.jsonl", "num_vars": 6}, "dataset_file"),
        ({"curriculum": "default", "num_vars": 6}, "curriculum chooses the level"),
        ({"curriculum": {"ladder": "default", "k": 4, "attempts": 2}}, "attempts >= 4"),
    ],
)
def test_bad_kwargs_fail_at_make_with_the_reason(kwargs, message):
    with pytest.raises(ValueError, match=message):
        envsuite.make(SAT, **kwargs)


def test_missing_dataset_file_is_a_clear_error(tmp_path):
    missing = str(tmp_path / "absent.jsonl")
    with pytest.raises(DatasetFileError, match=r"does not exist.*datasets build sat"):
        envsuite.make(SAT, dataset_file=missing)
    # Also when only the spec hash is asked for (the runner does so for failed episodes).
    with pytest.raises(DatasetFileError, match="does not exist"):
        envsuite.spec(SAT).hash_for({"dataset_file": missing})


def test_dataset_files_enter_the_spec_hash(tmp_path):
    source = SHIPPED / "test" / "n3_k5_length20_sample100.jsonl"
    copy = tmp_path / "level.jsonl"
    shutil.copyfile(source, copy)
    spec = envsuite.spec(SAT)
    before = spec.hash_for({"dataset_file": str(copy)})
    assert envsuite.make(SAT, dataset_file=str(copy)).unwrapped.spec_hash == before
    lines = copy.read_text().splitlines(keepends=True)
    copy.write_text("".join(lines[:-1]))  # drop one instance
    assert spec.hash_for({"dataset_file": str(copy)}) != before
    assert spec.hash_for({}) != before


def test_relative_dataset_paths_are_under_the_datasets_root():
    env = envsuite.make(
        SAT, dataset_file="sat/envsuite-sat-2.6k/v1/test/n4_k7_length40_sample100.jsonl"
    )
    _observation, info = env.reset(seed=5)
    assert info["source"] == "n4_k7_length40_sample100.jsonl#5" and info["num_clauses"] == 40
    with pytest.raises(ValueError, match="instance"):
        env.reset(options={"instance": 100})
