"""CFR+ for the poker games, vectorised over worlds, and the cached equilibrium it finds.

CFR+ (Tammelin, 2014): regret matching on regrets floored at zero, alternating updates
and an average strategy weighted linearly by iteration. Every pass walks the public tree
of :mod:`~envsuite.families.text.poker_tree` once, with numpy vectors over all worlds,
so Leduc hold'em reaches an exploitability below 1e-3 in a few seconds.
"""

from __future__ import annotations

import functools

import numpy as np

from envsuite.families.text.poker_rules import PokerGame
from envsuite.families.text.poker_tree import (
    GameTree,
    PublicNode,
    TabularPolicy,
    expected_values,
    exploitability,
    game_tree,
)

#: The equilibrium the oracles play is at most this exploitable (chips per game).
TARGET_EXPLOITABILITY = 1e-4
#: Iterations between exploitability checks, and the most iterations run.
CHECK_EVERY = 50
MAX_ITERATIONS = 20_000


class CFRPlus:
    """CFR+ on one game's tree.

    Attributes:
        tree: The game tree.
        regrets: ``(rows, 3)`` cumulative regrets, floored at zero.
        strategy_sum: ``(rows, 3)`` the iteration-weighted sum of the current strategies.
        iterations: Iterations run (each updates both players once).

    """

    def __init__(self, tree: GameTree) -> None:
        self.tree = tree
        rows = len(tree.keys)
        self.regrets = np.zeros((rows, 3))
        self.strategy_sum = np.zeros((rows, 3))
        self.iterations = 0
        # Per row, the acting player's own reach times its current strategy (last walk).
        self._own_reach_sum = np.zeros((rows, 3))

    def current_strategy(self) -> np.ndarray:
        """Regret matching: positive regrets normalised; uniform over legal where none."""
        positive = np.maximum(self.regrets, 0.0) * self.tree.legal
        totals = positive.sum(axis=1, keepdims=True)
        uniform = self.tree.legal / self.tree.legal.sum(axis=1, keepdims=True)
        return np.where(totals > 0, positive / np.where(totals > 0, totals, 1.0), uniform)

    def average_policy(self) -> TabularPolicy:
        """The average strategy (the one that converges to an equilibrium)."""
        totals = self.strategy_sum.sum(axis=1, keepdims=True)
        uniform = self.tree.legal / self.tree.legal.sum(axis=1, keepdims=True)
        probs = np.where(totals > 0, self.strategy_sum / np.where(totals > 0, totals, 1.0), uniform)
        return TabularPolicy(self.tree, probs)

    def iterate(self, count: int = 1) -> None:
        """Run ``count`` iterations."""
        rows = len(self.tree.keys)
        for _ in range(count):
            self.iterations += 1
            for player in (0, 1):
                strategy = self.current_strategy()
                regret_delta = np.zeros((rows, 3))
                reach = self.tree.world_probs.copy()
                self._walk(
                    self.tree.root, player, strategy, reach, np.ones_like(reach), regret_delta
                )
                self.regrets = np.maximum(self.regrets + regret_delta, 0.0)
                mine = self.tree.players == player
                self.strategy_sum[mine] += self.iterations * self._own_reach_sum[mine]

    def _walk(
        self,
        node: PublicNode,
        player: int,
        strategy: np.ndarray,
        reach_other: np.ndarray,
        reach_own: np.ndarray,
        regret_delta: np.ndarray,
    ) -> np.ndarray:
        """Per world, ``player``'s counterfactual value; fills regrets and reach sums."""
        if node.payoff is not None:
            sign = 1.0 if player == 0 else -1.0
            return reach_other * node.payoff * sign
        assert node.infosets is not None
        rows = node.infosets
        local = strategy[rows]
        if node.player != player:
            total = np.zeros_like(reach_other)
            for action, child in zip(node.actions, node.children, strict=True):
                total += self._walk(
                    child, player, strategy, reach_other * local[:, action], reach_own, regret_delta
                )
            return total
        values = np.zeros((len(reach_other), 3))
        for action, child in zip(node.actions, node.children, strict=True):
            values[:, action] = self._walk(
                child, player, strategy, reach_other, reach_own * local[:, action], regret_delta
            )
        node_value = (values * local).sum(axis=1)
        regret = values - node_value[:, None]
        for action in node.actions:
            np.add.at(regret_delta[:, action], rows, regret[:, action])
        # Own reach is the same in every world of an information state: take any one.
        self._own_reach_sum[rows] = reach_own[:, None] * local
        return node_value

    def solve(self, target: float, max_iterations: int = MAX_ITERATIONS) -> TabularPolicy:
        """Iterate until the average policy's exploitability is at most ``target``.

        Raises:
            RuntimeError: ``max_iterations`` ran out first.
        """
        while self.iterations < max_iterations:
            self.iterate(CHECK_EVERY)
            policy = self.average_policy()
            if exploitability(policy) <= target:
                return policy
        raise RuntimeError(f"CFR+ did not reach exploitability {target} in {max_iterations}")


@functools.cache
def equilibrium(game: PokerGame) -> TabularPolicy:
    """An approximate Nash equilibrium of ``game`` (exploitability <= TARGET_EXPLOITABILITY).

    Computed by CFR+ on first use and kept in memory.
    """
    return CFRPlus(game_tree(game)).solve(TARGET_EXPLOITABILITY)


@functools.cache
def game_value(game: PokerGame) -> float:
    """Player 0's value of ``game``: the equilibrium's (within its exploitability)."""
    return float(expected_values(equilibrium(game))[0])
