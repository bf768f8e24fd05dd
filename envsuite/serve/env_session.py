"""One served env and what a session does with it: reset, step, state, render, oracle.

An :class:`EnvSession` is synchronous and owns exactly one env, made with
:func:`envsuite.make`; the server calls it from worker threads, one call at a time per
session. Every answer is already encoded for the wire (:mod:`envsuite.remote.wire`), in the
observation object :mod:`envsuite.remote.protocol` describes, so the server only adds the
envelope.

Multi-agent envs: a session holds one game. AEC (turn-based) sessions step the agent to
move (``{"action": value, "agent": name}``); Parallel sessions take every live agent's
action at once (``{"actions": {agent: value}}``). Which form a session plays is chosen when
it is made (the spec's native form unless the client asks for the other).
"""

from __future__ import annotations

import inspect
import time
import uuid
from collections.abc import Mapping
from typing import Any

import envsuite
from envsuite.registry import EnvSpec
from envsuite.remote import wire
from envsuite.remote.actions import UNENCODABLE
from envsuite.remote.space_wire import describe_space
from envsuite.serve.errors import RequestError
from envsuite.serve.kwargs_policy import KwargsPolicy


class UnencodableAction:
    """Stands in for an action the client had no wire form for (an arbitrary object).

    The env refuses it as it refuses any object it cannot read: ``parse_error`` and the
    env's documented penalty, never an exception.
    """

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def __repr__(self) -> str:
        """Name what the client could not send."""
        return f"<action the client could not encode: {self.reason:.200}>"


def decode_action(data: Any) -> Any:
    """An action from the wire (``{"$unencodable": reason}`` becomes :class:`UnencodableAction`)."""
    if isinstance(data, dict) and len(data) == 1 and UNENCODABLE in data:
        return UnencodableAction(str(data[UNENCODABLE]))
    try:
        return wire.decode(data)
    except wire.WireError as exc:
        raise RequestError(
            "VALIDATION_ERROR", f"the action is not a valid encoding: {exc}"
        ) from exc


def decode_joint_action(data: Any) -> Any:
    """A Parallel env's actions from the wire: agent by agent for a plain object of names."""
    if type(data) is dict and not any(key.startswith("$") for key in data):
        return {key: decode_action(value) for key, value in data.items()}
    return decode_action(data)


class EnvSession:
    """A session: its id, its env (made on first use), counters and last activity.

    Args:
        spec: The served env's spec.
        policy: What the client may choose (kwargs, render mode, step limit, oracle).
        session_id: The id (a random one by default).
    """

    def __init__(self, spec: EnvSpec, policy: KwargsPolicy, session_id: str | None = None):
        self.spec = spec
        self.policy = policy
        self.id = session_id or uuid.uuid4().hex
        self.env: Any = None
        self.kwargs: dict[str, Any] = {}
        self.options: dict[str, Any] = {}
        self.form: str = spec.api
        self.oracle: Any = None
        self.episode_id: str | None = None
        self.step_count = 0
        self.episode_over = True
        self.last_active = time.monotonic()
        self.created = time.time()

    # -- making ---------------------------------------------------------------------------
    def configure(
        self, kwargs: Mapping[str, Any], options: Mapping[str, Any], form: str | None = None
    ) -> bool:
        """Make the env for ``kwargs`` and make ``options`` unless it already is; True if new.

        Raises:
            RequestError: kwargs or options outside what the server allows, a form the spec
                does not have, or the env refusing its arguments.
        """
        checked = self.policy.check_kwargs(kwargs)
        checked_options = self.policy.check_options(options)
        wanted_form = self._form(form)
        if (
            self.env is not None
            and checked == self.kwargs
            and checked_options == self.options
            and wanted_form == self.form
        ):
            return False
        make_options = dict(checked_options)
        if self.spec.multi_agent:
            make_options["parallel"] = wanted_form == "parallel"
        try:
            env = envsuite.make(self.spec.id, **self.policy.fixed, **checked, **make_options)
        except (ValueError, TypeError, KeyError, envsuite.errors.EnvsuiteError) as exc:
            raise RequestError(
                "FACTORY_ERROR", f"{self.spec.id} refused its arguments: {exc}"
            ) from exc
        self.close()
        self.env, self.kwargs, self.options, self.form = env, checked, checked_options, wanted_form
        self.oracle = None
        self.episode_over = True
        return True

    def _form(self, form: str | None) -> str:
        if form is None:
            return self.form
        allowed = ("gymnasium",) if not self.spec.multi_agent else ("aec", "parallel")
        if form not in allowed:
            raise RequestError(
                "VALIDATION_ERROR", f"{self.spec.id} is served as {' or '.join(allowed)}"
            )
        return form

    def ensure_env(self) -> Any:
        """The env, made with the defaults if no ``make`` or ``reset`` made it yet."""
        if self.env is None:
            self.configure({}, {})
        return self.env

    def describe(self) -> dict[str, Any]:
        """Spaces, agents, render modes and spec hash of the session's env (``spaces``)."""
        env = self.ensure_env()
        raw = env.unwrapped
        metadata = dict(getattr(raw, "metadata", {}) or {})
        described: dict[str, Any] = {
            "env_id": self.spec.id,
            "api": self.spec.api,
            "form": self.form,
            "kwargs": wire.encode(self.kwargs),
            "spec": self.spec.to_json(),
            "spec_hash": getattr(raw, "spec_hash", None),
            "render_mode": getattr(env, "render_mode", None),
            "render_modes": list(metadata.get("render_modes", [])),
            "metadata": wire.encode(_plain_metadata(metadata)),
            "oracle": self.policy.allow_oracle and self.spec.oracle is not None,
        }
        if self.spec.multi_agent:
            agents = list(env.possible_agents)
            described["possible_agents"] = agents
            described["observation_spaces"] = {
                a: describe_space(env.observation_space(a)) for a in agents
            }
            described["action_spaces"] = {a: describe_space(env.action_space(a)) for a in agents}
        else:
            described["observation_space"] = describe_space(env.observation_space)
            described["action_space"] = describe_space(env.action_space)
        return described

    # -- the loop -------------------------------------------------------------------------
    def reset(
        self,
        seed: int | None,
        options: Any,
        kwargs: Mapping[str, Any],
        make_options: Mapping[str, Any],
        episode_id: str | None = None,
    ) -> dict[str, Any]:
        """Reset (making the env again first if ``kwargs`` changed); the observation data.

        Arguments given once stay until a reset gives others: a reset without kwargs
        keeps the env the session has.
        """
        if kwargs or make_options:  # a changed argument makes the env again
            self.configure(kwargs, make_options)
        else:  # the env as it is (made with the defaults if it was never made)
            self.ensure_env()
        env = self.env
        if self.form == "gymnasium":
            observation, info = env.reset(seed=seed, options=options)
            payload = _single(observation, info, False, False)
        elif self.form == "parallel":
            observations, infos = env.reset(seed=seed, options=options)
            payload = self._parallel_payload(observations, {}, {}, {}, infos)
        else:
            env.reset(seed=seed, options=options)
            payload = self._aec_payload()
        self.episode_id = episode_id or uuid.uuid4().hex
        self.step_count = 0
        self.episode_over = False
        return {"observation": payload, "reward": None, "done": self._done(payload)}

    def step(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """One step with the action object ``data``; the observation data."""
        if self.env is None or self.episode_id is None:
            raise RequestError("SESSION_ERROR", "reset the session before stepping it")
        env = self.env
        self.step_count += 1
        if self.form == "gymnasium":
            action = decode_action(_field(data, "action"))
            observation, reward, terminated, truncated, info = env.step(action)
            payload = _single(observation, info, terminated, truncated)
            return {
                "observation": payload,
                "reward": float(reward),
                "done": bool(terminated or truncated),
            }
        if self.form == "parallel":
            actions = decode_joint_action(_field(data, "actions"))
            observations, rewards, terminations, truncations, infos = env.step(actions)
            payload = self._parallel_payload(
                observations, rewards, terminations, truncations, infos
            )
            total = float(sum(float(r) for r in rewards.values()))
            return {"observation": payload, "reward": total, "done": self._done(payload)}
        action = decode_action(_field(data, "action"))
        agent = data.get("agent")
        actor = env.agent_selection if agent is None else agent
        if agent is None:
            env.step(action)
        elif not isinstance(agent, str):
            raise RequestError("VALIDATION_ERROR", "'agent' must be an agent's name")
        elif "agent" in inspect.signature(env.step).parameters:
            env.step(action, agent=agent)
        else:
            raise RequestError(
                "VALIDATION_ERROR", f"{self.spec.id} in AEC form does not take 'agent' on step"
            )
        payload = self._aec_payload()
        reward = float(env.rewards.get(actor, 0.0)) if isinstance(actor, str) else 0.0
        return {"observation": payload, "reward": reward, "done": self._done(payload)}

    def _aec_payload(self) -> dict[str, Any]:
        env = self.env
        agents = list(env.agents)
        return {
            "agents": agents,
            "agent_selection": env.agent_selection if agents else None,
            "observations": {a: wire.encode(env.observe(a)) for a in agents},
            "rewards": wire.encode_mapping(env.rewards),
            "cumulative_rewards": wire.encode_mapping(env._cumulative_rewards),
            "terminations": {a: bool(v) for a, v in env.terminations.items()},
            "truncations": {a: bool(v) for a, v in env.truncations.items()},
            "infos": wire.encode_mapping(env.infos),
        }

    def _parallel_payload(
        self,
        observations: Mapping[str, Any],
        rewards: Mapping[str, Any],
        terminations: Mapping[str, Any],
        truncations: Mapping[str, Any],
        infos: Mapping[str, Any],
    ) -> dict[str, Any]:
        return {
            "agents": list(self.env.agents),
            "observations": wire.encode_mapping(observations),
            "rewards": wire.encode_mapping(rewards),
            "terminations": {a: bool(v) for a, v in terminations.items()},
            "truncations": {a: bool(v) for a, v in truncations.items()},
            "infos": wire.encode_mapping(infos),
        }

    def _done(self, payload: dict[str, Any]) -> bool:
        if self.form == "gymnasium":
            done = bool(payload["terminated"] or payload["truncated"])
        else:
            done = not payload["agents"]
        self.episode_over = done
        return done

    def episode_success(self, infos: Any) -> dict[str, Any]:
        """The env's ``episode_success(final_infos)`` hook on ``infos`` (multi-agent)."""
        final_infos = _decoded(infos, "infos") if infos is not None else {}
        if not isinstance(final_infos, dict):
            raise RequestError("VALIDATION_ERROR", "infos must be an object of agent infos")
        hook = getattr(self.ensure_env().unwrapped, "episode_success", None)
        value = hook(final_infos) if callable(hook) else None
        return {"success": None if value is None else bool(value)}

    def state(self) -> dict[str, Any]:
        """OpenEnv's state: ``episode_id``, ``step_count`` and envsuite's session details."""
        raw = self.env.unwrapped if self.env is not None else None
        return {
            "episode_id": self.episode_id,
            "step_count": self.step_count,
            "session_id": self.id,
            "env_id": self.spec.id,
            "form": self.form,
            "kwargs": wire.encode(self.kwargs),
            "spec_hash": getattr(raw, "spec_hash", None),
            "episode_over": self.episode_over,
        }

    def render(self) -> dict[str, Any]:
        """The env's current frame (``render()``), encoded."""
        env = self.ensure_env()
        return {"frame": wire.encode(env.render())}

    # -- the oracle -----------------------------------------------------------------------
    def oracle_reset(self, agent: Any, seed: int | None) -> dict[str, Any]:
        """Build the oracle for this env (first time) and reset it (or one seat of it)."""
        if not (self.policy.allow_oracle and self.spec.oracle is not None):
            raise RequestError("NOT_ALLOWED", "this server does not serve the oracle")
        if self.oracle is None:
            self.oracle = self.spec.load_oracle()(self.ensure_env())
        self._seat(agent).reset(seed=seed)
        seats = self._seats()
        return {"seats": None if None in seats else list(seats)}

    def oracle_act(self, agent: Any, observation: Any, info: Any) -> dict[str, Any]:
        """The oracle's action for ``(observation, info)`` (a seat's, for multi-agent)."""
        if self.oracle is None:
            raise RequestError("SESSION_ERROR", "call oracle_reset before oracle_act")
        action = self._seat(agent).act(_decoded(observation, "observation"), _decoded(info, "info"))
        return {"action": wire.encode(action)}

    def _seat(self, agent: Any) -> Any:
        seats = self._seats()
        if agent not in seats:
            raise RequestError("VALIDATION_ERROR", f"the oracle has no seat {agent!r}")
        return seats[agent]

    def _seats(self) -> dict[Any, Any]:
        if isinstance(self.oracle, Mapping):
            return dict(self.oracle)
        return {None: self.oracle}

    def close(self) -> None:
        """Close the env (idempotent)."""
        env, self.env, self.oracle = self.env, None, None
        if env is not None:
            env.close()


def _decoded(data: Any, what: str) -> Any:
    try:
        return wire.decode(data)
    except wire.WireError as exc:
        raise RequestError("VALIDATION_ERROR", f"{what} is not a valid encoding: {exc}") from exc


def _field(data: Mapping[str, Any], name: str) -> Any:
    if name not in data:
        raise RequestError("VALIDATION_ERROR", f"the step's data lacks {name!r}")
    return data[name]


def _single(observation: Any, info: Any, terminated: Any, truncated: Any) -> dict[str, Any]:
    return {
        "observation": wire.encode(observation),
        "info": wire.encode(info),
        "terminated": bool(terminated),
        "truncated": bool(truncated),
    }


def _plain_metadata(metadata: Mapping[str, Any]) -> dict[str, Any]:
    plain: dict[str, Any] = {}
    for key, value in metadata.items():
        try:
            wire.encode(value)
        except wire.WireError:
            continue
        plain[str(key)] = value
    return plain
