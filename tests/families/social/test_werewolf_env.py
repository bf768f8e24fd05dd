"""Werewolf-v0 as an env: actions in both modes, refused actions, outcomes, PettingZoo's tests."""

from __future__ import annotations

import numpy as np
import pytest

import envsuite
from envsuite.families.social.game_log import GameLog
from envsuite.families.social.werewolf_bots import BeliefBot, RandomLegalBot
from envsuite.families.social.werewolf_rules import WerewolfGame
from envsuite.families.social.werewolf_setup import Phase
from envsuite.outcomes import agent_outcomes
from tests.families.social.bot_games import play
from tests.families.social.env_checks import (
    belief_side_wins,
    check_off_turn_action,
    check_pettingzoo_vector_form,
    check_same_seed_same_game,
    eval_records,
    play_bad_actions,
    play_loaded_bots,
)

ENV_ID = "envsuite/Werewolf-v0"


def make(**kwargs):
    return envsuite.make(ENV_ID, **{"num_players": 6, **kwargs})


def test_legal_actions_and_the_mask_list_the_movers_choices():
    text = make()
    text.reset(seed=0)
    mover = text.agent_selection
    assert text.infos[mover]["legal_actions"][0].startswith("kill ")
    assert all(text.infos[a]["legal_actions"] == [] for a in text.agents if a != mover)
    vector = make(observation_mode="vector")
    vector.reset(seed=0)
    mask = vector.infos[vector.agent_selection]["action_mask"]
    assert mask.dtype == np.int8 and mask.sum() == len(text.infos[mover]["legal_actions"])
    assert vector.observe(mover).shape == vector.observation_space(mover).shape


@pytest.mark.parametrize("game", ["Werewolf", "Mafia"])
@pytest.mark.parametrize("mode", ["text", "vector"])
def test_a_listed_action_is_read_as_the_full_parser_reads_it(game, mode):
    env = envsuite.make(f"envsuite/{game}-v0", num_players=7, observation_mode=mode)
    rng = np.random.default_rng(5)
    checked = 0
    for seed in range(4):
        env.reset(seed=seed)
        for agent in env.agent_iter(2000):
            _, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            seat = env.unwrapped.seat_of(agent)
            listed = (
                info["legal_actions"] if mode == "text" else np.flatnonzero(info["action_mask"])
            )
            for action in listed:
                action = action if mode == "text" else int(action)
                assert env.unwrapped._listed_action(seat, action) is not None
                parsed = env.unwrapped.parse_action(agent, action)
                assert parsed == env.unwrapped._parse_command(seat, action)
                checked += 1
            env.step(listed[int(rng.integers(len(listed)))])
    assert checked > 1000


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        ("hello", "no command in 'hello'"),
        ("kill Zed", "no player is called 'Zed'"),
        ("vote Bob", "'vote' is not allowed now"),
        (None, "expected a text command"),
    ],
)
def test_a_refused_action_costs_the_penalty_and_passes_the_turn(action, reason):
    env = make(invalid_action_penalty=0.25)
    env.reset(seed=0)
    mover = env.agent_selection
    env.step(action)
    assert reason in env.infos[mover]["parse_error"]
    assert env.rewards[mover] == -0.25 and env.infos[mover]["invalid_actions"] == 1
    assert env.agent_selection != mover or env.unwrapped.game.phase is not Phase.NIGHT_WOLVES
    assert env.unwrapped.game.game_log.entries == [
        ("act", env.unwrapped.seat_of(mover), "pass", None, "")
    ]


def test_a_werewolf_may_not_kill_a_werewolf_and_the_vector_form_refuses_the_same():
    env = make(num_players=8, num_werewolves=2, observation_mode="vector")
    env.reset(seed=1)
    game = env.unwrapped.game
    mover = env.agent_selection
    seat = env.unwrapped.seat_of(mover)
    other_wolf = next(s for s in game.wolves if s != seat)
    env.step(1 + (other_wolf - seat) % 8)
    assert "werewolves do not kill each other" in env.infos[mover]["parse_error"]
    second = env.agent_selection
    env.step(10_000)
    assert "outside [0, 25)" in env.infos[second]["parse_error"]


def test_an_off_turn_action_costs_the_penalty_and_changes_nothing_else():
    check_off_turn_action(make(), "pass")


def test_a_game_of_bad_actions_runs_to_the_day_limit_undecided():
    env = make(max_days=3)
    final = play_bad_actions(env, seed=3)
    game = env.unwrapped.game
    # Nobody is ever killed or exiled: the game ends undecided after day 3, a draw for all.
    assert game.over and game.truncated and game.day == 3 and all(game.alive)
    assert {info["outcome"] for info in final.values()} == {"draw"}
    assert all(info["invalid_actions"] > 0 for info in final.values())


def test_outcomes_carry_role_and_team_and_the_log_replays_the_game():
    env = make(num_players=7, tie_rule="random", discussion_rounds=2)
    seats = {agent: BeliefBot(env) for agent in env.possible_agents}
    final = play(env, seats, seed=4)
    game = env.unwrapped.game
    outcomes = agent_outcomes(env.possible_agents, {}, final)
    for agent, outcome in outcomes.items():
        seat = env.unwrapped.seat_of(agent)
        assert outcome.role == game.roles[seat] and outcome.team == game.teams[seat]
        assert outcome.outcome == ("win" if game.teams[seat] == game.winner else "loss")
    again = WerewolfGame.replay(GameLog.from_json(game.game_log.to_json()))
    assert again.log.messages == game.log.messages


def test_the_werewolf_arena_preset_and_defaults():
    env = envsuite.make(ENV_ID, preset="werewolf_arena")
    env.reset(seed=0)
    assert sorted(env.unwrapped.game.roles) == sorted(
        ["werewolf"] * 2 + ["seer", "doctor"] + ["villager"] * 4
    )
    assert make(num_players=15).unwrapped.setup.num_werewolves == 3


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"num_players": 16}, "num_players"),
        ({"preset": "arena"}, "preset"),
        ({"observation_mode": "image"}, "observation_mode"),
        ({"invalid_action_penalty": -1}, "invalid_action_penalty"),
        ({"num_werewolves": 3}, "num_werewolves"),
    ],
)
def test_bad_arguments_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        make(**kwargs)


def test_same_seed_same_actions_same_game():
    check_same_seed_same_game(lambda: make(tie_rule="random"), RandomLegalBot)


def test_pettingzoo_api_and_seed_tests_on_the_vector_form():
    check_pettingzoo_vector_form(make)


def test_belief_bots_beat_random_play_on_both_sides():
    env = make(num_players=7)
    wins = belief_side_wins(env, BeliefBot, RandomLegalBot, ("werewolves", "village"))
    village, wolves = wins["village"], wins["werewolves"]
    # Measured at 200 games (random against random: the village wins 34%): belief
    # villagers win 78%, belief werewolves 72%.
    assert village >= 9 and wolves >= 9


def test_bots_load_as_agent_strings_and_play_mixed_seats():
    bots = "envsuite.families.social.werewolf_bots"
    final = play_loaded_bots(ENV_ID, make(), bots, BeliefBot, RandomLegalBot)
    assert {info["outcome"] for info in final.values()} <= {"win", "loss"}


def test_envsuite_eval_with_mixed_seats(tmp_path):
    records = eval_records(
        tmp_path,
        ENV_ID,
        "player_0=envsuite.families.social.werewolf_bots:BeliefBot,player_1=oracle",
    )
    for record in records:
        teams = {agent.team for agent in record.agents.values()}
        assert teams == {"village", "werewolves"}
        assert {agent.role for agent in record.agents.values()} >= {"werewolf", "seer", "doctor"}
        winners = {agent.team for agent in record.agents.values() if agent.outcome == "win"}
        assert len(winners) == 1 and record.success


def test_long_text_observations_drop_the_oldest_events_and_fit_the_space():
    env = make(num_players=15, discussion_rounds=5, max_speech_chars=2000)
    env.reset(seed=0)
    game = env.unwrapped.game
    while game.phase is not Phase.VOTE:
        mover = env.agent_selection
        legal = env.infos[mover]["legal_actions"]
        env.step("say: " + "x" * 2000 if game.phase is Phase.DISCUSSION else legal[0])
    observation = env.observe(env.agent_selection)
    assert len(observation) <= 60_000 and env.observation_space("player_0").contains(observation)
    assert "earlier events not shown)" in observation
    assert observation.startswith("Werewolf with 15 players") and "Your turn (vote)" in observation
