"""``envsuite play ID``: play a text environment yourself, one line of stdin per action.

The episode runs through the loops of :mod:`envsuite.episodes` (the env's own API: a
Gymnasium env, or a PettingZoo env in its native Parallel or AEC form), with the human as
the policy of one agent and an agent string (``--others``) playing the rest.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from typing import Annotated, Any

import typer
from gymnasium.spaces import Space, Text
from rich.console import Console
from rich.panel import Panel

from envsuite.agent_protocol import Agent
from envsuite.agents.loading import load_agent
from envsuite.cli.console import line, plain, stdout
from envsuite.cli.env_kwargs import SetOption, parse_assignments
from envsuite.cli.exits import USAGE, exit_with, reports_errors
from envsuite.cli.info import EnvIdArgument, make_env
from envsuite.episodes import (
    EnvKind,
    StopEpisode,
    native_kind,
    run_episode,
    run_gymnasium_episode,
)
from envsuite.registry import EnvSpec, registry
from envsuite.seeding import derive_seed

#: The stop reason of an episode whose player closed stdin.
STDIN_CLOSED = "stdin_closed"

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
    if isinstance(observation, Mapping):  # a dict of parts: text shown, pictures summarised
        text = "\n\n".join(f"{key}:\n{_part_text(part)}" for key, part in observation.items())
    else:
        text = _part_text(observation)
    console.print(Panel(plain(text), title=title, title_align="left"))


def _part_text(part: Any) -> str:
    if isinstance(part, str):
        return part
    shape = getattr(part, "shape", None)
    if isinstance(shape, tuple) and len(shape) == 3 and shape[2] in (1, 3, 4):
        return f"[image of {shape[1]}x{shape[0]} pixels]"
    return repr(part)


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
    keys = ("outcome", "success", "score")
    outcome = [f"{key}: {_format_number(info[key])}" for key in keys if key in info]
    if outcome:
        line(console, ", ".join(outcome))


def _show_stdin_closed(console: Console, steps: int, total: float) -> None:
    message = f"stdin closed: stopped after {_steps(steps)}, return so far {total:g}."
    line(console, message)


def _human_action(read: ReadAction) -> str:
    """The human's next line, or the end of the episode when stdin is exhausted."""
    action = read()
    if action is None:
        raise StopEpisode(STDIN_CLOSED)
    return action


def play_single_agent(console: Console, env: Any, seed: int | None, read: ReadAction) -> None:
    """Play a Gymnasium env: show, read, step, until the episode ends or stdin does."""
    steps = 0

    def policy(_: Any, observation: Any, info: Mapping[str, Any]) -> str:
        _show_observation(console, observation, f"observation (step {steps})")
        _show_legal(console, info)
        return _human_action(read)

    def observer(
        agent: Any,
        action: Any,
        observation: Any,
        reward: float,
        terminated: Any,
        truncated: Any,
        info: Any,
    ) -> None:
        nonlocal steps
        steps += 1
        _show_step(console, steps, reward, info)

    result = run_gymnasium_episode(env, seed, policy, observer=observer)
    if result.stop_reason == STDIN_CLOSED:
        _show_stdin_closed(console, steps, result.episode_return)
        return
    _show_observation(console, result.final_observation, f"observation (step {steps})")
    _show_end(console, steps, f"Return: {result.episode_return:g}", result.final_info)


def play_multi_agent(
    console: Console,
    kind: EnvKind,
    env: Any,
    human: str,
    others: Mapping[str, tuple[str, Agent]],
    seed: int | None,
    read: ReadAction,
) -> None:
    """Play a PettingZoo env in the form ``kind`` names: the human acts for ``human``.

    Args:
        console: Where the game is shown.
        kind: ``"parallel"`` or ``"aec"`` (the form ``env`` was made in).
        env: The env.
        human: The agent the human plays.
        others: Every other agent's label (its agent string) and agent.
        seed: The reset seed (and, derived from it, the other agents' seeds).
        read: Reads the human's actions.
    """
    for name, (_, agent) in others.items():
        agent.reset(seed=None if seed is None else derive_seed(seed, "play-oracle", name))
    steps = 0
    returns: dict[str, float] = dict.fromkeys(env.possible_agents, 0.0)

    def policy(agent: str, observation: Any, info: Mapping[str, Any]) -> Any:
        if agent != human:
            return others[agent][1].act(observation, info)
        _show_observation(console, observation, f"{human} observation (step {steps})")
        _show_legal(console, info)
        return _human_action(read)

    def observer(
        actor: str | None,
        action: Any,
        observations: Any,
        rewards: Any,
        terminations: Any,
        truncations: Any,
        infos: Any,
    ) -> None:
        nonlocal steps
        steps += 1
        for agent, reward in rewards.items():
            returns[agent] += float(reward)
        actions = action if actor is None else {actor: action}
        for agent, other in actions.items():
            if agent != human:
                line(console, f"{agent} ({others[agent][0]}) played {other!r}", "dim")
        if human in actions:
            _show_step(console, steps, float(rewards.get(human, 0.0)), infos.get(human, {}))

    result = run_episode(kind, env, seed, policy, observer=observer)
    if result.stop_reason == STDIN_CLOSED:
        _show_stdin_closed(console, steps, returns[human])
        return
    final = result.final_observation
    if human in final:
        _show_observation(console, final[human], f"{human} observation (step {steps})")
    summary = ", ".join(
        f"{agent}{' (you)' if agent == human else ''}: {value:g}"
        for agent, value in result.episode_return.items()
    )
    _show_end(console, steps, f"Returns: {summary}", result.final_info.get(human, {}))


def _other_agents(spec: EnvSpec, env: Any, human: str, others: str) -> dict[str, tuple[str, Agent]]:
    """The agents ``others`` names for every agent but ``human``, with their labels."""
    built = load_agent(others, spec, env)
    assert isinstance(built, Mapping)
    # load_agent has checked the string; here each agent only gets its label.
    parts = [part.partition("=") for part in others.split(",")] if "=" in others else []
    named = {name.strip(): value.strip() for name, _, value in parts}
    return {
        name: (named.get(name, "random") if parts else others, agent)
        for name, agent in built.items()
        if name != human
    }


@reports_errors
def play(
    env_id: EnvIdArgument,
    seed: Annotated[
        int | None,
        typer.Option(min=0, help="Seed for reset (and the oracles); random if omitted."),
    ] = None,
    assignments: SetOption = None,
    human: Annotated[
        str | None,
        typer.Option(
            "--as",
            metavar="AGENT",
            help="Multi-agent envs: the agent you control (default: the first one).",
            show_default=False,
        ),
    ] = None,
    others: Annotated[
        str | None,
        typer.Option(
            "--others",
            metavar="AGENT",
            help="Multi-agent envs: who plays the other agents, as an agent string "
            "('oracle', 'random', 'module:Class', or 'NAME=AGENT,...'); default: the "
            "spec's oracle.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Play a text environment yourself: type one action per line.

    Each turn shows the observation (and the legal actions, where the env lists them),
    reads a line from stdin as the action, and shows the reward and any parse_error.
    The episode ends when the env says so, or at end of input (Ctrl-D); the return is
    printed. Envs whose action space is not text are refused (exit 2). In a multi-agent
    env you play one agent (``--as``) and ``--others`` plays the rest; turn-based (AEC)
    games ask you only on your turns.
    """
    spec = registry[env_id]
    kwargs = parse_assignments(assignments)
    spec.load()
    console = stdout()
    read = line_reader(console)
    if not spec.multi_agent:
        for flag, value in (("--as", human), ("--others", others)):
            if value is not None:
                exit_with(f"{flag} applies to multi-agent envs; {spec.id} is single-agent.", USAGE)
        env = make_env(spec, kwargs)
        try:
            _refuse_non_text(spec, kwargs, env.action_space)
            play_single_agent(console, env, seed, read)
        finally:
            env.close()
        return

    if others is None:
        if spec.oracle is None:
            exit_with(
                f"{spec.id} has no oracle to play the other agents; choose who plays them "
                "with --others (e.g. --others random).",
                USAGE,
            )
        others = "oracle"
    kind = native_kind(spec.api)
    env = make_env(spec, kwargs, parallel=kind == "parallel")
    try:
        agents = list(env.possible_agents)
        human = agents[0] if human is None else human
        if human not in agents:
            exit_with(f"--as {human!r}: {spec.id} has agents {', '.join(agents)}.", USAGE)
        _refuse_non_text(spec, kwargs, env.action_space(human), who=f" (agent {human})")
        play_multi_agent(
            console, kind, env, human, _other_agents(spec, env, human, others), seed, read
        )
    finally:
        env.close()
