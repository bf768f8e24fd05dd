"""KuhnPoker-v0 and LeducHoldem-v0: actions in both modes, refusals, payoffs, the oracle."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import envsuite
from envsuite.families.text.poker import KuhnPokerEnv, LeducHoldemEnv
from envsuite.families.text.poker_cfr import equilibrium
from envsuite.families.text.poker_oracle import poker_oracle
from envsuite.families.text.poker_rules import KUHN_POKER
from envsuite.families.text.poker_tree import exploitability

P0, P1 = "player_0", "player_1"


def play(env: Any, actions: list[Any]) -> None:
    for action in actions:
        env.step(action)


def test_make_gives_the_aec_env() -> None:
    env = envsuite.make("envsuite/KuhnPoker-v0")
    assert isinstance(env, KuhnPokerEnv) and env.spec.api == "aec"


def test_words_fit_the_situation() -> None:
    env = KuhnPokerEnv()
    env.reset(seed=0)
    assert env.infos[P0]["legal_actions"] == ["check", "bet"]
    assert env.infos[P1]["legal_actions"] == []
    env.step("call")
    assert env.infos[P0]["parse_error"] == "illegal action: there is no bet to call; check or bet"
    assert env.rewards[P0] == -0.1 and env.agent_selection == P0
    env.step("I check, then bet")
    assert (
        env.infos[P0]["parse_error"]
        == "the answer names more than one action (bet, check); name one"
    )
    env.step("Betting.")
    assert env.infos[P0]["parse_error"] is None
    assert env.infos[P1]["legal_actions"] == ["fold", "call"]
    env.step("check")
    assert env.infos[P1]["parse_error"] == "illegal action: you face a bet, so you cannot check"
    env.step("raise")
    assert (
        env.infos[P1]["parse_error"]
        == "illegal action: this round has had its 1 raise; call or fold"
    )


def test_chips_won_are_the_rewards_and_outcomes() -> None:
    env = KuhnPokerEnv()
    env.reset(seed=0)
    cards = list(env.state.private)
    play(env, ["bet", "call"])
    winner = 0 if cards[0] > cards[1] else 1
    assert env.rewards[f"player_{winner}"] == 2.0 and env.rewards[f"player_{1 - winner}"] == -2.0
    assert env.infos[f"player_{winner}"]["outcome"] == "win"
    assert all(env.terminations.values())
    assert "Showdown: your opponent had" in env.observe(P0)


def test_refusals_past_the_limit_forfeit_the_hand() -> None:
    env = LeducHoldemEnv(max_invalid_moves=1)
    env.reset(seed=0)
    play(env, ["bet", "hello", "hello"])
    assert env.state.folded == 1 and env.forfeited == P1
    assert env.rewards[P1] == pytest.approx(-0.1 - 1.0) and env.rewards[P0] == 1.0
    assert env.infos[P1]["forfeit"] is True
    assert env.episode_success({}) is False


def test_vector_observation_is_the_information_state() -> None:
    env = LeducHoldemEnv(observation_mode="vector")
    env.reset(seed=5)
    play(env, [2, 2, 1])  # bet, raise, call: the public card is dealt
    assert env.state.public is not None
    vector = env.observe(P0)
    assert vector.shape == (31,) and vector[0] == 1.0 and vector[2 + env.state.private[0]] == 1.0
    assert vector[8 + env.state.public] == 1.0
    assert list(vector[14:20]) == [0, 1, 0, 1, 1, 0]  # bet, raise, call
    assert vector[-1] == 1.0 and env.observe(P1)[-1] == 0.0
    assert list(env.infos[P0]["action_mask"]) == [0, 1, 1]
    # The other player's card is nowhere in a player's observation.
    assert env.observe(P1)[2 + env.state.private[0]] == (
        env.state.private[0] == env.state.private[1]
    )


def test_no_card_in_info_and_the_text_hides_the_opponents_card() -> None:
    env = LeducHoldemEnv()
    env.reset(seed=3)
    other = env.game.card_name(env.state.private[1])
    text = env.observe(P0)
    assert f"Your card: {env.game.card_name(env.state.private[0])}." in text
    assert other not in text.split("Your card:")[1] or other == env.game.card_name(
        env.state.private[0]
    )
    assert not any("card" in key for info in env.infos.values() for key in info)


def test_same_seed_same_deal_and_public_card() -> None:
    env = LeducHoldemEnv()
    deals = set()
    for _ in range(2):
        env.reset(seed=11)
        play(env, ["check", "check"])
        deals.add(env.instance_key())
    assert len(deals) == 1 and len(deals.pop().split("/")) == 3


def test_the_oracle_plays_the_equilibrium_from_its_information_state() -> None:
    env = KuhnPokerEnv(observation_mode="vector")
    seats = poker_oracle(env)
    policy = equilibrium(KUHN_POKER)
    assert exploitability(policy) <= 1e-3
    counts: dict[str, np.ndarray] = {}
    for seed in range(3000):
        env.reset(seed=seed)
        for seat in seats.values():
            seat.reset(seed=seed)
        key = env.information_state_key(P0)
        action = seats[P0].act(env.observe(P0), env.infos[P0])
        counts.setdefault(key, np.zeros(3))[action] += 1
    for key, row in counts.items():
        expected = policy.action_probabilities(key)
        assert np.abs(row / row.sum() - expected).max() < 0.05, key


@pytest.mark.parametrize("cls", [KuhnPokerEnv, LeducHoldemEnv])
def test_oracle_self_play_is_zero_sum_and_near_the_game_value(cls: type) -> None:
    env = cls(observation_mode="vector")
    seats = poker_oracle(env)
    total = 0.0
    games = 2000
    for seed in range(games):
        env.reset(seed=seed)
        for seat in seats.values():
            seat.reset(seed=seed)
        returns = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter(100):
            observation, _, done, cut, info = env.last()
            env.step(None if done or cut else seats[agent].act(observation, info))
            for name, reward in env.rewards.items():
                returns[name] += reward
        assert returns[P0] == -returns[P1]
        total += returns[P0]
    value = -1 / 18 if cls is KuhnPokerEnv else -0.0856
    assert total / games == pytest.approx(value, abs=0.15)


def test_the_oracle_sees_only_the_information_state() -> None:
    """Two deals that differ only in the opponent's card: same key, same choice."""
    env = LeducHoldemEnv()
    env.reset(seed=0)
    seat = poker_oracle(env)[P0]
    choices = []
    for opponent in (c for c in env.game.deck if c != env.state.private[0]):
        env.state.private[1] = opponent
        seat.reset(seed=9)
        choices.append((env.information_state_key(P0), seat.act(env.observe(P0), env.infos[P0])))
    assert len(set(choices)) == 1
