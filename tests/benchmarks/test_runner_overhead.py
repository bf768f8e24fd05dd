"""The runner's overhead over a bare reset/step loop on a fast env (Bandit-v0, vector mode).

Both sides run the same 20 episodes of 300 steps with the same seeded random agent (built
once, reseeded for each episode, as the runner reuses it); the runner also builds records
with action traces and appends them to ``episodes.jsonl``. The loops are
:mod:`envsuite.bench.runner`'s, which ``envsuite bench --rows eval-overhead`` times (there
in text mode, through the command). ``pytest tests/benchmarks --benchmark-enable`` prints
both timings; the ratio of their means is the runner's overhead.
"""

from __future__ import annotations

from envsuite.bench.runner import bare_loop, runner_loop

KWARGS = {"observation_mode": "vector", "horizon": 300}
EPISODES = 20


def test_bare_reset_step_loop(benchmark):
    benchmark.group = "runner-overhead"
    assert benchmark(bare_loop, EPISODES, KWARGS) > 0


def test_runner_same_episodes(benchmark):
    benchmark.group = "runner-overhead"
    # The same episodes, the same returns.
    assert benchmark(runner_loop, EPISODES, KWARGS) == bare_loop(EPISODES, KWARGS)
