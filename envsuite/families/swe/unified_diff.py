"""Git-style unified diffs: split into per-file sections, make them, apply them exactly.

envsuite makes the diffs of its synthesised problems itself (bug, gold and test patches) and
applies them on the host without git; agents' diffs are applied inside the sandbox by
``git apply``. The applier here is strict: context must match at the stated line.
"""

from __future__ import annotations

import dataclasses
import difflib
import re

HUNK_HEADER = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
NO_NEWLINE = "\\ No newline at end of file"


class DiffError(ValueError):
    """A diff that cannot be parsed, or does not apply."""


@dataclasses.dataclass(frozen=True)
class FileDiff:
    """The section of a diff that changes one file.

    Attributes:
        old_path: Path before the change (None for a new file).
        new_path: Path after the change (None for a deleted file).
        text: The section's full text, headers included (ends with a newline).
        binary: Whether git marked the change as binary (no text hunks).
    """

    old_path: str | None
    new_path: str | None
    text: str
    binary: bool = False

    @property
    def path(self) -> str:
        """The file's path (the new one, or the old one for a deletion)."""
        return self.new_path or self.old_path or ""

    @property
    def paths(self) -> set[str]:
        """Both paths (they differ for a rename)."""
        return {p for p in (self.old_path, self.new_path) if p}

    def hunk_lines(self) -> list[str]:
        """The hunk lines (from the first ``@@``), without the file headers."""
        lines = self.text.splitlines()
        for index, line in enumerate(lines):
            if line.startswith("@@"):
                return lines[index:]
        return []


def _strip_prefix(path: str) -> str | None:
    path = path.split("\t", 1)[0].strip()
    if path == "/dev/null":
        return None
    if path.startswith('"') and path.endswith('"'):
        path = path[1:-1]
    return path[2:] if path[:2] in ("a/", "b/") else path


def split_file_diffs(diff: str) -> list[FileDiff]:
    """Split a (git or plain) unified diff into one :class:`FileDiff` per file.

    Raises:
        DiffError: the text holds no file section, or a section has no paths.
    """
    sections: list[list[str]] = []
    lines = diff.splitlines(keepends=True)
    index = 0
    while index < len(lines):
        line = lines[index]
        starts_git = line.startswith("diff --git ")
        starts_plain = (
            line.startswith("--- ")
            and index + 1 < len(lines)
            and lines[index + 1].startswith("+++ ")
            and not (sections and _in_git_header(sections[-1]))
        )
        if starts_git or starts_plain:
            sections.append([line])
        elif sections:
            sections[-1].append(line)
        index += 1
    if not sections:
        raise DiffError("no file changes found in the diff")
    return [_file_diff("".join(section)) for section in sections]


def _in_git_header(section: list[str]) -> bool:
    """Whether ``section`` is a git section still in its header (before ``---``)."""
    return section[0].startswith("diff --git ") and not any(
        line.startswith("--- ") or line.startswith("@@") for line in section[1:]
    )


def _file_diff(text: str) -> FileDiff:
    if not text.endswith("\n"):
        text += "\n"
    old: str | None = None
    new: str | None = None
    seen_old = seen_new = False
    binary = False
    lines = text.splitlines()
    for line in lines:
        if line.startswith("@@"):
            break
        if line.startswith("--- "):
            old, seen_old = _strip_prefix(line[4:]), True
        elif line.startswith("+++ "):
            new, seen_new = _strip_prefix(line[4:]), True
        elif line.startswith(("Binary files ", "GIT binary patch")):
            binary = True
    if not (seen_old and seen_new) and lines[0].startswith("diff --git "):
        match = re.match(r"^diff --git (\S+) (\S+)$", lines[0])
        if match is None:
            raise DiffError(f"cannot read the paths of {lines[0]!r}")
        old = _strip_prefix(match[1]) if not seen_old else old
        new = _strip_prefix(match[2]) if not seen_new else new
        if any(line.startswith("new file mode") for line in lines[:5]):
            old = None
        if any(line.startswith("deleted file mode") for line in lines[:5]):
            new = None
    if old is None and new is None:
        raise DiffError("a file section names no path")
    return FileDiff(old, new, text, binary)


def make_file_diff(path: str, old: str | None, new: str | None, context: int = 3) -> str:
    """A git-style diff of one file from ``old`` to ``new`` text (None: absent); "" if equal."""
    if old == new:
        return ""
    old_lines = (old or "").splitlines(keepends=True)
    new_lines = (new or "").splitlines(keepends=True)
    header = [f"diff --git a/{path} b/{path}\n"]
    if old is None:
        header += ["new file mode 100644\n", "--- /dev/null\n", f"+++ b/{path}\n"]
    elif new is None:
        header += ["deleted file mode 100644\n", f"--- a/{path}\n", "+++ /dev/null\n"]
    else:
        header += [f"--- a/{path}\n", f"+++ b/{path}\n"]
    body: list[str] = []
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for group in matcher.get_grouped_opcodes(context):
        first, last = group[0], group[-1]
        a_start, a_end, b_start, b_end = first[1], last[2], first[3], last[4]
        body.append(
            f"@@ -{_range(a_start, a_end - a_start)} +{_range(b_start, b_end - b_start)} @@\n"
        )
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                body += _marked(" ", old_lines[i1:i2])
                continue
            if tag in ("replace", "delete"):
                body += _marked("-", old_lines[i1:i2])
            if tag in ("replace", "insert"):
                body += _marked("+", new_lines[j1:j2])
    return "".join(header + body)


def _range(start: int, length: int) -> str:
    first = start + 1 if length else start
    return f"{first}" if length == 1 else f"{first},{length}"


def _marked(mark: str, lines: list[str]) -> list[str]:
    out = []
    for line in lines:
        if line.endswith("\n"):
            out.append(mark + line)
        else:
            out += [mark + line + "\n", NO_NEWLINE + "\n"]
    return out


def apply_file_diff(old: str | None, file_diff: FileDiff) -> str | None:
    """Apply one file's diff to its old text; return the new text (None: file deleted).

    Raises:
        DiffError: the diff is binary, or its context does not match ``old`` exactly.
    """
    if file_diff.binary:
        raise DiffError(f"{file_diff.path}: binary diffs are not applied on the host")
    source = (old or "").splitlines(keepends=True)
    result: list[str] = []
    cursor = 0
    lines = file_diff.hunk_lines()
    index = 0
    while index < len(lines):
        match = HUNK_HEADER.match(lines[index])
        if match is None:
            raise DiffError(f"{file_diff.path}: expected a hunk header, got {lines[index]!r}")
        old_start = int(match[1])
        start = old_start - 1 if (match[2] is None or int(match[2]) > 0) else old_start
        if start < cursor:
            raise DiffError(f"{file_diff.path}: overlapping hunks")
        result += source[cursor:start]
        cursor = start
        index += 1
        while index < len(lines) and not lines[index].startswith("@@"):
            line = lines[index]
            text = line[1:] + "\n"
            if index + 1 < len(lines) and lines[index + 1] == NO_NEWLINE:
                text = line[1:]
                index += 1
            if line.startswith((" ", "-")):
                if cursor >= len(source) or source[cursor] != text:
                    raise DiffError(f"{file_diff.path}: context does not match at {cursor + 1}")
                cursor += 1
                if line.startswith(" "):
                    result.append(text)
            elif line.startswith("+"):
                result.append(text)
            elif line == "":
                raise DiffError(f"{file_diff.path}: empty line inside a hunk")
            index += 1
    result += source[cursor:]
    if file_diff.new_path is None:
        return None
    return "".join(result)


def apply_diff(files: dict[str, str], diff: str) -> dict[str, str]:
    """Apply a multi-file diff to ``files`` (path -> text); return the new mapping."""
    out = dict(files)
    for section in split_file_diffs(diff) if diff.strip() else []:
        old = out.get(section.old_path) if section.old_path else None
        if section.old_path and section.old_path not in out:
            raise DiffError(f"{section.old_path}: no such file")
        new = apply_file_diff(old, section)
        if section.old_path:
            out.pop(section.old_path, None)
        if new is not None and section.new_path:
            out[section.new_path] = new
    return out
