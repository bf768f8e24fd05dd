"""The static HTML site: an index of boards and a page per board version (jinja2).

Each version page shows the standings table, the interval plots (PNG), the per-task
breakdown, the pinned envs and the known issues, and links to every submission's raw files,
which are copied next to the page so the site works on its own (e.g. on GitHub Pages).
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from envsuite.errors import EnvsuiteError
from envsuite.jsonable import canonical_json
from envsuite.leaderboard import formatting as fmt
from envsuite.leaderboard.layout import (
    BOARD_FILE,
    KNOWN_ISSUES_FILE,
    PROTOCOL_FILE,
    SUBMISSIONS_DIR,
)
from envsuite.leaderboard.panel import PANEL_FILE
from envsuite.leaderboard.standings import Standings

TEMPLATES = Path(__file__).parent / "templates"
#: Hex digits of a spec hash the pinned-env table shows (all 64 are in its title).
HASH_DIGITS = 12


#: Characters after which a long identifier may break across lines in a table cell.
BREAK_AFTER = frozenset("._:,/")


def breakable(text: str) -> str:
    """``text`` escaped for HTML, with a ``<wbr>`` after each of :data:`BREAK_AFTER`.

    Agent strings (``package.module:Class``), kwargs JSON and file paths have no spaces; a
    table cell can then wrap them between their parts instead of growing past the window
    (or breaking them at an arbitrary letter).
    """
    from markupsafe import Markup, escape

    parts = [escape(char) + (Markup("<wbr>") if char in BREAK_AFTER else "") for char in text]
    return Markup("").join(parts)


def interval_cell(text: str) -> dict[str, str]:
    """Split ``estimate [low, high]`` so the page wraps a cell between the two, not inside."""
    estimate, bracket, rest = text.partition(" [")
    return {"estimate": estimate, "ci": bracket.strip() + rest if bracket else ""}


def _environment() -> Any:
    try:
        import jinja2
    except ModuleNotFoundError as exc:
        raise EnvsuiteError(
            "rendering the leaderboard site needs jinja2, which is not installed: "
            "pip install jinja2"
        ) from exc
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=jinja2.select_autoescape(["html"]),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )


def status(standings: Standings) -> str:
    """``published <date> (frozen)`` or ``draft``."""
    published = standings.board.settings.published
    return f"published {published.isoformat()} (frozen)" if published else "draft"


def _plots(standings: Standings, folder: Path) -> list[dict[str, str]]:
    # matplotlib takes about a second to import; only rendering needs it.
    from envsuite.leaderboard.plots import interval_plot

    if not standings.rows:
        return []
    settings = standings.board.settings.ranking
    title = fmt.metric_title(settings.metric)
    names = [f"{fmt.rank(r.rank, r.tied)}  {r.report.meta.name}" for r in standings.rows]
    references = (
        # the last part of a module:Class agent keeps the label inside the axes
        [(f"panel {o.rsplit(':', 1)[-1]}", r.estimate) for o, r in standings.panel.ratings.items()]
        if standings.panel is not None
        else []
    )
    metric_png = interval_plot(
        names,
        [row.score for row in standings.rows],
        folder / "ranking_ci.png",
        title=f"{standings.board.label}: {title}, {settings.confidence:.0%} CI",
        xlabel=title,
        references=references,
    )
    plots = [
        {
            "src": metric_png.name,
            "alt": f"{title} with {settings.confidence:.0%} confidence intervals per entry",
            "caption": f"{title} per entry with its {settings.confidence:.0%} bootstrap interval.",
        }
    ]
    rated = [row for row in standings.rows if row.rating is not None]
    if rated:
        ordered = sorted(rated, key=lambda row: -row.rating.estimate if row.rating else 0.0)
        ratings_png = interval_plot(
            [row.report.meta.name for row in ordered],
            [row.rating for row in ordered if row.rating is not None],
            folder / "ratings_ci.png",
            title=f"{standings.board.label}: Bradley–Terry ratings, {settings.confidence:.0%} CI",
            xlabel="rating (Elo scale, mean 1000)",
        )
        plots.append(
            {
                "src": ratings_png.name,
                "alt": "Bradley–Terry ratings with confidence intervals per entry",
                "caption": "Bradley–Terry ratings from per-problem comparisons between entries "
                f"({settings.rating_reps} bootstrap replicates over matches).",
            }
        )
    return plots


def _copy_raw_files(standings: Standings, folder: Path) -> dict[str, list[dict[str, str]]]:
    board_path = standings.board.path
    for name in (BOARD_FILE, PROTOCOL_FILE, KNOWN_ISSUES_FILE):
        shutil.copyfile(board_path / name, folder / name)
    if standings.board.panel:
        shutil.copyfile(board_path / PANEL_FILE, folder / PANEL_FILE)
    links: dict[str, list[dict[str, str]]] = {}
    for row in standings.rows:
        target = folder / SUBMISSIONS_DIR / row.entry
        files = sorted(p for p in row.report.path.rglob("*") if p.is_file())
        links[row.entry] = []
        for source in files:
            relative = source.relative_to(row.report.path)
            (target / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target / relative)
            href = f"{SUBMISSIONS_DIR}/{row.entry}/{relative.as_posix()}"
            links[row.entry].append({"name": breakable(relative.as_posix()), "href": href})
    return links


def _context(standings: Standings, folder: Path, versions: Sequence[int]) -> dict[str, Any]:
    board = standings.board
    settings = board.settings
    # a model column only when some entry names its model: an empty one costs the width
    # the metric columns need to fit a laptop window
    models = any(row.report.meta.model for row in standings.rows)
    head = ["rank", "entry", "agent", *(["model"] if models else []), *fmt.metric_header(standings)]
    head += ["submitted", "raw files"]
    links = _copy_raw_files(standings, folder)
    rows = []
    for row in standings.rows:
        rows.append(
            {
                "entry": row.entry,
                "tied": row.tied,
                "rank": fmt.rank(row.rank, row.tied),
                "name": row.report.meta.name,
                "agent": breakable(row.report.meta.agent),
                "model": row.report.meta.model or "-",
                "cells": [interval_cell(cell) for cell in fmt.metric_cells(standings, row)],
                "date": row.report.meta.date.isoformat(),
                "files": links[row.entry],
            }
        )
    seeds = board.protocol.seed_values()
    return {
        "root": "../../",
        "title": settings.title,
        "version": board.version,
        "status": status(standings),
        "description": settings.description,
        "other_versions": [v for v in versions if v != board.version],
        "protocol_id": board.protocol.id,
        "protocol_version": board.protocol.version,
        "env_count": len(settings.envs),
        "seeds": f"{seeds[0]}..{seeds[-1]} ({len(seeds)})",
        "attempts": board.protocol.attempts,
        "compatible": ", ".join(f"{s}.x" for s in settings.envsuite.compatible),
        "metric_title": fmt.metric_title(settings.ranking.metric),
        "head": head,
        "models": models,
        "rows": rows,
        "method_note": fmt.method_note(standings),
        "panel": [
            {"agent": breakable(agent), "rating": interval_cell(fmt.interval(rating))}
            for agent, rating in (standings.panel.ratings.items() if standings.panel else [])
        ],
        "panel_note": fmt.panel_ratings_note(standings),
        "per_task_note": fmt.per_task_note(standings),
        "plots": _plots(standings, folder),
        "tasks": [
            {"label": label, "cells": [fmt.number(r.per_task[label]) for r in standings.rows]}
            for label in standings.tasks
        ],
        "pinned_version": settings.envsuite.version,
        "hash_digits": HASH_DIGITS,
        "pins": [
            {
                "id": breakable(pin.id),
                "kwargs": breakable(canonical_json(pin.kwargs)),
                "spec_hash": pin.spec_hash,
                "short_hash": pin.spec_hash[:HASH_DIGITS],
                "datasets": ", ".join(f"{k} ({v[:12]})" for k, v in pin.datasets.items()) or "-",
            }
            for pin in settings.envs
        ],
        "known_issues": (board.path / KNOWN_ISSUES_FILE).read_text(encoding="utf-8"),
    }


def render_site(all_standings: Sequence[Standings], out: Path) -> Path:
    """Write the site for every board version into ``out``; returns ``out/index.html``."""
    environment = _environment()
    out.mkdir(parents=True, exist_ok=True)
    versions: dict[str, list[int]] = {}
    for standings in all_standings:
        versions.setdefault(standings.board.name, []).append(standings.board.version)
    pages = []
    for standings in sorted(all_standings, key=lambda s: (s.board.name, -s.board.version)):
        board = standings.board
        folder = out / board.name / f"v{board.version}"
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        context = _context(standings, folder, sorted(versions[board.name]))
        html = environment.get_template("board.html").render(**context)
        (folder / "index.html").write_text(html, encoding="utf-8")
        leader = standings.rows[0].report.meta.name if standings.rows else "-"
        pages.append(
            {
                "board": board.name,
                "title": board.settings.title,
                "version": board.version,
                "href": f"{board.name}/v{board.version}/index.html",
                "status": status(standings),
                "metric": fmt.metric_title(board.settings.ranking.metric),
                "entries": len(standings.rows),
                "leader": leader,
            }
        )
    index = environment.get_template("index.html").render(root="", pages=pages)
    (out / "index.html").write_text(index, encoding="utf-8")
    return out / "index.html"
