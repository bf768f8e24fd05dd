import json

import pytest

from envsuite.env_base import InvalidAction
from envsuite.families.swe.tools import (
    ReadFileCall,
    ReplaceCall,
    ShellCall,
    SubmitCall,
    WriteFileCall,
    parse_tool_call,
    tool_call_json,
)


@pytest.mark.parametrize(
    ("action", "expected"),
    [
        ({"tool": "shell", "command": "ls", "timeout": 5}, ShellCall("ls", 5.0)),
        ({"tool": "bash", "command": "ls"}, ShellCall("ls", None)),
        ({"name": "shell", "arguments": json.dumps({"command": "ls"})}, ShellCall("ls")),
        ({"tool": "read_file", "path": "a.py", "start_line": 2}, ReadFileCall("a.py", 2)),
        ({"tool": "write_file", "path": "a.py", "content": ""}, WriteFileCall("a.py", "")),
        (
            {"tool": "str_replace", "path": "a", "old_str": "x", "new_str": "y"},
            ReplaceCall("a", "x", "y"),
        ),
        ({"tool": "submit"}, SubmitCall()),
    ],
)
def test_valid_calls(action, expected):
    call = parse_tool_call(json.dumps(action), max_timeout_s=600)
    assert call == expected
    assert parse_tool_call(tool_call_json(call), max_timeout_s=600) == call


@pytest.mark.parametrize(
    "action",
    [
        None,
        {"tool": "shell"},
        "not json",
        "[1, 2]",
        '{"tool": "rm_everything"}',
        '{"tool": "shell", "command": ""}',
        '{"tool": "shell", "command": "ls", "timeout": 10000}',
        '{"tool": "shell", "command": "ls", "timeout": true}',
        '{"tool": "read_file", "path": "a", "start_line": 0}',
        '{"tool": "read_file", "path": "a", "start_line": 5, "end_line": 2}',
        '{"tool": "replace", "path": "a", "old": "", "new": "x"}',
        '{"name": "shell", "arguments": "{broken"}',
        # JSON Python's decoder cannot hold: too deep (RecursionError), too many digits
        # (ValueError); agent input all the same, so InvalidAction, not a parser bug.
        "[" * 100_000,
        "1" * 5_000,
        '{"tool": "shell", "command": "ls", "timeout": ' + "9" * 5_000 + "}",
        json.dumps({"name": "shell", "arguments": "[" * 100_000}),
        # Text the sandbox cannot carry (a lone surrogate anywhere, a NUL in argv).
        '{"tool": "write_file", "path": "\\ud800", "content": "x"}',
        '{"tool": "write_file", "path": "a.py", "content": "\\udfff"}',
        '{"tool": "replace", "path": "a.py", "old": "x", "new": "\\ud800"}',
        '{"tool": "shell", "command": "echo \\ud800"}',
        '{"tool": "shell", "command": "ls\\u0000"}',
    ],
)
def test_malformed_calls_raise_invalid_action(action):
    with pytest.raises(InvalidAction):
        parse_tool_call(action, max_timeout_s=600)
