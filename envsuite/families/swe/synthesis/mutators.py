"""Bug injection by AST mutation, rewriting only the mutated node's span of the source.

Each mutator proposes edits of one kind (comparison flips, off-by-one constants, dropped
statements, swapped arguments, boolean and arithmetic operator swaps, negated conditions).
An edit replaces the exact source span of one node that sits on a single line (or removes
whole lines, for dropped statements), so the bug diff is as small as a human's would be.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
from collections.abc import Callable, Iterator

COMPARISON_FLIPS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In,
    ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}  # fmt: skip
ARITHMETIC_SWAPS: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult,
}  # fmt: skip


@dataclasses.dataclass(frozen=True)
class Mutation:
    """One injected bug.

    Attributes:
        kind: The mutator's name.
        path: The mutated file.
        line: 1-based line of the edit.
        description: What changed (``"`<` -> `<=`"``).
        source: The whole mutated file.
    """

    kind: str
    path: str
    line: int
    description: str
    source: str


@dataclasses.dataclass(frozen=True)
class _Edit:
    line: int
    start: int  # column of the first replaced character (line-relative, in characters)
    end: int  # column after the last one (same line)
    text: str
    description: str
    remove_lines: tuple[int, int] | None = None  # (first, last) 1-based, for dropped lines


def _single_line(node: ast.AST) -> bool:
    return getattr(node, "lineno", None) is not None and node.lineno == node.end_lineno  # type: ignore[attr-defined]


def _replace_node(node: ast.expr, new: ast.expr, description: str) -> _Edit:
    return _Edit(
        node.lineno, node.col_offset, node.end_col_offset or 0, ast.unparse(new), description
    )


def _comparisons(tree: ast.AST) -> Iterator[_Edit]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and _single_line(node) and len(node.ops) == 1:
            flipped = COMPARISON_FLIPS.get(type(node.ops[0]))
            if flipped is not None:
                new = copy.deepcopy(node)
                new.ops = [flipped()]
                old_op, new_op = _op_text(node), _op_text(new)
                yield _replace_node(node, new, f"`{old_op}` -> `{new_op}`")


def _op_text(node: ast.Compare) -> str:
    text = ast.unparse(ast.Compare(left=ast.Name("a"), ops=node.ops, comparators=[ast.Name("b")]))
    return text[2:-2]


def _off_by_one(tree: ast.AST) -> Iterator[_Edit]:
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and type(node.value) is int
            and _single_line(node)
            and abs(node.value) < 1000
        ):
            for delta in (1, -1):
                value = node.value + delta
                if value >= 0:
                    yield _replace_node(
                        node, ast.Constant(value), f"constant {node.value} -> {value}"
                    )


def _argument_swaps(tree: ast.AST) -> Iterator[_Edit]:
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and _single_line(node) and len(node.args) >= 2):
            continue
        first, second = node.args[0], node.args[1]
        if isinstance(first, ast.Starred) or isinstance(second, ast.Starred):
            continue
        if ast.dump(first) == ast.dump(second):
            continue
        new = copy.deepcopy(node)
        new.args[0], new.args[1] = new.args[1], new.args[0]
        name = ast.unparse(node.func)
        yield _replace_node(node, new, f"swapped the first two arguments of `{name}(...)`")


def _boolean_swaps(tree: ast.AST) -> Iterator[_Edit]:
    for node in ast.walk(tree):
        if isinstance(node, ast.BoolOp) and _single_line(node):
            new = copy.deepcopy(node)
            new.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
            old, changed = ("and", "or") if isinstance(node.op, ast.And) else ("or", "and")
            yield _replace_node(node, new, f"`{old}` -> `{changed}`")


def _arithmetic_swaps(tree: ast.AST) -> Iterator[_Edit]:
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and _single_line(node):
            swapped = ARITHMETIC_SWAPS.get(type(node.op))
            if swapped is not None:
                new = copy.deepcopy(node)
                new.op = swapped()
                yield _replace_node(node, new, f"arithmetic `{ast.unparse(node)}` changed")


def _negated_conditions(tree: ast.AST) -> Iterator[_Edit]:
    for node in ast.walk(tree):
        if isinstance(node, ast.If | ast.While) and _single_line(node.test):
            new = ast.UnaryOp(op=ast.Not(), operand=copy.deepcopy(node.test))
            yield _replace_node(node.test, new, "negated a condition")


def _dropped_statements(tree: ast.AST, lines: list[str]) -> Iterator[_Edit]:
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for parent in ast.walk(function):
            for field in ("body", "orelse", "finalbody"):
                body = getattr(parent, field, None)
                if not isinstance(body, list):
                    continue
                for statement in body:
                    if not isinstance(statement, ast.Assign | ast.AugAssign | ast.Expr):
                        continue
                    if isinstance(statement, ast.Expr) and not isinstance(
                        statement.value, ast.Call
                    ):
                        continue  # docstrings and bare names are no bugs
                    if not _owns_its_lines(statement, lines):
                        continue
                    first, last = statement.lineno, statement.end_lineno or statement.lineno
                    indent = lines[first - 1][: statement.col_offset]
                    filler = f"{indent}pass\n" if len(body) == 1 else ""
                    yield _Edit(
                        first,
                        0,
                        0,
                        filler,
                        f"dropped `{ast.unparse(statement).splitlines()[0][:60]}`",
                        remove_lines=(first, last),
                    )


def _owns_its_lines(statement: ast.stmt, lines: list[str]) -> bool:
    first, last = statement.lineno, statement.end_lineno or statement.lineno
    before = lines[first - 1][: statement.col_offset]
    after = lines[last - 1][statement.end_col_offset or 0 :]
    return not before.strip() and (not after.strip() or after.strip().startswith("#"))


MUTATORS: dict[str, Callable[[ast.AST], Iterator[_Edit]]] = {
    "comparison_flip": _comparisons,
    "off_by_one": _off_by_one,
    "swap_arguments": _argument_swaps,
    "boolean_operator_swap": _boolean_swaps,
    "arithmetic_operator_swap": _arithmetic_swaps,
    "negated_condition": _negated_conditions,
}
#: Every mutator kind, in the order candidates are listed.
MUTATOR_KINDS = (*MUTATORS, "dropped_statement")


def _apply(lines: list[str], edit: _Edit) -> str:
    out = list(lines)
    if edit.remove_lines is not None:
        first, last = edit.remove_lines
        out[first - 1 : last] = [edit.text] if edit.text else []
        return "".join(out)
    line = out[edit.line - 1]
    # ast columns count UTF-8 bytes; convert through bytes so non-ASCII lines stay right.
    raw = line.encode("utf-8")
    out[edit.line - 1] = (
        raw[: edit.start].decode("utf-8") + edit.text + raw[edit.end :].decode("utf-8")
    )
    return "".join(out)


def candidate_mutations(path: str, source: str) -> list[Mutation]:
    """Every mutation of ``source`` that parses and changes its AST, in a fixed order."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    original = ast.dump(tree)
    edits: list[tuple[str, _Edit]] = []
    for kind, mutator in MUTATORS.items():
        edits += [(kind, edit) for edit in mutator(tree)]
    edits += [("dropped_statement", edit) for edit in _dropped_statements(tree, lines)]
    mutations: list[Mutation] = []
    seen: set[str] = set()
    for kind, edit in edits:
        mutated = _apply(lines, edit)
        try:
            dumped = ast.dump(ast.parse(mutated))
        except SyntaxError:
            continue
        if dumped == original or mutated in seen:
            continue
        seen.add(mutated)
        mutations.append(Mutation(kind, path, edit.line, edit.description, mutated))
    return mutations
