"""A turn-based game end to end from the command line: eval with rotated seats, then report."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

import envsuite
from envsuite.cli import app
from envsuite.families.decision.nim_rules import mover_wins
from envsuite.records import read_records

runner = CliRunner()
NIM_DUEL = Path(__file__).resolve().parents[1] / "tasks" / "nim-duel.yaml"


def winning_seat(seed: int) -> str:
    """The seat perfect play wins from the seed's start (normal play: nim-sum != 0)."""
    env = envsuite.make("envsuite/Nim-v0", random_start=True)
    env.reset(seed=seed)
    heaps = env.unwrapped.state.heaps
    return "player_0" if mover_wins(heaps, misere=False) else "player_1"


def test_nim_duel_oracle_against_random_evaluates_and_reports(tmp_path):
    out = tmp_path / "nim"
    result = runner.invoke(
        app,
        [
            "eval",
            str(NIM_DUEL),
            "--agent",
            "player_0=oracle,player_1=random",
            "--out",
            str(out),
            "--no-progress",
        ],
    )
    assert result.exit_code == 0, result.output
    records = read_records(out / "episodes.jsonl")
    seeds = {record.seed for record in records}
    oracle_winning_starts = 0
    assert len(records) == 2 * len(seeds) == 100  # every seed in both seatings
    assert not any(record.infra_error for record in records)
    for record in records:
        seating = dict(part.split("=") for part in record.agent_id.split(","))
        assert set(record.agents) == {"player_0", "player_1"}
        roles = {record.agents[seat].role for seat in seating}
        assert roles == {"first", "second"}
        assert sum(record.agents[seat].outcome == "win" for seat in seating) == 1
        # the perfect-play oracle wins every start that perfect play wins for its seat
        oracle_seat = next(seat for seat, agent in seating.items() if agent == "oracle")
        if winning_seat(record.seed) == oracle_seat:
            assert record.agents[oracle_seat].outcome == "win"
            assert record.episode_return[oracle_seat] > 0
            oracle_winning_starts += 1
    assert oracle_winning_starts >= 25  # the check above ran on real games

    report = runner.invoke(app, ["report", str(out)])
    assert report.exit_code == 0, report.output
    text = (out / "report" / "report.md").read_text(encoding="utf-8")
    assert "Bradley" in text and "Elo" in text and "win rate" in text.lower()
    rows = {
        line.split("|")[1].strip(): line.split("|")
        for line in text.splitlines()
        if line.startswith("| oracle |") or line.startswith("| random |")
    }
    # the ratings table: agent, matches, score, Bradley-Terry rating [interval], Elo
    oracle, random = rows["oracle"], rows["random"]
    assert float(oracle[3]) > 0.9 > 0.1 > float(random[3])
    assert float(oracle[4].split()[0]) > 1000 > float(random[4].split()[0])
    assert float(oracle[5]) > 1000 > float(random[5])
    assert list((out / "report").glob("*.png"))
