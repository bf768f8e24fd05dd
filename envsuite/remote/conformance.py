"""Served envs as specs the conformance kit runs: the kit's checks, over the wire.

``remote_spec(url, env_id)`` returns a copy of ``env_id``'s spec whose entry point makes
the env on the server at ``url`` (:func:`envsuite.remote.make`'s envs), so
``run_conformance(remote_spec(url, env_id))`` holds a served env to every rule an
in-process env is held to: API checks, determinism, pickling, malformed actions, the
oracle, an unseeded first reset, rendering. The entry point is a factory with the served
env's own signature, docstring, metadata and dataset files (so spec hashes and the
docstring check read the same as in-process); its oracle asks the server's oracle, so
the server must be started with the oracle allowed (``envsuite serve --allow-oracle``).

The factories live in this module under generated names (``__getattr__`` finds them), as
entry points are ``"module:Attribute"`` strings.
"""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
from typing import Any

from envsuite.registry import EnvSpec, registry

_FACTORIES: dict[str, Any] = {}


def remote_spec(url: str, env_id: str, token: str | None = None) -> EnvSpec:
    """``env_id``'s spec, made on the server at ``url`` (see the module docstring)."""
    local = registry[env_id]
    name = "served_" + hashlib.sha256(f"{url} {env_id}".encode()).hexdigest()[:16]
    _FACTORIES[name] = _factory(local, url, token)
    return dataclasses.replace(
        local,
        entry_point=f"{__name__}:{name}",
        oracle="envsuite.remote.oracle:remote_oracle" if local.oracle is not None else None,
        max_episode_steps=None,  # the server applies the served env's step limit
        vector_entry_point=None,
    )


def _factory(local: EnvSpec, url: str, token: str | None) -> Any:
    target = local.load()

    def make_served(**kwargs: Any) -> Any:
        if not local.multi_agent:
            from envsuite.remote.gymnasium_env import RemoteEnv

            return RemoteEnv(url, local.id, token=token, **kwargs)
        from envsuite.remote.pettingzoo_envs import RemoteAECEnv, RemoteParallelEnv

        remote = RemoteParallelEnv if local.api == "parallel" else RemoteAECEnv
        return remote(url, local.id, token=token, **kwargs)

    make_served.__signature__ = inspect.signature(target)  # type: ignore[attr-defined]
    make_served.__doc__ = target.__doc__
    make_served.metadata = dict(getattr(target, "metadata", {}) or {})  # type: ignore[attr-defined]
    dataset_files = getattr(target, "dataset_files", None)
    if callable(dataset_files):
        make_served.dataset_files = dataset_files  # type: ignore[attr-defined]
    return make_served


def __getattr__(name: str) -> Any:
    if name in _FACTORIES:
        return _FACTORIES[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
