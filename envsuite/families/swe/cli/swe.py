"""``envsuite swe ...``: synthesise the shipped SWE dataset, validate it, list its problems."""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Annotated

import typer

from envsuite.cli.console import line, stderr, stdout
from envsuite.cli.exits import FAILURE, USAGE, exit_with, reports_errors


def _known_libraries(names: list[str] | None) -> list[str] | None:
    """``names`` if every one is a shipped library, else a usage error listing them."""
    from envsuite.families.swe.dataset import library_names

    shipped = library_names()
    unknown = [name for name in names or () if name not in shipped]
    if unknown:
        exit_with(
            f"no SWE library {unknown[0]!r} is shipped; known: {', '.join(shipped) or 'none'}",
            USAGE,
        )
    return names


def register(app: typer.Typer) -> None:
    """Add the ``swe`` command group to ``app``."""
    group = typer.Typer(help="The swe family's dataset: synthesis, validation, listing.")
    group.command("synthesize")(synthesize_command)
    group.command("validate")(validate_command)
    group.command("problems")(problems_command)
    # The name before the word "task" was kept for task protocols; hidden, still works.
    group.command("tasks", hidden=True)(problems_command)
    app.add_typer(group, name="swe")


@reports_errors
def synthesize_command(
    library: Annotated[
        list[str] | None,
        typer.Option("--library", "-l", help="Pinned libraries to synthesise (default: all)."),
    ] = None,
    out: Annotated[Path | None, typer.Option(help="Dataset root (default: datasets/swe).")] = None,
    max_tasks: Annotated[int, typer.Option(min=1, help="Problems kept per library.")] = 10,
    max_candidates: Annotated[
        int, typer.Option(min=1, help="Mutations screened per library at most.")
    ] = 100,
    seed: Annotated[int, typer.Option(min=0, help="Seed of the mutation order.")] = 0,
) -> None:
    """Synthesise validated problems from pinned PyPI libraries (SWE-smith style; needs Docker).

    Each library's sdist is downloaded and checked against its pinned sha256, bugs are
    injected by AST mutation, and a mutation is kept only if it breaks passing tests, its
    reverse (gold) patch resolves it three times in a row, and the empty patch does not.
    """
    from envsuite.families.swe.dataset import swe_root
    from envsuite.families.swe.synthesis.build import synthesize_library
    from envsuite.families.swe.synthesis.libraries import LIBRARIES, library_pin

    try:
        pins = [library_pin(name) for name in library] if library else list(LIBRARIES)
    except KeyError as exc:
        exit_with(str(exc.args[0]), USAGE)
    root = out or swe_root()
    console = stdout()
    total = 0
    for pin in pins:
        problems = synthesize_library(
            pin,
            root,
            max_tasks=max_tasks,
            max_candidates=max_candidates,
            seed=seed,
            log=lambda text: line(console, text),
        )
        total += len(problems)
        line(console, f"{pin.name}: {len(problems)} validated problems in {root / pin.name / 'v1'}")
    line(console, f"{total} problems from {len(pins)} libraries")


@reports_errors
def validate_command(
    library: Annotated[
        list[str] | None, typer.Option("--library", "-l", help="Only these libraries.")
    ] = None,
    instance: Annotated[
        list[str] | None,
        typer.Option("--instance", "--task", "-t", help="Only these instance ids."),
    ] = None,
    backend: Annotated[str, typer.Option(help="docker or local (not isolated).")] = "docker",
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Also write the per-problem results here.")
    ] = None,
) -> None:
    """Grade every shipped problem's gold patch and the empty patch; exit 1 unless all behave.

    Expected: every gold patch resolves its problem, no empty patch does.
    """
    from envsuite.families.swe.dataset import (
        library_folder,
        library_names,
        load_problems,
        verify_manifest,
    )
    from envsuite.families.swe.dataset_check import ProblemCheck, check_problems

    if backend not in ("docker", "local"):
        exit_with("--backend must be docker or local", USAGE)
    names = _known_libraries(library) or library_names()
    manifest_errors = [p for name in names for p in verify_manifest(library_folder(name))]
    for error in manifest_errors:
        line(stderr(), error, "red")
    problems = load_problems(names)
    if instance:
        problems = [p for p in problems if p.instance_id in set(instance)]
    console = stdout()

    def show(check: ProblemCheck) -> None:
        mark = "ok " if check.ok else "BAD"
        line(console, f"{mark} {check.instance_id}: gold {check.gold}, empty {check.empty}")

    checks = check_problems(problems, backend=backend, progress=show)  # type: ignore[arg-type]
    gold = sum(c.gold == "resolved" for c in checks)
    empty = sum(c.empty == "resolved" for c in checks)
    seconds = [c.seconds_per_grade for c in checks]
    line(console, f"gold patches: {gold}/{len(checks)} resolved")
    line(console, f"empty patches: {empty}/{len(checks)} resolved")
    if seconds:
        line(
            console,
            f"grading time per problem: median {statistics.median(seconds):.2f} s, "
            f"max {max(seconds):.2f} s",
        )
    if json_out is not None:
        json_out.write_text(json.dumps([c.__dict__ for c in checks], indent=2) + "\n")
    if manifest_errors or gold != len(checks) or empty:
        raise typer.Exit(FAILURE)


@reports_errors
def problems_command(
    library: Annotated[
        list[str] | None, typer.Option("--library", "-l", help="Only these libraries.")
    ] = None,
) -> None:
    """List the shipped problems: instance id, FAIL_TO_PASS and PASS_TO_PASS counts, mutation."""
    from envsuite.families.swe.dataset import DatasetError, load_problems

    try:
        problems = load_problems(_known_libraries(library))
    except DatasetError as exc:
        exit_with(str(exc), FAILURE)
    console = stdout()
    for item in problems:
        what = item.metadata.get("description", "")
        counts = f"F2P={len(item.FAIL_TO_PASS)} P2P={len(item.PASS_TO_PASS)}"
        line(console, f"{item.instance_id}  {counts}  {what}")
    line(console, f"{len(problems)} problems")
