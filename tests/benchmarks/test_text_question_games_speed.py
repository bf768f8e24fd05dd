"""TwentyQuestions-v0 and GuessMyCity-v0 speed against the raw engine loop, in the same run.

Workload: ``EPISODES`` games per env from one seeded reset (later resets continue the
generator), each played by the oracle's moves computed in advance for that game's secret
(the canonical question texts, then the name: about 9.5 turns a game), so neither side
pays for the oracle; resets included in the time.

- ``twenty-questions-text`` / ``guess-my-city-text``: ``envsuite.make`` in text mode
  (history ``last``) against the raw loop: the same secrets from the same generator, each
  text read by the knowledge base's grammar (:meth:`KnowledgeBase.parse`), checked for a
  repeat and answered by :class:`~envsuite.families.text.kb_questions.QuestionGame`, the
  feedback written as the env writes it.
- ``twenty-questions-vector`` / ``guess-my-city-vector``: vector mode (the same moves as
  action numbers; the observation vector and the action mask) against the raw loop doing
  the engine's moves plus that vector and mask in numpy.

Each envsuite row puts ``env_steps_per_s``, ``raw_steps_per_s`` and ``raw_ratio`` (its
time over the raw loop's, both timed in the same test, in turns, by CPU time) in
``extra_info``. ``pytest tests/benchmarks/test_text_question_games_speed.py
--benchmark-enable`` prints the tables. Nothing here asserts a time.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import envsuite
from envsuite.families.text.kb_oracle import next_move
from envsuite.families.text.kb_questions import QuestionGame
from tests.benchmarks.paired_timing import timed_against_raw

GAMES = {
    "twenty-questions": "envsuite/TwentyQuestions-v0",
    "guess-my-city": "envsuite/GuessMyCity-v0",
}
EPISODES = 300
SEED = 4242
ROUNDS = 5


def secrets(env_id: str) -> list[int]:
    """The secrets the env draws from SEED, in order (the generator the env uses)."""
    raw = envsuite.make(env_id).unwrapped
    rng = np.random.Generator(np.random.PCG64(SEED))
    return [raw.items[int(rng.integers(len(raw.items)))] for _ in range(EPISODES)]


def scripts(env_id: str) -> list[list[str]]:
    """The oracle's texts for each secret (computed on the engine, untimed)."""
    kb = envsuite.make(env_id).unwrapped.kb
    out = []
    for secret in secrets(env_id):
        game = QuestionGame(kb, secret)
        texts = []
        while not game.found:
            kind, payload = next_move(game)
            if kind == "guess":
                game.guess(payload)
                texts.append(kb.names[payload])
            else:
                game.ask(payload)
                texts.append(kb.describe(payload))
        out.append(texts)
    return out


def envsuite_episodes(env: Any, plays: list[list[Any]]) -> tuple[int, int]:
    """Play every script (one per episode); return (steps, wins)."""
    steps = wins = 0
    env.reset(seed=SEED)
    for episode, script in enumerate(plays):
        if episode:
            env.reset()
        for action in script:
            _, _, terminated, truncated, _ = env.step(action)
            steps += 1
            if terminated or truncated:
                wins += bool(terminated)
                break
    return steps, wins


def raw_episodes(env_id: str, plays: list[list[str]]) -> tuple[int, int]:
    """The same games on the bare engine: draw, parse, refusal check, answer, feedback."""
    raw = envsuite.make(env_id).unwrapped
    kb, items = raw.kb, raw.items
    rng = np.random.Generator(np.random.PCG64(SEED))
    steps = wins = 0
    for script in plays:
        game = QuestionGame(kb, items[int(rng.integers(len(items)))])
        for text in script:
            kind, payload = kb.parse(text.strip())
            if game.refusal(kind, payload) is not None:
                raise AssertionError("the scripts hold no repeats")
            if kind == "guess":
                name = kb.names[payload]
                feedback = f"Yes! It is {name}." if game.guess(payload) else f"No, not {name}."
            else:
                feedback = "Yes." if game.ask(payload) else "No."
                feedback = f"{kb.describe(payload)} {feedback}"
            assert feedback
            steps += 1
            if game.found:
                wins += 1
                break
    return steps, wins


def vector_scripts(env_id: str, plays: list[list[str]]) -> list[list[int]]:
    """The same moves as the vector mode's action numbers."""
    kb = envsuite.make(env_id).unwrapped.kb
    questions = len(kb.question_list)
    out = []
    for script in plays:
        actions = []
        for text in script:
            kind, payload = kb.parse(text)
            number = questions + payload if kind == "guess" else kb.question_number[payload]
            actions.append(number)
        out.append(actions)
    return out


def raw_vector_episodes(env_id: str, plays: list[list[int]]) -> tuple[int, int]:
    """The same games on the bare engine, with the observation vector and mask in numpy."""
    raw = envsuite.make(env_id).unwrapped
    kb, items = raw.kb, raw.items
    questions, count = len(kb.question_list), len(kb.question_list) + len(kb.names)
    rng = np.random.Generator(np.random.PCG64(SEED))
    steps = wins = 0
    for script in plays:
        game = QuestionGame(kb, items[int(rng.integers(len(items)))])
        vector = np.zeros(count + 1, dtype=np.float32)
        mask = np.ones(count, dtype=np.int8)
        for index in script:
            if not 0 <= index < count or mask[index] == 0:
                raise AssertionError("the scripts hold legal moves only")
            if index < questions:
                vector[index] = 1.0 if game.ask(kb.question_list[index]) else -1.0
            else:
                vector[index] = 1.0 if game.guess(index - questions) else -1.0
            mask[index] = 0
            steps += 1
            vector[-1] = steps / 20
            if game.found:
                wins += 1
                break
    return steps, wins


@pytest.fixture(scope="module", params=sorted(GAMES))
def game(request: Any) -> tuple[str, list[list[str]], tuple[int, int]]:
    env_id = GAMES[request.param]
    plays = scripts(env_id)
    return env_id, plays, raw_episodes(env_id, plays)


@pytest.mark.benchmark(group="question-games-text")
def test_question_game_text_envsuite(benchmark: Any, game: Any) -> None:
    env_id, plays, expected = game
    env = envsuite.make(env_id)
    result = timed_against_raw(
        benchmark,
        lambda: envsuite_episodes(env, plays),
        lambda: raw_episodes(env_id, plays),
        rounds=ROUNDS,
    )
    assert result == expected and expected[1] == EPISODES


@pytest.mark.benchmark(group="question-games-text")
def test_question_game_text_raw(benchmark: Any, game: Any) -> None:
    env_id, plays, expected = game
    assert benchmark(raw_episodes, env_id, plays) == expected


def test_the_raw_loop_draws_the_envs_secrets() -> None:
    for env_id in GAMES.values():
        env = envsuite.make(env_id)
        env.reset(seed=SEED)
        for secret in secrets(env_id)[:20]:
            assert env.unwrapped.game.secret == secret
            env.reset()


@pytest.mark.benchmark(group="question-games-vector")
def test_question_game_vector_envsuite(benchmark: Any, game: Any) -> None:
    env_id, plays, expected = game
    env = envsuite.make(env_id, observation_mode="vector")
    actions = vector_scripts(env_id, plays)
    result = timed_against_raw(
        benchmark,
        lambda: envsuite_episodes(env, actions),
        lambda: raw_vector_episodes(env_id, actions),
        rounds=ROUNDS,
    )
    assert result == expected


@pytest.mark.benchmark(group="question-games-vector")
def test_question_game_vector_raw(benchmark: Any, game: Any) -> None:
    env_id, plays, expected = game
    actions = vector_scripts(env_id, plays)
    assert benchmark(raw_vector_episodes, env_id, actions) == expected
