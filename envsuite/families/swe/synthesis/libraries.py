"""The pinned libraries the shipped SWE dataset is synthesised from.

Small pure-Python libraries whose source distributions include their tests, pinned by
``name==version`` and the sdist's sha256. ``sources`` are the folders (or files) whose
code is mutated; tests are never mutated. (jmespath 1.1.0 was tried and left out: its
sdist lacks ``tests/__init__.py``, so its tests cannot be collected.)
"""

from __future__ import annotations

import dataclasses

from envsuite.sandbox.environment import Requirement, SoftwareEnvironment


@dataclasses.dataclass(frozen=True)
class LibraryPin:
    """A library to synthesise problems from.

    Attributes:
        name: PyPI name (also the dataset folder name).
        version: Exact version.
        sdist_sha256: sha256 of the source distribution.
        sources: Paths (folders or files) inside the sdist whose code may be mutated.
        python_path: Import roots inside the repository.
        requirements: Wheels the tests need besides pytest.
        pytest_args: Extra pytest arguments (see :class:`SoftwareEnvironment`).
    """

    name: str
    version: str
    sdist_sha256: str
    sources: tuple[str, ...]
    python_path: tuple[str, ...] = (".",)
    requirements: tuple[Requirement, ...] = ()
    pytest_args: tuple[str, ...] = ()

    @property
    def environment(self) -> SoftwareEnvironment:
        """The software environment every problem of this library runs in."""
        return SoftwareEnvironment(self.name, self.python_path, self.requirements, self.pytest_args)


#: No coverage plugin in the images: drop configured options such as ``--cov``.
NO_ADDOPTS = ("-o", "addopts=")

LIBRARIES: tuple[LibraryPin, ...] = (
    LibraryPin(
        "cachetools",
        "8.0.1",
        "deb1d376d4d28c2f33f3e3058043b005e0af75c35c094bd54053e27d2906ad95",
        ("src/cachetools",),
        python_path=("src",),
    ),
    LibraryPin(
        "inflection",
        "0.5.1",
        "1a29730d366e996aaacffb2f1f1cb9593dc38e2ddd30c91250c6dde09ea9b417",
        ("inflection",),
    ),
    LibraryPin(
        "isodate",
        "0.7.2",
        "4cd1aa0f43ca76f4a6c6c0292a85f40b35ec2e43e315b59f06e6d32171a953e6",
        ("src/isodate",),
        python_path=("src",),
    ),
    LibraryPin(
        "parse",
        "1.22.4",
        "706d458feed5a81b02768d3156e8070baf6cee7d150a3a3c0cd43101a875c3b5",
        ("parse",),
        pytest_args=NO_ADDOPTS,
    ),
    LibraryPin(
        "semver",
        "3.1.1",
        "149b26cabada6f63212f97e94505d21578cb1d280cf714827f328d5e70765fea",
        ("src/semver",),
        python_path=("src",),
        pytest_args=NO_ADDOPTS,
    ),
    LibraryPin(
        "tabulate",
        "0.10.0",
        "e2cfde8f79420f6deeffdeda9aaec3b6bc5abce947655d17ac662b126e48a60d",
        ("tabulate",),
        requirements=(
            Requirement(
                "wcwidth",
                "0.2.13",
                "3da69048e4540d84af32131829ff948f1e022c1c6bdb8d6102117aac784f6859",
            ),
        ),
    ),
    LibraryPin(
        "toolz",
        "1.2.0",
        "9667a038e9d6ecba37995e26cb2f59ec6420b6ad8dd9677de59db9b956b08490",
        ("toolz",),
    ),
)


def library_pin(name: str) -> LibraryPin:
    """The pin of ``name``.

    Raises:
        KeyError: no such pinned library.
    """
    for pin in LIBRARIES:
        if pin.name == name:
            return pin
    raise KeyError(f"no pinned library {name!r}; pinned: {', '.join(p.name for p in LIBRARIES)}")
