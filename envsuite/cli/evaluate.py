"""``envsuite eval TARGET``: run an agent on an env or a task protocol into a run directory."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from envsuite.cli.console import line, print_table, stderr, stdout
from envsuite.cli.env_kwargs import SetOption, parse_assignments, parse_value
from envsuite.cli.env_target_options import refuse_env_target_options
from envsuite.cli.exits import (
    USAGE,
    exit_with,
    report_infra_errors,
    reports_errors,
    resumable_on_interrupt,
)
from envsuite.cli.extras import extra_installed
from envsuite.cli.info import make_env
from envsuite.errors import MISSING_EXTRA, MissingExtraError
from envsuite.evaluation.executors import EXECUTORS
from envsuite.evaluation.metrics import pass_at_k_from_records, regret_summary, summarize_by_env
from envsuite.evaluation.metrics.bootstrap import Interval
from envsuite.evaluation.metrics.record_groups import task_key
from envsuite.evaluation.protocol import TaskProtocol, adhoc_protocol
from envsuite.evaluation.run_directory import RunResult, evaluate
from envsuite.jsonable import canonical_json
from envsuite.records import EpisodeRecord
from envsuite.registry import registry

TARGET_HELP = "An env id (envsuite/Bandit-v0) or a task protocol file (tasks/decision-regret.yaml)."
AGENT_HELP = (
    "random, oracle, openai:MODEL (with --base-url), module:Class, or for multi-agent envs "
    "NAME=AGENT,... (unnamed agents play random)."
)


#: Most parallel workers ``eval`` starts: more processes than this thrash any one machine.
MAX_WORKERS = 1024


def register(app: typer.Typer) -> None:
    """Add ``eval`` to ``app``."""
    app.command("eval")(eval_command)


def _options(pairs: list[str] | None) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for item in pairs or ():
        key, equals, value = item.partition("=")
        if not equals or not key.strip().isidentifier():
            raise typer.BadParameter(
                f"expected KEY=VALUE, got {item!r}", param_hint="'--agent-option'"
            )
        options[key.strip()] = parse_value(value, f"--agent-option {key.strip()}")
    return options


def check_extras(protocol: TaskProtocol) -> None:
    """Raise before anything is written when an env of ``protocol`` lacks its extra.

    Loading an entry point catches dependencies its module imports; pybullet, mujoco and
    docker are imported later (when an env is made or reset), so the installed-extras
    metadata is read too. Otherwise the run directory would be created and left behind.

    Raises:
        MissingExtraError: naming the ``pip install`` command.
    """
    for env_id in dict.fromkeys(entry.id for entry in protocol.envs):
        spec = registry[env_id]
        spec.load()
        if spec.extra is not None and extra_installed(spec.extra) is False:
            module = f"envsuite[{spec.extra}]"
            raise MissingExtraError(
                MISSING_EXTRA.format(id=spec.id, module=module, extra=spec.extra)
            )


def _is_protocol(target: str) -> bool:
    return target.endswith((".yaml", ".yml")) or Path(target).is_file()


#: The options an env target takes and a task protocol pins (parameter name -> flag).
ENV_TARGET_OPTIONS = {
    "episodes": "--episodes",
    "attempts": "--attempts",
    "seed_start": "--seed-start",
    "set_": "--set",
    "step_budget": "--step-budget",
    "wall_time": "--wall-time",
}


@reports_errors
def eval_command(
    ctx: typer.Context,
    target: Annotated[str, typer.Argument(metavar="TARGET", help=TARGET_HELP)],
    agent: Annotated[str, typer.Option("--agent", "-a", help=AGENT_HELP)],
    out: Annotated[Path, typer.Option("--out", "-o", help="Run directory (resumed if it exists).")],
    episodes: Annotated[
        int, typer.Option(min=1, help="Env targets: number of seeds (start..start+N-1).")
    ] = 10,
    attempts: Annotated[int, typer.Option(min=1, help="Env targets: attempts per seed.")] = 1,
    seed_start: Annotated[int, typer.Option(min=0, help="Env targets: first seed.")] = 0,
    set_: SetOption = None,
    workers: Annotated[int, typer.Option(min=1, max=MAX_WORKERS, help="Parallel workers.")] = 1,
    executor: Annotated[str, typer.Option(help=f"One of: {', '.join(EXECUTORS)}.")] = "local",
    base_url: Annotated[
        str | None,
        typer.Option(help="openai: agents: the API root, e.g. http://localhost:8000/v1."),
    ] = None,
    api_key: Annotated[
        str | None, typer.Option(help="openai: agents: bearer token (default $OPENAI_API_KEY).")
    ] = None,
    agent_option: Annotated[
        list[str] | None,
        typer.Option(metavar="KEY=VALUE", help="Keyword argument for the agent (repeatable)."),
    ] = None,
    step_budget: Annotated[
        int | None,
        typer.Option(
            "--step-budget",
            "--max-steps",
            min=1,
            help="Env targets: the runner's step budget per episode (a stopped episode "
            "records stop_reason step_limit); the env's own step limit is not changed.",
        ),
    ] = None,
    wall_time: Annotated[
        float | None,
        typer.Option(
            min=0.001, help="Env targets: the runner's wall-clock budget per episode (s)."
        ),
    ] = None,
    progress: Annotated[bool, typer.Option(help="Show the progress bar.")] = True,
) -> None:
    """Run AGENT on TARGET, writing one record per episode to OUT/episodes.jsonl.

    Running the same command again resumes: recorded episodes are skipped. A summary table
    (success rate, mean return with 95% CIs, pass@k, regret) is printed at the end, computed
    from the records.
    """
    env_kwargs = parse_assignments(set_)
    if executor not in EXECUTORS:
        exit_with(f"unknown executor {executor!r}; choose one of: {', '.join(EXECUTORS)}", USAGE)
    if _is_protocol(target):
        refuse_env_target_options(ctx, ENV_TARGET_OPTIONS)
        protocol = TaskProtocol.load(target)
    else:
        protocol = adhoc_protocol(target, env_kwargs, episodes, attempts, seed_start)
        if env_kwargs:
            # A value the env rejects is the user's to fix (exit 2), not an episode's
            # infrastructure error: make the env once before anything is recorded.
            make_env(registry[target], env_kwargs).close()
        protocol = protocol.model_copy(update={"max_steps": step_budget, "wall_time_s": wall_time})
    check_extras(protocol)
    options = _options(agent_option)
    if base_url is not None:
        options["base_url"] = base_url
    if api_key is not None:
        options["api_key"] = api_key
    with resumable_on_interrupt(out):
        result = evaluate(
            protocol,
            agent,
            out,
            agent_options=options,
            executor=executor,
            workers=workers,
            console=stderr(),
            progress=progress,
        )
    if result.duplicate_lines:
        line(
            stderr(),
            f"Warning: dropped {result.duplicate_lines} line(s) from {out / 'episodes.jsonl'} "
            "that repeated an identical earlier line",
            "yellow",
        )
    _print_summary(result, protocol)


def _interval(value: Interval | None, digits: int = 3) -> str:
    if value is None:
        return "-"
    return f"{value.estimate:.{digits}f}\n[{value.low:.{digits}f}, {value.high:.{digits}f}]"


def _short_labels(keys: list[Any]) -> dict[Any, str]:
    """Env name plus only the kwargs that differ between the table's rows."""
    configs = [json.loads(kwargs) for _, _, kwargs in keys]
    shared = (
        {
            name: value
            for name, value in (configs[0].items() if configs else ())
            if all(config.get(name, object()) == value for config in configs)
        }
        if len(keys) > 1
        else {}
    )
    labels = {}
    for key, config in zip(keys, configs, strict=True):
        own = " ".join(f"{k}={v}" for k, v in sorted(config.items()) if k not in shared)
        labels[key] = key[1].removeprefix("envsuite/") + (f"\n{own}" if own else "")
    return labels


def _print_summary(result: RunResult, protocol: TaskProtocol) -> None:
    console = stdout()
    by_task: dict[Any, list[EpisodeRecord]] = defaultdict(list)
    for record in result.records:
        by_task[task_key(record)].append(record)
    ks = [k for k in protocol.pass_ks() if k <= protocol.attempts]
    title = f"{protocol.id}: {result.run_dir} ({result.new} new, {result.resumed} resumed)"
    table = Table(title=title, caption="95% bootstrap intervals in brackets")
    table.add_column("env", min_width=22)
    table.add_column("episodes", justify="right")
    table.add_column("infra\nerrors", justify="right")
    for column in ("success rate", "mean return", *(f"pass@{k}" for k in ks), "final regret"):
        table.add_column(column, no_wrap=True, justify="right")
    # protocol order, as the report lists them; never the order episodes finished in
    listed = {(protocol.id, e.id, canonical_json(e.kwargs)): i for i, e in enumerate(protocol.envs)}
    keys = sorted(by_task, key=lambda key: (listed.get(key, len(listed)), key))
    labels = _short_labels(keys)
    for key in keys:
        table.add_row(labels[key], *_row(key, by_task[key], ks))
    print_table(console, table)
    line(console, f"records: {result.run_dir / 'episodes.jsonl'}")
    report_infra_errors([record.infra_error for record in result.records], result.run_dir)


def _row(key: Any, records: list[EpisodeRecord], ks: list[int]) -> list[str]:
    multi = isinstance(records[0].episode_return, dict)
    agents = sorted(records[0].episode_return) if multi else [None]  # type: ignore[arg-type]
    returns = []
    summaries = []
    for name in agents:
        summaries.append(summarize_by_env(records, agent=name)[key])
        prefix = f"{name}: " if name else ""
        returns.append(prefix + _interval(summaries[-1].mean_return, 2))
    summary = summaries[0]  # episodes, infra errors and success do not depend on the agent
    ran = [record for record in records if record.infra_error is None]
    passes = []
    for k in ks:
        try:
            passes.append(_interval(pass_at_k_from_records(records, k).pass_at_k))
        except ValueError:
            passes.append("-")
    regret = "-"
    if ran and not multi and "regret" in ran[0].curves:
        regret = _interval(regret_summary(records).final_regret, 1)
    return [
        str(summary.n_episodes),
        str(summary.n_infra_errors),
        _interval(summary.success_rate),
        "\n".join(returns),
        *passes,
        regret,
    ]
