"""The car-dealer negotiation, apart from any env: the dealer's strategy and the deal.

The agent is the buyer; a scripted dealer sells one car. Everything is in whole dollars.

The dealer (all fixed when the game is drawn):

- ``list_price`` L: its opening ask, shown to the buyer;
- ``reservation`` R < L: the least it will ever take (private);
- ``deadline`` T: the round at which its asking price reaches R (private);
- ``beta``: its concession shape (private): below 1 Boulware (holds out, then concedes
  near the deadline), above 1 Conceder (concedes early).

Its asking price after the buyer's ``t``-th message, with ``k`` distinct arguments heard
so far (``c(0) = L``), is::

    c_k(t) = R + ceil100((L - R) * (1 - (min(t, T) / T) ** (1 / beta_k))),
    beta_k = beta * (1 + ARGUMENT_BOOST * k)

(``ceil100`` rounds up to a multiple of $100): it falls from L toward R, reaches R at
round T, and falls faster for every distinct argument the buyer has made (three at most:
a competitor's lower price, high mileage, wear and damage; repeating one does nothing).

Each buyer message (a round, ``t = 1, 2, ...``) is one :class:`Move`: any arguments, and
at most one of: an offer of ``x`` dollars, accepting the dealer's standing price, walking
away. The dealer answers in this order:

1. the arguments count (``k`` grows by the new distinct ones);
2. walking away ends the game without a deal;
3. accepting makes a deal at the standing price (the dealer's last quote, L at first);
4. an offer ``x >= c_k(t)`` is accepted: a deal at ``x`` (the dealer takes any offer at
   least as good as its next counter-offer);
5. otherwise the dealer counters with ``c_k(t)`` (the new standing price), or, after the
   buyer's last round ``rounds``, leaves without a deal.

The buyer's ``budget`` B >= L is shown to it and no offer may exceed it; its surplus is
``B - price`` and its score ``(B - price) / (B - R)`` (in [0, 1]; 0 without a deal).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

#: The arguments the dealer listens to, by name.
ARGUMENTS = ("competitor", "mileage", "condition")
#: How much each distinct argument multiplies ``beta`` by (1 + this), so three arguments
#: at most multiply it by 1.75: the dealer concedes faster, never below R.
ARGUMENT_BOOST = 0.25
#: Prices are quoted in multiples of this.
PRICE_STEP = 100


@dataclass(frozen=True)
class Dealer:
    """A drawn negotiation: the public prices and the dealer's private strategy."""

    list_price: int
    reservation: int
    budget: int
    deadline: int
    beta: float
    rounds: int

    def asking(self, t: int, arguments: int) -> int:
        """``c_k(t)``: the dealer's asking price after the buyer's ``t``-th message."""
        if t <= 0:
            return self.list_price
        beta = self.beta * (1 + ARGUMENT_BOOST * min(arguments, len(ARGUMENTS)))
        progress = (min(t, self.deadline) / self.deadline) ** (1 / beta)
        spread = (self.list_price - self.reservation) * (1 - progress)
        return self.reservation + PRICE_STEP * math.ceil(round(spread, 6) / PRICE_STEP)

    def score(self, price: int | None) -> float:
        """The buyer's normalised surplus: ``(B - price) / (B - R)``, 0 without a deal."""
        if price is None:
            return 0.0
        return max(0.0, (self.budget - price) / (self.budget - self.reservation))


@dataclass(frozen=True)
class Move:
    """One buyer message: arguments and at most one of offer / accept / walk away."""

    arguments: frozenset[str] = frozenset()
    offer: int | None = None
    accept: bool = False
    walk_away: bool = False


@dataclass
class Negotiation:
    """The state of a negotiation: the round, the arguments heard, the outcome."""

    dealer: Dealer
    round: int = 0
    heard: set[str] = field(default_factory=set)
    standing: int = 0
    price: int | None = None
    over: bool = False
    walked: str | None = None  # "buyer" or "dealer" when one left
    last_offer: int | None = None

    def __post_init__(self) -> None:
        self.standing = self.dealer.list_price

    def illegal_reason(self, move: Move) -> str | None:
        """Why ``move`` cannot be made now, or None (one reason per check, in order)."""
        if self.over:
            return "the negotiation is over"
        chosen = (move.offer is not None) + move.accept + move.walk_away
        if chosen > 1:
            return "make one of: an offer, accepting, walking away (not several)"
        if chosen == 0 and not move.arguments:
            return "no offer, acceptance, argument or walking away found"
        if move.offer is not None:
            if move.offer < 1:
                return "an offer must be at least $1"
            if move.offer > self.dealer.budget:
                return f"an offer must not exceed your budget of ${self.dealer.budget:,}"
        return None

    def respond(self, move: Move) -> str:
        """Play a legal move (a ValueError otherwise); return what the dealer says."""
        reason = self.illegal_reason(move)
        if reason is not None:
            raise ValueError(f"illegal move {move}: {reason}")
        self.round += 1
        new = sorted(move.arguments - self.heard)
        self.heard |= move.arguments
        k = len(self.heard)
        if move.walk_away:
            self.over, self.walked = True, "buyer"
            return "You walk away. No deal."
        if move.accept:
            return self._deal(self.standing, "You accept the dealer's price")
        if move.offer is not None:
            self.last_offer = move.offer
            if move.offer >= self.dealer.asking(self.round, k):
                return self._deal(move.offer, f"The dealer accepts your offer of ${move.offer:,}")
        self.standing = self.dealer.asking(self.round, k)
        heard = f"The dealer considers your point ({', '.join(new)}). " if new else ""
        if self.round >= self.dealer.rounds:
            self.over, self.walked = True, "dealer"
            return f"{heard}The dealer will not go below ${self.standing:,} and leaves. No deal."
        return f"{heard}The dealer asks ${self.standing:,}."

    def _deal(self, price: int, what: str) -> str:
        self.price, self.over = price, True
        return f"{what}: a deal at ${price:,}."


def best_price(dealer: Dealer) -> int:
    """The lowest price any buyer can get from ``dealer`` (the best response's price).

    The asking price falls with the round and with the arguments heard, and the dealer
    accepts an offer exactly when it reaches its asking price; accepting a standing price
    pays an earlier (higher) asking price. So the best is to make all three arguments and
    offer ``c_3(rounds)`` in the last round.
    """
    return dealer.asking(dealer.rounds, len(ARGUMENTS))


def best_response(dealer: Dealer) -> list[Move]:
    """The oracle's messages: all arguments first, then waiting, then the best offer.

    Round 1 makes every argument (with no offer, so nothing is settled early); rounds 2
    to ``rounds - 1`` offer $1 (always refused: R is at least $100); the last round offers
    :func:`best_price`. With ``rounds == 1`` the one message holds the arguments and the
    offer.
    """
    everything = frozenset(ARGUMENTS)
    final = best_price(dealer)
    if dealer.rounds == 1:
        return [Move(arguments=everything, offer=final)]
    waiting = [Move(offer=1)] * (dealer.rounds - 2)
    return [Move(arguments=everything), *waiting, Move(offer=final)]
