r"""The commands of ``SATInteractive-v0``: assign a full assignment, set or unset variables.

A response may hold reasoning before its command. The command is read from the last
``\boxed{...}`` if there is one (its content is a full assignment), else from the last
non-empty line:

- ``assign 0110`` (spaces between the bits are allowed) or a bare ``0110``: every variable;
- ``set A=1 C=0`` (also ``set A = true, C = false``): some variables, the others kept;
- ``unset A C``: make variables unset again.

Names are matched without regard to case. Anything else raises InvalidAction with the
reason; the env charges its penalty.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from envsuite.env_base import InvalidAction
from envsuite.families.sat.answer_parsing import extract_boxed

_ASSIGNMENT = re.compile(
    r"([A-Za-z][A-Za-z0-9]*)\s*=\s*(true|false|0|1)(?![A-Za-z0-9])", re.IGNORECASE
)
_BITS = re.compile(r"^[01\s]+$")


@dataclass(frozen=True)
class Command:
    """A parsed command: which variables (0-based) get which value (None: unset)."""

    kind: Literal["assign", "set", "unset"]
    values: tuple[tuple[int, int | None], ...]


def _bits(text: str, num_vars: int) -> Command:
    bits = "".join(text.split())
    if not _BITS.match(text) or len(bits) != num_vars:
        raise InvalidAction(
            f"an assignment is {num_vars} characters of 0/1, got {text.strip()!r:.60}"
        )
    return Command("assign", tuple((i, int(bit)) for i, bit in enumerate(bits)))


def _index(name: str, lookup: dict[str, int]) -> int:
    index = lookup.get(name.lower())
    if index is None:
        raise InvalidAction(f"there is no variable named {name!r}")
    return index


def parse_command(response: object, names: tuple[str, ...]) -> Command:
    """Read the command of a response (see the module docstring).

    Raises:
        InvalidAction: not text, no command, or a malformed one.
    """
    if not isinstance(response, str):
        raise InvalidAction(f"expected a command (str), got {type(response).__name__}")
    boxed = extract_boxed(response)
    if boxed is not None:
        return _bits(boxed, len(names))
    lines = [line.strip() for line in response.splitlines() if line.strip()]
    if not lines:
        raise InvalidAction(
            "empty response; send assign BITS, set NAME=VALUE ... or unset NAME ..."
        )
    line = lines[-1]
    word, _, rest = line.partition(" ")
    keyword = word.lower()
    lookup = {name.lower(): i for i, name in enumerate(names)}
    if keyword == "assign":
        return _bits(rest, len(names))
    if keyword == "set":
        leftover = _ASSIGNMENT.sub("", rest).replace(",", "").strip()
        matches = list(_ASSIGNMENT.finditer(rest))
        if not matches or leftover:
            raise InvalidAction(
                f"cannot read {rest.strip()!r:.60} as NAME=VALUE ... (VALUE 0 or 1)"
            )
        values: list[tuple[int, int | None]] = [
            (_index(m[1], lookup), 1 if m[2].lower() in ("1", "true") else 0) for m in matches
        ]
        return Command("set", tuple(values))
    if keyword == "unset":
        targets = [t for t in re.split(r"[,\s]+", rest.strip()) if t]
        if not targets:
            raise InvalidAction("unset needs at least one variable name")
        return Command("unset", tuple((_index(t, lookup), None) for t in targets))
    if _BITS.match(line):
        return _bits(line, len(names))
    raise InvalidAction(
        f"unknown command {word!r:.30}; send assign BITS, set NAME=VALUE ... or unset NAME ..."
    )
