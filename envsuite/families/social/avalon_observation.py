"""Avalon observations, text and vector, both built from what one seat may know.

Both read only the seat's message view, its own knowledge row (``game.known[seat]``: its
team, what its role sees, every team at the end) and the public state (the leader, the
proposals and votes, the quest results and the rejection track), so neither can show a
hidden role or another player's quest card.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from envsuite.families.social.avalon_rules import AvalonGame
from envsuite.families.social.avalon_setup import (
    EVIL,
    GOOD,
    MAX_REJECTIONS,
    MERLIN_OR_MORGANA,
    PHASE_ORDER,
    QUESTS,
    ROLE_ORDER,
    ROLES,
    Phase,
)
from envsuite.families.social.event_texts import EventTexts, compose

#: Entries before the quest block: role and phase one-hots, my turn, I lead, the quest,
#: the rejection track, the team size, the two-fail rule.
HEAD = len(ROLE_ORDER) + len(PHASE_ORDER) + 6
#: Per quest: succeeded, failed, fail cards over the team size.
QUEST_BLOCK = 3 * QUESTS
#: Per seat: known evil, known good, Merlin-or-Morgana, leader, on the proposed team.
SEAT_FIELDS = 5
#: Proposals a game can hold (five quests, five proposals each).
MAX_PROPOSALS = QUESTS * MAX_REJECTIONS


def vector_size(n: int) -> int:
    """The length of the vector observation of an ``n``-player game."""
    return HEAD + QUEST_BLOCK + SEAT_FIELDS * n + QUESTS * n + MAX_PROPOSALS * 3 * n


class VectorObserver:
    """Builds vector observations (see :func:`vector_view`); the public history once per event.

    The quest teams and the proposals voted on are the same for every seat up to the
    seat's rotation, so they are laid out once per change (in absolute seat order) and
    each seat's view takes them through its own precomputed index.

    Args:
        n: Seats in the game.

    """

    def __init__(self, n: int) -> None:
        self.n = n
        self.seat_orders = [[(seat + j) % n for j in range(n)] for seat in range(n)]
        self.orders = [np.array(order) for order in self.seat_orders]
        # Each seat's indices of its rotated quest teams and proposals in the flat tables.
        self._team_index = [
            (np.arange(QUESTS)[:, None] * n + order[None, :]).ravel() for order in self.orders
        ]
        self._proposal_index = [
            (np.arange(MAX_PROPOSALS * 3)[:, None] * n + order[None, :]).ravel()
            for order in self.orders
        ]
        self._game: AvalonGame | None = None
        self._key = (-1, -1)
        self._teams = np.zeros((QUESTS, n), dtype=np.float32)
        self._proposals = np.zeros((MAX_PROPOSALS, 3, n), dtype=np.float32)
        self._quests = np.zeros(QUEST_BLOCK, dtype=np.float32)

    def _history(self, game: AvalonGame) -> None:
        key = (len(game.results), len(game.proposals))
        if game is self._game and key == self._key:
            return
        self._game, self._key = game, key
        self._teams[:] = 0
        self._proposals[:] = 0
        self._quests[:] = 0
        for index, (team, fails, succeeded) in enumerate(game.results):
            self._teams[index, list(team)] = 1.0
            self._quests[3 * index : 3 * index + 3] = (succeeded, not succeeded, fails / len(team))
        for index, (_, leader, team, approvals) in enumerate(game.proposals[:MAX_PROPOSALS]):
            self._proposals[index, 0, list(team)] = 1.0
            self._proposals[index, 1] = approvals
            self._proposals[index, 2, leader] = 1.0

    def view(self, game: AvalonGame, seat: int) -> np.ndarray:
        """The vector observation of ``seat``: seats ordered from ``seat`` itself.

        Layout: the head (see :data:`HEAD`); per quest (succeeded, failed, fails / team
        size); per seat its five fields; per quest the team that went (n each); per
        proposal voted on, in order, the team, the approvals and the leader (n each).
        """
        n = self.n
        head = [0.0] * HEAD
        head[_ROLE_AT[game.roles[seat]]] = 1.0
        head[_PHASE_AT[game.phase._value_]] = 1.0
        base = len(ROLE_ORDER) + len(PHASE_ORDER)
        quest = min(game.quest, QUESTS - 1)
        head[base] = float(game.to_move == seat)
        head[base + 1] = float(game.leader == seat)
        head[base + 2] = quest / (QUESTS - 1)
        head[base + 3] = game.rejections / MAX_REJECTIONS
        head[base + 4] = game.team_size / n
        head[base + 5] = float(game.setup.fails_needed(quest) == 2)
        self._history(game)
        out = np.empty(vector_size(n), dtype=np.float32)
        out[:HEAD] = head
        out[HEAD : HEAD + QUEST_BLOCK] = self._quests
        base = HEAD + QUEST_BLOCK
        known, leader, team = game.known[seat], game.leader, game.team
        fields: list[float] = []
        for other in self.seat_orders[seat]:
            what = known[other]
            fields += (
                what == EVIL,
                what == GOOD,
                what == MERLIN_OR_MORGANA,
                other == leader,
                other in team,
            )
        out[base : base + SEAT_FIELDS * n] = fields
        base += SEAT_FIELDS * n
        self._teams.reshape(-1).take(
            self._team_index[seat], out=out[base : base + QUESTS * n], mode="clip"
        )
        base += QUESTS * n
        self._proposals.reshape(-1).take(self._proposal_index[seat], out=out[base:], mode="clip")
        return out


#: The one-hot entry of each role, and of each phase's value, in the vector's head.
_ROLE_AT = {role: index for index, role in enumerate(ROLE_ORDER)}
_PHASE_AT = {phase.value: len(ROLE_ORDER) + index for index, phase in enumerate(PHASE_ORDER)}


def vector_view(game: AvalonGame, seat: int) -> np.ndarray:
    """The vector observation of ``seat`` (a one-off :class:`VectorObserver`)."""
    return VectorObserver(game.setup.num_players).view(game, seat)


def rules_text(game: AvalonGame) -> str:
    """The rules in brief, for every player's text observation."""
    setup = game.setup
    sizes = ", ".join(str(size) for size in setup.team_sizes)
    two_fail = " (two fail cards fail the fourth)" if setup.num_players >= 7 else ""
    specials = ", ".join(setup.special_roles) or "none"
    return (
        f"Avalon with {setup.num_players} players: {setup.num_evil} evil, the rest good; "
        f"special roles: {specials}. Five quests with teams of {sizes}. Before each "
        f"proposal the players speak ({setup.discussion_rounds} round(s), at most "
        f"{setup.max_speech_chars} characters each); the leader proposes a team, everyone "
        f"approves or rejects (a strict majority approves; {MAX_REJECTIONS} rejections in a "
        f"row: evil wins). Team members play success or fail in secret (good must play "
        f"success); one fail card fails a quest{two_fail}. Three quests decide; if good wins "
        f"three, the assassin names Merlin to win for evil."
    )


def text_view(
    game: AvalonGame,
    seat: int,
    error: str | None,
    legal: Sequence[str],
    limit: int,
    events: EventTexts | None = None,
    rules: str | None = None,
) -> str:
    """The text observation of ``seat``, at most ``limit`` characters (oldest events dropped).

    ``events``: the env's kept event texts of this game (else they are read again);
    ``rules``: :func:`rules_text` of the game, when the caller keeps it.
    """
    names = game.names
    role = ROLES[game.roles[seat]]
    what = {EVIL: "evil", GOOD: "good", MERLIN_OR_MORGANA: "Merlin or Morgana"}
    known = [
        f"{names[other]} is {what[team]}"
        for other, team in enumerate(game.known[seat])
        if team is not None and other != seat
    ]
    board = ", ".join(
        f"quest {i + 1} {'succeeded' if ok else 'failed'} ({fails} fail)"
        for i, (_, fails, ok) in enumerate(game.results)
    )
    head = [
        rules_text(game) if rules is None else rules,
        f"You are {names[seat]} (player_{seat}), {role.name}, team {role.team}.",
        f"Quests: {board or 'none played'}; rejections in a row: {game.rejections}.",
    ]
    if known and not game.over:
        head.append(f"You know: {'; '.join(known)}.")
    tail = []
    if error:
        tail.append(f"Your last action was refused ({error}); your turn was played by default.")
    tail.append(_status(game, seat, legal))
    if events is None:
        return compose(head, tail, [message.text for message in game.view(seat)], limit)
    texts, joined, used = events.of(game.log, seat)
    return compose(head, tail, texts, limit, joined, used)


def _status(game: AvalonGame, seat: int, legal: Sequence[str]) -> str:
    if game.over:
        won = ROLES[game.roles[seat]].team == game.winner
        return f"The game is over: {game.winner} won; you {'won' if won else 'lost'}."
    if game.to_move != seat:
        mover = "nobody" if game.to_move is None else game.names[game.to_move]
        return f"Waiting for {mover} ({game.phase.value})."
    options = ", ".join(legal)
    if game.phase is Phase.DISCUSSION:
        return (
            f"Your turn to speak: 'say: MESSAGE' (at most {game.setup.max_speech_chars} "
            f"characters) or 'pass'."
        )
    if game.phase is Phase.PROPOSE:
        return (
            f"You lead: propose a team of {game.team_size}, e.g. 'propose "
            f"{', '.join(game.names[: game.team_size])}'. Legal teams: {options}."
        )
    ask = {
        Phase.VOTE: "vote on the team",
        Phase.QUEST: "play a quest card",
        Phase.ASSASSINATE: "name Merlin",
    }[game.phase]
    return f"Your turn ({ask}): answer with one of: {options}."
