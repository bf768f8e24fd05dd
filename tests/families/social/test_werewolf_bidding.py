"""Bidding speaking order (Werewolf Arena's): bids, the floor, ties, the budget, the env."""

from __future__ import annotations

import numpy as np
import pytest

import envsuite
from envsuite.families.social.game_log import GameLog
from envsuite.families.social.turn_order import floor_draw, mentioned_seats
from envsuite.families.social.werewolf_bots import BeliefBot, RandomLegalBot
from envsuite.families.social.werewolf_observation import text_view, vector_size, vector_view
from envsuite.families.social.werewolf_rules import WerewolfGame
from envsuite.families.social.werewolf_setup import Action, Phase, WerewolfSetup
from tests.families.social.bot_games import play
from tests.families.social.werewolf_scripts import night, setup

# Seat 0 werewolf, 1 seer, 2 doctor, 3-5 villagers.
ROLES6 = ("werewolf", "seer", "doctor", "villager", "villager", "villager")


def bidding_game(rounds: int = 1) -> WerewolfGame:
    """A 6-seat bidding game at its first bids (nobody died in the night)."""
    game = WerewolfGame(setup(6, discussion_rounds=rounds, speaking_order="bidding"), ROLES6)
    night(game, kill=3, check=0, save=3)
    assert game.phase is Phase.BID
    return game


def bids(game: WerewolfGame, values: dict[int, int]) -> None:
    """Every bidder bids as ``values`` says (missing: 0)."""
    assert game.phase is Phase.BID
    while game.phase is Phase.BID:
        seat = game.to_move
        game.apply(seat, Action("bid", None, str(values.get(seat, 0))))


def test_the_highest_bidder_gets_the_floor_without_a_draw():
    game = bidding_game()
    assert game.queue == [0, 1, 2, 3, 4, 5]  # nobody has spoken: every living seat bids
    bids(game, {4: 3, 1: 2})
    assert game.phase is Phase.DISCUSSION and game.to_move == 4
    assert game.view(0)[-1].text == "Eve has the floor (5 speeches left today)."


def test_a_tie_is_drawn_among_the_highest_bidders():
    game = bidding_game()
    bids(game, {2: 3, 5: 3, 1: 1})
    assert game.phase is Phase.CHANCE and game.chance_outcomes() == (2, 5)
    game.apply_chance(5)
    assert game.to_move == 5 and game.game_log.entries[-1] == ("chance", 5)


def test_a_tied_bidder_the_last_speech_named_counts_twice_and_the_speaker_does_not_bid():
    game = bidding_game()
    bids(game, {4: 4})
    game.apply(4, Action("say", None, "I trust carol, but Frank is quiet."))
    assert game.mentions == (2, 5)
    assert game.queue == [0, 1, 2, 3, 5]  # the last speaker does not bid
    bids(game, {1: 2, 2: 2, 5: 2})
    assert game.chance_outcomes() == (1, 2, 2, 5, 5)
    game.apply_chance(2)
    game.apply(2, Action("accuse", 0))
    assert game.mentions == (0,)


def test_floor_draw_and_mentions():
    assert floor_draw([(0, 1), (3, 4), (5, 2)], (0, 3)) == (3,)
    assert floor_draw([(0, 2), (3, 2)], (3,)) == (0, 3, 3)
    with pytest.raises(ValueError):
        floor_draw([], ())
    assert mentioned_seats("player_1 and ALICE, not Alicia", ("Alice", "Bob")) == (0, 1)


def test_the_day_has_round_robins_speech_budget_then_the_vote():
    game = bidding_game(rounds=2)
    floors = 0
    while game.phase is not Phase.VOTE:
        bids(game, {seat: seat % 3 for seat in range(6)})  # a tie between seats 2 and 5
        if game.phase is Phase.CHANCE:
            game.apply_chance(game.chance_outcomes()[0])
        floors += 1
        game.apply(game.to_move, Action("pass"))
    assert floors == 2 * 6 and game.speeches_left == 0


def test_bids_are_secret_and_a_forfeited_bid_counts_as_zero():
    game = bidding_game()
    game.apply(0, Action("bid", None, "4"))
    game.forfeit_turn(1)
    bids(game, {})
    assert game.to_move == 0  # 4 beats the forfeited 0 and the other zeros
    assert "You bid 0 for the next speech." in [m.text for m in game.view(1)]
    for seat in range(6):
        seen = [m for m in game.view(seat) if m.kind == "bid"]
        assert [m.sender for m in seen] == [seat]
    assert game.illegal_reason(0, Action("bid", None, "5")) is not None


def test_the_log_replays_a_bidding_game_and_round_robin_logs_are_unchanged():
    game = bidding_game()
    bids(game, {2: 3, 5: 3})
    game.apply_chance(2)
    game.apply(2, Action("say", None, "Alice is odd."))
    again = WerewolfGame.replay(GameLog.from_json(game.game_log.to_json()))
    assert [m.text for m in again.log.view(3)] == [m.text for m in game.log.view(3)]
    assert again.phase is Phase.BID and again.mentions == (0,)
    assert "speaking_order" not in WerewolfSetup().to_dict()
    assert WerewolfSetup(speaking_order="bidding").to_dict()["speaking_order"] == "bidding"
    with pytest.raises(ValueError, match="speaking_order"):
        WerewolfSetup(speaking_order="loudest")


def _to_first_bid(env):
    for agent in env.agent_iter(100):
        if env.unwrapped.game.phase is Phase.BID:
            return agent
        info = env.infos[agent]
        if "legal_actions" in info:
            env.step(info["legal_actions"][0])
        else:
            env.step(int(np.flatnonzero(info["action_mask"])[0]))
    raise AssertionError("no bid")


def test_text_env_bids_and_a_malformed_bid_costs_the_penalty_and_counts_as_zero():
    env = envsuite.make("envsuite/Werewolf-v0", num_players=6, speaking_order="bidding")
    env.reset(seed=1)
    agent = _to_first_bid(env)
    assert env.infos[agent]["legal_actions"] == [f"bid {b}" for b in range(5)]
    assert "Your turn to bid" in env.observe(agent)
    env.step("bid 9")
    assert "from 0 to 4" in env.infos[agent]["parse_error"]
    assert env.rewards[agent] == pytest.approx(-0.1)
    assert env.unwrapped.game.bids[-1] == (env.unwrapped.seat_of(agent), 0)
    second = env.agent_selection
    env.step("[BID: 4]")
    assert env.unwrapped.game.bids[-1][1] == 4 and env.infos[second]["parse_error"] is None


def test_vector_env_masks_the_five_bids_and_has_two_more_entries():
    env = envsuite.make(
        "envsuite/Werewolf-v0", num_players=6, speaking_order="bidding", observation_mode="vector"
    )
    assert env.observation_space("player_0").shape == (vector_size(6) + 2,)
    env.reset(seed=2)
    agent = _to_first_bid(env)
    assert list(np.flatnonzero(env.infos[agent]["action_mask"])) == [0, 1, 2, 3, 4]
    observation = env.observe(agent)
    assert observation[-2] == 1.0 and observation[-1] == 1.0
    env.step(7)
    assert env.infos[agent]["parse_error"] and env.rewards[agent] < 0
    env.step(3)
    assert env.unwrapped.game.bids[-1][1] == 3


@pytest.mark.parametrize("env_id", ["envsuite/Werewolf-v0", "envsuite/Mafia-v0"])
@pytest.mark.parametrize("mode", ["text", "vector"])
def test_bots_finish_bidding_games_deterministically_and_the_log_replays(env_id, mode):
    digests = []
    for _ in range(2):
        env = envsuite.make(env_id, speaking_order="bidding", observation_mode=mode)
        decided = 0
        for seed in range(4):
            seats = {
                agent: BeliefBot(env) if i % 2 else RandomLegalBot(env)
                for i, agent in enumerate(env.possible_agents)
            }
            final = play(env, seats, seed)
            decided += final["player_0"]["winner"] is not None
            game = env.unwrapped.game
            assert any(entry[2:3] == ("bid",) for entry in game.game_log.entries)
            again = WerewolfGame.replay(GameLog.from_json(game.game_log.to_json()))
            assert [m.text for m in again.log.view(0)] == [m.text for m in game.log.view(0)]
            assert again.winner == game.winner
            digests.append(env.unwrapped.state_digest())
        assert decided >= 3
    assert digests[:4] == digests[4:]


def test_a_player_cannot_tell_games_apart_whose_other_bids_differ_but_not_the_floor():
    def seen(first: dict[int, int], second: dict[int, int]) -> list[tuple[str, bytes]]:
        game = bidding_game()
        views = []
        for values in (first, {**second, 5: 4}):  # Frank (seat 5) bids 0, then 4
            while game.phase is Phase.BID:
                seat = game.to_move
                game.apply(seat, Action("bid", None, str(values.get(seat, 0))))
                views.append((text_view(game, 5, None, [], 60_000), vector_view(game, 5).tobytes()))
            assert game.phase is Phase.DISCUSSION
            game.apply(game.to_move, Action("say", None, "Hello."))
        return views

    # Eve (seat 4) has the floor first in both games, then Frank; the other bids differ.
    assert seen({4: 4, 0: 1, 1: 3}, {0: 3, 2: 1}) == seen({4: 2, 2: 1, 3: 1}, {1: 2, 3: 3})
