"""The sandbox layer sits under the families: it imports nothing above it."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import envsuite.sandbox

SANDBOX = Path(envsuite.sandbox.__file__).parent
#: Packages above the sandbox layer (``families -> sandbox -> core``).
ABOVE = ("envsuite.families", "envsuite.agents", "envsuite.evaluation", "envsuite.cli")


def _imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_the_sandbox_package_imports_nothing_above_it():
    offending = {
        f"{path.name}: {name}"
        for path in sorted(SANDBOX.glob("*.py"))
        for name in _imported_modules(path)
        if name.startswith(ABOVE)
    }
    assert not offending


def test_the_harness_scripts_import_nothing_from_envsuite():
    # Copied into every image and run there by a bare python3, where envsuite is absent.
    for name in ("pytest_runner.py", "result_collector.py"):
        assert not {m for m in _imported_modules(SANDBOX / name) if m.startswith("envsuite")}


def test_importing_the_sandbox_package_loads_neither_docker_nor_swe_code():
    # ``import envsuite`` registers every family's specs; nothing else of swe may load.
    code = (
        "import sys, envsuite.sandbox, envsuite.sandbox.provider; "
        "print(sorted(m for m in sys.modules if m == 'docker' or "
        "m.startswith('envsuite.families.swe.') and not m.endswith('.specs')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
