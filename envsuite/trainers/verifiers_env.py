"""An envsuite env as a verifiers environment: the env plays the user, the model the player.

:class:`EnvsuiteEnv` is a ``verifiers.v1`` ``Env`` over :class:`~envsuite.trainers.
verifiers_taskset.EnvsuiteTaskset`, built the way verifiers' own game tasksets (TextArena,
OpenEnv) are: its ``run`` opens the player's interaction on the task (whose prompt is the
env's first observation after ``reset(seed)``), steps the env with each reply, exactly as
sent, and answers with the next observation as the user turn, until the episode ends
(terminated or truncated, by the env's own rules and step limit). A reply the env cannot
parse costs the env's documented penalty and the episode goes on, as in ``envsuite eval``.

Scores on the trace (what verifiers reports and trains on):

- reward ``envsuite_return``: the episode's return (the sum of the env's rewards), so
  ``trace.reward`` equals the return ``envsuite rollout`` records for the same seed and
  the same replies;
- metrics ``length``, ``parse_errors`` (replies the env refused), ``terminated``,
  ``truncated``, and the env's ``success`` and ``score`` where it reports them;
- ``trace.info["envsuite"]``: env id, kwargs, seed, per-turn rewards and the last
  ``parse_error``.

If the player's run ends before the episode does (a turn limit of the agent, a model
error), the return so far is recorded and the episode is marked unfinished
(``trace.info["envsuite"]["finished"]`` is False).

Build it as verifiers does (``vf-eval envsuite-verifiers --env.taskset.env-id ...``, or
``vf.load_environment``), or with :func:`load_environment` here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from envsuite.trainers.verifiers_harness import EnvsuiteChatHarness
from envsuite.trainers.verifiers_package import vf
from envsuite.trainers.verifiers_taskset import (
    EnvsuiteData,
    EnvsuiteTaskset,
    as_prompt,
    make_env,
    user_content,
)

#: The taskset id verifiers resolves to this adapter (the ``envsuite_verifiers`` package).
TASKSET_ID = "envsuite-verifiers"
#: The name of the reward on each trace.
REWARD_NAME = "envsuite_return"

__all__ = [
    "REWARD_NAME",
    "TASKSET_ID",
    "EnvsuiteChatHarness",
    "EnvsuiteEnv",
    "EnvsuiteEnvConfig",
    "EnvsuiteTaskset",
    "load_environment",
]


class EnvsuiteEnvConfig(vf.EnvConfig):
    """The env's config: one role, ``player`` (``--env.player.*``).

    The player runs in verifiers' ``subprocess`` runtime (its default is a remote
    sandbox): the harness makes its model calls from this process and runs no program,
    so there is nothing to isolate.
    """

    player: vf.AgentConfig = vf.AgentConfig(runtime=vf.SubprocessConfig())


def reply_text(segment: Any) -> str:
    """The player's reply in a segment, as the model sent it (not stripped)."""
    for message in reversed(segment.messages):
        if getattr(message, "role", None) == "assistant":
            content = message.content
            return content if isinstance(content, str) else ""
    return ""


class EnvsuiteEnv(vf.Env[EnvsuiteEnvConfig]):
    """One envsuite episode per task (see the module docstring)."""

    async def run(self, task: Any, agents: Any) -> None:
        """Play the task's episode: the env answers each of the player's replies.

        Raises:
            RuntimeError: the env's first observation differs from the task's prompt (the
                env is not deterministic for this seed, or the taskset was built for
                another env).
        """
        data: EnvsuiteData = task.data
        env = await asyncio.to_thread(make_env, data)
        call = _caller(threaded=data.server_url is not None)
        try:
            observation, info = await call(env.reset, seed=data.seed)
            if as_prompt(user_content(observation, info)) != data.prompt:
                raise RuntimeError(
                    f"{data.env_id} reset with seed {data.seed} does not give the task's "
                    "prompt; was the taskset built with other kwargs?"
                )
            rewards: list[float] = []
            terminated = truncated = False
            parse_errors = 0
            parse_error: str | None = None
            async with agents.player.interaction(task) as interaction:
                segment = await interaction.turn()
                while not segment.terminated:
                    step = await call(env.step, reply_text(segment))
                    observation, reward, terminated, truncated, info = step
                    rewards.append(float(reward))
                    if info.get("parse_error") is not None:
                        parse_errors += 1
                        parse_error = str(info["parse_error"])
                    if terminated or truncated:
                        break
                    segment = await interaction.turn(as_prompt(user_content(observation, info)))
                # Scored before the interaction closes, so verifiers' own report of the
                # finished rollout (its log line, its hooks) sees the reward.
                trace = interaction.trace
                trace.record_reward(REWARD_NAME, sum(rewards))
                metrics = {
                    "length": float(len(rewards)),
                    "parse_errors": float(parse_errors),
                    "terminated": float(terminated),
                    "truncated": float(truncated),
                }
                for key in ("success", "score"):
                    if info.get(key) is not None:
                        metrics[key] = float(info[key])
                trace.record_metrics(metrics)
                trace.info["envsuite"] = {
                    "env_id": data.env_id,
                    "env_kwargs": data.env_kwargs,
                    "seed": data.seed,
                    "rewards": rewards,
                    "finished": bool(terminated or truncated),
                    "parse_error": parse_error,
                }
        finally:
            await asyncio.to_thread(env.close)


def _caller(threaded: bool) -> Callable[..., Any]:
    """Calls env methods: in a worker thread for a served env (they block on the network)."""

    async def call(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if threaded:
            return await asyncio.to_thread(function, *args, **kwargs)
        return function(*args, **kwargs)

    return call


def load_environment(
    env_id: str,
    env_kwargs: dict[str, Any] | None = None,
    *,
    seed_start: int = 0,
    server_url: str | None = None,
    server_token: str | None = None,
    **config: Any,
) -> Any:
    """The verifiers environment of ``env_id`` (what ``vf.load_environment`` builds).

    Args:
        env_id: A registered single-agent envsuite id.
        env_kwargs: Its keyword arguments.
        seed_start: Task ``i`` resets the env with ``seed_start + i``.
        server_url: An ``envsuite serve`` holding ``env_id`` (None: in this process).
        server_token: That server's bearer token.
        config: Further fields of the env's verifiers config (``player``, ``timeout``,
            ``retries``, ...), as ``--env.*`` flags give them.

    Returns:
        A :class:`EnvsuiteEnv` (a ``verifiers.v1.Env``).
    """
    taskset = {
        "id": TASKSET_ID,
        "env_id": env_id,
        "env_kwargs": dict(env_kwargs or {}),
        "seed_start": seed_start,
        "server_url": server_url,
        "server_token": server_token,
    }
    return vf.load_environment(vf.resolve_env_config({**config, "taskset": taskset}))
