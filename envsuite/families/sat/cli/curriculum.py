"""``envsuite curriculum ...``: drive an external trainer with a pass@k SAT curriculum.

The loop of a trainer that is not an envsuite env user::

    envsuite curriculum init state.json --ladder default --k 4 --epsilon 0.5 --attempts 8
    envsuite curriculum protocol state.json --out val.yaml     # problems at the current level
    envsuite eval val.yaml --agent my.module:Agent --out runs/1
    envsuite curriculum record state.json runs/1/episodes.jsonl
    envsuite curriculum status state.json

or ``next`` for problems as JSON lines and ``record`` with the trainer's own
``{"problem", "success"}`` lines. The state file is rewritten atomically after each change.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from envsuite.cli.console import line, print_table, stdout, write_json
from envsuite.cli.exits import USAGE, exit_with, reports_errors

STATE_HELP = "The curriculum state file (JSON)."
LADDER_HELP = (
    "A named ladder (default, saturn) or comma-separated levels such as "
    "n3-k5-l5,n3-k5-l13,saturn-test-1 (D must increase)."
)

curriculum_app = typer.Typer(
    name="curriculum",
    help="A pass@k curriculum over SAT levels, saved in a state file (SATURN's schedule).",
    no_args_is_help=True,
)


def register(app: typer.Typer) -> None:
    """Add the ``curriculum`` command group to ``app``."""
    app.add_typer(curriculum_app, name="curriculum")


def _sat() -> Any:
    from envsuite.families.sat import curriculum

    return curriculum


@curriculum_app.command("init")
@reports_errors
def init_command(
    state: Annotated[Path, typer.Argument(help=STATE_HELP)],
    ladder: Annotated[str, typer.Option(help=LADDER_HELP)] = "default",
    k: Annotated[int, typer.Option(min=1, help="The k of pass@k.")] = 1,
    epsilon: Annotated[float, typer.Option(help="Advance when pass@k >= epsilon.")] = 0.5,
    window: Annotated[int, typer.Option(min=1, help="Problems in the rolling window.")] = 20,
    attempts: Annotated[int, typer.Option(min=1, help="Attempts per problem (>= k).")] = 4,
    seed: Annotated[int, typer.Option(min=0, help="Root seed of the problems handed out.")] = 0,
    force: Annotated[bool, typer.Option(help="Overwrite an existing state file.")] = False,
) -> None:
    """Start a curriculum at the ladder's first level."""
    module = _sat()
    if state.exists() and not force:
        exit_with(f"{state} exists; use --force to start over", USAGE)
    from envsuite.families.sat.levels import LADDERS

    levels: Any = ladder if ladder in LADDERS else [part.strip() for part in ladder.split(",")]
    try:
        settings = module.CurriculumSettings.from_config(
            {
                "ladder": levels,
                "k": k,
                "epsilon": epsilon,
                "window": window,
                "attempts": attempts,
                "seed": seed,
            }
        )
    except ValueError as exc:
        exit_with(str(exc), USAGE)
    controller = module.CurriculumController(settings)
    controller.save(state)
    _print_status(controller, f"started {state}")


@curriculum_app.command("status")
@reports_errors
def status_command(
    state: Annotated[Path, typer.Argument(help=STATE_HELP)],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Show the current level, the window's pass@k and the history."""
    controller = _sat().CurriculumController.load(state)
    if as_json:
        write_json(controller.status())
        return
    _print_status(controller, str(state))


@curriculum_app.command("next")
@reports_errors
def next_command(
    state: Annotated[Path, typer.Argument(help=STATE_HELP)],
    count: Annotated[int, typer.Option(min=1, help="Problems to hand out.")] = 10,
    with_prompt: Annotated[bool, typer.Option(help="Include each problem's SATURN prompt.")] = True,
) -> None:
    """Print new problems at the current level as JSON lines (each to be tried `attempts` times)."""
    from envsuite.families.sat.sat_env import SATEnv

    controller = _sat().CurriculumController.load(state)
    problems = controller.next_problems(count)
    controller.save(state)
    env = SATEnv(**controller.level.as_kwargs()) if with_prompt else None
    for problem in problems:
        if env is not None:
            problem["prompt"], _ = env.reset(seed=problem["seed"])
        typer.echo(json.dumps(problem))


@curriculum_app.command("protocol")
@reports_errors
def protocol_command(
    state: Annotated[Path, typer.Argument(help=STATE_HELP)],
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Where to write the task protocol YAML.")
    ],
    count: Annotated[int, typer.Option(min=1, help="Problems in the protocol.")] = 20,
    env_id: Annotated[str, typer.Option("--env", help="SAT env to run.")] = "envsuite/SAT-v0",
) -> None:
    """Write a task protocol for new problems at the current level (run it with envsuite eval)."""
    controller = _sat().CurriculumController.load(state)
    problems = controller.next_problems(count)
    settings = controller.settings
    ks = sorted({1, settings.k})
    protocol = {
        "id": f"sat-curriculum-{controller.level.name}",
        "version": 1,
        "description": (
            f"Validation problems at {controller.level.name} (stage {controller.stage + 1} of "
            f"{len(settings.ladder)}) handed out by the curriculum in {state.name}."
        ),
        "envs": [{"id": env_id, "kwargs": controller.level.as_kwargs()}],
        "seeds": [problem["seed"] for problem in problems],
        "attempts": settings.attempts,
        "metrics": ["success_rate", "mean_return", *(f"pass@{k}" for k in ks)],
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    import yaml  # here: the family's cli imports nothing heavy (see envsuite.cli)

    out.write_text(yaml.safe_dump(protocol, sort_keys=False), encoding="utf-8")
    controller.save(state)
    line(
        stdout(),
        f"wrote {out}: {count} problems at {controller.level.name}, "
        f"{settings.attempts} attempts each",
    )


@curriculum_app.command("record")
@reports_errors
def record_command(
    state: Annotated[Path, typer.Argument(help=STATE_HELP)],
    results: Annotated[
        list[Path],
        typer.Argument(
            help="JSONL files: episode records (envsuite eval) or {problem, success} lines."
        ),
    ],
) -> None:
    """Feed results to the curriculum; it advances when the window's pass@k reaches epsilon."""
    from envsuite.families.sat.curriculum_results import feed, read_results

    controller = _sat().CurriculumController.load(state)
    before = controller.level.name
    taken = skipped = advanced = 0
    for path in results:
        summary = feed(controller, read_results(path))
        taken, skipped, advanced = (
            taken + summary.results,
            skipped + summary.skipped,
            advanced + summary.advanced,
        )
    controller.save(state)
    moved = f"advanced {before} -> {controller.level.name}" if advanced else f"still at {before}"
    line(stdout(), f"recorded {taken} results ({skipped} stale or repeated); {moved}")
    _print_status(controller, str(state))


def _print_status(controller: Any, title: str) -> None:
    status = controller.status()
    score = status["pass_at_k"]
    table = Table(title=title, show_header=False)
    table.add_row("level", f"{status['level']} (D = {status['difficulty']:.2f})")
    table.add_row(
        "stage",
        f"{status['stage'] + 1} of {status['stages']}"
        + (" (finished)" if status["finished"] else ""),
    )
    table.add_row(
        f"pass@{status['k']} (window)",
        ("-" if score is None else f"{score:.3f}")
        + f" over {status['window_filled']}/{status['window']} problems; "
        f"advance at {status['epsilon']}",
    )
    table.add_row("pending problems", str(status["pending_problems"]))
    for event in status["history"]:
        table.add_row(event["event"], f"{event['level']} at pass@k {event['pass_at_k']:.3f}")
    print_table(stdout(), table)
