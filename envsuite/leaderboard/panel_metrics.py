"""One entry of a panel board, from its own records: rating, win / draw / loss, exploitability.

An entry's records are its games against the panel (see :mod:`envsuite.leaderboard.panel`):
for every env entry of n seats and seed, play p = ``attempt // attempts`` is against
opponent ``p // n`` with the entry in seat ``p % n`` (:func:`~envsuite.agents.lineup.
panel_play`), and the record's ``agent_id`` must be exactly that lineup. Who the entry is comes from
that decoding, never from matching agent strings, so an entry named ``random`` facing the
panel's ``random`` is still told apart.

Numbers, all recomputed from the records:

- ``bradley_terry``: the entry's strength against the panel's fixed strengths
  (:func:`~envsuite.evaluation.metrics.anchored_rating.anchored_strength`, a draw half a
  point; in a game of more than two seats a game's point is the duplicate comparison of
  the entry's seat with the opponent's own play of it, see
  :mod:`~envsuite.leaderboard.duplicate_games`), on the board's Elo scale (the panel's
  first opponent at 1000). Its interval is the stratified bootstrap of the other boards
  (seeds resampled within each env entry, all of a seed's games together), refitting the
  strength per replicate with the panel held fixed; the draws are the same for every
  entry, so replicates are paired.
- ``win_rate``, ``draw_rate``, ``loss_rate``: shares of the entry's games, and
  ``mean_return``: its seat's mean return, each with the same stratified bootstrap.
- on a board with games of more than two seats, ``duplicate:<opponent>``: the entry's
  mean duplicate point against each opponent's field (the mean over env entries of the
  per-entry mean), with the same bootstrap. The rating assumes an entry's edge over the
  panel is the same in every field; where it is not (a belief bot gains more among its
  own kind than among random players), these show each field's score apart.
- for envs with exploitability hooks (the poker games), ``exploitability:<env>`` and
  ``unvisited:<env>`` from :func:`~envsuite.evaluation.metrics.exploitability.
  exploitability_from_records` on the entry's own actions (the unvisited count is an
  interval of zero width).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from envsuite.agents.lineup import (
    PANEL_SEATS,
    LineupError,
    panel_play,
    panel_seatings,
    parse_lineup,
)
from envsuite.evaluation.metrics import aggregate_mean, stratified_bootstrap_interval
from envsuite.evaluation.metrics.anchored_rating import anchored_strength
from envsuite.evaluation.metrics.bootstrap import FloatArray, Interval, percentile_interval
from envsuite.evaluation.metrics.exploitability import (
    exploitability_from_records,
    offers_exploitability,
)
from envsuite.evaluation.metrics.game_outcomes import POINTS
from envsuite.evaluation.metrics.ratings import DEFAULT_ANCHOR_RATING, ELO_SCALE
from envsuite.evaluation.protocol import EnvEntry, TaskProtocol
from envsuite.jsonable import canonical_json
from envsuite.leaderboard.duplicate_games import (
    duplicate_points,
    entry_seats,
    record_seats,
    reference_outcome,
    self_play_outcomes,
)
from envsuite.leaderboard.errors import ConsistencyError
from envsuite.records import EpisodeRecord

#: The ranking metric of a panel board.
RATING = "bradley_terry"
#: Per-entry numbers every panel board shows, the rating first.
PANEL_METRICS = (RATING, "win_rate", "draw_rate", "loss_rate", "mean_return")
#: Outcome shares, by metric name.
SHARES = {"win_rate": "win", "draw_rate": "draw", "loss_rate": "loss"}


def env_label(env_id: str, kwargs: Mapping[str, object]) -> str:
    """``Name-vN`` (with ``k=v`` pairs when the entry has kwargs): the column suffix."""
    text = " ".join(f"{k}={v}" for k, v in sorted(kwargs.items()))
    return f"{env_id.removeprefix('envsuite/')} {text}".strip()


def exploitability_metrics(protocol: TaskProtocol) -> list[tuple[EnvEntry, str, str]]:
    """(entry, exploitability metric, unvisited metric) of every entry with the hooks."""
    return [
        (
            entry,
            f"exploitability:{env_label(entry.id, entry.kwargs)}",
            f"unvisited:{env_label(entry.id, entry.kwargs)}",
        )
        for entry in protocol.envs
        if offers_exploitability(entry.id)
    ]


def duplicate_metrics(protocol: TaskProtocol) -> list[tuple[int, str]]:
    """(opponent index, metric) of each ``duplicate:<opponent>`` score a board shows.

    A board with a game of more than two seats shows, per opponent, the entry's mean
    duplicate point against that opponent's field (0.5: as good as the opponent's own
    play of the seats; see :mod:`~envsuite.leaderboard.duplicate_games`); a two-player
    board shows none.
    """
    if all(len(entry_seats(entry)) <= PANEL_SEATS for entry in protocol.envs):
        return []
    return [(index, f"duplicate:{name}") for index, name in enumerate(protocol.opponents)]


def panel_board_metrics(protocol: TaskProtocol) -> list[str]:
    """Every metric a panel board computes per entry, in column order."""
    names = list(PANEL_METRICS)
    names += [metric for _, metric in duplicate_metrics(protocol)]
    for _, exploitability, unvisited in exploitability_metrics(protocol):
        names += [exploitability, unvisited]
    return names


def entry_seat(protocol: TaskProtocol, record: EpisodeRecord) -> tuple[str, int]:
    """(the entry's seat, the opponent's index) of one of an entry's records."""
    seats = record_seats(record)
    opponent, seat = panel_play(record.attempt // protocol.attempts, len(seats))
    return seats[seat], opponent


def entry_agent(protocol: TaskProtocol, records: Sequence[EpisodeRecord], where: str) -> str:
    """The one agent an entry's records show against the panel; every lineup checked.

    Raises:
        ConsistencyError: the decoded seats hold several agents, or a record's lineup is
            not the one its attempt's play has (another opponent, seat or agent).
    """
    agents = set()
    for record in records:
        seat, _ = entry_seat(protocol, record)
        try:
            agents.add(parse_lineup(record.agent_id).get(seat, ""))
        except LineupError as exc:
            raise ConsistencyError(f"{where}: {exc}") from exc
    if len(agents) != 1:
        raise ConsistencyError(
            f"{where}: the records' lineups hold several agents in the entry's seat "
            f"{sorted(agents)}; a submission is one agent against the panel"
        )
    (agent,) = agents
    for record in records:
        seats = record_seats(record)
        try:
            lineups = panel_seatings(agent, protocol.opponents, seats)
        except LineupError as exc:
            raise ConsistencyError(f"{where}: {exc}") from exc
        expected = lineups[record.attempt // protocol.attempts]
        if record.agent_id != expected:
            raise ConsistencyError(
                f"{where}: {record.env_id} seed {record.seed} attempt {record.attempt} is play "
                f"{record.attempt // protocol.attempts} of the panel, whose lineup is "
                f"{expected!r}, but the record has {record.agent_id!r}"
            )
    return agent


@dataclass(frozen=True)
class PanelGames:
    """An entry's games against the panel, as arrays over (seeds, env entries[, opponents]).

    Attributes:
        points: Mean points per game against each opponent: in a two-player game the
            game's (win 1, draw 1/2, loss 0), in a game of more seats the duplicate
            comparison with the opponent's own play of the seat
            (:mod:`~envsuite.leaderboard.duplicate_games`).
        outcomes: Outcome (``win``, ``draw``, ``loss``) -> share of the cell's games.
        returns: The entry seat's mean return.
        games_per_cell: Games per (seed, opponent), for each env entry (seats x attempts).
    """

    points: FloatArray
    outcomes: dict[str, FloatArray]
    returns: FloatArray
    games_per_cell: FloatArray


def panel_games(
    protocol: TaskProtocol,
    records: Sequence[EpisodeRecord],
    panel_records: Sequence[EpisodeRecord] = (),
) -> PanelGames:
    """The arrays of :class:`PanelGames` (records already checked complete, one agent).

    Args:
        protocol: The board's protocol (with its opponents).
        records: The entry's records.
        panel_records: The panel's round robin (needed for games of more than two seats,
            whose self-play games are the duplicate references).

    Raises:
        ValueError: a game without a win / draw / loss outcome for the entry's seat (or
            the seat it is compared with), or a missing self-play game.
    """
    seeds = {seed: i for i, seed in enumerate(protocol.seed_values())}
    tasks = {(e.id, canonical_json(e.kwargs)): i for i, e in enumerate(protocol.envs)}
    shape = (len(seeds), len(tasks), len(protocol.opponents))
    references = self_play_outcomes(protocol, panel_records)
    points = np.zeros(shape)
    counts = {outcome: np.zeros(shape[:2]) for outcome in POINTS}
    returns = np.zeros(shape[:2])
    for record in records:
        seat, opponent = entry_seat(protocol, record)
        outcome = record.agents[seat].outcome if seat in record.agents else None
        if outcome not in POINTS:
            raise ValueError(
                f"{record.env_id} seed {record.seed} attempt {record.attempt}: the entry's "
                f"seat {seat} has outcome {outcome!r}, not a win, draw or loss"
            )
        row, column = seeds[record.seed], tasks[(record.env_id, canonical_json(record.env_kwargs))]
        if len(record_seats(record)) > PANEL_SEATS:
            reference = reference_outcome(references, record, opponent, seat, protocol.attempts)
            points[row, column, opponent] += duplicate_points(outcome, reference)
        else:
            points[row, column, opponent] += POINTS[str(outcome)]
        counts[str(outcome)][row, column] += 1
        returns[row, column] += float(record.agents[seat].episode_return)
    per_cell = np.array(
        [max(len(entry_seats(e)), PANEL_SEATS) * protocol.attempts for e in protocol.envs],
        dtype=np.float64,
    )
    per_task = per_cell * len(protocol.opponents)
    return PanelGames(
        points=points / per_cell[np.newaxis, :, np.newaxis],
        outcomes={outcome: count / per_task for outcome, count in counts.items()},
        returns=returns / per_task,
        games_per_cell=per_cell,
    )


def strength_of(points: FloatArray, games_per_cell: FloatArray, panel: Sequence[float]) -> float:
    """The entry's log-strength from a (seeds, tasks, opponents) points array.

    ``games_per_cell`` holds each task's games per (seed, opponent) cell, so every game
    weighs the same in the likelihood.
    """
    weights = np.asarray(games_per_cell, dtype=np.float64)[np.newaxis, :, np.newaxis]
    totals = (points * weights).sum(axis=(0, 1))
    games = np.full(len(panel), float(points.shape[0] * np.sum(games_per_cell)))
    return anchored_strength(totals, games, panel, centre=float(np.mean(panel)))


def rating_replicates(
    entries: Sequence[PanelGames], panel: Sequence[float], *, reps: int, seed: int
) -> FloatArray:
    """(reps, entries) bootstrap log-strengths, paired: every entry resampled alike.

    Formula:
        Replicate r draws, for every env entry independently, seeds with replacement (the
        draws of :func:`~envsuite.leaderboard.ranking.paired_replicates` with the same
        seed and shape) and refits every entry's strength against the fixed panel.
    """
    num_seeds, num_tasks = entries[0].points.shape[:2]
    rng = np.random.default_rng(seed)
    columns = np.arange(num_tasks)[np.newaxis, :]
    samples = np.empty((reps, len(entries)))
    for rep in range(reps):
        rows = rng.integers(0, num_seeds, size=(num_seeds, num_tasks))
        for index, games in enumerate(entries):
            resampled = games.points[rows, columns, :]
            samples[rep, index] = strength_of(resampled, games.games_per_cell, panel)
    return samples


def to_rating(strength: FloatArray | float, panel: Sequence[float]) -> FloatArray | float:
    """Log-strength on the board's Elo scale: the panel's first opponent at 1000."""
    return DEFAULT_ANCHOR_RATING + ELO_SCALE * (strength - panel[0])


def panel_results(
    protocol: TaskProtocol,
    records: Sequence[EpisodeRecord],
    panel: Sequence[float],
    *,
    panel_records: Sequence[EpisodeRecord] = (),
    reps: int,
    exploitability_reps: int,
    confidence: float,
    seed: int,
) -> dict[str, Interval]:
    """Every metric of :func:`panel_board_metrics` for one entry (see the module doc).

    Args:
        protocol: The board's protocol (with its opponents).
        records: The entry's records, checked complete and decoded (:func:`entry_agent`).
        panel: The opponents' fixed log-strengths, in protocol order.
        panel_records: The panel's round robin (games of more than two seats are scored
            against its self-play games).
        reps: Bootstrap replicates of the rating and the rates.
        exploitability_reps: Bootstrap replicates of each exploitability.
        confidence: Coverage of every interval.
        seed: Seed of every bootstrap.

    Raises:
        ValueError: records that cannot give a metric (a game with no outcome, a replay of
            a poker game that does not end as recorded, ...).
    """
    agent = entry_agent(protocol, records, "the entry")
    games = panel_games(protocol, records, panel_records)
    samples = rating_replicates([games], panel, reps=reps, seed=seed)[:, 0]
    low, high = percentile_interval(samples, confidence)
    estimate = strength_of(games.points, games.games_per_cell, panel)
    results = {
        RATING: Interval(
            float(to_rating(estimate, panel)),
            float(to_rating(low, panel)),
            float(to_rating(high, panel)),
            confidence,
        )
    }
    for name, outcome in SHARES.items():
        results[name] = stratified_bootstrap_interval(
            games.outcomes[outcome], aggregate_mean, reps=reps, confidence=confidence, seed=seed
        )
    results["mean_return"] = stratified_bootstrap_interval(
        games.returns, aggregate_mean, reps=reps, confidence=confidence, seed=seed
    )
    for index, metric in duplicate_metrics(protocol):
        results[metric] = stratified_bootstrap_interval(
            games.points[:, :, index], aggregate_mean, reps=reps, confidence=confidence, seed=seed
        )
    for entry, exploitability, unvisited in exploitability_metrics(protocol):
        own = [
            r
            for r in records
            if r.env_id == entry.id and canonical_json(r.env_kwargs) == canonical_json(entry.kwargs)
        ]
        (found,) = exploitability_from_records(
            own, agents=[agent], reps=exploitability_reps, confidence=confidence, seed=seed
        )
        results[exploitability] = found.exploitability
        count = float(found.unvisited_reachable)
        results[unvisited] = Interval(count, count, count, confidence)
    return results
