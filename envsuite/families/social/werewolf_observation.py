"""Werewolf observations, text and vector, both built from what one seat may know.

Both read only the seat's message view, its own knowledge row (``game.known[seat]``: its
role, the werewolves' pack, the seer's visions, roles revealed at death or at the end)
and the public state (who lives, the phase, votes, accusations and claims), so neither
can show another player's hidden role.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from envsuite.families.social.werewolf_rules import WerewolfGame
from envsuite.families.social.werewolf_setup import (
    PHASE_ORDER,
    ROLE_ORDER,
    ROLES,
    SEER,
    WEREWOLF,
    WEREWOLVES,
    Phase,
    WerewolfSetup,
)

#: What the player to move does in each phase with a target, as its status line says.
_WHAT = {
    Phase.NIGHT_WOLVES: "choose a victim",
    Phase.NIGHT_SEER: "choose a player to check",
    Phase.NIGHT_DOCTOR: "choose a player to protect",
    Phase.VOTE: "vote",
    Phase.BID: "bid for the next speech",
}
#: Deals whose rules and opening lines a :class:`TextObserver` keeps (then it starts over).
MAX_DEALS_KEPT = 1024
#: :data:`_WHAT` by the phase's value (a str key hashes in C; an Enum's hash is Python code).
_WHAT_BY_VALUE = {phase.value: what for phase, what in _WHAT.items()}
#: Entries before the per-seat block: role one-hot, phase one-hot, my turn, the day.
HEAD = len(ROLE_ORDER) + len(PHASE_ORDER) + 2
#: Entries a bidding game adds at the end: a bid is due, the day's speeches left.
BIDDING_TAIL = 2


def vector_size(n: int, bidding: bool = False) -> int:
    """The length of the vector observation of an ``n``-player game.

    A game with ``speaking_order="bidding"`` has :data:`BIDDING_TAIL` more entries at the
    end: 1 while the game waits for bids (the phase one-hot then shows the discussion),
    and the speeches left today over the day's budget (0 outside the discussion).
    """
    return HEAD + 3 * n + 4 * n * n + (BIDDING_TAIL if bidding else 0)


class VectorObserver:
    """Builds vector observations (see the env), each seat's kept and changed in place.

    The pairwise blocks (votes, accusations, claims) are the same for every seat up to
    the seat's rotation, so they are computed once each time one of them changes
    (``game.pair_cells``), only in the cells that changed, and each seat's view takes
    them through its own precomputed index. Each seat's last observation is kept and
    only its entries that changed are written again (the phase, the turn and the day
    each step; who lives, what the seat knows and the pair blocks when they change); the
    caller gets a copy.

    Args:
        n: Seats in the game.
        bidding: Whether the game uses ``speaking_order="bidding"`` (see :func:`vector_size`).

    """

    def __init__(self, n: int, bidding: bool = False) -> None:
        self.n = n
        self.bidding = bidding
        self.size = vector_size(n, bidding)
        self.seat_orders = [[(seat + j) % n for j in range(n)] for seat in range(n)]
        self.orders = [np.array(order) for order in self.seat_orders]
        self.pair_index = [(order[:, None] * n + order[None, :]).ravel() for order in self.orders]
        self._game: WerewolfGame | None = None
        self._changes = -1
        self._public = np.zeros((4, n * n), dtype=np.float32)
        # Each seat's indices of its rotated blocks in the tables read flat. (Views are made
        # where used, not kept: a pickled copy would hold them as arrays of their own.)
        self._pair_flat = [
            (np.arange(4)[:, None] * n * n + index[None, :]).ravel() for index in self.pair_index
        ]
        self._kept: list[_SeatVector | None] = []
        self._pairs_at = slice(HEAD + 3 * n, HEAD + 3 * n + 4 * n * n)  # (within a view)
        # (seat, who lives, what it knows) -> its block of per-seat entries.
        self._seat_blocks: dict[tuple[Any, ...], np.ndarray] = {}

    def _start(self, game: WerewolfGame) -> None:
        """Forget the last game's tables and views."""
        n = self.n
        self._game, self._changes = game, -1
        self._public[:] = 0.0  # the tables as they stand before any event
        self._kept = [None] * n

    def _pairs(self, game: WerewolfGame) -> np.ndarray:
        if game is not self._game:
            self._start(game)
        if len(game.pair_cells) != self._changes:
            self._update_cells(game)
        return self._public

    def _update_cells(self, game: WerewolfGame) -> None:
        """Rewrite the cells of the tables that changed since last (``game.pair_cells``)."""
        n, days, public = self.n, float(game.setup.max_days), self._public
        cells = game.pair_cells
        for table, row, column in cells[max(self._changes, 0) :]:
            cell = row * n + column
            # (a count over days in float64 then float32 is the quotient in float32: double
            # rounding cannot change a quotient of small whole numbers)
            if table == 0:
                public[0, cell] = min(game.vote_counts[row][column] / days, 1.0)
            elif table == 1:
                public[1, cell] = min(game.accusations[row][column] / days, 1.0)
            else:
                said = game.claims[row][column]
                public[2, cell] = said == "werewolf"
                public[3, cell] = said == "village"
        self._changes = len(cells)

    def view(self, game: WerewolfGame, seat: int, acting: Phase | None = None) -> np.ndarray:
        """The vector observation of ``seat``: seats ordered from ``seat`` itself.

        ``acting``: the phase in which ``seat`` acts now although it is not the game's
        seat to move (a block of simultaneous moves in the Parallel form); its turn
        entry is then 1 and the phase one-hot shows ``acting``.
        """
        if game is not self._game:
            self._start(game)
        kept = self._kept[seat]
        if kept is None:
            kept = self._kept[seat] = _SeatVector(self.size)
            kept.out[ROLE_ORDER.index(game.roles[seat])] = 1.0
        out = kept.out
        phase = game.phase if acting is None else acting
        at = _PHASE_AT[phase._value_]
        if at != kept.phase_at:
            if kept.phase_at >= 0:
                out[kept.phase_at] = 0.0
            out[at] = 1.0
            kept.phase_at = at
        queue = game.queue  # (game.to_move, read here)
        turn = acting is not None or (len(queue) > 0 and queue[0] == seat)
        if turn is not kept.turn:
            out[HEAD - 2] = float(turn)
            kept.turn = turn
        if game.day != kept.day:
            out[HEAD - 1] = min(1.0, game.day / game.setup.max_days)
            kept.day = game.day
        if kept.alive_key is not game.alive_key or kept.knowledge != game.knowledge:
            kept.alive_key, kept.knowledge = game.alive_key, game.knowledge
            block = self._seats(seat, game.known[seat], game.alive_key)
            if block is not kept.block:  # (the same block: the same entries, kept by value)
                out[HEAD : HEAD + 3 * self.n] = kept.block = block
        changes = len(game.pair_cells)
        if changes != kept.changes:
            if changes != self._changes:  # (_pairs, inlined: this game's tables started)
                self._update_cells(game)
            pairs = kept.out[self._pairs_at]  # (a view: the take writes into ``out``)
            self._public.reshape(-1).take(self._pair_flat[seat], out=pairs, mode="clip")
            kept.changes = changes
        if self.bidding:
            out[-2] = float(phase is Phase.BID)
            out[-1] = 0.0
            if game.phase in (Phase.BID, Phase.DISCUSSION):
                budget = len(game.living()) * game.setup.discussion_rounds
                out[-1] = min(1.0, game.speeches_left / budget) if budget else 0.0
        return out.copy()

    def _seats(self, seat: int, known: list[str | None], alive: tuple[bool, ...]) -> np.ndarray:
        """Per seat from ``seat``: alive, known werewolf, known village (kept by value)."""
        key = (seat, alive, tuple(known))
        block = self._seat_blocks.get(key)
        if block is None:
            if len(self._seat_blocks) >= MAX_DEALS_KEPT:
                self._seat_blocks.clear()
            seats: list[float] = []
            for other in self.seat_orders[seat]:
                team = known[other]
                seats += (alive[other], team == WEREWOLVES, team is not None and team != WEREWOLVES)
            block = self._seat_blocks[key] = np.array(seats, dtype=np.float32)
        return block


class _SeatVector:
    """One seat's last vector observation and what it was written from."""

    __slots__ = ("alive_key", "block", "changes", "day", "knowledge", "out", "phase_at", "turn")

    def __init__(self, size: int) -> None:
        self.out = np.zeros(size, dtype=np.float32)
        self.phase_at = -1
        self.turn: bool | None = None
        self.day = -1
        # The game's ``alive_key`` and ``knowledge`` the per-seat entries were written at.
        self.alive_key: tuple[bool, ...] = ()
        self.knowledge = -1
        # The block of per-seat entries written (see VectorObserver._seats), or None.
        self.block: np.ndarray | None = None
        self.changes = -1


#: The one-hot entry of each phase's value (a bid shows the discussion).
_PHASE_AT = {
    phase.value: len(ROLE_ORDER)
    + PHASE_ORDER.index(Phase.DISCUSSION if phase is Phase.BID else phase)
    for phase in Phase
}


def vector_view(game: WerewolfGame, seat: int) -> np.ndarray:
    """The vector observation of ``seat`` (a one-off :class:`VectorObserver`)."""
    bidding = game.setup.speaking_order == "bidding"
    return VectorObserver(game.setup.num_players, bidding).view(game, seat)


def rules_text(game: WerewolfGame) -> str:
    """The rules in brief, for every player's text observation."""
    setup, words = game.setup, game.words
    killer, checker = words.role(WEREWOLF), words.role(SEER)
    specials = [f"{words.killers} ({setup.num_werewolves})"]
    specials += [f"a {checker}"] * setup.seer + ["a doctor"] * setup.doctor
    if setup.speaking_order == "bidding":
        speaking = (
            f"the living speak ({setup.discussion_rounds} speech(es) per living player a "
            f"day, one message of at most {setup.max_speech_chars} characters each; before "
            "each speech everyone but the last speaker bids 0 to 4 in secret: 0 listen, 1 "
            "general thoughts, 2 something critical, 3 urgent, 4 I was addressed and must "
            "answer; the highest bidder speaks, a tie is drawn, a player the last speech "
            "named counting twice)"
        )
    else:
        speaking = (
            f"the living speak ({setup.discussion_rounds} round(s) of one message of at most "
            f"{setup.max_speech_chars} characters each)"
        )
    return (
        f"{words.title} with {setup.num_players} players: {', '.join(specials)}, the rest "
        f"villagers. Each night {words.killers} kill one player, the {checker} learns "
        f"whether one player is {words.killer} and the doctor protects one player. Each day "
        f"{speaking}, then vote to exile one player "
        f"(a tie: {'nobody is exiled' if setup.tie_rule == 'no_exile' else 'one is drawn'}). "
        f"The village wins when no {killer} lives; {words.killers} win when they are at "
        f"least as many as the others. The game ends undecided after day {setup.max_days}."
    )


def text_view(
    game: WerewolfGame,
    seat: int,
    error: str | None,
    legal: Sequence[str],
    limit: int,
    acting: Phase | None = None,
) -> str:
    """The text observation of ``seat``, at most ``limit`` characters (oldest events dropped).

    ``acting``: the phase in which ``seat`` acts now although it is not the game's seat
    to move (the Parallel form's simultaneous blocks); its status line then asks for it.
    """
    events = [message.text for message in game.view(seat)]
    used = sum(len(line) + 1 for line in events)
    return _compose(game, seat, error, legal, limit, rules_text(game), events, used, acting)


class TextObserver:
    """Builds text observations, as :func:`text_view` does, keeping what only grows.

    Per game it keeps the rules text and, per seat, the total length of the messages the
    seat has read so far and their lines joined (a seat's view only grows; the texts
    themselves are read again from the log only when the view must drop old ones), the
    opening lines that never change, the line of the living (looked up again when
    someone dies: the game's ``alive_key`` changes), each seat's line of what it knows
    (looked at again when the game's ``knowledge`` changes) and each seat's head,
    those lines together (rebuilt when either changes), so an observation costs the
    messages new since the last one and one join, not the whole history. Per setup it
    keeps the lines of the living by who lives and the known lines by seat and
    knowledge row, which recur from game to game.
    """

    def __init__(self) -> None:
        self._game: WerewolfGame | None = None
        self._rules = ""
        # How many of the game's messages each seat's texts have been read up to.
        self._seen: list[int] = []
        self._used: list[int] = []
        self._joined: list[str] = []
        self._openings: list[str] = []
        # The line of the living, and the game's ``alive_key`` it was written at.
        self._alive: tuple[tuple[bool, ...] | None, str] = (None, "")
        # Per seat: the game's ``knowledge`` its known line was written at, the seat's
        # knowledge row then, and the line with its newline ("" when it knows nothing).
        self._known: list[tuple[int, list[str | None], str]] = []
        # Per seat: the game's ``alive_key`` and ``knowledge`` its head was written at,
        # the head (its lines before the events and ``Events:``; see :meth:`_head`) and
        # the known part in it.
        self._heads: list[tuple[Any, int, str, str]] = []
        # The setup of the last game, and per deal of it (roles) the rules and openings.
        self._setup: WerewolfSetup | None = None
        self._by_deal: dict[tuple[str, ...], tuple[str, list[str]]] = {}
        # Per setup: the line of the living by who lives (``alive_key``), and each seat's
        # known line with its newline by (seat, its knowledge row) (see :meth:`_head`).
        self._alive_lines: dict[tuple[bool, ...], str] = {}
        self._known_parts: dict[tuple[int, tuple[str | None, ...]], str] = {}

    def view(
        self,
        game: WerewolfGame,
        seat: int,
        error: str | None,
        legal: Sequence[str],
        limit: int,
        acting: Phase | None = None,
        status: str | None = None,
    ) -> str:
        """The text observation of ``seat`` (the same text as :func:`text_view`).

        ``status``: the last line (:func:`status_line`), when the caller has it already.
        """
        if game is not self._game:
            self._start(game)
        messages, start = game.log.messages, self._seen[seat]
        if start < len(messages):  # (the seat reads the messages new since it last read)
            self._seen[seat] = len(messages)
            new = [m.text for m in messages[start:] if m.audience is None or seat in m.audience]
            if new:
                added = "\n".join(new)
                used = self._used[seat]
                self._joined[seat] = f"{self._joined[seat]}\n{added}" if used else added
                self._used[seat] = used + len(added) + 1  # each line and its newline
        if status is None:
            status = status_line(game, seat, legal, acting)
        if error:
            status = f"Your last action was refused ({error}); you lost that turn.\n{status}"
        head = self._heads[seat]
        if head[0] is not game.alive_key or head[1] != game.knowledge:
            head = self._head(game, seat)
        used = self._used[seat]
        # (the lines before the events and their newlines, as _compose counts them: the
        # head less its "Events:\n")
        if used + len(head[2]) + len(status) > limit - 53:
            texts = [m.text for m in messages if m.audience is None or seat in m.audience]
            return _compose(game, seat, error, legal, limit, self._rules, texts, used, acting)
        if used:
            return f"{head[2]}{self._joined[seat]}\n{status}"
        return f"{head[2]}{status}"

    def _head(self, game: WerewolfGame, seat: int) -> tuple[Any, int, str, str]:
        """``seat``'s lines before its events, ``Events:`` included, now (kept)."""
        alive = self._alive
        if alive[0] is not game.alive_key:
            line = self._alive_lines.get(game.alive_key)
            if line is None:
                line = self._alive_lines[game.alive_key] = _alive_line(game)
            alive = self._alive = (game.alive_key, line)
        known = self._known[seat]
        if known[0] != game.knowledge:
            known = self._known_part(game, seat)
        head = self._heads[seat]
        if head[0] is alive[0] and head[3] is known[2]:  # (only another seat's knowledge)
            text = head[2]
        else:
            text = f"{self._openings[seat]}{alive[1]}\n{known[2]}Events:\n"
        head = self._heads[seat] = (game.alive_key, game.knowledge, text, known[2])
        return head

    def _known_part(self, game: WerewolfGame, seat: int) -> tuple[int, list[str | None], str]:
        """``seat``'s known line with its newline, now (none once the game is over), kept."""
        row, kept = game.known[seat], self._known[seat]
        if game.phase is Phase.OVER:  # the known line is dropped at the end
            part = ""
        elif row == kept[1] and kept[0] >= 0:
            part = kept[2]
        else:
            key = (seat, tuple(row))
            found = self._known_parts.get(key)
            if found is None:
                line = _known_line(game, seat)
                found = self._known_parts[key] = f"{line}\n" if line else ""
            part = found
        known = self._known[seat] = (game.knowledge, list(row), part)
        return known

    def _start(self, game: WerewolfGame) -> None:
        """Forget the last game's texts; build the lines of ``game`` that never change."""
        seats = len(game.names)
        if game.setup is not self._setup or len(self._by_deal) >= MAX_DEALS_KEPT:
            self._setup, self._by_deal = game.setup, {}
            self._alive_lines, self._known_parts = {}, {}
        if len(self._known_parts) >= MAX_DEALS_KEPT:
            self._known_parts = {}
        kept = self._by_deal.get(game.roles)
        if kept is None:  # the rules and openings depend only on the setup and the deal
            rules = rules_text(game)
            openings = [f"{rules}\n{_you_line(game, seat)}\n" for seat in range(seats)]
            kept = self._by_deal[game.roles] = (rules, openings)
        self._game, (self._rules, self._openings) = game, kept
        self._seen = [0] * seats
        self._used = [0] * seats
        self._joined = [""] * seats
        self._alive = (None, "")
        self._known = [(-1, [], "")] * seats
        self._heads = [_NO_HEAD] * seats


#: A head never current (no game's ``alive_key`` is None).
_NO_HEAD: tuple[Any, int, str, str] = (None, -1, "", "")


def _you_line(game: WerewolfGame, seat: int) -> str:
    role = game.roles[seat]
    words = game.words
    return (
        f"You are {game.names[seat]} (player_{seat}), the {words.role(role)}, "
        f"team {words.team(ROLES[role].team)}."
    )


def _alive_line(game: WerewolfGame) -> str:
    names = game.names
    alive = [names[s] for s in range(len(names)) if game.alive[s]]
    dead = [names[s] for s in range(len(names)) if not game.alive[s]]
    return f"Alive: {', '.join(alive)}." + (f" Dead: {', '.join(dead)}." if dead else "")


def _known_lines(game: WerewolfGame, seat: int) -> list[str]:
    return [
        f"{game.names[other]} is {game.words.killer if team == WEREWOLVES else 'village'}"
        for other, team in enumerate(game.known[seat])
        if team is not None and other != seat
    ]


def _known_line(game: WerewolfGame, seat: int) -> str:
    """The line of what ``seat`` knows of others' teams, or "" (nothing known)."""
    known = _known_lines(game, seat)
    return f"You know: {'; '.join(known)}." if known else ""


def _compose(
    game: WerewolfGame,
    seat: int,
    error: str | None,
    legal: Sequence[str],
    limit: int,
    rules: str,
    events: list[str],
    used: int,
    acting: Phase | None = None,
) -> str:
    """The observation from its parts (``used``: the length of ``events``, one newline each)."""
    head = [rules, _you_line(game, seat), _alive_line(game)]
    if not game.over:
        known = _known_line(game, seat)
        if known:
            head.append(known)
    tail = []
    if error:
        tail.append(f"Your last action was refused ({error}); you lost that turn.")
    tail.append(status_line(game, seat, legal, acting))
    budget = limit - sum(len(line) + 1 for line in head + tail) - 60
    if used <= budget:
        return "\n".join([*head, "Events:", *events, *tail])
    dropped = 0
    while events and used > budget:
        used -= len(events[dropped]) + 1
        dropped += 1
        if dropped == len(events):
            break
    shown = events[dropped:]
    if dropped:
        shown.insert(0, f"({dropped} earlier events not shown)")
    return "\n".join([*head, "Events:", *shown, *tail])


def status_line(
    game: WerewolfGame,
    seat: int,
    legal: Sequence[str],
    acting: Phase | None = None,
    options: str | None = None,
) -> str:
    """The last line of ``seat``'s text: the end, what the others do, or what it must do.

    ``acting``: as in :func:`text_view`. ``options``: ``legal`` joined with ", ", when the
    caller has it.
    """
    phase = game.phase
    if phase is Phase.OVER:
        if game.winner is None:
            return "The game is over, undecided."
        won = ROLES[game.roles[seat]].team == game.winner
        winner = game.words.team(game.winner)
        return f"The game is over: the {winner} won; you {'won' if won else 'lost'}."
    if acting is None:
        to_move = game.to_move
        if to_move != seat:
            if phase is Phase.DISCUSSION and to_move is not None:
                return f"Discussion: {game.names[to_move]} is speaking."
            if phase is Phase.VOTE:
                return "Voting is under way."
            if phase is Phase.BID:
                return "Bidding for the next speech is under way."
            return "It is night."
    else:
        phase = acting
    if not game.alive[seat]:
        return "You are dead."
    if options is None:
        options = ", ".join(legal)
    if phase is Phase.BID:
        return (
            f"Your turn to bid for the next speech ({game.speeches_left} left today): "
            f"'bid N', from 0 (listen) to 4 (you were addressed and must answer): {options}."
        )
    if phase is Phase.DISCUSSION:
        return (
            f"Your turn to speak: 'say: MESSAGE' (at most {game.setup.max_speech_chars} "
            f"characters) or one of: {options}."
        )
    return f"Your turn ({_WHAT_BY_VALUE[phase._value_]}): answer with one of: {options}."
