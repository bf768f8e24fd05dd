"""Belief probes, speaking reward and deception on AmongUs-v0."""

from __future__ import annotations

import json

import numpy as np
import pytest

import envsuite
from envsuite.families.social.amongus_beliefs import impostor_probabilities
from envsuite.families.social.amongus_bots import BeliefBot, RandomLegalBot
from envsuite.families.social.amongus_measures import AmongUsMeasures, crew_speech_stance
from envsuite.families.social.amongus_setup import IMPOSTORS, WAIT, Action, Phase
from envsuite.families.social.belief_probes import format_answer
from tests.families.social.amongus_scripts import act, game
from tests.families.social.bot_games import play_probed
from tests.families.social.env_checks import (
    check_measures_deterministic,
    check_measures_off_by_default,
)

IMPOSTOR = 4
TASKS = {0: "Weapons", 1: "Storage", 2: "MedBay", 3: "Engine"}


def play(env, seats, seed, on_probe=None, answer=None):
    """Play one game; return each agent's final info and reward (see the Avalon tests)."""
    return play_probed(env, seats, seed, on_probe, answer, limit=50_000)


def belief_seats(env):
    return {agent: BeliefBot(env) for agent in env.possible_agents}


def probed_env(**kwargs):
    return envsuite.make("envsuite/AmongUs-v0", belief_probes=["meeting", "vote"], **kwargs)


# -- probes change nothing ----------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 4, 9])  # 0, 4 and 9 hold a meeting
def test_probes_and_measures_change_nothing_in_the_game(seed):
    plain = envsuite.make("envsuite/AmongUs-v0")
    probed = probed_env(speaking_reward=True)
    plain_final, plain_rewards = play(plain, belief_seats(plain), seed)
    probed_final, probed_rewards = play(probed, belief_seats(probed), seed)
    assert probed.unwrapped.game.game_log.to_json() == plain.unwrapped.game.game_log.to_json()
    assert probed_rewards == plain_rewards
    assert {a: i["outcome"] for a, i in probed_final.items()} == {
        a: i["outcome"] for a, i in plain_final.items()
    }
    plain_rng = plain.unwrapped.np_random.bit_generator.state
    assert probed.unwrapped.np_random.bit_generator.state == plain_rng


def test_probes_go_to_the_living_at_each_meeting():
    env = probed_env()
    questions = []
    play(
        env,
        belief_seats(env),
        seed=0,
        on_probe=lambda agent, info, _: questions.append((agent, info["probe"])),
    )
    assert questions, "the seed should hold a meeting"
    assert questions[0][1]["classes"] == ["impostors", "crew"]
    assert questions[0][1]["phase"] == "meeting" and questions[0][1]["day"] == 1
    assert {question["phase"] for _, question in questions} == {"meeting", "vote"}
    first = [agent for agent, question in questions if question == questions[0][1]]
    assert first == sorted(first)  # seat order
    assert len(questions) == len(env.unwrapped.measures.answers)


# -- scores -------------------------------------------------------------------------------
def test_a_truthful_oracle_scores_better_than_uniform():
    def truth(agent, info):
        raw = env.unwrapped
        names = list(raw.game.names)
        return format_answer(
            {
                name: float(raw.game.teams[names.index(name)] == IMPOSTORS)
                for name in info["probe"]["players"]
            }
        )

    env = probed_env()
    oracle, _ = play(env, belief_seats(env), seed=0, answer=truth)
    uniform, _ = play(env, belief_seats(env), seed=0, answer=lambda agent, info: "uniform")
    asked = [agent for agent, info in oracle.items() if info["probes"]]
    assert asked
    for agent in asked:
        assert oracle[agent]["probe_brier"] == 0.0 and oracle[agent]["probe_accuracy"] == 1.0
        assert uniform[agent]["probe_brier"] == 0.25
        assert uniform[agent]["probe_log"] == pytest.approx(np.log(2))


def test_belief_bots_answer_their_posterior_and_beat_uniform():
    env = probed_env()
    seats = belief_seats(env)
    checked, briers = [], []

    def check(agent, info, answer):
        raw = env.unwrapped
        seat = raw.seat_of(agent)
        posterior = seats[agent].posterior(raw.game, seat)
        expected = {raw.game.names[s]: float(posterior[s]) for s in range(5) if s != seat}
        assert json.loads(answer) == expected
        assert abs(sum(posterior) - 1.0) < 1e-9  # one impostor among five
        checked.append(agent)

    for seed in range(6):
        final, _ = play(env, seats, seed, on_probe=check)
        briers += [info["probe_brier"] for info in final.values() if info["probes"]]
    assert len(checked) >= 10
    assert np.mean(briers) < 0.25


@pytest.mark.parametrize("answer", [None, 7, ["Bob"], "no idea", {"Zed": 0.1}])
def test_an_unreadable_answer_is_refused_without_penalty_and_counted(answer):
    env = probed_env()
    env.reset(seed=0)  # a seed whose game holds a meeting
    bots = belief_seats(env)
    for _ in range(1000):
        observation, _, _, _, info = env.last()
        if info.get("probe"):
            break
        env.step(bots[env.agent_selection].act(observation, info))
    else:
        pytest.fail("no probe in 1000 turns")
    agent = env.agent_selection
    env.step(answer)
    assert env.infos[agent]["parse_error"]
    assert env.rewards[agent] == 0.0
    assert env.unwrapped.invalid_actions[agent] == 0
    tally = env.unwrapped.measures.final_info(env.unwrapped.seat_of(agent))
    assert tally["probes"] == 1 and tally["probe_malformed"] == 1


def test_random_bots_answer_uniform_and_never_crash():
    env = probed_env(speaking_reward=True)
    for seed in range(3):
        final, _ = play(env, {agent: RandomLegalBot(env) for agent in env.possible_agents}, seed)
        for info in final.values():
            if info["probes"]:
                assert info["probe_brier"] == 0.25 and info["probe_malformed"] == 0


# -- speaking reward on a scripted meeting -------------------------------------------------
def test_a_true_accusation_raises_the_listeners_belief_and_a_false_one_lowers_it():
    the_game = game((IMPOSTOR,), TASKS)
    measures = AmongUsMeasures((), speaking_reward=True)
    measures.start(the_game)
    act(the_game, 0, "button")  # everyone starts in the Cafeteria, by the button
    measures.after_change(the_game)
    the_game.apply_chance(0)
    measures.after_change(the_game)
    script = {
        0: Action("accuse", IMPOSTOR),  # true
        1: Action("accuse", 2),  # false: Carol is crew
        2: Action("say", value="I was in the Cafeteria."),  # names nobody: ignored
        3: Action("say", value="I think Eve is sus."),  # free text, read as an accusation
    }
    while the_game.phase is Phase.DISCUSSION:
        seat = the_game.to_move
        action = script.get(seat, WAIT)
        measures.before_action(the_game, seat, action)
        the_game.apply(seat, action)
        measures.after_action(the_game, seat, action)
        measures.after_change(the_game)
    by_seat = {speech.seat: speech for speech in measures.speeches}
    assert sorted(by_seat) == [0, 1, 2, 3]  # waits are no speeches
    assert by_seat[0].reward > 0.01 and by_seat[0].listeners == 3
    assert by_seat[1].reward < -0.01
    assert by_seat[2].reward == 0.0
    assert by_seat[3].reward > 0.01
    assert 0.0 < measures.final_info(IMPOSTOR)["deception"] < 1.0  # weighed at the vote
    assert "deception" not in measures.final_info(0)


@pytest.mark.parametrize(
    ("text", "stance"),
    [
        ("Eve is sus", (4, True)),
        ("I saw Eve vent!", (4, True)),
        ("Eve is not the impostor", (4, False)),
        ("I trust Bob", (1, False)),
        ("Eve or Bob is the impostor", None),
        ("Alice is the impostor", None),  # the speaker itself
        ("Where were you?", None),
    ],
)
def test_crew_speech_stance(text, stance):
    assert crew_speech_stance(text, ("Alice", "Bob", "Carol", "Dave", "Eve"), 0) == stance


def test_suspicion_as_probabilities_respects_knowledge():
    probabilities = impostor_probabilities([0.0, 2.0, 0.0, 0.0, 100.0], 1, {0}, set(), {3})
    assert probabilities[0] == 0.0 and probabilities.sum() == pytest.approx(1.0)
    assert probabilities[4] > 0.99
    two = impostor_probabilities([0.0, 1.0, 0.0, 0.0, 0.0, 0.0], 2, {0}, {5}, set())
    assert two[5] == pytest.approx(1.0) and two.sum() == pytest.approx(2.0)
    assert two[1] > two[2] == pytest.approx(two[3])


# -- determinism, default off, options -------------------------------------------------------
def test_measures_are_deterministic():
    def make():
        return probed_env(num_players=6, speaking_reward=True)

    check_measures_deterministic(make, BeliefBot, RandomLegalBot, seed=7, limit=50_000)


def test_off_by_default():
    check_measures_off_by_default(envsuite.make("envsuite/AmongUs-v0"), BeliefBot, limit=50_000)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"belief_probes": "vote"}, "list of phase names"),
        ({"belief_probes": ["night"]}, "unknown phases"),
        ({"belief_probes": ["vote"], "observation_mode": "vector"}, "observation_mode='text'"),
        ({"speaking_reward": "yes"}, "True or False"),
        ({"belief_probes": ["meeting"], "discussion_rounds": 0}, "discussion_rounds is 0"),
    ],
)
def test_bad_options_are_clear_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        envsuite.make("envsuite/AmongUs-v0", **kwargs)
