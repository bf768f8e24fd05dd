"""``SATInteractive-v0``: solve a SAT instance over several turns, told what is still violated."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from envsuite.env_base import EnvsuiteEnv
from envsuite.families.sat.answer_space import AnswerText
from envsuite.families.sat.cnf import partial_status
from envsuite.families.sat.curriculum import CurriculumController
from envsuite.families.sat.formats import (
    PROMPT_FORMATS,
    PromptFormat,
    clause_label,
    render_interactive_prompt,
    worst_case_formula,
)
from envsuite.families.sat.instance_source import existing_dataset_file, make_source, resolve_level
from envsuite.families.sat.instances import GenerationSettings, GeneratorName, Instance
from envsuite.families.sat.interactive_commands import Command, parse_command
from envsuite.families.sat.levels import Level
from envsuite.rendering import TEXT_RENDER_MODES, checked_render_mode
from envsuite.spaces import UnicodeText

#: Longest command accepted as a member of the action space.
MAX_COMMAND_CHARS = 100_000
#: Feedback lists at most this many violated clauses (the count is always given).
MAX_LISTED_CLAUSES = 50
#: Room for the fixed feedback text and the longest parse error.
FEEDBACK_MARGIN = 1024


class SATInteractiveEnv(EnvsuiteEnv[str, str, Command]):
    r"""A SAT instance solved over several turns, with feedback on violated clauses.

    Description:
        The agent sees a satisfiable SAT instance (drawn as in ``SAT-v0``: planted or
        solver-filtered random at a level, unique-solution on request, from a SATURN-format
        dataset file, or from a curriculum) and works on a current assignment in which
        every variable starts unset. Each turn it proposes a full assignment or sets or
        unsets some variables, and is told which clauses the current assignment violates
        (every literal false), how many are still open (no literal true, some variable
        unset) and how many hold. It wins when every clause holds.

    Observation:
        A :class:`~envsuite.spaces.UnicodeText` message. Reset gives the problem (SATURN's
        JSON problem line, DIMACS CNF, or plain English, by ``prompt_format``) and the
        commands; each step gives the turn, the current assignment, the violated clauses
        (up to 50 listed, written in the problem's notation) and the open/satisfied counts.
        ``info`` carries the instance metadata of ``SAT-v0`` plus ``violated_clauses``,
        ``open_clauses``, ``satisfied_clauses`` and ``turn``.

    Action:
        A command (see ``interactive_commands.py``): ``assign BITS`` (or ``\boxed{BITS}``
        or bare BITS) for a full assignment, ``set NAME=VALUE ...`` or ``unset NAME ...``.
        Reasoning may precede it: the last ``\boxed{}`` or else the last line is read. An
        unreadable command sets ``info["parse_error"]``, changes nothing and costs
        ``invalid_action_penalty``. ``action_space.sample()`` is a random ``assign``.

    Reward:
        1 on the turn every clause first holds; −``invalid_action_penalty`` (default 0.1)
        for an unreadable command; 0 otherwise. ``info["score"]`` is the largest fraction
        of clauses that held after any turn (1 when solved).

    Termination:
        Terminates when every clause holds (``info["success"]`` True). Truncated after
        ``max_turns`` turns without success (``info["success"]`` False).

    Arguments:
        clause_width: Literals per clause (SATURN's n); default 3.
        num_vars: Variables (SATURN's k); default 5.
        num_clauses: Clauses (SATURN's l); default 20.
        level: A named level instead of the sizes (as in ``SAT-v0``).
        clause_ratio: Clauses per variable, instead of ``num_clauses``.
        generator: ``planted`` (default) or ``random``.
        unique_solution: Keep only instances with exactly one solution.
        solution_cap: Count solutions up to this many (0: do not count; counting runs the
            solver at every reset, which is slow for large formulas near the threshold).
        prompt_format: ``saturn``, ``dimacs`` or ``english``.
        max_turns: Turn budget.
        invalid_action_penalty: Cost of an unreadable command.
        dataset_file: A SATURN-format JSONL file (absolute, or relative to ``datasets/``).
        curriculum: A ladder name or a mapping of curriculum settings (as in ``SAT-v0``).
        curriculum_state: A file the curriculum resumes from and saves to.
        render_mode: ``"ansi"`` (the text), ``"rgb_array"`` (the text drawn on an
            image), ``"human"`` (the text printed on every reset and step) or None.

    Version history:
        v0: Initial version.
    """

    metadata: dict[str, Any] = {"render_modes": list(TEXT_RENDER_MODES), "render_fps": 1}
    record_metrics = ("difficulty", "num_solutions", "turn")

    def __init__(
        self,
        clause_width: int | None = None,
        num_vars: int | None = None,
        num_clauses: int | None = None,
        level: str | None = None,
        clause_ratio: float | None = None,
        generator: GeneratorName = "planted",
        unique_solution: bool = False,
        solution_cap: int = 100,
        prompt_format: PromptFormat = "saturn",
        max_turns: int = 20,
        invalid_action_penalty: float = 0.1,
        dataset_file: str | None = None,
        curriculum: str | Mapping[str, Any] | None = None,
        curriculum_state: str | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if prompt_format not in PROMPT_FORMATS:
            raise ValueError(
                f"prompt_format must be one of {PROMPT_FORMATS}, got {prompt_format!r}"
            )
        if isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < 1:
            raise ValueError(f"max_turns must be an int >= 1, got {max_turns!r}")
        if not 0.0 <= float(invalid_action_penalty) <= 1.0:
            raise ValueError(
                f"invalid_action_penalty must lie in [0, 1], got {invalid_action_penalty!r}"
            )
        render_mode = checked_render_mode(render_mode, TEXT_RENDER_MODES)
        self.settings = GenerationSettings(
            generator=generator, unique_solution=unique_solution, solution_cap=solution_cap
        )
        sizes = (clause_width, num_vars, num_clauses, level, clause_ratio)
        self.source = make_source(
            self.settings,
            resolve_level(*sizes),
            level_given=any(value is not None for value in sizes),
            dataset_file=dataset_file,
            curriculum=curriculum,
            curriculum_state=curriculum_state,
        )
        self.prompt_format: PromptFormat = prompt_format
        self.max_turns = max_turns
        self.invalid_action_penalty = float(invalid_action_penalty)
        self.render_mode = render_mode

        shapes = self.source.shapes()
        longest = max(self._longest_text(shape) for shape in shapes)
        self.observation_space = UnicodeText(longest)
        self.action_space = AnswerText(
            MAX_COMMAND_CHARS, num_vars=max(s.num_vars for s in shapes), kind="assign_command"
        )
        self.instance: Instance | None = None
        self.values: list[int | None] = []
        self.turn = 0
        self.best_fraction = 0.0
        self.text = ""

    def _longest_text(self, level: Level) -> int:
        formula = worst_case_formula(level)
        prompt = render_interactive_prompt(
            formula, level.clause_width, self.prompt_format, self.max_turns
        )
        listed = min(level.num_clauses, MAX_LISTED_CLAUSES)
        # The last clause has the longest label (its number has the most digits).
        label = clause_label(formula, level.num_clauses - 1, self.prompt_format)
        clauses = listed * (len(label) + 2)
        names = sum(len(name) + 3 for name in formula.names)
        return max(len(prompt), clauses + names + FEEDBACK_MARGIN)

    @property
    def curriculum(self) -> CurriculumController | None:
        """The curriculum resets draw from (None without ``curriculum=``)."""
        return self.source.curriculum

    @classmethod
    def dataset_files(cls, **config: Any) -> list[Path]:
        """The dataset file this configuration reads (its sha256 enters the spec hash).

        Raises:
            DatasetFileError: the file does not exist (so no hash is made without it).
        """
        dataset_file = config.get("dataset_file")
        return [existing_dataset_file(dataset_file)] if dataset_file else []

    # -- episode -----------------------------------------------------------------------
    def new_episode(
        self, seed: int | None, options: dict[str, Any] | None
    ) -> tuple[str, dict[str, Any]]:
        """Draw the instance; every variable starts unset."""
        self.instance = self.source.draw(self.np_random, seed, options)
        formula = self.instance.formula
        self.values = [None] * formula.num_vars
        self.turn = 0
        self.best_fraction = 0.0
        self.text = render_interactive_prompt(
            formula, self.instance.clause_width, self.prompt_format, self.max_turns
        )
        info = {**self.instance.metadata(), **self.source.curriculum_info(), "turn": 0}
        return self.text, info

    # -- actions -----------------------------------------------------------------------
    def parse_action(self, action: Any) -> Command:
        """The command in the response."""
        assert self.instance is not None
        return parse_command(action, self.instance.formula.names)

    def apply_action(self, parsed: Command) -> tuple[str, float, bool, bool, dict[str, Any]]:
        """Apply the command and report the clauses' status."""
        for index, value in parsed.values:
            self.values[index] = value
        return self._turn_over(note="", penalised=False)

    def apply_invalid_action(self, message: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        """Nothing changes; the command costs the penalty."""
        return self._turn_over(note=f"Could not read your command: {message}\n", penalised=True)

    def _turn_over(
        self, note: str, penalised: bool
    ) -> tuple[str, float, bool, bool, dict[str, Any]]:
        assert self.instance is not None
        formula = self.instance.formula
        self.turn += 1
        violated, undecided = partial_status(formula, self.values)
        holding = formula.num_clauses - len(violated) - len(undecided)
        self.best_fraction = max(self.best_fraction, holding / formula.num_clauses)
        solved = holding == formula.num_clauses
        truncated = not solved and self.turn >= self.max_turns
        reward = 1.0 if solved else (-self.invalid_action_penalty if penalised else 0.0)
        self.text = note + self._feedback(violated, len(undecided), holding, solved)
        info = {
            **self.instance.metadata(),
            "turn": self.turn,
            "violated_clauses": len(violated),
            "open_clauses": len(undecided),
            "satisfied_clauses": holding,
        }
        # The info describes this episode, so it is taken before the curriculum may move on.
        info.update(self.source.curriculum_info())
        if solved or truncated:
            self.source.report(solved)
            info.update(success=solved, score=self.best_fraction)
        return self.text, reward, solved, truncated, info

    def _feedback(self, violated: list[int], undecided: int, holding: int, solved: bool) -> str:
        assert self.instance is not None
        formula = self.instance.formula
        shown = " ".join(
            f"{name}={'?' if value is None else value}"
            for name, value in zip(formula.names, self.values, strict=True)
        )
        lines = [f"Turn {self.turn} of {self.max_turns}. Current assignment: {shown}"]
        if solved:
            lines.append(f"Every one of the {formula.num_clauses} clauses holds: solved.")
            return "\n".join(lines) + "\n"
        listed = "; ".join(
            clause_label(formula, i, self.prompt_format) for i in violated[:MAX_LISTED_CLAUSES]
        )
        more = f" (first {MAX_LISTED_CLAUSES} listed)" if len(violated) > MAX_LISTED_CLAUSES else ""
        lines.append(f"Violated clauses ({len(violated)}){more}: {listed or 'none'}")
        lines.append(
            f"Open clauses: {undecided}. Clauses that hold: {holding} of {formula.num_clauses}."
        )
        if self.turn >= self.max_turns:
            lines.append("No turns left.")
        return "\n".join(lines) + "\n"

    def render_text(self) -> str:
        """The ``ansi`` frame: the current text."""
        return self.text
