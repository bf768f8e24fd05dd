"""The sat family's commands: ``envsuite curriculum`` and ``envsuite datasets``.

Found by the core CLI as every family's ``cli`` is (see :mod:`envsuite.cli`); importing
this package imports nothing heavy (python-sat loads inside the commands that need it).
"""

from __future__ import annotations

import typer

from envsuite.families.sat.cli import curriculum, datasets


def register(app: typer.Typer) -> None:
    """Add the sat family's command groups to ``app``."""
    curriculum.register(app)
    datasets.register(app)
