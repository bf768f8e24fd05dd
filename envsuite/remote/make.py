"""``envsuite.remote.make``: a served env as a Gymnasium or PettingZoo env."""

from __future__ import annotations

from typing import Any

from envsuite import errors
from envsuite.registry import registry
from envsuite.remote.connection import DEFAULT_TIMEOUT


def make(
    url: str,
    env_id: str,
    *,
    parallel: bool = False,
    token: str | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    **kwargs: Any,
) -> Any:
    """Connect to ``env_id`` on the envsuite server at ``url``, made with ``kwargs``.

    As :func:`envsuite.make`: a Gymnasium env for single-agent ids, a PettingZoo AEC env for
    multi-agent ids (the Parallel form with ``parallel=True``). Each env is one session
    on the server, with its own env instance; ``close()`` ends it.

    Args:
        url: ``http://host:port`` of the server.
        env_id: An id the server serves.
        parallel: Multi-agent: the Parallel form (served natively for simultaneous-move
            games; turn-based games whose env declares ``is_parallelizable`` are converted
            here with PettingZoo's ``aec_to_parallel``).
        token: The server's bearer token, if it has one.
        timeout: Seconds to wait for the connection and for each answer.
        kwargs: The env's keyword arguments (within the server's allow-list), and
            ``render_mode`` and ``max_episode_steps`` (single-agent).

    Raises:
        RemoteError: the server refused (an env it does not serve, a kwarg outside its
            allow-list, a wrong token, no free session).
        SessionLost: no server answers at ``url``.
    """
    spec = registry[env_id]
    if not spec.multi_agent:
        if parallel:
            raise errors.WrongApiError(
                errors.WRONG_API.format(
                    id=env_id, api=spec.api, what="parallel=True applies to multi-agent envs"
                )
            )
        from envsuite.remote.gymnasium_env import RemoteEnv

        return RemoteEnv(url, env_id, token=token, timeout=timeout, **kwargs)
    from pettingzoo.utils.conversions import aec_to_parallel, parallel_to_aec

    from envsuite.remote.pettingzoo_envs import RemoteAECEnv, RemoteParallelEnv

    if spec.api == "parallel":
        env = RemoteParallelEnv(url, env_id, token=token, timeout=timeout, **kwargs)
        return env if parallel else parallel_to_aec(env)
    aec = RemoteAECEnv(url, env_id, token=token, timeout=timeout, **kwargs)
    return aec_to_parallel(aec) if parallel else aec
