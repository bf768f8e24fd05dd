"""Reading report.md back in tests: sections, table rows and cells."""

from __future__ import annotations


def section(markdown: str, title: str) -> str:
    """The text of one ``## title`` section."""
    start = markdown.index(f"## {title}\n")
    end = markdown.find("\n## ", start + 1)
    return markdown[start : end if end != -1 else len(markdown)]


def table_rows(text: str, prefix: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(prefix)]


def cells(row: str) -> list[str]:
    return [cell.strip() for cell in row.strip("|").split("|")]


def table_after(markdown: str, marker: str) -> list[dict[str, str]]:
    """Rows (header -> cell) of the first table at or after the line starting with ``marker``."""
    lines = markdown.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(marker))
    first = next(i for i in range(start, len(lines)) if lines[i].startswith("|"))
    headers = cells(lines[first])
    rows = []
    for line in lines[first + 2 :]:
        if not line.startswith("|"):
            break
        rows.append(dict(zip(headers, cells(line), strict=True)))
    return rows
