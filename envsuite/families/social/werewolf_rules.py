"""The rules of Werewolf, apart from any env: phases, legal actions, deaths, the winner.

The data they play on (roles, phases, actions, a game's setup) is in
:mod:`~envsuite.families.social.werewolf_setup`.

A game is a deal (each seat's role) plus a phase schedule:

- **Night** ``d``: the living werewolves, in seat order, each name a non-werewolf to kill
  (the werewolves see each other's choices); the choice with the most names is the
  target, a split going to the one named first. Then the seer (if alive) checks one
  other living seat and learns whether it is a werewolf; then the doctor (if alive)
  protects one living seat (itself too, unless ``doctor_self_save`` is off). At dawn
  the target dies unless protected.
- **Day** ``d``: a chance event picks the first speaker among the living; then
  ``discussion_rounds`` rounds in which each living seat, in seat order from the first
  speaker, takes one turn: ``say`` a message of at most ``max_speech_chars`` characters,
  ``accuse`` a seat, ``claim`` a seat's team (as a seer would) or ``pass``. Then each
  living seat, in seat order, votes for another living seat or abstains. Votes are
  secret until all are cast, then published together. The seat with most votes is
  exiled; a tie follows ``tie_rule`` (:mod:`~envsuite.families.social.voting`).
- **Day, bidding order** (``speaking_order="bidding"``): instead of the first speaker and
  the rounds, the day has ``discussion_rounds`` times the living seats speeches; before
  each, every living seat but the last speaker bids ``0`` to ``4`` (phase ``BID``, in seat
  order, each bid seen only by its bidder; a forfeited bid counts as ``0``), then the
  highest bidder takes the floor for one turn (``DISCUSSION``, the same choices as
  above); a tie is a chance event over the highest bidders, a bidder the previous speech
  mentioned listed twice (:func:`~envsuite.families.social.turn_order.floor_draw`).
  Everyone reads who has the floor and how many speeches are left; nobody reads another
  seat's bid.
- **The end**: the village wins when no werewolf lives; the werewolves win when living
  werewolves are at least as many as the other living seats (checked after every death).
  A game still open after day ``max_days``'s vote ends undecided (truncated).

This module holds no Gymnasium, PettingZoo or random generator: the env draws the deal
and every chance event and passes them in; the bots, the exact solver and the tests use
the same class.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import compress
from typing import Any, NamedTuple

from envsuite.families.social.channels import Message, MessageLog
from envsuite.families.social.game_log import GameLog, LogEntry
from envsuite.families.social.game_words import GAME_WORDS
from envsuite.families.social.turn_order import (
    floor_draw,
    mentioned_seats,
    round_robin,
    speech_budget,
    within_budget,
)
from envsuite.families.social.voting import tally
from envsuite.families.social.werewolf_legal import legal_actions_in
from envsuite.families.social.werewolf_setup import (
    BID_VALUES,
    CLAIM_VALUES,
    DEFAULT_BID,
    DOCTOR,
    PASS,
    PHASE_KINDS,
    ROLES,
    SEER,
    VILLAGE,
    WEREWOLF,
    WEREWOLVES,
    Action,
    Phase,
    WerewolfSetup,
)

#: The phases as module names (read several times faster than ``Phase.X``, an attribute
#: of the Enum class, in the engine's per-move code).
_NIGHT_WOLVES, _NIGHT_SEER, _NIGHT_DOCTOR = Phase.NIGHT_WOLVES, Phase.NIGHT_SEER, Phase.NIGHT_DOCTOR
_DISCUSSION, _VOTE, _BID = Phase.DISCUSSION, Phase.VOTE, Phase.BID
_CHANCE, _OVER = Phase.CHANCE, Phase.OVER


class WerewolfGame:
    """One game of Werewolf: the state, the legal actions, playing them, the winner.

    Args:
        setup: The parameters.
        roles: The role of each seat (a permutation of ``setup.base_roles()``).

    Attributes:
        phase: What the game waits for (:class:`Phase`).
        day: The current night/day number (1 for the first night and day).
        alive: Whether each seat lives.
        alive_key: ``alive`` as a tuple, a new object at each death.
        known: What each seat knows of each seat's team (None: unknown).
        knowledge: How many times ``known`` changed.
        winner: ``"village"`` or ``"werewolves"`` once decided, else None.
        log: Every message, and each seat's view of them.
        game_log: The setup, the deal and every entry (replays the game).
        bids: Bidding order: the ``(seat, bid)`` of the bids in so far this round.
        floor: Bidding order: the seat that has (or last had) the floor today, or None.
        mentions: Bidding order: the seats the last speech named (they count twice in a
            tied draw for the floor).
        speeches_left: Bidding order: the speeches left today.

    """

    def __init__(self, setup: WerewolfSetup, roles: tuple[str, ...]) -> None:
        roles = tuple(roles)
        deal = _DEALS.get((setup, roles))
        if deal is None:
            deal = _dealt(setup, roles)
        self.setup = setup
        self.roles = roles
        self.names = setup.names
        self.words = GAME_WORDS[setup.game]
        n = setup.num_players
        self.teams, self.wolves = deal.teams, deal.wolves
        self._holders = deal.holders  # (the seats of each role)
        # Each seat alone and the werewolves, as message audiences; words used each night
        # and day (looked up once).
        self._alone, self._pack = deal.alone, frozenset(deal.wolves)
        self._wolf_word = self.words.role(WEREWOLF)
        self._verdicts = (self.words.verdict(False), self.words.verdict(True))
        self._seats = range(n)
        self.alive = [True] * n
        # ``alive`` as a tuple (a key of legal tuples): a new object at each death.
        self.alive_key = tuple(self.alive)
        # The legal tuples by (phase value, seat) while nobody dies (see legal_in): kept
        # for every game with the same werewolves and living players (see _legal_set).
        self._legal_now = _legal_set(setup.doctor_self_save, deal.wolves, self.alive_key)
        self.day = 0
        self.phase = _NIGHT_WOLVES
        self.winner: str | None = None
        self.truncated = False
        self.queue: list[int] = []
        self.chance_kind = ""
        self.chance_options: tuple[int, ...] = ()
        self.wolf_picks: list[int] = []
        self.check: int | None = None
        self.save: int | None = None
        self.kill_target: int | None = None
        self.votes: list[tuple[int, int | None]] = []
        # Bidding order: the bids in, the seat with the floor, what its speech mentioned.
        self.bids: list[tuple[int, int]] = []
        self.floor: int | None = None
        self.mentions: tuple[int, ...] = ()
        self.speeches_left = 0
        self._bidding = setup.speaking_order == "bidding"
        self.log = MessageLog(n)
        self._messages = self.log.messages  # (posting a message is appending it here)
        self.game_log = GameLog(setup.to_dict(), self.roles)
        # What each seat knows of each seat's team (None: unknown), for observations.
        self.known: list[list[str | None]] = []
        # How many times ``known`` changed (observers rebuild what they made of it then).
        self.knowledge = 0
        # Public structured history: votes cast (voter, target), accusations, claims.
        self.vote_counts = [[0] * n for _ in range(n)]
        self.accusations = [[0] * n for _ in range(n)]
        self.claims: list[list[str | None]] = [[None] * n for _ in range(n)]
        # Each change to the three tables above, as (table, row, column), table 0 for votes,
        # 1 accusations, 2 claims (observers rewrite only these cells).
        self.pair_cells: list[tuple[int, int, int]] = []
        # The last legal tuple handed out: (len of the game log's entries, seat, tuple).
        self._legal_memo: tuple[int, int, tuple[Action, ...]] = (-1, -1, ())
        # The deal's messages and knowledge (built once per setup and deal: see _dealt).
        self._messages += deal.messages
        self.known = [list(row) for row in deal.known]
        self._start_night()

    # -- queries ---------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        """Whether the game has ended (decided or undecided)."""
        return self.phase is _OVER

    @property
    def to_move(self) -> int | None:
        """The seat to act, or None (a chance event is pending, or the game is over)."""
        return self.queue[0] if self.queue else None  # the queue is empty at chance and the end

    @property
    def pair_changes(self) -> int:
        """How many times the vote, accusation and claim tables changed so far."""
        return len(self.pair_cells)

    def living(self) -> list[int]:
        """The living seats, in seat order."""
        return list(compress(self._seats, self.alive))

    def living_wolves(self) -> int:
        """How many werewolves live."""
        alive = self.alive
        return sum([alive[seat] for seat in self.wolves])

    def chance_outcomes(self) -> tuple[int, ...]:
        """The equally likely entries of the pending chance event (empty when none).

        A seat may be listed twice (a tied bidder the last speech named, in a draw for
        the floor): it is then twice as likely as a seat listed once.
        """
        return self.chance_options if self.phase is _CHANCE else ()

    def legal_actions(self, seat: int) -> list[Action]:
        """Every legal structured action of ``seat`` now (empty off-turn).

        ``say`` with any text is legal in the discussion; it is listed with an empty message.
        """
        return list(self.legal_tuple(seat))

    def legal_tuple(self, seat: int) -> tuple[Action, ...]:
        """:meth:`legal_actions` as a tuple shared between calls (do not rely on a copy).

        The legal actions depend only on the phase, the seat, who lives, who the
        werewolves are (at their night) and whether the doctor may save itself, so the
        tuples of the most recent such states are kept across games: the same object
        comes back while one is kept (callers may cache what they derive from it by its
        identity).
        """
        version = len(self.game_log.entries)  # every move and chance draw adds an entry
        memo = self._legal_memo
        if memo[0] == version and memo[1] == seat:
            return memo[2]
        legal = () if seat != self.to_move else self.legal_in(self.phase, seat)
        self._legal_memo = (version, seat, legal)
        return legal

    def legal_in(self, phase: Phase, seat: int) -> tuple[Action, ...]:
        """The legal actions ``seat`` would have in acting ``phase`` as things stand.

        The same tuples as :meth:`legal_tuple`, for a seat due later in a block of
        simultaneous moves (the Parallel form's night: who lives does not change before
        dawn).
        """
        # (the phase's value: a str hashes in C; an Enum's hash and .value are Python code)
        key = (phase._value_, seat)
        legal = self._legal_now.get(key)
        if legal is None:
            wolves = self.wolves if phase is _NIGHT_WOLVES else ()
            self_save = self.setup.doctor_self_save
            legal = self._legal_now[key] = legal_actions_in(
                key[0], seat, self.alive_key, wolves, self_save
            )
        return legal

    def illegal_reason(self, seat: int, action: Action) -> str | None:
        """Why ``seat`` may not play ``action`` now (the first rule broken), or None."""
        if self.over:
            return "the game is over"
        if seat != self.to_move:
            return "it is not your turn"
        return self.reason_in(self.phase, seat, action)

    def reason_in(self, phase: Phase, seat: int, action: Action) -> str | None:
        """Why ``seat`` could not play ``action`` in acting ``phase`` as things stand, or None."""
        allowed = _KINDS[phase._value_]  # (PHASE_KINDS by value: an Enum hashes slowly)
        if action.kind not in allowed:
            doing = ", ".join(allowed)
            if action.kind == "pass":
                return f"you may not pass or abstain now; in the {phase.value} phase: {doing}"
            return f"'{action.kind}' is not allowed now; in the {phase.value} phase: {doing}"
        if action.kind in ("pass", "say"):
            return None
        if action.kind == "bid":
            if action.value in BID_VALUES:
                return None
            return f"a bid is a whole number from 0 to 4, not {action.value!r}"
        target = action.target
        if target is None or not 0 <= target < self.setup.num_players:
            return f"'{action.kind}' needs a player"
        name = self.names[target]
        if action.kind == "claim":
            if target == seat:
                return "you cannot make a claim about yourself"
            if action.value not in CLAIM_VALUES:
                killer = self.words.claim_killer
                return f"a claim says '{killer}' or 'village', not {action.value!r}"
            return None
        if not self.alive[target]:
            return f"{name} is dead"
        if action.kind == "kill" and self.roles[target] == WEREWOLF:
            words = self.words
            return f"{name} is {words.killer}; {words.killers} do not kill each other"
        if action.kind in ("check", "vote", "accuse") and target == seat:
            return f"you cannot {action.kind} yourself"
        if action.kind == "save" and target == seat and not self.setup.doctor_self_save:
            return "you cannot protect yourself in this game"
        return None

    # -- moves -----------------------------------------------------------------------------
    def apply(self, seat: int, action: Action, listed: bool = False) -> None:
        """Play ``seat``'s legal action (check with :meth:`illegal_reason` first).

        ``listed``: the caller knows ``action`` is legal for ``seat`` in this very state
        (it took it from the tuple :meth:`legal_tuple` gave, or :meth:`illegal_reason` just
        found nothing against it), so it is not checked again.

        Raises:
            ValueError: the action is illegal (a caller bug; the env never sends one).
        """
        if not listed:
            reason = self.illegal_reason(seat, action)
            if reason is not None:
                raise ValueError(f"illegal action {action} for seat {seat}: {reason}")
        kind = action.kind
        if kind == "say":
            said = within_budget(action.value, self.setup.max_speech_chars)
            if said is not action.value:  # (cut: a new action; else the same one)
                action = Action("say", None, said)
        self.game_log.entries.append(("act", seat, kind, action.target, action.value))
        self.queue.pop(0)
        if self._bidding and self.phase is _DISCUSSION:
            self.mentions = self._mentioned(action)
        _EFFECTS[kind](self, seat, action)
        if not self.queue:
            self._end_phase()

    def forfeit_turn(self, seat: int) -> None:
        """``seat`` loses its turn (a refused action): it passes, abstains or does nothing."""
        if seat != self.to_move:
            raise ValueError(f"seat {seat} is not to move")
        self.game_log.entries.append(("act", seat, "pass", None, ""))
        self.queue.pop(0)
        self._on_pass(seat, PASS)
        if not self.queue:
            self._end_phase()

    def apply_chance(self, outcome: int) -> None:
        """Resolve the pending chance event with ``outcome`` (one of :meth:`chance_outcomes`)."""
        if outcome not in self.chance_outcomes():
            raise ValueError(f"{outcome!r} is not an outcome of {self.chance_outcomes()!r}")
        self.game_log.entries.append(("chance", outcome))
        kind = self.chance_kind
        self.chance_kind, self.chance_options = "", ()
        if kind == "first_speaker":
            self._start_discussion(outcome)
        elif kind == "speaker":
            self._give_floor(outcome)
        else:
            self._exile(outcome)

    @classmethod
    def replay(cls, game_log: GameLog) -> WerewolfGame:
        """The game ``game_log`` records, replayed entry by entry.

        Raises:
            ValueError: the log does not describe a legal game.
        """
        setup = WerewolfSetup(**{**game_log.setup, "names": tuple(game_log.setup["names"])})
        game = cls(setup, tuple(game_log.roles))
        for entry in game_log.entries:
            game.replay_entry(entry)
        return game

    def replay_entry(self, entry: LogEntry) -> None:
        """Apply one log entry (a chance outcome or an action)."""
        if entry[0] == "chance":
            self.apply_chance(int(entry[1]))
            return
        _, seat, kind, target, value = entry
        if kind == "pass":  # a pass and a forfeited turn have the same effect
            self.forfeit_turn(int(seat))
        else:
            self.apply(int(seat), Action(str(kind), target, str(value)))

    # -- action effects --------------------------------------------------------------------
    def _on_pass(self, seat: int, action: Action) -> None:
        if self.phase is _VOTE:
            self.votes.append((seat, None))
        elif self.phase is _DISCUSSION:
            self._public("pass", seat, f"{self.names[seat]} says nothing.")
        elif self.phase is _BID:  # a forfeited bid
            self._on_bid(seat, Action("bid", None, DEFAULT_BID))

    def _on_bid(self, seat: int, action: Action) -> None:
        self.bids.append((seat, int(action.value)))
        text = f"You bid {action.value} for the next speech."
        self._post("bid", seat, frozenset({seat}), text, None, action.value)

    def _on_kill(self, seat: int, action: Action) -> None:
        assert action.target is not None
        self.wolf_picks.append(action.target)
        names = self.names
        text = f"{names[seat]} ({self._wolf_word}) wants to kill {names[action.target]}."
        self._post("wolf_pick", seat, self._pack, text, action.target)

    def _on_check(self, seat: int, action: Action) -> None:
        assert action.target is not None
        self.check = action.target
        team = self.teams[action.target]
        self.known[seat][action.target] = team
        self.knowledge += 1
        verdict = self.words.verdict(team == WEREWOLVES)
        text = f"{self.words.vision}: {self.names[action.target]} is {verdict}."
        self._post("check", seat, self._alone[seat], text, action.target, team)

    def _on_save(self, seat: int, action: Action) -> None:
        assert action.target is not None
        self.save = action.target
        text = f"You protect {self.names[action.target]} tonight."
        self._post("save", seat, self._alone[seat], text, action.target)

    def _on_say(self, seat: int, action: Action) -> None:
        self._public("speech", seat, f'{self.names[seat]} says: "{action.value}"')

    def _on_accuse(self, seat: int, action: Action) -> None:
        assert action.target is not None
        self.accusations[seat][action.target] += 1
        self.pair_cells.append((1, seat, action.target))
        names, target = self.names, action.target
        text = f"{names[seat]} accuses {names[target]} of being {self.words.killer}."
        # (_public, written out: the discussion's most common messages)
        self._messages.append(_message(Message, (self.day, "accuse", seat, None, text, target, "")))

    def _on_claim(self, seat: int, action: Action) -> None:
        assert action.target is not None
        self.claims[seat][action.target] = action.value
        self.pair_cells.append((2, seat, action.target))
        names, target, value = self.names, action.target, action.value
        text = f"{names[seat]} claims: {names[target]} is {self._verdicts[value == WEREWOLF]}."
        message = (self.day, "claim", seat, None, text, target, value)
        self._messages.append(_message(Message, message))  # (_public, written out)

    def _on_vote(self, seat: int, action: Action) -> None:
        self.votes.append((seat, action.target))

    # -- phases ----------------------------------------------------------------------------
    def _end_phase(self) -> None:
        if self.phase is _NIGHT_WOLVES:
            self._close_wolf_choice()
            self._night_role(_NIGHT_SEER)
        elif self.phase is _NIGHT_SEER:
            self._night_role(_NIGHT_DOCTOR)
        elif self.phase is _NIGHT_DOCTOR:
            self._dawn()
        elif self.phase is _DISCUSSION:
            if self.setup.speaking_order == "bidding" and self.speeches_left > 0:
                self._open_bids()
            else:
                self._start_vote()
        elif self.phase is _VOTE:
            self._close_vote()
        elif self.phase is _BID:
            self._close_bids()

    def _start_night(self) -> None:
        self.day += 1
        self.wolf_picks, self.check, self.save = [], None, None
        self._public("night", None, f"Night {self.day} falls.")
        self.phase = _NIGHT_WOLVES
        self.queue = [seat for seat in self.wolves if self.alive[seat]]

    def _close_wolf_choice(self) -> None:
        picks = self.wolf_picks  # (one pick is the choice: a tally of one, counted quicker)
        target = picks[0] if len(picks) == 1 else tally(picks, "first_named").chosen
        self.kill_target = target
        wolves = self._pack
        if target is None:
            text = f"{self.words.killers.capitalize()} kill nobody tonight."
            self._post("wolf_choice", None, wolves, text)
        else:
            text = f"{self.words.killers.capitalize()} will kill {self.names[target]}."
            self._post("wolf_choice", None, wolves, text, target)

    def _night_role(self, phase: Phase) -> None:
        """Hand the night to the seer or the doctor, or skip a role nobody living holds."""
        role = SEER if phase is _NIGHT_SEER else DOCTOR
        alive = self.alive
        holders = [seat for seat in self._holders[role] if alive[seat]]
        if holders:
            self.phase, self.queue = phase, holders
        elif phase is _NIGHT_SEER:
            self._night_role(_NIGHT_DOCTOR)
        else:
            self._dawn()

    def _dawn(self) -> None:
        target = self.kill_target
        if target is None or target == self.save:
            self._public("dawn", None, f"Day {self.day} dawns. Nobody died in the night.")
        else:
            text = f"Day {self.day} dawns. {self.names[target]} was killed in the night."
            self._kill(target, "killed", text)
        if self._check_winner():
            return
        if not self.setup.discussion_rounds:
            self._start_vote()
        elif self.setup.speaking_order == "bidding":
            self._start_bidding()
        else:
            self._chance("first_speaker", tuple(self.living()))

    def _start_discussion(self, first: int) -> None:
        self.phase = _DISCUSSION
        self.queue = round_robin(self.living(), first, self.setup.discussion_rounds)
        text = f"Discussion: {self.names[first]} speaks first."
        self._public("discussion", None, text, first)

    def _start_bidding(self) -> None:
        """Open a bidding day: its speech budget, then the first bids (nobody spoke yet)."""
        self.speeches_left = speech_budget(len(self.living()), self.setup.discussion_rounds)
        self.floor, self.mentions = None, ()
        text = (
            f"Discussion: {self.speeches_left} speeches today; before each, every player "
            "but the last speaker bids 0 to 4 to speak next, and the highest bidder speaks."
        )
        self._public("discussion", None, text)
        self._open_bids()

    def _open_bids(self) -> None:
        self.phase, self.bids = _BID, []
        self.queue = [seat for seat in self.living() if seat != self.floor]

    def _close_bids(self) -> None:
        options = floor_draw(self.bids, self.mentions)
        if len(options) == 1:
            self._give_floor(options[0])
        else:
            self._chance("speaker", options)

    def _give_floor(self, seat: int) -> None:
        self.phase, self.queue, self.floor = _DISCUSSION, [seat], seat
        self.speeches_left -= 1
        self.mentions = ()
        left = self.speeches_left
        text = f"{self.names[seat]} has the floor ({left} speech{'es' * (left != 1)} left today)."
        self._public("floor", None, text, seat)

    def _mentioned(self, action: Action) -> tuple[int, ...]:
        """The seats a discussion turn mentions: a speech's names, an accused or claimed seat."""
        if action.kind == "say":
            return mentioned_seats(action.value, self.names)
        return () if action.target is None else (action.target,)

    def _start_vote(self) -> None:
        self.phase = _VOTE
        self.votes = []
        self.queue = self.living()
        self._public("vote_open", None, "Voting: name a player to exile, or abstain.")

    def _close_vote(self) -> None:
        for voter, target in self.votes:
            if target is None:
                self._public("vote", voter, f"{self.names[voter]} abstained.")
            else:
                self.vote_counts[voter][target] += 1
                self.pair_cells.append((0, voter, target))
                text = f"{self.names[voter]} voted for {self.names[target]}."
                self._public("vote", voter, text, target)
        result = tally([target for _, target in self.votes], self.setup.tie_rule)
        if result.needs_draw:
            tied = ", ".join(self.names[seat] for seat in result.leaders)
            self._public("tie", None, f"A tie between {tied}: one is drawn at random.")
            self._chance("tie", tuple(sorted(result.leaders)))
            return
        if result.chosen is None:
            why = "a tie" if result.leaders else "no votes"
            self._public("no_exile", None, f"Nobody is exiled ({why}).")
            self._after_day()
        else:
            self._exile(result.chosen)

    def _exile(self, seat: int) -> None:
        self._kill(seat, "exiled", f"{self.names[seat]} is exiled by the village.")
        self._after_day()

    def _after_day(self) -> None:
        if self._check_winner():
            return
        if self.day >= self.setup.max_days:
            self.truncated = True
            self._public("over", None, f"Day {self.day} was the last: the game ends undecided.")
            self._game_over()
            return
        self._start_night()

    def _chance(self, kind: str, options: tuple[int, ...]) -> None:
        self.phase, self.queue = _CHANCE, []
        self.chance_kind, self.chance_options = kind, options

    def _kill(self, seat: int, kind: str, text: str) -> None:
        self.alive[seat] = False
        self.alive_key = tuple(self.alive)
        self._legal_now = _legal_set(self.setup.doctor_self_save, self.wolves, self.alive_key)
        self._public(kind, None, text, seat)
        if self.setup.reveal_roles_on_death:
            role = self.roles[seat]
            shown = self.words.role(role)
            self._public("reveal", None, f"{self.names[seat]} was the {shown}.", seat, role)
            for viewer in range(self.setup.num_players):
                self.known[viewer][seat] = self.teams[seat]
            self.knowledge += 1

    def _check_winner(self) -> bool:
        wolves = self.living_wolves()
        if wolves == 0:
            self.winner = VILLAGE
        elif wolves >= self.alive.count(True) - wolves:
            self.winner = WEREWOLVES
        else:
            return False
        who = "The village wins." if self.winner == VILLAGE else self.words.killers_win
        self._public("over", None, who, None, self.winner)
        self._game_over()
        return True

    def _game_over(self) -> None:
        self.phase, self.queue = _OVER, []
        roles = ", ".join(
            f"{name} the {self.words.role(role)}"
            for name, role in zip(self.names, self.roles, strict=True)
        )
        self._public("roles", None, f"The roles were: {roles}.")
        for viewer in range(self.setup.num_players):
            self.known[viewer] = list(self.teams)
        self.knowledge += 1

    # -- messages --------------------------------------------------------------------------
    def _public(
        self, kind: str, sender: int | None, text: str, subject: int | None = None, value: str = ""
    ) -> None:
        self._messages.append(
            _message(Message, (self.day, kind, sender, None, text, subject, value))
        )

    def _post(
        self,
        kind: str,
        sender: int | None,
        audience: frozenset[int] | None,
        text: str,
        subject: int | None = None,
        value: str = "",
    ) -> None:
        message = (self.day, kind, sender, audience, text, subject, value)
        self._messages.append(_message(Message, message))

    def view(self, seat: int) -> list[Message]:
        """The messages ``seat`` may read, oldest first."""
        return self.log.view(seat)


#: :data:`PHASE_KINDS` by the phase's value.
_KINDS = {phase.value: kinds for phase, kinds in PHASE_KINDS.items()}
#: The effect of each kind of action (``_on_KIND``), looked up once.
_EFFECTS = {
    name[len("_on_") :]: function
    for name, function in vars(WerewolfGame).items()
    if name.startswith("_on_")
}


#: Builds a :class:`Message` from a tuple of its fields (``Message(...)`` itself runs a
#: Python ``__new__`` that does the same, about three times slower).
_message: Callable[[type[Message], tuple[Any, ...]], Message] = tuple.__new__
#: Deals whose messages and knowledge :func:`_dealt` keeps before it starts over.
MAX_DEALS_KEPT = 4096


class _Deal(NamedTuple):
    """What a deal gives a new game before its first night (the same for every game of it)."""

    teams: tuple[str, ...]
    wolves: tuple[int, ...]
    holders: dict[str, tuple[int, ...]]
    alone: tuple[frozenset[int], ...]
    messages: tuple[Message, ...]
    known: tuple[tuple[str | None, ...], ...]


#: The legal tuples by (phase value, seat) of the games seen lately, by (whether the
#: doctor may protect itself, the werewolves' seats, who lives): all a legal tuple
#: depends on (see :func:`~envsuite.families.social.werewolf_legal.legal_actions_in`).
_LEGAL_SETS: dict[tuple[bool, tuple[int, ...], tuple[bool, ...]], dict[tuple[str, int], Any]] = {}
#: Entries of ``_LEGAL_SETS`` kept before it starts over.
MAX_LEGAL_SETS = 4096


def _legal_set(
    self_save: bool, wolves: tuple[int, ...], alive: tuple[bool, ...]
) -> dict[tuple[str, int], tuple[Action, ...]]:
    """The (kept) legal tuples by (phase value, seat) of games with these arguments."""
    key = (self_save, wolves, alive)
    found = _LEGAL_SETS.get(key)
    if found is None:
        if len(_LEGAL_SETS) >= MAX_LEGAL_SETS:
            _LEGAL_SETS.clear()
        found = _LEGAL_SETS[key] = {}
    return found


#: The deals seen lately, by (setup, roles).
_DEALS: dict[tuple[WerewolfSetup, tuple[str, ...]], _Deal] = {}


def _dealt(setup: WerewolfSetup, roles: tuple[str, ...]) -> _Deal:
    """Check ``roles`` against ``setup`` and build (and keep) the deal's messages.

    Each seat reads its role; the werewolves read who they are and know each other.

    Raises:
        ValueError: ``roles`` is not a permutation of ``setup.base_roles()``.
    """
    if sorted(roles) != sorted(setup.base_roles()):
        raise ValueError(f"roles {roles!r} are not a deal of {setup.base_roles()!r}")
    n, names, words = setup.num_players, setup.names, GAME_WORDS[setup.game]
    teams = tuple(ROLES[role].team for role in roles)
    wolves = tuple(seat for seat in range(n) if roles[seat] == WEREWOLF)
    holders = {role: tuple(s for s in range(n) if roles[s] == role) for role in set(roles)}
    holders.setdefault(SEER, ())
    holders.setdefault(DOCTOR, ())
    messages = []
    known: list[list[str | None]] = [[None] * n for _ in range(n)]
    for seat in range(n):
        role = ROLES[roles[seat]]
        shown, description = words.role(role.name), words.descriptions[role.name]
        text = f"You are {names[seat]}, the {shown}. {description}"
        messages.append(Message(0, "role", None, frozenset({seat}), text, seat, role.name))
        known[seat][seat] = role.team
    pack = ", ".join(names[seat] for seat in wolves)
    text = f"{words.killers.capitalize()} are: {pack}."
    messages.append(Message(0, "wolves", None, frozenset(wolves), text))
    for seat in wolves:
        known[seat] = list(teams)
    if len(_DEALS) >= MAX_DEALS_KEPT:
        _DEALS.clear()
    deal = _DEALS[setup, roles] = _Deal(
        teams,
        wolves,
        holders,
        tuple(frozenset({seat}) for seat in range(n)),
        tuple(messages),
        tuple(tuple(row) for row in known),
    )
    return deal
