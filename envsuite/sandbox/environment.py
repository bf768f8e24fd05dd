"""The software a sandbox image provides: pinned wheels and import roots, by name.

Docker tags keep the word of the swe family, where this started (``envsuite-swe/task-<name>``,
``containers/task/``): renaming them would rebuild every cached image for no change.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from envsuite.sandbox.interface import SandboxEnvironment


@dataclasses.dataclass(frozen=True)
class Requirement:
    """A pinned Python dependency installed into the image from a wheel.

    Attributes:
        name: The distribution name on PyPI.
        version: The exact version.
        sha256: The wheel's sha256 (checked after download); "" to skip the check.
    """

    name: str
    version: str
    sha256: str = ""

    @property
    def pin(self) -> str:
        """``name==version``."""
        return f"{self.name}=={self.version}"


@dataclasses.dataclass(frozen=True)
class SoftwareEnvironment:
    """The software code run in a sandbox needs (for SWE: every problem of one repository).

    Attributes:
        name: Names the image (``envsuite-swe/task-<name>``).
        python_path: Import roots relative to the repository (``"."``, ``"src"``).
        requirements: Wheels installed into the image's virtual environment.
        pytest_args: Extra pytest arguments of the grader (``-o addopts=`` for a repository
            whose configured options need plugins the image lacks, such as coverage).
    """

    name: str
    python_path: tuple[str, ...] = (".",)
    requirements: tuple[Requirement, ...] = ()
    pytest_args: tuple[str, ...] = ()

    def sandbox_environment(self, image: str) -> SandboxEnvironment:
        """The :class:`SandboxEnvironment` for this environment built as ``image``."""
        return SandboxEnvironment(image=image, python_path=self.python_path)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SoftwareEnvironment:
        """Read the ``environment`` object of a ``library.json``."""
        return cls(
            name=str(data["name"]),
            python_path=tuple(data.get("python_path", (".",))),
            requirements=tuple(Requirement(**r) for r in data.get("requirements", ())),
            pytest_args=tuple(data.get("pytest_args", ())),
        )

    def to_json(self) -> dict[str, Any]:
        """The JSON form read by :meth:`from_json`."""
        return {
            "name": self.name,
            "python_path": list(self.python_path),
            "requirements": [dataclasses.asdict(r) for r in self.requirements],
            "pytest_args": list(self.pytest_args),
        }
