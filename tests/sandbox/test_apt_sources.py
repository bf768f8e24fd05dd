import pytest

from envsuite.sandbox.apt_sources import (
    AptSource,
    NoDebianSource,
    configured_sources,
    debian_archive,
    parse_deb822,
    parse_one_line,
)

DEB822 = """Types: deb
URIs: http://mirror.invalid/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://mirror.invalid/debian-security
Suites: bookworm-security
Components: main

Types: deb-src
URIs: http://src.invalid/debian
Suites: trixie
Components: main
"""


def test_deb822_and_one_line_formats():
    sources = parse_deb822(DEB822)
    assert sources[0] == AptSource(
        "http://mirror.invalid/debian", ("bookworm", "bookworm-updates"), ("main",)
    )
    assert len(sources) == 2  # deb-src is not a binary source
    line = parse_one_line(
        "# comment\ndeb [arch=amd64] http://m.invalid/debian trixie main contrib\n"
    )
    assert line == [AptSource("http://m.invalid/debian", ("trixie",), ("main", "contrib"))]


def test_the_release_suite_of_the_debian_archive_is_chosen():
    assert debian_archive(parse_deb822(DEB822)) == ("http://mirror.invalid/debian", "bookworm")
    with pytest.raises(NoDebianSource):
        debian_archive([AptSource("http://x.invalid/ubuntu", ("jammy",), ("main",))])


def test_the_machine_configuration_reads(tmp_path):
    (tmp_path / "sources.list.d").mkdir()
    (tmp_path / "sources.list.d" / "debian.sources").write_text(DEB822)
    (tmp_path / "sources.list.d" / "other.list.disabled").write_text(
        "deb http://x.invalid/debian sid main\n"
    )
    assert debian_archive(configured_sources(tmp_path))[1] == "bookworm"
