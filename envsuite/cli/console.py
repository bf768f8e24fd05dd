"""Where the CLI writes: rich consoles for people, plain stdout for machine-readable output.

Consoles are made per call rather than at import, so they see the streams, terminal width
and colour support of the moment (which differ under test runners and pipes).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from rich.console import Console
from rich.text import Text


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


def write_json(data: Any) -> None:
    """Write ``data`` to stdout as indented JSON (no rich formatting, so it parses)."""
    sys.stdout.write(json.dumps(data, indent=2, sort_keys=True) + "\n")
