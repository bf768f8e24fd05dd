"""Belief probes, speaking reward, deduction and deception on Avalon-v0."""

from __future__ import annotations

import json

import numpy as np
import pytest

import envsuite
from envsuite.families.social.avalon_beliefs import speech_stance
from envsuite.families.social.avalon_bots import BeliefBot, RandomLegalBot
from envsuite.families.social.avalon_measures import AvalonMeasures
from envsuite.families.social.avalon_rules import AvalonGame
from envsuite.families.social.avalon_setup import EVIL, PASS, AvalonAction, AvalonSetup
from envsuite.families.social.belief_probes import format_answer
from tests.families.social.bot_games import measured_discussion, play_probed
from tests.families.social.env_checks import (
    check_measures_deterministic,
    check_measures_off_by_default,
)

ALL_PHASES = ["discussion", "proposal", "vote", "quest", "assassination"]
NAMES = ("Alice", "Bob", "Carol", "Dave", "Eve")
# The default roles for five: Merlin, Percival and a servant; Morgana and the assassin.
DEAL = ("servant", "percival", "merlin", "morgana", "assassin")
SERVANT, PERCIVAL, MERLIN_SEAT, MORGANA_SEAT, ASSASSIN_SEAT = range(5)


def play(env, seats, seed, on_probe=None, answer=None):
    """Play one game; return each agent's final info and reward.

    ``on_probe(agent, info, answer)`` sees every probe; ``answer(agent, info)`` replaces
    the seat bot's probe answer when given.
    """
    return play_probed(env, seats, seed, on_probe, answer)


def belief_seats(env):
    return {agent: BeliefBot(env) for agent in env.possible_agents}


# -- probes change nothing ----------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_probes_and_measures_change_nothing_in_the_game(seed):
    plain = envsuite.make("envsuite/Avalon-v0", num_players=7)
    probed = envsuite.make(
        "envsuite/Avalon-v0", num_players=7, belief_probes=ALL_PHASES, speaking_reward=True
    )
    plain_final, plain_rewards = play(plain, belief_seats(plain), seed)
    probed_final, probed_rewards = play(probed, belief_seats(probed), seed)
    assert probed.unwrapped.game.game_log.to_json() == plain.unwrapped.game.game_log.to_json()
    assert probed_rewards == plain_rewards
    assert {a: i["outcome"] for a, i in probed_final.items()} == {
        a: i["outcome"] for a, i in plain_final.items()
    }
    plain_rng = plain.unwrapped.np_random.bit_generator.state
    assert probed.unwrapped.np_random.bit_generator.state == plain_rng
    assert all(info["probes"] > 0 for info in probed_final.values())


def test_probe_turns_come_in_seat_order_with_the_question():
    env = envsuite.make("envsuite/Avalon-v0", belief_probes=["proposal", "vote"])
    questions = []
    play(
        env,
        belief_seats(env),
        seed=4,
        on_probe=lambda agent, info, _: questions.append((agent, info["probe"])),
    )
    assert [agent for agent, _ in questions[:5]] == [f"player_{s}" for s in range(5)]
    first = questions[0][1]
    assert first["phase"] == "proposal" and first["day"] == 1
    assert first["classes"] == ["evil", "good"]
    assert first["players"] == ["Bob", "Carol", "Dave", "Eve"]
    assert {question["phase"] for _, question in questions} == {"proposal", "vote"}


def test_the_probe_turn_shows_the_question_and_offers_uniform():
    env = envsuite.make("envsuite/Avalon-v0", belief_probes=["discussion"])
    env.reset(seed=0)
    observation, _, _, _, info = env.last()
    assert env.agent_selection == "player_0"
    assert "Belief probe (quest 1, discussion" in observation
    assert "on team evil" in observation
    assert info["legal_actions"] == ["uniform"]


# -- scores -------------------------------------------------------------------------------
def test_a_truthful_oracle_scores_better_than_uniform():
    def truth(agent, info):
        teams = env.unwrapped.game.teams
        players = info["probe"]["players"]
        return format_answer({name: float(teams[NAMES.index(name)] == EVIL) for name in players})

    env = envsuite.make("envsuite/Avalon-v0", belief_probes=["vote"])
    oracle, _ = play(env, belief_seats(env), seed=3, answer=truth)
    uniform, _ = play(env, belief_seats(env), seed=3, answer=lambda agent, info: "uniform")
    for agent, info in oracle.items():
        assert info["probe_brier"] == 0.0 and info["probe_accuracy"] == 1.0
        assert info["probe_log"] == pytest.approx(0.0, abs=1e-9)
        assert uniform[agent]["probe_brier"] == 0.25
        assert uniform[agent]["probe_log"] == pytest.approx(np.log(2))
        assert uniform[agent]["probe_accuracy"] == 0.5


def test_belief_bots_deduce_better_than_chance():
    env = envsuite.make("envsuite/Avalon-v0", num_players=7, belief_probes=["vote", "quest"])
    deduction, briers = [], []
    for seed in range(4):
        final, _ = play(env, belief_seats(env), seed)
        for info in final.values():
            if info["team"] == "good":
                deduction.append(info["deduction"])
                briers.append(info["probe_brier"])
                assert info["deduction"] == info["probe_accuracy"]
            else:
                assert "deduction" not in info
    assert np.mean(briers) < 0.2 and np.mean(deduction) > 0.6


def test_belief_bots_answer_their_exact_posterior():
    env = envsuite.make("envsuite/Avalon-v0", belief_probes=["quest"])
    seats = belief_seats(env)
    checked = []

    def check(agent, info, answer):
        raw = env.unwrapped
        seat = raw.seat_of(agent)
        evil = seats[agent].belief(raw.game, seat).evil_probabilities()
        expected = {raw.game.names[s]: float(evil[s]) for s in range(5) if s != seat}
        assert json.loads(answer) == expected
        checked.append(agent)

    play(env, seats, seed=5, on_probe=check)
    assert len(checked) >= 5


@pytest.mark.parametrize("answer", [None, 5, ["Bob"], "nothing to say", "", {"Zed": 0.3}])
def test_an_unreadable_answer_is_refused_without_penalty_and_counted(answer):
    env = envsuite.make("envsuite/Avalon-v0", belief_probes=["discussion"])
    env.reset(seed=1)
    env.step(answer)
    assert env.infos["player_0"]["parse_error"]
    assert env.rewards["player_0"] == 0.0
    assert env.unwrapped.invalid_actions["player_0"] == 0
    assert env.agent_selection == "player_1"  # the probe is over; the next is asked
    assert env.unwrapped.measures.answers[0]["brier"] == 0.25
    tally = env.unwrapped.measures.final_info(0)
    assert tally["probes"] == 1 and tally["probe_malformed"] == 1


def test_a_partly_read_answer_is_accepted_and_counted_malformed():
    env = envsuite.make("envsuite/Avalon-v0", belief_probes=["discussion"])
    env.reset(seed=1)
    env.step("Bob: 0.9")
    assert env.infos["player_0"]["parse_error"] is None
    assert env.unwrapped.measures.final_info(0)["probe_malformed"] == 1


def test_random_bots_answer_uniform_and_never_crash():
    env = envsuite.make("envsuite/Avalon-v0", belief_probes=ALL_PHASES, speaking_reward=True)
    final, _ = play(env, {agent: RandomLegalBot(env) for agent in env.possible_agents}, seed=2)
    for info in final.values():
        assert info["probe_brier"] == 0.25 and info["probe_malformed"] == 0


# -- speaking reward on scripted speeches ----------------------------------------------------
def _discussion(script):
    """Quest 1 led by Alice; one discussion round of scripted speeches (others pass)."""
    game = AvalonGame(AvalonSetup(num_players=5, names=NAMES), DEAL)
    measures = AvalonMeasures((), speaking_reward=True)
    measures.start(game)
    game.apply_chance(SERVANT)
    measures.after_change(game)
    return measures, measured_discussion(game, measures, script, PASS)


def test_a_true_accusation_raises_the_listeners_belief_in_the_truth():
    _, by_seat = _discussion({SERVANT: AvalonAction("say", value="I suspect Dave is evil.")})
    assert by_seat[SERVANT].listeners == 2  # Percival and Merlin
    assert by_seat[SERVANT].reward > 0.005


def test_a_false_accusation_from_evil_misleads():
    script = {
        ASSASSIN_SEAT: AvalonAction("say", value="Carol is evil."),
        PERCIVAL: AvalonAction("say", value="Good morning, everyone."),
    }
    measures, by_seat = _discussion(script)
    assert by_seat[ASSASSIN_SEAT].reward < -0.005
    assert by_seat[PERCIVAL].reward == 0.0  # no stance read: the listeners ignore it
    info = measures.final_info(ASSASSIN_SEAT)
    assert info["speeches"] == 1 and info["speaking_reward"] == by_seat[ASSASSIN_SEAT].reward


def test_deception_is_weighed_for_evil_seats_at_each_vote():
    game = AvalonGame(AvalonSetup(num_players=5, names=NAMES, discussion_rounds=0), DEAL)
    measures = AvalonMeasures((), speaking_reward=True)
    measures.start(game)
    game.apply_chance(MORGANA_SEAT)
    measures.after_change(game)
    game.apply(MORGANA_SEAT, AvalonAction("propose", (MORGANA_SEAT, SERVANT)))
    measures.after_change(game)  # the vote opens: the cover is weighed
    for seat in (MORGANA_SEAT, ASSASSIN_SEAT):
        assert 0.0 < measures.final_info(seat)["deception"] < 1.0
    for seat in (SERVANT, PERCIVAL, MERLIN_SEAT):
        assert "deception" not in measures.final_info(seat)


@pytest.mark.parametrize(
    ("text", "stance"),
    [
        ("I suspect Bob is evil.", (1, True)),
        ("bob is NOT evil", (1, False)),
        ("I trust Bob", (1, False)),
        ("Bob and Carol are evil", None),
        ("Hello everyone", None),
        ("Alice is evil", None),  # the speaker itself
        ("Bob is good but evil", None),
    ],
)
def test_speech_stance(text, stance):
    assert speech_stance(text, NAMES, speaker=0) == stance


# -- determinism, default off, options -------------------------------------------------------
def test_measures_are_deterministic():
    def make():
        return envsuite.make(
            "envsuite/Avalon-v0", num_players=6, belief_probes=ALL_PHASES, speaking_reward=True
        )

    check_measures_deterministic(make, BeliefBot, RandomLegalBot, seed=11)


def test_off_by_default():
    check_measures_off_by_default(envsuite.make("envsuite/Avalon-v0"), BeliefBot)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"belief_probes": "vote"}, "list of phase names"),
        ({"belief_probes": ["night"]}, "unknown phases"),
        ({"belief_probes": ["vote"], "observation_mode": "vector"}, "observation_mode='text'"),
        ({"speaking_reward": 1}, "True or False"),
        ({"belief_probes": ["discussion"], "discussion_rounds": 0}, "discussion_rounds is 0"),
    ],
)
def test_bad_options_are_clear_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        envsuite.make("envsuite/Avalon-v0", **kwargs)


def test_speaking_reward_in_vector_mode_needs_no_text():
    env = envsuite.make("envsuite/Avalon-v0", observation_mode="vector", speaking_reward=True)
    final, _ = play(env, belief_seats(env), seed=4)
    assert all("speeches" in info for info in final.values())
