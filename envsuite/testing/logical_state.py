"""Logical-state traces: how the kit checks envs whose observations do not reproduce.

A spec declared ``nondeterministic=True`` (a real browser, whose pixels and timings vary
from run to run) cannot promise bit-identical observations for the same seed and actions.
Its *logical* state (the page's fields, the task's progress, the game position) must
still be deterministic, and the env shows it through ``state_digest() -> str``: a hash
(sha256 hex) of a canonical encoding of that state, equal whenever the logical state is.
:class:`~envsuite.aec_env_base.EnvsuiteAECEnv` declares the method; single-agent and
Parallel envs of nondeterministic specs define it themselves.

For such specs the determinism and pickle checks play the first env with the kit's usual
policy, record its actions, replay exactly those actions in the second env (or the pickled
copy) and compare the digest before every action and after every episode, with the
rewards, terminations and truncations; observations and infos are not compared.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from gymnasium.utils.env_checker import data_equivalence

from envsuite.registry import EnvSpec
from envsuite.testing.failures import fail
from envsuite.testing.rollout import ActionChooser, MixedPolicy, form_of, run_episode


class NoStateDigest(Exception):
    """The env has no usable ``state_digest()``."""


def state_digest(env: Any) -> str:
    """The env's ``state_digest()``, checked to be a non-empty str.

    Raises:
        NoStateDigest: the env has no ``state_digest``, it raised, or gave no text.
    """
    hook = getattr(env.unwrapped, "state_digest", None)
    if not callable(hook):
        raise NoStateDigest("its env has no state_digest() method")
    try:
        value = hook()
    except Exception as exc:
        raise NoStateDigest(f"state_digest() raised {type(exc).__name__}: {exc}") from exc
    if not isinstance(value, str) or not value:
        raise NoStateDigest(f"state_digest() must return a non-empty str, got {value!r:.80}")
    return value


@dataclass
class LogicalTrace:
    """What a run showed of the env's logical state.

    Attributes:
        digests: The digest before each action, and after the last step of each episode.
        outcomes: ``(reward, terminated, truncated)`` of each step, and an end marker
            after each episode.
        actions: Every action taken, in order (what a replay repeats).

    """

    digests: list[str] = field(default_factory=list)
    outcomes: list[Any] = field(default_factory=list)
    actions: list[Any] = field(default_factory=list)


class DigestingPolicy:
    """Asks ``choose`` for each action, noting the env's digest before it and the action."""

    def __init__(self, env: Any, choose: Callable[..., Any], trace: LogicalTrace) -> None:
        self.env = env
        self.choose = choose
        self.trace = trace

    def __call__(self, *args: Any) -> Any:
        """Same arguments as the policy it wraps (single-agent or multi-agent)."""
        self.trace.digests.append(state_digest(self.env))
        action = self.choose(*args)
        self.trace.actions.append(action)
        return action


def replay(actions: Sequence[Any]) -> Callable[..., Any]:
    """A policy giving ``actions`` in order (then None), whatever it is shown."""
    queue: Iterator[Any] = iter(list(actions))
    return lambda *args: next(queue, None)


def same(a: Any, b: Any) -> bool:
    """Exact equality of two values (arrays, dicts, lists of them); never raises."""
    try:
        return bool(data_equivalence(a, b, exact=True))
    except Exception:  # incomparable structures are not the same
        return False


def logical_trace(
    spec: EnvSpec,
    env: Any,
    seeds: tuple[int | None, ...],
    steps: int,
    actions: list[Any] | None = None,
) -> LogicalTrace:
    """Digests and outcomes along episodes of the kit's mixed policy, or a replay of ``actions``.

    ``env`` is made by :func:`~envsuite.testing.rollout.make_for_test` (its native form).
    """
    trace = LogicalTrace()
    mixed = MixedPolicy(spec, env, ActionChooser(0)) if actions is None else None
    policy = DigestingPolicy(env, mixed if mixed is not None else replay(actions or []), trace)
    try:
        for seed in seeds:
            if mixed is not None:
                mixed.reset(seed)
            episode = run_episode(form_of(spec), env, seed, policy, steps)
            trace.digests.append(state_digest(env))
            trace.outcomes += [(t.reward, t.terminated, t.truncated) for t in episode.transitions]
            trace.outcomes.append("end of episode")
    except NoStateDigest as exc:
        raise fail(spec, f"is declared nondeterministic, but {exc}") from exc
    return trace


def compare_traces(spec: EnvSpec, first: LogicalTrace, second: LogicalTrace, what: str) -> None:
    """Fail unless ``second`` (a replay of ``first``'s actions) matches it point by point.

    ``first``'s digests must change at least once: a digest that ignores the state would
    pass any comparison.
    """
    if len(set(first.digests)) < 2:
        raise fail(
            spec,
            f"state_digest() stayed {first.digests[0]!r:.20} over {len(first.actions)} actions; "
            "it must change with the logical state",
        )
    for index, (a, b) in enumerate(zip(first.digests, second.digests, strict=False)):
        if a != b:
            raise fail(spec, f"{what}: state_digest() differs at point {index} of the replay")
    if len(first.digests) != len(second.digests):
        raise fail(spec, f"{what}: the replay took a different number of steps")
    for index, (a, b) in enumerate(zip(first.outcomes, second.outcomes, strict=True)):
        if not same(a, b):
            raise fail(spec, f"{what}: rewards or terminations differ at step {index}")
