"""Options that only an env target takes, refused by name when the target is a task protocol.

A task protocol pins its envs, keyword arguments, seeds, attempts and budgets; an option
that would set one of them for an env target (``--episodes``, ``--set``) is refused when
given with a protocol file rather than silently ignored.
"""

from __future__ import annotations

from collections.abc import Mapping

import typer

from envsuite.cli.exits import USAGE, exit_with

#: Where an option's value comes from when the user did not give it.
UNSET_SOURCES = frozenset({"DEFAULT", "DEFAULT_MAP"})


def given_options(ctx: typer.Context, options: Mapping[str, str]) -> list[str]:
    """The flags of ``options`` whose values came from the command line (or the environment).

    Args:
        ctx: The running command's context.
        options: Parameter name -> the flag that shows it, e.g. ``{"episodes": "--episodes"}``.
    """
    # By name: typer vendors its own click, whose ParameterSource enum is private.
    given = []
    for name, flag in options.items():
        source = ctx.get_parameter_source(name)
        if source is not None and source.name not in UNSET_SOURCES:
            given.append(flag)
    return given


def refuse_env_target_options(ctx: typer.Context, options: Mapping[str, str]) -> None:
    """Exit with a usage error (2) naming every option of ``options`` that was given.

    Args:
        ctx: The running command's context.
        options: Parameter name -> flag, the options that apply to env targets only.
    """
    given = given_options(ctx, options)
    if given:
        verb = "applies" if len(given) == 1 else "apply"
        exit_with(
            f"{', '.join(given)} only {verb} to env targets; a task protocol pins its own "
            "(edit the protocol)",
            USAGE,
        )
