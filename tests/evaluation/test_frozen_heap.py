"""The run's frozen heap: frozen for the block, thawed after, a caller's freeze left alone."""

from __future__ import annotations

import gc

import pytest

from envsuite.evaluation.executors.frozen_heap import frozen_heap


def test_the_heap_is_frozen_for_the_block_and_thawed_after_even_on_error() -> None:
    assert gc.get_freeze_count() == 0
    with frozen_heap():
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0
    with pytest.raises(RuntimeError), frozen_heap():
        raise RuntimeError("boom")
    assert gc.get_freeze_count() == 0


def test_a_heap_frozen_by_the_caller_stays_frozen() -> None:
    gc.freeze()
    try:
        before = gc.get_freeze_count()
        with frozen_heap():
            pass
        assert gc.get_freeze_count() == before
    finally:
        gc.unfreeze()


def test_cycles_made_inside_the_block_are_still_collected() -> None:
    class Node:
        pass

    with frozen_heap():
        node = Node()
        node.self = node  # type: ignore[attr-defined]
        del node
        assert gc.collect() >= 1
