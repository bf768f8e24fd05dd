"""Belief probes, speaking reward and deception on Werewolf-v0 and Mafia-v0."""

from __future__ import annotations

import json

import numpy as np
import pytest

import envsuite
from envsuite.families.social.belief_probes import ProbeQuestion, parse_probe_answer, score_probe
from envsuite.families.social.werewolf_bots import BeliefBot, RandomLegalBot
from envsuite.families.social.werewolf_measures import WerewolfMeasures
from envsuite.families.social.werewolf_rules import WerewolfGame
from envsuite.families.social.werewolf_setup import PASS, Action
from tests.families.social.bot_games import measured_discussion, play_probed
from tests.families.social.werewolf_scripts import night, setup

DEAL = ("werewolf", "seer", "doctor", "villager", "villager", "villager")
WOLF, SEER, DOCTOR = 0, 1, 2


def play(env, seats, seed, on_probe=None):
    """Play one game; return each agent's final info. ``on_probe(agent, info, answer)``."""
    return play_probed(env, seats, seed, on_probe)[0]


def belief_seats(env):
    return {agent: BeliefBot(env) for agent in env.possible_agents}


# -- speaking reward on scripted claims ---------------------------------------------------
def _discussion(first, script):
    """Night 1 (villager 3 dies, the seer checks the wolf), then one scripted discussion."""
    game = WerewolfGame(setup(6, discussion_rounds=1), DEAL)
    measures = WerewolfMeasures((), speaking_reward=True)
    measures.start(game)
    night(game, kill=3, check=WOLF, save=DOCTOR)
    game.apply_chance(first)
    measures.after_change(game)
    return measures, measured_discussion(game, measures, script, PASS)


@pytest.mark.parametrize("first", [WOLF, SEER])
def test_a_false_accusation_by_the_lone_werewolf_exposes_it(first):
    # The listeners expect werewolves to lie: with one werewolf, a false accusation puts
    # the accuser among the two suspects, which moves them toward the truth.
    _, by_seat = _discussion(first, {WOLF: Action("claim", 4, "werewolf")})
    assert by_seat[WOLF].reward > 0.01


@pytest.mark.parametrize("first", [WOLF, SEER])
def test_a_true_claim_earns_and_a_misleading_one_costs(first):
    script = {
        SEER: Action("claim", WOLF, "werewolf"),  # true, from the one who knows
        # Misleading: the werewolf vouches for a villager as a truthful seer would, which
        # makes it look like one.
        WOLF: Action("claim", 4, "village"),
        DOCTOR: Action("say", None, "I trust nobody."),  # free text: the listeners ignore it
    }
    measures, by_seat = _discussion(first, script)
    assert sorted(by_seat) == [WOLF, SEER, DOCTOR]  # passes are no speeches
    assert by_seat[SEER].reward > 0.01
    assert by_seat[WOLF].reward < -0.01
    assert by_seat[DOCTOR].reward == 0.0
    assert by_seat[SEER].listeners == 3  # the doctor and two villagers (one is dead)
    assert by_seat[WOLF].listeners == 4
    info = measures.final_info(SEER)
    assert info["speeches"] == 1 and info["speaking_reward"] == by_seat[SEER].reward
    assert 0.0 <= measures.final_info(WOLF)["deception"] <= 1.0  # weighed at the vote
    assert "deception" not in info


# -- probes through the env ---------------------------------------------------------------
def test_probes_are_turns_before_the_phase_and_change_nothing_in_the_game():
    plain = envsuite.make("envsuite/Werewolf-v0", num_players=6)
    probed = envsuite.make("envsuite/Werewolf-v0", num_players=6, belief_probes=["night", "vote"])
    play(plain, belief_seats(plain), seed=3)
    questions = []
    final = play(
        probed,
        belief_seats(probed),
        seed=3,
        on_probe=lambda agent, info, _: questions.append((agent, info["probe"])),
    )
    assert probed.unwrapped.game.game_log.to_json() == plain.unwrapped.game.game_log.to_json()
    first_night = [agent for agent, question in questions if question["day"] == 1][:6]
    assert first_night == [f"player_{seat}" for seat in range(6)]  # everyone, in seat order
    assert {question["phase"] for _, question in questions} == {"night", "vote"}
    assert questions[0][1]["players"] == ["Bob", "Carol", "Dave", "Eve", "Frank"]
    assert questions[0][1]["classes"] == ["werewolves", "village"]
    for agent, info in final.items():
        asked = sum(a == agent for a, _ in questions)
        assert info["probes"] == asked > 0 and info["probe_malformed"] == 0


def test_the_probe_turn_shows_the_question_and_offers_uniform():
    env = envsuite.make("envsuite/Mafia-v0", belief_probes=["night"])
    env.reset(seed=0)
    observation, _, _, _, info = env.last()
    assert env.agent_selection == "player_0"
    assert observation.rstrip().splitlines()[-1].startswith("Belief probe (day 1, night")
    assert "on team mafia" in observation
    assert info["legal_actions"] == ["uniform"]
    assert info["probe"]["classes"] == ["mafia", "village"]
    env.step("Bob: 0.9")  # partly read: accepted, the rest at 0.5, counted malformed
    assert env.infos["player_0"]["parse_error"] is None
    assert "probe" not in env.infos["player_0"]
    assert env.unwrapped.measures.answers[0]["seat"] == 0


def test_an_unreadable_answer_is_refused_without_penalty_and_counted():
    env = envsuite.make("envsuite/Werewolf-v0", num_players=5, belief_probes=["night"])
    env.reset(seed=1)
    env.step(None)
    assert "probe answer" in env.infos["player_0"]["parse_error"]
    assert env.rewards["player_0"] == 0.0
    assert env.unwrapped.invalid_actions["player_0"] == 0
    assert env.agent_selection == "player_1"  # the probe is over; the next is asked
    env.step("nothing to say")
    assert "no probability read" in env.infos["player_1"]["parse_error"]
    scores = env.unwrapped.measures.answers
    assert [answer["brier"] for answer in scores] == [0.25, 0.25]
    tallies = env.unwrapped.measures.final_info(0)
    assert tallies["probe_malformed"] == 1 and tallies["probes"] == 1


def test_belief_bots_answer_their_exact_posterior():
    env = envsuite.make("envsuite/Werewolf-v0", num_players=7, belief_probes=["vote"])
    seats = belief_seats(env)
    checked = []

    def check(agent, info, answer):
        raw = env.unwrapped
        seat = raw.seat_of(agent)
        posterior = seats[agent].posterior(raw.game, seat)
        beliefs = json.loads(answer)
        expected = {raw.game.names[s]: float(posterior[s]) for s in range(7) if s != seat}
        assert beliefs == expected  # exact: JSON round-trips floats
        assert beliefs.keys() == set(info["probe"]["players"])
        checked.append(agent)

    play(env, seats, seed=5, on_probe=check)
    assert len(checked) >= 5
    assert 0.0 <= env.unwrapped.measures.answers[-1]["brier"] < 0.25  # beats uniform by then


def test_random_bots_answer_uniform():
    env = envsuite.make("envsuite/Werewolf-v0", num_players=6, belief_probes=["discussion"])
    final = play(env, {agent: RandomLegalBot(env) for agent in env.possible_agents}, seed=2)
    for info in final.values():
        if info["probes"]:
            assert info["probe_brier"] == 0.25
            assert info["probe_log"] == pytest.approx(np.log(2))
            assert info["probe_accuracy"] == 0.5


def test_probe_scores_match_a_recomputation_from_the_truth():
    env = envsuite.make("envsuite/Werewolf-v0", num_players=6, belief_probes=["vote"])
    asked = []
    play(env, belief_seats(env), seed=7, on_probe=lambda agent, info, a: asked.append((info, a)))
    raw = env.unwrapped
    game = raw.game
    assert len(asked) == len(raw.measures.answers) > 0
    for (info, answer), recorded in zip(asked, raw.measures.answers, strict=True):
        seat = recorded["seat"]
        probe = ProbeQuestion(
            tuple(info["probe"]["players"]),
            tuple(info["probe"]["classes"]),
            info["probe"]["phase"],
            info["probe"]["day"],
        )
        truth = {game.names[s]: game.words.team(game.teams[s]) for s in range(6) if s != seat}
        score = score_probe(parse_probe_answer(answer, probe), probe, truth)
        assert (recorded["brier"], recorded["log"]) == (score.brier, score.log)


# -- the whole measure set: determinism, validation, default off ---------------------------
def test_measures_are_deterministic():
    def run():
        env = envsuite.make(
            "envsuite/Mafia-v0", belief_probes=["night", "discussion", "vote"], speaking_reward=True
        )
        seats = {
            agent: (BeliefBot(env) if index % 2 else RandomLegalBot(env))
            for index, agent in enumerate(env.possible_agents)
        }
        final = play(env, seats, seed=11)
        return final, env.unwrapped.state_digest()

    first, second = run(), run()
    assert first == second
    assert any("deception" in info for info in first[0].values())
    assert all("speaking_reward_total" in info for info in first[0].values())


def test_off_by_default():
    env = envsuite.make("envsuite/Werewolf-v0", num_players=6)
    final = play(env, belief_seats(env), seed=0)
    assert not env.unwrapped.measures.enabled
    assert not any(key.startswith(("probe", "speak")) for info in final.values() for key in info)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"belief_probes": "vote"}, "list of phase names"),
        ({"belief_probes": ["dawn"]}, "unknown phases"),
        ({"belief_probes": ["vote"], "observation_mode": "vector"}, "observation_mode='text'"),
        ({"speaking_reward": "yes"}, "True or False"),
        ({"belief_probes": ["discussion"], "discussion_rounds": 0}, "discussion_rounds is 0"),
    ],
)
def test_bad_options_are_clear_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        envsuite.make("envsuite/Werewolf-v0", **kwargs)


def test_speaking_reward_in_vector_mode_needs_no_text():
    env = envsuite.make("envsuite/Werewolf-v0", observation_mode="vector", speaking_reward=True)
    final = play(env, belief_seats(env), seed=4)
    assert all("speeches" in info for info in final.values())
