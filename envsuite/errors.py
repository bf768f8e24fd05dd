"""Errors raised by envsuite, with their messages as named templates that tests check."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence

UNKNOWN_ID = "No environment with id {id!r} is registered.{hint}"
BAD_ID = (
    "{id!r} is not an envsuite id: ids look like 'envsuite/<Name>-v<N>' "
    "(the version is required; variants are keyword arguments to make).{hint}"
)
MISSING_EXTRA = (
    "{id} needs the optional dependency {module!r}, which is not installed. "
    "Install it with: pip install 'envsuite[{extra}]'"
)
UNKNOWN_KWARG = "{id} does not accept the keyword argument(s) {names}.{hint} Accepted: {accepted}."
WRONG_API = "{id} is an environment of api {api!r}; {what}"
NOT_PARALLELIZABLE = (
    "{id} is turn-based (api 'aec'): its env does not declare "
    "metadata['is_parallelizable'], so it has no Parallel form. Make it without "
    "parallel=True and step it with env.agent_iter()."
)
DUPLICATE_ID = "An environment with id {id!r} is already registered."


class EnvsuiteError(Exception):
    """Base class of every error envsuite raises on purpose."""


class UsageError(EnvsuiteError, ValueError):
    """A request that cannot be carried out as asked (a bad file, name or option)."""


class UnknownEnvError(EnvsuiteError, KeyError):
    """No spec is registered under the requested id."""

    def __str__(self) -> str:
        """Show the message without KeyError's quoting."""
        return str(self.args[0]) if self.args else ""


class MissingExtraError(EnvsuiteError, ImportError):
    """An environment needs a pip extra that is not installed."""


class InvalidKwargsError(EnvsuiteError, TypeError):
    """``make`` was given keyword arguments the environment does not accept."""


class WrongApiError(EnvsuiteError, ValueError):
    """A single-agent operation was asked of a multi-agent spec, or the reverse."""


class RecordFileError(ValueError):
    """A records file has a line that is not a valid record.

    Defined here, with the other errors, so that reporting it (``envsuite.cli.exits``)
    does not import the records' models; :mod:`envsuite.records` raises it and exports it.
    """


def closest_names(unknown: Iterable[str], known: Sequence[str]) -> list[str]:
    """For each unknown name, the closest known one if any is close (``difflib``'s measure).

    Used for "did you mean" hints on misspelt keyword arguments and metric names.
    """
    return [close for name in unknown for close in difflib.get_close_matches(name, known, 1)]
