"""What the runner, the registry and the reports read from an envsuite env class.

Every envsuite base (:class:`~envsuite.env_base.EnvsuiteEnv`,
:class:`~envsuite.parallel_env_base.EnvsuiteParallelEnv`,
:class:`~envsuite.aec_env_base.EnvsuiteAECEnv`) inherits these declarations
with their defaults, so a reader may rely on them being there; a concrete env overrides
the ones it has something to say about. They are class-level on purpose: the registry
and the reports read ``dataset_files`` and ``item_labels`` from the class, before (or
without) making an env.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, ClassVar


class EnvAttributes:
    """Class-level declarations shared by every envsuite base.

    Attributes:
        record_curves: Keys of ``info`` the runner records after every step, as the
            episode record's ``curves`` (one float per step; for a multi-agent env under
            ``"<agent>/<key>"``). A step whose info lacks a key, or holds None, adds no
            point.
        record_metrics: Keys of the last ``info`` the runner stores as the episode
            record's ``metrics`` (numbers a report aggregates, e.g. ``"cumulative_regret"``).
    """

    record_curves: ClassVar[tuple[str, ...]] = ()
    record_metrics: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def dataset_files(cls, **config: Any) -> list[Path]:
        """The dataset files an env made with ``config`` reads (none by default).

        ``config`` holds the env's effective constructor arguments. The registry puts
        each file's sha256 into the spec hash, so a changed dataset is a changed env.
        Raise (e.g. a ``FileNotFoundError`` subclass) when a file the config names is
        missing, so no hash is made without it.
        """
        return []

    @classmethod
    def item_labels(cls, kwargs: Mapping[str, Any], seeds: Iterable[int]) -> dict[int, str]:
        """The dataset item each seed's episode poses, for per-item report rows.

        ``kwargs`` are the env's constructor arguments with defaults filled in. The
        default, ``{}``, means the env has no items (its episodes are generated), and the
        report has no per-item table. An env that serves a dataset follows
        :mod:`envsuite.dataset_items` and names each seed's item here.
        """
        return {}
