"""``--set key=value`` options: environment keyword arguments given on the command line."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Annotated, Any

import typer

from envsuite.safe_load import MAX_DEPTH, DataFileError, check_depth

SET_OPTION_HELP = (
    "An env keyword argument as KEY=VALUE (repeatable). VALUE is read as JSON when it "
    'parses (20, 0.5, true, null, [0.1,0.9], "text"), otherwise as a plain string.'
)

#: The ``--set`` option, for commands that make an env from command-line kwargs.
SetOption = Annotated[
    list[str] | None,
    typer.Option("--set", "-s", metavar="KEY=VALUE", help=SET_OPTION_HELP, show_default=False),
]


def parse_value(text: str, source: str = "the value") -> Any:
    """``text`` as JSON when it parses (``20`` -> 20, ``[1,2]`` -> [1, 2]), else the string.

    Raises:
        DataFileError: JSON nested more than :data:`~envsuite.safe_load.MAX_DEPTH` levels
            deep (named by ``source``, e.g. ``--set num_arms``).
    """
    try:
        value = json.loads(text)
    except RecursionError as exc:
        raise DataFileError(
            f"{source} nests lists or mappings more than {MAX_DEPTH} levels deep"
        ) from exc
    except ValueError:
        return text
    return check_depth(value, source)


def parse_assignments(assignments: Iterable[str] | None) -> dict[str, Any]:
    """Turn ``["num_arms=20", "observation_mode=text"]`` into keyword arguments.

    A later assignment to the same key wins.

    Raises:
        typer.BadParameter: an item without ``=`` or with an empty or non-identifier key.

    """
    kwargs: dict[str, Any] = {}
    for item in assignments or ():
        key, equals, value = item.partition("=")
        key = key.strip()
        if not equals or not key.isidentifier():
            raise typer.BadParameter(
                f"expected KEY=VALUE with KEY a keyword argument name, got {item!r}",
                param_hint="'--set'",
            )
        kwargs[key] = parse_value(value, f"--set {key}")
    return kwargs


def format_kwargs(kwargs: dict[str, Any]) -> str:
    """``num_arms=20, observation_mode='text'`` (for messages)."""
    return ", ".join(f"{key}={value!r}" for key, value in kwargs.items())
