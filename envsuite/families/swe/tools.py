r"""The SWE action schema: JSON tool calls, and their parsing.

An action is a JSON object (as text), either flat or in the OpenAI function-call shape::

    {"tool": "shell", "command": "pytest -q", "timeout": 120}
    {"tool": "read_file", "path": "src/pkg/core.py", "start_line": 1, "end_line": 80}
    {"tool": "write_file", "path": "src/pkg/new.py", "content": "..."}
    {"tool": "replace", "path": "src/pkg/core.py", "old": "a < b", "new": "a <= b"}
    {"tool": "submit"}
    {"name": "shell", "arguments": "{\"command\": \"ls\"}"}

Anything else is malformed (:class:`~envsuite.env_base.InvalidAction`).
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from envsuite.env_base import InvalidAction

TOOL_ALIASES = {
    "shell": "shell", "bash": "shell", "run": "shell",
    "read_file": "read_file", "read": "read_file", "view": "read_file",
    "write_file": "write_file", "write": "write_file", "create": "write_file",
    "replace": "replace", "str_replace": "replace", "edit": "replace",
    "submit": "submit", "finish": "submit",
}  # fmt: skip

TOOLS_HELP = """\
Act with one JSON object per step:
  {"tool": "shell", "command": "<bash command>", "timeout": <seconds, optional>}
      runs in /repo as an unprivileged user, no network; output is cut past a byte limit
  {"tool": "read_file", "path": "<path>", "start_line": <n, optional>, "end_line": <n, optional>}
  {"tool": "write_file", "path": "<path>", "content": "<whole new content>"}
  {"tool": "replace", "path": "<path>", "old": "<text found exactly once>", "new": "<text>"}
  {"tool": "submit"}   ends the episode; your changes to /repo are graded by hidden tests
Paths are relative to /repo (or absolute under /repo)."""


@dataclasses.dataclass(frozen=True)
class ShellCall:
    """Run ``command`` (bash) with a timeout in seconds (None: the env's default)."""

    command: str
    timeout_s: float | None = None


@dataclasses.dataclass(frozen=True)
class ReadFileCall:
    """Read a file, optionally only lines ``start_line``..``end_line`` (1-based, inclusive)."""

    path: str
    start_line: int | None = None
    end_line: int | None = None


@dataclasses.dataclass(frozen=True)
class WriteFileCall:
    """Create or overwrite a file with ``content``."""

    path: str
    content: str


@dataclasses.dataclass(frozen=True)
class ReplaceCall:
    """Replace the one occurrence of ``old`` in a file by ``new``."""

    path: str
    old: str
    new: str


@dataclasses.dataclass(frozen=True)
class SubmitCall:
    """End the episode and have the repository graded."""


ToolCall = ShellCall | ReadFileCall | WriteFileCall | ReplaceCall | SubmitCall


def _text(arguments: dict[str, Any], *names: str, allow_empty: bool = False) -> str:
    for name in names:
        if name in arguments:
            value = arguments[name]
            if not isinstance(value, str):
                raise InvalidAction(f"'{name}' must be a string")
            if not value and not allow_empty:
                raise InvalidAction(f"'{name}' must not be empty")
            try:
                value.encode("utf-8")  # files, argv and the sandbox's pipes all take UTF-8
            except UnicodeEncodeError as exc:
                raise InvalidAction(
                    f"'{name}' is not valid Unicode text (a lone surrogate at {exc.start})"
                ) from exc
            return value
    raise InvalidAction(f"missing '{names[0]}'")


def _line(arguments: dict[str, Any], name: str) -> int | None:
    value = arguments.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidAction(f"'{name}' must be a positive integer")
    return value


def _timeout(arguments: dict[str, Any], limit: float) -> float | None:
    value = arguments.get("timeout", arguments.get("timeout_s"))
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= limit:
        raise InvalidAction(f"'timeout' must be a number of seconds in (0, {limit:g}]")
    return float(value)


def parse_tool_call(action: Any, max_timeout_s: float) -> ToolCall:
    """Parse an action into a tool call.

    Raises:
        InvalidAction: not a string holding a JSON object naming a known tool with valid
            arguments.
    """
    if not isinstance(action, str):
        raise InvalidAction(
            f"the action must be a JSON string, got {type(action).__name__}; {TOOLS_HELP}"
        )
    data = _json_value(action, "the action")
    if not isinstance(data, dict):
        raise InvalidAction("the action must be a JSON object with a 'tool' key")
    name = data.get("tool", data.get("name"))
    arguments = data.get("arguments", data.get("args", data))
    if isinstance(arguments, str):
        arguments = _json_value(arguments, "'arguments'")
    if not isinstance(arguments, dict):
        raise InvalidAction("'arguments' must be a JSON object")
    tool = TOOL_ALIASES.get(name) if isinstance(name, str) else None
    if tool is None:
        raise InvalidAction(
            f"unknown tool {name!r}; use shell, read_file, write_file, replace or submit"
        )
    if tool == "shell":
        command = _text(arguments, "command", "cmd")
        if "\x00" in command:  # no process argument can hold one
            raise InvalidAction("'command' must not contain a NUL character")
        return ShellCall(command, _timeout(arguments, max_timeout_s))
    if tool == "read_file":
        call = ReadFileCall(
            _text(arguments, "path"), _line(arguments, "start_line"), _line(arguments, "end_line")
        )
        if call.start_line and call.end_line and call.end_line < call.start_line:
            raise InvalidAction("'end_line' must not be before 'start_line'")
        return call
    if tool == "write_file":
        return WriteFileCall(
            _text(arguments, "path"), _text(arguments, "content", "text", allow_empty=True)
        )
    if tool == "replace":
        return ReplaceCall(
            _text(arguments, "path"),
            _text(arguments, "old", "old_str"),
            _text(arguments, "new", "new_str", allow_empty=True),
        )
    return SubmitCall()


def _json_value(text: str, what: str) -> Any:
    """``json.loads(text)``; JSON that Python cannot hold is an invalid action too.

    Raises:
        InvalidAction: not JSON, nested too deeply for the decoder (RecursionError), or an
            integer longer than Python converts (ValueError).
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidAction(f"{what} is not valid JSON ({exc.msg})") from exc
    except RecursionError as exc:
        raise InvalidAction(f"{what} is JSON nested too deeply to read") from exc
    except ValueError as exc:  # e.g. an integer of more digits than int() accepts
        raise InvalidAction(f"{what} is JSON that cannot be read ({exc})") from exc


def tool_call_json(call: ToolCall) -> str:
    """The canonical JSON action for ``call`` (what the oracle sends)."""
    kind = {
        ShellCall: "shell",
        ReadFileCall: "read_file",
        WriteFileCall: "write_file",
        ReplaceCall: "replace",
        SubmitCall: "submit",
    }[type(call)]
    fields = {k: v for k, v in dataclasses.asdict(call).items() if v is not None}
    if "timeout_s" in fields:
        fields["timeout"] = fields.pop("timeout_s")
    return json.dumps({"tool": kind, **fields}, ensure_ascii=False)
