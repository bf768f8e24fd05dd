"""Imports point one way: cli -> serve, leaderboard -> evaluation -> agents -> families -> remote
-> sandbox -> core.

Every ``envsuite`` import in every module (at the top, inside functions, under
``TYPE_CHECKING``) is read from the source, so a shortcut upwards fails here, and
families never import one another.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import envsuite

PACKAGE = Path(envsuite.__file__).parent

#: Layers from the bottom; a module may import its own layer and those below it.
LAYERS = (
    "core",
    "sandbox",
    "remote",
    "families",
    "agents",
    "evaluation",
    "serve",
    "trainers",
    "leaderboard",
    "bench",
    "cli",
)
#: Sub-packages and their layer; top-level modules and ``testing`` (the kit) are core.
PACKAGE_LAYERS = {
    "sandbox": "sandbox",
    "remote": "remote",
    "families": "families",
    "agents": "agents",
    "evaluation": "evaluation",
    "leaderboard": "leaderboard",
    "serve": "serve",
    "trainers": "trainers",
    "bench": "bench",
    "cli": "cli",
}
#: The one documented exception: a family's ``cli`` registers commands on the core CLI.
FAMILY_CLI = "cli"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _layer(module: str) -> str:
    parts = module.split(".")
    if parts[-1] == "__main__":
        return "cli"  # ``python -m envsuite`` is the command line
    return PACKAGE_LAYERS.get(parts[1], "core") if len(parts) > 1 else "core"


def _family(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "families" else None


def _is_family_cli(module: str) -> bool:
    parts = module.split(".")
    return _family(module) is not None and len(parts) > 3 and parts[3] == FAMILY_CLI


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
    return [(line, name) for line, name in found if name.split(".")[0] == "envsuite"]


MODULES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=[_module_name(p) for p in MODULES])
def test_imports_point_down(path: Path) -> None:
    module = _module_name(path)
    rank = LAYERS.index(_layer(module))
    wrong = []
    for line, imported in _imports(path):
        target = _layer(imported)
        if LAYERS.index(target) > rank and not (_is_family_cli(module) and target == "cli"):
            wrong.append(f"line {line}: {imported} ({target} is above {_layer(module)})")
        family = _family(imported)
        if _family(module) and family and family != _family(module):
            wrong.append(f"line {line}: {imported} (families never import each other)")
    assert not wrong, f"{module}: " + "; ".join(wrong)


def test_the_checker_sees_a_wrong_import(tmp_path: Path) -> None:
    """The reader finds imports in functions too (so the test above can fail)."""
    source = tmp_path / "x.py"
    source.write_text("def f():\n    from envsuite.cli import app\n", encoding="utf-8")
    assert _imports(source) == [(2, "envsuite.cli")]
