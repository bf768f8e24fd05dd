r"""Reading an answer out of a model's response: SATURN's lenient rule, or a strict one.

Both parsers take the answer from the *last* ``\boxed{...}`` in the response, found with
SATURN's own pattern ``\\boxed{(.*?)}`` (non-greedy, never across a line break). A response
without one is "no answer" (reward −1 in ``SAT-v0``, as in SATURN). They differ in what they
accept inside the box:

``saturn`` (SATURN's ``calc_sat_value``, the default)
    Any content is an answer and is scored as it stands: character ``i`` is the value of
    variable ``i + 1``; a positive literal holds only on ``1`` and a negated one only on
    ``0``, so any other character (a space, a comma, ``T``) makes both false; characters
    past the last variable are ignored; variables past the end of the content read as
    ``0``. So ``\boxed{1101}`` for five variables means ``11010``, and ``\boxed{1 1 0}``
    puts a space in position 2. A malformed answer is simply scored (usually wrong, 0).

``strict``
    The content must be exactly ``num_vars`` characters, each ``0`` or ``1``. Anything else
    is rejected as "no valid answer": reward −1 and ``info["parse_error"]`` says why.

For ``task="decide"`` the box holds ``SAT`` or ``UNSAT``: strict wants exactly one of these
two words; lenient also takes any case, surrounding spaces and ``SATISFIABLE`` /
``UNSATISFIABLE``, and scores other content as a wrong answer (0).
"""

from __future__ import annotations

import re
from typing import Literal

from envsuite.env_base import InvalidAction

AnswerParser = Literal["saturn", "strict"]
ANSWER_PARSERS: tuple[AnswerParser, ...] = ("saturn", "strict")

#: SATURN's answer pattern (``src/reward_function/reward_func.py``); the last match counts.
BOXED = re.compile(r"\\boxed{(.*?)}")

NO_BOXED = "no \\boxed{...} answer found in the response"
_LENIENT_SAT = {"SAT": True, "SATISFIABLE": True, "UNSAT": False, "UNSATISFIABLE": False}


def extract_boxed(response: str) -> str | None:
    r"""The content of the last ``\boxed{...}`` (SATURN's rule), or None."""
    matches = BOXED.findall(response)
    return matches[-1] if matches else None


def _boxed(response: object) -> str:
    if not isinstance(response, str):
        raise InvalidAction(f"expected the response text (str), got {type(response).__name__}")
    content = extract_boxed(response)
    if content is None:
        raise InvalidAction(NO_BOXED)
    return content


def parse_assignment(response: object, num_vars: int, parser: AnswerParser) -> str:
    """The assignment a response answers, as the string the clauses are checked against.

    Returns:
        The boxed content: any string for ``saturn`` (scored by SATURN's rule), exactly
        ``num_vars`` 0/1 characters for ``strict``.

    Raises:
        InvalidAction: no boxed answer, or (strict) content that is not a full 0/1 assignment.
    """
    content = _boxed(response)
    if parser == "strict" and (len(content) != num_vars or set(content) - {"0", "1"}):
        raise InvalidAction(
            f"strict answers are exactly {num_vars} characters of 0/1 in \\boxed{{}}, "
            f"got {content!r:.60}"
        )
    return content


def parse_decision(response: object, parser: AnswerParser) -> bool | None:
    """The SAT/UNSAT verdict of a response: True for SAT, False for UNSAT.

    Returns:
        The verdict, or None when a lenient parser finds boxed content that is neither
        (scored as a wrong answer).

    Raises:
        InvalidAction: no boxed answer, or (strict) content other than ``SAT`` / ``UNSAT``.
    """
    content = _boxed(response)
    if parser == "strict":
        if content not in ("SAT", "UNSAT"):
            raise InvalidAction(
                f"strict answers are \\boxed{{SAT}} or \\boxed{{UNSAT}}, got {content!r:.60}"
            )
        return content == "SAT"
    return _LENIENT_SAT.get(content.strip().upper())
