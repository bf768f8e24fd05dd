"""Negotiation: buy a car from a scripted dealer with a private reservation price (text)."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
from gymnasium import spaces

from envsuite.action_parsing import capped_int, parse_index
from envsuite.families.text.negotiation_rules import (
    ARGUMENT_BOOST,
    ARGUMENTS,
    PRICE_STEP,
    Dealer,
    Move,
    Negotiation,
    best_price,
)
from envsuite.families.text.splits import Split, draw_in_split
from envsuite.families.text.text_game import InvalidAction, MoveResult, TextGameEnv

#: The dealer's concession shapes (``beta``), drawn uniformly: Boulware to Conceder.
BETAS = (0.3, 0.5, 1.0, 2.0)
#: List prices are drawn from this range (multiples of $100).
LIST_PRICES = (12_000, 40_000)
#: The reservation price is this share of the list price (drawn, then rounded down to
#: $100).
RESERVATION_SHARE = (0.70, 0.92)
#: The buyer's budget is the list price plus up to this share of it.
BUDGET_MARGIN = 0.15
#: The dealer's deadline is drawn from ``rounds - 2`` to ``rounds + DEADLINE_SLACK``.
DEADLINE_SLACK = 6
MAX_ROUNDS = 50
#: Vector mode: offers ``list price - $100 * i`` for ``i < OFFER_LEVELS``; the lowest
#: (``list price - $12,100``) is below every reservation price the draw can make.
OFFER_LEVELS = 122
#: Vector mode: after the offer levels, these kinds of message.
KINDS = ("accept", "walk_away", "arguments_only")
#: Vector mode: the argument subsets, in this order (bit j set = ``ARGUMENTS[j]`` made).
SUBSETS = tuple(
    frozenset(name for bit, name in enumerate(ARGUMENTS) if mask >> bit & 1)
    for mask in range(1 << len(ARGUMENTS))
)
PER_SUBSET = OFFER_LEVELS + len(KINDS)
VECTOR_SIZE = 8

_WALK = re.compile(
    r"\bwalk(?:ing|s)?\s+away\b|\bno\s+deal\b|\bi(?:'m|\s+am)\s+leaving\b", re.IGNORECASE
)
_ACCEPT = re.compile(r"\baccept(?:ed|s)?\b|\bagreed?\b|\bit'?s\s+a\s+deal\b", re.IGNORECASE)
_PRICE = re.compile(
    r"(?<![\w.,])\$?\s?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(\s?k\b)?", re.IGNORECASE
)
#: The words that make each argument (any case; a message may hold several).
ARGUMENT_PATTERNS = {
    "competitor": re.compile(
        r"cheaper|elsewhere|(?:another|other)\s+(?:dealer|seller|lot)|competitor"
        r"|better\s+(?:price|deal|offer)",
        re.IGNORECASE,
    ),
    "mileage": re.compile(r"mileage|\bmiles\b|odometer", re.IGNORECASE),
    "condition": re.compile(
        r"scratch|\bdents?\b|\brust|damage|\bwear\b|\bworn\b|repairs?\b|\btyres?\b|\btires?\b",
        re.IGNORECASE,
    ),
}
_PHRASES = {
    "competitor": "I found it cheaper elsewhere",
    "mileage": "the car has high mileage",
    "condition": "it has scratches and worn tires",
}


def argument_text(arguments: frozenset[str] | set[str]) -> str:
    """A sentence that makes ``arguments`` (what the oracle says)."""
    return "; ".join(_PHRASES[name] for name in ARGUMENTS if name in arguments)


def offer_text(price: int) -> str:
    """An offer in the documented grammar."""
    return f"I offer ${price:,}"


class NegotiationEnv(TextGameEnv[Move]):
    """Buy a used car from a scripted dealer: the car-dealer task of LMRL-Gym, no LLM needed.

    Description:
        The agent is the buyer. The dealer opens at the list price L and, round by round,
        concedes toward its private reservation price R (the least it takes) by a
        documented time-dependent rule (``negotiation_rules``: Boulware or Conceder,
        reaching R at its private deadline) that arguments speed up; it accepts any offer
        at least as good as its next counter-offer. Each message of the buyer is one
        round; after ``rounds`` rounds without a deal the dealer leaves. The buyer knows
        L, its own budget B (>= L) and the rules, not R, the deadline or the shape. An
        instance is (L, R, B, deadline, shape), drawn from ``self.np_random`` in the
        split by hashing that key: about 281 list prices x 60 reservation prices x 60
        budgets x 9 deadlines x 4 shapes, over 10^8 instances (at least 10^7 per split).

    Observation:
        Text (see the family base for the ``history`` modes): the dealer's reply, and in
        the state the round, the budget, the list price, the dealer's standing price,
        the buyer's last offer and the arguments made so far. ``observation_mode=
        "vector"``: ``Box(0, 1, (8,))`` float32: round / rounds, then the standing price,
        the last offer (0 if none) and the list price, each over the budget, then one flag
        per argument made (competitor, mileage, condition), then 1.0 once it is over.

    Action:
        A message in this grammar (any case; read through the family's answer grammar):
        every number is a price in dollars (``18500``, ``$18,500``, ``18.5k``; at most one
        distinct price per message) and makes an offer; ``accept`` / ``agreed`` /
        ``it's a deal`` accepts the dealer's standing price; ``walk away`` / ``no deal``
        ends without a deal. Arguments may come with any of these or alone, each counted
        once per game: a competitor (``cheaper``, ``elsewhere``, ``another dealer``,
        ``better price``), mileage (``mileage``, ``miles``, ``odometer``), condition
        (``scratch``, ``dent``, ``rust``, ``damage``, ``worn``, ``repairs``, ``tires``).
        Each distinct argument multiplies the dealer's concession exponent by 1.25 (so
        its price falls faster; never below R). Refused, in this order: more than one
        price; more than one of offer / accept / walk away; nothing of the above found;
        an offer below $1; an offer above the budget. A refused message costs the base's
        penalty and a turn, not a round. Vector mode: ``Discrete(8 * 125)``; action
        ``s * 125 + j`` makes the arguments of subset ``s`` (bit 0 competitor, bit 1
        mileage, bit 2 condition) with, for ``j < 122``, an offer of the list price minus
        ``$100 * j`` (the lowest is below every reservation price), ``j = 122`` accepting,
        ``123`` walking away, ``124`` nothing else (``info["action_mask"]`` is 0 only for
        ``s = 0, j = 124``, a message that says nothing).

    Reward:
        At a deal at price p: the normalised surplus ``(B - p) / (B - R)`` in [0, 1]
        (also ``info["score"]``); 0 without a deal; the base's penalty per refused
        message.

    Termination:
        A deal (``success`` True), the buyer walking away or the dealer leaving after
        ``rounds`` rounds (``success`` False); truncated after ``max_turns`` turns. The
        last info adds ``deal_price`` (None without a deal) and ``best_price``, the
        lowest price any buyer could get (the oracle's: all three arguments, then an
        offer of the dealer's last-round asking price in the last round).

    Arguments:
        rounds: Rounds (valid messages) before the dealer leaves (1 to 50).
        observation_mode: ``"text"`` or ``"vector"`` (see Observation and Action).
        split: ``"train"``, ``"val"`` or ``"test"`` (by hashing the instance key).
        history, max_turns, invalid_penalty, render_mode: the family base's
            (``max_turns`` at least ``rounds``; default ``3 * rounds``).

    Version history:
        v0: Initial version.

    """

    game_name = "Negotiation"
    observation_modes = ("text", "vector")

    def __init__(
        self,
        rounds: int = 8,
        observation_mode: str = "text",
        split: Split = "train",
        history: Any = "last",
        max_turns: int | None = None,
        invalid_penalty: float = 0.1,
        render_mode: str | None = None,
    ) -> None:
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
            raise ValueError(f"rounds must be an int in [1, {MAX_ROUNDS}], got {rounds!r}")
        max_turns = 3 * rounds if max_turns is None else max_turns
        if isinstance(max_turns, int) and not isinstance(max_turns, bool) and max_turns < rounds:
            raise ValueError(f"max_turns must be at least rounds ({rounds}), got {max_turns}")
        super().__init__(
            observation_mode=observation_mode,
            history=history,
            max_turns=max_turns,
            split=split,
            invalid_penalty=invalid_penalty,
            render_mode=render_mode,
        )
        self.rounds = rounds
        self.dealer = Dealer(20_000, 16_000, 21_000, rounds, 1.0, rounds)
        self.negotiation = Negotiation(self.dealer)

    # -- the game ----------------------------------------------------------------------
    def new_game(self, seed: int | None, options: dict[str, Any] | None) -> None:
        """Draw the dealer in the split; start at round 0 with the list price standing."""
        self.dealer = draw_in_split(self.game_name, self.split, self._draw, _key)
        self.negotiation = Negotiation(self.dealer)

    def _draw(self) -> Dealer:
        rng = self.np_random
        low, high = LIST_PRICES
        list_price = PRICE_STEP * int(rng.integers(low // PRICE_STEP, high // PRICE_STEP + 1))
        share = float(rng.uniform(*RESERVATION_SHARE))
        reservation = PRICE_STEP * int(list_price * share // PRICE_STEP)
        steps = int(list_price * BUDGET_MARGIN // PRICE_STEP)
        budget = list_price + PRICE_STEP * int(rng.integers(0, steps + 1))
        deadline = int(rng.integers(max(1, self.rounds - 2), self.rounds + DEADLINE_SLACK + 1))
        beta = BETAS[int(rng.integers(len(BETAS)))]
        return Dealer(list_price, reservation, budget, deadline, beta, self.rounds)

    def instance_key(self) -> str:
        """``list:reservation:budget:deadline:beta:rounds``."""
        return _key(self.dealer)

    def instructions(self) -> str:
        """The rules, the public prices and the message grammar."""
        d = self.dealer
        boost = 1 + ARGUMENT_BOOST
        return (
            "You are buying a used car from a dealer. Its list price is "
            f"${d.list_price:,}; your budget is ${d.budget:,} and you keep what you do not "
            "spend. The dealer has a private lowest price and lowers its asking price round "
            "by round; it accepts any offer at least as good as its next asking price. Each "
            f"message you send is one round; after {d.rounds} rounds without a deal the "
            "dealer leaves.\n"
            "Messages: make an offer with a price ('I offer $18,500'; every number is read "
            "as your price, one price per message), 'accept' the dealer's current price, or "
            "'walk away'. Arguments make the dealer concede faster (each counts once, "
            f"x{boost:g} on its concession exponent): that you found it cheaper elsewhere, "
            "that the car has high mileage, that it has scratches or worn tires. They may "
            "come alone or with an offer."
        )

    def state_text(self) -> str:
        """The round, the public prices, the standing price, the last offer, the arguments."""
        n = self.negotiation
        offer = "none" if n.last_offer is None else f"${n.last_offer:,}"
        heard = ", ".join(name for name in ARGUMENTS if name in n.heard) or "none"
        lines = [
            f"Round {n.round} of {self.dealer.rounds}.",
            f"List price: ${self.dealer.list_price:,}. Your budget: ${self.dealer.budget:,}.",
            f"Dealer's asking price: ${n.standing:,}. Your last offer: {offer}.",
            f"Arguments made: {heard}.",
        ]
        if n.price is not None:
            lines.append(f"Deal at ${n.price:,}.")
        elif n.over:
            lines.append("No deal.")
        return "\n".join(lines)

    def parse_move(self, answer: str) -> Move:
        """A message in the documented grammar, checked against the rules."""
        prices = {_price(*found) for found in _PRICE.findall(answer)}
        if len(prices) > 1:
            named = ", ".join(f"${p:,}" for p in sorted(prices))
            raise InvalidAction(f"the message names more than one price ({named}); name one")
        arguments = frozenset(
            name for name, pattern in ARGUMENT_PATTERNS.items() if pattern.search(answer)
        )
        move = Move(
            arguments=arguments,
            offer=prices.pop() if prices else None,
            accept=bool(_ACCEPT.search(answer)),
            walk_away=bool(_WALK.search(answer)),
        )
        reason = self.negotiation.illegal_reason(move)
        if reason is not None:
            raise InvalidAction(reason)
        return move

    def vector_spaces(self) -> tuple[spaces.Space[Any], spaces.Space[Any]]:
        """The vector observation and the discretised messages (see Action)."""
        observation = spaces.Box(0.0, 1.0, (VECTOR_SIZE,), np.float32)
        return observation, spaces.Discrete(len(SUBSETS) * PER_SUBSET)

    def vector_observation(self) -> np.ndarray:
        """The round, the prices over the budget, the arguments made, whether it is over."""
        n, d = self.negotiation, self.dealer
        budget = float(d.budget)
        heard = [float(name in n.heard) for name in ARGUMENTS]
        return np.array(
            [
                n.round / d.rounds,
                n.standing / budget,
                (n.last_offer or 0) / budget,
                d.list_price / budget,
                *heard,
                float(n.over),
            ],
            dtype=np.float32,
        )

    def parse_vector_move(self, action: Any) -> Move:
        """The message an action index names (see Action), checked against the rules."""
        index = parse_index(action, len(SUBSETS) * PER_SUBSET, "action")
        move = vector_move(self.dealer, index)
        reason = self.negotiation.illegal_reason(move)
        if reason is not None:
            raise InvalidAction(reason)
        return move

    def legal_move_mask(self) -> np.ndarray:
        """Every message is legal but the empty one (nothing at all is legal at the end)."""
        mask = np.ones(len(SUBSETS) * PER_SUBSET, dtype=np.int8)
        mask[PER_SUBSET - 1] = 0
        if self.negotiation.over:
            mask[:] = 0
        return mask

    def encode_move(self, move: Move) -> Any:
        """``move`` as this env's action: text, or the index of the same message."""
        if self.text_mode:
            parts = [argument_text(move.arguments)] if move.arguments else []
            if move.offer is not None:
                parts.append(offer_text(move.offer))
            elif move.accept:
                parts.append("I accept")
            elif move.walk_away:
                parts.append("I walk away")
            return ". ".join(parts) + "."
        subset = SUBSETS.index(frozenset(move.arguments))
        if move.offer is not None:
            level = (self.dealer.list_price - move.offer) // PRICE_STEP
            level = min(max(level, 0), OFFER_LEVELS - 1)
            return subset * PER_SUBSET + level
        kind = "accept" if move.accept else "walk_away" if move.walk_away else "arguments_only"
        return subset * PER_SUBSET + OFFER_LEVELS + KINDS.index(kind)

    def play(self, move: Move) -> MoveResult:
        """The dealer's answer; at the end the normalised surplus as the reward."""
        reply = self.negotiation.respond(move)
        n = self.negotiation
        if not n.over:
            return MoveResult(reply)
        score = self.dealer.score(n.price)
        return MoveResult(reply, reward=score, done=True, success=n.price is not None)

    def score(self, success: bool) -> float:
        """The normalised surplus ``(B - price) / (B - R)``; 0 without a deal."""
        return self.dealer.score(self.negotiation.price)

    def final_info(self) -> dict[str, Any]:
        """The deal's price (None without one) and the lowest price any buyer could get."""
        return {"deal_price": self.negotiation.price, "best_price": best_price(self.dealer)}


def vector_move(dealer: Dealer, index: int) -> Move:
    """The message of vector action ``index`` (see the env's Action)."""
    subset, kind = divmod(index, PER_SUBSET)
    arguments = SUBSETS[subset]
    if kind < OFFER_LEVELS:
        return Move(arguments=arguments, offer=max(1, dealer.list_price - PRICE_STEP * kind))
    name = KINDS[kind - OFFER_LEVELS]
    return Move(arguments=arguments, accept=name == "accept", walk_away=name == "walk_away")


def _key(dealer: Dealer) -> str:
    return (
        f"{dealer.list_price}:{dealer.reservation}:{dealer.budget}:{dealer.deadline}:"
        f"{dealer.beta:g}:{dealer.rounds}"
    )


def _price(number: str, fraction: str, thousands: str) -> int:
    """Whole dollars: cents are dropped; ``k`` multiplies by 1000 (``18.5k`` is 18500)."""
    digits = number.replace(",", "")
    value = capped_int(digits)
    if not thousands:
        return value
    return value * 1000 + int((fraction[:3] or "0").ljust(3, "0"))
