"""The runner's overhead over a bare reset/step loop on a fast env (Bandit-v0, vector mode).

Both sides run the same 20 episodes of 300 steps with the same seeded random agent; the
runner also builds records with action traces and appends them to ``episodes.jsonl``.
``pytest tests/benchmarks --benchmark-enable`` prints both timings; the ratio of their
means is the runner's overhead.
"""

from __future__ import annotations

import shutil
import tempfile

import envsuite
from envsuite.agents import RandomAgent
from envsuite.evaluation.protocol import adhoc_protocol
from envsuite.evaluation.run_directory import evaluate
from envsuite.seeding import derive_seed

KWARGS = {"observation_mode": "vector", "horizon": 300}
EPISODES = 20


def bare_loop() -> float:
    env = envsuite.make("envsuite/Bandit-v0", **KWARGS)
    agent = RandomAgent(env.action_space)
    total = 0.0
    for seed in range(EPISODES):
        agent.reset(seed=derive_seed(seed, "agent", 0))
        observation, info = env.reset(seed=seed)
        done = False
        while not done:
            observation, reward, terminated, truncated, info = env.step(
                agent.act(observation, info)
            )
            total += reward
            done = terminated or truncated
    return total


def runner_loop() -> float:
    run_dir = tempfile.mkdtemp(prefix="envsuite-bench-")
    try:
        protocol = adhoc_protocol("envsuite/Bandit-v0", KWARGS, EPISODES, 1)
        records = evaluate(protocol, "random", run_dir, progress=False).records
        return sum(float(r.episode_return) for r in records)  # type: ignore[arg-type]
    finally:
        shutil.rmtree(run_dir)


def test_bare_reset_step_loop(benchmark):
    benchmark.group = "runner-overhead"
    assert benchmark(bare_loop) > 0


def test_runner_same_episodes(benchmark):
    benchmark.group = "runner-overhead"
    assert benchmark(runner_loop) == bare_loop()  # same episodes, same returns
