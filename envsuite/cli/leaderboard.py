r"""``envsuite leaderboard ...``: make boards, submit runs, verify submissions, render boards.

Typical use::

    envsuite eval leaderboards/decision-regret/v1/protocol.yaml --agent my_pkg:MyAgent \
        --out runs/mine
    envsuite leaderboard submit runs/mine --board decision-regret --name "my agent" \
        --author "Ada Lovelace" --leakage "never saw the board's seeds"
    envsuite leaderboard verify leaderboards/decision-regret/v1/submissions/20261201_my-agent
    envsuite leaderboard render
"""

from __future__ import annotations

import datetime
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, cast

import typer
from pydantic import ValidationError
from rich.table import Table

from envsuite.cli.console import line, print_table, stderr, stdout
from envsuite.cli.exits import USAGE, exit_with, exit_with_option_errors, reports_errors

if TYPE_CHECKING:
    from envsuite.leaderboard.verify import ReplayMode

RootOption = Annotated[
    Path | None,
    typer.Option(
        "--root",
        metavar="DIR",
        help="The leaderboards folder (default: leaderboards/ of the checkout, or "
        "$ENVSUITE_LEADERBOARDS).",
        show_default=False,
    ),
]
ReplayOption = Annotated[
    str,
    typer.Option(
        "--replay",
        help="Which action traces to replay in the real envs: sample (the board's per-env "
        "sample), all, or none.",
    ),
]
#: Model fields ``create`` and ``submit`` fill from their options, for error messages.
FIELD_OPTIONS = {
    "RankingSettings.metric": "--metric",
    "ReplaySettings.per_env": "--replay-per-env",
    "BoardSettings.title": "--title",
    "BoardSettings.description": "the protocol's description",
    "SubmissionMeta.name": "--name",
    "SubmissionMeta.authors": "--author",
    "SubmissionMeta.model": "--model",
    "SubmissionMeta.code_url": "--code-url",
    "SubmissionMeta.notes": "--notes",
    "Compute.hardware": "--hardware",
    "Compute.wall_time_hours": "--wall-time-hours",
    "Leakage.disclosure": "--leakage",
}
DateOption = Annotated[
    str | None,
    typer.Option("--date", metavar="YYYY-MM-DD", help="Date to use instead of today."),
]


def register(app: typer.Typer) -> None:
    """Add the ``leaderboard`` command group to ``app``."""
    group = typer.Typer(
        help="Versioned leaderboards: boards pin a task protocol; submissions are verified by "
        "recomputing every metric from their records and replaying a sample of their traces.",
        no_args_is_help=True,
    )
    group.command("create")(create)
    group.command("submit")(submit)
    group.command("verify")(verify)
    group.command("render")(render)
    group.command("publish")(publish)
    group.command("new-version")(new_version)
    group.command("check-frozen")(check_frozen)
    group.command("schema")(schema)
    app.add_typer(group, name="leaderboard")


def _root(root: Path | None) -> Path:
    from envsuite.leaderboard.layout import leaderboards_root

    return root if root is not None else leaderboards_root()


def _date(text: str | None) -> datetime.date | None:
    if text is None:
        return None
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        exit_with(f"--date must be YYYY-MM-DD, got {text!r}", USAGE)


def _replay(mode: str) -> ReplayMode:
    if mode not in ("sample", "all", "none"):
        exit_with(f"--replay must be sample, all or none, got {mode!r}", USAGE)
    return cast("ReplayMode", mode)


@reports_errors
def create(
    protocol: Annotated[Path, typer.Argument(help="A task protocol file (tasks/*.yaml).")],
    name: Annotated[str | None, typer.Option(help="Board name (default: the protocol id).")] = None,
    title: Annotated[str | None, typer.Option(help="Human title (default: the name).")] = None,
    seeds: Annotated[
        int | None,
        typer.Option(min=1, help="Keep only the protocol's first N seeds (small submissions)."),
    ] = None,
    metric: Annotated[
        str | None,
        typer.Option(
            help="The ranking metric (default: success_rate; bradley_terry for a protocol "
            "with opponents)."
        ),
    ] = None,
    replay_per_env: Annotated[
        int, typer.Option(min=0, help="Traces replayed per env entry by verify.")
    ] = 2,
    workers: Annotated[
        int, typer.Option(min=1, help="Processes for the panel's round robin (opponents).")
    ] = 1,
    root: RootOption = None,
    date: DateOption = None,
) -> None:
    """Create version 1 of a board from a task protocol (a draft until published).

    A protocol that names opponents makes a panel board: its panel's round robin is
    played now and kept beside the board (panel.jsonl), to fix the panel's ratings.
    """
    from envsuite.leaderboard.board_admin import create_board

    try:
        board = create_board(
            _root(root),
            protocol,
            name=name,
            title=title,
            seeds=seeds,
            metric=metric,
            replay_per_env=replay_per_env,
            workers=workers,
            today=_date(date),
        )
    except ValidationError as exc:
        exit_with_option_errors(exc, FIELD_OPTIONS)
    line(stdout(), f"created {board.label} (draft) in {board.path}")


@reports_errors
def submit(
    run_dir: Annotated[Path, typer.Argument(help="A run directory of `envsuite eval`.")],
    board: Annotated[str, typer.Option(help="The board to submit to.")],
    name: Annotated[str, typer.Option(help="Display name of the entry (its slug names it).")],
    author: Annotated[
        list[str] | None, typer.Option(help="An author (repeatable; default: the name).")
    ] = None,
    leakage: Annotated[
        str,
        typer.Option(help="Leakage disclosure: did the agent or its training see the board?"),
    ] = "The agent was not trained or tuned on the board's problems.",
    seen_test_data: Annotated[
        bool, typer.Option(help="The agent saw some of the board's problems.")
    ] = False,
    model: Annotated[str | None, typer.Option(help="The model behind the agent.")] = None,
    code_url: Annotated[str | None, typer.Option(help="https URL of the agent's code.")] = None,
    hardware: Annotated[str, typer.Option(help="What the run used.")] = "unspecified",
    wall_time_hours: Annotated[float | None, typer.Option(help="How long the run took.")] = None,
    notes: Annotated[str, typer.Option(help="Free text.")] = "",
    version: Annotated[
        int | None, typer.Option(min=1, help="Board version (default: the newest).")
    ] = None,
    replay: ReplayOption = "sample",
    root: RootOption = None,
    date: DateOption = None,
) -> None:
    """Make a submission folder from a run, then verify it.

    The folder (leaderboards/BOARD/vN/submissions/YYYYMMDD_SLUG) holds submission.yaml,
    the run's records of the board's episodes, env_lock.json and MANIFEST.sha256.
    """
    from envsuite.leaderboard.board import load_board_version
    from envsuite.leaderboard.layout import latest_version, version_dir
    from envsuite.leaderboard.submit import make_submission

    base = _root(root)
    number = version or latest_version(base, board)
    loaded = load_board_version(version_dir(base, board, number))
    try:
        folder = make_submission(
            loaded,
            run_dir,
            name=name,
            authors=author or [name],
            leakage=leakage,
            seen_test_data=seen_test_data,
            model=model,
            code_url=code_url,
            hardware=hardware,
            wall_time_hours=wall_time_hours,
            notes=notes,
            date=_date(date),
        )
    except ValidationError as exc:
        exit_with_option_errors(exc, FIELD_OPTIONS)
    line(stdout(), f"wrote {folder}")
    _verify_one(folder, _replay(replay), False)


def _submission_folders(paths: list[Path], root: Path) -> list[Path]:
    from envsuite.leaderboard.layout import (
        BOARD_FILE,
        SUBMISSIONS_DIR,
        list_boards,
        list_submissions,
        list_versions,
        version_dir,
    )

    if not paths:
        return [
            folder
            for board in list_boards(root)
            for number in list_versions(root, board)
            for folder in list_submissions(version_dir(root, board, number))
        ]
    folders: list[Path] = []
    for path in paths:
        if path.parent.name == SUBMISSIONS_DIR:
            folders.append(path)
        elif (path / BOARD_FILE).is_file():
            folders.extend(list_submissions(path))
        elif path.is_dir() and any((p / BOARD_FILE).is_file() for p in path.glob("v*")):
            for number in list_versions(path.parent, path.name):
                folders.extend(list_submissions(path / f"v{number}"))
        else:
            exit_with(f"{path} is not a submission, board version or board folder", USAGE)
    return folders


def _verify_one(folder: Path, replay: ReplayMode, opt_in: bool) -> list[str]:
    from envsuite.leaderboard.verify import verify_submission

    started = time.perf_counter()
    report = verify_submission(folder, replay=replay, replay_opt_in=opt_in)
    seconds = time.perf_counter() - started
    skipped = f", {report.replay_skipped} opt-in skipped" if report.replay_skipped else ""
    ranking = report.board.settings.ranking.metric
    value = report.results[ranking]
    line(
        stdout(),
        f"OK {folder}: {len(report.records)} episodes; checks {', '.join(report.checks)}; "
        f"{report.replayed} traces replayed{skipped}; {ranking} {value.estimate:.4g} "
        f"[{value.low:.4g}, {value.high:.4g}] ({seconds:.2f} s)",
        "green",
    )
    return report.checks


@reports_errors
def verify(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(
            help="Submission folders, board versions or boards (default: every submission).",
            show_default=False,
        ),
    ] = None,
    replay: ReplayOption = "sample",
    replay_opt_in: Annotated[
        bool, typer.Option(help="Also replay opt-in families (slow, e.g. SWE).")
    ] = False,
    root: RootOption = None,
) -> None:
    """Verify submissions, each check with its own error.

    Checks: safety, manifest, schema, version lock, completeness, consistency,
    uniqueness (not a run already entered), recomputation of every metric, and replay of
    sampled traces. Every submission is checked; each rejection is printed with the check
    that failed, and the command exits 2 if any was rejected.
    """
    from envsuite.leaderboard.errors import SubmissionRejected
    from envsuite.leaderboard.verify_tree import TreeOutcome, verify_tree

    base = _root(root)
    mode = _replay(replay)
    rejected = 0
    if not paths:

        def show(outcome: TreeOutcome) -> None:
            if outcome.error is not None:
                line(
                    stderr(),
                    f"REJECTED {outcome.path} ({outcome.error.check}): {outcome.error}",
                    "red",
                )
            elif outcome.report is not None:
                note = f" [no replay: {outcome.superseded}]" if outcome.superseded else ""
                line(stdout(), f"OK {outcome.path}{note}", "green")

        outcomes = verify_tree(base, replay=mode, replay_opt_in=replay_opt_in, on_outcome=show)
        rejected = sum(outcome.error is not None for outcome in outcomes)
        total = len(outcomes)
    else:
        folders = _submission_folders(paths, base)
        total = len(folders)
        for folder in folders:
            try:
                _verify_one(folder, mode, replay_opt_in)
            except SubmissionRejected as exc:
                rejected += 1
                line(stderr(), f"REJECTED {folder} ({exc.check}): {exc}", "red")
    if rejected:
        exit_with(f"{rejected} of {total} checked item(s) rejected", USAGE)
    if not total:
        line(stderr(), "no submissions found", "yellow")


@reports_errors
def render(
    root: RootOption = None,
    site: Annotated[
        Path | None,
        typer.Option(
            metavar="DIR",
            help="Where to write the HTML site (default: build/leaderboards-site next to ROOT).",
        ),
    ] = None,
    no_site: Annotated[
        bool, typer.Option("--no-site", help="Only update the README tables.")
    ] = False,
    replay: ReplayOption = "none",
) -> None:
    """Verify and rank every board version; write the README tables and the HTML site.

    README tables go to ROOT/<board>/README.md and ROOT/README.md; the site (a page per
    board version with interval plots and links to every submission's raw files) to
    --site, by default build/leaderboards-site next to ROOT.
    """
    from envsuite.leaderboard.render import render_all

    base = _root(root)
    out = None if no_site else (site or base.resolve().parent / "build" / "leaderboards-site")
    result = render_all(base, out, replay=_replay(replay))
    table = Table(title="leaderboards")
    for column in ("board", "version", "entries", "leader"):
        table.add_column(column)
    for standings in result.standings:
        leader = standings.rows[0].report.meta.name if standings.rows else "-"
        table.add_row(
            standings.board.name, f"v{standings.board.version}", str(len(standings.rows)), leader
        )
    print_table(stdout(), table)
    for path in result.readmes:
        line(stdout(), f"wrote {path}")
    if result.site_index is not None:
        line(stdout(), f"site: {result.site_index}")


@reports_errors
def publish(
    board: Annotated[str, typer.Argument(help="The board.")],
    version: Annotated[
        int | None, typer.Option(min=1, help="Version (default: the newest).")
    ] = None,
    root: RootOption = None,
    date: DateOption = None,
) -> None:
    """Publish a draft board version: from now on its board and protocol files are frozen."""
    from envsuite.leaderboard.board_admin import publish as publish_version

    loaded = publish_version(_root(root), board, version, today=_date(date))
    line(stdout(), f"published {loaded.label}; {loaded.path / 'FROZEN.sha256'} freezes it")


@reports_errors
def new_version(
    board: Annotated[str, typer.Argument(help="The board.")],
    protocol: Annotated[
        Path | None,
        typer.Option(help="New protocol file (default: the previous version's)."),
    ] = None,
    force: Annotated[bool, typer.Option(help="Make a version even if nothing changed.")] = False,
    root: RootOption = None,
    date: DateOption = None,
) -> None:
    """Make version N+1 of a board, re-pinned against the installed envsuite."""
    from envsuite.leaderboard.board_admin import new_version as bump

    loaded = bump(_root(root), board, protocol_path=protocol, force=force, today=_date(date))
    line(stdout(), f"created {loaded.label} (draft) in {loaded.path}")


@reports_errors
def check_frozen(
    base: Annotated[str, typer.Option(help="Git ref to compare with (e.g. origin/main).")],
    root: Annotated[
        Path | None,
        typer.Option(
            "--root",
            metavar="DIR",
            help="The leaderboards folder (default: leaderboards/ of the git checkout holding "
            "the working directory).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Refuse changes since BASE to published board versions and to existing submissions.

    It compares the git history of the checkout you run it in (not of wherever envsuite
    is installed): run it at the root of the leaderboards' checkout, or pass --root.
    """
    from envsuite.leaderboard.frozen_git import (
        check_against_base,
        checkout_leaderboards,
        checkout_root,
    )

    folder = root if root is not None else checkout_leaderboards(Path.cwd())
    allowed = check_against_base(checkout_root(folder), folder, base)
    line(stdout(), f"{len(allowed)} changed file(s) under {folder}, none frozen")


@reports_errors
def schema(
    out: Annotated[
        Path | None, typer.Option(help="Write the schema here instead of stdout.")
    ] = None,
) -> None:
    """Print the JSON Schema of submission.yaml (generated from its pydantic model)."""
    from envsuite.leaderboard.submission import submission_json_schema

    text = submission_json_schema()
    if out is None:
        typer.echo(text, nl=False)
    else:
        out.write_text(text, encoding="utf-8")
        line(stdout(), f"wrote {out}")
