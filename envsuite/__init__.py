"""envsuite: one registry of RL and LLM-agent environments behind Gymnasium and PettingZoo.

Example:
    >>> import envsuite
    >>> env = envsuite.make("envsuite/Bandit-v0", num_arms=5)
    >>> observation, info = env.reset(seed=0)
"""

from envsuite import families as families  # registers every family's specs
from envsuite import spaces as spaces  # registers the text space's vector codecs
from envsuite.agent_protocol import Agent
from envsuite.errors import (
    EnvsuiteError,
    InvalidKwargsError,
    MissingExtraError,
    UnknownEnvError,
    WrongApiError,
)
from envsuite.registry import EnvSpec, make, make_vec, register, registry, spec
from envsuite.version import __version__

__all__ = [
    "Agent",
    "EnvSpec",
    "EnvsuiteError",
    "InvalidKwargsError",
    "MissingExtraError",
    "UnknownEnvError",
    "WrongApiError",
    "__version__",
    "make",
    "make_vec",
    "register",
    "registry",
    "spec",
]
