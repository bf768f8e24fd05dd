"""The one registry of envsuite environments, ``make`` and id parsing.

Every environment, single- or multi-agent, is described by a frozen :class:`EnvSpec` and
registered here under a Gymnasium-style id ``envsuite/<Name>-v<N>``. Single-agent specs are
also registered in Gymnasium's own registry, so ``gymnasium.make("envsuite/Bandit-v0")``
works after ``import envsuite``.
"""

from __future__ import annotations

import dataclasses
import difflib
import hashlib
import importlib
import inspect
import json
import numbers
import re
from collections.abc import Callable, Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any, Literal

import gymnasium

from envsuite import errors
from envsuite.jsonable import canonical_json, to_jsonable
from envsuite.passthrough_wrappers import skip_settled_wrappers
from envsuite.version import __version__

Api = Literal["gymnasium", "aec", "parallel"]
APIS: tuple[Api, ...] = ("gymnasium", "aec", "parallel")
NAMESPACE = "envsuite"
ID_PATTERN = re.compile(r"^envsuite/(?P<name>[A-Z][A-Za-z0-9]*)-v(?P<version>0|[1-9][0-9]*)$")

#: Keyword arguments that change how an env is shown, never what it does; they are left
#: out of the spec hash.
PRESENTATION_KWARGS = frozenset({"render_mode"})


def parse_env_id(env_id: str) -> tuple[str, int]:
    """Split ``envsuite/<Name>-v<N>`` into ``(Name, N)``.

    Raises:
        UnknownEnvError: ``env_id`` does not have the envsuite id form.
    """
    match = ID_PATTERN.match(env_id) if isinstance(env_id, str) else None
    if match is None:
        raise errors.UnknownEnvError(
            errors.BAD_ID.format(id=env_id, hint=registry.suggestion_hint(str(env_id)))
        )
    return match["name"], int(match["version"])


def load_entry_point(entry_point: str, *, env_id: str = "", extra: str | None = None) -> Any:
    """Import ``"package.module:Attribute"`` and return the attribute.

    A missing third-party module becomes a :class:`MissingExtraError` naming the pip extra.
    """
    module_name, _, attribute = entry_point.partition(":")
    if not module_name or not attribute:
        raise ValueError(f"entry point {entry_point!r} is not of the form 'module:Attribute'")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        missing = exc.name or ""
        if extra is not None and missing and missing.split(".")[0] != NAMESPACE:
            raise errors.MissingExtraError(
                errors.MISSING_EXTRA.format(id=env_id or entry_point, module=missing, extra=extra)
            ) from exc
        raise
    return getattr(module, attribute)


def import_optional(module: str, *, extra: str, env_id: str = "") -> Any:
    """Import an optional dependency, or raise :class:`MissingExtraError` naming its extra.

    Family modules import their heavy dependencies through this, so that the error names
    the extra whichever way the env is made (``envsuite.make`` or ``gymnasium.make``).
    """
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        raise errors.MissingExtraError(
            errors.MISSING_EXTRA.format(id=env_id or module, module=module, extra=extra)
        ) from exc


@dataclasses.dataclass(frozen=True)
class EnvSpec:
    """Everything envsuite needs to know to build, check and describe one environment.

    Attributes:
        id: ``envsuite/<Name>-v<N>``; the version lives here and nowhere else.
        entry_point: ``"module:Attribute"`` of the env class or factory, imported lazily.
        family: The family folder the env belongs to (``decision``, ``sat``, ...).
        api: ``gymnasium``, or ``aec`` / ``parallel`` for PettingZoo envs (the native form).
        kwargs: Default keyword arguments, overridden by those given to ``make``.
        max_episode_steps: Step limit applied by Gymnasium's ``TimeLimit`` (single-agent).
        extra: The pip extra the env needs (``None`` when the core install suffices).
        oracle: ``"module:factory"`` building the reference policy from a made env.
        description: One line for ``envsuite list``.
        oracle_success: Fraction of seeds on which the oracle reaches ``info["success"]``;
            the conformance kit holds the oracle to it.
        test_kwargs: Keyword arguments the conformance kit adds to keep its runs short.
        test_variants: Further configurations (kwargs on top of ``test_kwargs``) that the
            conformance kit checks as well, e.g. the vector observation mode.
        vector_entry_point: ``"module:Class"`` of a native vector env (a
            ``gymnasium.vector.VectorEnv`` built as ``Class(num_envs=..., max_episode_steps=...,
            **env_kwargs, **vector_kwargs)``) that ``make_vec`` uses with
            ``vectorization_mode="vector_entry_point"``; None when the env has none.
        nondeterministic: The env cannot promise bit-identical observations for the same
            seed and actions (e.g. a real browser's pixels), as Gymnasium's flag of the
            same name. Its logical state must still be deterministic: the env provides
            ``state_digest() -> str`` (a hash of that state), and the conformance kit
            compares digests instead of observations and pickled copies (see
            :mod:`envsuite.testing.checks`). Not part of the spec hash.
    """

    id: str
    entry_point: str
    family: str
    api: Api
    description: str
    kwargs: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    max_episode_steps: int | None = None
    extra: str | None = None
    oracle: str | None = None
    oracle_success: float = 1.0
    test_kwargs: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    test_variants: tuple[Mapping[str, Any], ...] = ()
    vector_entry_point: str | None = None
    nondeterministic: bool = False

    def __post_init__(self) -> None:
        parse_env_id(self.id)
        if self.api not in APIS:
            raise ValueError(f"{self.id}: api must be one of {APIS}, got {self.api!r}")
        if ":" not in self.entry_point:
            raise ValueError(f"{self.id}: entry_point must be 'module:Attribute'")
        if self.vector_entry_point is not None and ":" not in self.vector_entry_point:
            raise ValueError(f"{self.id}: vector_entry_point must be 'module:Attribute'")
        if self.vector_entry_point is not None and self.multi_agent:
            raise ValueError(f"{self.id}: vector_entry_point applies to gymnasium specs only")
        if not 0.0 <= self.oracle_success <= 1.0:
            raise ValueError(f"{self.id}: oracle_success must lie in [0, 1]")
        if not isinstance(self.nondeterministic, bool):
            raise ValueError(f"{self.id}: nondeterministic must be True or False")
        if self.max_episode_steps is not None and self.api != "gymnasium":
            raise ValueError(f"{self.id}: max_episode_steps applies to gymnasium specs only")
        # Freeze the mappings too, so a spec cannot change after registration.
        object.__setattr__(self, "kwargs", dict(self.kwargs))
        object.__setattr__(self, "test_kwargs", dict(self.test_kwargs))
        object.__setattr__(self, "test_variants", tuple(dict(v) for v in self.test_variants))

    @property
    def name(self) -> str:
        """The name part of the id (``Bandit`` for ``envsuite/Bandit-v0``)."""
        return parse_env_id(self.id)[0]

    @property
    def version(self) -> int:
        """The version number in the id."""
        return parse_env_id(self.id)[1]

    @property
    def multi_agent(self) -> bool:
        """Whether this is a PettingZoo (multi-agent) spec."""
        return self.api != "gymnasium"

    def load(self) -> Any:
        """Import and return the env class or factory."""
        return load_entry_point(self.entry_point, env_id=self.id, extra=self.extra)

    def load_oracle(self) -> Callable[[Any], Any]:
        """Import and return the oracle factory."""
        if self.oracle is None:
            raise errors.EnvsuiteError(f"{self.id} has no oracle")
        factory: Callable[[Any], Any] = load_entry_point(
            self.oracle, env_id=self.id, extra=self.extra
        )
        return factory

    def make(self, **kwargs: Any) -> Any:
        """Build this env (see :func:`envsuite.make`); works for unregistered specs too."""
        return _build(self, **kwargs)

    def to_json(self) -> str:
        """Serialise the spec to JSON (round-trips through :meth:`from_json`)."""
        return json.dumps(to_jsonable(dataclasses.asdict(self)), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> EnvSpec:
        """Rebuild a spec written by :meth:`to_json`."""
        data = json.loads(text)
        fields = {f.name for f in dataclasses.fields(cls)}
        unknown = set(data) - fields
        if unknown:
            raise ValueError(f"unknown EnvSpec fields: {sorted(unknown)}")
        return cls(**data)

    def to_gymnasium(self) -> gymnasium.envs.registration.EnvSpec:
        """The equivalent Gymnasium spec (single-agent specs only)."""
        if self.multi_agent:
            raise errors.WrongApiError(
                errors.WRONG_API.format(id=self.id, api=self.api, what="it has no Gymnasium spec")
            )
        return gymnasium.envs.registration.EnvSpec(
            id=self.id,
            entry_point=self.entry_point,
            max_episode_steps=self.max_episode_steps,
            nondeterministic=self.nondeterministic,
            kwargs=dict(self.kwargs),
        )

    def canonical_kwargs(self, kwargs: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Return every constructor argument's effective value (defaults filled in).

        Raises:
            InvalidKwargsError: an argument the constructor does not accept.
        """
        merged = {**self.kwargs, **(kwargs or {})}
        signature = _constructor_signature(self.load())
        accepts_any = any(
            p.kind is inspect.Parameter.VAR_KEYWORD for p in signature.parameters.values()
        )
        accepted = [
            name
            for name, p in signature.parameters.items()
            if p.kind in (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        ]
        unknown = sorted(set(merged) - set(accepted))
        if unknown and not accepts_any:
            close = errors.closest_names(unknown, accepted)
            hint = f" Did you mean {', '.join(close)}?" if close else ""
            raise errors.InvalidKwargsError(
                errors.UNKNOWN_KWARG.format(
                    id=self.id,
                    names=", ".join(unknown),
                    hint=hint,
                    accepted=", ".join(accepted) or "none",
                )
            )
        bound = signature.bind_partial(**merged)
        bound.apply_defaults()
        return dict(bound.arguments)

    def effective_config(self, kwargs: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The constructor arguments that shape the env (presentation-only ones left out)."""
        return {
            k: v for k, v in self.canonical_kwargs(kwargs).items() if k not in PRESENTATION_KWARGS
        }

    def dataset_checksums(self, kwargs: Mapping[str, Any] | None = None) -> dict[str, str]:
        """sha256 of each dataset file the env reads with ``kwargs`` (see :func:`dataset_key`).

        The files come from the env class's optional ``dataset_files(**config)``.
        """
        dataset_files = getattr(self.load(), "dataset_files", None)
        if not callable(dataset_files):
            return {}
        paths = [Path(p) for p in dataset_files(**self.effective_config(kwargs))]
        return {dataset_key(p): file_sha256(p) for p in sorted(paths)}

    def hash_for(
        self,
        kwargs: Mapping[str, Any] | None = None,
        *,
        max_episode_steps: int | None = None,
        envsuite_version: str = __version__,
    ) -> str:
        """The spec hash of this env made with ``kwargs``.

        sha256 over the id, the effective constructor arguments (presentation-only ones such
        as ``render_mode`` left out), the envsuite version, and the sha256 of each dataset
        file the env reads; and the step limit, when ``max_episode_steps`` overrides the
        registered one (the hash of the registered limit is the hash without it).
        ``envsuite_version`` lets a leaderboard check records made by another release.
        """
        limit = max_episode_steps if max_episode_steps != self.max_episode_steps else None
        return compute_spec_hash(
            self.id,
            self.effective_config(kwargs),
            self.dataset_checksums(kwargs),
            envsuite_version=envsuite_version,
            max_episode_steps=limit,
        )


def dataset_key(path: Path) -> str:
    """How a dataset file is named in a spec hash: its path relative to ``datasets/``.

    Relative, so the hash does not depend on where the checkout lives; a file outside the
    datasets root (e.g. a user's own copy of a published dataset) is named by its file
    name. Its content is pinned by its sha256 either way.
    """
    from envsuite.data_paths import datasets_root

    resolved = path.resolve()
    try:
        return resolved.relative_to(datasets_root().resolve()).as_posix()
    except ValueError:
        return resolved.name


def compute_spec_hash(
    env_id: str,
    config: Mapping[str, Any],
    datasets: Mapping[str, str],
    *,
    envsuite_version: str = __version__,
    max_episode_steps: int | None = None,
) -> str:
    """sha256 of the canonical JSON of ``{id, kwargs, envsuite_version, datasets}``.

    A ``max_episode_steps`` (a step limit other than the registered one) joins the payload.
    """
    payload: dict[str, Any] = {
        "id": env_id,
        "kwargs": dict(config),
        "envsuite_version": envsuite_version,
        "datasets": dict(sorted(datasets.items())),
    }
    if max_episode_steps is not None:
        payload["max_episode_steps"] = max_episode_steps
    return hashlib.sha256(canonical_json(payload).encode("utf-8")).hexdigest()


def _constructor_signature(target: Any) -> inspect.Signature:
    return inspect.signature(target)


@cache
def _file_sha256_cached(path: str, size: int, mtime_ns: int) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def file_sha256(path: str | Path) -> str:
    """sha256 of a file's bytes (cached on path, size and modification time)."""
    stat = Path(path).stat()
    return _file_sha256_cached(str(path), stat.st_size, stat.st_mtime_ns)


class Registry(Mapping[str, EnvSpec]):
    """The mapping from id to :class:`EnvSpec`, in registration order."""

    def __init__(self) -> None:
        self._specs: dict[str, EnvSpec] = {}

    def __getitem__(self, env_id: str) -> EnvSpec:
        """Return the spec for ``env_id``, or raise with a "did you mean" hint."""
        try:
            return self._specs[env_id]
        except KeyError:
            pass
        if isinstance(env_id, str) and ID_PATTERN.match(env_id) is None:
            raise errors.UnknownEnvError(
                errors.BAD_ID.format(id=env_id, hint=self.suggestion_hint(env_id))
            )
        raise errors.UnknownEnvError(
            errors.UNKNOWN_ID.format(id=env_id, hint=self.suggestion_hint(str(env_id)))
        )

    def __iter__(self) -> Iterator[str]:
        """Iterate over ids in registration order."""
        return iter(self._specs)

    def __len__(self) -> int:
        """Number of registered specs."""
        return len(self._specs)

    def suggestion_hint(self, env_id: str) -> str:
        """A " Did you mean ...?" sentence for a wrong id ("" when nothing is close).

        Names are compared without the shared ``envsuite/`` prefix and the version, so
        ``envsuite/Bandt-v0`` suggests ``envsuite/Bandit-v0`` and not every id.
        """

        def stem(text: str) -> str:
            return re.sub(r"-v\d+$", "", text.rsplit("/", 1)[-1]).lower()

        by_stem: dict[str, list[str]] = {}
        for registered in self._specs:
            by_stem.setdefault(stem(registered), []).append(registered)
        close = difflib.get_close_matches(stem(env_id), list(by_stem), n=3, cutoff=0.75)
        unique = [i for name in close for i in by_stem[name]][:3]
        return f" Did you mean {', '.join(repr(c) for c in unique)}?" if unique else ""

    def register(self, spec: EnvSpec) -> EnvSpec:
        """Add ``spec``; single-agent specs are registered in Gymnasium's registry too."""
        if spec.id in self._specs:
            raise errors.EnvsuiteError(errors.DUPLICATE_ID.format(id=spec.id))
        self._specs[spec.id] = spec
        if not spec.multi_agent:
            gymnasium.register(
                id=spec.id,
                entry_point=spec.entry_point,
                max_episode_steps=spec.max_episode_steps,
                nondeterministic=spec.nondeterministic,
                kwargs=dict(spec.kwargs),
                vector_entry_point=spec.vector_entry_point,
            )
        return spec

    def unregister(self, env_id: str) -> None:
        """Remove a spec (and its Gymnasium registration); meant for tests."""
        spec = self._specs.pop(env_id)
        if not spec.multi_agent:
            gymnasium.registry.pop(env_id, None)

    def by_family(self, family: str) -> list[EnvSpec]:
        """Specs of one family, in registration order."""
        return [s for s in self._specs.values() if s.family == family]


#: The one registry.
registry = Registry()


def register(spec: EnvSpec) -> EnvSpec:
    """Register ``spec`` in :data:`registry` (and in Gymnasium's, for single-agent specs)."""
    return registry.register(spec)


def spec(env_id: str) -> EnvSpec:
    """Return the registered spec for ``env_id``."""
    return registry[env_id]


def make(env_id: str, **kwargs: Any) -> Any:
    """Build a registered environment.

    Args:
        env_id: ``envsuite/<Name>-v<N>``.
        kwargs: The env's keyword arguments, plus these options:
            ``parallel`` (multi-agent: return the PettingZoo Parallel form instead of AEC),
            ``render_mode``, ``max_episode_steps`` and ``disable_env_checker``
            (single-agent: passed to :func:`gymnasium.make`).

    Returns:
        A Gymnasium env for ``gymnasium`` specs (wrapped as ``gymnasium.make`` wraps it;
        once ``OrderEnforcing`` and ``PassiveEnvChecker`` have made their checks, ``step``
        skips them: see :mod:`envsuite.passthrough_wrappers`); a PettingZoo ``AECEnv`` (or
        ``ParallelEnv`` with ``parallel=True``) for multi-agent specs.
        ``env.unwrapped.spec_hash`` holds the spec hash.

    Raises:
        WrongApiError: ``parallel=True`` for a single-agent spec, or for a turn-based
            (``aec``) spec whose env does not declare ``metadata["is_parallelizable"]``.
    """
    return _build(registry[env_id], **kwargs)


def _build(
    spec: EnvSpec,
    *,
    parallel: bool = False,
    render_mode: str | None = None,
    max_episode_steps: int | None = None,
    disable_env_checker: bool | None = None,
    **kwargs: Any,
) -> Any:
    config = spec.canonical_kwargs(kwargs)  # validates names before anything is built
    if not spec.multi_agent:
        if parallel:
            raise errors.WrongApiError(
                errors.WRONG_API.format(
                    id=spec.id, api=spec.api, what="parallel=True applies to multi-agent envs"
                )
            )
        options: dict[str, Any] = {"render_mode": render_mode}
        if max_episode_steps is not None:
            options["max_episode_steps"] = max_episode_steps
        if disable_env_checker is not None:
            options["disable_env_checker"] = disable_env_checker
        spec.load()  # turns a missing dependency into a MissingExtraError
        env = gymnasium.make(spec.to_gymnasium(), **options, **kwargs)
        if max_episode_steps is not None and max_episode_steps != spec.max_episode_steps:
            # The limit decides truncation (and where success is judged): it is part of
            # the configuration the spec hash pins.
            raw: Any = env.unwrapped  # an EnvsuiteEnv (env_base imports this module)
            raw.max_episode_steps_override = max_episode_steps
        return skip_settled_wrappers(env)

    if max_episode_steps is not None:
        raise errors.WrongApiError(
            errors.WRONG_API.format(
                id=spec.id, api=spec.api, what="its step limit is an env keyword argument"
            )
        )
    from pettingzoo.utils.conversions import aec_to_parallel, parallel_to_aec

    factory = spec.load()
    if parallel and spec.api == "aec" and not _parallelizable(factory):
        raise errors.WrongApiError(errors.NOT_PARALLELIZABLE.format(id=spec.id))
    merged = {**spec.kwargs, **kwargs}
    if render_mode is not None:
        merged["render_mode"] = render_mode
    env = factory(**merged)
    raw = env.unwrapped
    raw.spec = dataclasses.replace(spec, kwargs={**spec.kwargs, **kwargs})
    raw.spec_hash = spec.hash_for(config)
    if spec.api == "parallel":
        return env if parallel else parallel_to_aec(env)
    return aec_to_parallel(env) if parallel else env


def _parallelizable(factory: Any) -> bool:
    """Whether an AEC env class (or factory) declares that it has a Parallel form.

    PettingZoo's ``aec_to_parallel`` reads the same flag from the made env; reading it
    from the class refuses before anything is built.
    """
    metadata = getattr(factory, "metadata", None)
    return isinstance(metadata, Mapping) and bool(metadata.get("is_parallelizable", False))


def make_vec(
    env_id: str,
    num_envs: int = 1,
    *,
    vectorization_mode: Literal["sync", "async", "vector_entry_point"] = "sync",
    vector_kwargs: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> gymnasium.vector.VectorEnv:
    """Build ``num_envs`` copies of a single-agent env as a Gymnasium vector env.

    Text observations arrive intact in both modes: for observation spaces holding text,
    ``AsyncVectorEnv`` gets ``shared_memory=False`` (Gymnasium's shared memory would hand
    back stale text; see :mod:`envsuite.spaces`). An int seed given to
    ``reset`` is turned into per-env seeds with :func:`envsuite.seeding.derive_seeds`
    (never ``seed + index``).

    Args:
        env_id: A single-agent envsuite id.
        num_envs: Number of sub-environments.
        vectorization_mode: ``"sync"`` (one process), ``"async"`` (one process per env), or
            ``"vector_entry_point"``: the spec's native vector env (e.g. the MuJoCo arm's,
            which steps every env in one ``mujoco.batch.Batch``).
        vector_kwargs: Passed to the vector env's constructor (e.g. ``context``; ``nthread``
            for the arm's batched env).
        kwargs: The env's keyword arguments.
    """
    spec = registry[env_id]
    if spec.multi_agent:
        raise errors.WrongApiError(
            errors.WRONG_API.format(
                id=spec.id, api=spec.api, what="make_vec builds single-agent vector envs"
            )
        )
    if isinstance(num_envs, bool) or not isinstance(num_envs, numbers.Integral) or num_envs < 1:
        raise ValueError(f"num_envs must be an int >= 1, got {num_envs!r}")
    num_envs = int(num_envs)
    if vectorization_mode not in ("sync", "async", "vector_entry_point"):
        raise ValueError(
            "vectorization_mode must be 'sync', 'async' or 'vector_entry_point', "
            f"got {vectorization_mode!r}"
        )
    spec.canonical_kwargs(kwargs)
    spec.load()
    from envsuite.spaces import contains_text_space
    from envsuite.vector import DerivedSeedVectorEnv

    if vectorization_mode == "vector_entry_point":
        if spec.vector_entry_point is None:
            raise ValueError(f"{spec.id} has no vector_entry_point; use 'sync' or 'async'")
        factory = load_entry_point(spec.vector_entry_point, env_id=spec.id, extra=spec.extra)
        native = factory(
            num_envs=num_envs,
            max_episode_steps=spec.max_episode_steps,
            **{**spec.kwargs, **kwargs},
            **dict(vector_kwargs or {}),
        )
        return DerivedSeedVectorEnv(native)

    options = dict(vector_kwargs or {})
    if vectorization_mode == "async" and "shared_memory" not in options:
        probe = gymnasium.make(spec.to_gymnasium(), disable_env_checker=True, **kwargs)
        options["shared_memory"] = not contains_text_space(probe.observation_space)
        probe.close()
    env = gymnasium.make_vec(
        spec.to_gymnasium(),
        num_envs=num_envs,
        vectorization_mode=vectorization_mode,
        vector_kwargs=options,
        **kwargs,
    )
    return DerivedSeedVectorEnv(env)
