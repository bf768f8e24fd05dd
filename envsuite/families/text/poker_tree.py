"""The whole game tree of a poker game, enumerated for solvers, and exploitability over it.

In both games the betting rules do not depend on the cards, so the tree factors into a
small *public tree* (the betting sequences) and the *worlds* (every full deal of chance:
both private cards and the public card, each with its probability). Every public node
holds, per world, the information state of the player to act; tables indexed by
information state (a policy, regrets) are then gathered and scattered with numpy over all
worlds at once. An information state never spans two public nodes, because it names the
whole betting history.

A policy is a :class:`TabularPolicy`: one row of action probabilities (fold, call, raise)
per information state of the game, keyed by
:meth:`~envsuite.families.text.poker_rules.PokerState.information_state`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from envsuite.families.text.poker_rules import NUM_ACTIONS, PokerGame, PokerState


@dataclass
class PublicNode:
    """A betting sequence: who acts and, per world, in which information state.

    Attributes:
        player: The player to act (0 or 1), or -1 at a terminal node.
        actions: The legal actions (the same in every world).
        children: The node after each legal action.
        infosets: Per world, the row of the acting player's information state.
        payoff: At a terminal node, player 0's chips won in each world.

    """

    player: int
    actions: tuple[int, ...] = ()
    children: list[PublicNode] = field(default_factory=list)
    infosets: np.ndarray | None = None
    payoff: np.ndarray | None = None


@dataclass
class GameTree:
    """A game's public tree, its worlds and its information states.

    Attributes:
        game: The game's parameters.
        root: The first betting node (after the private cards are dealt).
        world_probs: The probability of each world (full deal).
        keys: Information-state keys, one per row of a tabular policy.
        index: Key -> row.
        players: The player acting at each row.
        legal: ``(rows, 3)`` mask of the legal actions at each row.

    """

    game: PokerGame
    root: PublicNode
    world_probs: np.ndarray
    keys: list[str]
    index: dict[str, int]
    players: np.ndarray
    legal: np.ndarray

    def uniform_policy(self) -> TabularPolicy:
        """Every legal action equally likely."""
        probs = self.legal / self.legal.sum(axis=1, keepdims=True)
        return TabularPolicy(self, probs)


@dataclass
class TabularPolicy:
    """Action probabilities (fold, call, raise) at every information state of a game.

    Attributes:
        tree: The game tree the rows belong to.
        probs: ``(rows, 3)``; each row sums to 1 over the legal actions.

    """

    tree: GameTree
    probs: np.ndarray

    def action_probabilities(self, key: str) -> np.ndarray:
        """The three action probabilities at information state ``key``."""
        return self.probs[self.tree.index[key]]


def _worlds(game: PokerGame) -> list[tuple[list[int], float]]:
    """Every sequence of chance outcomes with its probability.

    Found by walking the tree with every chance outcome and, at decision nodes, the
    check/call action, which is always legal and reaches every chance node in both games.
    """
    found: list[tuple[list[int], float]] = []

    def walk(state: PokerState, outcomes: list[int], prob: float) -> None:
        if state.is_terminal():
            found.append((outcomes, prob))
            return
        if state.is_chance():
            for card, p in state.chance_outcomes():
                child = state.clone()
                child.apply(card)
                walk(child, [*outcomes, card], prob * p)
            return
        child = state.clone()
        child.apply(1)  # CALL: check or call
        walk(child, outcomes, prob)

    walk(game.initial_state(), [], 1.0)
    return found


@functools.cache
def game_tree(game: PokerGame) -> GameTree:
    """Enumerate ``game``'s public tree over all worlds (cached per game)."""
    worlds = _worlds(game)
    keys: list[str] = []
    index: dict[str, int] = {}
    players: list[int] = []
    legal_rows: list[list[int]] = []

    def deal_pending(state: PokerState, outcomes: list[int], dealt: list[int]) -> None:
        while state.is_chance():
            state.apply(outcomes[dealt[0]])
            dealt[0] += 1

    def build(states: list[PokerState], dealt: list[list[int]]) -> PublicNode:
        for state, outcome, count in zip(states, worlds, dealt, strict=True):
            deal_pending(state, outcome[0], count)
        first = states[0]
        if first.is_terminal():
            payoff = np.array([state.returns()[0] for state in states], dtype=np.float64)
            return PublicNode(player=-1, payoff=payoff)
        player = first.current_player()
        actions = tuple(first.legal_actions())
        rows = np.empty(len(states), dtype=np.int64)
        for number, state in enumerate(states):
            if state.current_player() != player or tuple(state.legal_actions()) != actions:
                raise ValueError("the betting rules depend on the cards: no public tree")
            key = state.information_state(player)
            row = index.get(key)
            if row is None:
                row = index[key] = len(keys)
                keys.append(key)
                players.append(player)
                legal_rows.append([int(a in actions) for a in range(NUM_ACTIONS)])
            rows[number] = row
        node = PublicNode(player=player, actions=actions, infosets=rows)
        for action in actions:
            children = [state.clone() for state in states]
            for child in children:
                child.apply(action)
            node.children.append(build(children, [list(count) for count in dealt]))
        return node

    starts = [game.initial_state() for _ in worlds]
    root = build(starts, [[0] for _ in worlds])
    return GameTree(
        game=game,
        root=root,
        world_probs=np.array([prob for _, prob in worlds], dtype=np.float64),
        keys=keys,
        index=index,
        players=np.array(players, dtype=np.int64),
        legal=np.array(legal_rows, dtype=np.float64),
    )


def expected_values(policy: TabularPolicy) -> np.ndarray:
    """Each player's expected chips when both play ``policy`` (the game value of it)."""
    tree = policy.tree

    def value(node: PublicNode, reach: np.ndarray) -> float:
        if node.payoff is not None:
            return float(reach @ node.payoff)
        assert node.infosets is not None
        strategy = policy.probs[node.infosets]
        return sum(
            value(child, reach * strategy[:, action])
            for action, child in zip(node.actions, node.children, strict=True)
        )

    v0 = value(tree.root, tree.world_probs.copy())
    return np.array([v0, -v0])


def best_response_values(policy: TabularPolicy) -> np.ndarray:
    """What each player wins with a best response to the other playing ``policy``.

    The best responder picks, at each of its information states, the action with the
    highest counterfactual value summed over the worlds the information state covers
    (perfect recall makes the choice below independent of the choices above).
    """
    tree = policy.tree
    rows = len(tree.keys)
    out = np.zeros(2)
    for responder in (0, 1):

        def value(node: PublicNode, reach: np.ndarray, responder: int = responder) -> np.ndarray:
            """Per world: the responder's counterfactual value (opponent and chance reach)."""
            if node.payoff is not None:
                return reach * node.payoff * (1.0 if responder == 0 else -1.0)
            assert node.infosets is not None
            if node.player != responder:
                strategy = policy.probs[node.infosets]
                total = np.zeros_like(reach)
                for action, child in zip(node.actions, node.children, strict=True):
                    total += value(child, reach * strategy[:, action])
                return total
            values = np.stack([value(child, reach) for child in node.children])
            sums = np.stack(
                [np.bincount(node.infosets, weights=row, minlength=rows) for row in values]
            )
            best = np.argmax(sums[:, node.infosets], axis=0)
            return values[best, np.arange(values.shape[1])]

        out[responder] = float(value(tree.root, tree.world_probs.copy()).sum())
    return out


def nash_conv(policy: TabularPolicy) -> float:
    """The sum over players of what a best response gains against ``policy``."""
    return float(best_response_values(policy).sum() - expected_values(policy).sum())


def exploitability(policy: TabularPolicy) -> float:
    """Half the NashConv: the mean gain of a best response, in chips per game."""
    return nash_conv(policy) / 2.0


def own_reach(policy: TabularPolicy) -> np.ndarray:
    """Per row: the probability that the acting player's own choices lead there.

    (The product of its own action probabilities along the betting history; the same in
    every world of the information state, by perfect recall.)
    """
    tree = policy.tree
    out = np.zeros(len(tree.keys))

    def walk(node: PublicNode, reach: tuple[np.ndarray, np.ndarray]) -> None:
        if node.payoff is not None:
            return
        assert node.infosets is not None
        mine = reach[node.player]
        out[node.infosets] = mine
        strategy = policy.probs[node.infosets]
        for action, child in zip(node.actions, node.children, strict=True):
            step = list(reach)
            step[node.player] = mine * strategy[:, action]
            walk(child, (step[0], step[1]))

    ones = np.ones(len(tree.world_probs))
    walk(tree.root, (ones, ones.copy()))
    return out


def seat_exploitability(policy: TabularPolicy, game_value: float) -> np.ndarray:
    """Per seat, what a best response in the other seat wins over the game value.

    Entry ``p`` depends only on ``policy``'s choices for player ``p``; the two entries sum
    to the NashConv (so their mean is :func:`exploitability`).

    Args:
        policy: The policy (its rows of both players).
        game_value: Player 0's value of the game (at an equilibrium).
    """
    best = best_response_values(policy)
    return np.array([best[1] + game_value, best[0] - game_value])
