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
