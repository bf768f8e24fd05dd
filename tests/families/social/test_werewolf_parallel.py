"""The Parallel forms of Werewolf and Mafia: blocks, the not-due rule, AEC equivalence, bots."""

from __future__ import annotations

import json

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test

import envsuite
from envsuite.families.social.werewolf_bots import BeliefBot, RandomLegalBot
from envsuite.families.social.werewolf_parallel import NIGHT, due_block
from envsuite.families.social.werewolf_parallel_bots import ParallelSeat
from envsuite.families.social.werewolf_parallel_oracle import werewolf_parallel_oracle
from envsuite.families.social.werewolf_setup import (
    DOCTOR,
    PHASE_ORDER,
    ROLE_ORDER,
    SEER,
    WEREWOLF,
    Phase,
)

PARALLEL = {"envsuite/WerewolfParallel-v0": "envsuite/Werewolf-v0"}
PARALLEL["envsuite/MafiaParallel-v0"] = "envsuite/Mafia-v0"


def parallel(env_id: str = "envsuite/WerewolfParallel-v0", **kwargs):
    return envsuite.make(env_id, parallel=True, **kwargs)


@pytest.mark.parametrize("env_id", sorted(PARALLEL))
@pytest.mark.parametrize(
    "kwargs", [{}, {"observation_mode": "vector", "speaking_order": "bidding"}], ids=str
)
def test_pettingzoo_parallel_api(env_id, kwargs):
    parallel_api_test(parallel(env_id, **kwargs), num_cycles=300)


def test_the_night_is_one_block_and_only_the_due_agents_have_legal_actions():
    env = parallel(num_players=7, observation_mode="vector")
    _, infos = env.reset(seed=4)
    game = env.unwrapped.game
    due = due_block(game)
    roles = {game.roles[seat]: phase for seat, phase in due.items()}
    assert roles == {
        WEREWOLF: Phase.NIGHT_WOLVES,
        SEER: Phase.NIGHT_SEER,
        DOCTOR: Phase.NIGHT_DOCTOR,
    }
    assert set(due.values()) == set(NIGHT)
    for agent, info in infos.items():
        seat = env.unwrapped.seat_of(agent)
        assert info["to_act"] is (seat in due)
        assert bool(info["action_mask"].any()) is (seat in due)
    doctor = next(seat for seat in due if game.roles[seat] == DOCTOR)
    observation = env.unwrapped._views({})[0][f"player_{doctor}"]
    shown = observation[len(ROLE_ORDER) : len(ROLE_ORDER) + len(PHASE_ORDER)]
    assert list(shown) == [float(phase is Phase.NIGHT_DOCTOR) for phase in PHASE_ORDER]


def test_agents_not_due_are_ignored_without_penalty_and_missing_due_agents_forfeit():
    env = parallel(num_players=6)
    _, infos = env.reset(seed=0)
    raw = env.unwrapped
    due = [agent for agent in env.agents if infos[agent]["to_act"]]
    idle = [agent for agent in env.agents if not infos[agent]["to_act"]]
    actions = {agent: infos[agent]["legal_actions"][0] for agent in due[1:]}
    actions[idle[0]] = None  # not of the space: a parse_error, no penalty
    actions[idle[1]] = "anything at all"  # of the space: ignored
    _, rewards, _, _, infos = env.step(actions)
    assert infos[idle[0]]["parse_error"] and rewards[idle[0]] == 0.0
    assert infos[idle[1]]["parse_error"] is None and rewards[idle[1]] == 0.0
    assert infos[due[0]]["parse_error"] == "no action was given for this agent"
    assert rewards[due[0]] == pytest.approx(-0.1) and raw.core.invalid_actions[due[0]] == 1
    assert ("act", raw.seat_of(due[0]), "pass", None, "") in raw.game.game_log.entries
    assert all(infos[agent]["parse_error"] is None for agent in due[1:])


def play_parallel(env, seed: int, spoil: int = 0):
    """Play one game with belief bots; every ``spoil``-th step the first due agent errs.

    Returns the due agents' moves, step by step, in the engine's order.
    """
    seats = werewolf_parallel_oracle(env)
    for index, seat in enumerate(seats.values()):
        seat.reset(seed * 10 + index)
    observations, infos = env.reset(seed=seed)
    moves = []
    step = 0
    while env.agents:
        step += 1
        actions = {
            agent: seats[agent].act(observations[agent], infos[agent]) for agent in env.agents
        }
        order = [f"player_{seat}" for seat in env.unwrapped.due]
        if spoil and step % spoil == 0:
            actions[order[0]] = "dance" if isinstance(actions[order[0]], str) else 999
        moves.append([(agent, actions[agent]) for agent in order])
        observations, _, _, _, infos = env.step(actions)
    return moves


@pytest.mark.parametrize("env_id", sorted(PARALLEL))
@pytest.mark.parametrize(
    "kwargs",
    [{}, {"speaking_order": "bidding"}, {"observation_mode": "vector", "tie_rule": "random"}],
    ids=str,
)
def test_the_aec_form_given_the_same_moves_writes_the_same_game_log(env_id, kwargs):
    for seed in range(3):
        env = parallel(env_id, **kwargs)
        moves = play_parallel(env, seed, spoil=5)
        aec = envsuite.make(PARALLEL[env_id], **kwargs)
        aec.reset(seed=seed)
        for block in moves:
            for agent, action in block:
                assert aec.agent_selection == agent
                aec.step(action)
        ours, theirs = env.unwrapped, aec.unwrapped
        assert theirs.game.over and ours.game.winner == theirs.game.winner
        assert ours.game.game_log.to_json() == theirs.game.game_log.to_json()
        assert ours.core.invalid_actions == theirs.invalid_actions
        assert ours.state_digest() == theirs.state_digest()


def test_same_seed_and_joint_actions_give_the_same_everything():
    runs = []
    for _ in range(2):
        env = parallel(speaking_order="bidding", observation_mode="vector")
        moves = play_parallel(env, seed=7, spoil=4)
        runs.append((json.dumps(moves, default=int), env.unwrapped.state_digest()))
    assert runs[0] == runs[1]


@pytest.mark.parametrize("env_id", sorted(PARALLEL))
@pytest.mark.parametrize("bot", [BeliefBot, RandomLegalBot])
def test_bots_finish_games_in_the_parallel_form(env_id, bot):
    env = parallel(env_id, speaking_order="bidding")
    decided = 0
    for seed in range(5):
        seats = {agent: ParallelSeat(env, agent, bot()) for agent in env.possible_agents}
        for index, seat in enumerate(seats.values()):
            seat.reset(seed * 10 + index)
        observations, infos = env.reset(seed=seed)
        for _ in range(2000):
            if not env.agents:
                break
            actions = {a: seats[a].act(observations[a], infos[a]) for a in env.agents}
            observations, _, _, _, infos = env.step(actions)
            assert all(info["parse_error"] is None for info in infos.values())
        assert not env.agents
        decided += env.unwrapped.episode_success(infos) is True
        assert {info["outcome"] for info in infos.values()} <= {"win", "loss", "draw"}
    assert decided >= 4


def test_mask_is_all_zero_and_the_idle_action_is_in_the_space_for_agents_not_due():
    env = parallel("envsuite/MafiaParallel-v0", observation_mode="vector")
    _, infos = env.reset(seed=3)
    for agent, info in infos.items():
        if not info["to_act"]:
            assert not np.any(info["action_mask"])
            assert env.action_space(agent).contains(env.unwrapped.idle_action())
