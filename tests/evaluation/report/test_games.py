"""The games section of a report: win rates by agent, seat and role, and agent ratings."""

from __future__ import annotations

from envsuite.evaluation.report import write_report
from envsuite.evaluation.report.build import REPORT_FILE
from envsuite.evaluation.report.terminal import main_tables
from tests.evaluation.report.conftest import run
from tests.evaluation.report.game_runs import LINEUP, oracle_duels, write_run
from tests.evaluation.report.markdown_tables import table_after


def test_a_rotated_duel_reports_win_rates_by_agent_seat_and_role(tmp_path):
    # oracle wins every game but one draw (seed 0, oracle first) and losses at seeds 3
    # and 5 when it plays second
    run = write_run(tmp_path / "run", LINEUP, oracle_duels(8, {3, 5}), 8)
    report = write_report([run], tmp_path / "out")
    text = (tmp_path / "out" / REPORT_FILE).read_text()
    rows = {(r["by"], r["group"]): r for r in table_after(text, "Win rate:")}
    assert (rows["agent", "oracle"]["wins"], rows["agent", "oracle"]["draws"]) == ("13", "1")
    assert rows["agent", "oracle"]["win rate"] == "0.812 [0.570, 0.934]"  # Wilson, 13 of 16
    assert rows["agent as role", "oracle as second"]["losses"] == "2"
    assert rows["seat", "player_0"]["trials"] == "16"
    assert rows["role", "first"]["wins"] == "9"  # 7 oracle-first wins, 2 random-first wins
    # the protocol's 16 episodes are all held: no partial-run note
    assert "partial run" not in text
    assert "pass@k" not in text  # the plays of a seed are seatings, not attempts
    ratings = {r["agent"]: r for r in table_after(text, "| agent | matches")}
    assert list(ratings) == ["oracle", "random"]
    assert ratings["oracle"]["matches"] == "16"
    assert float(ratings["oracle"]["Elo"]) > 1000.0 > float(ratings["random"]["Elo"])
    returns = {(r["by"], r["group"]): r for r in table_after(text, "Mean return:")}
    assert returns["agent", "oracle"]["trials"] == "16"
    assert returns["agent as role", "random as second"]["mean return"].startswith(
        "-0.875 "
    )  # 7 losses, 1 draw
    games = [path for path in report.figures if path.name.startswith("agents-")]
    assert len(games) == 1 and games[0].stat().st_size > 0
    assert f"]({games[0].name})" in text
    titles = [str(table.title) for table in main_tables(report.tables)]
    assert any(title.startswith("win rates") for title in titles)
    assert any(title.startswith("mean return by agent") for title in titles)
    assert any(title.startswith("ratings") for title in titles)


def test_two_runs_rate_their_agents_on_one_scale(tmp_path):
    first = write_run(tmp_path / "a", LINEUP, oracle_duels(4), 4)
    greedy = [
        record.model_copy(update={"agent_id": record.agent_id.replace("random", "greedy")})
        for record in oracle_duels(4, {1, 2, 3})
    ]
    second = write_run(tmp_path / "b", LINEUP.replace("random", "greedy"), greedy, 4)
    report = write_report([first, second], tmp_path / "out")
    agents = [row.rating.agent for row in report.tables.games.ratings]
    assert agents == ["oracle", "greedy", "random"]
    text = report.markdown.read_text()
    assert "| agent (run) | by | group |" in text  # several runs: the run is named per row


def test_self_play_without_game_outcomes_gets_no_section(game_run, tmp_path):
    # RepeatedGame's players record success / failure, not a game outcome, and the run
    # has the oracle in one seat and random in the other: returns by agent, no win rates
    report = write_report([game_run], tmp_path / "out")
    assert report.tables.games.win_rates == []
    returns = {(r.mean.dimension, r.mean.group) for r in report.tables.games.returns}
    assert {("agent", "oracle"), ("agent", "random")} <= returns
    assert "Win rate:" not in report.markdown.read_text()
    selfplay = write_report(
        [run_of("oracle", tmp_path / "selfplay")], tmp_path / "out-selfplay"
    ).tables.games
    assert selfplay.returns == [] and selfplay.win_rates == []
    assert "## Agents" not in (tmp_path / "out-selfplay" / REPORT_FILE).read_text()


def test_self_play_has_win_rates_but_no_ratings(tmp_path):
    records = [record.model_copy(update={"agent_id": "random"}) for record in oracle_duels(3)]
    run = write_run(tmp_path / "run", "random", records[::2], 3)  # one seating per seed
    report = write_report([run], tmp_path / "out")
    assert report.tables.games.win_rates
    assert report.tables.games.ratings == []
    assert any("self-play only" in note for note in report.tables.notes)


def run_of(agent, path):
    return run(path, agent, "envsuite/RepeatedGame-v0", {"horizon": 10}, 2, 1)
