from __future__ import annotations

from pathlib import Path

import pytest

from envsuite.evaluation.protocol import ProtocolError, TaskProtocol, adhoc_protocol
from tests.evaluation.shipped_tasks import RUNNABLE_TASKS, TASKS

#: Protocols of envs still being written (nim-duel) are checked in test_seat_rotation.py.
RUNNABLE = RUNNABLE_TASKS


@pytest.mark.parametrize("path", RUNNABLE, ids=[p.name for p in RUNNABLE])
def test_shipped_protocols_load_and_expand(path):
    protocol = TaskProtocol.load(path)
    jobs = protocol.jobs("run", "random")
    # attempts, or a panel's plays of each seed (one per seat and opponent)
    plays = sum(protocol.plays_per_seed("random", entry) for entry in protocol.envs)
    assert len(jobs) == len(protocol.seed_values()) * plays
    assert len({job.key for job in jobs}) == len(jobs)
    assert protocol.id == path.stem


def test_shipped_protocols_cover_the_decision_family():
    assert {"decision-regret.yaml", "decision-games.yaml"} <= {p.name for p in TASKS}


def _write(tmp_path, text: str) -> Path:
    path = tmp_path / "task.yaml"
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("id: x\nenvs: [{id: envsuite/Bandt-v0}]\nseeds: {count: 2}\n", "Did you mean"),
        ("id: x\nenvs: [{id: envsuite/Bandit-v0}]\nseeds: [1, 1]\n", "distinct"),
        (
            "id: x\nenvs: [{id: envsuite/Bandit-v0}]\nseeds: {count: 2}\nmetrics: [pass@3]\n",
            "attempts >= 3",
        ),
        (
            "id: x\nenvs: [{id: envsuite/Bandit-v0}]\nseeds: {count: 2}\nmetrics: [accuracy]\n",
            "unknown metrics",
        ),
        ("id: Bad Id\nenvs: [{id: envsuite/Bandit-v0}]\nseeds: {count: 2}\n", "slug"),
        ("id: x\nenvs: []\nseeds: {count: 2}\n", "envs"),
        ("id: x\nenvs: [{id: envsuite/Bandit-v0}]\nseeds: {count: 2}\nsurprise: 1\n", "surprise"),
        ("- just\n- a list\n", "must hold a mapping"),
        ("id: [unclosed\n", "not valid YAML"),
    ],
)
def test_bad_protocols_are_clear_errors(tmp_path, text, message):
    with pytest.raises(ProtocolError, match=message):
        TaskProtocol.load(_write(tmp_path, text))


def test_an_unknown_metric_is_named_with_the_close_one_and_the_known_ones(tmp_path):
    # The refusal used to show the metric pattern, a regular expression.
    text = "id: x\nenvs: [{id: envsuite/Bandit-v0}]\nmetrics: [sucess_rate, pass@2]\n"
    with pytest.raises(ProtocolError) as refused:
        TaskProtocol.load(_write(tmp_path, text))
    message = str(refused.value)
    assert "unknown metrics ['sucess_rate'] (did you mean 'success_rate'?)" in message
    assert "known: success_rate, mean_return," in message and "pass@K" in message
    assert "^(" not in message and "[1-9]" not in message


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(ProtocolError, match="cannot read"):
        TaskProtocol.load(tmp_path / "nope.yaml")


def test_adhoc_protocol_asks_pass_at_k_for_several_attempts():
    assert adhoc_protocol("envsuite/Bandit-v0", {}, 3, 4).pass_ks() == [1, 4]
    assert adhoc_protocol("envsuite/Bandit-v0", {}, 3, 1).pass_ks() == []


def test_a_value_an_env_refuses_stops_the_run_before_anything_is_written(tmp_path):
    from envsuite.evaluation.run_directory import evaluate

    path = _write(
        tmp_path,
        "id: x\nenvs:\n  - {id: envsuite/Bandit-v0, kwargs: {horizon: 5}}\n"
        "  - {id: envsuite/Bandit-v0, kwargs: {num_arms: 100000000000}}\nseeds: {count: 2}\n",
    )
    protocol = TaskProtocol.load(path)
    with pytest.raises(ProtocolError, match=r"envs\.1 \(envsuite/Bandit-v0 .*num_arms must be"):
        evaluate(protocol, "random", tmp_path / "run", progress=False)
    assert not (tmp_path / "run").exists()


def test_the_episode_count_is_bounded_before_any_job_is_listed():
    too_many = {"id": "x", "envs": [{"id": "envsuite/Bandit-v0"}] * 10, "attempts": 1000}
    with pytest.raises(ValueError, match=r"asks for 10,000,000 episodes"):
        TaskProtocol.model_validate({**too_many, "seeds": {"count": 1000}})
    with pytest.raises(ProtocolError, match=r"--episodes: .*less than or equal to 1000000"):
        adhoc_protocol("envsuite/Bandit-v0", {}, episodes=10**12, attempts=1)


PANEL = (
    "id: x\nenvs: [{id: envsuite/KuhnPoker-v0}, {id: envsuite/ConnectFour-v0, kwargs: {rows: 3,"
    " cols: 4, connect: 3, random_opening_moves: 1}}]\nseeds: {count: 2}\nattempts: 2\n"
    "seat_rotation: all\nopponents: [random, oracle]\n"
)


def test_a_panel_plays_every_seed_against_each_opponent_from_both_seats(tmp_path):
    protocol = TaskProtocol.load(_write(tmp_path, PANEL))
    jobs = protocol.jobs("run", "mine")
    assert protocol.plays_per_seed("mine") == 2 * 2 * 2
    assert len(jobs) == 2 * 2 * protocol.plays_per_seed("mine")
    kuhn_seed_0 = {j.attempt: j.agent for j in jobs if j.seed == 0 and "Kuhn" in j.env_id}
    # attempt = (2 x opponent + seat) x attempts + repeat
    assert kuhn_seed_0 == {
        0: "player_0=mine,player_1=panel:random",
        1: "player_0=mine,player_1=panel:random",
        2: "player_0=panel:random,player_1=mine",
        3: "player_0=panel:random,player_1=mine",
        4: "player_0=mine,player_1=panel:oracle",
        5: "player_0=mine,player_1=panel:oracle",
        6: "player_0=panel:oracle,player_1=mine",
        7: "player_0=panel:oracle,player_1=mine",
    }


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("seat_rotation: all", "seat_rotation: none"), "set seat_rotation: all"),
        (("[random, oracle]", "[random, random]"), "distinct"),
        (("[random, oracle]", "[random, 'player_0=oracle']"), "one agent"),
    ],
)
def test_bad_panels_are_clear_errors(tmp_path, change, message):
    with pytest.raises(ProtocolError, match=message):
        TaskProtocol.load(_write(tmp_path, PANEL.replace(*change)))


def test_a_panel_needs_one_agent_and_two_player_games(tmp_path):
    protocol = TaskProtocol.load(_write(tmp_path, PANEL))
    with pytest.raises(ProtocolError, match="names one agent"):
        protocol.jobs("run", "player_0=oracle,player_1=random")
    single = PANEL.replace("envsuite/KuhnPoker-v0", "envsuite/Bandit-v0")
    with pytest.raises(ProtocolError, match="single-agent"):
        TaskProtocol.load(_write(tmp_path, single)).jobs("run", "mine")


def test_a_protocol_without_a_panel_serialises_as_before(tmp_path):
    protocol = TaskProtocol.load(
        _write(tmp_path, "id: x\nenvs: [{id: envsuite/Bandit-v0}]\nseeds: {count: 2}\n")
    )
    assert "opponents" not in protocol.model_dump()
