"""A panel board of a many-seat game: every seat against a field, scored in duplicate."""

from __future__ import annotations

from pathlib import Path

import pytest

from envsuite.agents.lineup import parse_lineup
from envsuite.evaluation.metrics.ratings import bradley_terry_strengths
from envsuite.evaluation.protocol import TaskProtocol
from envsuite.jsonable import canonical_json
from envsuite.leaderboard.board import BoardVersion, load_board_version
from envsuite.leaderboard.board_admin import write_settings
from envsuite.leaderboard.duplicate_games import (
    FieldPlay,
    duplicate_points,
    field_plays,
)
from envsuite.leaderboard.panel import panel_strengths, round_robin_jobs
from envsuite.leaderboard.panel_metrics import panel_board_metrics, panel_games
from envsuite.leaderboard.standings import rank_reports
from envsuite.leaderboard.verify import verify_submission
from envsuite.records import EpisodeRecord
from tests.leaderboard.helpers import make_board, submit

SOCIAL_PROTOCOL = {
    "id": "mini-social",
    "description": "Five-player Werewolf and four-player Among Us against a panel of two.",
    "envs": [
        {"id": "envsuite/Werewolf-v0", "kwargs": {"num_players": 5, "discussion_rounds": 0}},
        {"id": "envsuite/AmongUs-v0", "kwargs": {"num_players": 4}},
    ],
    "seeds": {"start": 0, "count": 4},
    "seat_rotation": "all",
    "opponents": ["random", "oracle"],
    "metrics": ["win_rate", "bradley_terry"],
}
SEATS = [f"player_{i}" for i in range(5)]


@pytest.fixture(scope="module")
def social(tmp_path_factory: pytest.TempPathFactory) -> tuple[BoardVersion, dict[str, Path]]:
    """The board ``mini-social`` and its entries' folders (random and oracle)."""
    tmp = tmp_path_factory.mktemp("social-leaderboards")
    board = make_board(tmp / "leaderboards", tmp, SOCIAL_PROTOCOL, "bradley_terry")
    cheap = board.settings.ranking.model_copy(update={"reps": 200, "rating_reps": 100})
    write_settings(board.path, board.settings.model_copy(update={"ranking": cheap}))
    board = load_board_version(board.path)
    entries = {agent: submit(board, tmp / "runs", agent, agent) for agent in ("random", "oracle")}
    return board, entries


@pytest.fixture(scope="module")
def social_board(social: tuple[BoardVersion, dict[str, Path]]) -> BoardVersion:
    return social[0]


@pytest.fixture(scope="module")
def entries(social: tuple[BoardVersion, dict[str, Path]]) -> dict[str, Path]:
    return social[1]


WEREWOLF = "envsuite/Werewolf-v0"


def _by_key(records: list[EpisodeRecord]) -> dict[tuple[int, int], EpisodeRecord]:
    """The Werewolf records by (seed, attempt)."""
    return {(r.seed, r.attempt): r for r in records if r.env_id == WEREWOLF}


def _among_us_matches(board: BoardVersion) -> list[tuple[str, str, float]]:
    games = {(r.seed, r.attempt): r for r in board.panel_records if r.env_id != WEREWOLF}
    seats = SEATS[:4]
    names = ["panel:random", "panel:oracle"]
    matches = []
    for seed in range(4):
        for play in range(8):
            solo, seat = divmod(play, 4)
            field = 1 - solo
            mine = games[(seed, play)].agents[seats[seat]].outcome
            reference = games[(seed, 8 + field)].agents[seats[seat]].outcome
            matches.append((names[solo], names[field], duplicate_points(mine, reference)))
    return matches


def test_field_plays_put_each_opponent_alone_in_every_seat_then_self_play():
    plays = field_plays(2, 3)
    assert plays[:3] == [FieldPlay(0, 1, 0), FieldPlay(0, 1, 1), FieldPlay(0, 1, 2)]
    assert plays[3:6] == [FieldPlay(1, 0, 0), FieldPlay(1, 0, 1), FieldPlay(1, 0, 2)]
    assert plays[6:] == [FieldPlay(0, 0, None), FieldPlay(1, 1, None)]
    assert field_plays(1, 4) == [FieldPlay(0, 0, None)]


@pytest.mark.parametrize(
    ("mine", "theirs", "points"),
    [("win", "loss", 1.0), ("win", "draw", 1.0), ("draw", "draw", 0.5), ("loss", "win", 0.0)],
)
def test_duplicate_points_compare_a_seat_with_its_reference(mine, theirs, points):
    assert duplicate_points(mine, theirs) == points


def test_duplicate_points_refuse_a_missing_outcome():
    with pytest.raises(ValueError, match="win, draw or loss"):
        duplicate_points(None, "win")


def test_the_round_robin_seats_each_opponent_alone_everywhere_and_plays_self_play(social_board):
    jobs = round_robin_jobs(social_board.protocol)
    # per seed: 2 ordered pairs x n seats + 2 self-play games, for n = 5 and 4
    assert len(jobs) == 4 * (2 * 5 + 2) + 4 * (2 * 4 + 2)
    assert len({job.key for job in jobs}) == len(jobs)
    seed_zero = [parse_lineup(job.agent) for job in jobs if job.seed == 0]
    assert [lineup["player_0"] for lineup in seed_zero[:2]] == ["panel:random", "panel:oracle"]
    assert sorted(seed_zero[7].values()).count("panel:oracle") == 1
    assert set(seed_zero[10].values()) == {"panel:random"}
    assert set(seed_zero[11].values()) == {"panel:oracle"}
    assert [record.key[1:] for record in social_board.panel_records] == [
        (job.env_id, canonical_json(job.env_kwargs), job.seed, job.attempt) for job in jobs
    ]


def test_the_panel_is_fitted_on_the_duplicate_comparisons_of_its_games(social_board):
    games = _by_key(list(social_board.panel_records))
    matches = []
    for seed in range(4):
        for play in range(10):
            record = games[(seed, play)]
            solo, field, seat = (0, 1, play) if play < 5 else (1, 0, play - 5)
            reference = games[(seed, 10 + field)]
            names = ["panel:random", "panel:oracle"]
            outcome = record.agents[SEATS[seat]].outcome
            assert parse_lineup(record.agent_id)[SEATS[seat]] == names[solo]
            y = duplicate_points(outcome, reference.agents[SEATS[seat]].outcome)
            matches.append((names[solo], names[field], y))
    fitted = bradley_terry_strengths(matches + _among_us_matches(social_board))
    strengths = panel_strengths(list(social_board.panel_records), social_board.protocol)
    assert strengths["oracle"] == pytest.approx(fitted["panel:oracle"], abs=1e-9)
    assert strengths["random"] == pytest.approx(fitted["panel:random"], abs=1e-9)


def test_an_entry_scores_each_seat_against_the_opponents_self_play_of_that_deal(
    social_board, entries
):
    report = verify_submission(entries["oracle"])
    records = report.records
    games = panel_games(social_board.protocol, records, social_board.panel_records)
    assert games.games_per_cell.tolist() == [5.0, 4.0]
    panel = _by_key(list(social_board.panel_records))
    for seed in range(4):
        for opponent in range(2):
            total = 0.0
            for seat in range(5):
                record = next(
                    r
                    for r in records
                    if r.env_id == WEREWOLF and r.seed == seed and r.attempt == opponent * 5 + seat
                )
                assert parse_lineup(record.agent_id)[SEATS[seat]] == "oracle"
                reference = panel[(seed, 10 + opponent)].agents[SEATS[seat]].outcome
                total += duplicate_points(record.agents[SEATS[seat]].outcome, reference)
            assert games.points[seed, 0, opponent] == pytest.approx(total / 5)


def test_the_belief_bots_outrank_random_play_on_the_board(social_board, entries):
    reports = [verify_submission(entries[name]) for name in ("random", "oracle")]
    standings = rank_reports(social_board, reports)
    ratings = {
        row.report.meta.agent: row.report.results["bradley_terry"].estimate
        for row in standings.rows
    }
    assert ratings["oracle"] > ratings["random"]
    assert standings.rows[0].report.meta.agent == "oracle"
    assert standings.panel is not None
    assert standings.panel.ratings["oracle"].estimate > 1000.0


def test_a_round_robin_without_a_self_play_game_cannot_score_an_entry(social_board, entries):
    records = [r for r in social_board.panel_records if r.attempt != 11]
    report = verify_submission(entries["oracle"])
    with pytest.raises(ValueError, match="no self-play game"):
        panel_games(social_board.protocol, report.records, records)


def test_a_many_seat_board_shows_the_duplicate_score_against_each_field(social_board, entries):
    report = verify_submission(entries["oracle"])
    games = panel_games(social_board.protocol, report.records, social_board.panel_records)
    for index, name in enumerate(["random", "oracle"]):
        shown = report.results[f"duplicate:{name}"]
        per_env = games.points[:, :, index].mean(axis=0)
        assert shown.estimate == pytest.approx(per_env.mean())
        assert shown.low <= shown.estimate <= shown.high
    assert "duplicate:random" not in panel_board_metrics(TWO_PLAYER)


TWO_PLAYER = TaskProtocol(
    id="duel",
    envs=[{"id": "envsuite/KuhnPoker-v0"}],
    seeds=[0],
    seat_rotation="all",
    opponents=["random"],
)
