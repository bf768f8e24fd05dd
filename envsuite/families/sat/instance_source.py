"""Where a SAT env's instances come from: a level's generator, a dataset file, or a curriculum.

Both SAT envs take the same instance keyword arguments and hand them to
:func:`make_source`, which checks them together (so a bad combination fails when the env is
made, with the reason) and returns the :class:`InstanceSource` that each reset draws from.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from envsuite.data_paths import datasets_root
from envsuite.dataset_items import pick_item
from envsuite.families.sat import solver
from envsuite.families.sat.curriculum import (
    CurriculumController,
    CurriculumSettings,
    CurriculumStateError,
)
from envsuite.families.sat.instances import GenerationSettings, Instance, generate_instance
from envsuite.families.sat.levels import Level, parse_level
from envsuite.families.sat.saturn_jsonl import DatasetFileError, SaturnRecord, read_saturn_jsonl
from envsuite.seeding import make_generator

#: The level used when none is given: SATURN's first test level.
DEFAULT_LEVEL = Level(3, 5, 20)


def resolve_dataset_path(dataset_file: str | Path) -> Path:
    """An absolute path as is; a relative one under :func:`envsuite.data_paths.datasets_root`."""
    path = Path(dataset_file).expanduser()
    return path if path.is_absolute() else datasets_root() / path


def existing_dataset_file(dataset_file: str | Path) -> Path:
    """The resolved dataset path, which must exist.

    Raises:
        DatasetFileError: the file is missing (the message says how to get it).
    """
    path = resolve_dataset_path(dataset_file)
    if not path.is_file():
        raise DatasetFileError(
            f"dataset file {path} does not exist; build envsuite's SAT dataset with "
            "'envsuite datasets build sat', or import SATURN's data with "
            "'envsuite datasets import saturn PATH/TO/Saturn-code/data'"
        )
    return path


def resolve_level(
    clause_width: int | None,
    num_vars: int | None,
    num_clauses: int | None,
    level: str | None,
    clause_ratio: float | None,
) -> Level:
    """The level the kwargs select (a named level, or sizes with defaults from (3, 5, 20)).

    Raises:
        ValueError: ``level`` together with sizes, ``clause_ratio`` with ``num_clauses``, or
            sizes that do not make a level.
    """
    sizes = {"clause_width": clause_width, "num_vars": num_vars, "num_clauses": num_clauses}
    if level is not None:
        given = [name for name, value in sizes.items() if value is not None]
        if given or clause_ratio is not None:
            extra = [*given, *(["clause_ratio"] if clause_ratio is not None else [])]
            raise ValueError(f"level={level!r} already fixes the sizes; drop {', '.join(extra)}")
        return parse_level(level)
    width = DEFAULT_LEVEL.clause_width if clause_width is None else clause_width
    variables = DEFAULT_LEVEL.num_vars if num_vars is None else num_vars
    if clause_ratio is not None:
        if num_clauses is not None:
            raise ValueError("give num_clauses or clause_ratio, not both")
        if not float(clause_ratio) > 0:
            raise ValueError(f"clause_ratio must be positive, got {clause_ratio!r}")
        if isinstance(variables, bool) or not isinstance(variables, int):
            raise ValueError(f"num_vars must be an int, got {variables!r}")
        num_clauses = max(1, round(float(clause_ratio) * variables))
    clauses = DEFAULT_LEVEL.num_clauses if num_clauses is None else num_clauses
    return Level(width, variables, clauses)


class InstanceSource:
    """Draws the instance of each episode.

    Exactly one of ``level``, ``dataset`` or ``curriculum`` is set.

    Args:
        settings: Generator, task, uniqueness and solution cap.
        level: Generate every instance at this level.
        dataset: Serve the instances of this SATURN-format file.
        curriculum: Generate at the curriculum's current level, report each result to it.
        curriculum_state: File the curriculum is resumed from and saved to after each result.
    """

    def __init__(
        self,
        settings: GenerationSettings,
        *,
        level: Level | None = None,
        dataset: Path | None = None,
        curriculum: CurriculumController | None = None,
        curriculum_state: Path | None = None,
    ) -> None:
        self.settings = settings
        self.level = level
        self.dataset = dataset
        self.records: list[SaturnRecord] = read_saturn_jsonl(dataset) if dataset else []
        self._counts: dict[int, int | None] = {}
        self.curriculum = curriculum
        self.curriculum_state = curriculum_state
        self._problem: tuple[Level, int, Instance] | None = None

    def shapes(self) -> list[Level]:
        """Every level an instance may have (sizes the observation space)."""
        if self.curriculum is not None:
            return list(self.curriculum.settings.ladder)
        if self.records:
            return sorted(
                {Level(r.n_sat, r.formula.num_vars, r.formula.num_clauses) for r in self.records}
            )
        assert self.level is not None
        return [self.level]

    def draw(
        self, rng: np.random.Generator, seed: int | None, options: Mapping[str, Any] | None
    ) -> Instance:
        """The next episode's instance.

        Dataset files follow :mod:`envsuite.dataset_items` (rule ``"seed_index"``):
        ``options={"instance": i}`` picks line i; otherwise a seeded reset serves instance
        ``seed mod N`` (so seeds 0..N−1 cover the file once, in order) and an unseeded one
        draws an index from ``rng``.
        """
        if self.records:
            return self._dataset_instance(rng, seed, options)
        if self.curriculum is not None:
            return self._curriculum_instance(rng)
        assert self.level is not None
        return generate_instance(rng, self.level, self.settings)

    def _dataset_instance(
        self, rng: np.random.Generator, seed: int | None, options: Mapping[str, Any] | None
    ) -> Instance:
        index = pick_item(
            len(self.records),
            rng,
            seed,
            rule="seed_index",
            index=(options or {}).get("instance"),
            index_name="instance",
        )
        record = self.records[index]
        if index not in self._counts:
            cap = self.settings.solution_cap
            self._counts[index] = solver.count_solutions(record.formula, cap) if cap else None
        assert self.dataset is not None
        source = f"{self.dataset.name}#{record.id}"
        return record.to_instance(source, self.settings.solution_cap, self._counts[index])

    def _curriculum_instance(self, rng: np.random.Generator) -> Instance:
        assert self.curriculum is not None
        level = self.curriculum.level
        # The problem is a seed drawn from the env's generator, so a reset with the same
        # seed poses the same problem (at the same level) and its attempts pool together;
        # the instance comes from a generator derived from that seed.
        problem_seed = int(rng.integers(2**32, dtype=np.uint64))
        if self._problem is None or self._problem[:2] != (level, problem_seed):
            problem_rng = make_generator(problem_seed, "sat-curriculum-problem")
            instance = generate_instance(problem_rng, level, self.settings)
            self._problem = (level, problem_seed, instance)
        return self._problem[2]

    def curriculum_info(self) -> dict[str, Any]:
        """Info entries naming the curriculum's level (empty without one).

        Only the level and stage, which change when the curriculum advances; the window's
        pass@k is in :meth:`CurriculumController.status`, not in every info.
        """
        if self.curriculum is None:
            return {}
        return {
            "curriculum_level": self.curriculum.level.name,
            "curriculum_stage": self.curriculum.stage,
        }

    def report(self, success: bool) -> None:
        """Record a finished episode with the curriculum (and save its state file)."""
        if self.curriculum is None or self._problem is None:
            return
        level, problem_seed, _ = self._problem
        self.curriculum.record(f"{level.name}#{problem_seed}", success, level)
        if self.curriculum_state is not None:
            self.curriculum.save(self.curriculum_state)


def make_source(
    settings: GenerationSettings,
    level: Level,
    *,
    level_given: bool,
    dataset_file: str | None,
    curriculum: str | Mapping[str, Any] | None,
    curriculum_state: str | None,
) -> InstanceSource:
    """Check the instance kwargs together and build the source.

    Raises:
        ValueError: conflicting kwargs, or a curriculum state made with other settings.
        DatasetFileError: the dataset file is missing or invalid.
        CurriculumStateError: an unreadable curriculum state file.
    """
    if dataset_file is not None:
        if level_given or curriculum is not None or curriculum_state is not None:
            raise ValueError(
                "dataset_file serves the file's instances; drop the level/curriculum kwargs"
            )
        if settings != GenerationSettings(solution_cap=settings.solution_cap):
            raise ValueError(
                "dataset_file instances are SATURN's planted ones; "
                "drop generator, task and unique_solution"
            )
        return InstanceSource(settings, dataset=existing_dataset_file(dataset_file))
    if curriculum is None and curriculum_state is None:
        settings.check_level(level)
        return InstanceSource(settings, level=level)
    if level_given:
        raise ValueError("a curriculum chooses the level; drop the level kwargs")
    controller = _curriculum(curriculum, curriculum_state)
    for rung in controller.settings.ladder:
        settings.check_level(rung)
    state = Path(curriculum_state).expanduser() if curriculum_state is not None else None
    return InstanceSource(settings, curriculum=controller, curriculum_state=state)


def _curriculum(config: str | Mapping[str, Any] | None, state: str | None) -> CurriculumController:
    wanted = CurriculumSettings.from_config(config) if config is not None else None
    if state is not None and Path(state).expanduser().exists():
        controller = CurriculumController.load(Path(state).expanduser())
        if wanted is not None and wanted != controller.settings:
            raise ValueError(
                f"curriculum_state {state} was made with other settings "
                f"({controller.settings.to_dict()}); drop curriculum= or use another file"
            )
        return controller
    if wanted is None:
        raise CurriculumStateError(
            f"curriculum_state {state} does not exist; give curriculum= to start one"
        )
    return CurriculumController(wanted)
