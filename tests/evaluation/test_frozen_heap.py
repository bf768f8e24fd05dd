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
    # Not an exact count: another thread of the test process (the fresh-machine runs'
    # log readers, say) may free frozen objects meanwhile, which leave the frozen set. The
    # block neither freezes more (the count would grow) nor thaws (it would drop to 0).
    gc.freeze()
    try:
        before = gc.get_freeze_count()
        with frozen_heap():
            inside = gc.get_freeze_count()
        after = gc.get_freeze_count()
        assert 0 < after <= inside <= before
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
