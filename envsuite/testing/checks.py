"""The conformance checks. Each takes an :class:`EnvSpec` and raises ConformanceError.

Every check builds its own envs from the spec (with the spec's ``test_kwargs``), so a spec
that is not registered, such as a deliberately broken one in a test, is checked the same way.
The env's kind comes from ``spec.api``: single-agent envs are checked as Gymnasium envs,
``parallel`` specs in their Parallel form (and the AEC form PettingZoo converts them to),
``aec`` (turn-based) specs in their AEC form only.

Nondeterministic backends: a spec declared ``nondeterministic=True`` is held to every
rule (API, spaces, malformed actions, the oracle, the global RNG, an unseeded first
reset, render shapes) except bit-identical observations. Its env must provide
``state_digest() -> str``, a hash of its logical state; the determinism and pickle
checks compare digests, rewards and terminations along replayed actions instead of
observations and infos (see :mod:`envsuite.testing.logical_state`), PettingZoo's
``seed_test`` is left out and ``rgb_array`` frames need not match between two envs.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import importlib
import io
import math
import pickle
import random
import re
import warnings
from collections.abc import Callable, Mapping
from typing import Any
from unittest.mock import patch

import gymnasium
import numpy as np
from gymnasium.spaces import Text
from gymnasium.utils.env_checker import check_env

from envsuite.action_errors import ParseActionBugWarning
from envsuite.env_base import DOCSTRING_SECTIONS
from envsuite.registry import EnvSpec
from envsuite.seeding import derive_seed
from envsuite.testing.failures import ConformanceError as ConformanceError
from envsuite.testing.failures import fail as _fail
from envsuite.testing.hostile_actions import (
    HOSTILE_ACTIONS,
    HOSTILE_ALWAYS_WRONG,
    HOSTILE_JOINT_ACCEPTED,
    HOSTILE_JOINT_ACTIONS,
)
from envsuite.testing.logical_state import (
    NoStateDigest,
    compare_traces,
    logical_trace,
    same,
    state_digest,
)
from envsuite.testing.rollout import (
    ActionChooser,
    Episode,
    MixedPolicy,
    episode_success,
    form_of,
    iter_step_values,
    make_for_test,
    play,
    random_policy,
    run_episode,
)
from envsuite.testing.turn_rules import check_dead_steps, check_off_turn_action

#: Seeds the checks use (fixed, so a failure reproduces).
SEEDS = (0, 1, 2, 3, 4)
#: Seeds the oracle is held to its ``oracle_success`` on.
ORACLE_SEEDS = tuple(range(10))
#: Steps per episode for checks that do not need to reach the end.
SHORT_EPISODE = 60
#: Steps rendered after the reset, in every render mode.
RENDER_STEPS = 2
#: Steps taken after a new env's first, unseeded reset.
UNSEEDED_STEPS = 5

#: Actions no env may crash on, whatever its action space.
MALFORMED_ACTIONS: tuple[tuple[str, Any], ...] = (
    ("random bytes", bytes(range(7, 256, 9))),
    ("empty string", ""),
    ("NUL and control characters", "\x00\x01\x1b[31m\x7f"),
    ("random unicode", "\u202e🙃\udcff\ufffd漢字"),
    ("very long string", "a" * 200_000),
    ("None", None),
    ("float", 3.7),
    ("NaN", float("nan")),
    ("negative int", -1),
    ("huge int", 2**70),
    ("bool", True),
    ("list", [1, 2, 3]),
    ("dict", {"action": 1}),
    ("wrong-shape array", np.zeros((3, 3, 3))),
    ("object", object()),
)
#: Of those, the ones that are wrong for every env: they must set ``parse_error``.
ALWAYS_WRONG = frozenset({"random bytes", "None", "dict", "object", "wrong-shape array"})


# -- spec-level checks ---------------------------------------------------------------------
def check_spec_round_trip(spec: EnvSpec) -> None:
    """The spec survives ``to_json`` / ``from_json`` unchanged."""
    again = EnvSpec.from_json(spec.to_json())
    if again != spec:
        raise _fail(spec, f"spec JSON round trip changed it: {again} != {spec}")


def check_docstring(spec: EnvSpec) -> None:
    """The env's docstring has the template's sections, in order."""
    doc = spec.load().__doc__ or ""
    positions = []
    for section in DOCSTRING_SECTIONS:
        match = re.search(rf"^\s*{re.escape(section)}:\s*$", doc, flags=re.MULTILINE)
        if match is None:
            raise _fail(spec, f"docstring lacks the {section!r} section")
        positions.append(match.start())
    if positions != sorted(positions):
        raise _fail(spec, f"docstring sections are out of order; expected {DOCSTRING_SECTIONS}")


def check_spec_hash(spec: EnvSpec) -> None:
    """Made envs carry a stable sha256 spec hash that tracks the effective kwargs."""
    env = make_for_test(spec)
    value = env.unwrapped.spec_hash
    if not (isinstance(value, str) and re.fullmatch(r"[0-9a-f]{64}", value)):
        raise _fail(spec, f"spec_hash is not a sha256 hex digest: {value!r}")
    if make_for_test(spec).unwrapped.spec_hash != value:
        raise _fail(spec, "two envs made alike have different spec hashes")
    explicit = spec.canonical_kwargs(spec.test_kwargs)
    explicit.pop("render_mode", None)
    if make_for_test(spec, **explicit).unwrapped.spec_hash != value:
        raise _fail(spec, "spelling out the default kwargs changed the spec hash")
    env.close()


# -- API checks ----------------------------------------------------------------------------
def check_gymnasium_api(spec: EnvSpec) -> None:
    """Gymnasium's own ``check_env`` passes on the unwrapped env."""
    env = make_for_test(spec)
    # check_env also makes the env in ``human`` render mode, which prints a text env's
    # observations: the kit's caller would see them on its stdout.
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")  # check_env's advice is printed, not our contract
        check_env(env.unwrapped)
    env.close()


def _text_aware_dtype_check(original: Any) -> Any:
    """Wrap PettingZoo's observation dtype check so that text observations can pass it.

    ``api_test`` asserts ``space.dtype == observation.dtype``, and a ``str`` has no
    ``dtype`` (an AttributeError for every text env; PettingZoo issue #1111). For a text
    space the equivalent check is that the observation is a ``str``; every other space is
    checked by PettingZoo's own function, unchanged.
    """

    def check(expected: Any, seen: Any, recursed_keys: list[str]) -> None:
        if isinstance(expected, Text):
            if not isinstance(seen, str):
                where = "][".join(recursed_keys)
                raise AssertionError(
                    f"observation at [{where}] is {type(seen).__name__}, but the observation "
                    "space is a text space (expects str)"
                )
            return
        original(expected, seen, recursed_keys)

    return check


def check_pettingzoo_api(spec: EnvSpec) -> None:
    """PettingZoo's own tests pass on each form the spec has.

    ``parallel`` specs: ``api_test``, ``parallel_api_test``, ``seed_test`` and
    ``parallel_seed_test``. ``aec`` (turn-based) specs: ``api_test`` and ``seed_test`` on
    the AEC form. ``seed_test`` compares observations, so nondeterministic specs skip it.
    """
    from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

    # ``pettingzoo.test.api_test`` is also the name of the function the package exports.
    api_test_module = importlib.import_module("pettingzoo.test.api_test")
    original = api_test_module._test_observation_space_compatibility
    with (
        warnings.catch_warnings(),
        contextlib.redirect_stdout(io.StringIO()),  # api_test prints its progress
        patch.object(
            api_test_module,
            "_test_observation_space_compatibility",
            _text_aware_dtype_check(original),
        ),
    ):
        warnings.simplefilter("ignore")
        api_test(make_for_test(spec, parallel=False), num_cycles=200)
        if spec.api == "parallel":
            parallel_api_test(make_for_test(spec, parallel=True), num_cycles=200)
        if spec.nondeterministic:
            return
        seed_test(lambda: make_for_test(spec, parallel=False), num_cycles=100)
        if spec.api == "parallel":
            parallel_seed_test(lambda: make_for_test(spec, parallel=True), num_cycles=100)


# -- behaviour checks ----------------------------------------------------------------------
def _episodes(
    spec: EnvSpec,
    env: Any,
    seeds: tuple[int | None, ...],
    steps: int,
    parallel: bool | None = None,
) -> list[Episode]:
    """Episodes of ``env`` (made by :func:`make_for_test` with ``parallel``) by the mixed policy."""
    policy = MixedPolicy(spec, env, ActionChooser(0))
    episodes = []
    for seed in seeds:
        policy.reset(seed)
        episodes.append(run_episode(form_of(spec, parallel), env, seed, policy, steps))
    return episodes


def _compare_episodes(
    spec: EnvSpec, first: list[Episode], second: list[Episode], what: str
) -> None:
    for index, (a, b) in enumerate(zip(first, second, strict=True)):
        if not same(a.observation, b.observation) or not same(a.info, b.info):
            raise _fail(spec, f"{what}: episode {index} starts differently")
        if len(a.transitions) != len(b.transitions):
            raise _fail(spec, f"{what}: episode {index} lengths differ")
        for t, (x, y) in enumerate(zip(a.transitions, b.transitions, strict=True)):
            for name in ("observation", "reward", "terminated", "truncated", "info"):
                if not same(getattr(x, name), getattr(y, name)):
                    raise _fail(spec, f"{what}: episode {index}, step {t}: {name} differs")


def check_determinism(spec: EnvSpec) -> None:
    """Two envs, same seeds, same actions: identical observations, rewards and infos.

    Covers seeded resets and an unseeded reset that continues the env's generator.
    Nondeterministic specs: identical state digests, rewards and terminations instead.
    """
    seeds: tuple[int | None, ...] = (7, None, 11)
    if spec.nondeterministic:
        trace = logical_trace(spec, make_for_test(spec), seeds, SHORT_EPISODE)
        again = logical_trace(spec, make_for_test(spec), seeds, SHORT_EPISODE, trace.actions)
        compare_traces(spec, trace, again, "same seed and actions")
        return
    first = _episodes(spec, make_for_test(spec), seeds, SHORT_EPISODE)
    second = _episodes(spec, make_for_test(spec), seeds, SHORT_EPISODE)
    _compare_episodes(spec, first, second, "same seed and actions")


def check_pickle(spec: EnvSpec) -> None:
    """A pickled copy of a running env continues exactly like the original.

    Nondeterministic specs: the copy has the original's state digest, and continues with
    the same digests, rewards and terminations.
    """
    env = make_for_test(spec)
    chooser = ActionChooser(3)
    policy = random_policy(spec, env, chooser)
    run_episode(form_of(spec), env, 5, policy, max_steps=3)
    try:
        twin = pickle.loads(pickle.dumps(env))
    except Exception as exc:
        raise _fail(spec, f"the env cannot be pickled ({type(exc).__name__}: {exc})") from exc
    if spec.nondeterministic:
        try:
            same = state_digest(env) == state_digest(twin)
        except NoStateDigest as exc:
            raise _fail(spec, f"is declared nondeterministic, but {exc}") from exc
        if not same:
            raise _fail(spec, "pickled copy: state_digest() differs from the original's")
        trace = logical_trace(spec, env, (None, 9), SHORT_EPISODE)
        again = logical_trace(spec, twin, (None, 9), SHORT_EPISODE, trace.actions)
        compare_traces(spec, trace, again, "pickled copy")
        return
    first = _episodes(spec, env, (None, 9), SHORT_EPISODE)
    second = _episodes(spec, twin, (None, 9), SHORT_EPISODE)
    _compare_episodes(spec, first, second, "pickled copy")


def _check_step_values(spec: EnvSpec, env: Any, episode: Episode) -> None:
    for agent, observation, reward, info in iter_step_values(episode):
        space = env.observation_space if agent is None else env.observation_space(agent)
        if observation is not None and not space.contains(observation):
            raise _fail(spec, f"observation outside observation_space: {observation!r:.200}")
        if not isinstance(reward, int | float | np.integer | np.floating) or not math.isfinite(
            float(reward)
        ):
            raise _fail(spec, f"reward is not a finite number: {reward!r}")
        if not isinstance(info, Mapping) or "parse_error" not in info:
            raise _fail(spec, "info lacks the 'parse_error' key")
        error = info["parse_error"]
        if error is not None and not (isinstance(error, str) and error):
            raise _fail(spec, f"parse_error must be None or a non-empty str, got {error!r}")
        if "score" in info and not 0.0 <= float(info["score"]) <= 1.0:
            raise _fail(spec, f"info['score'] outside [0, 1]: {info['score']!r}")
        if "success" in info and not isinstance(info["success"], bool | np.bool_):
            raise _fail(spec, f"info['success'] is not a bool: {info['success']!r}")


def check_rollout_values(spec: EnvSpec) -> None:
    """Over random rollouts: observations in their space, finite rewards, shared info keys."""
    env = make_for_test(spec)
    for episode in _episodes(spec, env, SEEDS[:3], SHORT_EPISODE):
        _check_step_values(spec, env, episode)


def check_unseeded_first_reset(spec: EnvSpec) -> None:
    """A new env reset without a seed takes its first steps: no crash, values as in a rollout.

    Every other check seeds an env's first reset, so state that only a seed sets up (a
    generator read directly, not through ``np_random``, which makes one on first use)
    would go unchecked. Here a new env gets ``reset()`` and :data:`UNSEEDED_STEPS` steps of
    the mixed policy, whose values must keep :func:`check_rollout_values`' rules. A
    ``parallel`` spec's AEC form must take them too (its values are not checked: between
    two Parallel steps PettingZoo's converter shows the reset's infos). The seed comes from
    the OS, so a failure names the generator's seed (``reset(seed=...)`` with it draws the
    same episode).
    """
    for parallel in (None, False) if spec.api == "parallel" else (None,):
        env = make_for_test(spec) if parallel is None else make_for_test(spec, parallel=parallel)
        try:
            [episode] = _episodes(spec, env, (None,), UNSEEDED_STEPS, parallel)
        except ParseActionBugWarning:
            raise  # run_conformance names a parser's bug itself
        except Exception as exc:
            raise _fail(
                spec,
                f"{form_of(spec, parallel)} form: reset() without a seed, then steps, raised "
                f"{type(exc).__name__}: {exc} (np_random_seed: {_generator_seed(env)})",
            ) from exc
        if parallel is None:
            _check_step_values(spec, env, episode)
        env.close()


def _generator_seed(env: Any) -> int | None:
    """The seed of the env's generator, None when it has none (read without making one).

    Gymnasium's ``np_random_seed`` property makes a generator when there is none, so for
    Gymnasium envs the attribute behind it is read.
    """
    unwrapped = env.unwrapped
    if isinstance(unwrapped, gymnasium.Env):
        return unwrapped._np_random_seed
    return getattr(unwrapped, "np_random_seed", None)


def _step_once(spec: EnvSpec, env: Any, action: Any) -> tuple[Any, Any, Any]:
    """One step with ``action`` (the first agent's, or the agent to move's, if multi-agent)."""
    form = form_of(spec)
    if form == "aec":
        agent = env.agent_selection
        env.step(action)
        observation = env.observe(agent) if agent in env.agents else None
        return observation, env.rewards.get(agent, 0.0), env.infos.get(agent, {})
    if form == "parallel":
        agents = list(env.agents)
        actions = {agent: action for agent in agents[:1]}
        chooser = ActionChooser(1)
        for agent in agents[1:]:
            actions[agent] = chooser.choose(env.action_space(agent), {})
        observations, rewards, _, _, infos = env.step(actions)
        return observations.get(agents[0]), rewards.get(agents[0]), infos.get(agents[0], {})
    observation, reward, _, _, info = env.step(action)
    return observation, reward, info


def _check_malformed_step(
    spec: EnvSpec, env: Any, name: str, step: Callable[[], tuple[Any, Any, Any]], wrong: bool
) -> None:
    """Run ``step`` (one step with a malformed action) and check what it returned."""
    try:
        observation, reward, info = step()
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt | ParseActionBugWarning):
            raise  # run_conformance names a parser's bug itself
        raise _fail(spec, f"step({name}) raised {type(exc).__name__}") from exc
    if not isinstance(info, Mapping) or "parse_error" not in info:
        raise _fail(spec, f"step({name}): info lacks 'parse_error'")
    if wrong and not info["parse_error"]:
        raise _fail(spec, f"step({name}) was accepted without a parse_error")
    if not math.isfinite(float(reward)):
        raise _fail(spec, f"step({name}) gave a non-finite reward {reward!r}")
    space = (
        env.observation_space(env.possible_agents[0]) if spec.multi_agent else env.observation_space
    )
    if observation is not None and not space.contains(observation):
        raise _fail(spec, f"step({name}) gave an observation outside observation_space")


def _step_joint(env: Any, build: Callable[[dict[str, Any]], Any]) -> tuple[Any, Any, Any]:
    """One Parallel step with a hostile joint action built from valid-looking actions."""
    agents = list(env.agents)
    chooser = ActionChooser(1)
    valid = {agent: chooser.choose(env.action_space(agent), {}) for agent in agents}
    observations, rewards, _, _, infos = env.step(build(valid))
    return observations.get(agents[0]), rewards.get(agents[0]), infos.get(agents[0], {})


def _step_once_made(spec: EnvSpec, env: Any, make: Callable[[], Any]) -> tuple[Any, Any, Any]:
    return _step_once(spec, env, make())


def _step_aec(env: Any, make: Callable[[], Any]) -> tuple[Any, Any, Any]:
    """One AEC cycle: ``make()`` for the first agent to move, sampled actions for the rest."""
    first = env.agent_selection
    env.step(make())
    chooser = ActionChooser(1)
    for agent in env.agent_iter(len(env.possible_agents) - 1):
        if agent == first:
            break
        done = env.terminations[agent] or env.truncations[agent]
        env.step(None if done else chooser.choose(env.action_space(agent), {}))
    observation = env.observe(first) if first in env.agents else None
    return observation, env.rewards.get(first, 0.0), env.infos.get(first, {})


def check_malformed_actions(spec: EnvSpec) -> None:
    """Malformed and hostile actions never raise; clearly wrong ones set ``parse_error``.

    Every action of :data:`MALFORMED_ACTIONS` and of
    :data:`~envsuite.testing.hostile_actions.HOSTILE_ACTIONS` is stepped (for multi-agent
    envs as one agent's action, in the Parallel and the AEC form), and every hostile joint
    action of :data:`~envsuite.testing.hostile_actions.HOSTILE_JOINT_ACTIONS` is passed to
    a ``parallel`` spec's Parallel ``step`` whole. Turn-based (``aec``) specs: the actions
    are the agent to move's; an action sent for another agent (``step(action,
    agent=name)``) and an action other than None for a finished agent must be refused
    with that agent's ``parse_error``, never raise (see :mod:`envsuite.aec_env_base`).
    """
    env = make_for_test(spec)
    cases: list[tuple[str, Callable[[], Any], bool]] = [
        (name, functools.partial(copy.copy, action), name in ALWAYS_WRONG)
        for name, action in MALFORMED_ACTIONS
    ]
    cases += [(name, make, name in HOSTILE_ALWAYS_WRONG) for name, make in HOSTILE_ACTIONS]
    for name, make, wrong in cases:
        env.reset(seed=0)
        step = functools.partial(_step_once_made, spec, env, make)
        _check_malformed_step(spec, env, name, step, wrong)
    env.close()
    if spec.api == "aec":
        check_off_turn_action(spec)
        check_dead_steps(spec, cases)
        return
    if not spec.multi_agent:
        return
    env = make_for_test(spec)
    for name, build in HOSTILE_JOINT_ACTIONS:
        env.reset(seed=0)
        step = functools.partial(_step_joint, env, build)
        wrong = name not in HOSTILE_JOINT_ACCEPTED
        _check_malformed_step(spec, env, f"joint action: {name}", step, wrong)
    env.close()
    aec = make_for_test(spec, parallel=False)
    for name, make, wrong in cases:
        aec.reset(seed=0)
        step = functools.partial(_step_aec, aec, make)
        _check_malformed_step(spec, aec, f"AEC: {name}", step, wrong)
    aec.close()


def check_oracle(spec: EnvSpec) -> None:
    """The oracle succeeds on at least ``oracle_success`` of the seeds.

    Single-agent: the last ``info["success"]``; multi-agent: the env's
    ``episode_success`` hook (the oracle plays every seat).
    """
    if spec.oracle is None:
        raise _fail(spec, "has no oracle (every env needs one)")
    env = make_for_test(spec)
    oracle = spec.load_oracle()(env)
    if isinstance(oracle, Mapping):
        seats = oracle

        def policy(agent: Any, observation: Any, info: Any) -> Any:
            return seats[agent].act(observation, info)

    else:
        single = oracle

        def policy(agent: Any, observation: Any, info: Any) -> Any:
            return single.act(observation, info)

    successes = 0
    for seed in ORACLE_SEEDS:
        if isinstance(oracle, Mapping):
            for name, agent in oracle.items():
                agent.reset(seed=derive_seed(seed, "oracle-agent", str(name)))
        else:
            oracle.reset(seed=seed)
        episode = run_episode(form_of(spec), env, seed, policy, 10_000)
        successes += episode_success(spec, env, episode)
    rate = successes / len(ORACLE_SEEDS)
    if rate < spec.oracle_success:
        raise _fail(
            spec, f"the oracle succeeded on {rate:.0%} of seeds, below {spec.oracle_success:.0%}"
        )


def check_global_rng_untouched(spec: EnvSpec) -> None:
    """Making, resetting and stepping never reads or writes the global random generators."""
    python_state = random.getstate()
    numpy_state = np.random.get_state()
    env = make_for_test(spec)
    _episodes(spec, env, (0, None), SHORT_EPISODE)
    env.close()
    if random.getstate() != python_state:
        raise _fail(spec, "the global `random` state changed (use self.np_random)")
    after = np.random.get_state()
    if not all(same(a, b) for a, b in zip(numpy_state, after, strict=True)):
        raise _fail(spec, "the global `numpy.random` state changed (use self.np_random)")


def _render_rollout(spec: EnvSpec, mode: str, steps: int = RENDER_STEPS) -> list[Any]:
    """The frames of ``mode`` after a seeded reset and after each of a few random actions."""
    env = make_for_test(spec, render_mode=mode)
    choose = random_policy(spec, env, ActionChooser(0))
    frames: list[Any] = []

    def policy(agent: Any, observation: Any, info: Any) -> Any:
        if not frames:  # first asked right after the reset
            frames.append(env.render())
        return choose(agent, observation, info)

    def observer(*_: Any) -> None:
        frames.append(env.render())

    # Human mode prints (text envs) or warns that no window can open (no display).
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        play(form_of(spec), env, 0, policy, observer, steps)
    env.close()
    return frames


def _check_frames(spec: EnvSpec, mode: str, frames: list[Any]) -> None:
    for frame in frames:
        if mode == "ansi" and not isinstance(frame, str):
            raise _fail(spec, f"render_mode='ansi' returned {type(frame).__name__}, not str")
        if mode == "human" and frame is not None:
            raise _fail(spec, f"render_mode='human' returned {type(frame).__name__}, not None")
        if mode == "rgb_array" and not (
            isinstance(frame, np.ndarray)
            and frame.ndim == 3
            and frame.shape[2] == 3
            and frame.dtype == np.uint8
        ):
            shown = getattr(frame, "shape", type(frame).__name__)
            raise _fail(spec, f"render_mode='rgb_array' gave {shown}, not an HxWx3 uint8 array")
    if mode == "rgb_array" and len({frame.shape for frame in frames}) != 1:
        shapes = sorted({frame.shape for frame in frames})
        raise _fail(spec, f"render_mode='rgb_array' frames change shape: {shapes}")


def check_render_modes(spec: EnvSpec) -> None:
    """Every env renders ``rgb_array``, and every declared mode renders as its API says.

    After a seeded reset and after each of a few steps: ``ansi`` gives a str, ``human``
    gives None, ``rgb_array`` gives ``(H, W, 3)`` uint8 frames of one shape, the same
    bytes from two envs given the same seed and actions (so videos reproduce; not asked of
    nondeterministic specs). Multi-agent envs also pass PettingZoo's ``render_test``.
    """
    probe = make_for_test(spec)
    modes = list(probe.unwrapped.metadata.get("render_modes", []))
    probe.close()
    if "rgb_array" not in modes:
        raise _fail(spec, f"does not offer render_mode='rgb_array' (render_modes: {modes})")
    for mode in modes:
        frames = _render_rollout(spec, mode)
        _check_frames(spec, mode, frames)
        if mode == "rgb_array" and not spec.nondeterministic:
            again = _render_rollout(spec, mode)
            for index, (a, b) in enumerate(zip(frames, again, strict=True)):
                if a.tobytes() != b.tobytes():
                    raise _fail(
                        spec, f"rgb_array frame {index} differs between two envs seeded alike"
                    )
    if spec.multi_agent:
        from pettingzoo.test import render_test

        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
            warnings.simplefilter("ignore")
            try:
                render_test(lambda **kwargs: make_for_test(spec, parallel=False, **kwargs))
            except AssertionError as exc:
                raise _fail(spec, f"PettingZoo's render_test failed: {exc}") from exc


def _action_space(spec: EnvSpec, env: Any) -> Any:
    """The action space of the agent that acts next (single-agent: the env's)."""
    if form_of(spec) == "aec":
        return env.action_space(env.agent_selection)
    if spec.multi_agent:
        return env.action_space(env.agents[0] if env.agents else env.possible_agents[0])
    return env.action_space
