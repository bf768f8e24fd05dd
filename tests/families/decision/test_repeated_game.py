from __future__ import annotations

import itertools
import pickle
from typing import Any

import numpy as np
import pytest

import envsuite
from envsuite.families.decision.game_policies import (
    AlwaysAgent,
    FictitiousPlayAgent,
    HedgeAgent,
    TitForTatAgent,
    UniformRandomAgent,
    game_agents,
)
from envsuite.families.decision.matrix_games import parse_action_name
from envsuite.families.decision.repeated_game import RepeatedGameEnv
from envsuite.families.decision.repeated_game_oracle import repeated_game_oracle
from envsuite.parallel_env_base import MISSING_ACTION

P0, P1 = "player_0", "player_1"

# The documented table, written out independently of the env's own GAMES constant:
# game -> (action names, {(row action, column action): (row payoff, column payoff)}).
TABLE: dict[str, tuple[tuple[str, ...], dict[tuple[str, str], tuple[float, float]]]] = {
    "prisoners_dilemma": (
        ("cooperate", "defect"),
        {
            ("cooperate", "cooperate"): (3, 3),
            ("cooperate", "defect"): (0, 5),
            ("defect", "cooperate"): (5, 0),
            ("defect", "defect"): (1, 1),
        },
    ),
    "matching_pennies": (
        ("heads", "tails"),
        {
            ("heads", "heads"): (1, -1),
            ("heads", "tails"): (-1, 1),
            ("tails", "heads"): (-1, 1),
            ("tails", "tails"): (1, -1),
        },
    ),
    "rock_paper_scissors": (
        ("rock", "paper", "scissors"),
        {
            ("rock", "rock"): (0, 0),
            ("rock", "paper"): (-1, 1),
            ("rock", "scissors"): (1, -1),
            ("paper", "rock"): (1, -1),
            ("paper", "paper"): (0, 0),
            ("paper", "scissors"): (-1, 1),
            ("scissors", "rock"): (-1, 1),
            ("scissors", "paper"): (1, -1),
            ("scissors", "scissors"): (0, 0),
        },
    ),
    "battle_of_the_sexes": (
        ("opera", "football"),
        {
            ("opera", "opera"): (2, 1),
            ("opera", "football"): (0, 0),
            ("football", "opera"): (0, 0),
            ("football", "football"): (1, 2),
        },
    ),
    "stag_hunt": (
        ("stag", "hare"),
        {
            ("stag", "stag"): (4, 4),
            ("stag", "hare"): (1, 3),
            ("hare", "stag"): (3, 1),
            ("hare", "hare"): (3, 3),
        },
    ),
}


def play(env: RepeatedGameEnv, rounds: list[tuple[Any, Any]]) -> list[tuple[Any, ...]]:
    results = []
    for a0, a1 in rounds:
        results.append(env.step({P0: a0, P1: a1}))
    return results


@pytest.mark.parametrize("game", list(TABLE))
@pytest.mark.parametrize("mode", ["text", "vector"])
def test_payoffs_match_the_documented_table(game: str, mode: str) -> None:
    names, payoffs = TABLE[game]
    env = RepeatedGameEnv(game=game, horizon=len(payoffs), observation_mode=mode)
    env.reset(seed=0)
    for (row, column), expected in payoffs.items():
        actions = (row, column) if mode == "text" else (names.index(row), names.index(column))
        _, rewards, _, _, infos = env.step(dict(zip((P0, P1), actions, strict=True)))
        assert (rewards[P0], rewards[P1]) == expected, (row, column)
        assert infos[P0]["payoff"] == expected[0] and infos[P0]["opponent_payoff"] == expected[1]
        assert infos[P0]["action"] == names.index(row)
        assert infos[P0]["opponent_action"] == names.index(column)
        assert infos[P1]["opponent_action"] == names.index(row)
        assert infos[P0]["parse_error"] is None and infos[P1]["parse_error"] is None


def test_reset_info_shows_each_player_its_own_payoff_matrix() -> None:
    env = RepeatedGameEnv(game="battle_of_the_sexes")
    _, infos = env.reset(seed=0)
    assert infos[P0]["payoff_matrix"] == [[2.0, 0.0], [0.0, 1.0]]
    assert infos[P1]["payoff_matrix"] == [[1.0, 0.0], [0.0, 2.0]]  # rows: player_1's actions
    assert infos[P0]["legal_actions"] == ["opera", "football"]
    assert all(info["round"] == 0 for info in infos.values())


def test_regret_by_hand_for_a_short_prisoners_dilemma() -> None:
    env = RepeatedGameEnv(game="prisoners_dilemma", horizon=3, observation_mode="vector")
    env.reset(seed=0)
    C, D = 0, 1
    steps = play(env, [(C, D), (D, D), (C, C)])
    # player_0 earns 0, 1, 3; "always defect" would have earned 1, 1+1, 1+1+5.
    assert [s[4][P0]["cumulative_regret"] for s in steps] == [1.0, 1.0, 3.0]
    assert [s[4][P0]["regret"] for s in steps] == [1.0, 0.0, 2.0]
    # player_1 earns 5, 1, 3; "always defect" would have earned 5, 5+1, 5+1+5.
    assert [s[4][P1]["cumulative_regret"] for s in steps] == [0.0, 0.0, 2.0]
    assert [s[4][P1]["regret"] for s in steps] == [0.0, 0.0, 2.0]
    final = steps[-1][4]
    assert final[P0]["average_regret"] == pytest.approx(1.0)
    assert final[P1]["average_regret"] == pytest.approx(2 / 3)
    assert final[P0]["success"] is False and final[P1]["success"] is False  # > 0.1 * 5
    assert final[P0]["score"] == pytest.approx((4 / 3) / 5)
    assert final[P1]["score"] == pytest.approx(3 / 5)
    assert steps[-1][2] == {P0: True, P1: True} and env.agents == []


def test_regret_can_be_negative_and_success_follows_the_threshold() -> None:
    env = RepeatedGameEnv(game="matching_pennies", horizon=4, observation_mode="vector")
    env.reset(seed=0)
    steps = play(env, [(0, 0), (1, 1), (0, 0), (1, 1)])  # the matcher always matches
    final = steps[-1][4]
    assert final[P0]["cumulative_regret"] == -4.0 and final[P0]["success"] is True
    assert final[P1]["cumulative_regret"] == 4.0 and final[P1]["success"] is False
    strict = RepeatedGameEnv(
        game="matching_pennies", horizon=4, observation_mode="vector", success_threshold=0.5
    )
    strict.reset(seed=0)
    assert play(strict, [(0, 0), (1, 1), (0, 0), (1, 1)])[-1][4][P1]["success"] is True


@pytest.mark.parametrize(
    ("text", "expected"),
    [("defect", 1), ("I play DEFECT.", 1), ("  Cooperate\n", 0), ("cooperate, cooperate", 0)],
)
def test_text_actions_are_parsed_leniently(text: str, expected: int) -> None:
    assert parse_action_name(text, ("cooperate", "defect")) == expected


@pytest.mark.parametrize("text", ["", "defects", "cooperate or defect", "C", "dé"])
def test_text_actions_naming_no_or_several_actions_are_rejected(text: str) -> None:
    env = RepeatedGameEnv(game="prisoners_dilemma")
    env.reset(seed=0)
    _, _, _, _, infos = env.step({P0: text, P1: "defect"})
    assert "cooperate, defect" in infos[P0]["parse_error"]
    assert infos[P0]["legal_actions"] == ["cooperate", "defect"]


def test_one_malformed_action_plays_the_worst_response_to_the_opponent() -> None:
    env = RepeatedGameEnv(game="rock_paper_scissors")
    env.reset(seed=0)
    observations, rewards, _, _, infos = env.step({P0: "lizard", P1: "paper"})
    assert infos[P0]["action"] == 0  # rock loses to paper
    assert rewards == {P0: -1.0, P1: 1.0}
    assert infos[P0]["parse_error"] and infos[P1]["parse_error"] is None
    assert "was played for you" in observations[P0]
    assert "you played paper" in observations[P1]


def test_both_malformed_play_each_players_lowest_worst_case_action() -> None:
    env = RepeatedGameEnv(game="stag_hunt", observation_mode="vector")
    env.reset(seed=0)
    _, rewards, _, _, infos = env.step({P0: 7, P1: None})
    assert infos[P0]["action"] == 0 and infos[P1]["action"] == 0  # stag can pay only 1
    assert rewards == {P0: 4.0, P1: 4.0}
    assert infos[P0]["parse_error"] and infos[P1]["parse_error"]


@pytest.mark.parametrize("bad", [-1, 2, 1.0, True, "1", None, np.zeros(2)])
def test_vector_mode_rejects_anything_but_an_index_in_range(bad: Any) -> None:
    env = RepeatedGameEnv(game="prisoners_dilemma", observation_mode="vector")
    env.reset(seed=0)
    _, rewards, _, _, infos = env.step({P0: bad, P1: 1})
    assert infos[P0]["parse_error"]
    assert rewards[P0] == 0.0  # cooperating against a defector: the sucker's payoff
    _, _, _, _, infos = env.step({P0: np.int64(1), P1: np.array(0)})
    assert infos[P0]["parse_error"] is None and infos[P1]["parse_error"] is None


def test_missing_and_unknown_agents_do_not_crash() -> None:
    env = RepeatedGameEnv(game="prisoners_dilemma")
    env.reset(seed=0)
    _, rewards, _, _, infos = env.step({P1: "cooperate", "player_9": "defect"})
    assert infos[P0]["parse_error"] == MISSING_ACTION
    assert set(rewards) == {P0, P1}


def test_vector_observation_is_one_hot_of_last_actions_and_round_fraction() -> None:
    env = RepeatedGameEnv(game="rock_paper_scissors", horizon=4, observation_mode="vector")
    observations, _ = env.reset(seed=0)
    np.testing.assert_array_equal(observations[P0], np.zeros(7, np.float32))
    observations, *_ = env.step({P0: 2, P1: 0})
    np.testing.assert_array_equal(observations[P0], [0, 0, 1, 1, 0, 0, 0.25])
    np.testing.assert_array_equal(observations[P1], [1, 0, 0, 0, 0, 1, 0.25])
    assert all(env.observation_space(a).contains(o) for a, o in observations.items())


def test_text_rules_list_every_payoff_from_the_players_view() -> None:
    env = RepeatedGameEnv(game="battle_of_the_sexes", horizon=7)
    observations, _ = env.reset(seed=0)
    assert "- you opera, opponent opera: 2, 1" in observations[P0]
    assert "- you opera, opponent opera: 1, 2" in observations[P1]
    assert "repeated for 7 rounds" in observations[P0]
    assert all(env.observation_space(a).contains(o) for a, o in observations.items())


def test_custom_game_from_bimatrix_equals_game_from_two_matrices() -> None:
    row = [[3, 0, 2], [1, 2, 0]]
    column = [[1, 3, 0], [2, 0, 1]]
    bimatrix = np.stack([row, column], axis=-1).tolist()
    one = RepeatedGameEnv(game="custom", payoffs=bimatrix, observation_mode="vector")
    two = RepeatedGameEnv(
        game="custom", payoffs=row, column_payoffs=column, observation_mode="vector"
    )
    assert one.action_space(P0).n == 2 and one.action_space(P1).n == 3
    for env in (one, two):
        env.reset(seed=0)
    for a0, a1 in itertools.product(range(2), range(3)):
        r1 = one.step({P0: a0, P1: a1})[1]
        r2 = two.step({P0: a0, P1: a1})[1]
        assert r1 == r2 == {P0: row[a0][a1], P1: column[a0][a1]}


def test_custom_game_names_are_used_in_text_mode() -> None:
    env = RepeatedGameEnv(
        game="custom",
        payoffs=[[1, 0], [0, 1]],
        column_payoffs=[[0, 1], [1, 0]],
        action_names=[["Up", "down"], ["left", "right"]],
    )
    _, infos = env.reset(seed=0)
    assert infos[P0]["legal_actions"] == ["up", "down"]
    _, rewards, _, _, _ = env.step({P0: "UP", P1: "right"})
    assert rewards == {P0: 0.0, P1: 1.0}
    default = RepeatedGameEnv(
        game="custom", payoffs=[[1, 0], [0, 1]], column_payoffs=[[0, 1], [1, 0]]
    )
    assert default.reset(seed=0)[1][P1]["legal_actions"] == ["action_0", "action_1"]


GOOD = {"game": "custom", "payoffs": [[1, 2], [3, 4]], "column_payoffs": [[1, 2], [3, 4]]}


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"game": "custom"}, "needs payoffs"),
        ({"game": "chicken"}, "game must be one of"),
        ({"payoffs": [[[1, 2], [3, 4]]]}, "need game='custom'"),
        ({"game": "custom", "payoffs": [[1, 2], [3, 4]]}, "m×n×2 bimatrix"),
        ({"game": "custom", "payoffs": [[[1, 2, 3]]]}, "m×n×2 bimatrix"),
        ({**GOOD, "payoffs": [[1, 2]], "column_payoffs": [[1, 2]]}, "at least 2"),
        ({**GOOD, "column_payoffs": [[1, 2]]}, "same shape"),
        ({**GOOD, "payoffs": [["a", "b"], ["c", "d"]]}, "numbers"),
        ({**GOOD, "payoffs": [[1, 2], [3]]}, "numbers"),
        ({**GOOD, "payoffs": [[np.nan, 2], [3, 4]]}, "finite"),
        ({**GOOD, "payoffs": [[1, 1], [1, 1]]}, "player_0's payoffs are all equal"),
        ({**GOOD, "action_names": [["a", "a"], ["b", "c"]]}, "distinct"),
        ({**GOOD, "action_names": [["a", "b"], ["c"]]}, "player_1"),
        ({**GOOD, "action_names": [["a b", "c"], ["d", "e"]]}, "words"),
        ({**GOOD, "action_names": ["ab"]}, "pair"),
        ({"horizon": 0}, "horizon"),
        ({"observation_mode": "image"}, "observation_mode"),
        ({"success_threshold": -0.1}, "success_threshold"),
        ({"render_mode": "rgb"}, "render_mode"),
    ],
)
def test_invalid_configurations_raise_clear_errors(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        RepeatedGameEnv(**kwargs)


def test_same_actions_give_identical_episodes_and_pickles_continue() -> None:
    actions = [("cooperate", "I defect"), ("nonsense", "defect"), ("defect", None)]
    runs = []
    for _ in range(2):
        env = RepeatedGameEnv(horizon=5)
        runs.append([env.reset(seed=3), *play(env, actions)])
    assert pickle.dumps(runs[0]) == pickle.dumps(runs[1])
    twin = pickle.loads(pickle.dumps(env))
    assert pickle.dumps(twin.step({P0: "defect", P1: "defect"})) == pickle.dumps(
        env.step({P0: "defect", P1: "defect"})
    )


def test_make_gives_aec_and_parallel_forms_with_spec_hash() -> None:
    parallel = envsuite.make("envsuite/RepeatedGame-v0", parallel=True, horizon=5)
    assert isinstance(parallel, RepeatedGameEnv)
    assert isinstance(parallel.spec_hash, str) and len(parallel.spec_hash) == 64
    aec = envsuite.make("envsuite/RepeatedGame-v0", horizon=5, observation_mode="vector")
    aec.reset(seed=0)
    assert aec.agent_selection == P0
    aec.step(1)
    aec.step(0)
    assert aec.rewards == {P0: 5.0, P1: 0.0}


def test_render_ansi_shows_the_last_round() -> None:
    env = RepeatedGameEnv(game="stag_hunt", horizon=3, render_mode="ansi")
    env.reset(seed=0)
    env.step({P0: "stag", P1: "hare"})
    frame = env.render()
    assert "round 1/3" in frame and "player_0: last stag, total 1" in frame


def self_play(game: str, kind: type, horizon: int, seed: int, **kwargs: Any) -> dict[str, Any]:
    env = RepeatedGameEnv(game=game, horizon=horizon, observation_mode="text")
    agents = game_agents(env, kind, **kwargs)
    for index, agent in enumerate(agents.values()):
        agent.reset(seed=seed * 2 + index)
    observations, infos = env.reset(seed=seed)
    while env.agents:
        actions = {a: agents[a].act(observations[a], infos[a]) for a in env.agents}
        observations, _, _, _, infos = env.step(actions)
    assert all(info["parse_error"] is None for info in infos.values())
    return infos


@pytest.mark.parametrize("game", list(TABLE))
def test_oracle_self_play_has_small_average_regret(game: str) -> None:
    env = RepeatedGameEnv(game=game, horizon=100)
    oracle = repeated_game_oracle(env)
    assert all(isinstance(agent, FictitiousPlayAgent) for agent in oracle.values())
    infos = self_play(game, FictitiousPlayAgent, 100, seed=0)
    for agent, info in infos.items():
        spread = float(np.ptp(env.payoffs[agent]))
        assert info["average_regret"] <= 0.05 * spread, (agent, info["average_regret"])
        assert info["success"] is True


def test_fictitious_play_best_responds_to_a_fixed_opponent() -> None:
    env = RepeatedGameEnv(game="rock_paper_scissors", horizon=20, observation_mode="vector")
    fp = FictitiousPlayAgent(env.payoffs[P0])
    rock = AlwaysAgent(env.payoffs[P1], action=0)
    observations, infos = env.reset(seed=0)
    while env.agents:
        actions = {P0: fp.act(observations[P0], infos[P0]), P1: rock.act(None, infos[P1])}
        observations, _, _, _, infos = env.step(actions)
    assert actions[P0] == 1  # paper
    assert infos[P0]["cumulative_regret"] <= 2.0


def test_agents_read_each_round_once_however_often_info_is_passed() -> None:
    agent = FictitiousPlayAgent([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    info = {"round": 1, "opponent_action": 2}
    agent.act(None, info)
    agent.act(None, info)
    assert agent.opponent_counts.tolist() == [0, 0, 1]
    assert agent.act(None, info) == 0  # rock beats scissors


def test_scripted_baselines() -> None:
    payoffs = [[3, 0], [5, 1]]
    tft = TitForTatAgent(payoffs, names=("cooperate", "defect"))
    assert tft.act("", {"round": 0}) == "cooperate"
    assert tft.act("", {"round": 1, "opponent_action": 1}) == "defect"
    with pytest.raises(ValueError, match="action must lie"):
        AlwaysAgent(payoffs, action=2)
    draws = []
    for _ in range(2):
        bot = UniformRandomAgent(payoffs)
        bot.reset(seed=11)
        draws.append([bot.act(None, {}) for _ in range(30)])
    assert draws[0] == draws[1] and set(draws[0]) == {0, 1}
    hedge = HedgeAgent(payoffs, horizon=50)
    hedge.reset(seed=0)
    assert hedge.act(None, {}) in (0, 1)
