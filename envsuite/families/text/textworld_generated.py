"""TextWorld-v0's ``source="generate"``: a game made by TextWorld's generator at reset, cached.

The env draws a TextWorld seed from its generator (in its split: the split of a generated
game is the hash of ``generated/<difficulty>/<seed>``, drawn before anything is made);
TextWorld's generator (``make_game`` + ``compile_game``, the bank's options, see
:func:`~.textworld_bank.game_options`) makes the game from that seed, which takes 1-2 s;
the story file and description are then kept in ``<tmp>/envsuite-textworld-generated``
(``$ENVSUITE_TEXTWORLD_CACHE`` overrides it), so the same seed costs a load, not a
generation, the next time. Unlike the bank's games, a generated game is not checked: one
seed in about 180 makes a game its own walkthrough does not win (see the dataset's
README).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from envsuite.families.text.textworld_bank import BankGame, game_options

#: Overrides where generated games are kept.
CACHE_VARIABLE = "ENVSUITE_TEXTWORLD_CACHE"


def cache_folder() -> Path:
    """Where generated games are kept (made if missing)."""
    configured = os.environ.get(CACHE_VARIABLE)
    folder = (
        Path(configured)
        if configured
        else Path(tempfile.gettempdir()) / "envsuite-textworld-generated"
    )
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def generated_key(difficulty: str, seed: int) -> str:
    """The split key of the game TextWorld makes from ``seed`` at ``difficulty``."""
    return f"generated/{difficulty}/{seed}"


def generated_game(difficulty: str, seed: int) -> BankGame:
    """The game TextWorld's generator makes from ``seed`` (made now unless cached)."""
    from textworld.generator import compile_game, make_game

    name = f"{difficulty}-seed{seed}"
    story = cache_folder() / f"{name}.z8"
    if not story.is_file():
        with tempfile.TemporaryDirectory(dir=story.parent) as scratch:
            options = game_options(difficulty, seed, str(Path(scratch) / f"{name}.z8"))
            made = Path(compile_game(make_game(options), options))
            # The description first: a reader takes the story file's presence as "done".
            os.replace(made.with_suffix(".json"), story.with_suffix(".json"))
            os.replace(made, story)
    return BankGame(name, story, generated_key(difficulty, seed))
