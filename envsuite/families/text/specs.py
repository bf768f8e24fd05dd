"""Registry entries of the text family (imports nothing heavy)."""

from envsuite.registry import EnvSpec, register

_PACKAGE = "envsuite.families.text"

#: The specs of the family, registered below; one per game.
TEXT_SPECS: list[EnvSpec] = []


def _register(spec: EnvSpec) -> None:
    TEXT_SPECS.append(spec)
    register(spec)
