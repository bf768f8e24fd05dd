"""PyYAML's safe loader within :mod:`envsuite.safe_load`'s limits (nodes, depth, keys).

Apart from :mod:`envsuite.safe_load` so that PyYAML is imported only by what reads YAML;
call it through :func:`envsuite.safe_load.load_yaml` and :func:`~envsuite.safe_load.read_yaml`.
The limits are read from :mod:`envsuite.safe_load` at each use, where they are defined.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from envsuite import safe_load
from envsuite.safe_load import DataFileError


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
        if self._nodes > safe_load.MAX_NODES:
            problem = (
                f"alias *{alias} makes the document expand to more than {safe_load.MAX_NODES:,} "
                "values (an alias bomb?)"
                if alias
                else f"the document holds more than {safe_load.MAX_NODES:,} values"
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
        if self._depth > safe_load.MAX_DEPTH:
            raise _LimitError(
                problem=f"lists or mappings nest more than {safe_load.MAX_DEPTH} levels deep",
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


def load_limited_yaml(text: str, source: str | Path) -> Any:
    """Parse one YAML document with the safe loader, within the limits.

    Raises:
        DataFileError: not YAML, or beyond a limit (see :mod:`envsuite.safe_load`).
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
