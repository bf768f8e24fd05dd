from __future__ import annotations

import os

import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("pysat")  # the sat extra; CI installs it and wants failures, not skips

import envsuite
from envsuite.env_base import InvalidAction
from envsuite.families.sat.interactive_commands import Command, parse_command
from envsuite.families.sat.problem_parsing import parse_prompt
from envsuite.families.sat.solver import solve

INTERACTIVE = "envsuite/SATInteractive-v0"
NAMES = ("A", "B", "C", "D", "E")


def test_commands():
    assert parse_command("assign 10110", NAMES) == Command(
        "assign", ((0, 1), (1, 0), (2, 1), (3, 1), (4, 0))
    )
    assert parse_command("I think...\n\n1 0 1 1 0", NAMES).kind == "assign"
    assert parse_command("so \\boxed{10110} and then set A=0", NAMES).values[0] == (0, 1)
    assert parse_command("SET a = true, c=0", NAMES) == Command("set", ((0, 1), (2, 0)))
    assert parse_command("unset B, E", NAMES) == Command("unset", ((1, None), (4, None)))
    big = tuple(f"x{i}" for i in range(1, 31))
    assert parse_command("set x30=1 x2=0", big) == Command("set", ((29, 1), (1, 0)))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("assign 1011", "5 characters"),
        ("set A=2", "NAME=VALUE"),
        ("set F=1", "no variable named 'F'"),
        ("set A=1 junk", "NAME=VALUE"),
        ("unset", "at least one"),
        ("flip A", "unknown command"),
        ("", "empty response"),
    ],
)
def test_bad_commands_say_why(text, message):
    with pytest.raises(InvalidAction, match=message):
        parse_command(text, NAMES)


def test_feedback_tracks_a_partial_assignment_to_the_solution():
    env = envsuite.make(INTERACTIVE, max_turns=10)
    observation, info = env.reset(seed=4)
    formula = parse_prompt(observation)
    model = solve(formula)
    assert model is not None and info["turn"] == 0
    # Set the solution one variable at a time: nothing is ever violated, the open count
    # never rises, and the last set solves it.
    opened = formula.num_clauses
    for index, bit in enumerate(model):
        observation, reward, terminated, truncated, info = env.step(
            f"set {formula.names[index]}={bit}"
        )
        assert info["violated_clauses"] == 0 and info["open_clauses"] <= opened
        opened = info["open_clauses"]
        if terminated:
            break
    assert terminated and not truncated and reward == 1.0 and info["success"]
    assert info["score"] == 1.0 and "solved" in observation


def test_violated_clauses_are_listed_and_the_budget_truncates():
    env = envsuite.make(INTERACTIVE, max_turns=3, invalid_action_penalty=0.25)
    observation, _ = env.reset(seed=8)
    formula = parse_prompt(observation)
    wrong = next(b for b in (format(i, "05b") for i in range(32)) if formula.violated(b))
    violated = formula.violated(wrong)
    observation, reward, terminated, truncated, info = env.step(f"assign {wrong}")
    assert (reward, terminated, truncated) == (0.0, False, False)
    assert info["violated_clauses"] == len(violated) and info["open_clauses"] == 0
    assert f"Violated clauses ({len(violated)})" in observation
    first = formula.clauses[violated[0]]
    assert "".join(("!" if x < 0 else "") + formula.names[abs(x) - 1] for x in first) in observation
    observation, reward, _, _, info = env.step("please help")
    assert reward == -0.25 and info["parse_error"] and "Could not read" in observation
    _, reward, terminated, truncated, info = env.step(f"assign {wrong}")
    assert (terminated, truncated, info["success"]) == (False, True, False)
    assert info["score"] == pytest.approx(1 - len(violated) / formula.num_clauses)


def test_random_agent_sample_is_an_assign_command():
    env = envsuite.make(INTERACTIVE)
    env.action_space.seed(1)
    sample = env.action_space.sample()
    assert sample.startswith("assign ") and len(sample) == len("assign ") + 5
