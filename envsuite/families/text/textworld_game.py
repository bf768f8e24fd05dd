"""``envsuite/TextWorld-v0``: TextWorld's generated games, played by TextWorld itself."""

from __future__ import annotations

import re
import warnings
from functools import cache
from typing import Any

import textworld
from jericho import UnsupportedGameWarning

from envsuite.families.text.answer_grammar import GRAMMAR_HELP
from envsuite.families.text.splits import draw_in_split, split_of
from envsuite.families.text.text_game import History, InvalidAction, MoveResult, TextGameEnv
from envsuite.families.text.textworld_bank import (
    PRESETS,
    BankGame,
    archive_file,
    bank_seeds,
    load_bank,
)
from envsuite.families.text.textworld_generated import generated_game, generated_key

#: Turns before truncation, per difficulty.
MAX_TURNS: dict[str, int] = {"easy": 50, "medium": 100, "hard": 200}
#: Short forms a player may type, and the command each stands for.
ALIASES: dict[str, str] = {
    "n": "go north",
    "s": "go south",
    "e": "go east",
    "w": "go west",
    "north": "go north",
    "south": "go south",
    "east": "go east",
    "west": "go west",
    "l": "look",
    "i": "inventory",
    "inv": "inventory",
}
_ARTICLES = frozenset(("the", "a", "an"))
_EXAMPLES = (
    "Commands look like: go north, look, inventory, examine X, take X, take X from Y, "
    "drop X, open X, close X, unlock X with Y, lock X with Y, put X on Y, insert X into Y, "
    "eat X."
)
_PROMPT = re.compile(r"^>", re.MULTILINE)


def _words(command: str) -> str:
    """``command`` lowercased, without articles, punctuation at the ends or extra spaces."""
    words = command.lower().strip().strip(".!").split()
    return " ".join(word for word in words if word not in _ARTICLES)


def clean_feedback(text: str) -> str:
    """TextWorld's output without the prompt, the status line and the restart question."""
    text = text.split("Would you like to RESTART")[0]
    prompt = _PROMPT.search(text)
    if prompt is not None:  # the prompt line also carries the status line ("-= Room =-0/1")
        text = text[: prompt.start()]
    lines = [line.rstrip() for line in text.strip().splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


@cache
def _split_games(difficulty: str, split: str) -> tuple[BankGame, ...]:
    return tuple(g for g in load_bank(difficulty) if split_of("textworld", g.key) == split)


class TextWorldEnv(TextGameEnv[str]):
    """A game made by TextWorld's own generator, played by TextWorld (Inform 7 on Jericho).

    Description:
        Microsoft's TextWorld (MIT licence) generates text adventures: rooms joined by
        doors, containers and supporters, keys and locks, food, and a quest ("unlock the
        chest with the latchkey"). Here TextWorld's generator made every game (its
        ``make_game`` with TextWorld's defaults and a seed per game; the options and seeds
        are in :mod:`.textworld_bank`) and TextWorld plays it: its Inform 7 story file
        runs on Jericho's Z-machine, and its state tracking gives the admissible commands,
        the score and the win. envsuite adds what TextWorld's own gym interface lacks:
        ``reset(seed=...)`` draws the game from the env's generator, the 5-tuple API, a
        per-step reward instead of the cumulative score, a split per game, bad commands
        refused by name, and the walkthrough oracle. The interpreter's random numbers are
        seeded from the env's generator at every reset (TextWorld leaves Jericho's seed to
        the clock), so the same seed gives the same text, rewards and infos.

        Games: a shipped bank of 60 games per difficulty (``datasets/text/textworld/v1``,
        each won by its own walkthrough, remade by ``scripts/build_textworld_bank.py``,
        byte for byte on the machine that made it); the seed picks one of the split's
        games. A game's split is the hash of its story and description, so the splits are
        disjoint: train holds 49-50 games per difficulty, val 2-6, test 5-9 (the counts
        are in the dataset's README). Nothing is
        generated at reset (TextWorld takes 1-2 s a game) unless ``source="generate"``:
        then the env draws a TextWorld seed from its generator (in the split: a generated
        game's split is the hash of its difficulty and seed; the bank's seeds are never
        drawn) and TextWorld's generator makes the game with the bank's options, 1-2 s the
        first time, cached on disk after (see :mod:`.textworld_generated`). Generated games
        are not checked as the bank's are (about one in 180 cannot be won by its own
        walkthrough).

    Observation:
        Text (see the family base for the history modes). The reset observation holds the
        rules, TextWorld's objective and the state: the room's description (TextWorld's
        own text) and what you carry. A step's feedback is TextWorld's reply to the
        command (without its prompt and status line).

    Action:
        A command, any case, articles ignored (``take the latchkey`` is ``take
        latchkey``); ``n``/``north`` for ``go north`` (and the other directions), ``l``,
        ``i``. It must be one of TextWorld's admissible commands now
        (``info["admissible_commands"]``, also ``info["legal_actions"]``, unless
        ``admissible_commands=False``); any other command is refused without reaching
        the game, costs the penalty and a turn, and leaves the game as it was.

    Reward:
        The points the command scored divided by the game's maximum score (TextWorld's
        score rises when a quest is completed; most games have one quest worth one point,
        so winning pays 1.0), ``-invalid_penalty`` for a refused command, 0 otherwise. The
        final info adds ``points`` and ``max_points`` (TextWorld's own score);
        ``score`` is ``points / max_points``.

    Termination:
        Terminated when TextWorld says the game is won (or lost); truncated after
        ``max_turns``. ``optimal_steps`` is the length of TextWorld's walkthrough (the
        generator's quest; TextWorld does not certify it shortest, so ``efficiency`` can
        exceed 1.0 for an agent that finds a shorter way).

    Arguments:
        difficulty: ``"easy"`` (2 rooms, 4 objects, quest length 2, 50 turns),
            ``"medium"`` (5, 10, 5, 100 turns) or ``"hard"`` (10, 20, 10, 200 turns):
            TextWorld's ``nb_rooms``, ``nb_objects`` and ``quest_length``.
        source: ``"bank"`` (the shipped games) or ``"generate"`` (made by TextWorld from
            a seed the env draws; see Description).
        admissible_commands: Whether info lists the admissible commands (default True).
        max_turns: Turns before truncation; None for the difficulty's.
        observation_mode, history, split, invalid_penalty, render_mode: see the family
            base (:class:`~envsuite.families.text.text_game.TextGameEnv`).

    Version history:
        v0: Initial version (bank v1, TextWorld 1.7).
    """

    game_name = "textworld"

    def __init__(
        self,
        *,
        difficulty: str = "medium",
        source: str = "bank",
        admissible_commands: bool = True,
        observation_mode: str = "text",
        history: History = "last",
        max_turns: int | None = None,
        split: Any = "train",
        invalid_penalty: float = 0.1,
        render_mode: str | None = None,
    ) -> None:
        if difficulty not in PRESETS:
            raise ValueError(f"difficulty must be one of {', '.join(PRESETS)}; got {difficulty!r}")
        if source not in ("bank", "generate"):
            raise ValueError(f"source must be 'bank' or 'generate'; got {source!r}")
        if not isinstance(admissible_commands, bool):
            raise ValueError(f"admissible_commands must be a bool; got {admissible_commands!r}")
        self.difficulty = difficulty
        self.source = source
        self.admissible_commands = admissible_commands
        super().__init__(
            observation_mode=observation_mode,
            history=history,
            max_turns=MAX_TURNS[difficulty] if max_turns is None else max_turns,
            split=split,
            invalid_penalty=invalid_penalty,
            render_mode=render_mode,
        )
        self.game: BankGame | None = None
        #: The TextWorld seed the current game was made from (``source="generate"``).
        self.game_seed: int | None = None
        #: TextWorld's walkthrough of the current game (the oracle plays it).
        self.walkthrough: list[str] = []
        #: The commands the game accepted this episode (a pickled copy replays them).
        self.commands: list[str] = []
        self._tw: Any = None
        #: The seed the interpreter's random numbers got at the last reset.
        self.interpreter_seed = 1
        self._state: Any = None
        self._points = 0
        self._max_points = 1
        self._objective = ""

    @classmethod
    def dataset_files(cls, **config: Any) -> list[Any]:
        """The bank archive this configuration reads (none with ``source="generate"``)."""
        if config.get("source", "bank") != "bank":
            return []
        path = archive_file(config.get("difficulty", "medium"))
        if not path.is_file():
            raise FileNotFoundError(f"the TextWorld bank archive {path} is missing")
        return [path]

    # -- drawing the game ----------------------------------------------------------------
    def new_game(self, seed: int | None, options: dict[str, Any] | None) -> None:
        """Draw a game of the split (from the bank, or made by TextWorld) and start it."""
        if self.source == "generate":
            self.game_seed = draw_in_split(
                self.game_name,
                self.split,
                self._draw_new_seed,
                lambda tw_seed: generated_key(self.difficulty, tw_seed),
            )
            game = generated_game(self.difficulty, self.game_seed)
        else:
            games = _split_games(self.difficulty, self.split)
            if not games:
                raise RuntimeError(
                    f"the {self.difficulty} bank has no game in the {self.split} split"
                )
            game = games[int(self.np_random.integers(len(games)))]
        # Jericho's Z-machine seeds its random numbers from the clock unless told (0 too).
        self._start(game, int(self.np_random.integers(1, 2**31)))
        self.walkthrough = list(self._state["extra.walkthrough"])
        self.optimal_steps = len(self.walkthrough)

    def _draw_new_seed(self) -> int:
        """A TextWorld seed from the env's generator, none of the bank's (bounded tries)."""
        for _ in range(100):
            tw_seed = int(self.np_random.integers(2**31))
            if tw_seed not in bank_seeds(self.difficulty):
                return tw_seed
        raise RuntimeError("no TextWorld seed outside the bank's in 100 draws")

    def _start(self, game: BankGame, interpreter_seed: int) -> None:
        """Load ``game`` in TextWorld (unless it is loaded) and reset it."""
        if self._tw is None or self.game is None or self.game.name != game.name:
            self.close()
            infos = textworld.EnvInfos(
                admissible_commands=True,
                description=True,
                inventory=True,
                objective=True,
                max_score=True,
                score=True,
                won=True,
                lost=True,
                extras=["walkthrough"],
            )
            with warnings.catch_warnings():  # Jericho: "not fully supported" (no bindings)
                warnings.simplefilter("ignore", UnsupportedGameWarning)
                self._tw = textworld.start(str(game.story), infos)
        self.game = game
        self.interpreter_seed = interpreter_seed
        self._tw.seed(interpreter_seed)
        self._state = self._tw.reset()
        self._points = 0
        self._max_points = max(1, int(self._state["max_score"]))
        self._objective = str(self._state["objective"])
        self.commands = []

    def instance_key(self) -> str:
        """sha256 of the game's story file and description."""
        assert self.game is not None, "call reset() first"
        return self.game.key

    # -- text ----------------------------------------------------------------------------
    def instructions(self) -> str:
        """The rules and TextWorld's objective."""
        listed = (
            " info['admissible_commands'] lists the commands that make sense now."
            if self.admissible_commands
            else ""
        )
        return (
            "You are playing a text adventure made by TextWorld. "
            + self._objective
            + "\n"
            + _EXAMPLES
            + listed
            + " A command that cannot be done here costs a turn and "
            f"{self.invalid_penalty:g} points; completing the quest pays 1. {GRAMMAR_HELP}"
        )

    def state_text(self) -> str:
        """The room's description and what you carry, as TextWorld writes them."""
        if self._state is None:
            return ""
        description = clean_feedback(str(self._state["description"] or ""))
        return description + "\n\n" + clean_feedback(str(self._state["inventory"] or ""))

    def legal_moves(self) -> list[str] | None:
        """TextWorld's admissible commands (None when ``admissible_commands=False``)."""
        if not self.admissible_commands or self._state is None:
            return None
        return list(self._state["admissible_commands"])

    def step_info(self, info: dict[str, Any]) -> dict[str, Any]:
        """``admissible_commands``: TextWorld's name for the legal actions, where listed."""
        if "legal_actions" in info:
            return {"admissible_commands": info["legal_actions"]}
        return {}

    # -- playing -------------------------------------------------------------------------
    def parse_move(self, answer: str) -> str:
        """The admissible command ``answer`` names, or InvalidAction."""
        typed = _words(answer)
        if not typed:
            raise InvalidAction("empty command; " + _EXAMPLES)
        typed = ALIASES.get(typed, typed)
        if typed.startswith("x "):
            typed = "examine " + typed[2:]
        for command in self._state["admissible_commands"]:
            if _words(command) == typed:
                return str(command)
        raise InvalidAction(f"{answer.strip()[:60]!r} cannot be done here; " + _EXAMPLES)

    def play(self, move: str) -> MoveResult:
        """Send the command to TextWorld; the reward is the score it gained, normalised."""
        self._state, points, _ = self._tw.step(move)
        self.commands.append(move)
        gained = int(points) - self._points
        self._points = int(points)
        won, lost = bool(self._state["won"]), bool(self._state["lost"])
        feedback = clean_feedback(str(self._state.feedback)) or "Nothing happens."
        return MoveResult(feedback, gained / self._max_points, won or lost, won)

    # -- the end -------------------------------------------------------------------------
    def score(self, success: bool) -> float:
        """1.0 for a win, else the points scored over the maximum."""
        return 1.0 if success else min(1.0, max(0.0, self._points / self._max_points))

    def final_info(self) -> dict[str, Any]:
        """TextWorld's own score and its maximum."""
        return {"points": self._points, "max_points": self._max_points}

    def close(self) -> None:
        """Stop TextWorld's interpreter."""
        if self._tw is not None:
            self._tw.close()
            self._tw = None
        super().close()

    # -- pickling: TextWorld's interpreter is rebuilt and the accepted commands replayed --
    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state.update(_tw=None, _state=None)
        state["game"] = None if self.game is None else self.game.name
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        name, commands = state["game"], list(state["commands"])
        self.__dict__.update(state)
        self.game = None
        if name is None:
            return
        if self.game_seed is not None and self.source == "generate":
            game = generated_game(self.difficulty, self.game_seed)
        else:
            game = next(g for g in load_bank(self.difficulty) if g.name == name)
        points = self._points
        self._start(game, self.interpreter_seed)
        for command in commands:
            self._state, _, _ = self._tw.step(command)
        self.commands, self._points = commands, points
