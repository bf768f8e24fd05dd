"""What a malformed action is: :class:`InvalidAction`, and the ``parse_error`` text of a failure.

The env bases (:mod:`envsuite.env_base`, :mod:`envsuite.parallel_env_base`) and
:mod:`envsuite.plain_actions` share these; ``envsuite.env_base`` re-exports them, which is
where envs import them from.
"""

from __future__ import annotations

#: Longest ``parse_error`` text; longer explanations are cut (they go into every info).
MAX_PARSE_ERROR_CHARS = 300


class InvalidAction(ValueError):
    """Raised by ``parse_action`` with a message saying what was wrong with the action."""


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


def describe_parse_failure(exc: BaseException) -> str:
    """The ``parse_error`` text for an exception raised while parsing an action."""
    if isinstance(exc, InvalidAction):
        text = _text_of(exc) or "invalid action"
    else:
        text = f"could not interpret the action ({exception_text(exc)})"
    if len(text) > MAX_PARSE_ERROR_CHARS:
        text = text[: MAX_PARSE_ERROR_CHARS - 3] + "..."
    return text
