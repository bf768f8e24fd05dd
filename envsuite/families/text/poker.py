"""Kuhn poker and Leduc hold'em, two-player games (PettingZoo AEC) for text or vector agents."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal

import numpy as np
from gymnasium import spaces

from envsuite.action_parsing import parse_index
from envsuite.aec_env_base import EnvsuiteAECEnv, Turn
from envsuite.env_base import InvalidAction
from envsuite.families.text.poker_cfr import game_value
from envsuite.families.text.poker_rules import (
    CALL,
    FOLD,
    KUHN_POKER,
    LEDUC_HOLDEM,
    NUM_ACTIONS,
    RAISE,
    PokerGame,
)
from envsuite.families.text.poker_tree import (
    TabularPolicy,
    game_tree,
    own_reach,
    seat_exploitability,
)
from envsuite.rendering import TEXT_RENDER_MODES, checked_render_mode
from envsuite.spaces import UnicodeText

ObservationMode = Literal["text", "vector"]

AGENTS = ("player_0", "player_1")
ROLES = ("first", "second")
#: The action words; "check" and "call" are the CALL action, "bet" and "raise" RAISE.
WORDS = ("fold", "check", "call", "bet", "raise")
_WORD = re.compile(
    r"\b(?:fold(?:s|ed|ing)?|check(?:s|ed|ing)?|call(?:s|ed|ing)?|bet(?:s|ting)?"
    r"|rais(?:e|es|ed|ing))\b",
    re.IGNORECASE,
)
#: A matched word's first three letters name its action word.
_STEMS = {"fol": "fold", "che": "check", "cal": "call", "bet": "bet", "rai": "raise"}
_PAST = {"fold": "folded", "check": "checked", "call": "called", "bet": "bet", "raise": "raised"}
_UNCALLED = {"fold": FOLD, "check": CALL, "bet": RAISE}
_FACING = {"fold": FOLD, "call": CALL, "raise": RAISE}


def action_word(action: int, facing_bet: bool) -> str:
    """The word for ``action`` when the player does or does not face a bet."""
    if facing_bet:
        return ("fold", "call", "raise")[action]
    return ("fold", "check", "bet")[action]


class PokerEnv(EnvsuiteAECEnv[Any, Any, int]):
    """Two-player limit poker (the shared engine of Kuhn poker and Leduc hold'em).

    Subclasses set :attr:`game`; see their docstrings.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(TEXT_RENDER_MODES),
        "name": "poker_v0",
        "is_parallelizable": False,
    }
    game: ClassVar[PokerGame]
    rules_text: ClassVar[str]
    #: Actions a decision chooses among (fold, call, raise), for the exploitability metric.
    decision_count: ClassVar[int] = NUM_ACTIONS
    #: Distinct instances at reset (the private deals): too few to split or to hold out.
    instance_count: ClassVar[int]

    def __init__(
        self,
        observation_mode: ObservationMode = "text",
        invalid_move_penalty: float = 0.1,
        max_invalid_moves: int = 3,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if observation_mode not in ("text", "vector"):
            raise ValueError(
                f"observation_mode must be 'text' or 'vector', got {observation_mode!r}"
            )
        penalty_ok = isinstance(invalid_move_penalty, int | float) and invalid_move_penalty >= 0
        if isinstance(invalid_move_penalty, bool) or not penalty_ok:
            raise ValueError(
                f"invalid_move_penalty must be a number >= 0, got {invalid_move_penalty!r}"
            )
        limit_ok = isinstance(max_invalid_moves, int) and 0 <= max_invalid_moves <= 1000
        if isinstance(max_invalid_moves, bool) or not limit_ok:
            raise ValueError(
                f"max_invalid_moves must be an int in [0, 1000], got {max_invalid_moves!r}"
            )
        self.observation_mode = observation_mode
        self.invalid_move_penalty = float(invalid_move_penalty)
        self.max_invalid_moves = max_invalid_moves
        self.render_mode = checked_render_mode(render_mode, TEXT_RENDER_MODES)
        self.possible_agents = list(AGENTS)
        game = self.game
        deck = len(game.deck)
        #: Betting slots per round: check/bet, then every raise, then the call.
        self.slots = game.max_raises + 2
        self.vector_size = 2 + deck * (1 + game.public_cards) + game.rounds * self.slots * 2 + 1
        if observation_mode == "text":
            observation: spaces.Space[Any] = UnicodeText(4000)
            action: spaces.Space[Any] = UnicodeText(1024)
        else:
            observation = spaces.Box(0.0, 1.0, (self.vector_size,), np.float32)
            action = spaces.Discrete(NUM_ACTIONS)
        self.observation_spaces = dict.fromkeys(AGENTS, observation)
        self.action_spaces = dict.fromkeys(AGENTS, action)
        self.state = game.initial_state()
        self.state.apply(0)
        self.state.apply(1)
        self.invalid_moves = dict.fromkeys(AGENTS, 0)
        self.forfeited: str | None = None
        self.moves: list[tuple[int, str, str]] = []

    # -- episode -----------------------------------------------------------------------
    def new_episode(
        self, seed: int | None, options: dict[str, Any] | None
    ) -> tuple[str, dict[str, dict[str, Any]]]:
        """Deal the private cards (chance nodes sampled with ``np_random``)."""
        assert self.np_random is not None  # seeded by reset
        self.state = self.game.initial_state()
        self.invalid_moves = dict.fromkeys(AGENTS, 0)
        self.forfeited = None
        self.moves = []
        self._deal_pending()
        return AGENTS[0], {agent: self._info(agent) for agent in AGENTS}

    def _deal_pending(self) -> None:
        """Sample every chance node the game has reached, in order, with ``np_random``."""
        assert self.np_random is not None
        while self.state.is_chance():
            self.state.apply(sample_outcome(self.state.chance_outcomes(), self.np_random))

    def instance_key(self) -> str:
        """The cards dealt so far: the private cards, then the public card once dealt."""
        cards = [*self.state.private, *([] if self.state.public is None else [self.state.public])]
        return "/".join(self.game.card_name(card) for card in cards)

    def _info(self, agent: str) -> dict[str, Any]:
        info: dict[str, Any] = {
            "role": ROLES[AGENTS.index(agent)],
            "invalid_moves": self.invalid_moves[agent],
        }
        if self.state.is_terminal():
            mine = self.state.returns()[AGENTS.index(agent)]
            info["outcome"] = "win" if mine > 0 else "loss" if mine < 0 else "draw"
            info["forfeit"] = self.forfeited is not None
        return info

    # -- what a player knows (the hook the oracle and the exploitability metric use) ----
    def information_state_key(self, agent: str) -> str:
        """``agent``'s information state: own card, public card and the betting.

        The key names nothing the player has not seen; the oracle's policy and the
        exploitability metric are tables keyed on it, so they cannot use hidden cards.
        """
        return self.state.information_state(AGENTS.index(agent))

    def strategy_exploitability(
        self, strategy: Mapping[str, Sequence[float]], players: Sequence[int] = (0, 1)
    ) -> float:
        """The exploitability (chips per game) of a strategy given per information state.

        For each seat ``p`` in ``players``: what a best response in the other seat wins
        against the strategy's choices for ``p``, over the game value (the CFR+
        equilibrium's, within its 1e-4); the mean over ``players``. With both seats this
        is the usual exploitability, half the NashConv; with one seat it needs nothing of
        the strategy in the other seat.

        Args:
            strategy: Information-state key -> the probabilities of (fold, call, raise);
                illegal actions' weight is dropped and each row renormalised. Keys not
                given are played uniformly over the legal actions.
            players: The seats (0, 1) whose play is evaluated.
        """
        gains = seat_exploitability(self.tabular_policy(strategy), game_value(self.game))
        return float(np.mean([gains[player] for player in players]))

    def information_states(
        self, strategy: Mapping[str, Sequence[float]]
    ) -> list[tuple[str, int, float]]:
        """Every information state: (key, the player acting there, its own reach).

        The own reach is the probability that the player's own choices under ``strategy``
        (completed as in :meth:`strategy_exploitability`) lead there; where it is 0, what
        the strategy does there cannot matter.
        """
        policy = self.tabular_policy(strategy)
        reach = own_reach(policy)
        tree = policy.tree
        return [
            (key, int(tree.players[row]), float(reach[row])) for row, key in enumerate(tree.keys)
        ]

    @classmethod
    def tabular_policy(cls, strategy: Mapping[str, Sequence[float]]) -> TabularPolicy:
        """``strategy`` as a policy over the whole game (see :meth:`strategy_exploitability`)."""
        tree = game_tree(cls.game)
        policy = tree.uniform_policy()
        if not strategy:
            return policy
        unknown = [key for key in strategy if key not in tree.index]
        if unknown:
            raise ValueError(f"{unknown[0]!r} is no information state of {cls.game.name}")
        rows = np.array([tree.index[key] for key in strategy], dtype=np.int64)
        weights = np.asarray(list(strategy.values()), dtype=np.float64) * tree.legal[rows]
        totals = weights.sum(axis=1)
        given = totals > 0
        policy.probs[rows[given]] = weights[given] / totals[given, None]
        return policy

    def decision_index(self, agent: str, action: Any) -> int | None:
        """The action index (fold, call, raise) ``action`` would be for ``agent`` now.

        None when ``agent`` is not to move or the action would be refused.
        """
        if self.agent_selection != agent or self.state.current_player() < 0:
            return None
        try:
            return self.parse_action(agent, action)
        except InvalidAction:
            return None

    # -- actions -----------------------------------------------------------------------
    def parse_action(self, agent: str, action: Any) -> int:
        """An action index from a word (``call``) or an index, checked legal."""
        facing = self.state.facing_bet()
        if self.observation_mode == "text":
            index = self._parse_text(action, facing)
        else:
            index = _parse_vector(action)
        reason = self.state.illegal_reason(index)
        if reason is not None:
            raise InvalidAction(f"illegal action: {reason}")
        return index

    def _parse_text(self, action: Any, facing: bool) -> int:
        if not isinstance(action, str):
            raise InvalidAction(
                f"expected one of the words {', '.join(WORDS)} as text, got {type(action).__name__}"
            )
        found = {_STEMS[match[:3].lower()] for match in _WORD.findall(action)}
        if not found:
            raise InvalidAction(f"no action found; answer with one of: {', '.join(WORDS)}")
        if len(found) > 1:
            raise InvalidAction(
                f"the answer names more than one action ({', '.join(sorted(found))}); name one"
            )
        word = found.pop()
        table = _FACING if facing else _UNCALLED
        if word not in table:
            if facing:
                raise InvalidAction(f"illegal action: you face a bet, so you cannot {word}")
            raise InvalidAction(f"illegal action: there is no bet to {word}; check or bet")
        return table[word]

    def encode_action(self, action: int) -> Any:
        """``action`` (an index) as this env's action: the word now, or the index."""
        if self.observation_mode == "text":
            return action_word(action, self.state.facing_bet())
        return action

    def legal_actions(self, agent: str) -> list[Any] | None:
        """The legal actions of the player to act, as words or indices."""
        if self.state.current_player() != AGENTS.index(agent):
            return []
        return [self.encode_action(action) for action in self.state.legal_actions()]

    def apply_action(self, agent: str, parsed: int) -> Turn:
        """Play a legal action; deal the public card when the first round closes."""
        word = action_word(parsed, self.state.facing_bet())
        self.moves.append((len(self.state.rounds) - 1, agent, word))
        self.state.apply(parsed)
        self._deal_pending()
        return self._turn({})

    def apply_invalid_action(self, agent: str, message: str) -> Turn:
        """The penalty; a refusal past the limit forfeits the hand (a fold)."""
        self.invalid_moves[agent] += 1
        rewards = {agent: -self.invalid_move_penalty}
        if self.invalid_moves[agent] > self.max_invalid_moves:
            self.state.forfeit(AGENTS.index(agent))
            self.forfeited = agent
        return self._turn(rewards)

    def _turn(self, rewards: dict[str, float]) -> Turn:
        if not self.state.is_terminal():
            return Turn(
                rewards=rewards,
                infos={agent: self._info(agent) for agent in AGENTS},
                next_agent=AGENTS[self.state.current_player()],
            )
        final = dict(rewards)
        for index, agent in enumerate(AGENTS):
            final[agent] = final.get(agent, 0.0) + self.state.returns()[index]
        return Turn(
            rewards=final, terminated=AGENTS, infos={agent: self._info(agent) for agent in AGENTS}
        )

    def episode_success(self, final_infos: Mapping[str, Mapping[str, Any]]) -> bool | None:
        """Whether the hand was played out by the rules, with no forfeit (see Termination)."""
        if not self.state.is_terminal():
            return None
        return self.forfeited is None

    # -- observations ------------------------------------------------------------------
    def observe(self, agent: str) -> Any:
        """The player's cards and the betting, as text or as a vector (see Observation)."""
        index = AGENTS.index(agent)
        if self.observation_mode == "vector":
            return self._vector(index)
        return self._text(agent, index)

    def _vector(self, player: int) -> np.ndarray:
        game, state = self.game, self.state
        deck = len(game.deck)
        vector = np.zeros(self.vector_size, dtype=np.float32)
        vector[player] = 1.0
        vector[2 + state.private[player]] = 1.0
        offset = 2 + deck
        if game.public_cards:
            if state.public is not None:
                vector[offset + state.public] = 1.0
            offset += deck
        for number, actions in enumerate(state.rounds):
            for slot, action in enumerate(actions):
                if action != FOLD:
                    bit = 0 if action == CALL else 1
                    vector[offset + (number * self.slots + slot) * 2 + bit] = 1.0
        vector[-1] = float(state.current_player() == player)
        return vector

    def _betting_lines(self, agent: str) -> list[str]:
        lines = []
        for number in range(len(self.state.rounds)):
            words = [
                f"{'you' if who == agent else 'opponent'} {_PAST[word]}"
                for round_number, who, word in self.moves
                if round_number == number
            ]
            label = f"Round {number + 1}" if self.game.rounds > 1 else "Betting"
            lines.append(f"{label}: {', '.join(words) if words else '(no action yet)'}.")
        return lines

    def _text(self, agent: str, index: int) -> str:
        game, state = self.game, self.state
        order = "you act" if index == 0 else "your opponent acts"
        lines = [self.rules_text, f"You are {agent}; {order} first in every round."]
        lines.append(f"Your card: {game.card_name(state.private[index])}.")
        if game.public_cards:
            shown = "not dealt yet" if state.public is None else game.card_name(state.public)
            lines.append(f"Public card: {shown}.")
        lines += self._betting_lines(agent)
        mine, theirs = state.contributions[index], state.contributions[1 - index]
        lines.append(f"Pot: {mine + theirs} (you put in {mine}, your opponent {theirs}).")
        error = self.infos.get(agent, {}).get("parse_error") if self.infos else None
        if error:
            used = self.invalid_moves[agent]
            lines.append(
                f"Your last answer was refused ({error}). Refused answers so far: {used}; "
                f"{self.max_invalid_moves + 1} forfeit the hand."
            )
        if state.is_terminal():
            lines.append(self._result_text(index))
        elif state.current_player() == index:
            legal = [action_word(a, state.facing_bet()) for a in state.legal_actions()]
            lines.append(f"It is your turn. Legal actions: {', '.join(legal)}. Answer with one.")
        else:
            lines.append("It is your opponent's turn.")
        return "\n".join(lines)

    def _result_text(self, index: int) -> str:
        state = self.state
        chips = state.returns()[index]
        if state.folded is not None:
            folder = "You" if state.folded == index else "Your opponent"
            how = "forfeited (too many refused answers)" if self.forfeited else "folded"
            ending = f"{folder} {how}"
        else:
            other = self.game.card_name(state.private[1 - index])
            ending = f"Showdown: your opponent had {other}"
        result = "won" if chips > 0 else "lost" if chips < 0 else "split the pot,"
        amount = f" {abs(chips):g} chips" if chips else " winning nothing"
        return f"The hand is over. {ending}. You {result}{amount}."

    def render_text(self) -> str:
        """The ``ansi`` frame: every card (the whole deal), the betting and the pot."""
        game, state = self.game, self.state
        cards = " ".join(
            f"{agent}={game.card_name(card)}"
            for agent, card in zip(AGENTS, state.private, strict=False)
        )
        public = ""
        if game.public_cards:
            public = f" public={'-' if state.public is None else game.card_name(state.public)}"
        mover = state.current_player()
        status = "over" if mover < 0 else f"{AGENTS[mover]} to act"
        return (
            f"{game.name}: {cards}{public} betting={state.history_text() or '-'} "
            f"pot={sum(state.contributions)} ({status})"
        )

    def state_digest(self) -> str:
        """sha256 of the deal, the betting, the refused-move counts and any forfeit."""
        counts = ",".join(str(self.invalid_moves[agent]) for agent in AGENTS)
        text = f"{self.state.canonical()}|{counts}|{self.forfeited}"
        return hashlib.sha256(text.encode("utf-8")).hexdigest()


def sample_outcome(outcomes: Sequence[tuple[int, float]], rng: np.random.Generator) -> int:
    """One chance outcome drawn by its probability (inverse CDF of one uniform draw)."""
    u = rng.random()
    total = 0.0
    for outcome, prob in outcomes:
        total += prob
        if u < total:
            return outcome
    return outcomes[-1][0]  # u within rounding of 1


def _parse_vector(action: Any) -> int:
    return parse_index(action, NUM_ACTIONS, "action")


class KuhnPokerEnv(PokerEnv):
    """Kuhn poker (Kuhn, 1950): three cards, one bet, two players.

    Description:
        A deck of J, Q and K. Each player antes 1 chip and gets one card (a chance node:
        each card 1/3, then each remaining card 1/2, sampled with ``self.np_random``).
        ``player_0`` acts first: it checks or bets 1. After a check, ``player_1`` checks
        (showdown) or bets 1; facing a bet a player folds or calls. At the showdown the
        higher card takes the pot. The game value is -1/18 chips for ``player_0`` under
        any Nash equilibrium; a uniformly random strategy has NashConv 11/12
        (exploitability 11/24).

    Observation:
        ``observation_mode="text"``: a :class:`~envsuite.spaces.UnicodeText` message per
        player: the rules, its seat, its own card, the betting so far in words
        (``you checked, opponent bet``), the pot, the reason its own last answer was refused
        (when it was) and, on its turn, the legal actions as words; at the end the result
        (and the opponent's card after a showdown). ``observation_mode="vector"``: the
        information-state tensor, ``Box(0, 1, (12,))`` float32: the seat (2), the own
        card (one-hot over the 3 cards), then per round 3 betting
        slots of two bits (check/call, bet/raise), and 1.0 when it is this player's turn.
        Both are made from the same engine state and show only what the player has seen.

    Action:
        Text mode: one of the words ``check`` or ``bet`` (no bet to answer) or ``fold``,
        ``call`` or ``raise`` (facing a bet); case and endings are ignored (``I call.``,
        ``Raising``). Vector mode: ``Discrete(3)``: 0 fold, 1 check/call, 2 bet/raise.
        The player to act finds ``info["legal_actions"]`` (text) or ``info["action_mask"]``
        (vector; all zeros for the other player). A refused action is checked in this
        order, one reason each: not text (vector: not an integer, or out of range); no
        action word; more than one action word; a word that does not fit (``call`` with
        no bet, ``check`` facing one); folding with no bet; a raise past the round's limit.
        Its reason is the player's ``info["parse_error"]``, it costs
        ``invalid_move_penalty`` and the same player acts again. A player may make
        ``max_invalid_moves`` refused moves per hand; the next one forfeits the hand (it
        folds, whatever the betting). An action sent for the player whose turn it is not
        is refused the same way.

    Reward:
        0 per legal action; at the end, the chips won or lost (the opponent's
        contribution to the pot, or 0 on a split pot); ``-invalid_move_penalty`` for each
        refused action, to the player that sent it.

    Termination:
        Both players terminate at a fold (or forfeit) or a showdown. Their final infos hold
        ``outcome`` (``"win"`` / ``"loss"`` / ``"draw"``), ``role``, ``forfeit`` and
        ``invalid_moves``; no info ever holds a card. The env-level ``success``
        (:meth:`episode_success`) is that the hand was played out by the rules, without a
        forfeit: poker has no goal that every good strategy reaches, so the quality of a
        strategy is measured by its chips and its **exploitability** (see
        :mod:`envsuite.evaluation.metrics.exploitability`, which estimates an agent's
        strategy from its records and computes a best response over the whole game tree).
        There is no truncation: a hand has at most 3 legal actions and refused
        ones are bounded.

    Oracle:
        The equilibrium strategy found by CFR+ (:mod:`~envsuite.families.text.poker_cfr`,
        exploitability at most 1e-4 chips per game, computed on first use and kept in
        memory), sampled with each seat's own seeded generator from the seat's
        information state (:meth:`information_state_key`), never from hidden cards.

    Splits:
        None: an instance is a deal, and Kuhn poker has 6, too few to hold any out; each
        seed draws one uniformly (``instance_key()`` names it).

    Arguments:
        observation_mode: ``"text"`` for LLM agents or ``"vector"`` for classic agents.
        invalid_move_penalty: The cost of a refused action (>= 0).
        max_invalid_moves: Refused actions a player may make per hand before the next one
            forfeits (>= 0).
        render_mode: ``"ansi"`` (every card, the betting and the pot: a spectator's view),
            ``"rgb_array"`` (that text drawn on an image), ``"human"`` or None.

    Version history:
        v0: Initial version.

    """

    metadata: ClassVar[dict[str, Any]] = {**PokerEnv.metadata, "name": "kuhn_poker_v0"}
    game = KUHN_POKER
    instance_count = 6
    rules_text = (
        "Kuhn poker. The deck holds J, Q and K (K highest); each player antes 1 chip and "
        "gets one card. player_0 acts first. With no bet to answer you may check or bet 1; "
        "facing a bet you may fold (lose your ante) or call. After two checks or a call, "
        "the higher card wins the pot."
    )


class LeducHoldemEnv(PokerEnv):
    """Leduc hold'em (Southey et al., 2005): six cards, two rounds, one public card.

    Description:
        A deck of two suits (s, h) of J, Q and K. Each player antes 1 chip and gets one
        private card; after the first betting round one public card is dealt (chance
        nodes, uniform over the cards left, sampled with ``self.np_random``), then a
        second betting round. In each round ``player_0`` acts first; a bet or raise is 2
        chips in the first round and 4 in the second, with at most two (a bet and a
        raise) per round. At the showdown a private card that pairs the public card
        wins; otherwise the higher rank wins; equal ranks split the pot. The game value
        for ``player_0`` is about -0.0856 chips.

    Observation:
        ``observation_mode="text"``: a :class:`~envsuite.spaces.UnicodeText` message per
        player: the rules, its seat, its own card, the public card (once dealt), the
        betting so far in words (``you checked, opponent bet``), the pot, the reason its
        own last answer was refused (when it was) and, on its turn, the legal actions as
        words; at the end the result (and the opponent's card after a showdown).
        ``observation_mode="vector"``: the information-state tensor, ``Box(0, 1, (31,))``
        float32: the seat (2), the own card (one-hot over the 6 cards), the public card
        (one-hot, zeros before it is dealt), then per round 4 betting slots of two bits
        (check/call, bet/raise), and 1.0 when it is this player's turn. Both are made
        from the same engine state and show only what the player has seen.

    Action:
        Text mode: one of the words ``check`` or ``bet`` (no bet to answer) or ``fold``,
        ``call`` or ``raise`` (facing a bet); case and endings are ignored (``I call.``,
        ``Raising``). Vector mode: ``Discrete(3)``: 0 fold, 1 check/call, 2 bet/raise.
        The player to act finds ``info["legal_actions"]`` (text) or ``info["action_mask"]``
        (vector; all zeros for the other player). A refused action is checked in this
        order, one reason each: not text (vector: not an integer, or out of range); no
        action word; more than one action word; a word that does not fit (``call`` with
        no bet, ``check`` facing one); folding with no bet; a raise past the round's limit.
        Its reason is the player's ``info["parse_error"]``, it costs
        ``invalid_move_penalty`` and the same player acts again. A player may make
        ``max_invalid_moves`` refused moves per hand; the next one forfeits the hand (it
        folds, whatever the betting). An action sent for the player whose turn it is not
        is refused the same way.

    Reward:
        0 per legal action; at the end, the chips won or lost (the opponent's
        contribution to the pot, or 0 on a split pot); ``-invalid_move_penalty`` for each
        refused action, to the player that sent it.

    Termination:
        Both players terminate at a fold (or forfeit) or a showdown. Their final infos hold
        ``outcome`` (``"win"`` / ``"loss"`` / ``"draw"``), ``role``, ``forfeit`` and
        ``invalid_moves``; no info ever holds a card. The env-level ``success``
        (:meth:`episode_success`) is that the hand was played out by the rules, without a
        forfeit: poker has no goal that every good strategy reaches, so the quality of a
        strategy is measured by its chips and its **exploitability** (see
        :mod:`envsuite.evaluation.metrics.exploitability`, which estimates an agent's
        strategy from its records and computes a best response over the whole game tree).
        There is no truncation: a hand has at most 8 legal actions and refused
        ones are bounded.

    Oracle:
        The equilibrium strategy found by CFR+ (:mod:`~envsuite.families.text.poker_cfr`,
        exploitability at most 1e-4 chips per game, computed on first use and kept in
        memory), sampled with each seat's own seeded generator from the seat's
        information state (:meth:`information_state_key`), never from hidden cards.

    Splits:
        None: an instance is a deal, and Leduc hold'em has 120: 30 private deals at reset
        (its ``instance_count``), each followed by one of the 4 public cards left; too few
        to hold any out. Each seed draws one uniformly (``instance_key()`` names the cards
        dealt so far).

    Arguments:
        observation_mode: ``"text"`` for LLM agents or ``"vector"`` for classic agents.
        invalid_move_penalty: The cost of a refused action (>= 0).
        max_invalid_moves: Refused actions a player may make per hand before the next one
            forfeits (>= 0).
        render_mode: ``"ansi"`` (every card, the betting and the pot: a spectator's view),
            ``"rgb_array"`` (that text drawn on an image), ``"human"`` or None.

    Version history:
        v0: Initial version.

    """

    metadata: ClassVar[dict[str, Any]] = {**PokerEnv.metadata, "name": "leduc_holdem_v0"}
    game = LEDUC_HOLDEM
    instance_count = 30
    rules_text = (
        "Leduc hold'em. The deck holds two each of J, Q and K (K highest); each player antes "
        "1 chip and gets one private card. There are two betting rounds; a public card is "
        "dealt between them. player_0 acts first in each round. With no bet to answer you "
        "may check or bet; facing a bet you may fold, call or raise. Bets and raises are 2 "
        "chips in round 1 and 4 in round 2, at most two per round. At the showdown a card "
        "that pairs the public card wins, else the higher card; equal ranks split the pot."
    )
