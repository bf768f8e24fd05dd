"""The metrics package's names bound on first use agree with where they are defined."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import envsuite.evaluation.metrics as metrics


def _type_checking_imports() -> dict[str, str]:
    """Name -> submodule, from the package's ``if TYPE_CHECKING:`` imports."""
    tree = ast.parse(Path(metrics.__file__).read_text())
    names: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for imp in node.body:
                assert isinstance(imp, ast.ImportFrom) and imp.module
                for alias in imp.names:
                    names[alias.name] = imp.module.rsplit(".", 1)[1]
    return names


def test_lazy_table_matches_the_type_checking_imports() -> None:
    assert _type_checking_imports() == metrics._SUBMODULE_OF


def test_every_public_name_resolves_to_its_submodule_object() -> None:
    for name in metrics.__all__:
        value = getattr(metrics, name)
        module = metrics._SUBMODULE_OF.get(name)
        if module is not None:
            submodule = importlib.import_module(f"{metrics.__name__}.{module}")
            assert value is getattr(submodule, name), name
