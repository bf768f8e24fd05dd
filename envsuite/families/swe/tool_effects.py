"""Carrying out a parsed tool call in a sandbox, and the observation text it gives."""

from __future__ import annotations

import dataclasses
from typing import Any

from envsuite.families.swe.tools import (
    ReadFileCall,
    ReplaceCall,
    ShellCall,
    ToolCall,
    WriteFileCall,
)
from envsuite.sandbox.interface import FileAccessError, Sandbox, repo_relative
from envsuite.sandbox.output_limits import HeadTailBuffer, OutputLimits


@dataclasses.dataclass(frozen=True)
class ToolResult:
    """What a tool call did: its output text, exit code and the info keys to report."""

    tool: str
    output: str
    exit_code: int
    timed_out: bool = False
    output_bytes: int = 0
    bytes_cut: int = 0

    @property
    def info(self) -> dict[str, Any]:
        """The per-step info keys."""
        return {
            "exit_code": self.exit_code,
            "timed_out": self.timed_out,
            "output_bytes": self.output_bytes,
            "bytes_cut": self.bytes_cut,
        }


def _cut(text: str, limits: OutputLimits) -> tuple[str, int, int]:
    buffer = HeadTailBuffer(limits)
    data = text.encode("utf-8")
    buffer.feed(data)
    return buffer.text(), buffer.total, buffer.bytes_cut


def _read(sandbox: Sandbox, call: ReadFileCall, limits: OutputLimits) -> ToolResult:
    data = sandbox.read_file(call.path)
    text = data.decode("utf-8", errors="replace")
    if call.start_line or call.end_line:
        lines = text.splitlines(keepends=True)
        first = (call.start_line or 1) - 1
        last = call.end_line or len(lines)
        text = "".join(lines[first:last])
    output, total, cut = _cut(text, limits)
    return ToolResult("read_file", output, 0, False, total, cut)


def _replace(sandbox: Sandbox, call: ReplaceCall) -> ToolResult:
    path = repo_relative(call.path)
    try:
        text = sandbox.read_file(path).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileAccessError(f"{path} is not UTF-8 text") from exc
    count = text.count(call.old)
    if count != 1:
        where = "not found" if count == 0 else f"found {count} times; it must be unique"
        return ToolResult("replace", f"replace failed: the old string was {where} in {path}", 1)
    sandbox.write_file(path, text.replace(call.old, call.new, 1).encode("utf-8"))
    return ToolResult("replace", f"replaced 1 occurrence in {path}", 0)


def apply_tool(
    sandbox: Sandbox, call: ToolCall, default_timeout_s: float, limits: OutputLimits
) -> ToolResult:
    """Carry out ``call`` (not ``submit``); file errors become an exit code of 1."""
    try:
        if isinstance(call, ShellCall):
            result = sandbox.run(
                call.command, timeout_s=call.timeout_s or default_timeout_s, limits=limits
            )
            return ToolResult(
                "shell",
                result.output,
                result.exit_code,
                result.timed_out,
                result.output_bytes,
                result.bytes_cut,
            )
        if isinstance(call, ReadFileCall):
            return _read(sandbox, call, limits)
        if isinstance(call, WriteFileCall):
            data = call.content.encode("utf-8")
            sandbox.write_file(call.path, data)
            return ToolResult(
                "write_file", f"wrote {len(data)} bytes to {repo_relative(call.path)}", 0
            )
        if isinstance(call, ReplaceCall):
            return _replace(sandbox, call)
    except FileAccessError as exc:
        return ToolResult(type(call).__name__, f"error: {exc}", 1)
    raise TypeError(f"not a tool to apply here: {call!r}")


def format_result(result: ToolResult) -> str:
    """The observation text of a tool result."""
    header = f"exit_code: {result.exit_code}\ntimed_out: {str(result.timed_out).lower()}\n"
    if result.bytes_cut:
        header += f"output ({result.output_bytes} bytes, {result.bytes_cut} cut in the middle):\n"
    else:
        header += "output:\n"
    return header + result.output
