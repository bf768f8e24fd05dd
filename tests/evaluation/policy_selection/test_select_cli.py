"""``envsuite select`` end to end on Bandit-v0, and its errors."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from envsuite.cli import select_policy
from envsuite.cli.root import build_app
from envsuite.evaluation.metrics.top_k import rank_by_estimate
from envsuite.evaluation.policy_selection.runs import disjoint_seeds
from envsuite.records import read_records

MODULE = "envsuite.families.decision.candidate_policies"
CANDIDATES = [
    f"eps0.05={MODULE}:EpsilonGreedy?epsilon=0.05",
    f"eps0.5={MODULE}:EpsilonGreedy?epsilon=0.5",
    f"soft0.2={MODULE}:Softmax?temperature=0.2",
    f"arm0={MODULE}:FixedArm?arm=0&epsilon=0.2",
]
BASE = [
    "select",
    "envsuite/Bandit-v0",
    "--set",
    "horizon=5",
    "--set",
    "num_arms=3",
    "--set",
    "observation_mode=vector",
    "--behavior",
    f"uniform={MODULE}:UniformPolicy",
    "--logged-episodes",
    "60",
    "--budget-episodes",
    "4",
    "--true-episodes",
    "80",
]


def app() -> typer.Typer:
    root = build_app()
    select_policy.register(root)
    return root


def invoke(*args: str):
    return CliRunner().invoke(app(), list(args), env={"COLUMNS": "150"})


def select(out: Path, *extra: str):
    args = [*BASE, "--out", str(out), *extra]
    for candidate in CANDIDATES:
        args += ["--candidate", candidate]
    return invoke(*args)


def assert_clean_failure(result, code: int, message: str) -> None:
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit), result.exception
    assert message in " ".join(result.output.split()), result.output


@pytest.fixture(scope="module")
def first_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("select") / "a"
    result = select(out, "--seed", "11")
    assert result.exit_code == 0, result.output
    return out, result.stdout, json.loads((out / "results.json").read_text())


def printed_rows(stdout: str, title: str) -> list[list[str]]:
    """The body rows of the rich table titled ``title`` (cells split on │)."""
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == title)
    rows = []
    for line in lines[start + 1 :]:
        if line.startswith("└"):
            break
        if line.startswith("│"):
            rows.append([cell.strip() for cell in line.strip("│").split("│")])
    return rows


def test_the_table_is_reproducible_with_the_same_seed(first_run, tmp_path):
    out, stdout, results = first_run
    again = select(tmp_path / "b", "--seed", "11")
    assert again.exit_code == 0, again.output
    assert json.loads((tmp_path / "b" / "results.json").read_text()) == results
    assert again.stdout.replace(str(tmp_path / "b"), "OUT") == stdout.replace(str(out), "OUT")


def test_a_different_seed_gives_different_numbers(first_run, tmp_path):
    _, _, results = first_run
    other = select(tmp_path / "c", "--seed", "12")
    assert other.exit_code == 0, other.output
    assert json.loads((tmp_path / "c" / "results.json").read_text()) != results


def test_sharpe_ratio_follows_from_the_printed_best_and_std(first_run):
    _, stdout, results = first_run
    baseline_line = next(line for line in stdout.splitlines() if "J(π_b) =" in line)
    baseline = float(re.search(r"J\(π_b\) = (-?[0-9.]+)", baseline_line).group(1))
    checked = 0
    for estimator, label in (("is", "IS"), ("pdis", "PDIS"), ("dr", "DR"), ("budget", "budget")):
        rows = printed_rows(stdout, f"Top-k by {label}")
        assert [row[0] for row in rows] == ["1", "2", "3", "4"]
        assert rows[0][4] == "nan" and rows[0][6] == "nan"  # std@1, Sharpe@1 (ddof=1)
        for row, exact in zip(rows, results["tables"][estimator], strict=True):
            best, std, sharpe = float(row[1]), row[4], row[6]
            assert float(row[1]) == pytest.approx(exact["best"], abs=5e-5)
            if std == "nan" or float(std) < 0.05:
                continue
            assert float(sharpe) == pytest.approx(max(best - baseline, 0.0) / float(std), rel=0.01)
            checked += 1
        # The JSON holds the exact numbers: the formula holds to rounding error.
        for exact in results["tables"][estimator][1:]:
            numerator = max(exact["best"] - results["behavior"]["true_value"], 0.0)
            assert exact["sharpe_ratio"] == pytest.approx(numerator / exact["std"], rel=1e-12)
    assert checked >= 4


def test_true_values_are_mean_returns_of_the_recorded_runs(first_run):
    out, _, results = first_run
    for index, candidate in enumerate(results["candidates"]):
        (run,) = (out / "runs" / "true").glob(f"{index:02d}-*")
        returns = [r.episode_return for r in read_records(run / "episodes.jsonl")]
        assert len(returns) == 80
        assert candidate["true_value"] == pytest.approx(sum(returns) / len(returns), abs=1e-12)
    behavior = read_records(out / "runs" / "true" / "behavior" / "episodes.jsonl")
    mean = sum(r.episode_return for r in behavior) / len(behavior)
    assert results["behavior"]["true_value"] == pytest.approx(mean, abs=1e-12)


def test_logged_budget_and_true_seeds_are_disjoint_and_derived(first_run):
    out, _, _ = first_run
    seeds = {
        purpose: {
            r.seed
            for path in (out / "runs" / purpose).rglob("episodes.jsonl")
            for r in read_records(path)
        }
        for purpose in ("logged", "budget", "true")
    }
    assert len(seeds["logged"]) == 60 and len(seeds["budget"]) == 4 and len(seeds["true"]) == 80
    assert not seeds["logged"] & seeds["budget"] and not seeds["logged"] & seeds["true"]
    assert not seeds["budget"] & seeds["true"]
    expected = disjoint_seeds(11, {"logged": 60, "budget": 4, "true": 80})
    assert seeds == {purpose: set(values) for purpose, values in expected.items()}
    assert not set(range(11, 11 + 80)) & seeds["true"]  # no seed + index


def test_results_json_holds_estimates_for_every_candidate(first_run):
    _, stdout, results = first_run
    names = [c["name"] for c in results["candidates"]]
    assert names == ["eps0.05", "eps0.5", "soft0.2", "arm0"]
    for candidate in results["candidates"]:
        assert set(candidate["estimates"]) == {"budget", "is", "pdis", "snis", "snpdis", "dr"}
        assert candidate["effective_sample_size"] > 0
    assert set(results["tables"]) == {"budget", "is", "pdis", "snis", "snpdis", "dr"}
    assert "SharpeRatio@k per estimator" in stdout
    sharpe_rows = printed_rows(stdout, "SharpeRatio@k per estimator")
    assert sharpe_rows[1][2] == f"{results['tables']['is'][1]['sharpe_ratio']:.4f}"


def test_rerunning_in_the_same_directory_resumes_and_another_request_is_refused(first_run):
    out, stdout, results = first_run
    again = select(out, "--seed", "11")
    assert json.loads((out / "results.json").read_text()) == results
    assert again.exit_code == 0, again.output
    assert again.stdout == stdout
    changed = select(out, "--seed", "12")
    assert_clean_failure(changed, 2, "holds a different selection; use another --out")


def test_budget_only_needs_no_probabilities(tmp_path):
    result = invoke(
        "select",
        "envsuite/Bandit-v0",
        "--set",
        "horizon=3",
        "--set",
        "observation_mode=vector",
        "--candidate",
        "random",
        "--candidate",
        "oracle",
        "--estimators",
        "budget",
        "--budget-episodes",
        "2",
        "--true-episodes",
        "5",
        "--out",
        str(tmp_path / "o"),
    )
    assert result.exit_code == 0, result.output
    results = json.loads((tmp_path / "o" / "results.json").read_text())
    assert results["behavior"]["true_value"] == "nan"
    assert "the SharpeRatio@k baseline J(π_b) is 0" in result.stdout
    for row in results["tables"]["budget"][1:]:
        expected = max(row["best"], 0.0) / row["std"] if row["std"] > 0 else math.inf
        assert row["sharpe_ratio"] == (pytest.approx(expected) if row["std"] > 0 else "inf")
    assert list(results["tables"]) == ["budget"]


def test_candidates_file_and_relative_safety(tmp_path):
    path = tmp_path / "candidates.yaml"
    path.write_text(
        f"- {{name: greedy, agent: '{MODULE}:EpsilonGreedy', options: {{epsilon: 0.0}}}}\n"
        f"- {{name: arm1, agent: '{MODULE}:FixedArm', options: {{arm: 1}}}}\n"
    )
    result = invoke(
        *BASE,
        "--candidates",
        str(path),
        "--candidate",
        CANDIDATES[1],
        "--relative-safety",
        "1.1",
        "--estimators",
        "budget,pdis",
        "--out",
        str(tmp_path / "o"),
    )
    assert result.exit_code == 0, result.output
    results = json.loads((tmp_path / "o" / "results.json").read_text())
    assert [c["name"] for c in results["candidates"]] == ["eps0.5", "greedy", "arm1"]
    threshold = 1.1 * results["behavior"]["true_value"]
    assert results["safety_threshold"] == pytest.approx(threshold)
    for estimator in ("budget", "pdis"):
        estimates = [c["estimates"][estimator] for c in results["candidates"]]
        order = rank_by_estimate(estimates)  # SCOPE-RL's tie rule
        for row in results["tables"][estimator]:
            portfolio = [results["candidates"][i]["true_value"] for i in order[: row["k"]]]
            unsafe = sum(value < threshold for value in portfolio) / row["k"]
            assert row["safety_violation_rate"] == unsafe
    assert any(row["safety_violation_rate"] > 0 for row in results["tables"]["budget"])


# -- errors ------------------------------------------------------------------------------
def test_unknown_candidate(tmp_path):
    result = invoke(
        *BASE,
        "--candidate",
        "no_such_module:Policy",
        "--candidate",
        "random",
        "--out",
        str(tmp_path / "o"),
    )
    assert_clean_failure(result, 2, "cannot import agent 'no_such_module:Policy'")


def test_candidate_without_probabilities_for_off_policy_estimators(tmp_path):
    result = invoke(
        *BASE, "--candidate", "random", "--candidate", CANDIDATES[0], "--out", str(tmp_path / "o")
    )
    assert_clean_failure(result, 2, "candidate 'random' (RandomAgent) has no action_probabilities")
    assert not (tmp_path / "o").exists()  # refused before anything ran


def test_behaviour_without_logged_probabilities(tmp_path):
    args = [a if a != f"uniform={MODULE}:UniformPolicy" else "oracle" for a in BASE]
    result = invoke(
        *args,
        "--candidate",
        CANDIDATES[0],
        "--candidate",
        CANDIDATES[1],
        "--out",
        str(tmp_path / "o"),
    )
    assert_clean_failure(result, 2, "has no last_action_probability()")


def test_bad_estimator_name(tmp_path):
    result = invoke(
        *BASE,
        "--candidate",
        CANDIDATES[0],
        "--candidate",
        CANDIDATES[1],
        "--estimators",
        "is,wis",
        "--out",
        str(tmp_path / "o"),
    )
    assert_clean_failure(result, 2, "unknown estimator(s) wis; choose from budget, is, pdis")


def test_misspelt_candidate_option(tmp_path):
    result = invoke(
        *BASE,
        "--candidate",
        f"{MODULE}:EpsilonGreedy?epsilom=0.1",
        "--candidate",
        CANDIDATES[1],
        "--out",
        str(tmp_path / "o"),
    )
    assert_clean_failure(result, 2, "EpsilonGreedy does not take epsilom (it takes: epsilon)")


def test_bad_option_value(tmp_path):
    result = invoke(
        *BASE,
        "--candidate",
        f"{MODULE}:EpsilonGreedy?epsilon=2",
        "--candidate",
        CANDIDATES[1],
        "--out",
        str(tmp_path / "o"),
    )
    assert_clean_failure(result, 2, "epsilon must be a number in [0, 1], got 2")


def test_off_policy_estimators_need_a_behaviour_agent(tmp_path):
    result = invoke(
        "select",
        "envsuite/Bandit-v0",
        "--candidate",
        CANDIDATES[0],
        "--candidate",
        CANDIDATES[1],
        "--out",
        str(tmp_path / "o"),
    )
    assert_clean_failure(result, 2, "the off-policy estimators need a behaviour agent (--behavior)")


def test_one_candidate_is_not_a_selection(tmp_path):
    result = invoke(*BASE, "--candidate", CANDIDATES[0], "--out", str(tmp_path / "o"))
    assert_clean_failure(result, 2, "policy selection needs at least 2 candidates")


def test_unknown_env_and_bad_kwargs(tmp_path):
    result = invoke(
        "select", "envsuite/Bandit-v9", "--candidate", "random", "--out", str(tmp_path / "o")
    )
    assert_clean_failure(result, 2, "envsuite/Bandit-v9")
    result = invoke(
        "select",
        "envsuite/Bandit-v0",
        "--set",
        "horizon=0",
        "--candidate",
        "random",
        "--out",
        str(tmp_path / "o"),
    )
    assert_clean_failure(result, 2, "horizon must be an int >= 1")


def test_duplicate_candidate_names(tmp_path):
    result = invoke(
        *BASE,
        "--candidate",
        CANDIDATES[0],
        "--candidate",
        CANDIDATES[0],
        "--out",
        str(tmp_path / "o"),
    )
    assert_clean_failure(result, 2, "two candidates are named 'eps0.05'")


def test_nan_strings_in_json_are_documented_values(first_run):
    _, _, results = first_run
    row = results["tables"]["is"][0]
    assert row["std"] == "nan" and row["sharpe_ratio"] == "nan"
    assert all(isinstance(v, float) and math.isfinite(v) for v in (row["best"], row["regret"]))


def test_the_commands_estimator_names_are_the_packages() -> None:
    """The command names the estimators itself (cheap --help); they are the package's."""
    from envsuite.evaluation.policy_selection.config import ESTIMATORS

    assert select_policy.ESTIMATORS == ESTIMATORS
