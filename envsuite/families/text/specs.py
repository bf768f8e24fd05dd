"""Registry entries of the text family (imports nothing heavy)."""

from envsuite.registry import EnvSpec, register

_PACKAGE = "envsuite.families.text"

#: The specs of the family, registered below; one per game.
TEXT_SPECS: list[EnvSpec] = []


def _register(spec: EnvSpec) -> None:
    TEXT_SPECS.append(spec)
    register(spec)


_register(
    EnvSpec(
        id="envsuite/Wordle-v0",
        entry_point=f"{_PACKAGE}.wordle:WordleEnv",
        family="text",
        api="gymnasium",
        description="Wordle on SCOWL word lists (4-7 letters, hard mode); text or vector.",
        oracle=f"{_PACKAGE}.wordle_oracle:wordle_oracle",
        # Every 5-letter answer is won (tests/families/text/test_wordle_solver.py); the
        # bar here also covers the hard-mode and 4-letter variants, where a few are lost.
        oracle_success=0.9,
        test_variants=(
            {"observation_mode": "vector"},
            {"hard_mode": True, "history": "full"},
            {"word_length": 4, "history": "summary", "split": "test"},
            {"observation_mode": "vector", "hard_mode": True, "word_length": 6},
        ),
    )
)


_register(
    EnvSpec(
        id="envsuite/Hangman-v0",
        entry_point=f"{_PACKAGE}.hangman:HangmanEnv",
        family="text",
        api="gymnasium",
        description="Hangman on SCOWL word lists (4-7 letters, lives); text or vector.",
        oracle=f"{_PACKAGE}.hangman_oracle:hangman_oracle",
        # Candidate filtering wins about 87% of words with 6 lives (61% of 4-letter ones).
        oracle_success=0.7,
        test_variants=(
            {"observation_mode": "vector"},
            {"word_length": 7, "history": "full"},
            {"word_length": 5, "lives": 8, "history": "summary", "split": "test"},
            {"observation_mode": "vector", "word_length": 6, "lives": 10},
        ),
    )
)


_register(
    EnvSpec(
        id="envsuite/Maze-v0",
        entry_point=f"{_PACKAGE}.maze:MazeEnv",
        family="text",
        api="gymnasium",
        description="Procedural perfect or braided mazes, full or local view; BFS oracle.",
        oracle=f"{_PACKAGE}.maze_oracle:maze_oracle",
        oracle_success=1.0,
        test_kwargs={"width": 5, "height": 5},
        test_variants=(
            {"observation_mode": "vector"},
            {"observation_mode": "vector", "view_radius": 2, "braid": 0.5},
            {"view_radius": 1, "history": "summary"},
            {"history": "full", "braid": 1.0, "width": 4, "height": 3},
        ),
    )
)

_register(
    EnvSpec(
        id="envsuite/Mastermind-v0",
        entry_point=f"{_PACKAGE}.mastermind:MastermindEnv",
        family="text",
        api="gymnasium",
        description="Mastermind: code length, colours, repeats; (black, white) feedback; "
        "Knuth minimax oracle.",
        oracle=f"{_PACKAGE}.mastermind_oracle:mastermind_oracle",
        oracle_success=1.0,
        test_kwargs={},
        test_variants=(
            {"observation_mode": "vector"},
            {"repeats": False, "history": "summary"},
            {"code_length": 3, "num_colours": 5, "history": "full", "max_guesses": 6},
            {"observation_mode": "vector", "code_length": 5, "num_colours": 4},
        ),
    )
)

_register(
    EnvSpec(
        id="envsuite/Minesweeper-v0",
        entry_point=f"{_PACKAGE}.minesweeper:MinesweeperEnv",
        family="text",
        api="gymnasium",
        description="No-guess Minesweeper (solver-certified boards); presets; logic oracle.",
        oracle=f"{_PACKAGE}.minesweeper_oracle:minesweeper_oracle",
        oracle_success=1.0,
        test_kwargs={},
        test_variants=(
            {"observation_mode": "vector"},
            {"rows": 6, "cols": 7, "mines": 6, "history": "summary"},
            {"observation_mode": "vector", "preset": "intermediate"},
            {"rows": 5, "cols": 8, "density": 0.15, "history": "full"},
        ),
    )
)


_register(
    EnvSpec(
        id="envsuite/Sudoku-v0",
        entry_point=f"{_PACKAGE}.sudoku:SudokuEnv",
        family="text",
        api="gymnasium",
        description="Unique-solution Sudoku (4x4/6x6/9x9) graded by givens and technique; "
        "cell by cell or the whole grid.",
        oracle=f"{_PACKAGE}.sudoku_oracle:sudoku_oracle",
        oracle_success=1.0,
        max_episode_steps=None,
        test_kwargs={},
        test_variants=(
            {"observation_mode": "vector"},
            {"mode": "single", "history": "full", "max_turns": 2},
            {"difficulty": "hard", "history": "summary"},
            {"size": 4, "difficulty": "medium", "history": "full"},
            {"size": 6, "source": "generate", "split": "test"},
            {"size": 9, "difficulty": "medium", "observation_mode": "vector", "split": "val"},
        ),
    )
)

_register(
    EnvSpec(
        id="envsuite/Sokoban-v0",
        entry_point=f"{_PACKAGE}.sokoban:SokobanEnv",
        family="text",
        api="gymnasium",
        description="Generated Sokoban levels certified by an exact solver (optimal moves and "
        "pushes); text/grid.",
        oracle=f"{_PACKAGE}.sokoban_oracle:sokoban_oracle",
        oracle_success=1.0,
        max_episode_steps=None,
        test_kwargs={},
        test_variants=(
            {"observation_mode": "vector"},
            {"history": "summary", "end_on_deadlock": False},
            {"history": "full", "width": 6, "height": 6, "num_boxes": 1, "split": "test"},
            {"observation_mode": "vector", "width": 8, "height": 8, "num_boxes": 3},
        ),
    )
)


_register(
    EnvSpec(
        id="envsuite/ChessEndgame-v0",
        entry_point=f"{_PACKAGE}.chess_endgame:ChessEndgameEnv",
        family="text",
        api="gymnasium",
        description="Mate with K+Q, K+R or K+P against a tablebase-perfect bare king; SAN/UCI.",
        extra="text",
        max_episode_steps=None,
        oracle=f"{_PACKAGE}.chess_endgame_oracle:chess_endgame_oracle",
        oracle_success=1.0,
        test_kwargs={"max_turns": 40},
        test_variants=(
            {"observation_mode": "vector"},
            {"endgame": "KPK", "colour": "black", "history": "summary"},
            {"endgame": "KRK", "colour": "either", "history": "full", "list_moves": False},
            {"observation_mode": "vector", "endgame": "KPK", "colour": "black"},
            {"endgame": "KQK", "max_dtm": 2, "split": "test"},
        ),
    )
)


_register(
    EnvSpec(
        id="envsuite/TwentyQuestions-v0",
        entry_point=f"{_PACKAGE}.twenty_questions:TwentyQuestionsEnv",
        family="text",
        api="gymnasium",
        description="Twenty questions over 506 shipped objects; exact table answerer; "
        "info-gain oracle; text or vector.",
        oracle=f"{_PACKAGE}.twenty_questions_oracle:twenty_questions_oracle",
        # Every object is named within 20 turns (tests/families/text/test_twenty_questions.py).
        oracle_success=1.0,
        max_episode_steps=None,
        test_kwargs={},
        test_variants=(
            {"observation_mode": "vector"},
            {"history": "full"},
            {"history": "summary", "split": "test"},
            {"observation_mode": "vector", "max_turns": 12, "split": "val"},
            {"max_turns": 12, "split": "val", "invalid_penalty": 0.0},
        ),
    )
)


_register(
    EnvSpec(
        id="envsuite/GuessMyCity-v0",
        entry_point=f"{_PACKAGE}.guess_my_city:GuessMyCityEnv",
        family="text",
        api="gymnasium",
        description="Guess a GeoNames city (380) by yes/no questions; exact answerer; "
        "info-gain oracle; text or vector.",
        oracle=f"{_PACKAGE}.guess_my_city_oracle:guess_my_city_oracle",
        # Every city is named within 20 turns (tests/families/text/test_guess_my_city.py).
        oracle_success=1.0,
        max_episode_steps=None,
        test_kwargs={},
        test_variants=(
            {"observation_mode": "vector"},
            {"history": "full"},
            {"history": "summary", "split": "test"},
            {"observation_mode": "vector", "max_turns": 12, "split": "val"},
            {"max_turns": 12, "split": "val", "invalid_penalty": 0.0},
        ),
    )
)


_register(
    EnvSpec(
        id="envsuite/TextQuest-v0",
        entry_point=f"{_PACKAGE}.text_quest:TextQuestEnv",
        family="text",
        api="gymnasium",
        description="Generated text-adventure quests (doors, keys, containers, recipes); "
        "certified shortest walkthrough.",
        oracle=f"{_PACKAGE}.text_quest_oracle:text_quest_oracle",
        oracle_success=1.0,
        max_episode_steps=None,
        test_kwargs={},
        test_variants=(
            {"difficulty": "easy", "history": "summary"},
            {"difficulty": "hard", "history": "full", "split": "test"},
            {"admissible_commands": False, "split": "val"},
            {"num_rooms": 2, "quest_length": 3, "num_locks": 2, "subgoal_reward": 0.0},
        ),
    )
)


_register(
    EnvSpec(
        id="envsuite/TextWorld-v0",
        entry_point=f"{_PACKAGE}.textworld_game:TextWorldEnv",
        family="text",
        api="gymnasium",
        description="Games TextWorld's generator made, played by TextWorld; per-step reward; "
        "walkthrough oracle.",
        extra="textworld",
        oracle=f"{_PACKAGE}.textworld_oracle:textworld_oracle",
        # The walkthrough wins every bank game (scripts/build_textworld_bank.py --verify).
        oracle_success=1.0,
        max_episode_steps=None,
        test_kwargs={"difficulty": "easy"},
        test_variants=(
            {"history": "summary", "split": "val"},
            {"difficulty": "medium", "history": "full", "split": "test"},
            {"admissible_commands": False, "max_turns": 5},
        ),
    )
)


_register(
    EnvSpec(
        id="envsuite/KuhnPoker-v0",
        entry_point=f"{_PACKAGE}.poker:KuhnPokerEnv",
        family="text",
        api="aec",
        description="Kuhn poker, two-player (AEC); CFR+ equilibrium oracle; text or vector.",
        oracle=f"{_PACKAGE}.poker_oracle:poker_oracle",
        # success is a hand played out without a forfeit (the oracle never forfeits).
        oracle_success=1.0,
        test_variants=(
            {"observation_mode": "vector"},
            {"invalid_move_penalty": 0.5, "max_invalid_moves": 0},
        ),
    )
)

_register(
    EnvSpec(
        id="envsuite/LeducHoldem-v0",
        entry_point=f"{_PACKAGE}.poker:LeducHoldemEnv",
        family="text",
        api="aec",
        description="Leduc hold'em, two-player (AEC); CFR+ equilibrium oracle; text or vector.",
        oracle=f"{_PACKAGE}.poker_oracle:poker_oracle",
        oracle_success=1.0,
        test_variants=(
            {"observation_mode": "vector"},
            {"invalid_move_penalty": 0.5, "max_invalid_moves": 0},
        ),
    )
)


_register(
    EnvSpec(
        id="envsuite/ConnectFour-v0",
        entry_point=f"{_PACKAGE}.connect_four:ConnectFourEnv",
        family="text",
        api="aec",
        description="Connect Four, two-player (AEC), any board to 9 x 9; text or vector planes.",
        oracle=f"{_PACKAGE}.connect_four_oracle:connect_four_oracle",
        # Perfect play on boards of at most 20 cells: self-play ends as the solver predicts.
        oracle_success=1.0,
        test_kwargs={"rows": 4, "cols": 5, "random_opening_moves": 4},
        test_variants=(
            {"rows": 4, "cols": 5, "random_opening_moves": 4, "observation_mode": "vector"},
            {"rows": 4, "cols": 4, "random_opening_moves": 2, "split": "test"},
            {"rows": 3, "cols": 5, "connect": 3, "random_opening_moves": 1},
            # No opening (the default): the only start that draws nothing at reset.
            {"rows": 3, "cols": 5, "connect": 3, "random_opening_moves": 0},
        ),
    )
)

_register(
    EnvSpec(
        id="envsuite/Negotiation-v0",
        entry_point=f"{_PACKAGE}.negotiation:NegotiationEnv",
        family="text",
        api="gymnasium",
        description="Car-dealer negotiation (LMRL-Gym's task): a scripted dealer, a private floor.",
        oracle=f"{_PACKAGE}.negotiation_oracle:negotiation_oracle",
        # The best response always makes a deal (at the lowest price any buyer can get).
        oracle_success=1.0,
        test_variants=(
            {"observation_mode": "vector"},
            {"rounds": 3, "history": "full"},
            {"rounds": 1, "history": "summary", "split": "test"},
            {"rounds": 2, "observation_mode": "vector", "split": "val"},
        ),
    )
)
