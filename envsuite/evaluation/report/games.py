"""Report rows of the agents of multi-agent runs: returns, win rates, Bradley–Terry and Elo.

Per env configuration and run: mean returns by agent, seat, role and team (see
:mod:`~envsuite.evaluation.metrics.seat_returns`) where there is more than the per-seat
table says (two different agents, or roles or teams); for games whose records carry
per-seat ``win`` / ``loss`` / ``draw`` outcomes, win rates along the same dimensions (see
:mod:`~envsuite.evaluation.metrics.game_outcomes`); and one rating table over every run of
the report (see :mod:`~envsuite.evaluation.metrics.game_ratings`): an agent string is one
player in every run, so runs of different lineups rate their agents on one scale.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from envsuite.evaluation.metrics.exploitability import (
    DEFAULT_REPS as EXPLOITABILITY_REPS,
)
from envsuite.evaluation.metrics.exploitability import (
    Exploitability,
    exploitability_from_records,
    offers_exploitability,
)
from envsuite.evaluation.metrics.game_outcomes import WinRate, win_rates
from envsuite.evaluation.metrics.game_ratings import AgentRating, episode_ratings, game_matches
from envsuite.evaluation.metrics.ratings import Match
from envsuite.evaluation.metrics.record_groups import TaskKey, task_label
from envsuite.evaluation.metrics.seat_measures import GroupMeasure, group_measures
from envsuite.evaluation.metrics.seat_returns import GroupReturn, group_returns
from envsuite.records import EpisodeRecord


@dataclass(frozen=True)
class WinRateRow:
    """One group's win rate in one run on one env configuration."""

    task: TaskKey
    run: str
    rate: WinRate


@dataclass(frozen=True)
class ReturnRow:
    """One group's mean return in one run on one env configuration."""

    task: TaskKey
    run: str
    mean: GroupReturn


@dataclass(frozen=True)
class MeasureRow:
    """One group's mean of one per-player metric in one run on one env configuration."""

    task: TaskKey
    run: str
    measure: GroupMeasure


@dataclass(frozen=True)
class ExploitabilityRow:
    """One agent's estimated exploitability in one run on one env configuration."""

    task: TaskKey
    run: str
    estimate: Exploitability


@dataclass(frozen=True)
class RatingRow:
    """One agent's ratings on one env configuration, from every run of the report."""

    task: TaskKey
    rating: AgentRating


@dataclass
class GameTables:
    """The game rows of a report.

    Attributes:
        returns: Mean-return rows, by task, then run, then dimension and group.
        win_rates: Win-rate rows, by task, then run, then dimension and group.
        ratings: Rating rows, by task, best agent first.
        exploitability: Exploitability rows (games whose env offers the hooks of
            :mod:`~envsuite.evaluation.metrics.exploitability`), by task, run and agent.
        rated_runs: Per task, the runs whose matches the ratings come from.
        notes: Why a table could not be made, where one could not.
        measures: Per-player metric means (belief probe scores, speaking reward, ...) by
            agent, role and team, for games with roles or teams; by task, run, key.
    """

    returns: list[ReturnRow] = field(default_factory=list)
    win_rates: list[WinRateRow] = field(default_factory=list)
    ratings: list[RatingRow] = field(default_factory=list)
    exploitability: list[ExploitabilityRow] = field(default_factory=list)
    rated_runs: dict[TaskKey, list[str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    measures: list[MeasureRow] = field(default_factory=list)


def _tells_more(means: list[GroupReturn]) -> bool:
    """Whether returns by group say more than the per-seat table: two agents, roles or teams."""
    agents = sum(mean.dimension == "agent" for mean in means)
    return agents > 1 or any(mean.dimension in ("role", "team") for mean in means)


def _exploitability(
    task: TaskKey,
    label: str,
    records: list[EpisodeRecord],
    tables: GameTables,
    *,
    reps: int,
    confidence: float,
    seed: int,
) -> None:
    """Add the run's exploitability rows where the game offers the hooks."""
    if not offers_exploitability(records[0].env_id):
        return
    try:
        # Each replicate is a best response over the whole game tree: at most 500 of them.
        used = min(reps, EXPLOITABILITY_REPS)
        found = exploitability_from_records(records, reps=used, confidence=confidence, seed=seed)
    except ValueError as exc:
        tables.notes.append(f"exploitability of {label} on {task_label(task)}: {exc}")
        return
    tables.exploitability.extend(ExploitabilityRow(task, label, row) for row in found)


def game_rows(
    task: TaskKey,
    runs: Sequence[tuple[str, list[EpisodeRecord]]],
    *,
    reps: int,
    confidence: float,
    seed: int,
) -> GameTables:
    """Returns and win rates per run, and ratings over all runs, for one env configuration.

    Args:
        task: The env configuration.
        runs: Each run's label and its records of ``task``.
        reps: Bootstrap resamples of the return and rating intervals.
        confidence: Coverage of every interval.
        seed: Seed of those bootstraps.

    Returns:
        The rows; empty for single-agent envs, and for self-play without roles, teams or
        game outcomes.
    """
    tables = GameTables()
    episodes: list[list[Match]] = []
    rated: list[str] = []
    for label, records in runs:
        if not records:
            continue
        try:
            means = group_returns(records, reps=reps, confidence=confidence, seed=seed)
            rates = win_rates(records, confidence=confidence)
            matches = game_matches(records)
        except ValueError as exc:
            tables.notes.append(f"agent outcomes of {label} on {task_label(task)}: {exc}")
            continue
        if _tells_more(means):
            tables.returns.extend(ReturnRow(task, label, mean) for mean in means)
        _exploitability(task, label, records, tables, reps=reps, confidence=confidence, seed=seed)
        tables.win_rates.extend(WinRateRow(task, label, rate) for rate in rates)
        measures = group_measures(records, reps=reps, confidence=confidence, seed=seed)
        if any(row.dimension in ("role", "team") for row in measures):
            tables.measures.extend(MeasureRow(task, label, row) for row in measures)
        if matches:
            episodes.extend(matches)
            rated.append(label)
    if not tables.win_rates:
        return tables
    if not episodes:
        tables.notes.append(
            f"no ratings on {task_label(task)}: no episode of it matched two different agents "
            "(self-play only)"
        )
        return tables
    ratings = episode_ratings(episodes, reps=reps, confidence=confidence, seed=seed)
    tables.ratings.extend(RatingRow(task, rating) for rating in ratings)
    tables.rated_runs[task] = rated
    return tables
