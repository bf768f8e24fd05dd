"""``envsuite leaderboard render``: README tables for every board and the static site."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from envsuite.leaderboard.layout import (
    README_FILE,
    list_boards,
    list_versions,
    version_dir,
)
from envsuite.leaderboard.render_markdown import (
    END,
    START,
    board_readme_block,
    replace_block,
    write_board_readme,
)
from envsuite.leaderboard.render_site import render_site, status
from envsuite.leaderboard.standings import Standings, board_standings
from envsuite.leaderboard.verify import ReplayMode


@dataclass(frozen=True)
class RenderResult:
    """What a render wrote.

    Attributes:
        readmes: The README files written (one per board, plus the index).
        site_index: The site's ``index.html`` (None when no site was asked for).
        standings: Every board version, ranked.
    """

    readmes: list[Path]
    site_index: Path | None
    standings: list[Standings]


def index_block(all_standings: list[Standings]) -> str:
    """The generated block of ``leaderboards/README.md``: one row per board version."""
    lines = [
        START,
        "",
        "| board | version | status | ranked by | entries | leader |",
        "|---|---|---|---|---|---|",
    ]
    for standings in sorted(all_standings, key=lambda s: (s.board.name, -s.board.version)):
        board = standings.board
        leader = standings.rows[0].report.meta.name if standings.rows else "-"
        lines.append(
            f"| [{board.settings.title}]({board.name}/README.md) | v{board.version} | "
            f"{status(standings)} | {board.settings.ranking.metric} | {len(standings.rows)} | "
            f"{leader} |"
        )
    return "\n".join([*lines, "", END])


def render_all(
    root: Path,
    site: Path | None,
    *,
    replay: ReplayMode = "none",
    on_entry: Callable[[Path], None] | None = None,
) -> RenderResult:
    """Verify and rank every board version under ``root``; write READMEs and the site.

    Raises:
        SubmissionRejected: a submission fails verification.
    """
    everything: list[Standings] = []
    readmes = []
    for board in list_boards(root):
        versions = [
            board_standings(version_dir(root, board, number), replay=replay, on_entry=on_entry)
            for number in list_versions(root, board)
        ]
        everything.extend(versions)
        newest = versions[-1].board.settings
        readmes.append(
            write_board_readme(
                root / board, newest.title, newest.description, board_readme_block(versions)
            )
        )
    index = root / README_FILE
    text = index.read_text(encoding="utf-8") if index.is_file() else "# Leaderboards\n"
    index.write_text(replace_block(text, index_block(everything)), encoding="utf-8")
    readmes.append(index)
    site_index = render_site(everything, site) if site is not None else None
    return RenderResult(readmes, site_index, everything)
