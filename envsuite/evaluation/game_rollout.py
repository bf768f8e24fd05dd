"""One multi-agent game of a rollout: chat seats awaited, the other seats as ``envsuite eval``.

:func:`play_game` plays a PettingZoo episode of a rollout (:mod:`envsuite.evaluation.rollout`)
on the event loop: the seats a chat model plays (``openai:MODEL`` in the job's agent string)
get an :class:`~envsuite.agents.async_chat_agent.AsyncChatAgent` each, every other seat the
agent ``envsuite eval`` builds for it (``random``, ``oracle``, a bot ``module:Class``), and
the episode runs in the shared loop of the env's kind (:func:`~envsuite.episodes.arun_episode`)
with the runner's own record keeping (:class:`~envsuite.evaluation.episode_runner.
MultiAgentEpisode`), so its record is the one ``envsuite eval`` writes for the same lineup
and replies. Each chat seat's transcript is what that seat observed
(:class:`~envsuite.evaluation.transcripts.LiveTranscripts`): the transcript
:func:`~envsuite.evaluation.transcripts.transcripts_from_record` rebuilds for that seat.

The chat seats of a Parallel step are asked at once (one request each, in flight
together); an AEC game asks one seat at a time, as its turns come. Bots act on the event
loop, or in a worker thread when the env's calls are (``env_calls_in_thread``): the
``oracle`` of a game behind ``envsuite serve`` is the server's (``--allow-oracle``), which
reads the hidden state the server keeps, and each of its actions is a request.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import httpx

from envsuite.agents.async_chat_agent import AsyncChatAgent
from envsuite.agents.lineup import format_lineup, seat_agents, unpanelled
from envsuite.agents.loading import load_agent
from envsuite.episodes import EnvCallError, arun_episode, native_kind
from envsuite.evaluation.episode_runner import (
    InfraError,
    MultiAgentEpisode,
    _failed_try_info,
    _runner_stop,
)
from envsuite.evaluation.jobs import EpisodeJob
from envsuite.evaluation.transcripts import LiveTranscripts, Transcript
from envsuite.registry import EnvSpec
from envsuite.remote.oracle import remote_oracle, served_env

#: How an agent string names a chat model.
CHAT_PREFIX = "openai:"


def _bots(job: EpisodeJob, spec: EnvSpec, env: Any, chats: Mapping[str, str]) -> dict[str, Any]:
    """Every seat's agent as ``envsuite eval`` builds it, chat seats standing in as random.

    An ``oracle`` seat of a served env asks the server's oracle (a server started with
    ``--allow-oracle``), since the oracle reads the env's hidden state, which stays there.
    """
    written = seat_agents(job.agent, list(env.possible_agents))
    try:
        served: Any = served_env(env)
    except TypeError:  # an env in this process
        served = None
    remote = {
        s for s, a in written.items() if served and s not in chats and unpanelled(a) == "oracle"
    }
    stand_ins = {s: "random" if s in chats or s in remote else a for s, a in written.items()}
    built = load_agent(format_lineup(stand_ins), spec, env, job.agent_options)
    assert isinstance(built, Mapping)
    agents = dict(built)
    if remote:
        oracles = remote_oracle(served)
        agents.update({seat: oracles[seat] for seat in remote})
    return agents


def chat_seats(agent: str, seats: Sequence[str]) -> dict[str, str]:
    """Seat -> model name, for each of ``seats`` a chat model plays under ``agent``."""
    return {
        seat: written.removeprefix(CHAT_PREFIX)
        for seat, written in seat_agents(agent, seats).items()
        if written.startswith(CHAT_PREFIX)
    }


@dataclass(frozen=True)
class SeatPlay:
    """What one chat seat did in a game: its transcript, per-turn usage and sampling.

    Attributes:
        seat: The seat (the env's agent name).
        model: The model that played it.
        transcript: What the seat observed and answered, with per-turn rewards.
        usage: One dict per answered turn (tokens, requests, retries, latency, ...).
        sampling: The seat's request ``seed`` and ``temperature``.
    """

    seat: str
    model: str
    transcript: Transcript
    usage: list[dict[str, float]]
    sampling: dict[str, Any]


async def play_game(
    job: EpisodeJob,
    spec: EnvSpec,
    env: Any,
    client: httpx.AsyncClient,
    options: Mapping[str, Any],
    system_prompt: str,
    env_calls_in_thread: bool,
    record_keys: tuple[tuple[str, ...], tuple[str, ...]] | None = None,
) -> tuple[dict[str, Any], list[SeatPlay]]:
    """Play ``job``'s game; return the record's fields and each chat seat's play.

    Args:
        job: The episode (its ``agent`` is the lineup).
        spec: The env's spec (its ``api`` names the loop).
        env: The made env, in its native form.
        client: The HTTP client the chat seats send through.
        options: The chat agents' arguments (``base_url``, ``temperature``, ...).
        system_prompt: The chat seats' system prompt unless ``options`` names one.
        env_calls_in_thread: Run the env's calls in a worker thread.
        record_keys: The info keys recorded as (curves, metrics); None: the raw env's
            (an env behind ``envsuite serve`` does not carry them).

    Raises:
        InfraError: the env or an agent raised (its ``agent_info`` set).
    """
    chats = chat_seats(job.agent, list(env.possible_agents))
    chat_options = {"system_prompt": system_prompt, **options}
    try:
        agents = _bots(job, spec, env, chats)
        for seat, model in chats.items():
            agents[seat] = AsyncChatAgent(model, client=client, **chat_options)
    except Exception as exc:  # a bot that cannot be built, chat options refused
        raise InfraError(f"making the agents raised {type(exc).__name__}: {exc}") from exc
    started = time.perf_counter()
    try:
        episode = MultiAgentEpisode(job, env, agents, record_keys)
        limits = agents[next(iter(chats))].image_limits if chats else None
        live = LiveTranscripts(env, native_kind(spec.api), limits, chat_options["system_prompt"])

        async def policy(seat: str, observation: Any, info: Mapping[str, Any]) -> Any:
            agent = agents[seat]
            try:
                if seat in chats:
                    live.shown(seat, observation, info)
                    return await agent.act(observation, info)
                if env_calls_in_thread:  # a bot may ask the server (a served oracle)
                    return await asyncio.to_thread(agent.act, observation, info)
                return agent.act(observation, info)
            except Exception as exc:
                raise InfraError(f"{seat}.act raised {type(exc).__name__}: {exc}") from exc

        def observer(*step: Any) -> None:
            episode.observer(*step)
            live.stepped(*step)

        try:
            result = await arun_episode(
                native_kind(spec.api),
                env,
                job.seed,
                policy,
                observer=observer,
                stop=_runner_stop(job, started),
                env_calls_in_thread=env_calls_in_thread,
            )
        except EnvCallError as exc:
            raise InfraError(str(exc)) from exc
    except InfraError as exc:
        exc.agent_info = _failed_try_info(agents)
        raise
    fields = episode.fields(result)
    fields["wall_time_s"] = time.perf_counter() - started
    transcripts = live.finish(result)
    plays = [
        SeatPlay(
            seat,
            model,
            transcripts[seat],
            list(agents[seat].turn_usage),
            {"seed": agents[seat].seed, "temperature": agents[seat].temperature},
        )
        for seat, model in chats.items()
    ]
    return fields, plays
