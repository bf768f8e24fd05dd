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
        description="No-guess Minesweeper (boards certified by a constraint solver); "
        "presets and densities; logical oracle.",
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
