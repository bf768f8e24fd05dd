"""Reading formulas back: SATURN clause strings, DIMACS CNF, and envsuite's prompts.

The solver agent (the envs' oracle) reads its problem from the observation text with
:func:`parse_prompt`, like any text agent would; the SATURN loader uses
:func:`parse_saturn_clauses`. Every parser raises :class:`ProblemFormatError` with the
reason when the text is not what it should be.
"""

from __future__ import annotations

import json
import re

from envsuite.families.sat.cnf import LETTER_NAMES, Clause, Formula

_SATURN_LITERAL = re.compile(r"(!?)([A-Z]|x[1-9][0-9]*)")
_ENGLISH_HEADER = re.compile(r"There (?:are|is) ([1-9][0-9]*) Boolean variables?:")
_ENGLISH_CONDITION = re.compile(r"^([1-9][0-9]*)\. (.+)\.$")
_ENGLISH_LITERAL = re.compile(r"^(\S+) is (true|false)$")


class ProblemFormatError(ValueError):
    """Text that does not hold a formula in the expected format."""


def _variable_index(name: str, num_vars: int) -> int:
    """1-based index of a SATURN-style variable name (letters up to 26 variables, else x1..)."""
    if num_vars <= LETTER_NAMES:
        index = ord(name) - ord("A") + 1 if len(name) == 1 and name.isalpha() else 0
    else:
        index = int(name[1:]) if name.startswith("x") else 0
    if not 1 <= index <= num_vars:
        raise ProblemFormatError(f"variable {name!r} is not one of the {num_vars} variables")
    return index


def parse_saturn_clauses(clauses: str, num_vars: int) -> Formula:
    """Read SATURN's clause string (``!A!BC & AB!D``) over ``num_vars`` variables.

    Raises:
        ProblemFormatError: an empty clause, an unknown variable, or stray characters.
    """
    parsed: list[Clause] = []
    for number, part in enumerate(clauses.split(" & "), start=1):
        literals = []
        position = 0
        for match in _SATURN_LITERAL.finditer(part):
            if match.start() != position:
                break
            index = _variable_index(match[2], num_vars)
            literals.append(-index if match[1] else index)
            position = match.end()
        if not literals or position != len(part):
            raise ProblemFormatError(f"clause {number} ({part!r}) is not a SATURN clause")
        parsed.append(tuple(literals))
    return Formula(num_vars, tuple(parsed))


def parse_saturn_problem(text: str) -> tuple[Formula, int]:
    """The problem of a SATURN-format prompt: its last JSON line with ``n_sat``, ``k``, ``clause``.

    Returns:
        The formula and its ``n_sat``.
    """
    for line in reversed(text.splitlines()):
        if not line.startswith("{"):
            continue
        try:
            problem = json.loads(line)
        except ValueError:
            continue
        if isinstance(problem, dict) and {"n_sat", "k", "clause"} <= set(problem):
            num_vars, width = problem["k"], problem["n_sat"]
            if not isinstance(num_vars, int) or not isinstance(width, int) or num_vars < 1:
                raise ProblemFormatError(f"bad sizes in the problem line {line!r:.80}")
            return parse_saturn_clauses(str(problem["clause"]), num_vars), width
    raise ProblemFormatError("no SATURN problem line (JSON with n_sat, k and clause) found")


def parse_dimacs(text: str) -> Formula:
    """Read DIMACS CNF: ``c`` comments, one ``p cnf V C`` line, then C 0-terminated clauses.

    Clauses may span lines or share one; anything after the C-th clause is ignored (so a
    prompt may go on after its formula).

    Raises:
        ProblemFormatError: no problem line, a literal out of range, or too few clauses.
    """
    lines = text.splitlines()
    header = next((i for i, line in enumerate(lines) if line.startswith("p cnf")), None)
    if header is None:
        raise ProblemFormatError("no 'p cnf V C' line found")
    fields = lines[header].split()
    try:
        num_vars, num_clauses = int(fields[2]), int(fields[3])
    except (IndexError, ValueError) as exc:
        raise ProblemFormatError(f"bad problem line {lines[header]!r}") from exc
    clauses: list[Clause] = []
    current: list[int] = []
    for line in lines[header + 1 :]:
        if len(clauses) == num_clauses:
            break
        if not line.strip() or line.startswith(("c", "%")):
            continue
        for token in line.split():
            try:
                literal = int(token)
            except ValueError as exc:
                raise ProblemFormatError(f"{token!r} is not a DIMACS literal") from exc
            if literal == 0:
                clauses.append(tuple(current))
                current = []
                if len(clauses) == num_clauses:
                    break
            else:
                current.append(literal)
    if len(clauses) != num_clauses:
        raise ProblemFormatError(
            f"the problem line announces {num_clauses} clauses, found {len(clauses)}"
        )
    try:
        return Formula(num_vars, tuple(clauses))
    except ValueError as exc:
        raise ProblemFormatError(str(exc)) from exc


def parse_english(text: str) -> Formula:
    """Read envsuite's plain-English problem (numbered conditions ``3. A is true, or ...``)."""
    header = _ENGLISH_HEADER.search(text)
    if header is None:
        raise ProblemFormatError("no 'There are N Boolean variables' sentence found")
    num_vars = int(header[1])
    clauses: list[Clause] = []
    for line in text.splitlines():
        match = _ENGLISH_CONDITION.match(line)
        if match is None or int(match[1]) != len(clauses) + 1:
            continue
        literals = []
        for part in match[2].split(", or "):
            literal = _ENGLISH_LITERAL.match(part)
            if literal is None:
                raise ProblemFormatError(f"condition {match[1]} has an unreadable part {part!r}")
            index = _variable_index(literal[1], num_vars)
            literals.append(index if literal[2] == "true" else -index)
        clauses.append(tuple(literals))
    if not clauses:
        raise ProblemFormatError("no numbered conditions found")
    return Formula(num_vars, tuple(clauses))


def parse_prompt(text: str) -> Formula:
    """The formula of a prompt in any of envsuite's formats (detected from the text)."""
    if "\np cnf " in text or text.startswith("p cnf "):
        return parse_dimacs(text)
    if '"clause"' in text:
        return parse_saturn_problem(text)[0]
    return parse_english(text)
