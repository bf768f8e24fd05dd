"""Checks the social envs' tests share: off-turn refusals, replays, bots, PettingZoo, eval.

Each check plays or inspects one env the same way for Werewolf, Avalon and Among Us and
asserts what holds for all of them; a test module keeps its own game-specific asserts.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from typer.testing import CliRunner

import envsuite
from envsuite.aec_env_base import OFF_TURN
from envsuite.agents.loading import load_agent
from envsuite.cli import app
from envsuite.records import read_records
from tests.families.social.bot_games import play, play_probed


def check_off_turn_action(env: Any, action: Any) -> None:
    """``action`` sent off-turn costs its sender the penalty (0.1) and changes nothing else."""
    env.reset(seed=0)
    mover = env.agent_selection
    other = next(a for a in env.agents if a != mover)
    entries = len(env.unwrapped.game.game_log.entries)
    env.step(action, agent=other)
    assert env.infos[other]["parse_error"] == OFF_TURN
    assert env.rewards[other] == pytest.approx(-0.1)
    assert env.agent_selection == mover and len(env.unwrapped.game.game_log.entries) == entries


def play_bad_actions(env: Any, seed: int, action: Any = "gibberish") -> dict[str, Any]:
    """Play a game in which every move is ``action``; return each agent's last info."""
    env.reset(seed=seed)
    final = {}
    for agent in env.agent_iter(5000):
        _, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            final[agent] = info
        env.step(None if terminated or truncated else action)
    return final


def check_same_seed_same_game(make_env: Callable[[], Any], bot: type, seed: int = 9) -> None:
    """Two games of fresh envs at one seed, ``bot`` in every seat, log the same game."""
    games = []
    for _ in range(2):
        env = make_env()
        play(env, {agent: bot(env) for agent in env.possible_agents}, seed=seed)
        games.append(env.unwrapped.game.game_log.to_json())
    assert games[0] == games[1]


def check_pettingzoo_vector_form(make_env: Callable[..., Any]) -> None:
    """PettingZoo's API test and seed test on the vector form."""
    api_test(make_env(observation_mode="vector"), num_cycles=200)
    seed_test(lambda: make_env(observation_mode="vector"), num_cycles=200)


def belief_side_wins(
    env: Any, belief: type, random: type, sides: tuple[str, str], seeds: int = 30
) -> dict[str, int]:
    """Games won by the team of :class:`BeliefBot` seats facing random seats, per team.

    Seed ``s`` puts the belief bots on ``sides[s % 2]`` (the other team plays at random).
    """
    wins = dict.fromkeys(sides, 0)
    for seed in range(seeds):
        env.reset(seed=seed)
        teams = env.unwrapped.game.teams
        bot_side = sides[seed % 2]
        seats = {}
        for agent in env.possible_agents:
            team = teams[env.unwrapped.seat_of(agent)]
            seats[agent] = (belief if team == bot_side else random)(env)
        play(env, seats, seed)
        wins[bot_side] += env.unwrapped.game.winner == bot_side
    return wins


def play_loaded_bots(env_id: str, env: Any, bots: str, belief: type, random: type) -> dict:
    """Load BeliefBot, the oracle and RandomLegalBot of module ``bots`` as agent strings.

    The oracle is a :class:`BeliefBot` too. Returns each agent's last info of a game.
    """
    agents = load_agent(
        f"player_0={bots}:BeliefBot,player_1=oracle,player_2={bots}:RandomLegalBot",
        envsuite.spec(env_id),
        env,
    )
    assert isinstance(agents["player_0"], belief) and isinstance(agents["player_1"], belief)
    assert isinstance(agents["player_2"], random)
    return play(env, agents, seed=2)


def eval_records(tmp_path: Path, env_id: str, agents: str) -> list[Any]:
    """The records of ``envsuite eval`` of 3 six-player episodes with ``agents`` seated."""
    out = tmp_path / "run"
    result = CliRunner().invoke(
        app,
        [
            "eval",
            env_id,
            "--agent",
            agents,
            "--set",
            "num_players=6",
            "--episodes",
            "3",
            "--out",
            str(out),
            "--no-progress",
        ],
    )
    assert result.exit_code == 0, result.output
    records = read_records(out / "episodes.jsonl")
    assert len(records) == 3
    return records


def check_every_view_in_random_play(
    env: Any, limit: int, check: Callable[[Any, int, dict[str, Any], str | None], None]
) -> None:
    """Play 3 games (seeds 0-2) of uniformly random legal moves, checking every seat's view.

    Before each move, ``check(game, seat, info, text)`` runs for every seat: its info and,
    in text mode while the game is on, its observation (else None). The moves come from a
    generator seeded 0; each game stops after ``limit`` agent-steps.
    """
    text_mode = env.unwrapped.observation_mode == "text"
    rng = np.random.default_rng(0)
    for seed in range(3):
        env.reset(seed=seed)
        game = env.unwrapped.game
        for _agent in env.agent_iter(limit):
            _, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            for other in env.possible_agents:
                seat = env.unwrapped.seat_of(other)
                text = env.observe(other) if text_mode and not game.over else None
                check(game, seat, env.infos[other], text)
            legal = info["legal_actions"] if text_mode else np.flatnonzero(info["action_mask"])
            env.step(legal[int(rng.integers(len(legal)))])


def check_measures_deterministic(
    make_env: Callable[[], Any], belief: type, random: type, seed: int, limit: int = 20_000
) -> None:
    """Two measured games at one seed (belief and random bots alternating) end the same.

    Same final infos and state digest; every seat gets its speaking reward.
    """

    def run() -> tuple[Any, str]:
        env = make_env()
        seats = {
            agent: (belief(env) if index % 2 else random(env))
            for index, agent in enumerate(env.possible_agents)
        }
        final, _ = play_probed(env, seats, seed, limit=limit)
        return final, env.unwrapped.state_digest()

    first, second = run(), run()
    assert first == second
    assert all("speaking_reward_total" in info for info in first[0].values())


def check_measures_off_by_default(env: Any, belief: type, limit: int = 20_000) -> None:
    """A game with default kwargs measures nothing: no final info holds a measure's key."""
    final, _ = play_probed(
        env, {agent: belief(env) for agent in env.possible_agents}, 0, limit=limit
    )
    assert not env.unwrapped.measures.enabled
    keys = {key for info in final.values() for key in info}
    assert not keys & set(env.unwrapped.record_metrics)
