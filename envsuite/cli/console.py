"""Where the CLI writes: rich consoles for people, plain stdout for machine-readable output.

Consoles are made per call rather than at import, so they see the streams, terminal width
and colour support of the moment (which differ under test runners and pipes).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from rich.console import Console
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

#: Widest a table may grow when measured for a pipe (a bound, not a width it is given).
MEASURE_LIMIT = 10_000


def stdout() -> Console:
    """Return a console on standard output (no automatic highlighting)."""
    return Console(highlight=False)


def stderr() -> Console:
    """Return a console on standard error, for errors and notes."""
    return Console(stderr=True, highlight=False)


def plain(text: str, style: str = "") -> Text:
    """``text`` as a rich renderable shown verbatim (no markup: env text has brackets)."""
    return Text(text, style=style)


def line(console: Console, text: str, style: str = "") -> None:
    """Print ``text`` verbatim as one line: the terminal wraps it, rich does not.

    Unwrapped messages stay whole for ``grep``, logs and tests.
    """
    console.print(plain(text, style), soft_wrap=True)


def print_table(console: Console, table: Table) -> None:
    """Print ``table`` whole: on a terminal at its width, into a pipe or file at its own.

    With no terminal to measure, rich assumes 80 columns and would fold or cut a wider
    table (``envsuite eval ... | less`` lost its right-hand columns). Into a pipe the table
    gets the width its content needs instead; nothing wraps it there.
    """
    if console.is_terminal:
        console.print(table)
        return
    options = console.options.update(max_width=MEASURE_LIMIT)
    width = max(console.width, Measurement.get(console, options, table).maximum)
    # print(width=...) cannot exceed the console's width: a console of the table's width
    # on the same stream writes it
    wide = Console(
        file=console.file,
        width=width,
        highlight=False,
        no_color=console.no_color,
        color_system=console.color_system,  # type: ignore[arg-type]
    )
    wide.print(table)


def write_json(data: Any) -> None:
    """Write ``data`` to stdout as indented JSON (no rich formatting, so it parses)."""
    sys.stdout.write(json.dumps(data, indent=2, sort_keys=True) + "\n")
