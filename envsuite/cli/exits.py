"""Exit codes and the one place that turns envsuite's errors into messages without tracebacks.

Exit codes:
    0: success.
    1: the command could not do its work (a missing optional dependency, an env that failed).
    2: usage error (unknown id, bad ``--set``, an env the command cannot handle), as for
       typer's own usage errors.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import NoReturn, ParamSpec, TypeVar

import typer
from pydantic import ValidationError

from envsuite import errors
from envsuite.cli.console import line, stderr
from envsuite.records import RecordFileError

FAILURE = 1
USAGE = 2

P = ParamSpec("P")
R = TypeVar("R")


def exit_with(message: str, code: int) -> NoReturn:
    """Print ``message`` to stderr (verbatim) and exit with ``code``."""
    line(stderr(), f"Error: {message}", "red")
    raise typer.Exit(code)


def exit_with_option_errors(exc: ValidationError, options: Mapping[str, str]) -> NoReturn:
    """Report a model's rejection of command-line values as a usage error naming the options.

    Args:
        exc: The model's validation error.
        options: ``"Model.field"`` -> the option that set it (``"SubmissionMeta.code_url"``
            -> ``"--code-url"``); other fields are shown by their own name.
    """
    problems = []
    for error in exc.errors():
        field = ".".join(str(part) for part in error["loc"])
        name = options.get(f"{exc.title}.{field}", field or exc.title)
        problems.append(f"{name}: {error['msg'].removeprefix('Value error, ')}")
    exit_with("; ".join(problems), USAGE)


def reports_errors(command: Callable[P, R]) -> Callable[P, R]:
    """Wrap a command so envsuite's expected errors end it with a message, not a traceback.

    Unknown ids, rejected keyword arguments, wrong-API requests, bad task protocols, agent
    strings and run directories are usage errors (exit 2); a missing extra exits 1 with the
    ``pip install`` command in the message, as does any other deliberate envsuite error, an
    unreadable records file or a path the system refuses (``OSError``). Anything else is a
    bug and keeps its traceback.
    """

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except (errors.UnknownEnvError, errors.InvalidKwargsError, errors.WrongApiError) as exc:
            exit_with(str(exc), USAGE)
        except errors.UsageError as exc:
            exit_with(str(exc), USAGE)
        except (errors.EnvsuiteError, RecordFileError) as exc:
            exit_with(str(exc), FAILURE)
        except OSError as exc:  # a path that cannot be read or written, a full disk
            where = f": {exc.filename}" if exc.filename else ""
            exit_with(f"{exc.strerror or exc}{where}", FAILURE)

    return wrapper
