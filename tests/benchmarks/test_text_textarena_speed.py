"""Text games against TextArena's matching games, side by side in the same run.

One benchmark group per game, ``text-textarena-<game>``. Each row replays the same number
of steps (``STEPS``, resets included, amortised over whole episodes) from episodes
recorded beforehand, so no policy is timed on either side:

- ``test_textarena_raw``: TextArena's game as ``ta.make("<Game>-v0-raw")`` (no wrappers,
  TextArena at its leanest): ``reset(num_players=1, seed=...)``, ``get_observation()``,
  then ``step(action)`` + ``get_observation()`` per move and ``close()`` at the end;
- ``test_textarena_llm``: the same with TextArena's default wrappers (``ta.make("<Game>-v0")``:
  ``LLMObservationWrapper`` + ``ActionFormattingWrapper``, the whole history as one string
  every step, what an agent of ``ta.make`` reads). That wrapper keeps its history across
  resets (reuse one and the first observation of its third episode holds the prompt
  three times), so a fresh wrapper stack goes round the same game object every episode
  (what ``ta.make`` per episode does, less the game's construction);
- ``test_envsuite_last`` / ``test_envsuite_full``: the envsuite env through
  ``envsuite.make`` in text mode with ``history="last"`` (the default) and ``"full"``
  (every action and its feedback, the same information as TextArena's wrapper).

Recorded moves (all legal; the recording checks it and the replay checks the episodes
end where they ended): TextArena's with a cheap policy per game reading its state —
Wordle random nouns from its own list, Hangman letters by English frequency, Mastermind
the first code consistent with the feedback so far, Minesweeper random safe cells,
Sudoku the solution's digits in random order, Sokoban random moves that do not hit a
wall, FrozenLake a shortest path; envsuite's with the env's registered oracle (so its
episodes are the short, winning ones: more resets per step than TextArena's). Each row's
``extra_info`` has ``env_steps_per_s`` (mean round), ``env_steps_per_s_best_round`` and
``mean_episode_length``; the envsuite rows add ``textarena_raw_steps_per_s``,
``textarena_llm_steps_per_s`` and ``ratio_vs_textarena_raw`` / ``ratio_vs_textarena_llm``
(envsuite's rate over TextArena's; the TextArena loop is timed on the spot when its row
did not run in this session). An envsuite env that is not registered yet skips its rows.

Which TextArena games match (TextArena 0.7.4, the newest on PyPI when written):

- Mastermind-v0 (4 of 6 digits, no repeats, 20 turns), Minesweeper-v0 (8x8, 10 mines),
  Sudoku-v0 (60 clues), Sokoban-v0 (6x6, 3 boxes, 30 turns): run offline. Sokoban
  imports numpy, which TextArena does not declare (``pip install numpy`` too).
- FrozenLake-v0 (4x4, 3 holes) is only the nearest game to ``Maze-v0``: a walk on a
  grid to a goal, not a maze; its group is ``text-textarena-maze-vs-frozenlake``.
- Wordle-v0 and Hangman-v0 do NOT run offline. ``textarena/envs/Hangman/env.py`` calls
  ``nltk.download('words')`` at import and ``textarena/envs/Wordle/env.py`` downloads
  ``averaged_perceptron_tagger_eng`` and ``words`` at import when they are missing (and
  its ``EnglishDictionary`` calls ``nltk.download("words")`` again at every
  construction). Without network the import fails:
  ``[nltk_data] Error loading words: <urlopen error ...>`` then
  ``LookupError: Resource 'words' not found.`` from ``words.words("en-basic")``. Their
  rows are skipped unless NLTK's ``corpora/words`` (and, for Wordle,
  ``taggers/averaged_perceptron_tagger_eng``) are already on ``NLTK_DATA``'s path, in
  which case they run (nltk still tries its download first and goes on when it fails).
- No match: ChessEndgame-v0 (TextArena's Chess-v0 is a two-player game from the
  initial position, and ``textarena/envs/Chess/env.py`` is a SyntaxError on Python 3.11:
  a nested f-string quote that needs 3.12).

TextArena seeds the process-wide ``random`` (``State.__init__`` calls ``random.seed(seed)``
when given a seed); with a seed and nothing else drawing from ``random`` between its
calls, the same seed replays the same game. Minesweeper places its mines at the first
step, so another user of ``random`` between ``reset`` and that step changes the board.

TextArena pins nothing that clashes with envsuite's environment (a ``pip install
--dry-run textarena`` there only adds packages), but it is not one of envsuite's extras,
so the comparison runs in a venv of its own and is skipped where TextArena is absent
(CI); from the repo root::

    python3.11 -m venv /tmp/textarena-venv
    /tmp/textarena-venv/bin/pip install -e ".[text]" textarena numpy pytest pytest-benchmark
    /tmp/textarena-venv/bin/python -m pytest -p no:cacheprovider \\
        tests/benchmarks/test_text_textarena_speed.py --benchmark-enable \\
        --benchmark-timer=time.process_time --benchmark-columns=mean,rounds

(measured 2026-11-24, TextArena 0.7.4, process time on one of 2 shared cores, steps/s
raw / llm: Mastermind 116k / 85k, Minesweeper 24k / 20k, Sudoku 4.3k / 4.2k (its
reset's uniqueness search dominates), Sokoban 290 / 280 (its room generation at every
reset dominates), FrozenLake 43k / 39k; Wordle 88k / 71k and Hangman 109k / 73k only
with a stand-in NLTK corpus, as they cannot run offline. TextArena's cheap games are
fast: 3x Mastermind-v0 means 350k steps/s against its raw row, 255k against its llm
row; 3x Minesweeper-v0 means 72k / 59k.)

On a shared machine ``--benchmark-timer=time.process_time`` times CPU rather than wall
clock. The repo's pytest config passes ``--benchmark-disable``, so without
``--benchmark-enable`` every row runs once as a plain test. Nothing here asserts a time.
"""

from __future__ import annotations

import itertools
import random
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

import envsuite

STEPS = 1_000
ROUNDS = 5
#: Distinct recorded episodes per side and game (replayed in turn until ``STEPS``).
EPISODES = 12
#: Longest episode a recording may take (a guard against a policy that never ends).
MAX_EPISODE_STEPS = 2_000

#: Measured steps/s of the TextArena rows in this session, by (game, row).
RATES: dict[tuple[str, str], float] = {}

Episode = tuple[int, list[str]]


# -- TextArena's recorders: one episode of legal moves from a cheap policy ----------------
def record_wordle(env: Any, rng: random.Random) -> Iterator[str]:
    words = sorted(env.word_list)
    rng.shuffle(words)
    yield from (f"[{word}]" for word in words)


def record_hangman(env: Any, rng: random.Random) -> Iterator[str]:
    yield from (f"[{letter}]" for letter in "etaoinshrdlcumwfgypbvkjxqz")


def _pegs(guess: tuple[int, ...], code: tuple[int, ...]) -> tuple[int, int]:
    black = sum(g == c for g, c in zip(guess, code, strict=True))
    common = sum(min(guess.count(d), code.count(d)) for d in set(guess))
    return black, common - black


def record_mastermind(env: Any, rng: random.Random) -> Iterator[str]:
    game = env.state.game_state
    digits = range(1, game["num_numbers"] + 1)
    length = game["code_length"]
    codes = list(
        itertools.product(digits, repeat=length)
        if game["duplicate_numbers"]
        else itertools.permutations(digits, length)
    )
    rng.shuffle(codes)
    while True:
        history = game["history"]
        guess = next(
            code
            for code in codes
            if all(_pegs(tuple(h["guess"]), code) == (h["black"], h["white"]) for h in history)
            and list(code) not in [h["guess"] for h in history]
        )
        yield "[" + " ".join(map(str, guess)) + "]"


def record_minesweeper(env: Any, rng: random.Random) -> Iterator[str]:
    yield f"[{rng.randrange(env.rows)} {rng.randrange(env.cols)}]"
    while True:
        safe = [
            (r, c)
            for r in range(env.rows)
            for c in range(env.cols)
            if env.grid[r][c] != -1 and not env.revealed[r][c]
        ]
        r, c = rng.choice(safe)
        yield f"[{r} {c}]"


def record_sudoku(env: Any, rng: random.Random) -> Iterator[str]:
    board = env.state.game_state["board"]
    empty = [(r, c) for r in range(9) for c in range(9) if board[r][c] == 0]
    rng.shuffle(empty)
    yield from (f"[{r + 1} {c + 1} {env.full_grid[r][c]}]" for r, c in empty)


def record_sokoban(env: Any, rng: random.Random) -> Iterator[str]:
    while True:
        moves = [m for m in env.action_space if not env._would_collide_with_wall(m)]
        yield f"[{rng.choice(moves)}]"


def record_frozenlake(env: Any, rng: random.Random) -> Iterator[str]:
    game = env.state.game_state
    grid, start, goal = game["grid"], tuple(game["player_pos"]), tuple(game["goal_pos"])
    size = len(grid)
    steps = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
    parent: dict[tuple[int, int], tuple[tuple[int, int], str] | None] = {start: None}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for name, (dr, dc) in steps.items():
            nxt = (cell[0] + dr, cell[1] + dc)
            inside = 0 <= nxt[0] < size and 0 <= nxt[1] < size
            if inside and nxt not in parent and grid[nxt[0]][nxt[1]] != "H":
                parent[nxt] = (cell, name)
                queue.append(nxt)
    path: list[str] = []
    cell = goal
    while (link := parent[cell]) is not None:
        cell, name = link
        path.append(f"[{name}]")
    yield from reversed(path)


@dataclass(frozen=True)
class Game:
    """One comparison: an envsuite env and the TextArena game it is compared with."""

    name: str
    envsuite_id: str
    textarena_id: str
    record: Callable[[Any, random.Random], Iterator[str]]
    nltk_resources: tuple[str, ...] = ()
    group: str = ""

    @property
    def group_name(self) -> str:
        return self.group or f"text-textarena-{self.name.lower()}"


GAMES = (
    Game(
        "Wordle",
        "envsuite/Wordle-v0",
        "Wordle-v0",
        record_wordle,
        ("corpora/words", "taggers/averaged_perceptron_tagger_eng"),
    ),
    Game("Hangman", "envsuite/Hangman-v0", "Hangman-v0", record_hangman, ("corpora/words",)),
    Game("Mastermind", "envsuite/Mastermind-v0", "Mastermind-v0", record_mastermind),
    Game("Minesweeper", "envsuite/Minesweeper-v0", "Minesweeper-v0", record_minesweeper),
    Game("Sudoku", "envsuite/Sudoku-v0", "Sudoku-v0", record_sudoku),
    Game("Sokoban", "envsuite/Sokoban-v0", "Sokoban-v0", record_sokoban),
    Game(
        "Maze",
        "envsuite/Maze-v0",
        "FrozenLake-v0",
        record_frozenlake,
        group="text-textarena-maze-vs-frozenlake",
    ),
)


def textarena() -> Any:
    """TextArena, or a skip saying how to get it (see the module docstring)."""
    return pytest.importorskip(
        "textarena", reason="TextArena is not installed (see this module's docstring)"
    )


def _require_offline_data(game: Game) -> None:
    """Skip a TextArena game whose NLTK data is missing: it would try to download it."""
    if not game.nltk_resources:
        return
    import nltk

    for resource in game.nltk_resources:
        try:
            nltk.data.find(resource)
        except LookupError:
            pytest.skip(
                f"TextArena's {game.textarena_id} cannot run offline: it calls "
                f"nltk.download at import and needs NLTK's {resource!r}, which is not "
                "installed (see this module's docstring)"
            )


# -- TextArena: record, then replay ------------------------------------------------------
@dataclass
class TextArenaGame:
    """A TextArena game object, its default wrappers and recorded episodes."""

    env: Any
    wrappers: list[Any]
    episodes: list[Episode]


_TEXTARENA: dict[str, TextArenaGame] = {}


def textarena_game(game: Game) -> TextArenaGame:
    ta = textarena()
    _require_offline_data(game)
    if game.name not in _TEXTARENA:
        from textarena.envs.registration import ENV_REGISTRY

        env = ta.make(f"{game.textarena_id}-raw")
        wrappers = list(ENV_REGISTRY[game.textarena_id].default_wrappers or [])
        episodes = [record_textarena(game, env, seed) for seed in range(EPISODES)]
        _TEXTARENA[game.name] = TextArenaGame(env, wrappers, episodes)
    return _TEXTARENA[game.name]


def record_textarena(game: Game, env: Any, seed: int) -> Episode:
    """One episode of ``game.record``'s moves, each checked to be legal."""
    env.reset(num_players=1, seed=seed)
    env.get_observation()
    moves = game.record(env, random.Random(seed))
    actions: list[str] = []
    done = False
    while not done and len(actions) < MAX_EPISODE_STEPS:
        action = next(moves)
        actions.append(action)
        done, _ = env.step(action)
        env.get_observation()
        state = env.state
        assert state.error_count == 0 and not state.game_info[0].get("invalid_move"), (
            f"TextArena {game.textarena_id}: the recorded move {action!r} is illegal"
        )
    assert done, f"TextArena {game.textarena_id}: the recorded episode did not end"
    env.close()
    return seed, actions


def replay_textarena(env: Any, wrappers: list[Any], episodes: list[Episode]) -> int:
    """``STEPS`` steps of the recorded episodes; returns the number of episodes begun."""
    steps = 0
    for begun, (seed, actions) in enumerate(itertools.cycle(episodes), start=1):
        played = env
        for wrapper in wrappers:
            played = wrapper(played)
        played.reset(num_players=1, seed=seed)
        played.get_observation()
        for number, action in enumerate(actions, start=1):
            done, _ = played.step(action)
            steps += 1
            if done:
                assert number == len(actions), "TextArena ended an episode early"
                played.close()
                if steps == STEPS:
                    return begun
                break
            played.get_observation()
            if steps == STEPS:
                return begun
        else:
            raise AssertionError("TextArena did not end a recorded episode")
    raise AssertionError("unreachable")


# -- envsuite: record with the oracle, then replay ----------------------------------------
_ENVSUITE: dict[str, list[Episode]] = {}


def envsuite_episodes(game: Game) -> list[Episode]:
    if game.envsuite_id not in envsuite.registry:
        pytest.skip(f"{game.envsuite_id} is not registered yet (its game has not landed)")
    if game.name not in _ENVSUITE:
        spec = envsuite.spec(game.envsuite_id)
        env = envsuite.make(game.envsuite_id)
        oracle = spec.load_oracle()(env)
        _ENVSUITE[game.name] = [record_envsuite(env, oracle, seed) for seed in range(EPISODES)]
        env.close()
    return _ENVSUITE[game.name]


def record_envsuite(env: Any, oracle: Any, seed: int) -> Episode:
    """One episode of the oracle's moves, each checked to be legal."""
    observation, info = env.reset(seed=seed)
    oracle.reset(seed=seed)
    actions: list[str] = []
    for _ in range(MAX_EPISODE_STEPS):
        action = oracle.act(observation, info)
        actions.append(action)
        observation, _, terminated, truncated, info = env.step(action)
        assert info.get("parse_error") is None, f"the oracle's {action!r}: {info['parse_error']}"
        if terminated or truncated:
            return seed, actions
    raise AssertionError("the oracle's episode did not end")


def replay_envsuite(env: Any, episodes: list[Episode]) -> int:
    """``STEPS`` steps of the recorded episodes; returns the number of episodes begun."""
    steps = 0
    for begun, (seed, actions) in enumerate(itertools.cycle(episodes), start=1):
        env.reset(seed=seed)
        for number, action in enumerate(actions, start=1):
            _, _, terminated, truncated, _ = env.step(action)
            steps += 1
            if terminated or truncated:
                assert number == len(actions), "envsuite ended an episode early"
                if steps == STEPS:
                    return begun
                break
            if steps == STEPS:
                return begun
        else:
            raise AssertionError("envsuite did not end a recorded episode")
    raise AssertionError("unreachable")


# -- timing --------------------------------------------------------------------------------
def run(benchmark: Any, group: str, function: Callable[[], int]) -> float:
    """Benchmark ``function`` (``STEPS`` steps per call); record and return its steps/s."""
    benchmark.group = group
    started = time.perf_counter()
    begun = benchmark.pedantic(function, rounds=ROUNDS, iterations=1, warmup_rounds=1)
    stats = getattr(benchmark, "stats", None)
    if stats is not None:
        rate = STEPS / stats.stats.mean
        benchmark.extra_info["env_steps_per_s_best_round"] = STEPS / stats.stats.min
    else:  # benchmarks disabled: one plain call
        rate = STEPS / (time.perf_counter() - started)
    benchmark.extra_info["env_steps_per_s"] = rate
    benchmark.extra_info["mean_episode_length"] = STEPS / begun
    return rate


def textarena_rate(game: Game, row: str) -> float:
    """The TextArena row's steps/s: as measured in this session, or timed now (best of 3)."""
    if (game.name, row) not in RATES:
        arena = textarena_game(game)
        wrappers = arena.wrappers if row == "llm" else []
        best = float("inf")
        for _ in range(3):
            started = time.perf_counter()
            replay_textarena(arena.env, wrappers, arena.episodes)
            best = min(best, time.perf_counter() - started)
        RATES[game.name, row] = STEPS / best
    return RATES[game.name, row]


def _ids(game: Game) -> str:
    return game.name


@pytest.mark.parametrize("game", GAMES, ids=_ids)
def test_textarena_raw(benchmark: Any, game: Game) -> None:
    arena = textarena_game(game)
    rate = run(benchmark, game.group_name, lambda: replay_textarena(arena.env, [], arena.episodes))
    RATES[game.name, "raw"] = rate


@pytest.mark.parametrize("game", GAMES, ids=_ids)
def test_textarena_llm(benchmark: Any, game: Game) -> None:
    arena = textarena_game(game)
    rate = run(
        benchmark,
        game.group_name,
        lambda: replay_textarena(arena.env, arena.wrappers, arena.episodes),
    )
    RATES[game.name, "llm"] = rate


def envsuite_row(benchmark: Any, game: Game, history: str) -> None:
    textarena()
    episodes = envsuite_episodes(game)
    env = envsuite.make(game.envsuite_id, history=history)
    rate = run(benchmark, game.group_name, lambda: replay_envsuite(env, episodes))
    env.close()
    try:
        raw, llm = textarena_rate(game, "raw"), textarena_rate(game, "llm")
    except pytest.skip.Exception as skipped:
        benchmark.extra_info["textarena"] = str(skipped)
        return
    benchmark.extra_info["textarena_raw_steps_per_s"] = raw
    benchmark.extra_info["textarena_llm_steps_per_s"] = llm
    benchmark.extra_info["ratio_vs_textarena_raw"] = rate / raw
    benchmark.extra_info["ratio_vs_textarena_llm"] = rate / llm


@pytest.mark.parametrize("game", GAMES, ids=_ids)
def test_envsuite_last(benchmark: Any, game: Game) -> None:
    envsuite_row(benchmark, game, "last")


@pytest.mark.parametrize("game", GAMES, ids=_ids)
def test_envsuite_full(benchmark: Any, game: Game) -> None:
    envsuite_row(benchmark, game, "full")
