"""``envsuite play ID``: play a text environment yourself, one line of stdin per action."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from typing import Annotated, Any

import typer
from gymnasium.spaces import Space, Text
from rich.console import Console
from rich.panel import Panel

from envsuite.cli.console import line, plain, stdout
from envsuite.cli.env_kwargs import SetOption, parse_assignments
from envsuite.cli.exits import USAGE, exit_with, reports_errors
from envsuite.cli.info import EnvIdArgument, make_env
from envsuite.registry import EnvSpec, registry
from envsuite.seeding import derive_seed

#: Reads the human's next action; None when stdin is exhausted.
ReadAction = Callable[[], "str | None"]


def register(app: typer.Typer) -> None:
    """Add ``play`` to ``app``."""
    app.command("play")(play)


def line_reader(console: Console) -> ReadAction:
    """Prompt on ``console`` and read one line; echo it when stdin is not a terminal.

    The echo keeps a piped session's transcript readable (prompt, answer, result).
    """

    def read() -> str | None:
        try:
            answer = console.input("[bold magenta]your action>[/] ")
        except EOFError:
            console.print()
            return None
        if not sys.stdin.isatty():
            line(console, answer)
        return answer

    return read


def _refuse_non_text(
    spec: EnvSpec, kwargs: dict[str, Any], space: Space[Any], who: str = ""
) -> None:
    if isinstance(space, Text):
        return
    hint = ""
    if "observation_mode" in spec.canonical_kwargs(kwargs):
        hint = " Try --set observation_mode=text."
    exit_with(
        f"{spec.id}{who} takes actions from {space}, not text; `envsuite play` plays envs "
        f"whose action space is text.{hint}",
        USAGE,
    )


def _show_observation(console: Console, observation: Any, title: str) -> None:
    text = observation if isinstance(observation, str) else repr(observation)
    console.print(Panel(plain(text), title=title, title_align="left"))


def _show_step(console: Console, step: int, reward: float, info: Mapping[str, Any]) -> None:
    parse_error = info.get("parse_error")
    line(console, f"step {step}: reward {reward:g}", "bold")
    if parse_error:
        line(console, f"parse_error: {parse_error}", "red")


def _show_legal(console: Console, info: Mapping[str, Any]) -> None:
    legal = info.get("legal_actions")
    if legal:
        line(console, "legal actions: " + ", ".join(map(str, legal)), "dim")


def _format_number(value: Any) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def _steps(count: int) -> str:
    return f"{count} step{'' if count == 1 else 's'}"


def _show_end(console: Console, steps: int, returns: str, info: Mapping[str, Any]) -> None:
    line(console, f"Episode over after {_steps(steps)}. {returns}", "bold green")
    outcome = [f"{key}: {_format_number(info[key])}" for key in ("success", "score") if key in info]
    if outcome:
        line(console, ", ".join(outcome))


def _show_stdin_closed(console: Console, steps: int, total: float) -> None:
    message = f"stdin closed: stopped after {_steps(steps)}, return so far {total:g}."
    line(console, message)


def play_single_agent(console: Console, env: Any, seed: int | None, read: ReadAction) -> None:
    """Run the Gymnasium loop: show, read, step, until the episode ends or stdin does."""
    observation, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        _show_observation(console, observation, f"observation (step {steps})")
        _show_legal(console, info)
        action = read()
        if action is None:
            _show_stdin_closed(console, steps, total)
            return
        observation, reward, terminated, truncated, info = env.step(action)
        steps += 1
        total += float(reward)
        _show_step(console, steps, float(reward), info)
        if terminated or truncated:
            _show_observation(console, observation, f"observation (step {steps})")
            _show_end(console, steps, f"Return: {total:g}", info)
            return


def play_multi_agent(
    console: Console, spec: EnvSpec, env: Any, human: str, seed: int | None, read: ReadAction
) -> None:
    """Run the Parallel loop: the human acts for ``human``, the spec's oracle for the others."""
    oracle = spec.load_oracle()(env)
    for name, agent in oracle.items():
        agent.reset(seed=None if seed is None else derive_seed(seed, "play-oracle", name))
    observations, infos = env.reset(seed=seed)
    returns = {agent: 0.0 for agent in env.possible_agents}
    steps = 0
    while human in env.agents:
        _show_observation(console, observations[human], f"{human} observation (step {steps})")
        _show_legal(console, infos.get(human, {}))
        action = read()
        if action is None:
            _show_stdin_closed(console, steps, returns[human])
            return
        actions = {
            agent: oracle[agent].act(observations[agent], infos.get(agent, {}))
            for agent in env.agents
            if agent != human
        }
        actions[human] = action
        observations, rewards, terminations, truncations, infos = env.step(actions)
        steps += 1
        for agent, reward in rewards.items():
            returns[agent] += float(reward)
        for agent, other in actions.items():
            if agent != human:
                line(console, f"{agent} (oracle) played {other!r}", "dim")
        _show_step(console, steps, float(rewards.get(human, 0.0)), infos.get(human, {}))
        if terminations.get(human) or truncations.get(human):
            break
    if human in observations:
        _show_observation(console, observations[human], f"{human} observation (step {steps})")
    summary = ", ".join(
        f"{agent}{' (you)' if agent == human else ''}: {value:g}"
        for agent, value in returns.items()
    )
    _show_end(console, steps, f"Returns: {summary}", infos.get(human, {}))


@reports_errors
def play(
    env_id: EnvIdArgument,
    seed: Annotated[
        int | None, typer.Option(help="Seed for reset (and the oracles); random if omitted.")
    ] = None,
    assignments: SetOption = None,
    human: Annotated[
        str | None,
        typer.Option(
            "--as",
            metavar="AGENT",
            help="Multi-agent envs: the agent you control (default: the first one); "
            "the spec's oracle plays the others.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Play a text environment yourself: type one action per line.

    Each turn shows the observation (and the legal actions, where the env lists them),
    reads a line from stdin as the action, and shows the reward and any parse_error.
    The episode ends when the env says so, or at end of input (Ctrl-D); the return is
    printed. Envs whose action space is not text are refused (exit 2).
    """
    spec = registry[env_id]
    kwargs = parse_assignments(assignments)
    spec.load()
    console = stdout()
    read = line_reader(console)
    if not spec.multi_agent:
        if human is not None:
            exit_with(f"--as applies to multi-agent envs; {spec.id} is single-agent.", USAGE)
        env = make_env(spec, kwargs)
        try:
            _refuse_non_text(spec, kwargs, env.action_space)
            play_single_agent(console, env, seed, read)
        finally:
            env.close()
        return

    if spec.oracle is None:
        exit_with(f"{spec.id} has no oracle to play the other agents.", USAGE)
    env = make_env(spec, kwargs, parallel=True)
    try:
        agents = list(env.possible_agents)
        human = agents[0] if human is None else human
        if human not in agents:
            exit_with(f"--as {human!r}: {spec.id} has agents {', '.join(agents)}.", USAGE)
        _refuse_non_text(spec, kwargs, env.action_space(human), who=f" (agent {human})")
        play_multi_agent(console, spec, env, human, seed, read)
    finally:
        env.close()
