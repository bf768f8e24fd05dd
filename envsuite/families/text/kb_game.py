"""The env both question games share: TwentyQuestions-v0 and GuessMyCity-v0.

A subclass names its knowledge base (:meth:`KnowledgeGameEnv.knowledge_base`), its data
files and its grammar's help text; this class does the rest (see the games' docstrings).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces

from envsuite.action_parsing import parse_index
from envsuite.families.text.answer_grammar import GRAMMAR_HELP
from envsuite.families.text.kb_answerer import ChatAnswerer, parse_answerer
from envsuite.families.text.kb_questions import KnowledgeBase, QuestionGame, fold, kb_folder
from envsuite.families.text.splits import Split, split_members
from envsuite.families.text.text_game import History, InvalidAction, MoveResult, TextGameEnv

#: Longest question read, in characters (a longer one is malformed).
MAX_QUESTION = 200
#: A move: ("question", Question), ("guess", item), ("free", folded text).
Move = tuple[str, Any]
CANNOT = "I cannot answer that."


class KnowledgeGameEnv(TextGameEnv[Move]):
    """Ask yes/no questions about a secret item of a knowledge base, then name it."""

    observation_modes = ("text", "vector")

    #: The dataset folder (``datasets/text/<kb_name>/v1``) and its files.
    kb_name: ClassVar[str] = ""
    kb_files: ClassVar[tuple[str, ...]] = ()
    #: The grammar, as the instructions state it.
    grammar_help: ClassVar[str] = ""

    def __init__(
        self,
        *,
        answerer: str = "grammar",
        answerer_base_url: str = "http://localhost:8000/v1",
        answerer_timeout: float = 30.0,
        observation_mode: str = "text",
        history: History = "last",
        max_turns: int = 20,
        split: Split = "train",
        invalid_penalty: float = 0.1,
        render_mode: str | None = None,
    ) -> None:
        model = parse_answerer(answerer)
        if not isinstance(answerer_timeout, int | float) or not 0 < answerer_timeout <= 600:
            raise ValueError(f"answerer_timeout must be in (0, 600]; got {answerer_timeout!r}")
        self.answerer = answerer
        self.chat = (
            None if model is None else ChatAnswerer(model, answerer_base_url, answerer_timeout)
        )
        self.kb = self.knowledge_base()
        super().__init__(
            observation_mode=observation_mode,
            history=history,
            max_turns=max_turns,
            split=split,
            invalid_penalty=invalid_penalty,
            render_mode=render_mode,
        )
        self.items = [
            self.kb.index[fold(name)]
            for name in split_members(self.game_name, self.kb.names, self.split)
        ]
        self.game = QuestionGame(self.kb, self.items[0])
        self._log: list[str] = []
        self._question_text = ""

    def knowledge_base(self) -> KnowledgeBase:
        """The game's knowledge base."""
        raise NotImplementedError

    @classmethod
    def dataset_files(cls, **config: Any) -> list[Path]:
        """The knowledge base's tables."""
        return [kb_folder(cls.kb_name) / name for name in cls.kb_files]

    # -- the game's hooks --------------------------------------------------------------
    def new_game(self, seed: int | None, options: dict[str, Any] | None) -> None:
        """Draw the secret from the split (or take ``options["item"]``, any split)."""
        chosen = (options or {}).get("item")
        if chosen is None:
            secret = self.items[int(self.np_random.integers(len(self.items)))]
        else:
            found = self.kb.index.get(fold(chosen)) if isinstance(chosen, str) else None
            if found is None:
                raise ValueError(
                    f"options['item'] must name a {self.kb.noun} of the table; got {chosen!r}"
                )
            secret = found
        self.game = QuestionGame(self.kb, secret)
        self._log = []

    def instance_key(self) -> str:
        """The secret's name (splits hash it)."""
        return self.kb.names[self.game.secret]

    def instructions(self) -> str:
        """The rules and the question grammar."""
        noun = self.kb.noun
        return (
            f"I am thinking of {'an' if noun[0] in 'aeiou' else 'a'} {noun} from a list of "
            f"{len(self.kb.names)} {self.kb.nouns}. Find it "
            f"by asking yes/no questions, then name it. You have {self.max_turns} turns; every "
            f"question and every guess is a turn. Say the {noun}'s name (or 'Is it <name>?') "
            "to guess: right wins, wrong costs the turn. I answer these questions exactly: "
            f"{self.grammar_help} Does its name start with the letter X? / contain the letter "
            "X? / have more than N letters? "
            + (
                "Other questions are answered by a language model when it can."
                if self.chat is not None
                else "Anything else gets 'I cannot answer that.' and costs the turn."
            )
            + " Asking the same question twice is refused, and so is a single word that is "
            f"not a {noun} of the list. One question per turn. " + GRAMMAR_HELP
        )

    def state_text(self) -> str:
        """The questions so far and their answers."""
        head = f"Turn {self.turns} of {self.max_turns}."
        if not self._log:
            return head + " No questions asked yet."
        text = head + " Asked so far:\n" + "\n".join(self._log)
        if self.turns >= self.max_turns and not self.game.found:
            text += f"\nOut of turns: it was {self.kb.names[self.game.secret]}."
        return text

    def parse_move(self, answer: str) -> Move:
        """A grammar question, a guess or a free-form question; repeats are refused."""
        if len(answer) > MAX_QUESTION:
            raise InvalidAction(f"a question is at most {MAX_QUESTION} characters")
        folded = fold(answer)
        if not any(c.isalpha() for c in folded):
            raise InvalidAction("a question needs words (letters a-z)")
        kind, payload = self.kb.parse(answer)
        if kind == "unknown" and " " not in folded:
            raise InvalidAction(
                f"{folded!r} is neither a question nor a {self.kb.noun} of the list; ask a "
                f"question of several words or name a {self.kb.noun}"
            )
        move: Move = ("free", folded) if kind == "unknown" else (kind, payload)
        self._question_text = answer
        reason = self.game.refusal(*move)
        if reason is not None:
            raise InvalidAction(reason)
        return move

    def play(self, move: Move) -> MoveResult:
        """Answer a question or judge a guess."""
        kind, payload = move
        game = self.game
        if kind == "guess":
            name = self.kb.names[payload]
            if game.guess(payload):
                self._log.append(f"{self.turns}. Is it {name}? yes, found")
                return MoveResult(f"Yes! It is {name}.", 1.0, True, True)
            said = f"No, it is not {name}."
            self._log.append(f"{self.turns}. Is it {name}? no")
        elif kind == "question":
            said = "Yes." if game.ask(payload) else "No."
            self._log.append(f"{self.turns}. {self.kb.describe(payload)} {said[:-1].lower()}")
        else:
            reply = None
            if self.chat is not None:
                card = self.kb.card(game.secret)
                reply = self.chat.answer(self.kb.noun, card, self._question_text)
            game.free[payload] = reply or "cannot"
            said = CANNOT if reply is None else reply.capitalize() + "."
            self._log.append(f"{self.turns}. {payload}? {said[:-1].lower()}")
        if self.turns >= self.max_turns:
            said += f" Out of turns: it was {self.kb.names[game.secret]}."
        return MoveResult(said)

    def final_info(self) -> dict[str, Any]:
        """Questions that the grammar could not answer."""
        return {"unanswerable_questions": sum(v == "cannot" for v in self.game.free.values())}

    # -- vector mode -------------------------------------------------------------------
    def vector_spaces(self) -> tuple[spaces.Space[Any], spaces.Space[Any]]:
        """Answers so far (questions, then items, then turns used) and one action each."""
        questions, items = len(self.kb.question_list), len(self.kb.names)
        size = questions + items + 1
        return spaces.Box(-1.0, 1.0, (size,), np.float32), spaces.Discrete(questions + items)

    def vector_observation(self) -> np.ndarray:
        """1 / -1 for each question answered yes / no, -1 for each item guessed wrong."""
        kb, game = self.kb, self.game
        questions = len(kb.question_list)
        out = np.zeros(questions + len(kb.names) + 1, dtype=np.float32)
        number = kb.question_number
        for question, answer in game.answered.items():
            out[number[question]] = 1.0 if answer else -1.0
        for item in game.guesses:
            out[questions + item] = 1.0 if item == game.secret else -1.0
        out[-1] = min(self.turns / self.max_turns, 1.0)
        return out

    def parse_vector_move(self, action: Any) -> Move:
        """A question's position, or the number of questions plus an item's."""
        questions = len(self.kb.question_list)
        index = parse_index(action, questions + len(self.kb.names), "question or item")
        move: Move = (
            ("question", self.kb.question_list[index])
            if index < questions
            else ("guess", index - questions)
        )
        reason = self.game.refusal(*move)
        if reason is not None:
            raise InvalidAction(reason)
        return move

    def legal_move_mask(self) -> np.ndarray:
        """1 for every question not asked and every item not guessed."""
        kb, game = self.kb, self.game
        questions = len(kb.question_list)
        mask = np.ones(questions + len(kb.names), dtype=np.int8)
        number = kb.question_number
        for question in game.answered:
            mask[number[question]] = 0
        for item in game.guesses:
            mask[questions + item] = 0
        return mask
