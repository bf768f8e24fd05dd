"""Replaying recorded action traces in the real envs, requiring the recorded outcome exactly.

A replay makes the env from the record's ``env_id`` and ``env_kwargs``, resets it with the
record's seed and steps the recorded actions (multi-agent envs in their native form: one
action dict per step for Parallel envs, one acting agent's action per step for AEC envs),
through the runner's own episode loop (:mod:`envsuite.episodes`), so success, score, metrics
and curves are derived exactly as the runner derived them. Every reward must equal the
recorded one bit for bit, and so must the rest of the outcome.

Actions are stored as JSON, so they are turned back into what the action space expects
(numpy arrays for ``Box``, ints for ``Discrete``, ...) before stepping.

A seat that a panel's reference opponent held (``panel:AGENT`` in the record's lineup) is
not played back: the real opponent plays it again, seeded as the runner seeded it, so its
every action must be the recorded one. A submission cannot make the panel play worse
than it does.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from envsuite.agent_protocol import Agent
from envsuite.agents.lineup import (
    LineupError,
    format_lineup,
    is_lineup,
    is_panel_agent,
    parse_lineup,
)
from envsuite.agents.loading import load_agent
from envsuite.episodes import from_json_action
from envsuite.errors import UsageError
from envsuite.evaluation.episode_runner import (
    STEP_BUDGET_SPENT,
    WALL_TIME_SPENT,
    EnvCache,
    InfraError,
    run_multi_agent_episode,
    run_single_agent_episode,
)
from envsuite.evaluation.jobs import EpisodeJob
from envsuite.jsonable import canonical_json
from envsuite.leaderboard.board import BoardVersion
from envsuite.leaderboard.errors import REPLAY_MISMATCH, TraceReplayError
from envsuite.records import EpisodeRecord, Step, step_rewards
from envsuite.registry import registry
from envsuite.seeding import make_generator


class TraceAgent:
    """An agent that plays back recorded actions, converted for its action space."""

    def __init__(self, actions: Sequence[Any], action_space: Any) -> None:
        self._actions = [from_json_action(action, action_space) for action in actions]
        self._next = 0

    def reset(self, seed: int | None = None) -> None:
        """Start from the first recorded action (the seed plays no part in a replay)."""
        self._next = 0

    def act(self, observation: Any, info: Mapping[str, Any]) -> Any:
        """The next recorded action.

        Raises:
            TraceReplayError: the env asks for more actions than were recorded.
        """
        if self._next >= len(self._actions):
            raise TraceReplayError("the env asked for more actions than the trace holds")
        action = self._actions[self._next]
        self._next += 1
        return action


def panel_players(record: EpisodeRecord, spec: Any, env: Any) -> dict[str, Agent]:
    """The real agents of the seats a panel's opponents held in ``record`` (see the module).

    Raises:
        TraceReplayError: a panel opponent that cannot be built here.
    """
    if not is_lineup(record.agent_id):
        return {}
    try:
        seats = parse_lineup(record.agent_id)
    except LineupError:
        return {}
    panel = {seat: agent for seat, agent in seats.items() if is_panel_agent(agent)}
    if not panel:
        return {}
    try:
        built = load_agent(format_lineup(panel), spec, env)
    except UsageError as exc:
        raise TraceReplayError(f"cannot build the panel's opponent: {exc}") from exc
    assert isinstance(built, Mapping)
    return {seat: built[seat] for seat in panel}


def _outcome(record: EpisodeRecord, cache: EnvCache) -> dict[str, Any]:
    job = EpisodeJob(
        run_id=record.run_id,
        task_id=record.task_id,
        env_id=record.env_id,
        env_kwargs=record.env_kwargs,
        seed=record.seed,
        attempt=record.attempt,
        agent="replay",
        step_budget=max(record.length, 1),
    )
    spec, env = cache.get(job)
    started = time.perf_counter()
    if not spec.multi_agent:
        agent = TraceAgent([step.action for step in record.trace], env.action_space)
        return run_single_agent_episode(job, env, agent, started)
    # A Parallel step holds every live agent's action, an AEC step the one acting agent's:
    # either way each agent's own actions, in order, are what it played.
    joint = [step.action for step in record.trace if isinstance(step.action, dict)]
    panel = panel_players(record, spec, env)
    agents = {
        name: panel.get(name)
        or TraceAgent(
            [actions[name] for actions in joint if name in actions], env.action_space(name)
        )
        for name in env.possible_agents
    }
    return run_multi_agent_episode(EnvCache.kind(spec), job, env, agents, started)


def _difference(record: EpisodeRecord, outcome: dict[str, Any]) -> str | None:
    """What differs between the record and its replay (None when nothing does)."""
    replayed = [Step.model_validate(step) for step in outcome["trace"]]
    for number, (old, new) in enumerate(zip(record.trace, replayed, strict=False), start=1):
        if canonical_json(old.action) != canonical_json(new.action):
            return f"step {number}: the replay sent {new.action!r}, the trace holds {old.action!r}"
        if step_rewards(old.reward) != step_rewards(new.reward):
            return f"step {number}: recorded reward {old.reward!r}, the env gives {new.reward!r}"
    if outcome["length"] != record.length:
        return f"the episode lasts {outcome['length']} steps in the env, {record.length} recorded"
    # A replay runs under a step budget of the recorded length, never a wall clock.
    recorded_stop = (
        STEP_BUDGET_SPENT if record.stop_reason == WALL_TIME_SPENT else record.stop_reason
    )
    if outcome["stop_reason"] != recorded_stop:
        return f"the episode ends by {outcome['stop_reason']}, recorded {record.stop_reason}"
    for field in ("episode_return", "success", "score", "terminated", "metrics", "curves"):
        found = _first_difference(field, getattr(record, field), outcome[field])
        if found is not None:
            return found
    if record.agents:  # records written before per-agent outcomes have none to compare
        replayed_agents = {name: one.model_dump() for name, one in outcome["agents"].items()}
        recorded_agents = {name: one.model_dump() for name, one in record.agents.items()}
        return _first_difference("agents", recorded_agents, replayed_agents)
    return None


def _first_difference(where: str, old: Any, new: Any) -> str | None:
    """Where two JSON-like values first differ, as ``curves['regret'][3]: recorded ...``."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(set(old) | set(new)):
            if key not in old or key not in new:
                return f"{where}[{key!r}]: present in only one of the record and the replay"
            found = _first_difference(f"{where}[{key!r}]", old[key], new[key])
            if found is not None:
                return found
        return None
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for index, (a, b) in enumerate(zip(old, new, strict=True)):
            found = _first_difference(f"{where}[{index}]", a, b)
            if found is not None:
                return found
        return None
    if canonical_json(old) != canonical_json(new):
        return f"{where}: recorded {old!r:.80}, the env gives {new!r:.80}"
    return None


def replay_record(record: EpisodeRecord, cache: EnvCache | None = None) -> None:
    """Replay one record's trace and require its recorded outcome.

    Raises:
        TraceReplayError: the env gives another reward, length, ending, success, score, metric or
            curve than recorded, or fails while replaying.
    """
    own = cache is None
    cache = cache or EnvCache()
    name = {
        "env_id": record.env_id,
        "kwargs": canonical_json(record.env_kwargs),
        "seed": record.seed,
        "attempt": record.attempt,
    }
    try:
        outcome = _outcome(record, cache)
    except InfraError as exc:
        cause = exc.__cause__
        why = str(cause) if isinstance(cause, TraceReplayError) else str(exc)
        raise TraceReplayError(REPLAY_MISMATCH.format(**name, why=why)) from exc
    finally:
        if own:
            cache.close()
    difference = _difference(record, outcome)
    if difference is not None:
        raise TraceReplayError(REPLAY_MISMATCH.format(**name, why=difference))


def replay_sample(
    board: BoardVersion, records: Sequence[EpisodeRecord], salt: str, per_env: int | None = None
) -> list[EpisodeRecord]:
    """The records verification replays: a stratified random sample, ``per_env`` per entry.

    The generator is seeded with the board's replay seed and ``salt`` (the submission's
    manifest hash), so the sample is reproducible for given content and changes whenever the
    content does. Records with infra errors have nothing to replay and are never drawn.

    Args:
        board: The board (its replay settings give the default ``per_env``).
        records: The submission's records.
        salt: Mixed into the seed (the manifest's sha256).
        per_env: Traces per env entry (None: the board's setting; -1: all of them).
    """
    count = board.settings.replay.per_env if per_env is None else per_env
    rng = make_generator(board.settings.replay.seed, "replay", salt)
    chosen: list[EpisodeRecord] = []
    for pin in board.settings.envs:
        stratum = sorted(
            (r for r in records if (r.env_id, canonical_json(r.env_kwargs)) == pin.key),
            key=lambda r: (r.seed, r.attempt),
        )
        stratum = [r for r in stratum if r.infra_error is None]
        size = len(stratum) if count < 0 else min(count, len(stratum))
        picks = sorted(int(i) for i in rng.choice(len(stratum), size=size, replace=False))
        chosen.extend(stratum[i] for i in picks)
    return chosen


def opt_in_skipped(board: BoardVersion, record: EpisodeRecord) -> bool:
    """Whether the record's env belongs to a family whose replays are opt-in."""
    return registry[record.env_id].family in board.settings.replay.opt_in_families
