"""``SAT-v0``: one turn, problem in, answer out, rewarded by rule as SATURN does."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from envsuite.env_base import EnvsuiteEnv
from envsuite.families.sat.answer_parsing import (
    ANSWER_PARSERS,
    AnswerParser,
    parse_assignment,
    parse_decision,
)
from envsuite.families.sat.answer_space import AnswerText
from envsuite.families.sat.cnf import saturn_violated
from envsuite.families.sat.curriculum import CurriculumController
from envsuite.families.sat.formats import (
    PROMPT_FORMATS,
    PromptFormat,
    render_prompt,
    worst_case_formula,
)
from envsuite.families.sat.instance_source import (
    existing_dataset_file,
    make_source,
    resolve_level,
)
from envsuite.families.sat.instances import GenerationSettings, GeneratorName, Instance, Task
from envsuite.rendering import TEXT_RENDER_MODES, checked_render_mode
from envsuite.spaces import UnicodeText

#: Longest response accepted in full (longer ones are still answers; they just are not
#: members of the action space). Reasoning models write long responses.
MAX_RESPONSE_CHARS = 200_000
#: Reward for a response with no usable answer, as SATURN's reward function gives.
NO_ANSWER_REWARD = -1.0
#: Room left after the prompt for the verdict text (at most ~320 characters).
VERDICT_MARGIN = 512
#: The decision task's two answers.
DECISIONS = ("\\boxed{SAT}", "\\boxed{UNSAT}")


class SATEnv(EnvsuiteEnv[str, str, Any]):
    r"""A SAT problem as one question and one answer (SATURN's task).

    Description:
        Each episode poses one SAT instance and scores one response by rule. By default
        the instance is SATURN's planted k-SAT at a level (``clause_width`` literals per
        clause, ``num_vars`` variables, ``num_clauses`` clauses), drawn from the env's
        generator; ``generator="random"`` draws uniform random formulas kept only when
        python-sat's solver finds them satisfiable, ``unique_solution=True`` keeps only
        instances with exactly one solution, and ``task="decide"`` poses satisfiable and
        unsatisfiable uniform random formulas (1/2 each) to be classified. ``dataset_file``
        serves the instances of a SATURN-format JSONL file instead (Saturn-2.6k itself, or
        a dataset built by ``envsuite datasets build sat``): the reset seed picks the
        instance (seed mod N). ``curriculum`` draws from a pass@k curriculum's current
        level and reports every result to it (see ``curriculum.py``): a seed names a
        problem, so resetting with one seed ``attempts`` times (as ``envsuite eval`` does
        for attempts) gives the curriculum its pass@k sample; the level is state carried
        across episodes, so a seed poses the same problem only while the level holds.
        Reference: SATURN, "SAT-based Reinforcement Learning to Unleash Language Model
        Reasoning" (2025).

    Observation:
        A :class:`~envsuite.spaces.UnicodeText` prompt: SATURN's prompt (byte-identical to
        Saturn-2.6k's ``prompt`` field for the same instance), the formula in DIMACS CNF, or
        in plain English (``prompt_format``). After the answer, a one-line verdict.
        ``info`` describes the instance: ``clause_width``, ``num_vars``, ``num_clauses``,
        ``level``, ``difficulty`` (SATURN's D = log2 k + 2·log2 l − n + k/n),
        ``satisfiable``, ``num_solutions`` (counted up to ``solution_cap``;
        ``num_solutions_capped`` says when the cap was hit), ``generator`` and ``source``.

    Action:
        The response text. The answer is the content of its last ``\boxed{...}``: a
        string of ``num_vars`` bits, variable order (``task="solve"``), or ``SAT`` /
        ``UNSAT`` (``task="decide"``; ``info["legal_actions"]`` lists both). With
        ``answer_parser="saturn"`` the content is scored by SATURN's own lenient rule; with
        ``"strict"`` it must be exactly ``num_vars`` characters of 0/1 (see
        ``answer_parsing.py`` for the difference). ``action_space.sample()`` is a uniformly
        random answer.

    Reward:
        As SATURN: 1 when the answer satisfies every clause (or gives the right verdict), 0
        when it does not, −1 when the response holds no usable answer (no ``\boxed{}``, a
        non-string action, or a strict-parser rejection, which also set
        ``info["parse_error"]``). ``info["score"]`` is the fraction of clauses the answer
        satisfies (1/0 for verdicts; 0 without an answer); ``info["violated_clauses"]``
        counts the clauses it falsifies.

    Termination:
        After the one answer, with ``info["success"]`` True exactly when the reward is 1.

    Arguments:
        clause_width: Literals per clause (SATURN's n); default 3.
        num_vars: Variables (SATURN's k), named A, B, ... up to 26 and x1..xn beyond;
            default 5.
        num_clauses: Clauses (SATURN's l); default 20.
        level: A named level instead of the three sizes: ``n3-k5-l20``, or
            ``saturn-stage-1`` .. ``saturn-stage-4``, ``saturn-test-1`` .. ``saturn-test-10``.
        clause_ratio: Clauses per variable, instead of ``num_clauses``.
        generator: ``planted`` (default for solve) or ``random`` (default for decide).
        task: ``solve`` or ``decide``.
        unique_solution: Keep only instances with exactly one solution.
        solution_cap: Count solutions up to this many (0: do not count; counting runs the
            solver at every reset, which is slow for large formulas near the threshold).
        prompt_format: ``saturn``, ``dimacs`` or ``english``.
        answer_parser: ``saturn`` (SATURN's lenient rule) or ``strict``.
        dataset_file: A SATURN-format JSONL file (absolute, or relative to ``datasets/``).
        curriculum: A ladder name (``default``, ``saturn``) or a mapping of curriculum
            settings (ladder, k, epsilon, window, attempts, seed).
        curriculum_state: A file the curriculum resumes from and saves to after each result.
        render_mode: ``"ansi"`` (the text), ``"rgb_array"`` (the text drawn on an
            image), ``"human"`` (the text printed on every reset and step) or None.

    Version history:
        v0: Initial version.
    """

    metadata: dict[str, Any] = {"render_modes": list(TEXT_RENDER_MODES), "render_fps": 1}
    record_metrics = ("difficulty", "num_solutions", "satisfied_fraction")

    def __init__(
        self,
        clause_width: int | None = None,
        num_vars: int | None = None,
        num_clauses: int | None = None,
        level: str | None = None,
        clause_ratio: float | None = None,
        generator: GeneratorName | None = None,
        task: Task = "solve",
        unique_solution: bool = False,
        solution_cap: int = 100,
        prompt_format: PromptFormat = "saturn",
        answer_parser: AnswerParser = "saturn",
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
        if answer_parser not in ANSWER_PARSERS:
            raise ValueError(
                f"answer_parser must be one of {ANSWER_PARSERS}, got {answer_parser!r}"
            )
        render_mode = checked_render_mode(render_mode, TEXT_RENDER_MODES)
        self.settings = GenerationSettings(
            generator=generator or ("random" if task == "decide" else "planted"),
            task=task,
            unique_solution=unique_solution,
            solution_cap=solution_cap,
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
        self.task = task
        self.prompt_format: PromptFormat = prompt_format
        self.answer_parser: AnswerParser = answer_parser
        self.render_mode = render_mode

        shapes = self.source.shapes()
        longest = max(
            len(render_prompt(worst_case_formula(s), s.clause_width, prompt_format, task))
            for s in shapes
        )
        # Verdicts are far shorter than any prompt; the margin covers the longest one.
        self.observation_space = UnicodeText(longest + VERDICT_MARGIN)
        self.action_space = AnswerText(
            MAX_RESPONSE_CHARS,
            num_vars=max(s.num_vars for s in shapes),
            kind="decision" if task == "decide" else "boxed_assignment",
        )
        self.instance: Instance | None = None
        self.text = ""

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
        """Draw the instance and pose it."""
        self.instance = self.source.draw(self.np_random, seed, options)
        self.text = render_prompt(
            self.instance.formula, self.instance.clause_width, self.prompt_format, self.task
        )
        return self.text, self._info()

    def _info(self) -> dict[str, Any]:
        assert self.instance is not None
        info = self.instance.metadata()  # a fresh dict
        curriculum = self.source.curriculum_info()
        if curriculum:
            info.update(curriculum)
        if self.task == "decide":
            info["legal_actions"] = list(DECISIONS)
        return info

    # -- actions -----------------------------------------------------------------------
    def parse_action(self, action: Any) -> Any:
        """The boxed answer: a bit string (solve) or a verdict (decide)."""
        assert self.instance is not None
        if self.task == "decide":
            return parse_decision(action, self.answer_parser)
        return parse_assignment(action, self.instance.formula.num_vars, self.answer_parser)

    def apply_action(self, parsed: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        """Score the answer: 1 if right, 0 if wrong."""
        assert self.instance is not None
        formula = self.instance.formula
        if self.task == "decide":
            success = parsed is not None and parsed == self.instance.satisfiable
            violated, fraction = 0, float(success)
            verdict = "right" if success else "wrong"
            self.text = f"Your verdict is {verdict}."
        else:
            violated = len(saturn_violated(formula, parsed))
            success = violated == 0
            fraction = (formula.num_clauses - violated) / formula.num_clauses
            self.text = (
                f"Your answer satisfies all {formula.num_clauses} clauses."
                if success
                else f"Your answer violates {violated} of the {formula.num_clauses} clauses."
            )
        return self._finish(1.0 if success else 0.0, success, fraction, violated)

    def apply_invalid_action(self, message: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        """No usable answer: reward −1 (SATURN's)."""
        assert self.instance is not None
        self.text = f"No answer: {message}"
        return self._finish(NO_ANSWER_REWARD, False, 0.0, self.instance.formula.num_clauses)

    def _finish(
        self, reward: float, success: bool, fraction: float, violated: int
    ) -> tuple[str, float, bool, bool, dict[str, Any]]:
        info = self._info()  # describes this episode, before the curriculum may move on
        self.source.report(success)
        info.update(
            success=success,
            score=fraction,
            satisfied_fraction=fraction,
            violated_clauses=violated,
        )
        return self.text, reward, True, False, info

    def render_text(self) -> str:
        """The ``ansi`` frame: the current text (the prompt, then the verdict)."""
        return self.text
