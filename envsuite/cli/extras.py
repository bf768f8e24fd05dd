"""Whether a pip extra of envsuite is installed, read from the installed package's metadata.

Checking metadata (rather than importing an env) keeps ``envsuite list`` fast: it never
imports pybullet or mujoco just to say whether they are there.
"""

from __future__ import annotations

import re
from importlib import metadata

#: A requirement line: distribution name, optional ``[extras]``, rest, ``; extra == "x"``.
_REQUIREMENT = re.compile(
    r"^\s*(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[(?P<extras>[^\]]*)\])?"
    r"[^;]*(?:;(?P<marker>.*))?$"
)
_EXTRA_MARKER = re.compile(r"""extra\s*==\s*["'](?P<extra>[^"']+)["']""")


def _requirements_by_extra() -> dict[str, list[tuple[str, list[str]]]] | None:
    """``{extra: [(distribution, [its extras]), ...]}`` from envsuite's metadata, or None."""
    try:
        lines = metadata.requires("envsuite") or []
    except metadata.PackageNotFoundError:
        return None
    by_extra: dict[str, list[tuple[str, list[str]]]] = {}
    for line in lines:
        match = _REQUIREMENT.match(line)
        marker = _EXTRA_MARKER.search(match["marker"] or "") if match else None
        if match is None or marker is None:
            continue
        extras = [e.strip() for e in (match["extras"] or "").split(",") if e.strip()]
        by_extra.setdefault(marker["extra"], []).append((match["name"], extras))
    return by_extra


def _installed(distribution: str) -> bool:
    try:
        metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return False
    return True


def extra_installed(extra: str) -> bool | None:
    """Whether every distribution ``envsuite[extra]`` requires is installed.

    Returns None when that cannot be told: envsuite runs from a source tree that was never
    installed, or the extra is not declared.
    """
    by_extra = _requirements_by_extra()
    if by_extra is None or extra not in by_extra:
        return None
    return _all_installed(extra, by_extra, seen=set())


def _all_installed(
    extra: str, by_extra: dict[str, list[tuple[str, list[str]]]], seen: set[str]
) -> bool:
    seen.add(extra)
    for name, nested in by_extra.get(extra, []):
        if name.lower() == "envsuite":  # envsuite[all] = envsuite[sat,physics,...]
            if not all(_all_installed(e, by_extra, seen) for e in nested if e not in seen):
                return False
        elif not _installed(name):
            return False
    return True


def install_command(extra: str) -> str:
    """Return the command that installs ``extra``."""
    return f"pip install 'envsuite[{extra}]'"
