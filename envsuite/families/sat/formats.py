"""How a formula is shown: SATURN's prompt (byte for byte), DIMACS CNF, or plain English.

``render_prompt`` gives the one-turn prompt of ``SAT-v0``; ``render_interactive_prompt``
the first observation of ``SATInteractive-v0``. For ``prompt_format="saturn"`` and
``task="solve"`` the prompt is exactly the ``prompt`` field of Saturn-2.6k for the same
instance: SATURN's template (``src/Build_SAT_Datasets/train_prompt.py``) followed by
``json.dumps({"n_sat": n, "k": k, "clause": clause})`` and a newline.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from envsuite.families.sat.cnf import Clause, Formula, clause_strings, clause_text, variable_names
from envsuite.families.sat.levels import Level

PromptFormat = Literal["saturn", "dimacs", "english"]
PROMPT_FORMATS: tuple[PromptFormat, ...] = ("saturn", "dimacs", "english")

_SATURN_FIELDS = (
    "The problem is provided in JSON format, containing the following fields:\n\n"
    '- "n_sat": The number of variables in each clause (n-SAT problem).\n'
    '- "k": The total number of distinct variables in the problem.\n'
    '- "clause": A string representation of the SAT formula, where clauses are separated by '
    '" & " (representing logical AND). Within each clause, variables are combined using '
    'concatenation (representing logical OR). A negation is indicated by "!" before a '
    "variable.\n\n"
)
_SATURN_EXAMPLE = '{"n_sat": 3, "k": 4, "clause": "!B!C!D & A!B!D & AB!D"}'
_STEP_BY_STEP = "Please reason step by step, and put your final answer within \\boxed{}.\n"

#: SATURN's prompt up to the problem line (``meta_prompt`` in SATURN's train_prompt.py).
SATURN_SOLVE_HEADER = (
    "You are now required to solve a SAT (Boolean Satisfiability) problem. "
    + _SATURN_FIELDS
    + "Your task is to provide a valid solution. The answer is a string of length k "
    "representing the truth values of the variables in order (1 for true, 0 for false). "
    "If there are multiple solutions, provide any one of them.\n"
    + _STEP_BY_STEP
    + "\n**Example**\n"
    + _SATURN_EXAMPLE
    + "\n**Final Answer**\n\\boxed{1101}\n\n"
    "Below is the SAT problem you need to solve:\n"
)
#: The same template for the SAT/UNSAT decision task (envsuite's; SATURN has none).
SATURN_DECIDE_HEADER = (
    "You are now required to decide a SAT (Boolean Satisfiability) problem. "
    + _SATURN_FIELDS
    + "Your task is to decide whether the formula is satisfiable: answer SAT if some "
    "assignment of truth values to the variables makes every clause true, and UNSAT if "
    "none does.\n"
    + _STEP_BY_STEP
    + "\n**Example**\n"
    + _SATURN_EXAMPLE
    + "\n**Final Answer**\n\\boxed{SAT}\n\n"
    "Below is the SAT problem you need to decide:\n"
)

_DIMACS_INTRO = (
    "You are given a Boolean formula in conjunctive normal form, written in the DIMACS CNF "
    'format: the line "p cnf V C" says that the formula has V variables, numbered 1 to V, '
    "and C clauses; each following line is one clause, a list of literals ended by 0, where "
    "i means that variable i is true and -i that it is false. A clause holds when at least "
    "one of its literals holds, and the formula holds when every clause does.\n\n"
)


def saturn_clause_string(formula: Formula) -> str:
    """The formula as SATURN writes it: clauses joined by `` & ``, e.g. ``!A!BC & AB!D``."""
    return " & ".join(clause_strings(formula.clauses, formula.num_vars))


def saturn_problem_line(formula: Formula, clause_width: int) -> str:
    """SATURN's JSON problem line (``json.dumps`` defaults, as SATURN writes it)."""
    clause = saturn_clause_string(formula)
    # Names are A..Z or x1..xn, negation is "!" and clauses are joined by " & ": nothing
    # json.dumps escapes, so this is its output to the byte (a test compares the two).
    return f'{{"n_sat": {int(clause_width)}, "k": {int(formula.num_vars)}, "clause": "{clause}"}}'


def dimacs(formula: Formula, comments: Sequence[str] = ()) -> str:
    """The formula in DIMACS CNF: comment lines, ``p cnf V C``, one clause per line."""
    lines = [f"c {comment}" for comment in comments]
    lines.append(f"p cnf {formula.num_vars} {formula.num_clauses}")
    lines.extend(" ".join(str(x) for x in clause) + " 0" for clause in formula.clauses)
    return "\n".join(lines) + "\n"


def english_literal(literal: int, names: Sequence[str]) -> str:
    """``A is true`` / ``A is false``."""
    return f"{names[abs(literal) - 1]} is {'true' if literal > 0 else 'false'}"


def english_clause(clause: Clause, names: Sequence[str]) -> str:
    """``A is false, or B is true`` (a clause as a sentence, without the full stop)."""
    return ", or ".join(english_literal(literal, names) for literal in clause)


def _name_list(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _english_problem(formula: Formula, verb: str) -> str:
    names = formula.names
    plural = "s" if formula.num_vars > 1 else ""
    conditions = "\n".join(
        f"{index}. {english_clause(clause, names)}."
        for index, clause in enumerate(formula.clauses, start=1)
    )
    return (
        f"There are {formula.num_vars} Boolean variable{plural}: {_name_list(names)}. "
        "Each is either true or false.\n"
        f"{verb} the following {formula.num_clauses} conditions hold:\n{conditions}\n"
    )


def _answer_format(formula: Formula) -> str:
    names = _name_list(formula.names)
    return (
        f"Your answer is a string of {formula.num_vars} characters giving the values of "
        f"{names} in this order (1 for true, 0 for false). If several answers work, give any "
        "one of them.\n"
    )


def render_prompt(
    formula: Formula, clause_width: int, prompt_format: PromptFormat, task: str
) -> str:
    """The one-turn prompt for ``formula``.

    Args:
        formula: The instance.
        clause_width: SATURN's ``n_sat`` (literals per clause).
        prompt_format: ``saturn``, ``dimacs`` or ``english``.
        task: ``solve`` (answer an assignment) or ``decide`` (answer SAT or UNSAT).
    """
    decide = task == "decide"
    if prompt_format == "saturn":
        header = SATURN_DECIDE_HEADER if decide else SATURN_SOLVE_HEADER
        return header + saturn_problem_line(formula, clause_width) + "\n"
    if prompt_format == "dimacs":
        if decide:
            ask = (
                "Decide whether some assignment makes the formula true: answer SAT if one "
                "exists and UNSAT if none does.\n"
            )
        else:
            ask = (
                "Find an assignment that makes the formula true. The answer is a string of V "
                "characters, the truth values of variables 1 to V in order (1 for true, 0 for "
                "false). If there are multiple solutions, give any one of them.\n"
            )
        return _DIMACS_INTRO + ask + _STEP_BY_STEP + "\n" + dimacs(formula)
    if prompt_format == "english":
        if decide:
            problem = _english_problem(formula, "Decide whether values exist such that all of")
            ask = "Answer SAT if such values exist and UNSAT if they do not.\n"
        else:
            problem = _english_problem(formula, "Find values for them such that all of")
            ask = _answer_format(formula)
        return problem + ask + _STEP_BY_STEP
    raise ValueError(f"prompt_format must be one of {PROMPT_FORMATS}, got {prompt_format!r}")


def interactive_commands(formula: Formula, max_turns: int) -> str:
    """The command reference shown to ``SATInteractive-v0`` agents."""
    first = formula.names[0]
    return (
        "Each turn, send one command:\n"
        f"- assign BITS: propose a full assignment, a string of {formula.num_vars} characters "
        "giving the variables' values in order (1 for true, 0 for false); \\boxed{BITS} "
        "works too.\n"
        f"- set NAME=VALUE ...: set some variables and keep the others, e.g. set {first}=1.\n"
        "- unset NAME ...: make variables unset again.\n"
        "After each command you are told which clauses your current assignment violates "
        "(every literal false) and how many are still open (some variable unset). The "
        f"problem is solved when every clause holds. You have {max_turns} turns.\n"
    )


def render_interactive_prompt(
    formula: Formula, clause_width: int, prompt_format: PromptFormat, max_turns: int
) -> str:
    """The first observation of ``SATInteractive-v0``: the problem and the commands."""
    if prompt_format == "saturn":
        problem = (
            "You are now required to solve a SAT (Boolean Satisfiability) problem "
            "interactively. "
            + _SATURN_FIELDS
            + "The problem:\n"
            + saturn_problem_line(formula, clause_width)
            + "\n"
        )
    elif prompt_format == "dimacs":
        problem = _DIMACS_INTRO + "The problem:\n" + dimacs(formula)
    elif prompt_format == "english":
        problem = _english_problem(formula, "Find values for them such that all of")
    else:
        raise ValueError(f"prompt_format must be one of {PROMPT_FORMATS}, got {prompt_format!r}")
    return problem + "\n" + interactive_commands(formula, max_turns)


def clause_label(formula: Formula, index: int, prompt_format: PromptFormat) -> str:
    """How feedback names clause ``index`` (0-based) in the chosen format."""
    clause = formula.clauses[index]
    if prompt_format == "dimacs":
        return " ".join(str(x) for x in clause) + " 0"
    if prompt_format == "english":
        return f"{index + 1}. {english_clause(clause, formula.names)}"
    return clause_text(clause, variable_names(formula.num_vars))


def worst_case_formula(level: Level) -> Formula:
    """A formula whose rendering is as long as any at this level's sizes can be.

    Every literal is negated and uses one of the longest-named variables, so in every
    format each clause is at least as long as any real clause; sizing a text space with it
    bounds every real observation.
    """
    first = level.num_vars - level.clause_width + 1
    widest = tuple(-v for v in range(first, level.num_vars + 1))
    return Formula(level.num_vars, (widest,) * level.num_clauses)
