"""Negotiation-v0: the dealer's documented strategy, the message grammar, and the oracle's
best response proven optimal by exhaustive search over every message sequence."""

from __future__ import annotations

import copy
import itertools

import pytest

import envsuite
from envsuite.families.text.negotiation import BETAS, NegotiationEnv
from envsuite.families.text.negotiation_oracle import negotiation_oracle
from envsuite.families.text.negotiation_rules import (
    ARGUMENTS,
    Dealer,
    Move,
    Negotiation,
    best_price,
    best_response,
)

SMALL = dict(list_price=2000, reservation=1500, budget=2200)
#: Offers tried by the exhaustive search: every multiple of $100 from R - $200 to the
#: budget, off-grid amounts around them, and $1.
OFFERS = (
    1,
    1300,
    1400,
    1449,
    1500,
    1501,
    1550,
    1599,
    1600,
    1650,
    1700,
    1800,
    1900,
    2000,
    2100,
    2200,
)


def every_move() -> list[Move]:
    subsets = [
        frozenset(c)
        for size in range(len(ARGUMENTS) + 1)
        for c in itertools.combinations(ARGUMENTS, size)
    ]
    moves = []
    for arguments in subsets:
        if arguments:
            moves.append(Move(arguments=arguments))
        moves += [Move(arguments=arguments, offer=offer) for offer in OFFERS]
        moves += [Move(arguments=arguments, accept=True), Move(arguments=arguments, walk_away=True)]
    return moves


MOVES = every_move()


def best_by_search(negotiation: Negotiation, memo: dict) -> float:
    """The highest score any sequence of messages reaches from ``negotiation``."""
    key = (negotiation.round, frozenset(negotiation.heard), negotiation.standing)
    if key in memo:
        return memo[key]
    best = 0.0
    for move in MOVES:
        if negotiation.illegal_reason(move) is not None:
            continue
        after = copy.deepcopy(negotiation)
        after.respond(move)
        value = after.dealer.score(after.price) if after.over else best_by_search(after, memo)
        best = max(best, value)
    memo[key] = best
    return best


def play(dealer: Dealer, moves: list[Move]) -> Negotiation:
    negotiation = Negotiation(dealer)
    for move in moves:
        negotiation.respond(move)
    return negotiation


@pytest.mark.parametrize("rounds", [1, 2, 3, 4])
@pytest.mark.parametrize("beta", BETAS)
def test_the_best_response_is_optimal_against_every_message_sequence(rounds, beta):
    for deadline in range(1, rounds + 3):
        dealer = Dealer(**SMALL, deadline=deadline, beta=beta, rounds=rounds)
        oracle = play(dealer, best_response(dealer))
        assert oracle.price == best_price(dealer)
        assert dealer.score(oracle.price) == best_by_search(Negotiation(dealer), {})


def test_the_asking_price_falls_from_the_list_price_to_the_reservation():
    dealer = Dealer(20_000, 15_000, 21_000, deadline=6, beta=0.5, rounds=8)
    prices = [dealer.asking(t, 0) for t in range(9)]
    assert prices[0] == 20_000 and prices[6] == prices[8] == 15_000
    assert prices == sorted(prices, reverse=True) and all(p % 100 == 0 for p in prices)
    # Boulware (beta < 1) holds out longer than Conceder (beta > 1).
    conceder = Dealer(20_000, 15_000, 21_000, deadline=6, beta=2.0, rounds=8)
    assert dealer.asking(2, 0) > conceder.asking(2, 0)


def test_arguments_speed_concession_boundedly_and_count_once():
    dealer = Dealer(20_000, 15_000, 21_000, deadline=6, beta=0.5, rounds=8)
    asks = [dealer.asking(3, k) for k in range(5)]
    assert asks[0] > asks[1] > asks[2] > asks[3] == asks[4] >= 15_000
    negotiation = Negotiation(dealer)
    negotiation.respond(Move(arguments=frozenset({"mileage"})))
    negotiation.respond(Move(arguments=frozenset({"mileage"})))
    assert negotiation.heard == {"mileage"} and negotiation.standing == dealer.asking(2, 1)


def test_the_dealer_accepts_any_offer_at_least_its_next_asking_price():
    dealer = Dealer(20_000, 15_000, 21_000, deadline=4, beta=1.0, rounds=8)
    below = Negotiation(dealer)
    below.respond(Move(offer=dealer.asking(1, 0) - 1))
    assert below.price is None and below.standing == dealer.asking(1, 0)
    at = Negotiation(dealer)
    at.respond(Move(offer=dealer.asking(1, 0)))
    assert at.price == dealer.asking(1, 0)


def test_accepting_pays_the_standing_price_and_the_dealer_leaves_after_the_last_round():
    dealer = Dealer(20_000, 15_000, 21_000, deadline=4, beta=1.0, rounds=2)
    negotiation = play(dealer, [Move(offer=1), Move(accept=True)])
    assert negotiation.price == dealer.asking(1, 0)
    gone = play(dealer, [Move(offer=1), Move(offer=1)])
    assert gone.over and gone.price is None and gone.walked == "dealer"


@pytest.mark.parametrize(
    ("message", "offer", "accept", "walk", "arguments"),
    [
        ("I offer 18500", 18_500, False, False, set()),
        ("I can pay $18,500.", 18_500, False, False, set()),
        ("How about 18.5k?", 18_500, False, False, set()),
        ("accept", None, True, False, set()),
        ("OK, it's a deal", None, True, False, set()),
        ("I'll walk away", None, False, True, set()),
        ("I found it cheaper elsewhere", None, False, False, {"competitor"}),
        (
            "The car has high mileage and a dent. I offer $15,000",
            15_000,
            False,
            False,
            {"mileage", "condition"},
        ),
    ],
)
def test_messages_in_the_documented_grammar(message, offer, accept, walk, arguments):
    env = NegotiationEnv()
    env.reset(seed=0)
    move = env.parse_move(message)
    assert (move.offer, move.accept, move.walk_away, set(move.arguments)) == (
        offer,
        accept,
        walk,
        arguments,
    )


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        ("I offer 18000 or 19000", "the message names more than one price ($18,000, $19,000)"),
        ("accept 18000", "make one of: an offer, accepting, walking away (not several)"),
        ("hello", "no offer, acceptance, argument or walking away found"),
        ("I offer 0", "an offer must be at least $1"),
        ("I offer $99,999,999", "an offer must not exceed your budget"),
    ],
)
def test_refused_messages_name_their_rule_and_cost_no_round(message, reason):
    env = envsuite.make("envsuite/Negotiation-v0")
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step(message)
    assert info["parse_error"].startswith(reason) and reward == pytest.approx(-0.1)
    assert env.unwrapped.negotiation.round == 0 and not terminated


def test_no_secret_in_the_observation_or_info_before_the_end():
    env = envsuite.make("envsuite/Negotiation-v0", history="full")
    observation, info = env.reset(seed=3)
    dealer = env.unwrapped.dealer
    observation, _, _, _, info = env.step("I offer $1")
    for secret in (dealer.reservation, best_price(dealer)):
        assert f"{secret:,}" not in observation.replace(f"${dealer.list_price:,}", "")
        assert secret not in info.values()


def test_the_oracle_reaches_the_best_price_on_every_seed():
    env = envsuite.make("envsuite/Negotiation-v0")
    oracle = negotiation_oracle(env)
    scores = []
    for seed in range(200):
        observation, info = env.reset(seed=seed)
        oracle.reset(seed=seed)
        terminated = truncated = False
        while not (terminated or truncated):
            observation, _, terminated, truncated, info = env.step(oracle.act(observation, info))
        assert info["success"] and info["deal_price"] == info["best_price"]
        scores.append(info["score"])
    print(f"oracle mean normalised surplus over 200 seeds: {sum(scores) / len(scores):.3f}")
    assert 0 < min(scores) <= max(scores) <= 1


def test_splits_are_disjoint_by_hashing():
    keys = {}
    for split in ("train", "val", "test"):
        env = NegotiationEnv(split=split)
        keys[split] = set()
        for seed in range(30):
            env.reset(seed=seed)
            keys[split].add(env.instance_key())
    assert not keys["train"] & keys["val"] and not keys["train"] & keys["test"]
    assert not keys["val"] & keys["test"]


@pytest.mark.parametrize("kwargs", [{"rounds": 0}, {"rounds": 8, "max_turns": 5}])
def test_bad_arguments_are_refused(kwargs):
    with pytest.raises(ValueError):
        NegotiationEnv(**kwargs)


def test_the_vector_oracle_reaches_the_best_price_too():
    env = envsuite.make("envsuite/Negotiation-v0", observation_mode="vector")
    oracle = negotiation_oracle(env)
    for seed in range(100):
        observation, info = env.reset(seed=seed)
        assert observation.shape == (8,) and info["action_mask"][124] == 0
        terminated = truncated = False
        while not (terminated or truncated):
            observation, _, terminated, truncated, info = env.step(oracle.act(observation, info))
            assert info["parse_error"] is None
        assert info["deal_price"] == info["best_price"]


def test_vector_actions_name_the_documented_messages():
    env = NegotiationEnv(observation_mode="vector")
    env.reset(seed=0)
    dealer = env.dealer
    assert env.parse_vector_move(0) == Move(offer=dealer.list_price)
    assert env.parse_vector_move(7 * 125 + 3) == Move(
        arguments=frozenset(ARGUMENTS), offer=dealer.list_price - 300
    )
    assert env.parse_vector_move(2 * 125 + 122) == Move(
        arguments=frozenset({"mileage"}), accept=True
    )
    assert env.parse_vector_move(123) == Move(walk_away=True)
    # The lowest offer level is below every reservation price the draw makes.
    assert dealer.list_price - 100 * 121 < dealer.reservation
