"""The task generators and roots of ``task_seeding`` are exactly numpy's (streams kept).

``root_seed`` draws what ``int(rng.integers(0, 2**63))`` draws; ``TaskSeeder.generator``
builds what ``Generator(PCG64(SeedSequence(root, spawn_key=key)))`` builds.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from envsuite.families.gui.task_seeding import TaskSeeder, root_seed
from envsuite.families.gui.tasks_index import all_tasks
from envsuite.seeding import seed_sequence


@pytest.mark.parametrize("seed", [0, 1, 17, 2**40 + 3])
def test_root_seed_equals_numpy_integers_over_many_draws(seed: int) -> None:
    ours, numpys = np.random.default_rng(seed), np.random.default_rng(seed)
    # A whole vector of the fast draws against numpy's one call per draw.
    fast = [root_seed(ours) for _ in range(100_000)]
    slow = [int(numpys.integers(0, 2**63)) for _ in range(100_000)]
    assert fast == slow
    assert max(fast) < 2**63 and min(fast) >= 0


def test_root_seed_leaves_the_generator_where_numpy_would() -> None:
    ours, numpys = np.random.default_rng(5), np.random.default_rng(5)
    for step in range(2_000):
        # Interleaved with draws that use PCG64's 32-bit buffer and its 64-bit words.
        if step % 3 == 0:
            assert int(ours.integers(7)) == int(numpys.integers(7))
        if step % 5 == 0:
            assert ours.random() == numpys.random()
        assert root_seed(ours) == int(numpys.integers(0, 2**63))
    assert ours.bit_generator.state == numpys.bit_generator.state


def test_root_seed_of_another_bit_generator_takes_numpys_path() -> None:
    ours = np.random.Generator(np.random.MT19937(3))
    numpys = np.random.Generator(np.random.MT19937(3))
    assert [root_seed(ours) for _ in range(1_000)] == [
        int(numpys.integers(0, 2**63)) for _ in range(1_000)
    ]


def _numpys(root: int, key: tuple[int, ...]) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(root, spawn_key=key)))


@pytest.mark.parametrize("name", sorted(all_tasks()))
def test_task_generators_equal_numpys_for_every_task_type(name: str) -> None:
    key = seed_sequence(0, "gui-task", name).spawn_key
    seeder, roots = TaskSeeder(key), np.random.default_rng(len(name))
    for index in range(400):
        # Roots of every width: 0, one 32-bit word, two words (the env's 63 bits).
        root = [0, index, int(roots.integers(2**32)), root_seed(roots)][index % 4]
        ours, numpys = seeder.generator(root), _numpys(root, key)
        assert ours.bit_generator.state == numpys.bit_generator.state
        assert ours.integers(0, 1000, 3).tolist() == numpys.integers(0, 1000, 3).tolist()
        assert ours.random() == numpys.random()


def test_task_generators_draw_numpys_streams_at_length() -> None:
    key = (3051248799404566162, 5182274994015410644, 7)
    seeder = TaskSeeder(key)
    for root in (1, 2**40 + 11, 2**63 - 1):
        ours, numpys = seeder.generator(root), _numpys(root, key)
        assert np.array_equal(ours.random(200_000), numpys.random(200_000))
        assert np.array_equal(ours.integers(0, 7, 200_000), numpys.integers(0, 7, 200_000))
        assert (
            ours.choice(500, 40, replace=False).tolist()
            == numpys.choice(500, 40, replace=False).tolist()
        )


def test_the_seed_sequence_answers_like_numpys() -> None:
    key = (5, 2**40)
    ours: Any = TaskSeeder(key).generator(99).bit_generator.seed_seq
    numpys = np.random.SeedSequence(99, spawn_key=key)
    assert ours.entropy == 99 and tuple(ours.spawn_key) == key
    assert ours.generate_state(8).tolist() == numpys.generate_state(8).tolist()
    children = ours.spawn(2)
    assert [c.generate_state(2).tolist() for c in children] == [
        c.generate_state(2).tolist() for c in numpys.spawn(2)
    ]


def test_a_seeder_needs_a_spawn_key() -> None:
    with pytest.raises(ValueError, match="spawn key"):
        TaskSeeder(())
