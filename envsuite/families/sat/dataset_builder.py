"""Versioned SAT datasets with Saturn-2.6k's structure: build, import and verify.

Saturn-2.6k (SATURN's released data) holds four training stages,
``train/Train_prompt_{n}_{k}_{l}_{M}/{train,test}.jsonl`` with M instances of which the
last 20 form the stage's test split, and ten harder test levels,
``test/n{n}_k{k}_length{l}_sample100.jsonl``. :func:`build_dataset` writes the same files
(same levels, counts, ids, key order and prompts) from envsuite's planted generator,
deterministically from one seed, plus ``dataset.json`` and a MANIFEST of sha256 sums;
:func:`import_saturn` copies SATURN's own files, checked line by line, into the same layout.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from envsuite.families.sat import solver
from envsuite.families.sat.formats import render_prompt
from envsuite.families.sat.instances import Instance
from envsuite.families.sat.levels import SATURN_TEST_LEVELS, SATURN_TRAIN_LEVELS, Level
from envsuite.families.sat.manifest import MANIFEST, check_manifest, write_manifest
from envsuite.families.sat.planted_ksat import planted_batch
from envsuite.families.sat.saturn_jsonl import (
    DatasetFileError,
    read_saturn_jsonl,
    saturn_line,
    write_lines,
)
from envsuite.seeding import make_generator

#: Bump when the builder's output for a given seed changes (it is part of dataset.json).
BUILDER_VERSION = 1
DEFAULT_NAME = "envsuite-sat-2.6k"
#: Instances per training stage (SATURN: 270 for the two easiest stages, 520 after).
TRAIN_STAGE_SIZES = (270, 270, 520, 520)
#: Of each stage, the last this many instances form its test split (as SATURN's script).
STAGE_TEST_SIZE = 20
TEST_LEVEL_SIZE = 100
SOLUTION_CAP = 100


@dataclass(frozen=True)
class DatasetFile:
    """One file of the layout: where it goes, its level, and which ids it holds."""

    path: str
    level: Level
    first_id: int
    count: int


def saturn_layout() -> list[DatasetFile]:
    """The files of Saturn-2.6k, in build order."""
    files = []
    for level, size in zip(SATURN_TRAIN_LEVELS, TRAIN_STAGE_SIZES, strict=True):
        folder = (
            f"train/Train_prompt_{level.clause_width}_{level.num_vars}_{level.num_clauses}_{size}"
        )
        files.append(DatasetFile(f"{folder}/train.jsonl", level, 0, size - STAGE_TEST_SIZE))
        files.append(
            DatasetFile(f"{folder}/test.jsonl", level, size - STAGE_TEST_SIZE, STAGE_TEST_SIZE)
        )
    for level in SATURN_TEST_LEVELS:
        n, k, length = level.clause_width, level.num_vars, level.num_clauses
        name = f"test/n{n}_k{k}_length{length}_sample{TEST_LEVEL_SIZE}.jsonl"
        files.append(DatasetFile(name, level, 0, TEST_LEVEL_SIZE))
    return files


def distinct_planted(
    seed: int, key: str, level: Level, count: int, *, count_solutions: bool = True
) -> Iterator[Instance]:
    """``count`` planted instances, distinct by (solution, clauses) as SATURN dedupes them.

    Args:
        seed: Root seed.
        key: Names the draw (the generator is derived from seed and key).
        level: The level.
        count: Instances wanted.
        count_solutions: Count each instance's solutions (up to :data:`SOLUTION_CAP`);
            when False, ``num_solutions`` is left at 0.
    """
    rng = make_generator(seed, "sat-dataset", key)
    seen: set[tuple[str, tuple[tuple[int, ...], ...]]] = set()
    cap = SOLUTION_CAP
    while len(seen) < count:
        for formula, planted in planted_batch(rng, level, count - len(seen)):
            identity = (planted, formula.clauses)
            if identity in seen:
                continue
            seen.add(identity)
            solutions = solver.count_solutions(formula, cap) if count_solutions else 0
            yield Instance(formula, level.clause_width, True, solutions, cap, planted)


def build_dataset(
    out_dir: Path, *, name: str = DEFAULT_NAME, version: int = 1, seed: int = 0
) -> Path:
    """Build the dataset into ``out_dir`` (a fresh folder) and return its MANIFEST path.

    Raises:
        FileExistsError: ``out_dir`` exists (callers decide whether to replace it).
    """
    if out_dir.exists():
        raise FileExistsError(out_dir)
    layout = saturn_layout()
    stage_sizes = {
        f.path.rsplit("/", 1)[0]: f.first_id + f.count
        for f in layout
        if f.path.startswith("train/")
    }
    drawn: dict[str, list[Instance]] = {}
    staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.", dir=_parent(out_dir)))
    try:
        for file in layout:
            # A stage's train and test files split one draw, as SATURN's script does.
            key = file.path.rsplit("/", 1)[0] if file.path.startswith("train/") else file.path
            if key not in drawn:
                total = stage_sizes.get(key, file.count)
                drawn[key] = list(distinct_planted(seed, key, file.level, total))
            instances = drawn[key]
            chosen = instances[file.first_id : file.first_id + file.count]
            lines = (
                saturn_line(
                    file.first_id + offset,
                    instance,
                    render_prompt(instance.formula, instance.clause_width, "saturn", "solve"),
                    {
                        "difficulty": round(instance.difficulty, 6),
                        "num_solutions": instance.num_solutions,
                    },
                )
                for offset, instance in enumerate(chosen)
            )
            write_lines(staging / file.path, lines)
        meta = {
            "name": name,
            "version": version,
            "builder": "envsuite.families.sat.dataset_builder",
            "builder_version": BUILDER_VERSION,
            "seed": seed,
            "generator": "planted",
            "solution_cap": SOLUTION_CAP,
            "structure": "Saturn-2.6k",
            "files": [
                {
                    "path": f.path,
                    "level": f.level.name,
                    "difficulty": round(f.level.difficulty, 6),
                    "count": f.count,
                }
                for f in layout
            ],
        }
        (staging / "dataset.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
        write_manifest(staging)
        _publish(staging, out_dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return out_dir / MANIFEST


def _publish(staging: Path, out_dir: Path) -> None:
    """Move a finished staging folder into place, readable by all like any checkout folder.

    ``mkdtemp`` makes its folder private (0700); a dataset is meant to be shared.
    """
    for folder in (staging, *(p for p in staging.rglob("*") if p.is_dir())):
        folder.chmod(0o755)
    staging.rename(out_dir)


def _parent(out_dir: Path) -> Path:
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    return out_dir.parent


def import_saturn(source: Path, out_dir: Path, *, name: str = "saturn-2.6k") -> Path:
    """Copy SATURN's JSONL files from ``source`` (its ``data/`` folder) into ``out_dir``.

    Every line is checked (see :func:`~envsuite.families.sat.saturn_jsonl.read_saturn_jsonl`)
    before anything is written; LICENSE and README files are copied along.

    Raises:
        DatasetFileError: ``source`` holds no SATURN files, or an invalid line.
        FileExistsError: ``out_dir`` exists.
    """
    if out_dir.exists():
        raise FileExistsError(out_dir)
    files = sorted(
        p for p in source.rglob("*.jsonl") if p.relative_to(source).parts[0] in ("train", "test")
    )
    if not files:
        raise DatasetFileError(f"{source} holds no SATURN files (train/**/*.jsonl, test/*.jsonl)")
    counts = {p.relative_to(source).as_posix(): len(read_saturn_jsonl(p)) for p in files}
    staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.", dir=_parent(out_dir)))
    try:
        for path in files:
            target = staging / path.relative_to(source)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
        for extra in ("LICENSE", "README.md"):
            if (source / extra).is_file():
                shutil.copyfile(source / extra, staging / extra)
        meta: dict[str, Any] = {
            "name": name,
            "structure": "Saturn-2.6k",
            "source": "SATURN",
            "files": counts,
        }
        (staging / "dataset.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
        write_manifest(staging)
        _publish(staging, out_dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return out_dir / MANIFEST


def verify_dataset(root: Path) -> tuple[int, list[str]]:
    """Check a dataset folder: its MANIFEST, every instance, and every prompt.

    Returns:
        ``(instances checked, problems)``; no problems means the dataset is intact, every
        planted solution satisfies its formula, and every prompt is the SATURN prompt of
        its instance.
    """
    problems = check_manifest(root)
    checked = 0
    for path in sorted(root.rglob("*.jsonl")):
        try:
            records = read_saturn_jsonl(path)
        except DatasetFileError as exc:
            problems.append(str(exc))
            continue
        for record in records:
            checked += 1
            if record.prompt is not None and record.prompt != render_prompt(
                record.formula, record.n_sat, "saturn", "solve"
            ):
                problems.append(
                    f"{path.relative_to(root)}: id {record.id}: prompt differs from SATURN's"
                )
    if checked == 0:
        problems.append(f"{root} holds no instances")
    return checked, problems
