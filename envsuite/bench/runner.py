"""``envsuite eval`` against a bare reset/step loop on the same Bandit-v0 episodes.

Both run ``EPISODES`` episodes of Bandit-v0 (its defaults: text mode, 300 pulls) with the
same seeded random agent, built once and reseeded for each episode (as the runner reuses
it). The bare loop imports only what it uses (envsuite, the agent, the seeding), not the
runner's modules. The runner also writes a record per episode (action trace, curves) to
``episodes.jsonl`` and, as the command, prints the summary with its bootstrap intervals.

Three figures come out of it: the end-to-end ratio of the command (a fresh interpreter,
``python -m envsuite eval``) to a fresh interpreter running the bare loop; the runner's
cost per episode over the bare loop, in process; and the command's fixed cost, the same
two processes with one episode each.
"""

from __future__ import annotations

import resource
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from typing import Any, cast

import envsuite
from envsuite.agents.random_agent import RandomAgent
from envsuite.seeding import derive_seed

BANDIT = "envsuite/Bandit-v0"
EPISODES = 200


def bare_loop(episodes: int, kwargs: dict[str, Any] | None = None) -> float:
    """``episodes`` seeded episodes of one random agent, reseeded each; the summed return."""
    env = envsuite.make(BANDIT, **(kwargs or {}))
    agent = RandomAgent(env.action_space)
    total = 0.0
    for seed in range(episodes):
        agent.reset(seed=derive_seed(seed, "agent", 0))
        observation, info = env.reset(seed=seed)
        done = False
        while not done:
            observation, reward, terminated, truncated, info = env.step(
                agent.act(observation, info)
            )
            total += reward
            done = terminated or truncated
    env.close()
    return total


def runner_loop(episodes: int, kwargs: dict[str, Any] | None = None) -> float:
    """The same episodes through the runner into a fresh run directory; the summed return."""
    # Imported here, not at the top: the bare loop's interpreter imports this module, and
    # must not pay for the runner's modules (pydantic, rich, the metrics) it never uses.
    from envsuite.evaluation.protocol import adhoc_protocol
    from envsuite.evaluation.run_directory import evaluate

    run_dir = tempfile.mkdtemp(prefix="envsuite-bench-")
    try:
        protocol = adhoc_protocol(BANDIT, dict(kwargs or {}), episodes, 1)
        records = evaluate(protocol, "random", run_dir, progress=False).records
        return sum(float(cast(float, record.episode_return)) for record in records)
    finally:
        shutil.rmtree(run_dir, ignore_errors=True)


_BARE_SCRIPT = "from envsuite.bench.runner import bare_loop; bare_loop({episodes})"


def child_cpu_seconds(command: list[str]) -> float:
    """CPU seconds (user + system) a child process running ``command`` takes."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def command_loop(episodes: int) -> Callable[[], float]:
    """A call that runs ``python -m envsuite eval`` on ``episodes`` episodes (CPU seconds)."""

    def run() -> float:
        out = tempfile.mkdtemp(prefix="envsuite-bench-")
        try:
            return child_cpu_seconds(
                [sys.executable, "-m", "envsuite", "eval", BANDIT, "--agent", "random",
                 "--episodes", str(episodes), "--out", f"{out}/run"]
            )  # fmt: skip
        finally:
            shutil.rmtree(out, ignore_errors=True)

    return run


def bare_command_loop(episodes: int) -> Callable[[], float]:
    """A call that runs the bare loop in a fresh interpreter (CPU seconds)."""

    def run() -> float:
        return child_cpu_seconds([sys.executable, "-c", _BARE_SCRIPT.format(episodes=episodes)])

    return run
