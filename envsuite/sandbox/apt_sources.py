"""The machine's configured Debian package source, read from its apt configuration.

The base image's rootfs is made with ``debootstrap`` from the same archive apt uses here,
so envsuite never names a mirror itself: it reads ``/etc/apt/sources.list`` and
``/etc/apt/sources.list.d/*.list`` (one-line format) and ``*.sources`` (deb822 format).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from pathlib import Path

#: Where apt keeps its source lists.
APT_DIR = Path("/etc/apt")


@dataclasses.dataclass(frozen=True)
class AptSource:
    """One ``deb`` source: its archive URI, suites and components."""

    uri: str
    suites: tuple[str, ...]
    components: tuple[str, ...]


class NoDebianSource(RuntimeError):
    """No enabled Debian ``main`` archive with a release suite is configured."""


def parse_one_line(text: str) -> list[AptSource]:
    """Parse one-line ``deb [options] URI suite component...`` entries."""
    sources = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        line = re.sub(r"\[[^\]]*\]", " ", line)
        fields = line.split()
        if len(fields) >= 3 and fields[0] == "deb":
            sources.append(AptSource(fields[1], (fields[2],), tuple(fields[3:])))
    return sources


def parse_deb822(text: str) -> list[AptSource]:
    """Parse deb822 stanzas (``Types: deb``, ``URIs:``, ``Suites:``, ``Components:``)."""
    sources: list[AptSource] = []
    for stanza in re.split(r"\n\s*\n", text):
        fields: dict[str, str] = {}
        key = ""
        for raw in stanza.splitlines():
            if raw.startswith("#") or not raw.strip():
                continue
            if raw[0].isspace() and key:
                fields[key] += " " + raw.strip()
                continue
            key, _, value = raw.partition(":")
            key = key.strip().lower()
            fields[key] = value.strip()
        if "deb" not in fields.get("types", "").split():
            continue
        if fields.get("enabled", "yes").lower() == "no":
            continue
        suites = tuple(fields.get("suites", "").split())
        components = tuple(fields.get("components", "").split())
        sources.extend(AptSource(uri, suites, components) for uri in fields.get("uris", "").split())
    return sources


def configured_sources(apt_dir: Path = APT_DIR) -> list[AptSource]:
    """Every enabled ``deb`` source of the machine's apt configuration."""
    sources: list[AptSource] = []
    main_list = apt_dir / "sources.list"
    if main_list.is_file():
        sources += parse_one_line(main_list.read_text(errors="replace"))
    folder = apt_dir / "sources.list.d"
    if folder.is_dir():
        for path in sorted(folder.iterdir()):
            if path.suffix == ".list":
                sources += parse_one_line(path.read_text(errors="replace"))
            elif path.suffix == ".sources":
                sources += parse_deb822(path.read_text(errors="replace"))
    return sources


def debian_archive(sources: Iterable[AptSource] | None = None) -> tuple[str, str]:
    """The (archive URI, release suite) debootstrap should use.

    The first source with ``main`` and a release suite (a codename without a ``-updates``
    or ``-security`` part) that is a Debian archive (its URI path names ``debian``).

    Raises:
        NoDebianSource: none is configured.
    """
    candidates = list(configured_sources() if sources is None else sources)
    for source in candidates:
        if "main" not in source.components or "debian" not in source.uri.lower():
            continue
        if "security" in source.uri.lower():
            continue
        for suite in source.suites:
            if re.fullmatch(r"[a-z]+", suite):
                return source.uri, suite
    raise NoDebianSource(
        "no enabled Debian 'main' archive with a release suite in the apt configuration "
        f"({APT_DIR}/sources.list*); pass the archive and suite explicitly"
    )
