"""Reading YAML and JSON written by people or other programs, within limits.

Task protocols, run files, ``--set`` values and leaderboard submissions reach envsuite from
outside, so a bad one must end in a message naming the file and the line, never in a
traceback, a hang or an exhausted memory. What this module refuses, and why:

- bytes that are not UTF-8 (the message names the line);
- nesting deeper than :data:`MAX_DEPTH` levels (the parsers recurse, and so does the code
  that walks what they return);
- YAML whose aliases would expand to more than :data:`MAX_NODES` nodes (an alias bomb
  is a few hundred bytes that expand to billions of nodes), and aliases that contain
  themselves (a cyclic value no JSON can hold);
- the same key twice in one YAML or JSON mapping (one of the two values would be dropped
  without a word);
- in strict JSON, ``NaN`` and ``Infinity``, which are not JSON.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from envsuite.errors import UsageError

#: Deepest nesting of lists and mappings accepted (protocols use 4 levels, records 6).
MAX_DEPTH = 64
#: Most YAML nodes a document may expand to once its aliases are followed.
MAX_NODES = 1_000_000
#: Largest YAML or JSON file read whole (records files are read line by line elsewhere).
MAX_FILE_BYTES = 64 * 1024 * 1024


class DataFileError(UsageError):
    """A YAML or JSON document that cannot be read within the limits, with the reason."""


def decode_utf8(data: bytes, source: str | Path) -> str:
    """``data`` as UTF-8 text.

    Raises:
        DataFileError: a byte sequence that is not UTF-8, with its line and column.
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise DataFileError(
            f"{source}, line {line}, column {column}: not UTF-8 text (byte 0x{data[exc.start]:02x})"
        ) from exc


def read_text(path: str | Path, limit: int = MAX_FILE_BYTES) -> str:
    """Read a UTF-8 text file of at most ``limit`` bytes.

    Raises:
        DataFileError: the file is larger than ``limit`` or is not UTF-8.
        OSError: the file cannot be read.
    """
    with open(path, "rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise DataFileError(f"{path} is over the {limit:,}-byte limit for a YAML or JSON file")
    return decode_utf8(data, path)


def check_depth(value: Any, source: str | Path, limit: int = MAX_DEPTH) -> Any:
    """Return ``value`` if its lists and mappings nest at most ``limit`` deep.

    Walks the value without recursion, so it is safe on any depth.

    Raises:
        DataFileError: deeper nesting.
    """
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            raise DataFileError(f"{source} nests lists or mappings more than {limit} levels deep")
        stack.extend((child, depth + 1) for child in children)
    return value


# -- JSON -----------------------------------------------------------------------------------


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(f"duplicate key {key!r}")
        result[key] = value
    return result


def load_json(text: str, source: str | Path, *, strict: bool = True, line: int = 0) -> Any:
    """Parse one JSON document within the limits.

    Args:
        text: The JSON text.
        source: Where it came from (a path, or e.g. ``"--set num_arms"``), for messages.
        strict: Refuse ``NaN``/``Infinity`` and duplicate keys (the default); off, accept
            them as Python's ``json`` does (the last duplicate wins).
        line: The line of ``source`` the text is on (0: the text is the whole source).

    Raises:
        DataFileError: not JSON, nested too deep, or (strict) a non-finite number or a
            duplicate key.
    """
    where = f"{source}:{line}" if line else str(source)
    hooks: dict[str, Any] = (
        {"parse_constant": _refuse_constant, "object_pairs_hook": _unique_keys} if strict else {}
    )
    try:
        value = json.loads(text, **hooks)
    except RecursionError as exc:
        raise DataFileError(
            f"{where} nests lists or mappings more than {MAX_DEPTH} levels deep"
        ) from exc
    except ValueError as exc:
        raise DataFileError(f"{where}: malformed JSON: {exc}") from exc
    return check_depth(value, where)


def read_json(path: str | Path, *, strict: bool = True, limit: int = MAX_FILE_BYTES) -> Any:
    """Read a JSON file (see :func:`load_json` and :func:`read_text`)."""
    return load_json(read_text(path, limit), path, strict=strict)


# -- YAML -----------------------------------------------------------------------------------
# The loader lives in envsuite.safe_yaml, imported on first use: PyYAML costs tens of
# milliseconds to import, which a command that reads no YAML (``envsuite eval ENV``) spares.


def load_yaml(text: str, source: str | Path) -> Any:
    """Parse one YAML document with the safe loader, within the limits.

    Raises:
        DataFileError: not YAML, or beyond a limit of this module (see the module doc).
    """
    from envsuite.safe_yaml import load_limited_yaml

    return load_limited_yaml(text, source)


def read_yaml(path: str | Path, limit: int = MAX_FILE_BYTES) -> Any:
    """Read a YAML file (see :func:`load_yaml` and :func:`read_text`)."""
    return load_yaml(read_text(path, limit), path)
