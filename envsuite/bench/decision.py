"""Bandit-v0 against the raw loop doing the same work (rewards, regret, the text).

One episode of ``STEPS`` pulls with a fixed action sequence: through ``envsuite.make``
(reset + steps, with the wrappers users get), and as a plain loop over a numpy generator
that samples the same Bernoulli rewards and adds up the same regret; in text mode the raw
loop also looks the answer up and writes the round message, as the env must.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

import envsuite
from envsuite.families.decision.bandit import arm_names
from envsuite.seeding import make_generator

BANDIT = "envsuite/Bandit-v0"
STEPS = 1_000
SEED = 12345
#: Fixed arm means, so reset draws nothing and the raw loop can reproduce every reward.
MEANS = (0.2, 0.35, 0.5, 0.65, 0.8)
NAMES = arm_names(len(MEANS))
ACTIONS: list[int] = (
    make_generator(0, "benchmark-actions").integers(len(MEANS), size=STEPS).tolist()
)
TEXT_ACTIONS = [NAMES[arm] for arm in ACTIONS]


def make_bandit(observation_mode: str) -> Any:
    """Bandit-v0 with :data:`MEANS`, one episode of :data:`STEPS` pulls."""
    return envsuite.make(
        BANDIT,
        num_arms=len(MEANS),
        arm_means=MEANS,
        horizon=STEPS,
        observation_mode=observation_mode,
    )


def env_episode(env: Any, actions: Sequence[Any]) -> tuple[float, float]:
    """Reset with SEED, take every action; return (total reward, cumulative regret)."""
    env.reset(seed=SEED)
    total = 0.0
    info: dict[str, Any] = {}
    for action in actions:
        _, reward, _, _, info = env.step(action)
        total += reward
    return total, info["cumulative_regret"]


def raw_vector_episode(actions: Sequence[int]) -> tuple[float, float]:
    """The bandit's arithmetic alone: a seeded generator, Bernoulli draws, regret."""
    rng = np.random.Generator(np.random.PCG64(SEED))
    means = list(MEANS)
    best = max(means)
    total = regret = 0.0
    for arm in actions:
        total += float(rng.random() < means[arm])
        regret += best - means[arm]
    return total, regret


def raw_text_episode(answers: Sequence[str]) -> tuple[float, float]:
    """The vector loop plus the text work: look the answer up, write the round message."""
    rng = np.random.Generator(np.random.PCG64(SEED))
    means = list(MEANS)
    best = max(means)
    index = {name: i for i, name in enumerate(NAMES)}
    total = regret = 0.0
    message = ""
    for t, answer in enumerate(answers, start=1):
        arm = index[answer.strip().lower()]
        reward = float(rng.random() < means[arm])
        message = (
            f"Round {t}: you pressed {NAMES[arm]} and received reward {reward:g}.\n"
            f"Round {t + 1} of {STEPS}: which button do you press?"
        )
        total += reward
        regret += best - means[arm]
    assert message
    return total, regret
