r"""``envsuite select ID``: policy selection with SharpeRatio@k, per value estimator.

Example (three-armed Bernoulli bandit, 10 pulls an episode, logged by a uniform policy;
about 7 s on one core)::

    M=envsuite.families.decision.candidate_policies
    envsuite select envsuite/Bandit-v0 --set num_arms=3 --set horizon=10 \
        --set observation_mode=vector --behavior "uniform=$M:UniformPolicy" \
        --candidate "eps0.05=$M:EpsilonGreedy?epsilon=0.05" \
        --candidate "eps0.3=$M:EpsilonGreedy?epsilon=0.3" \
        --candidate "soft0.2=$M:Softmax?temperature=0.2" \
        --candidate "soft1=$M:Softmax?temperature=1" \
        --candidate "arm0=$M:FixedArm?arm=0&epsilon=0.2" --out runs/select-bandit

With 10 steps the trajectory weights of a near-greedy candidate are products of 10 ratios
of up to 3 (``IS ESS`` in the output shows how few episodes carry the estimate); with
the env's default 300 steps trajectory-wise IS is degenerate.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table

from envsuite.agents.loading import AgentLoadError
from envsuite.cli.console import line, print_table, stderr, stdout
from envsuite.cli.env_kwargs import SetOption, parse_assignments
from envsuite.cli.exits import FAILURE, USAGE, exit_with, reports_errors
from envsuite.cli.info import EnvIdArgument, make_env
from envsuite.registry import registry

if TYPE_CHECKING:
    from envsuite.evaluation.policy_selection.candidates import Candidate
    from envsuite.evaluation.policy_selection.results import SelectionResult

#: The estimators of :data:`envsuite.evaluation.policy_selection.config.ESTIMATORS`, named
#: here so that building the ``envsuite`` command (every verb's options, ``--help``) does
#: not import the policy-selection package; a test checks the two agree.
ESTIMATORS: tuple[str, ...] = ("budget", "is", "pdis", "snis", "snpdis", "dr")

CANDIDATE_HELP = (
    "A candidate policy as [NAME=]AGENT[?KEY=VALUE&...] (repeatable; quote it in a shell). "
    "AGENT is random, oracle, openai:MODEL or module:Class; KEY=VALUE are the class's "
    "keyword arguments, e.g. 'eps=envsuite.families.decision.candidate_policies:"
    "EpsilonGreedy?epsilon=0.1'."
)
ESTIMATOR_LABELS = {
    "budget": "budget",
    "is": "IS",
    "pdis": "PDIS",
    "snis": "SNIS",
    "snpdis": "SNPDIS",
    "dr": "DR",
}


def register(app: typer.Typer) -> None:
    """Add ``select`` to ``app``."""
    app.command("select")(select)


def fmt(value: float | None) -> str:
    """A number for the tables: 4 decimals, or nan / inf / -."""
    if value is None:
        return "-"
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return f"{value:.4f}"


def _candidates(texts: list[str] | None, path: Path | None) -> list[Candidate]:
    from envsuite.evaluation.policy_selection.candidates import (
        load_candidates_file,
        parse_candidate,
    )

    found = [parse_candidate(text) for text in texts or ()]
    if path is not None:
        found += load_candidates_file(path)
    return found


def _estimators(text: str) -> list[str]:
    from envsuite.evaluation.policy_selection.config import SelectionError

    names = [name.strip().lower() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in ESTIMATORS]
    if unknown or not names:
        raise SelectionError(
            f"unknown estimator(s) {', '.join(unknown) or '(none given)'}; "
            f"choose from {', '.join(ESTIMATORS)}"
        )
    return names


def _number_column(table: Table, header: str) -> None:
    table.add_column(header, justify="right", no_wrap=True, min_width=7)


def true_values_table(result: SelectionResult) -> Table:
    """True value, its standard error and the IS effective sample size per candidate."""
    table = Table(title="Candidates: true value J(π)", title_justify="left")
    table.add_column("candidate", overflow="fold")
    for header in ("J(π)", "± s.e.", "IS ESS"):
        _number_column(table, header)
    for row in result.candidates:
        ess = row.effective_sample_size
        table.add_row(row.candidate.name, fmt(row.true_value), fmt(row.true_stderr), fmt(ess))
    return table


def estimates_table(result: SelectionResult) -> Table:
    """Every estimator's estimate per candidate."""
    estimators = [e for e in ESTIMATORS if e in result.config.estimators]
    table = Table(title="Estimates Ĵ(π)", title_justify="left")
    table.add_column("candidate", overflow="fold")
    for estimator in estimators:
        _number_column(table, ESTIMATOR_LABELS[estimator])
    for row in result.candidates:
        table.add_row(row.candidate.name, *(fmt(row.estimates[e]) for e in estimators))
    return table


def top_k_rich_table(result: SelectionResult, estimator: str) -> Table:
    """The top-k table of one estimator."""
    label = ESTIMATOR_LABELS[estimator]
    table = Table(title=f"Top-k by {label}", title_justify="left")
    table.add_column("k", justify="right")
    for column in ("best@k", "worst@k", "mean@k", "std@k", "unsafe@k", "Sharpe@k", "regret@k"):
        _number_column(table, column)
    for row in result.tables[estimator]:
        table.add_row(
            str(row.k),
            fmt(row.best),
            fmt(row.worst),
            fmt(row.mean),
            fmt(row.std),
            fmt(row.safety_violation_rate),
            fmt(row.sharpe_ratio),
            fmt(row.regret),
        )
    return table


def sharpe_table(result: SelectionResult) -> Table:
    """SharpeRatio@k, one column per estimator: the comparison the tables lead to."""
    estimators = list(result.tables)
    table = Table(title="SharpeRatio@k per estimator", title_justify="left")
    table.add_column("k", justify="right")
    for estimator in estimators:
        _number_column(table, ESTIMATOR_LABELS[estimator])
    for index, k_row in enumerate(next(iter(result.tables.values()))):
        values = [fmt(result.tables[e][index].sharpe_ratio) for e in estimators]
        table.add_row(str(k_row.k), *values)
    return table


def show(console: Console, result: SelectionResult, out: Path) -> None:
    """Print every table of ``result``."""
    config = result.config
    kwargs = ", ".join(f"{k}={v!r}" for k, v in config.env_kwargs.items())
    line(console, f"{config.env_id}" + (f" ({kwargs})" if kwargs else ""), "bold")
    if config.behavior is not None:
        line(
            console,
            f"behaviour {config.behavior.name}: J(π_b) = {fmt(result.behavior_value)} "
            f"± {fmt(result.behavior_stderr)} (the SharpeRatio@k baseline)",
        )
    else:
        line(console, "no behaviour agent: the SharpeRatio@k baseline J(π_b) is 0")
    line(
        console,
        f"episodes: {result.logged_used} logged, {config.budget_episodes} budget per "
        f"candidate, {config.true_episodes} for each true value; seed {config.seed}; "
        f"safety threshold {fmt(result.safety_threshold)}",
        "dim",
    )
    print_table(console, true_values_table(result))
    print_table(console, estimates_table(result))
    for estimator in result.tables:
        print_table(console, top_k_rich_table(result, estimator))
    print_table(console, sharpe_table(result))
    from envsuite.evaluation.policy_selection.selection import RESULTS_FILE

    line(console, f"All numbers: {out / RESULTS_FILE}", "dim")


@reports_errors
def select(
    env_id: EnvIdArgument,
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Output directory (runs, config, results.json).")
    ],
    candidate: Annotated[
        list[str] | None,
        typer.Option("--candidate", "-c", metavar="[NAME=]AGENT[?K=V&...]", help=CANDIDATE_HELP),
    ] = None,
    candidates_file: Annotated[
        Path | None,
        typer.Option("--candidates", help="A YAML list of candidates (added to --candidate)."),
    ] = None,
    behavior: Annotated[
        str | None,
        typer.Option(
            "--behavior",
            "-b",
            metavar="[NAME=]AGENT[?K=V&...]",
            help="The behaviour agent whose logged episodes feed the off-policy estimators; it "
            "must implement last_action_probability(). Its true value J(π_b) is the "
            "SharpeRatio@k baseline (0 without a behaviour agent).",
        ),
    ] = None,
    set_: SetOption = None,
    estimators: Annotated[
        str, typer.Option(help=f"Comma-separated, from: {', '.join(ESTIMATORS)}.")
    ] = ",".join(ESTIMATORS),
    logged_episodes: Annotated[int, typer.Option(help="Behaviour episodes to log.")] = 500,
    budget_episodes: Annotated[
        int, typer.Option(help="On-policy episodes per candidate for the budget estimate.")
    ] = 10,
    true_episodes: Annotated[
        int, typer.Option(help="Episodes per candidate (and behaviour) for the true value.")
    ] = 1000,
    seed: Annotated[int, typer.Option(min=0, help="Root seed of every derived seed.")] = 0,
    workers: Annotated[int, typer.Option(min=1, help="Parallel worker processes.")] = 1,
    gamma: Annotated[float, typer.Option(help="Discount of the value (1: the return).")] = 1.0,
    max_k: Annotated[int | None, typer.Option(help="Largest k (default: all).")] = None,
    safety_threshold: Annotated[
        float | None, typer.Option(help="Unsafe below this true value (default 0).")
    ] = None,
    relative_safety: Annotated[
        float | None, typer.Option(help="Unsafe below this fraction of J(π_b) instead.")
    ] = None,
) -> None:
    """Rank candidate policies by cheap value estimates and score each estimator's top-k.

    Each estimator ranks the candidates: **budget** (a few on-policy episodes each), or
    off-policy from the behaviour agent's logged episodes: **is**, **pdis**, **snis**
    (self-normalised, trajectory-wise), **snpdis** (self-normalised, per-decision), **dr**
    (doubly robust, cross-fitted FQE model). A full evaluation gives the true values, and
    each estimator gets a top-k table (best/worst/mean/std@k, safety violations,
    SharpeRatio@k = (best@k − J(π_b)) / std@k, regret@k). Off-policy estimates need short
    horizons: importance weights multiply over the steps.
    """
    from envsuite.evaluation.policy_selection.candidates import CandidateError, parse_candidate
    from envsuite.evaluation.policy_selection.config import SelectionConfig, SelectionError
    from envsuite.evaluation.policy_selection.logged_replay import LoggedReplayError
    from envsuite.evaluation.policy_selection.policy import PolicyProbabilityError
    from envsuite.evaluation.policy_selection.selection import run_selection
    from envsuite.evaluation.run_directory import RunDirError

    spec = registry[env_id]
    kwargs = parse_assignments(set_)
    make_env(spec, kwargs).close()
    try:
        config = SelectionConfig(
            env_id=spec.id,
            env_kwargs=kwargs,
            candidates=_candidates(candidate, candidates_file),
            behavior=None if behavior is None else parse_candidate(behavior),
            estimators=_estimators(estimators),
            logged_episodes=logged_episodes,
            budget_episodes=budget_episodes,
            true_episodes=true_episodes,
            seed=seed,
            gamma=gamma,
            max_k=max_k,
            safety_threshold=safety_threshold,
            relative_safety_criteria=relative_safety,
        )
        console = stderr()
        result = run_selection(
            config, out, workers=workers, console=console, progress=console.is_terminal
        )
    except (SelectionError, CandidateError, AgentLoadError, RunDirError) as exc:
        exit_with(str(exc), USAGE)
    except (LoggedReplayError, PolicyProbabilityError) as exc:
        exit_with(str(exc), FAILURE)
    show(stdout(), result, out)
