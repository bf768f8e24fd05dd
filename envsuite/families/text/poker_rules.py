"""The rules of Kuhn poker and Leduc hold'em, apart from any env: deals, betting, payoffs.

Both games are limit poker for two players with the same betting structure, so one engine
plays both from fixed parameters (:class:`PokerGame`; :data:`KUHN_POKER` and
:data:`LEDUC_HOLDEM`). The changing state (:class:`PokerState`) follows OpenSpiel's game
interface: ``clone()``, ``is_chance()``, ``chance_outcomes()``, ``current_player()``,
``legal_actions(player)``, ``apply(action)``, ``is_terminal()``, ``returns()`` and
``information_state(player)``. Chance is explicit: a deal is a chance node with listed
probabilities, which the env samples with its generator and the solvers enumerate. This
module knows nothing of Gymnasium, text prompts or random generators.

Betting, in each round: player 0 acts first. With no bet to answer a player may check or
bet; facing a bet it may fold, call or (while the round has had fewer than ``max_raises``
bets and raises) raise. A round ends after two checks or a call; a fold ends the game.
Every bet or raise in round ``r`` adds ``raise_sizes[r]`` over the amount to call.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

#: Action indices, shared by both games and by the envs' vector mode.
FOLD, CALL, RAISE = 0, 1, 2
NUM_ACTIONS = 3
#: One letter per action in information-state keys (a check is a call of nothing).
ACTION_LETTERS = ("f", "c", "r")
#: Player index of chance in :meth:`PokerState.current_player`.
CHANCE = -1
#: Player index once the game is over.
TERMINAL = -2
RANK_NAMES = "JQKA"
SUIT_NAMES = "sh"


@dataclass(frozen=True)
class PokerGame:
    """The fixed parameters of a game (they go into the spec hash through the env id).

    Attributes:
        name: The game's name.
        ranks: Card ranks (J, Q, K, ...), lowest first.
        suits: Suits per rank; the deck holds ``ranks * suits`` cards.
        raise_sizes: The size of a bet or raise in each betting round (one round per entry).
        max_raises: Bets and raises allowed per round.
        ante: What each player puts in before the deal.
        public_cards: 1 when a public card is dealt before the second round (Leduc), else 0.

    """

    name: str
    ranks: int
    suits: int
    raise_sizes: tuple[int, ...]
    max_raises: int
    ante: int = 1
    public_cards: int = 0

    @property
    def deck(self) -> tuple[int, ...]:
        """Card ids: card ``c`` has rank ``c // suits`` and suit ``c % suits``."""
        return tuple(range(self.ranks * self.suits))

    @property
    def rounds(self) -> int:
        """Betting rounds."""
        return len(self.raise_sizes)

    def card_name(self, card: int) -> str:
        """``K`` (one suit) or ``Kh`` (several suits)."""
        rank = RANK_NAMES[card // self.suits]
        return rank if self.suits == 1 else rank + SUIT_NAMES[card % self.suits]

    def rank(self, card: int) -> int:
        """The rank of ``card`` (0 is the lowest)."""
        return card // self.suits

    def initial_state(self) -> PokerState:
        """The state before the deal (a chance node)."""
        return PokerState(self)


#: Kuhn (1950): J, Q, K; ante 1; one round with one bet of 1.
KUHN_POKER = PokerGame(name="kuhn_poker", ranks=3, suits=1, raise_sizes=(1,), max_raises=1)
#: Leduc hold'em (Southey et al., 2005): two suits of J, Q, K; ante 1; raises of 2 then 4,
#: at most two per round; a public card between the rounds; a pair beats a high card.
LEDUC_HOLDEM = PokerGame(
    name="leduc_holdem", ranks=3, suits=2, raise_sizes=(2, 4), max_raises=2, public_cards=1
)


class PokerState:
    """A game in progress: the cards dealt, the bets and the betting history.

    Attributes:
        game: The game's parameters.
        private: The private card of each player dealt so far.
        public: The public card once dealt, else None.
        rounds: The actions of each betting round so far (lists of FOLD / CALL / RAISE).
        contributions: What each player has put in the pot.
        folded: The player who folded, else None.

    """

    __slots__ = ("_mover", "contributions", "folded", "game", "private", "public", "rounds")

    def __init__(self, game: PokerGame) -> None:
        self.game = game
        self.private: list[int] = []
        self.public: int | None = None
        self.rounds: list[list[int]] = [[]]
        self.contributions = [game.ante, game.ante]
        self.folded: int | None = None
        self._mover = CHANCE  # who acts next, kept by _refresh after every change

    def clone(self) -> PokerState:
        """An independent copy."""
        other = PokerState.__new__(PokerState)
        other.game = self.game
        other.private = list(self.private)
        other.public = self.public
        other.rounds = [list(actions) for actions in self.rounds]
        other.contributions = list(self.contributions)
        other.folded = self.folded
        other._mover = self._mover
        return other

    # -- whose turn --------------------------------------------------------------------
    def _round_over(self) -> bool:
        actions = self.rounds[-1]
        if len(actions) < 2:
            return False
        return actions[-1] == CALL  # two checks, or a call of a bet

    def _refresh(self) -> None:
        """Work out who acts next (after a deal, a bet or a forfeit)."""
        if self.folded is not None:
            self._mover = TERMINAL
        elif len(self.private) < 2:
            self._mover = CHANCE
        elif self._round_over():
            if len(self.rounds) == self.game.rounds:
                self._mover = TERMINAL
            else:
                self._mover = CHANCE  # the public card (Leduc)
        else:
            self._mover = len(self.rounds[-1]) % 2

    def is_terminal(self) -> bool:
        """Whether the game is over (a fold, or the last round's betting closed)."""
        return self._mover == TERMINAL

    def is_chance(self) -> bool:
        """Whether a card is to be dealt next."""
        return self._mover == CHANCE

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards that may be dealt next, each with its probability (uniform)."""
        if not self.is_chance():
            raise ValueError("not a chance node")
        used = {*self.private, *(() if self.public is None else (self.public,))}
        left = [card for card in self.game.deck if card not in used]
        return [(card, 1.0 / len(left)) for card in left]

    def current_player(self) -> int:
        """0 or 1, :data:`CHANCE` or :data:`TERMINAL`."""
        return self._mover

    def forfeit(self, player: int) -> None:
        """``player`` gives up the hand (a fold, whatever the betting)."""
        self.folded = player
        self._refresh()

    # -- moves -------------------------------------------------------------------------
    def facing_bet(self) -> bool:
        """Whether the player to act faces a bet or raise it has not called."""
        return self.contributions[0] != self.contributions[1]

    def _raises(self) -> int:
        return sum(1 for action in self.rounds[-1] if action == RAISE)

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions of ``player`` (default: the player to act), ascending.

        Empty for the player not to act, at chance nodes and once the game is over.
        """
        mover = self.current_player()
        if mover < 0 or (player is not None and player != mover):
            return []
        can_raise = self._raises() < self.game.max_raises
        if self.facing_bet():
            return [FOLD, CALL, RAISE] if can_raise else [FOLD, CALL]
        return [CALL, RAISE] if can_raise else [CALL]

    def illegal_reason(self, action: int) -> str | None:
        """Why ``action`` is illegal for the player to act, or None."""
        if self.current_player() < 0:
            return "no player is to act"
        if action == FOLD and not self.facing_bet():
            return "there is no bet to fold to; check or bet"
        if action == RAISE and self._raises() >= self.game.max_raises:
            limit = self.game.max_raises
            plural = "raise" if limit == 1 else "raises"
            return f"this round has had its {limit} {plural}; call or fold"
        if action not in (FOLD, CALL, RAISE):
            return f"unknown action {action}"
        return None

    def apply(self, action: int) -> None:
        """Deal ``action`` (a card) at a chance node, else play it for the player to act.

        Raises:
            ValueError: the card cannot be dealt or the action is illegal.
        """
        if self.is_chance():
            dealt = action in self.private or action == self.public
            if dealt or not 0 <= action < self.game.ranks * self.game.suits:
                raise ValueError(f"card {action} cannot be dealt now")
            if len(self.private) < 2:
                self.private.append(action)
            else:
                self.public = action
                self.rounds.append([])
            self._refresh()
            return
        reason = self.illegal_reason(action)
        if reason is not None:
            raise ValueError(f"illegal action {action}: {reason}")
        player = self.current_player()
        other = 1 - player
        if action == FOLD:
            self.folded = player
        elif action == CALL:
            self.contributions[player] = self.contributions[other]
        else:
            size = self.game.raise_sizes[len(self.rounds) - 1]
            self.contributions[player] = self.contributions[other] + size
        self.rounds[-1].append(action)
        self._refresh()

    # -- the end -----------------------------------------------------------------------
    def hand_strength(self, player: int) -> tuple[int, int]:
        """(pair with the public card, rank): higher wins the showdown."""
        card = self.private[player]
        paired = self.public is not None and self.game.rank(card) == self.game.rank(self.public)
        return (int(paired), self.game.rank(card))

    def winner(self) -> int | None:
        """The winning player once the game is over; None for a split pot or before."""
        if not self.is_terminal():
            return None
        if self.folded is not None:
            return 1 - self.folded
        mine, theirs = self.hand_strength(0), self.hand_strength(1)
        if mine == theirs:
            return None
        return 0 if mine > theirs else 1

    def returns(self) -> tuple[float, float]:
        """Chips won by each player (zero-sum); (0, 0) before the end."""
        if not self.is_terminal():
            return (0.0, 0.0)
        winner = self.winner()
        if winner is None:
            return (0.0, 0.0)
        won = float(self.contributions[1 - winner])
        return (won, -won) if winner == 0 else (-won, won)

    # -- what a player knows -----------------------------------------------------------
    def history_text(self) -> str:
        """The betting so far as letters, rounds joined by ``/`` (``cr/rc``)."""
        return "/".join("".join(ACTION_LETTERS[a] for a in actions) for actions in self.rounds)

    def information_state(self, player: int) -> str:
        """What ``player`` knows, as a key: own card, public card (or ``?``), the betting.

        Kuhn: ``K:cr``; Leduc: ``Qh:Ks:cc/r`` (``?`` before the public card is dealt).
        The key names only what the player has seen, so a policy keyed on it cannot use
        the opponent's card.
        """
        own = self.game.card_name(self.private[player]) if len(self.private) > player else "?"
        if self.game.public_cards == 0:
            return f"{own}:{self.history_text()}"
        public = "?" if self.public is None else self.game.card_name(self.public)
        return f"{own}:{public}:{self.history_text()}"

    def canonical(self) -> str:
        """A canonical text of the whole state (cards included)."""
        cards = ",".join(str(card) for card in self.private)
        return f"{self.game.name}|{cards}|{self.public}|{self.history_text()}|{self.folded}"

    def digest(self) -> str:
        """sha256 hex of :meth:`canonical`."""
        return hashlib.sha256(self.canonical().encode("utf-8")).hexdigest()
