"""The README's Python examples run as written (each in a fresh interpreter).

Only the blocks that start a line with a python fence are run; indented blocks inside
lists are fragments of a procedure (a ``register(...)`` call to adapt, say).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```", README.read_text(encoding="utf-8"), re.S | re.M)


def test_readme_has_examples() -> None:
    assert len(BLOCKS) >= 2


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_example_runs(index: int, tmp_path: Path) -> None:
    code = BLOCKS[index]
    physics = "envsuite/Drone" in code or "envsuite/Arm" in code
    if physics and os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
        pytest.importorskip("pybullet")
        pytest.importorskip("mujoco")
    if "trl_adapter" in code and os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
        pytest.importorskip("datasets")
    if "verifiers" in code and os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
        pytest.importorskip("verifiers")
    script = tmp_path / f"readme_{index}.py"
    script.write_text(code, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip()  # every example prints what it shows
