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
