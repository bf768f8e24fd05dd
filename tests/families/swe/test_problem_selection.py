"""Which task a reset poses: envsuite.dataset_items' rule, through SWEEnv (local backend)."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

import envsuite
from envsuite.dataset_items import item_for_seed
from envsuite.families.swe.dataset import load_problems
from envsuite.families.swe.env import SWEEnv

LIBRARY = "inflection"


def _make(task_selection: str) -> Any:
    return envsuite.make(
        "envsuite/SWE-v0", libraries=[LIBRARY], backend="local", task_selection=task_selection
    )


@pytest.fixture(scope="module")
def ids() -> list[str]:
    return [task.instance_id for task in load_problems([LIBRARY])]


@pytest.mark.parametrize("task_selection", ["seed_index", "random"])
def test_a_seed_poses_the_task_item_labels_names(task_selection: str, ids: list[str]) -> None:
    env = _make(task_selection)
    seeds = [0, 1, len(ids) + 1]
    labels = SWEEnv.item_labels({"libraries": [LIBRARY], "task_selection": task_selection}, seeds)
    try:
        for seed in seeds:
            _, info = env.reset(seed=seed)
            assert info["instance_id"] == labels[seed]
    finally:
        env.close()
    rule = "seed_index" if task_selection == "seed_index" else "draw"
    assert [labels[s] for s in seeds] == [ids[item_for_seed(len(ids), s, rule=rule)] for s in seeds]
    if task_selection == "seed_index":
        assert [labels[s] for s in seeds] == [ids[0], ids[1], ids[1]]


def test_a_task_id_option_wins_and_an_unknown_one_is_refused(ids: list[str]) -> None:
    env = _make("seed_index")
    try:
        _, info = env.reset(seed=0, options={"task_id": ids[-1]})
        assert info["instance_id"] == ids[-1]
        with pytest.raises(ValueError, match="no selected task 'nope'"):
            env.reset(seed=0, options={"task_id": "nope"})
    finally:
        env.close()


def test_a_pickled_env_keeps_the_seeded_task(ids: list[str]) -> None:
    env = _make("seed_index")
    twin = None
    try:
        _, info = env.reset(seed=1)
        twin = pickle.loads(pickle.dumps(env.unwrapped))
        assert twin.task is not None and twin.task.instance_id == info["instance_id"] == ids[1]
    finally:
        env.close()
        if twin is not None:
            twin.close()
