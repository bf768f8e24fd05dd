"""The shipped dataset: its size, MANIFESTs, pins, and that every task is well formed."""

from __future__ import annotations

import json

import pytest

from envsuite.families.swe.dataset import (
    library_folder,
    library_names,
    load_library,
    load_problems,
    sha256_file,
    verify_manifest,
)
from envsuite.families.swe.patch_filter import is_test_file
from envsuite.families.swe.repo_snapshot import base_tree, repo_archive, source_tree
from envsuite.families.swe.unified_diff import apply_diff, split_file_diffs

TASKS = load_problems()


def test_at_least_five_libraries_and_fifty_tasks():
    assert len(library_names()) >= 5
    assert len(TASKS) >= 50
    assert len({t.instance_id for t in TASKS}) == len(TASKS)


@pytest.mark.parametrize("name", library_names())
def test_manifest_and_sdist_pin(name):
    assert verify_manifest(library_folder(name)) == []
    library = load_library(name)
    assert sha256_file(library.sdist_path) == library.sdist_sha256
    assert json.loads((library.folder / "library.json").read_text())["version"] == library.version


@pytest.mark.parametrize("task", TASKS, ids=[t.instance_id for t in TASKS])
def test_task_is_well_formed(task):
    assert task.FAIL_TO_PASS and set(task.FAIL_TO_PASS).isdisjoint(task.PASS_TO_PASS)
    tree = base_tree(task)
    source = source_tree(task)
    assert all(hidden not in tree and hidden in source for hidden in task.hidden_tests)
    added = {s.new_path for s in split_file_diffs(task.test_patch)}
    assert added == set(task.hidden_tests) == set(task.test_files)
    touched = {p for s in split_file_diffs(task.patch) for p in s.paths}
    assert not any(is_test_file(p) for p in touched)
    texts = {p: tree[p].data.decode() for p in touched}
    fixed = apply_diff(texts, task.patch)
    assert all(fixed[p] == source[p].data.decode() for p in touched)  # gold = the original
    assert task.patch not in task.problem_statement


@pytest.mark.parametrize("name", library_names())
def test_base_commits_rebuild_identically(name):
    task = load_problems([name])[0]
    _, commit = repo_archive(task)
    assert commit == task.base_commit


def test_the_swe_mini_protocol_covers_its_tasks_once():
    from envsuite.data_paths import tasks_root
    from envsuite.evaluation.protocol import TaskProtocol

    protocol = TaskProtocol.load(tasks_root() / "swe-mini.yaml")
    [entry] = protocol.envs
    ids = entry.kwargs["task_ids"]
    assert entry.kwargs["task_selection"] == "seed_index"
    assert set(ids) <= {t.instance_id for t in TASKS} and len(set(ids)) == len(ids)
    assert protocol.seeds.values() == list(range(len(ids)))
    assert {i.split("__")[0] for i in ids} == set(library_names())
