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
