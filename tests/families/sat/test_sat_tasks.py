"""The SAT task protocols: the oracle solves everything, a random agent fades with D."""

from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path

import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("pysat")  # the sat extra; CI installs it and wants failures, not skips

from envsuite.evaluation.metrics import pass_at_k_from_records
from envsuite.evaluation.protocol import SeedRange, TaskProtocol
from envsuite.evaluation.run_directory import evaluate
from envsuite.families.sat.levels import LADDERS, parse_level

TASKS = Path(__file__).resolve().parents[3] / "tasks"
SAT_TASKS = sorted(TASKS.glob("sat-*.yaml"))


def test_every_sat_protocol_loads_and_asks_for_pass_at_k():
    assert {p.stem for p in SAT_TASKS} >= {
        "sat-curriculum", "sat-envsuite-2.6k", "sat-saturn-2.6k", "sat-interactive"
    }  # fmt: skip
    for path in SAT_TASKS:
        protocol = TaskProtocol.load(path)
        assert protocol.attempts > 1 and protocol.pass_ks()[-1] == protocol.attempts


def test_the_curriculum_protocol_is_the_default_ladder_by_increasing_d():
    protocol = TaskProtocol.load(TASKS / "sat-curriculum.yaml")
    levels = [parse_level(entry.kwargs["level"]) for entry in protocol.envs]
    assert tuple(levels) == LADDERS["default"]


def by_level(records) -> dict[str, list]:
    groups = defaultdict(list)
    for record in records:
        key = record.env_kwargs.get("level") or record.env_kwargs.get("dataset_file")
        groups[key].append(record)
    return groups


def shortened(name: str, seeds: int) -> TaskProtocol:
    protocol = TaskProtocol.load(TASKS / name)
    return protocol.model_copy(update={"seeds": SeedRange(start=0, count=seeds)})


@pytest.mark.parametrize(
    "name", ["sat-curriculum.yaml", "sat-envsuite-2.6k.yaml", "sat-interactive.yaml"]
)
def test_oracle_passes_every_level(tmp_path, name):
    protocol = shortened(name, 3)
    run = evaluate(protocol, "oracle", tmp_path / "run", progress=False)
    for records in by_level(run.records).values():
        assert pass_at_k_from_records(records, 1).pass_at_k.estimate == 1.0
        assert all(r.infra_error is None for r in records)


def test_random_pass_at_k_falls_with_difficulty(tmp_path):
    protocol = shortened("sat-curriculum.yaml", 12)
    run = evaluate(protocol, "random", tmp_path / "run", progress=False)
    groups = by_level(run.records)
    ladder = [level.name for level in LADDERS["default"]]
    pass8 = [pass_at_k_from_records(groups[name], 8).pass_at_k.estimate for name in ladder]
    pass1 = [pass_at_k_from_records(groups[name], 1).pass_at_k.estimate for name in ladder]
    assert pass8[0] > 0.9 and pass8[-1] == 0.0
    assert pass1[0] > 3 * max(pass1[-4:]) and pass1[1] > pass1[4]
    assert all(p1 <= p8 for p1, p8 in zip(pass1, pass8, strict=True))
    # Falling: each third of the ladder does worse than the one before.
    thirds = [sum(pass8[i : i + 4]) / len(pass8[i : i + 4]) for i in (0, 4, 8)]
    assert thirds[0] > thirds[1] > thirds[2]
