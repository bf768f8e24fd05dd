"""``envsuite rollout TARGET``: GRPO-grouped chat-agent rollouts for RL trainers.

See :mod:`envsuite.evaluation.rollout` for the groups, the run directory and
``transcripts.jsonl``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from envsuite.agents.lineup import SeatRotation
from envsuite.cli.console import line, print_table, stderr, stdout
from envsuite.cli.env_kwargs import SetOption, parse_assignments
from envsuite.cli.env_target_options import refuse_env_target_options
from envsuite.cli.evaluate import _is_protocol, _options, check_extras
from envsuite.cli.exits import (
    USAGE,
    exit_with,
    report_infra_errors,
    reports_errors,
    resumable_on_interrupt,
)
from envsuite.cli.info import make_env
from envsuite.evaluation.protocol import TaskProtocol
from envsuite.evaluation.rollout import (
    RolloutResult,
    local_env,
    rollout,
    rollout_agent,
    rollout_protocol,
)
from envsuite.registry import registry
from envsuite.remote.server_pool import ServerPool

TARGET_HELP = (
    "An env id (envsuite/Wordle-v0; a game: envsuite/KuhnPoker-v0), or a task protocol file: "
    "its seeds are the groups and its attempts the group size."
)
LINEUP_HELP = (
    "Games: who plays each seat, as envsuite eval's lineups, with 'model' for the model's "
    "seats (player_0=model,player_1=oracle; seats left out play random). Default: the model "
    "in every seat (self-play)."
)
ROTATE_HELP = (
    "Games, env targets: play each seed once per seating of the lineup (cyclic or all, as "
    "a protocol's seat_rotation); each seating of a seed is a group of its own."
)


def register(app: typer.Typer) -> None:
    """Add ``rollout`` to ``app``."""
    app.command("rollout")(rollout_command)


#: The options an env target takes and a task protocol pins (parameter name -> flag).
ENV_TARGET_OPTIONS = {
    "groups": "--groups",
    "seed_start": "--seed-start",
    "set_": "--set",
    "step_budget": "--step-budget",
    "rotate": "--rotate",
}


@reports_errors
def rollout_command(
    ctx: typer.Context,
    target: Annotated[str, typer.Argument(metavar="TARGET", help=TARGET_HELP)],
    model: Annotated[str, typer.Option("--model", "-m", help="Model name sent to the endpoint.")],
    base_url: Annotated[
        str, typer.Option(help="The OpenAI-compatible API root, e.g. http://localhost:8000/v1.")
    ],
    out: Annotated[Path, typer.Option("--out", "-o", help="Run directory (resumed if it exists).")],
    groups: Annotated[
        int, typer.Option(min=1, help="Env targets: groups (seeds seed-start..+N-1).")
    ] = 8,
    group_size: Annotated[
        int | None,
        typer.Option(min=1, help="Episodes per group, all on the group's seed (default 8)."),
    ] = None,
    concurrency: Annotated[int, typer.Option(min=1, max=4096, help="Episodes at once.")] = 64,
    seed_start: Annotated[
        int, typer.Option(min=0, help="Env targets: the first group's seed.")
    ] = 0,
    temperature: Annotated[float, typer.Option(min=0.0, help="Sampling temperature.")] = 1.0,
    max_tokens: Annotated[
        int | None, typer.Option(min=1, help="Cap on each reply's tokens.")
    ] = None,
    api_key: Annotated[
        str | None, typer.Option(help="Bearer token (default $OPENAI_API_KEY).")
    ] = None,
    set_: SetOption = None,
    agent_option: Annotated[
        list[str] | None,
        typer.Option(
            metavar="KEY=VALUE", help="A chat-agent argument, e.g. timeout_s=30 (repeatable)."
        ),
    ] = None,
    step_budget: Annotated[
        int | None,
        typer.Option(min=1, help="Env targets: the runner's step budget per episode."),
    ] = None,
    lineup: Annotated[str | None, typer.Option(metavar="SEAT=AGENT,...", help=LINEUP_HELP)] = None,
    rotate: Annotated[SeatRotation, typer.Option(help=ROTATE_HELP)] = "none",
    server: Annotated[
        list[str] | None,
        typer.Option(
            "--server",
            metavar="URL|@FILE",
            help="Run the envs on this envsuite server instead of in-process (repeatable: "
            "sessions are spread over the servers, and a server that dies has its episodes "
            "moved to the others). @FILE reads URLs from a file, one a line.",
            show_default=False,
        ),
    ] = None,
    server_token: Annotated[
        str | None,
        typer.Option(
            envvar="ENVSUITE_SERVE_TOKEN",
            help="The servers' bearer token (also read from ENVSUITE_SERVE_TOKEN).",
            show_default=False,
        ),
    ] = None,
    progress: Annotated[bool, typer.Option(help="Show the progress bar.")] = True,
) -> None:
    """Roll out MODEL on TARGET in groups sharing a seed; write records and transcripts.

    OUT/episodes.jsonl gets one record per episode, OUT/transcripts.jsonl one chat
    transcript per episode with per-turn rewards and token usage. Running the same command
    again resumes. The summary shows each group's mean return and its std, which GRPO's
    advantage divides by. With --server the envs run on envsuite servers (envsuite serve),
    with the same records as in-process.

    Games (PettingZoo envs) are self-play unless --lineup seats the model against others:
    --lineup player_0=model,player_1=oracle. Each chat seat of a game gets its own line in
    transcripts.jsonl (its "seat", what it observed, its rewards and usage).
    """
    env_kwargs = parse_assignments(set_)
    protocol: TaskProtocol
    if _is_protocol(target):
        refuse_env_target_options(ctx, ENV_TARGET_OPTIONS)
        protocol = TaskProtocol.load(target)
        if group_size is not None:
            protocol = protocol.model_copy(update={"attempts": group_size})
    else:
        registry[target]  # an unknown id raises with its suggestion
        if env_kwargs:
            make_env(registry[target], env_kwargs).close()
        protocol = rollout_protocol(
            target,
            env_kwargs,
            groups=groups,
            group_size=group_size or 8,
            seed_start=seed_start,
            step_budget=step_budget,
            seat_rotation=rotate,
        )
    check_extras(protocol)
    options = _options(agent_option)
    options.update(base_url=base_url, temperature=temperature)
    if max_tokens is not None:
        options["max_tokens"] = max_tokens
    if api_key is not None:
        options["api_key"] = api_key
    pool = _server_pool(server, server_token, [entry.id for entry in protocol.envs])
    columns = (TextColumn("[bold]episodes"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    agent = rollout_agent(protocol, model, lineup)
    with (
        resumable_on_interrupt(out),
        Progress(*columns, console=stderr(), disable=not progress) as bar,
    ):
        task = bar.add_task("episodes", total=len(protocol.jobs("count", agent)))
        result = rollout(
            protocol,
            model,
            out,
            agent_options=options,
            lineup=lineup,
            concurrency=concurrency,
            on_episode=lambda _: bar.advance(task),
            env_factory=local_env if pool is None else pool,
            env_calls_in_thread=pool is not None,
        )
    _print_summary(result)


def server_urls(values: list[str]) -> list[str]:
    """The URLs of ``--server`` values: a URL, or ``@FILE`` (one URL a line, ``#`` comments)."""
    urls: list[str] = []
    for value in values:
        if not value.startswith("@"):
            urls.append(value)
            continue
        try:
            text = Path(value[1:]).read_text(encoding="utf-8")
        except OSError as exc:
            exit_with(f"--server {value}: cannot read the file ({exc})", USAGE)
        found = [raw.split("#", 1)[0].strip() for raw in text.splitlines()]
        if not any(found):
            exit_with(f"--server {value}: the file lists no URL", USAGE)
        urls += [url for url in found if url]
    return urls


def _server_pool(
    values: list[str] | None, token: str | None, env_ids: list[str]
) -> ServerPool | None:
    if not values:
        return None
    try:
        pool = ServerPool(server_urls(values), token=token or None)
    except ValueError as exc:
        exit_with(f"--server: {exc}", USAGE)
    pool.check(env_ids)  # a server that refuses or lacks an env: exits with its message
    if pool.down:
        line(
            stderr(), f"Warning: no answer from {', '.join(pool.down)}; using the others", "yellow"
        )
    return pool


def _print_summary(result: RolloutResult) -> None:
    console = stdout()
    title = f"{result.run_dir} ({result.new} new, {result.resumed} resumed)"
    table = Table(title=title, caption="std: sample std (ddof=1) of the group's returns")
    for column in ("env", "group", "seed", "episodes", "infra\nerrors", "mean return", "std"):
        table.add_column(column, justify="left" if column == "env" else "right")
    for group in result.groups:
        table.add_row(
            group.env_id.removeprefix("envsuite/"),
            str(group.group),
            str(group.seed),
            str(group.size),
            str(group.infra_errors),
            "-" if group.mean_return is None else f"{group.mean_return:.3f}",
            "-" if group.std_return is None else f"{group.std_return:.3f}",
        )
    print_table(console, table)
    line(console, f"records: {result.run_dir / 'episodes.jsonl'}")
    line(console, f"transcripts: {result.transcripts_path}")
    report_infra_errors([record.infra_error for record in result.records], result.run_dir)
