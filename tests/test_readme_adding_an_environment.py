"""README's "Adding an environment" and "Words" sections match the code they describe."""

from __future__ import annotations

import importlib
import importlib.util
import re
from pathlib import Path

import typer
from typer.main import get_command

import envsuite.testing
from envsuite.cli import family_command_modules

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
ADDING = README.split("## Adding an environment")[1].split("\n## ")[0]
WORDS = README.split("## Words")[1].split("\n## ")[0]


def test_the_files_it_names_exist():
    paths = set(re.findall(r"`((?:envsuite|tests|containers)/[\w/.]+\.(?:py|md))`", ADDING))
    paths |= {f"envsuite/families/{p}" for p in re.findall(r"`(decision/\w+\.py)`", ADDING)}
    assert paths
    assert [p for p in sorted(paths) if not (ROOT / p).is_file()] == []


def test_the_modules_and_functions_it_names_exist():
    assert callable(envsuite.testing.run_conformance)
    for module in ("envsuite.sandbox", "envsuite.env_base", "envsuite.testing"):
        assert f"`{module}" in ADDING + WORDS
        assert importlib.util.find_spec(module) is not None
    from envsuite.sandbox.environment import SoftwareEnvironment  # noqa: F401
    from envsuite.sandbox.provider import SandboxProvider

    assert "SandboxProvider(backend).factory(" in ADDING.replace("\n", "")
    assert callable(SandboxProvider("local").factory)


def test_the_family_commands_it_lists_are_the_ones_registered():
    claims = re.findall(r"`(\w+)` adds `(\w+)` and `(\w+)`", " ".join(ADDING.split()))
    assert claims
    for family, *commands in claims:
        app = typer.Typer()
        importlib.import_module(f"envsuite.families.{family}.cli").register(app)
        assert sorted(get_command(app).commands) == sorted(commands)  # type: ignore[attr-defined]
    assert {f"envsuite.families.{family}.cli" for family, *_ in claims} == set(
        family_command_modules()
    )
