"""A game board's panel of reference opponents and the frozen games that rate it.

A board whose protocol names ``opponents`` (see :mod:`envsuite.evaluation.protocol`) is a
*panel board*: every submission is one agent, which plays every seed against each panel
opponent from every seat. The panel is rated once, from a round robin among its own
members played when the board is created and kept beside it (``panel.jsonl``, frozen with
the board and protocol files on publication):

- a two-player game: pair k = (i, j) of opponents (i < j, in protocol order), seat order
  s (0: i sits first) and repeat a is ``attempt = (2 k + s) * attempts + a``, with the
  lineup ``player_0=panel:A,player_1=panel:B`` as its agent id;
- a game of more seats (social deduction): the plays of
  :func:`~envsuite.leaderboard.duplicate_games.field_plays` (each opponent alone in each
  seat among each other, then each opponent's self-play game), play q, repeat a being
  ``attempt = q * attempts + a``.

The panel's strengths are the Bradley–Terry fit (:func:`~envsuite.evaluation.metrics.
ratings.bradley_terry_strengths`) on those games (one match per two-player game; in a
many-seat game the duplicate comparison of :mod:`~envsuite.leaderboard.duplicate_games`),
so they are fixed by the frozen records and reproducible from them; every entry is rated
against them alone (see :mod:`envsuite.leaderboard.panel_metrics`), and a new entry never
moves another. Ratings are shown on the Elo scale with the first opponent of the protocol
at 1000.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

import numpy as np
from pydantic import ValidationError

from envsuite.agents.lineup import PANEL_SEATS, format_lineup, panel_agent
from envsuite.evaluation.executors import make_executor
from envsuite.evaluation.jobs import EpisodeJob
from envsuite.evaluation.metrics.bootstrap import FloatArray, Interval, percentile_interval
from envsuite.evaluation.metrics.game_ratings import game_matches
from envsuite.evaluation.metrics.ratings import (
    DEFAULT_ANCHOR_RATING,
    ELO_SCALE,
    Match,
    bradley_terry_strengths,
)
from envsuite.evaluation.protocol import TaskProtocol
from envsuite.jsonable import canonical_json
from envsuite.leaderboard.duplicate_games import (
    entry_seats,
    field_lineup,
    field_plays,
    record_seats,
    round_robin_matches,
)
from envsuite.leaderboard.errors import BoardError
from envsuite.leaderboard.safety import read_json_lines
from envsuite.records import EpisodeRecord, write_records

#: The round robin's records, in the board version folder.
PANEL_FILE = "panel.jsonl"
#: The run id of the round robin.
PANEL_RUN_ID = "panel-round-robin"
#: Largest ``panel.jsonl`` read.
PANEL_FILE_LIMIT = 64 << 20

EpisodeKey = tuple[str, str, str, int, int]


def round_robin_jobs(protocol: TaskProtocol) -> list[EpisodeJob]:
    """Every game of the panel's round robin (see the module doc), in protocol order.

    Raises:
        ProtocolError: an env that is not a multi-agent game.
    """
    opponents = [panel_agent(o) for o in protocol.opponents]
    pairs = list(combinations(range(len(opponents)), 2))
    jobs = []
    for entry in protocol.envs:
        seats = entry_seats(entry)
        if len(seats) > PANEL_SEATS:
            lineups = [
                field_lineup(play, protocol.opponents, seats)
                for play in field_plays(len(opponents), len(seats))
            ]
        else:
            first, second = seats
            lineups = [
                format_lineup({first: opponents[a], second: opponents[b]})
                for i, j in pairs
                for a, b in ((i, j), (j, i))
            ]
        for seed in protocol.seed_values():
            for play, lineup in enumerate(lineups):
                for repeat in range(protocol.attempts):
                    jobs.append(
                        EpisodeJob(
                            run_id=PANEL_RUN_ID,
                            task_id=protocol.id,
                            env_id=entry.id,
                            env_kwargs=entry.kwargs,
                            seed=seed,
                            attempt=play * protocol.attempts + repeat,
                            agent=lineup,
                            step_budget=protocol.max_steps,
                        )
                    )
    return jobs


def play_round_robin(protocol: TaskProtocol, path: Path, workers: int = 1) -> Path:
    """Play the round robin and write its records to ``path / panel.jsonl``.

    Raises:
        BoardError: a game failed (an infra error): the panel must be rated on every game.
    """
    jobs = round_robin_jobs(protocol)
    records = {record.key: record for record in make_executor("local", workers).run(jobs)}
    ordered = [
        records[(j.task_id, j.env_id, canonical_json(j.env_kwargs), j.seed, j.attempt)]
        for j in jobs
    ]
    failed = [record for record in ordered if record.infra_error is not None]
    if failed:
        raise BoardError(
            f"{len(failed)} game(s) of the panel's round robin failed, e.g. {failed[0].env_id} "
            f"seed {failed[0].seed}: {failed[0].infra_error}"
        )
    write_records(path / PANEL_FILE, ordered)
    return path / PANEL_FILE


def load_panel_records(path: Path, protocol: TaskProtocol) -> list[EpisodeRecord]:
    """The round robin's records, checked to be exactly its games with their lineups.

    Raises:
        BoardError: the file is missing, malformed, or not the round robin's games (a game
            missing, extra or doubled, another lineup, or an infra error).
    """
    file = path / PANEL_FILE
    if not file.is_file():
        raise BoardError(f"{path} names opponents but holds no {PANEL_FILE} (its panel's games)")
    try:
        records = [
            EpisodeRecord.model_validate(data) for data in read_json_lines(file, PANEL_FILE_LIMIT)
        ]
    except ValidationError as exc:
        raise BoardError(f"{file} holds a record that does not fit the schema") from exc
    wanted = {
        (j.task_id, j.env_id, canonical_json(j.env_kwargs), j.seed, j.attempt): j.agent
        for j in round_robin_jobs(protocol)
    }
    seen: set[EpisodeKey] = set()
    for record in records:
        where = f"{file}: {record.env_id} seed {record.seed} attempt {record.attempt}"
        if record.key in seen or record.key not in wanted:
            raise BoardError(f"{where} is doubled or not a game of the panel's round robin")
        if record.agent_id != wanted[record.key] or record.infra_error is not None:
            raise BoardError(f"{where} is not the game the round robin plays there")
        seen.add(record.key)
    if len(seen) != len(wanted):
        raise BoardError(f"{file} lacks {len(wanted) - len(seen)} game(s) of the round robin")
    return records


@dataclass(frozen=True)
class PanelRatings:
    """The panel's fixed strengths and their ratings.

    Attributes:
        opponents: The protocol's opponents (agent strings, without ``panel:``), in order.
        strengths: Opponent -> Bradley–Terry log-strength (mean 0 over the panel).
        ratings: Opponent -> Elo-scale rating (the first opponent at 1000) with the
            interval of a bootstrap over the round robin's games.
        games: Games of the round robin.
    """

    opponents: list[str]
    strengths: dict[str, float]
    ratings: dict[str, Interval]
    games: int

    @property
    def anchor(self) -> float:
        """The log-strength rated 1000 (the first opponent's)."""
        return self.strengths[self.opponents[0]]

    def to_rating(self, strength: float) -> float:
        """A log-strength on the board's Elo scale."""
        return DEFAULT_ANCHOR_RATING + ELO_SCALE * (strength - self.anchor)


def _strengths(episodes: Sequence[Sequence[Match]], names: list[str]) -> FloatArray:
    fitted = bradley_terry_strengths([m for episode in episodes for m in episode])
    return np.array([fitted.get(name, np.nan) for name in names])


def panel_matches(records: Sequence[EpisodeRecord], protocol: TaskProtocol) -> list[list[Match]]:
    """The matches of every game of the round robin, one list per game (see the module doc).

    Raises:
        BoardError: a game that cannot be scored (no win / draw / loss where compared).
    """
    duel = [record for record in records if len(record_seats(record)) <= PANEL_SEATS]
    try:
        return (game_matches(duel) if duel else []) + round_robin_matches(protocol, records)
    except ValueError as exc:
        raise BoardError(f"the panel's round robin cannot be scored: {exc}") from exc


def panel_strengths(records: Sequence[EpisodeRecord], protocol: TaskProtocol) -> dict[str, float]:
    """Each opponent's fixed log-strength, fitted on the round robin (see the module doc).

    Raises:
        BoardError: an opponent without a game in the round robin.
    """
    opponents = protocol.opponents
    if len(opponents) == 1:
        return {opponents[0]: 0.0}
    theta = _strengths(panel_matches(records, protocol), [panel_agent(o) for o in opponents])
    if np.isnan(theta).any():
        raise BoardError("the panel's round robin leaves an opponent without a game")
    return {o: float(t) for o, t in zip(opponents, theta, strict=True)}


def panel_ratings(
    records: Sequence[EpisodeRecord],
    protocol: TaskProtocol,
    *,
    reps: int,
    confidence: float,
    seed: int,
) -> PanelRatings:
    """Fit the panel's strengths on its round robin, with bootstrap intervals of its ratings.

    Formula:
        θ = the ridge-penalised Bradley–Terry fit on one match per game (a draw is half a
        point; in a game of more than two seats, the duplicate comparison of
        :mod:`~envsuite.leaderboard.duplicate_games`); rating = 1000 + (400 / ln 10)(θ −
        θ_first). The interval resamples games with replacement (``reps`` times, seeded)
        and refits, anchored the same way.

    Source:
        Bradley & Terry (1952); Elo (1978) for the scale; Efron & Tibshirani (1993), ch. 13.

    A panel of one opponent has nothing to fit: it is fixed at 1000.

    Raises:
        BoardError: an opponent without a game in the round robin.
    """
    opponents = protocol.opponents
    names = [panel_agent(o) for o in opponents]
    strengths = panel_strengths(records, protocol)
    if len(names) == 1:
        fixed = DEFAULT_ANCHOR_RATING
        only = Interval(fixed, fixed, fixed, confidence)
        return PanelRatings(list(opponents), strengths, {opponents[0]: only}, 0)
    episodes = panel_matches(records, protocol)
    theta = np.array([strengths[o] for o in opponents])
    rng = np.random.default_rng(seed)
    samples = np.full((reps, len(names)), np.nan)
    for rep in range(reps):
        drawn = rng.integers(0, len(episodes), size=len(episodes))
        fitted = _strengths([episodes[i] for i in drawn], names)
        samples[rep] = ELO_SCALE * (fitted - fitted[0])
    ratings = {}
    for index, opponent in enumerate(opponents):
        low, high = percentile_interval(samples[:, index], confidence)
        estimate = DEFAULT_ANCHOR_RATING + ELO_SCALE * (theta[index] - theta[0])
        ratings[opponent] = Interval(
            float(estimate),
            DEFAULT_ANCHOR_RATING + float(low),
            DEFAULT_ANCHOR_RATING + float(high),
            confidence,
        )
    return PanelRatings(list(opponents), strengths, ratings, len(episodes))
