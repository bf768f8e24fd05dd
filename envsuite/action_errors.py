"""What a malformed action is: :class:`InvalidAction`, and the ``parse_error`` text of a failure.

The env bases (:mod:`envsuite.env_base`, :mod:`envsuite.parallel_env_base`) and
:mod:`envsuite.plain_actions` share these; ``envsuite.env_base`` re-exports them, which is
where envs import them from.

A ``parse_action`` says "this action is malformed" by raising :class:`InvalidAction`.
Any other exception it lets out is a bug in the parser (or in code it calls): the agent
still only sees a ``parse_error`` (an agent never gets an exception from ``step``), but
:func:`describe_parse_failure` also warns with :class:`ParseActionBugWarning`, which
envsuite's own test configuration turns into an error, so such bugs fail the tests instead
of passing as a silent penalty.
"""

from __future__ import annotations

import traceback
import warnings

#: Longest ``parse_error`` text; longer explanations are cut (they go into every info).
MAX_PARSE_ERROR_CHARS = 300


class InvalidAction(ValueError):
    """Raised by ``parse_action`` with a message saying what was wrong with the action."""


class ParseActionBugWarning(RuntimeWarning):
    """``parse_action`` raised something other than :class:`InvalidAction`: a parser bug.

    The agent got a ``parse_error`` and the env's penalty, as for any malformed action;
    the warning names the env, the exception and where it was raised, so the env's author
    can make the parser raise :class:`InvalidAction` with a reason (or fix the bug).
    envsuite's tests turn it into an error (``filterwarnings`` in ``pyproject.toml``).
    """


def is_interrupt(exc: BaseException) -> bool:
    """Whether ``exc`` asks the process to stop (Ctrl-C, ``sys.exit``), so must propagate.

    Every other exception raised while reading an action, ``BaseException`` subclasses a
    hostile action object may raise included, is a malformed action.
    """
    return isinstance(exc, KeyboardInterrupt | SystemExit)


def exception_text(exc: BaseException) -> str:
    """``"<type>: <message>"`` of ``exc``, never raising (see :func:`_text_of`)."""
    return f"{type(exc).__name__}: {_text_of(exc)}"


def _text_of(exc: BaseException) -> str:
    """``str(exc)``, or a stand-in when the exception's own ``__str__`` raises."""
    try:
        text = str(exc)
    except Exception:  # a hostile exception whose __str__ raises still explains nothing
        return "<its message could not be read>"
    return text if type(text) is str else "<its message is not text>"


def describe_parse_failure(exc: BaseException, env: object = None) -> str:
    """The ``parse_error`` text for an exception raised by ``env``'s ``parse_action``.

    Every env base calls this for a failed parse. An exception that is not an
    :class:`InvalidAction` also emits a :class:`ParseActionBugWarning` (see the module
    docstring); the text the agent gets is the same either way.

    Args:
        exc: What ``parse_action`` raised.
        env: The env whose parser raised (named in the warning), or None.
    """
    if not isinstance(exc, InvalidAction):
        warnings.warn(_bug_report(exc, env), ParseActionBugWarning, stacklevel=3)
    return parse_failure_text(exc)


def parse_failure_text(exc: BaseException) -> str:
    """The ``parse_error`` text for ``exc``, without judging whose fault it was.

    For failures that are the agent's by definition (a hostile action object that raised
    while :func:`~envsuite.plain_actions.plain_action` copied it), where no warning is due.
    """
    if isinstance(exc, InvalidAction):
        text = _text_of(exc) or "invalid action"
    else:
        text = f"could not interpret the action ({exception_text(exc)})"
    if len(text) > MAX_PARSE_ERROR_CHARS:
        text = text[: MAX_PARSE_ERROR_CHARS - 3] + "..."
    return text


def _bug_report(exc: BaseException, env: object) -> str:
    """The :class:`ParseActionBugWarning` text: the env, the exception and where it arose."""
    who = "an env" if env is None else _env_name(env)
    try:
        frames = traceback.extract_tb(exc.__traceback__)
    except Exception:  # a traceback that cannot be read still leaves the rest to say
        frames = traceback.StackSummary()
    where = f" at {frames[-1].filename}:{frames[-1].lineno} in {frames[-1].name}" if frames else ""
    return (
        f"{who}'s parse_action raised {exception_text(exc)}{where}; the agent got it as "
        "parse_error, but a malformed action must raise InvalidAction (any other exception "
        "is a bug in the parser)"
    )


def _env_name(env: object) -> str:
    """``ClassName`` of ``env``, with its registered id when it has one."""
    spec = getattr(env, "spec", None)
    env_id = getattr(spec, "id", None)
    name = type(env).__name__
    return f"{name} ({env_id})" if isinstance(env_id, str) else name
