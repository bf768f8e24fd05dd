"""SATURN's JSONL format: read (with checks) and write, so Saturn-2.6k runs in envsuite.

One JSON object per line with ``id``, ``n_sat`` (literals per clause), ``k`` (variables),
``solution`` (the planted assignment, a k-character 0/1 string), ``clause`` (SATURN's clause
string) and, in prompt files, ``prompt``. envsuite's own datasets add ``difficulty`` and
``num_solutions`` after SATURN's fields; readers ignore keys they do not know.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from envsuite.errors import UsageError
from envsuite.families.sat.cnf import Formula
from envsuite.families.sat.formats import saturn_clause_string
from envsuite.families.sat.instances import Instance
from envsuite.families.sat.problem_parsing import ProblemFormatError, parse_saturn_clauses

REQUIRED_KEYS = ("id", "n_sat", "k", "solution", "clause")


class DatasetFileError(UsageError):
    """A dataset file that is missing, unreadable or holds an invalid instance."""


@dataclass(frozen=True)
class SaturnRecord:
    """One line of a SATURN JSONL file, with its formula parsed and checked.

    Attributes:
        id: The instance id.
        n_sat: Literals per clause.
        formula: The parsed formula (``k`` variables, clauses in file order).
        solution: The planted assignment.
        prompt: The prompt text, when the file has one.
        extra: Other keys of the line (envsuite adds ``difficulty``, ``num_solutions``).
    """

    id: int
    n_sat: int
    formula: Formula
    solution: str
    prompt: str | None = None
    extra: Mapping[str, Any] | None = None

    def to_instance(self, source: str, solution_cap: int, num_solutions: int | None) -> Instance:
        """The record as an envsuite :class:`Instance` (planted, so satisfiable)."""
        return Instance(
            formula=self.formula,
            clause_width=self.n_sat,
            satisfiable=True,
            num_solutions=num_solutions,
            solution_cap=solution_cap,
            planted=self.solution,
            generator="dataset",
            source=source,
        )


def parse_saturn_line(line: str, where: str) -> SaturnRecord:
    """Parse and check one line (``where`` names it in errors, e.g. ``file.jsonl:12``).

    Raises:
        DatasetFileError: not a JSON object, a missing or mistyped field, a clause that is
            not ``n_sat`` distinct variables, or a planted solution that violates a clause.
    """
    try:
        data = json.loads(line)
    except ValueError as exc:
        raise DatasetFileError(f"{where}: not valid JSON ({exc})") from exc
    if not isinstance(data, dict):
        raise DatasetFileError(f"{where}: expected a JSON object")
    missing = [key for key in REQUIRED_KEYS if key not in data]
    if missing:
        raise DatasetFileError(f"{where}: missing {', '.join(missing)}")
    ident, width, num_vars = data["id"], data["n_sat"], data["k"]
    solution, clauses = data["solution"], data["clause"]
    for name, value in (("id", ident), ("n_sat", width), ("k", num_vars)):
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or value < (0 if name == "id" else 1)
        ):
            raise DatasetFileError(f"{where}: {name} must be a non-negative int, got {value!r}")
    if not isinstance(solution, str) or len(solution) != num_vars or set(solution) - {"0", "1"}:
        raise DatasetFileError(f"{where}: solution must be {num_vars} characters of 0/1")
    if not isinstance(clauses, str):
        raise DatasetFileError(f"{where}: clause must be a string")
    try:
        formula = parse_saturn_clauses(clauses, num_vars)
    except ProblemFormatError as exc:
        raise DatasetFileError(f"{where}: {exc}") from exc
    for number, clause in enumerate(formula.clauses, start=1):
        if len(clause) != width or len({abs(x) for x in clause}) != width:
            raise DatasetFileError(f"{where}: clause {number} is not {width} distinct variables")
    broken = formula.violated(solution)
    if broken:
        raise DatasetFileError(
            f"{where}: the planted solution violates clause {broken[0] + 1} "
            f"({clauses.split(' & ')[broken[0]]})"
        )
    prompt = data.get("prompt")
    extra = {k: v for k, v in data.items() if k not in (*REQUIRED_KEYS, "prompt")}
    return SaturnRecord(
        ident, width, formula, solution, prompt if isinstance(prompt, str) else None, extra
    )


def read_saturn_jsonl(path: str | Path) -> list[SaturnRecord]:
    """Read and check every instance of a SATURN JSONL file.

    Raises:
        DatasetFileError: the file is missing, unreadable, empty, or has an invalid line
            (the message gives the line number).
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise DatasetFileError(f"dataset file {path} does not exist") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise DatasetFileError(f"cannot read dataset file {path}: {exc}") from exc
    records = [
        parse_saturn_line(line, f"{path}:{number}")
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip()
    ]
    if not records:
        raise DatasetFileError(f"dataset file {path} holds no instances")
    return records


def saturn_line(
    ident: int, instance: Instance, prompt: str | None, extra: Mapping[str, Any] | None = None
) -> str:
    """One JSONL line in SATURN's key order (``json.dumps`` defaults, as SATURN writes)."""
    if instance.planted is None:
        raise ValueError("SATURN lines need the planted solution")
    data: dict[str, Any] = {
        "id": ident,
        "n_sat": instance.clause_width,
        "k": instance.formula.num_vars,
        "solution": instance.planted,
        "clause": saturn_clause_string(instance.formula),
    }
    if prompt is not None:
        data["prompt"] = prompt
    data.update(extra or {})
    return json.dumps(data)


def write_lines(path: Path, lines: Iterable[str]) -> None:
    """Write JSONL lines (each followed by a newline, as SATURN's files are)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        for line in lines:
            handle.write(line + "\n")
