"""The swe family's commands: ``envsuite sandbox`` and ``envsuite swe``.

``sandbox`` (build, status, prune) lives here and not in the core CLI because the images it
builds are those of the swe family's software environments: the sandbox layer
(:mod:`envsuite.sandbox`) knows how to build an image, the family knows which. When a second
family starts sandboxes, the group moves to the core with a per-family list of images.
Importing this package imports nothing heavy (the Docker SDK loads inside the commands).
"""

from __future__ import annotations

import typer

from envsuite.families.swe.cli import sandbox, swe


def register(app: typer.Typer) -> None:
    """Add the swe family's command groups to ``app``."""
    sandbox.register(app)
    swe.register(app)
