"""Logged data for off-policy estimation: a behaviour agent's records, replayed in the env.

A record keeps the actions, rewards and behaviour probabilities of an episode, not its
observations. envsuite envs are deterministic given the reset seed and the actions, so the
observations and infos are recomputed by resetting the env with the record's seed and
stepping the recorded actions. Each candidate is fed that trajectory through
``action_probabilities`` (see :mod:`~envsuite.evaluation.policy_selection.policy`), which
gives π_e of the logged action and π_e over every action (for the DR model). Every replayed
reward must equal the recorded one exactly (same seed and actions give byte-identical
rewards); a difference means a non-deterministic env or an altered record, and stops the
estimate with a :class:`LoggedReplayError`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from gymnasium import spaces

from envsuite.episodes import TERMINATED, TRUNCATED, EnvCallError, run_gymnasium_episode
from envsuite.errors import EnvsuiteError
from envsuite.evaluation.policy_selection.policy import (
    TOTAL_TOLERANCE,
    action_key,
    checked_distribution,
)
from envsuite.records import EpisodeRecord
from envsuite.seeding import derive_seed

FloatArray = np.ndarray

#: The loop's stop reason when every recorded action has been replayed.
TRACE_END = "trace_end"


class LoggedReplayError(EnvsuiteError, ValueError):
    """A logged episode cannot be used: no trace or probabilities, or it does not replay."""


@dataclass(frozen=True)
class LoggedData:
    """Replayed logged episodes as ``(n, T)`` arrays padded to the longest episode.

    Padding follows :mod:`~envsuite.evaluation.policy_selection.estimators`: reward 0,
    probability 1 for the behaviour policy and for every candidate's logged action.

    Attributes:
        seeds: Reset seed of each episode.
        vocabulary: Action keys (:func:`~envsuite.evaluation.policy_selection.policy.action_key`)
            of every action seen logged or given probability by a candidate, sorted.
        rewards: ``(n, T)`` rewards.
        behavior_probs: ``(n, T)`` π_b of the logged actions.
        mask: ``(n, T)`` True where the episode is running.
        actions: ``(n, T)`` index of the logged action in ``vocabulary`` (0 on padding).
        features: ``(n, T, F)`` observations flattened to floats (F = 0 for text).
        target_dist: Candidate name -> ``(n, T, A)`` π_e over ``vocabulary``.
    """

    seeds: list[int]
    vocabulary: list[str]
    rewards: FloatArray
    behavior_probs: FloatArray
    mask: np.ndarray
    actions: np.ndarray
    features: FloatArray
    target_dist: dict[str, FloatArray]

    @property
    def episodes(self) -> int:
        """Number of logged episodes n."""
        return int(self.rewards.shape[0])

    def target_probs(self, name: str) -> FloatArray:
        """``(n, T)`` π_e of each logged action for candidate ``name`` (1 on padding)."""
        dist = self.target_dist[name]
        logged = np.take_along_axis(dist, self.actions[:, :, None], axis=2)[:, :, 0]
        return np.where(self.mask, logged, 1.0)


@dataclass
class _Episode:
    seed: int
    rewards: list[float]
    behavior: list[float]
    actions: list[str]
    features: list[FloatArray]
    dists: dict[str, list[dict[str, float]]]


def env_action(action: Any, space: Any) -> Any:
    """A trace action (JSON form) as the env takes it: an int for ``Discrete`` spaces."""
    if isinstance(space, spaces.Discrete):
        return int(action)
    if isinstance(action, list):
        return np.asarray(action, dtype=getattr(space, "dtype", None))
    return action


def observation_features(observation: Any) -> FloatArray:
    """The observation flattened to floats, or an empty vector when it is not numeric."""
    if isinstance(observation, str):
        return np.zeros(0)
    try:
        return np.asarray(observation, dtype=np.float64).ravel()
    except (TypeError, ValueError):
        return np.zeros(0)


def _check_record(record: EpisodeRecord) -> list[float]:
    where = f"logged episode (seed {record.seed})"
    if record.infra_error is not None:
        raise LoggedReplayError(f"{where} has an infra error: {record.infra_error}")
    if len(record.trace) != record.length:
        raise LoggedReplayError(
            f"{where} holds {len(record.trace)} trace steps for length {record.length}; "
            "the behaviour run must record traces"
        )
    probabilities = []
    for t, step in enumerate(record.trace):
        p = step.probability
        if not isinstance(p, int | float):
            raise LoggedReplayError(
                f"{where}, step {t}: no behaviour probability recorded; the behaviour agent "
                "must implement last_action_probability()"
            )
        if not 0.0 < p <= 1.0 + TOTAL_TOLERANCE:
            raise LoggedReplayError(
                f"{where}, step {t}: behaviour probability {p} is not in (0, 1]"
            )
        probabilities.append(min(float(p), 1.0))
    return probabilities


def replay_episode(record: EpisodeRecord, env: Any, candidates: Mapping[str, Any]) -> _Episode:
    """Replay one logged episode, feeding each candidate through ``action_probabilities``.

    The recorded actions are played through the Gymnasium loop of
    :mod:`envsuite.episodes`, as the behaviour run played them.
    """
    behavior = _check_record(record)
    where = f"logged episode (seed {record.seed})"
    for agent in candidates.values():
        agent.reset(seed=derive_seed(record.seed, "agent", record.attempt))
    episode = _Episode(record.seed, [], behavior, [], [], {name: [] for name in candidates})
    trace = record.trace

    def policy(_: Any, observation: Any, info: Mapping[str, Any]) -> Any:
        step = trace[len(episode.actions)]
        episode.features.append(observation_features(observation))
        for name, agent in candidates.items():
            raw = agent.action_probabilities(observation, info)
            episode.dists[name].append(checked_distribution(raw, f"candidate {name!r}"))
        episode.actions.append(action_key(step.action))
        return env_action(step.action, env.action_space)

    def observer(_: Any, action: Any, __: Any, reward: float, *rest: Any) -> None:
        t = len(episode.rewards)
        if reward != trace[t].reward:
            raise LoggedReplayError(
                f"{where}, step {t}: the replayed reward {reward!r} differs from the "
                f"recorded {trace[t].reward!r}; the env is not deterministic or the record "
                "was altered"
            )
        episode.rewards.append(reward)

    def stop(steps: int) -> str | None:
        return TRACE_END if steps >= len(trace) else None

    try:
        result = run_gymnasium_episode(env, record.seed, policy, observer=observer, stop=stop)
    except EnvCallError as exc:
        raise LoggedReplayError(f"{where}: {exc}") from exc
    if result.stop_reason != TRACE_END and result.length < len(trace):
        raise LoggedReplayError(
            f"{where}: the replayed episode ended after {result.length} steps, the record has "
            f"{record.length}; the env is not deterministic or the record was altered"
        )
    if record.stop_reason in (TERMINATED, TRUNCATED) and result.stop_reason == TRACE_END:
        raise LoggedReplayError(
            f"{where}: the record ended after {record.length} steps but the replayed episode "
            "goes on; the env is not deterministic or the record was altered"
        )
    return episode


def replay_logged(
    records: Sequence[EpisodeRecord], env: Any, candidates: Mapping[str, Any]
) -> LoggedData:
    """Replay every logged episode and stack them into :class:`LoggedData`.

    Args:
        records: The behaviour agent's records (single-agent, with traces and
            probabilities), in a fixed order (it decides the DR folds).
        env: A made env of the records' env id and kwargs.
        candidates: Candidate name -> agent implementing ``action_probabilities``.

    Returns:
        The logged data.

    Raises:
        LoggedReplayError: a record without trace or probabilities, or that does not replay.
        PolicyProbabilityError: a candidate's probabilities are not a distribution.
    """
    if not records:
        raise LoggedReplayError("no logged episodes to replay")
    episodes = [replay_episode(record, env, candidates) for record in records]
    keys = {key for episode in episodes for key in episode.actions}
    for episode in episodes:
        keys.update(key for dists in episode.dists.values() for d in dists for key in d)
    vocabulary = sorted(keys)
    index = {key: i for i, key in enumerate(vocabulary)}
    n, steps = len(episodes), max(len(episode.rewards) for episode in episodes)
    widths = {features.size for episode in episodes for features in episode.features}
    width = widths.pop() if len(widths) == 1 else 0
    rewards, behavior = np.zeros((n, steps)), np.ones((n, steps))
    mask, actions = np.zeros((n, steps), dtype=bool), np.zeros((n, steps), dtype=np.int64)
    features = np.zeros((n, steps, width))
    target = {name: np.zeros((n, steps, len(vocabulary))) for name in candidates}
    for i, episode in enumerate(episodes):
        length = len(episode.rewards)
        rewards[i, :length] = episode.rewards
        behavior[i, :length] = episode.behavior
        mask[i, :length] = True
        actions[i, :length] = [index[key] for key in episode.actions]
        if width:
            features[i, :length] = np.stack(episode.features)
        for name, dists in episode.dists.items():
            for t, dist in enumerate(dists):
                for key, probability in dist.items():
                    target[name][i, t, index[key]] = probability
    return LoggedData(
        seeds=[episode.seed for episode in episodes],
        vocabulary=vocabulary,
        rewards=rewards,
        behavior_probs=behavior,
        mask=mask,
        actions=actions,
        features=features,
        target_dist=target,
    )
