import pytest

from envsuite.families.swe.patch_filter import (
    filter_patch,
    is_test_file,
    restore_pytest_tables,
)
from envsuite.families.swe.unified_diff import make_file_diff


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("tests/test_core.py", True),
        ("pkg/tests/helpers.py", True),
        ("test_inflection.py", True),
        ("pkg/core_test.py", True),
        ("conftest.py", True),
        ("src/pkg/conftest.py", True),
        ("src/pkg/core.py", False),
        ("pkg/testament.py", False),
    ],
)
def test_test_files(path, expected):
    assert is_test_file(path) is expected


def test_only_the_source_change_survives():
    diff = (
        make_file_diff("pkg/core.py", "x = 1\n", "x = 2\n")
        + make_file_diff("conftest.py", None, "import pytest\n")
        + make_file_diff("tests/test_core.py", "def test(): assert 0\n", "def test(): pass\n")
        + make_file_diff("setup.cfg", "[tool:pytest]\n", "[tool:pytest]\naddopts = -x\n")
        + make_file_diff("tox.ini", "", "[pytest]\n")
        + make_file_diff("pytest.ini", None, "[pytest]\n")
        + make_file_diff("sitecustomize.py", None, "import os\n")
        + make_file_diff("evil.pth", None, "import os\n")
        + make_file_diff("json.py", None, "x = 1\n")
        + make_file_diff("pytest.py", None, "x = 1\n")
        + make_file_diff("src/_pytest/__init__.py", None, "x = 1\n")
    )
    filtered = filter_patch(diff, import_roots=(".", "src"))
    assert filtered.kept_paths == ("pkg/core.py",)
    assert "x = 2" in filtered.diff and "conftest" not in filtered.diff
    reasons = dict(filtered.dropped)
    assert reasons["conftest.py"] == "changes a test file"
    assert reasons["setup.cfg"] == "changes the test runner's configuration"
    assert reasons["sitecustomize.py"] == "adds a Python start-up hook"
    assert reasons["json.py"] == "adds a module that shadows 'json'"
    assert reasons["src/_pytest/__init__.py"] == "adds a module that shadows '_pytest'"


def test_a_new_ordinary_module_is_kept():
    filtered = filter_patch(make_file_diff("pkg/helpers.py", None, "y = 1\n"))
    assert filtered.kept_paths == ("pkg/helpers.py",) and not filtered.dropped


def test_empty_diff():
    assert filter_patch("").diff == "" and filter_patch("  \n").kept_paths == ()


def test_pyproject_pytest_tables_are_restored_and_the_rest_kept():
    old = '[project]\nname = "x"\n\n[tool.pytest.ini_options]\naddopts = "-q"\n'
    new = '[project]\nname = "y"\n\n[tool.pytest.ini_options]\naddopts = "-p evil"\n'
    fixed = restore_pytest_tables(old, new)
    assert 'name = "y"' in fixed and 'addopts = "-q"' in fixed and "evil" not in fixed
    added = old.replace('addopts = "-q"\n', "")
    assert "addopts" not in restore_pytest_tables(added, new)
    assert restore_pytest_tables(old, old.replace('"x"', '"z"')) == old.replace('"x"', '"z"')


def test_metadata_compiled_files_and_files_outside_the_import_roots_are_dropped():
    diff = (
        make_file_diff("src/pkg/core.py", "x = 1\n", "x = 2\n")
        + make_file_diff("src/pkg-1.0.dist-info/entry_points.txt", None, "[pytest11]\nx = pkg\n")
        + make_file_diff("src/pkg.egg-info/PKG-INFO", "Name: pkg\n", "Name: pkg2\n")
        + make_file_diff("src/pkg/__pycache__/core.cpython-311.pyc", None, "x\n")
        + make_file_diff("src/pkg/_speed.so", None, "x\n")
        + make_file_diff("setup.py", "a = 1\n", "a = 2\n")
        + make_file_diff("docs/index.md", "# x\n", "# y\n")
    )
    filtered = filter_patch(diff, import_roots=("src",))
    assert filtered.kept_paths == ("src/pkg/core.py",)
    reasons = dict(filtered.dropped)
    assert reasons["src/pkg-1.0.dist-info/entry_points.txt"].startswith("changes packaging")
    assert reasons["src/pkg.egg-info/PKG-INFO"].startswith("changes packaging")
    assert reasons["src/pkg/__pycache__/core.cpython-311.pyc"] == "adds compiled code"
    assert reasons["src/pkg/_speed.so"] == "adds compiled code"
    assert reasons["setup.py"] == "lies outside the library's import roots"
    assert reasons["docs/index.md"] == "lies outside the library's import roots"
    flat = filter_patch(make_file_diff("setup.py", "a = 1\n", "a = 2\n"), import_roots=(".",))
    assert flat.kept_paths == ("setup.py",)
