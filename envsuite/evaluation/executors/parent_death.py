"""Worker processes that die with the process that started them.

A pool worker blocks reading its job queue, and it holds that queue's write end itself, so
it never sees end-of-file when the coordinating process is killed (SIGKILL runs no clean-up
code). Two guards end it instead:

- On Linux the kernel sends the worker SIGKILL when its parent dies
  (``prctl(PR_SET_PDEATHSIG)``), the moment it happens, even mid-episode.
- Everywhere, a daemon thread polls the parent pid and exits the worker once the worker has
  been re-parented (a dead parent's children pass to init or a subreaper).

Nothing a killed run's worker could still do is of use: records reach the run directory
only through the coordinating process.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time

#: ``PR_SET_PDEATHSIG`` from ``<linux/prctl.h>``.
PR_SET_PDEATHSIG = 1

#: Seconds between two looks at the parent pid by the watchdog thread.
POLL_SECONDS = 0.5


def die_with_parent(parent_pid: int) -> None:
    """Make this process exit as soon as ``parent_pid``, its parent, is gone.

    Meant as a process pool's ``initializer``. On Linux the death signal is delivered when
    the parent *thread* that started this process exits, so the pool must be fed from a
    thread that lives as long as the run (the runner's own).

    Args:
        parent_pid: The pid of the process that started this one.
    """
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent_pid:  # the parent died before the guard was in place
        os._exit(1)
    watchdog = threading.Thread(
        target=_exit_when_orphaned, args=(parent_pid,), name="envsuite-parent-watch", daemon=True
    )
    watchdog.start()


def _exit_when_orphaned(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(POLL_SECONDS)
    # os._exit, not sys.exit: the main thread may be in the middle of an episode, and no
    # clean-up handler of a run whose coordinator is dead has anything left to do.
    os._exit(1)
