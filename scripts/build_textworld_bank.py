#!/usr/bin/env python3
"""Build, check or verify TextWorld-v0's game bank (``datasets/text/textworld/v1``).

Every game is made by TextWorld's own generator (``textworld.generator.make_game`` and
``compile_game``, Inform 7 as TextWorld ships it) from the seed and options of
:mod:`envsuite.families.text.textworld_bank`; the story file's serial number (the compile
date) is set to ``000000``; each difficulty's games go into one reproducible ``.tar.xz``
and the ``MANIFEST`` lists the archives' sha256.

    python scripts/build_textworld_bank.py                 # build every difficulty
    python scripts/build_textworld_bank.py --check         # remake; compare byte for byte
    python scripts/build_textworld_bank.py --check --first 3   # remake 3 games a difficulty
    python scripts/build_textworld_bank.py --verify        # the walkthrough wins every game

Needs ``pip install -e ".[textworld]"``; no network.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import tempfile
from pathlib import Path

from envsuite.families.text.textworld_bank import (
    BANK_SIZE,
    MANIFEST,
    PRESETS,
    archive_file,
    bank_folder,
    fix_description,
    fix_serial,
    game_name,
    game_options,
    game_seed,
    load_bank,
    pack,
    unpack,
)


def make_members(difficulty: str, count: int) -> dict[str, bytes]:
    """The archive members (``.z8`` and ``.json``) of the first ``count`` games of ``difficulty``.

    Game ``i`` of the bank is the ``i``-th seed (``game_seed(difficulty, 0, 1, ...)``)
    whose walkthrough wins when TextWorld plays it; seeds whose walkthrough does not win
    (TextWorld's Inform 7 parser sometimes asks "Which do you mean, the type L box or the
    box?" on a command its own walkthrough gives) are skipped and named on stderr.
    """
    from textworld.generator import compile_game, make_game

    members: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory() as folder:
        seed_index = 0
        while len(members) < 2 * count:
            name = game_name(difficulty, len(members) // 2)
            seed = game_seed(difficulty, seed_index)
            options = game_options(difficulty, seed, str(Path(folder) / f"{name}.z8"))
            story = Path(compile_game(make_game(options), options))
            if walkthrough_wins(story):
                members[f"{name}.z8"] = fix_serial(story.read_bytes())
                members[f"{name}.json"] = fix_description(story.with_suffix(".json").read_bytes())
                print(f"  {name}: seed index {seed_index}", file=sys.stderr, flush=True)
            else:
                print(f"  seed index {seed_index}: walkthrough does not win", file=sys.stderr)
            seed_index += 1
            if seed_index > 4 * count:
                raise RuntimeError(f"{difficulty}: too many games whose walkthrough fails")
    return members


def walkthrough_wins(story: Path) -> bool:
    """Whether TextWorld's walkthrough of the game ``story`` wins with the maximum score."""
    import textworld

    infos = textworld.EnvInfos(extras=["walkthrough"], won=True, max_score=True)
    env = textworld.start(str(story), infos)
    try:
        state = env.reset()
        score = 0
        for command in state["extra.walkthrough"]:
            state, score, _ = env.step(command)
        return bool(state["won"]) and score == state["max_score"]
    finally:
        env.close()


def build(difficulties: list[str]) -> None:
    """Write the archives of ``difficulties`` and rewrite the MANIFEST."""
    bank_folder().mkdir(parents=True, exist_ok=True)
    for difficulty in difficulties:
        archive_file(difficulty).write_bytes(pack(make_members(difficulty, BANK_SIZE)))
        print(f"{archive_file(difficulty)}: {BANK_SIZE} games")
    lines = []
    for difficulty in PRESETS:
        path = archive_file(difficulty)
        if path.is_file():
            lines.append(f"{hashlib.sha256(path.read_bytes()).hexdigest()}  {path.name}")
    (bank_folder() / MANIFEST).write_text("\n".join(lines) + "\n", encoding="ascii")


def check(difficulties: list[str], first: int | None) -> bool:
    """Remake the bank (or its first games) and compare it with the shipped one."""
    same = True
    for difficulty in difficulties:
        shipped = archive_file(difficulty).read_bytes()
        count = BANK_SIZE if first is None else min(first, BANK_SIZE)
        remade = make_members(difficulty, count)
        if first is None:
            ok = pack(remade) == shipped
        else:
            members = unpack(shipped)
            ok = all(members.get(name) == data for name, data in remade.items())
        same = same and ok
        what = "archive" if first is None else f"first {count} games"
        print(f"{difficulty}: {what} {'remade identically' if ok else 'DIFFERS'}")
    return same


def verify(difficulties: list[str]) -> bool:
    """Play each shipped game's walkthrough with TextWorld itself; every one must win."""
    import textworld

    all_won = True
    for difficulty in difficulties:
        lengths = []
        for game in load_bank(difficulty):
            won = walkthrough_wins(game.story)
            if not won:
                print(f"{game.name}: the walkthrough does NOT win")
            all_won = all_won and won
            description = textworld.Game.load(str(game.story.with_suffix(".json")))
            lengths.append(len(description.metadata["walkthrough"]))
        print(
            f"{difficulty}: {len(lengths)} games, walkthrough {min(lengths)}-{max(lengths)} "
            f"commands (mean {sum(lengths) / len(lengths):.1f})"
        )
    return all_won


def main(argv: list[str] | None = None) -> int:
    """Build, check or verify the bank; exit status 1 when a check or verification fails."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--difficulty", choices=sorted(PRESETS))
    parser.add_argument("--check", action="store_true", help="remake and compare")
    parser.add_argument("--first", type=int, help="with --check: only the first N games")
    parser.add_argument("--verify", action="store_true", help="play every walkthrough")
    args = parser.parse_args(argv)
    difficulties = [args.difficulty] if args.difficulty else list(PRESETS)
    if args.verify:
        return 0 if verify(difficulties) else 1
    if args.check:
        return 0 if check(difficulties, args.first) else 1
    build(difficulties)
    return 0


if __name__ == "__main__":
    sys.exit(main())
