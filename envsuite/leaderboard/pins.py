"""Version lock: what a board pins about each env, and the spec hash a record must carry.

A board pins, for every env entry of its protocol, the env id (whose ``-vN`` is the env
version), the effective constructor arguments, the sha256 of each dataset file the env
reads, and the spec hash under the envsuite version the board was made with. That is the
whole preimage of envsuite's spec hash (see :meth:`envsuite.registry.EnvSpec.hash_for`), so
the hash a record made by any compatible envsuite release must carry can be computed from
the board alone, and a dataset or default that changed since is caught by comparing the
pins with the installed envsuite.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from envsuite.evaluation.protocol import EnvEntry
from envsuite.jsonable import canonical_json
from envsuite.leaderboard.errors import BoardError
from envsuite.registry import compute_spec_hash, registry
from envsuite.version import __version__


class EnvPin(BaseModel):
    """One env entry of a board's protocol, pinned.

    Attributes:
        id: ``envsuite/<Name>-v<N>``; the env version is the ``N``.
        kwargs: The keyword arguments the protocol gives (what records carry).
        config: Every constructor argument's effective value (defaults filled in, presentation
            arguments left out), as hashed.
        datasets: Dataset file (as the env names it) -> sha256.
        spec_hash: The spec hash under the board's pinned envsuite version.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    kwargs: dict[str, Any] = Field(default_factory=dict)
    config: dict[str, Any] = Field(default_factory=dict)
    datasets: dict[str, str] = Field(default_factory=dict)
    spec_hash: str

    @property
    def key(self) -> tuple[str, str]:
        """``(env id, canonical kwargs)``: how records name this entry."""
        return (self.id, canonical_json(self.kwargs))

    def label(self) -> str:
        """The env id with its kwargs, for messages."""
        return f"{self.id} {canonical_json(self.kwargs)}"


def spec_hash_under(pin: EnvPin, envsuite_version: str) -> str:
    """The spec hash an env made from ``pin`` carries under ``envsuite_version``.

    Formula:
        :func:`envsuite.registry.compute_spec_hash` of the pinned id, effective config and
        dataset checksums, with the given envsuite version.
    """
    return compute_spec_hash(pin.id, pin.config, pin.datasets, envsuite_version=envsuite_version)


def current_config(env_id: str, kwargs: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """The installed envsuite's effective config and dataset checksums for an env entry."""
    spec = registry[env_id]
    return spec.effective_config(kwargs), spec.dataset_checksums(kwargs)


def pin_env(entry: EnvEntry) -> EnvPin:
    """Pin one protocol entry against the installed envsuite.

    Raises:
        BoardError: the recomputed hash differs from the registry's (the hash formula
            changed, and :func:`spec_hash_under` must follow it).
    """
    config, datasets = current_config(entry.id, entry.kwargs)
    pin = EnvPin(
        id=entry.id,
        kwargs=entry.kwargs,
        config=config,
        datasets=datasets,
        spec_hash=registry[entry.id].hash_for(entry.kwargs),
    )
    if spec_hash_under(pin, __version__) != pin.spec_hash:
        raise BoardError(
            f"{pin.label()}: envsuite's spec hash is no longer sha256 of "
            "{id, kwargs, envsuite_version, datasets}; update envsuite.leaderboard.pins"
        )
    return pin


def drift(pin: EnvPin) -> str | None:
    """How the installed envsuite differs from ``pin`` (None when it matches).

    A difference means the board's results no longer describe the installed env: a default
    argument or a dataset changed, which needs a new board version.
    """
    try:
        config, datasets = current_config(pin.id, pin.kwargs)
    except Exception as exc:  # an env removed or broken since: the board cannot be replayed
        return f"cannot load {pin.id} ({type(exc).__name__}: {exc})"
    if canonical_json(config) != canonical_json(pin.config):
        return f"its effective arguments are now {canonical_json(config)}"
    if datasets != pin.datasets:
        changed = sorted(set(datasets.items()) ^ set(pin.datasets.items()))
        return f"its dataset files changed: {changed[:2]}"
    if registry[pin.id].hash_for(pin.kwargs) != spec_hash_under(pin, __version__):
        return "its spec hash under the installed envsuite differs from the pinned preimage"
    return None
