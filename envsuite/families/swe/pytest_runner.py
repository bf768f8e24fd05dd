"""The test runner the grader starts as ``python -I pytest_runner.py --path DIR -- ARGS``.

It is copied into every task image (``/opt/envsuite/pytest_runner.py``) and used in place
by the local sandbox, so it imports nothing from envsuite. ``-I`` keeps the working
directory, ``PYTHONPATH`` and user site-packages off ``sys.path`` while pytest is imported,
so a ``pytest.py`` or ``_pytest/`` planted in the repository cannot replace the runner;
the repository's import roots are appended afterwards, behind the standard library.
"""

import sys


def main(argv: list[str]) -> int:
    """Import pytest, put the repository's import roots on the path, run pytest."""
    import pytest

    paths: list[str] = []
    while argv and argv[0] == "--path":
        paths.append(argv[1])
        argv = argv[2:]
    if argv and argv[0] == "--":
        argv = argv[1:]
    sys.path.extend(paths)
    return int(pytest.main(argv))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
