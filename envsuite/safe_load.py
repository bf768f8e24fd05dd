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

import yaml

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


class _LimitError(yaml.MarkedYAMLError):
    """A limit of this module, reported with PyYAML's line and column."""


class _LimitedLoader(yaml.SafeLoader):
    """PyYAML's safe loader, with the limits of this module."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0
        self._nodes = 0
        #: Expanded size of every finished node, by ``id``; aliases add their target's.
        self._sizes: dict[int, int] = {}

    def _count(self, nodes: int, mark: Any, alias: str = "") -> None:
        self._nodes += nodes
        if self._nodes > MAX_NODES:
            problem = (
                f"alias *{alias} makes the document expand to more than {MAX_NODES:,} "
                "values (an alias bomb?)"
                if alias
                else f"the document holds more than {MAX_NODES:,} values"
            )
            raise _LimitError(problem=problem, problem_mark=mark)

    def compose_node(self, parent: Any, index: Any) -> Any:
        """Compose a node, counting its expanded size and its depth."""
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            target = self.anchors.get(event.anchor)
            if target is not None:
                if id(target) not in self._sizes:
                    raise _LimitError(
                        problem=f"alias *{event.anchor} refers to a value that contains it",
                        problem_mark=event.start_mark,
                    )
                self._count(self._sizes[id(target)], event.start_mark, event.anchor)
            return super().compose_node(parent, index)
        mark = self.peek_event().start_mark
        nests = not self.check_event(yaml.ScalarEvent)
        self._depth += nests
        if self._depth > MAX_DEPTH:
            raise _LimitError(
                problem=f"lists or mappings nest more than {MAX_DEPTH} levels deep",
                problem_mark=mark,
            )
        before = self._nodes
        try:
            node = super().compose_node(parent, index)
        finally:
            self._depth -= nests
        self._count(1, mark)
        self._sizes[id(node)] = self._nodes - before
        return node

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        """Construct a mapping, refusing a key given twice (merge keys may repeat)."""
        if isinstance(node, yaml.MappingNode):
            seen: set[Any] = set()
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    continue
                key = self.construct_object(key_node, deep=True)
                try:
                    duplicate = key in seen
                except TypeError:  # an unhashable key: the base class names the problem
                    continue
                if duplicate:
                    raise _LimitError(
                        context="while reading a mapping",
                        context_mark=node.start_mark,
                        problem=f"duplicate key {key!r}",
                        problem_mark=key_node.start_mark,
                    )
                seen.add(key)
        return super().construct_mapping(node, deep=deep)


def _yaml_message(exc: yaml.YAMLError, source: str | Path) -> str:
    """One line: where, then what (PyYAML's own messages span several lines)."""
    if isinstance(exc, yaml.MarkedYAMLError) and exc.problem_mark is not None:
        mark = exc.problem_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}"
        context = f"{exc.context}: " if exc.context else ""
        if isinstance(exc, _LimitError):
            return f"{source}, {where}: {context}{exc.problem}"
        return f"{source} is not valid YAML ({where}): {context}{exc.problem}"
    if isinstance(exc, yaml.reader.ReaderError):
        return (
            f"{source} is not valid YAML: character {exc.position + 1} is #x{exc.character:04x}, "
            "a control character YAML does not allow"
        )
    return f"{source} is not valid YAML: {' '.join(str(exc).split())}"


def load_yaml(text: str, source: str | Path) -> Any:
    """Parse one YAML document with the safe loader, within the limits.

    Raises:
        DataFileError: not YAML, or beyond a limit of this module (see the module doc).
    """
    try:
        loader = _LimitedLoader(text)  # its reader already refuses control characters
    except yaml.YAMLError as exc:
        raise DataFileError(_yaml_message(exc, source)) from exc
    try:
        return loader.get_single_data()
    except yaml.YAMLError as exc:
        raise DataFileError(_yaml_message(exc, source)) from exc
    finally:
        loader.dispose()


def read_yaml(path: str | Path, limit: int = MAX_FILE_BYTES) -> Any:
    """Read a YAML file (see :func:`load_yaml` and :func:`read_text`)."""
    return load_yaml(read_text(path, limit), path)
