"""The Negotiation oracle: the exact best response to the dealer's documented strategy.

It reads the dealer from ``env.unwrapped.dealer`` (the private reservation price, deadline
and concession shape, as oracles may) and plays
:func:`~negotiation_rules.best_response`: every argument first, refused $1 offers while
it waits, and in the last round an offer of the dealer's last-round asking price with all
arguments heard, the lowest price any buyer can get (proven by brute force over small
round budgets in ``tests/families/text/test_negotiation.py``). It reads the round from
the env, so a refused message of another agent in between does not derail it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from envsuite.families.text.negotiation_rules import ARGUMENTS, Move, best_price


class NegotiationOracle:
    """Plays the best response in a :class:`~negotiation.NegotiationEnv`.

    Args:
        env: The env it plays in (any wrapper of a NegotiationEnv).

    """

    def __init__(self, env: Any) -> None:
        self.env = env.unwrapped

    def reset(self, seed: int | None = None) -> None:
        """Nothing to forget: the oracle reads the negotiation on every move."""

    def act(self, observation: Any, info: Mapping[str, Any]) -> Any:
        """The next message of the best response, in the env's action form."""
        negotiation = self.env.negotiation
        dealer = negotiation.dealer
        missing = frozenset(ARGUMENTS) - negotiation.heard
        if negotiation.round + 1 >= dealer.rounds:
            move = Move(arguments=missing, offer=best_price(dealer))
        elif missing:
            move = Move(arguments=missing)
        else:  # a refused lowball while waiting: $1 in text, the lowest level in vector
            move = Move(offer=1)
        return self.env.encode_move(move)


def negotiation_oracle(env: Any) -> NegotiationOracle:
    """Build the Negotiation-v0 oracle."""
    return NegotiationOracle(env)
