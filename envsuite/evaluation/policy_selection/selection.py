"""Policy selection on envsuite's own envs: cheap estimates, true values, top-k tables.

The SCOPE-RL workflow (Kiyohara et al., 2023): every candidate policy gets a cheap value
estimate from each estimator, and the true value J(π) from a full evaluation; ranking by
an estimate picks a top-k portfolio, which :func:`~envsuite.evaluation.metrics.top_k
.top_k_table` scores by best@k, worst@k, mean@k, std@k, safety violation rate,
SharpeRatio@k and regret@k. Estimators:

* ``budget``: the mean return of a few on-policy episodes of the candidate (the runner);
* ``is``, ``pdis``, ``snis`` (trajectory-wise), ``snpdis`` (per-decision) and ``dr``
  (cross-fitted FQE model): off-policy estimates from logged episodes of the behaviour
  agent, replayed in the env (:mod:`.estimators`, :mod:`.q_model`, :mod:`.replay`).

J(π) and J(π_b) (the baseline of SharpeRatio@k: the behaviour agent's true value) are mean
returns over ``true_episodes`` episodes. Logged, budget and true episodes use disjoint
seed lists derived from ``seed`` (:mod:`.runs`). Runs go to run directories under
``OUT/runs`` (so an interrupted selection resumes), the request to ``OUT/config.json``
(a different request in the same directory is refused) and the numbers to
``OUT/results.json``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console

from envsuite.evaluation.metrics.top_k import resolve_safety_threshold, top_k_table
from envsuite.evaluation.policy_selection import estimators as ope
from envsuite.evaluation.policy_selection.candidates import build
from envsuite.evaluation.policy_selection.config import (
    ESTIMATORS,
    OFF_POLICY,
    SelectionConfig,
    SelectionError,
)
from envsuite.evaluation.policy_selection.logged_replay import LoggedData, replay_logged
from envsuite.evaluation.policy_selection.policy import logs_probabilities, reports_probabilities
from envsuite.evaluation.policy_selection.q_model import cross_fitted_values
from envsuite.evaluation.policy_selection.results import CandidateResult, SelectionResult
from envsuite.evaluation.policy_selection.runs import PolicyRuns, disjoint_seeds, slug
from envsuite.evaluation.run_directory import evaluate
from envsuite.records import EpisodeRecord
from envsuite.registry import registry

CONFIG_FILE = "config.json"
RESULTS_FILE = "results.json"


def _check_agents(config: SelectionConfig, env: Any) -> None:
    spec = registry[config.env_id]
    off_policy = bool(OFF_POLICY & set(config.estimators))
    for candidate in config.candidates:
        agent = build(candidate, spec, env)
        if off_policy and not reports_probabilities(agent):
            raise SelectionError(
                f"candidate {candidate.name!r} ({type(agent).__name__}) has no "
                "action_probabilities(observation, info), which the off-policy estimators "
                "need; use the budget estimator alone, or a stochastic policy"
            )
    if config.behavior is not None:
        agent = build(config.behavior, spec, env)
        if off_policy and not logs_probabilities(agent):
            raise SelectionError(
                f"the behaviour agent {config.behavior.name!r} ({type(agent).__name__}) has no "
                "last_action_probability(), so its episodes cannot be used as logged data"
            )


def _check_out(config: SelectionConfig, out: Path) -> None:
    path = out / CONFIG_FILE
    asked = config.to_json()
    if path.exists():
        try:
            existing = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise SelectionError(f"{path} is unreadable ({exc}); use another --out") from exc
        if existing != asked:
            raise SelectionError(f"{out} holds a different selection; use another --out")
        return
    out.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(asked, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def off_policy_estimates(
    data: LoggedData, name: str, estimators: Sequence[str], gamma: float, ridge: float
) -> tuple[dict[str, float], float]:
    """Each off-policy estimate of candidate ``name``, and the trajectory weights' ESS."""
    arrays = (data.rewards, data.behavior_probs, data.target_probs(name))
    functions = {
        "is": ope.trajectory_is,
        "pdis": ope.per_decision_is,
        "snis": ope.self_normalized_is,
        "snpdis": ope.self_normalized_pdis,
    }
    estimates = {
        key: functions[key](*arrays, gamma=gamma) for key in estimators if key in functions
    }
    if "dr" in estimators:
        q_logged, v_estimates = cross_fitted_values(
            data.features,
            data.actions,
            data.rewards,
            data.mask,
            data.target_dist[name],
            gamma=gamma,
            ridge=ridge,
        )
        estimates["dr"] = ope.doubly_robust(*arrays, q_logged, v_estimates, gamma=gamma)
    weights = ope.cumulative_weights(data.behavior_probs, arrays[2])[:, -1]
    return estimates, ope.effective_sample_size(weights)


def _ranking_values(estimates: Sequence[float]) -> list[float]:
    # An undefined estimate (NaN) ranks last, below every number.
    return [-math.inf if math.isnan(value) else value for value in estimates]


def run_selection(
    config: SelectionConfig,
    out: str | Path,
    *,
    workers: int = 1,
    console: Console | None = None,
    progress: bool = False,
) -> SelectionResult:
    """Estimate, evaluate and score every candidate (see the module doc).

    Args:
        config: The request.
        out: Output directory (run directories, ``config.json``, ``results.json``).
        workers: Parallel workers of the runner.
        console: Where progress bars go.
        progress: Whether to show them.

    Returns:
        The result, also written to ``OUT/results.json``.

    Raises:
        SelectionError: a request that cannot run.
        CandidateError, AgentLoadError: a candidate that cannot be built.
        LoggedReplayError, PolicyProbabilityError: logged data that cannot be used.
    """
    config.validate()
    out = Path(out)
    spec = registry[config.env_id]
    env = spec.make(**config.env_kwargs)
    try:
        _check_agents(config, env)
        _check_out(config, out)

        def run(*args: Any, **kwargs: Any) -> Any:
            return evaluate(*args, workers=workers, console=console, progress=progress, **kwargs)

        runs = PolicyRuns(config, out, run)
        wanted = set(config.estimators)
        seeds = disjoint_seeds(
            config.seed,
            {
                "logged": config.logged_episodes,
                "budget": config.budget_episodes,
                "true": config.true_episodes,
            },
        )
        estimates: dict[str, dict[str, float]] = {c.name: {} for c in config.candidates}
        ess: dict[str, float | None] = dict.fromkeys(estimates)
        logged: list[EpisodeRecord] = []
        if wanted & OFF_POLICY:
            assert config.behavior is not None
            logged = [
                r
                for r in runs.records(config.behavior, seeds["logged"], "logged")
                if r.infra_error is None
            ]
            agents = {c.name: build(c, spec, env) for c in config.candidates}
            data = replay_logged(logged, env, agents)
            for candidate in config.candidates:
                found, ess[candidate.name] = off_policy_estimates(
                    data,
                    candidate.name,
                    [e for e in ESTIMATORS if e in wanted],
                    config.gamma,
                    config.ridge,
                )
                estimates[candidate.name].update(found)
        for i, candidate in enumerate(config.candidates):
            folder = f"{i:02d}-{slug(candidate.name)}"
            if "budget" in wanted:
                budget = runs.value(candidate, seeds["budget"], f"budget/{folder}")
                estimates[candidate.name]["budget"] = budget[0]
        true_values = {
            c.name: runs.value(c, seeds["true"], f"true/{i:02d}-{slug(c.name)}")
            for i, c in enumerate(config.candidates)
        }
        behavior = (math.nan, math.nan)
        if config.behavior is not None:
            behavior = runs.value(config.behavior, seeds["true"], "true/behavior")
    finally:
        env.close()
    result = _score(config, estimates, ess, true_values, behavior, len(logged))
    (out / RESULTS_FILE).write_text(
        json.dumps(result.to_json(), indent=2, sort_keys=True) + "\n", encoding="utf-8"
    )
    return result


def _score(
    config: SelectionConfig,
    estimates: dict[str, dict[str, float]],
    ess: dict[str, float | None],
    true_values: dict[str, tuple[float, float]],
    behavior: tuple[float, float],
    logged_used: int,
) -> SelectionResult:
    names = [c.name for c in config.candidates]
    true = [true_values[name][0] for name in names]
    # Without a behaviour agent (budget only) the baseline is 0, SCOPE-RL's default.
    baseline = 0.0 if math.isnan(behavior[0]) else behavior[0]
    tables = {}
    for estimator in (e for e in ESTIMATORS if e in config.estimators):
        values = _ranking_values([estimates[name][estimator] for name in names])
        tables[estimator] = top_k_table(
            values,
            true,
            behavior_value=baseline,
            max_k=config.max_k,
            safety_threshold=config.safety_threshold,
            relative_safety_criteria=config.relative_safety_criteria,
        )
    threshold = resolve_safety_threshold(
        baseline, config.safety_threshold, config.relative_safety_criteria
    )
    return SelectionResult(
        config=config,
        behavior_value=behavior[0],
        behavior_stderr=behavior[1],
        candidates=[
            CandidateResult(c, *true_values[c.name], estimates[c.name], ess[c.name])
            for c in config.candidates
        ],
        tables=tables,
        safety_threshold=float(threshold),
        logged_used=logged_used,
    )
