"""Keeping the garbage collector off the objects that outlive a run's episodes.

A full collection walks every object the interpreter tracks: the imported packages, their
schemas and caches, tens of thousands of objects that will live as long as the process.
A run of short episodes allocates fast enough to start a full collection every few dozen
episodes, and walking that heap cost more than the runner's own work per episode (the
``eval-overhead`` row of ``envsuite bench`` measures that work). :func:`frozen_heap`
moves the objects that exist when a run starts into the collector's permanent generation
(:func:`gc.freeze`) for the run, and back when it ends: everything the episodes make is
collected as before, cycles included.
Cyclic garbage that already existed at the start is freed when the run ends instead.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def frozen_heap() -> Iterator[None]:
    """Freeze the objects tracked now for the ``with`` block (see the module docstring).

    Does nothing when something is frozen already: whoever froze it (a server that froze
    its heap before forking workers, say) decides when it thaws.
    """
    if gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
