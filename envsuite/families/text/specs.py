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
