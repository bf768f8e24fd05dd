"""Exit codes and the one place that turns envsuite's errors into messages without tracebacks.

Exit codes:
    0: success.
    1: the command could not do its work (a missing optional dependency, an env that failed).
    2: usage error (unknown id, bad ``--set``, an env the command cannot handle), as for
       typer's own usage errors.
    130: interrupted (Ctrl-C), as a shell reports 128 + SIGINT.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, ParamSpec, TypeVar

import typer

from envsuite import errors
from envsuite.cli.console import line, stderr
from envsuite.errors import RecordFileError

if TYPE_CHECKING:  # pydantic is imported by the commands that use it, not by every one
    from pydantic import ValidationError

FAILURE = 1
USAGE = 2
#: What a shell reports for a command that the reader of its output stopped (128 + SIGPIPE).
CLOSED_PIPE = 141
#: What a shell reports for a command stopped by Ctrl-C (128 + SIGINT).
INTERRUPTED = 130

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


def exit_quietly_on_closed_pipe() -> NoReturn:
    """End without a message when the reader of stdout went away (``envsuite ... | head``).

    Later writes (the interpreter's final flush included) go to /dev/null, so Python prints
    no "Exception ignored" either; the exit status is the shell's for SIGPIPE.
    """
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    raise typer.Exit(CLOSED_PIPE)


@contextlib.contextmanager
def resumable_on_interrupt(run_dir: Path) -> Iterator[None]:
    """End a Ctrl-C'd run with a line saying where its records are and that it resumes.

    Every finished episode is already in ``run_dir/episodes.jsonl``; the exit status is
    :data:`INTERRUPTED`.
    """
    try:
        yield
    except KeyboardInterrupt:
        records = Path(run_dir) / "episodes.jsonl"
        message = f"Interrupted: the episodes finished so far are in {records}; run the same "
        line(stderr(), message + "command again to resume.", "yellow")
        raise typer.Exit(INTERRUPTED) from None


def report_infra_errors(infra_errors: list[str | None], run_dir: Path) -> None:
    """Warn about episodes that hit infrastructure errors; fail if every episode did.

    Such episodes are kept apart from the results, so a run whose every episode failed
    measured nothing (an unreachable model endpoint, a sandbox that never starts): it ends
    with :data:`FAILURE` and the first error, where it used to exit 0 with empty tables.

    Args:
        infra_errors: Each recorded episode's ``infra_error`` (``None`` for one that ran).
        run_dir: The run directory, named in the message.
    """
    failed = [error for error in infra_errors if error is not None]
    if not failed:
        return
    if len(failed) < len(infra_errors):
        message = f"{len(failed)} episode(s) hit infra errors (kept apart from results)"
        line(stderr(), message, "yellow")
        return
    exit_with(
        f"every episode ({len(failed)}) hit an infrastructure error, so nothing was measured; "
        f"the first: {failed[0]}. They are recorded in {Path(run_dir) / 'episodes.jsonl'} "
        "and count as done: fix the cause and run again into a new --out.",
        FAILURE,
    )


def reports_errors(command: Callable[P, R]) -> Callable[P, R]:
    """Wrap a command so envsuite's expected errors end it with a message, not a traceback.

    Unknown ids, rejected keyword arguments, wrong-API requests, bad task protocols, agent
    strings and run directories are usage errors (exit 2); a missing extra exits 1 with the
    ``pip install`` command in the message, as does any other deliberate envsuite error, an
    unreadable records file or a path the system refuses (``OSError``). A reader that closed
    the output pipe ends the command quietly with status 141. Anything else is a bug and
    keeps its traceback.
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
        except BrokenPipeError:
            exit_quietly_on_closed_pipe()
        except OSError as exc:  # a path that cannot be read or written, a full disk
            where = f": {exc.filename}" if exc.filename else ""
            exit_with(f"{exc.strerror or exc}{where}", FAILURE)

    return wrapper
