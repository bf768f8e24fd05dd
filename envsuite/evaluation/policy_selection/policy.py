"""The stochastic-policy protocol: agents that can say how likely each action is.

Off-policy estimators need π(a_t | h_t) for the action a_t a behaviour agent took, for
every candidate π, while the candidate is fed the logged trajectory rather than its own.
A :class:`StochasticPolicy` is an :class:`~envsuite.agent_protocol.Agent` with one more
method, ``action_probabilities(observation, info)``, which

* returns π(· | history) as a mapping from action (in the form ``act`` returns it: an
  int for ``Discrete`` spaces, a string for text envs) to probability; actions left out
  have probability 0;
* advances the agent's internal state exactly as ``act(observation, info)`` would, except
  that nothing is drawn. Whatever the agent learns about the action taken must come from
  the next ``observation``/``info`` (as it must for ``act`` too: after a malformed action
  the env may take another one), so replaying a logged trajectory through
  ``action_probabilities`` keeps a history-dependent agent (a bandit learner) in step.

A behaviour agent whose episodes are to be used as logged data also implements
``last_action_probability()`` (the probability of the action ``act`` last returned); the
runner stores it as :attr:`envsuite.records.Step.probability`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from envsuite.agent_protocol import Agent, ReportsActionProbabilities, ReportsActionProbability
from envsuite.errors import EnvsuiteError
from envsuite.jsonable import canonical_json, to_jsonable

#: How far a distribution's total may stray from 1 before it is rejected.
TOTAL_TOLERANCE = 1e-6


class PolicyProbabilityError(EnvsuiteError, ValueError):
    """An agent gave no probabilities, or probabilities that are not a distribution."""


@runtime_checkable
class StochasticPolicy(Agent, ReportsActionProbabilities, Protocol):
    """An agent that also reports π(· | history) without drawing (see the module doc)."""


@runtime_checkable
class LoggingPolicy(Agent, ReportsActionProbability, Protocol):
    """A behaviour agent: reports the probability of the action it last returned."""


def action_key(action: Any) -> str:
    """A hashable, canonical key for an action (its canonical JSON form).

    The same action as returned by an agent (``numpy.int64(2)``) and as stored in a
    record's trace (``2``) get the same key.
    """
    return canonical_json(to_jsonable(action))


def checked_distribution(raw: Mapping[Any, float], who: str) -> dict[str, float]:
    """Validate a distribution an agent returned and key it by :func:`action_key`.

    Args:
        raw: What ``action_probabilities`` returned.
        who: The agent, for messages.

    Returns:
        Action key -> probability in [0, 1] (entries with probability 0 dropped).

    Raises:
        PolicyProbabilityError: not a mapping, a probability outside [0, 1] or not finite,
            or a total further than :data:`TOTAL_TOLERANCE` from 1.
    """
    if not isinstance(raw, Mapping):
        raise PolicyProbabilityError(
            f"{who}: action_probabilities returned {type(raw).__name__}, not a mapping "
            "from action to probability"
        )
    distribution: dict[str, float] = {}
    for action, value in raw.items():
        probability = float(value)
        if not (math.isfinite(probability) and 0.0 <= probability <= 1.0 + TOTAL_TOLERANCE):
            raise PolicyProbabilityError(
                f"{who}: probability {value!r} of action {action!r} is not in [0, 1]"
            )
        if probability > 0.0:
            key = action_key(action)
            # Rounding may push a certain action's probability a hair above 1.
            distribution[key] = min(distribution.get(key, 0.0) + probability, 1.0)
    total = math.fsum(distribution.values())
    if abs(total - 1.0) > TOTAL_TOLERANCE:
        raise PolicyProbabilityError(f"{who}: action probabilities sum to {total:.6g}, not 1")
    return distribution


def reports_probabilities(agent: Any) -> bool:
    """Whether ``agent`` implements ``action_probabilities`` (a :class:`StochasticPolicy`)."""
    return isinstance(agent, ReportsActionProbabilities)


def logs_probabilities(agent: Any) -> bool:
    """Whether ``agent`` implements ``last_action_probability`` (a :class:`LoggingPolicy`)."""
    return isinstance(agent, ReportsActionProbability)
