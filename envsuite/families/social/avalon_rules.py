"""The rules of Avalon, apart from any env: proposals, votes, quests, the assassination.

The data they play on (roles, sight, team sizes, phases, actions, a game's setup) is in
:mod:`~envsuite.families.social.avalon_setup`.

- **The deal**: each seat learns its role and what its role sees (``SIGHT``).
- **The first leader** is a chance event, uniform over the seats; the leadership then
  passes to the next seat after every proposal.
- **Each proposal**: ``discussion_rounds`` rounds of speaking in seat order from the
  leader (``say`` a message of at most ``max_speech_chars`` characters, or ``pass``);
  then the leader proposes a team of the quest's size (any seats, itself included or
  not); then every seat, in seat order, approves or rejects; the votes are secret until
  all are in, then published together. A strict majority of approvals sends the team on
  the quest; otherwise the rejection track advances, and the fifth rejection in a row
  on one quest gives evil the game.
- **A quest**: the team's members, in seat order, each play a secret card; a good player
  must play ``success``, an evil one chooses. Only the number of fail cards is
  published. The quest fails with at least one fail card (two on the fourth quest with
  seven or more players); the rejection track goes back to zero.
- **The end**: evil wins with three failed quests, or five rejected proposals in a row.
  Good wins three quests; then, if an assassin is in play (and Merlin too), the assassin
  names one other player not known to it as evil: naming Merlin wins the game for evil,
  anything else for good.

No Gymnasium, PettingZoo or random generator: the env draws the deal and the first
leader and passes them in; the bots, the exact check and the tests use the same class.
"""

from __future__ import annotations

from itertools import combinations

from envsuite.families.social.avalon_setup import (
    ASSASSIN,
    EVIL,
    GOOD,
    MAX_REJECTIONS,
    MERLIN,
    PASS,
    PHASE_KINDS,
    QUESTS,
    ROLES,
    SIGHT,
    WINS_NEEDED,
    AvalonAction,
    AvalonSetup,
    Phase,
)
from envsuite.families.social.channels import Message, MessageLog
from envsuite.families.social.game_log import GameLog, LogEntry
from envsuite.families.social.turn_order import round_robin, within_budget
from envsuite.families.social.voting import strict_majority


def team_text(team: tuple[int, ...]) -> str:
    """A team as the log and messages store it: ``"0,2,4"``."""
    return ",".join(str(seat) for seat in team)


def team_of(text: str) -> tuple[int, ...]:
    """The team :func:`team_text` wrote."""
    return tuple(int(part) for part in text.split(",")) if text else ()


class AvalonGame:
    """One game of Avalon: the state, the legal actions, playing them, the winner.

    Args:
        setup: The parameters.
        roles: The role of each seat (a permutation of ``setup.base_roles()``).

    Attributes:
        phase: What the game waits for (:class:`Phase`).
        quest: The current quest (0-based).
        leader: The current leader's seat (None before the first is drawn).
        rejections: Proposals rejected in a row on this quest.
        results: Each finished quest's (team, fail cards, succeeded).
        proposals: Every proposal voted on: (quest, leader, team, approval of each seat).
        team: The team proposed now (empty before the proposal).
        known: What each seat knows of each seat: ``"good"``, ``"evil"``,
            ``"merlin_or_morgana"`` or None.
        winner: ``"good"`` or ``"evil"`` once decided, else None.
        log: Every message, and each seat's view of them.
        game_log: The setup, the deal and every entry (replays the game).

    """

    def __init__(self, setup: AvalonSetup, roles: tuple[str, ...]) -> None:
        if sorted(roles) != sorted(setup.base_roles()):
            raise ValueError(f"roles {roles!r} are not a deal of {setup.base_roles()!r}")
        self.setup = setup
        self.roles = tuple(roles)
        self.names = setup.names
        n = setup.num_players
        self.teams = tuple(ROLES[role].team for role in roles)
        self.evil = tuple(seat for seat in range(n) if self.teams[seat] == EVIL)
        self.phase = Phase.CHANCE
        self.quest = 0
        self.leader: int | None = None
        self.rejections = 0
        self.results: list[tuple[tuple[int, ...], int, bool]] = []
        self.proposals: list[tuple[int, int, tuple[int, ...], tuple[bool, ...]]] = []
        self.team: tuple[int, ...] = ()
        self.votes: dict[int, bool] = {}
        self.cards: list[bool] = []
        self.assassinated: int | None = None
        self.winner: str | None = None
        self.queue: list[int] = []
        self.chance_options: tuple[int, ...] = tuple(range(n))
        self.log = MessageLog(n)
        self.game_log = GameLog(setup.to_dict(), self.roles)
        self.known: list[list[str | None]] = [[None] * n for _ in range(n)]
        self._deal_messages()

    # -- queries ---------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.phase is Phase.OVER

    @property
    def truncated(self) -> bool:
        """Always False: every Avalon game is decided (five quests of five proposals at most)."""
        return False

    @property
    def to_move(self) -> int | None:
        """The seat to act, or None (the first leader is to be drawn, or the game is over)."""
        return self.queue[0] if self.queue else None

    @property
    def team_size(self) -> int:
        """The size of the current quest's team."""
        return self.setup.team_sizes[min(self.quest, QUESTS - 1)]

    @property
    def assassin(self) -> int | None:
        """The assassin's seat, when the assassination is played (assassin and Merlin in play)."""
        if ASSASSIN in self.roles and MERLIN in self.roles:
            return self.roles.index(ASSASSIN)
        return None

    def wins(self, team: str) -> int:
        """Quests won by ``team`` so far."""
        return sum(ok == (team == GOOD) for _, _, ok in self.results)

    def chance_outcomes(self) -> tuple[int, ...]:
        """The equally likely outcomes of the pending chance event (empty when none)."""
        return self.chance_options if self.phase is Phase.CHANCE else ()

    def assassin_targets(self, seat: int) -> list[int]:
        """The seats the assassin ``seat`` may name: others not known to it as evil."""
        n = self.setup.num_players
        return [s for s in range(n) if s != seat and self.known[seat][s] != EVIL]

    def legal_actions(self, seat: int) -> list[AvalonAction]:
        """Every legal action of ``seat`` now (empty off-turn).

        ``say`` with any text is legal in the discussion; it is listed with an empty message.
        Proposals are every team of the quest's size, in lexicographic order.
        """
        if seat != self.to_move:
            return []
        if self.phase is Phase.DISCUSSION:
            return [PASS, AvalonAction("say")]
        if self.phase is Phase.PROPOSE:
            return [AvalonAction("propose", team) for team in self._all_teams()]
        if self.phase is Phase.VOTE:
            return [AvalonAction("approve"), AvalonAction("reject")]
        if self.phase is Phase.QUEST:
            cards = [AvalonAction("success")]
            return [*cards, AvalonAction("fail")] if self.teams[seat] == EVIL else cards
        return [AvalonAction("assassinate", target=s) for s in self.assassin_targets(seat)]

    def _all_teams(self) -> list[tuple[int, ...]]:
        return list(combinations(range(self.setup.num_players), self.team_size))

    def illegal_reason(self, seat: int, action: AvalonAction) -> str | None:
        """Why ``seat`` may not play ``action`` now (the first rule broken), or None."""
        if self.over:
            return "the game is over"
        if seat != self.to_move:
            return "it is not your turn"
        allowed = PHASE_KINDS[self.phase]
        if action.kind not in allowed:
            doing = "', '".join(allowed)
            return f"'{action.kind}' is not allowed now; in the {self.phase.value} phase: '{doing}'"
        n = self.setup.num_players
        if action.kind == "propose":
            team = action.team
            if any(not 0 <= s < n for s in team):
                return "the team names a seat that does not exist"
            if len(set(team)) != len(team):
                return "the team names a player twice"
            if len(team) != self.team_size:
                return f"quest {self.quest + 1} needs a team of {self.team_size}, not {len(team)}"
            return None
        if action.kind == "fail" and self.teams[seat] == GOOD:
            return "a good player must play success"
        if action.kind == "assassinate":
            target = action.target
            if target is None or not 0 <= target < n:
                return "'assassinate' needs a player"
            if target == seat:
                return "you cannot assassinate yourself"
            if self.known[seat][target] == EVIL:
                return f"{self.names[target]} is on your side"
        return None

    # -- moves -----------------------------------------------------------------------------
    def apply(self, seat: int, action: AvalonAction) -> None:
        """Play ``seat``'s legal action (check with :meth:`illegal_reason` first).

        Raises:
            ValueError: the action is illegal (a caller bug; the env never sends one).
        """
        reason = self.illegal_reason(seat, action)
        if reason is not None:
            raise ValueError(f"illegal action {action} for seat {seat}: {reason}")
        if action.kind == "propose":
            action = AvalonAction("propose", tuple(sorted(action.team)))
        elif action.kind == "say":
            action = AvalonAction("say", value=within_budget(action.value, self._budget))
        self._record(seat, action)

    @property
    def _budget(self) -> int:
        return self.setup.max_speech_chars

    def default_action(self, seat: int) -> AvalonAction:
        """What a refused turn counts as (the env's documented default).

        Discussion: ``pass``; proposal: the leader and the seats after it in seat order;
        vote: ``reject``; quest: ``success``; assassination: nobody is named (a miss).
        """
        if self.phase is Phase.PROPOSE:
            n = self.setup.num_players
            team = sorted((seat + i) % n for i in range(self.team_size))
            return AvalonAction("propose", tuple(team))
        if self.phase is Phase.VOTE:
            return AvalonAction("reject")
        if self.phase is Phase.QUEST:
            return AvalonAction("success")
        if self.phase is Phase.ASSASSINATE:
            return AvalonAction("assassinate", target=None)
        return PASS

    def forfeit_turn(self, seat: int) -> None:
        """``seat`` loses its turn (a refused action): :meth:`default_action` is played."""
        if seat != self.to_move:
            raise ValueError(f"seat {seat} is not to move")
        self._record(seat, self.default_action(seat))

    def _record(self, seat: int, action: AvalonAction) -> None:
        self.game_log.entries.append(
            ("act", seat, action.kind, action.target, team_text(action.team) or action.value)
        )
        self.queue.pop(0)
        getattr(self, f"_on_{action.kind}")(seat, action)
        if not self.queue and self.phase is not Phase.OVER:
            self._end_phase()

    def apply_chance(self, outcome: int) -> None:
        """Draw the first leader: ``outcome`` (one of :meth:`chance_outcomes`)."""
        if outcome not in self.chance_outcomes():
            raise ValueError(f"{outcome!r} is not an outcome of {self.chance_outcomes()!r}")
        self.game_log.entries.append(("chance", outcome))
        self.chance_options = ()
        self.leader = outcome
        self._start_proposal()

    @classmethod
    def replay(cls, game_log: GameLog) -> AvalonGame:
        """The game ``game_log`` records, replayed entry by entry.

        Raises:
            ValueError: the log does not describe a legal game.
        """
        data = dict(game_log.setup)
        setup = AvalonSetup(
            **{**data, "names": tuple(data["names"]), "special_roles": tuple(data["special_roles"])}
        )
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
        seat = int(seat)
        if seat != self.to_move:
            raise ValueError(f"entry {entry!r}: seat {seat} is not to move")
        action = AvalonAction(
            str(kind),
            team_of(str(value)) if kind == "propose" else (),
            None if target is None else int(target),
            "" if kind == "propose" else str(value),
        )
        if action == self.default_action(seat) and action.kind == "assassinate":
            self._record(seat, action)  # a forfeited assassination names nobody
        else:
            self.apply(seat, action)

    # -- action effects --------------------------------------------------------------------
    def _on_pass(self, seat: int, action: AvalonAction) -> None:
        self._public("pass", seat, f"{self.names[seat]} says nothing.")

    def _on_say(self, seat: int, action: AvalonAction) -> None:
        self._public("speech", seat, f'{self.names[seat]} says: "{action.value}"')

    def _on_propose(self, seat: int, action: AvalonAction) -> None:
        self.team = action.team
        members = ", ".join(self.names[s] for s in action.team)
        text = f"{self.names[seat]} proposes the team {members} for quest {self.quest + 1}."
        self._public("proposal", seat, text, None, team_text(action.team))

    def _on_approve(self, seat: int, action: AvalonAction) -> None:
        self.votes[seat] = True

    def _on_reject(self, seat: int, action: AvalonAction) -> None:
        self.votes[seat] = False

    def _on_success(self, seat: int, action: AvalonAction) -> None:
        self.cards.append(True)
        self._post("card", seat, frozenset({seat}), "You played success.", None, "success")

    def _on_fail(self, seat: int, action: AvalonAction) -> None:
        self.cards.append(False)
        self._post("card", seat, frozenset({seat}), "You played fail.", None, "fail")

    def _on_assassinate(self, seat: int, action: AvalonAction) -> None:
        target = action.target
        self.assassinated = target
        assassin = self.names[seat]
        if target is None:
            self._public("assassination", seat, f"{assassin}, the assassin, names nobody.")
            self._finish(GOOD)
            return
        hit = self.roles[target] == MERLIN
        verdict = "was Merlin" if hit else "was not Merlin"
        text = f"{assassin}, the assassin, names {self.names[target]}, who {verdict}."
        self._public("assassination", seat, text, target, "hit" if hit else "miss")
        self._finish(EVIL if hit else GOOD)

    # -- phases ----------------------------------------------------------------------------
    def _end_phase(self) -> None:
        if self.phase is Phase.DISCUSSION:
            self._open_proposal()
        elif self.phase is Phase.PROPOSE:
            self._open_vote()
        elif self.phase is Phase.VOTE:
            self._close_vote()
        elif self.phase is Phase.QUEST:
            self._close_quest()

    def _start_proposal(self) -> None:
        assert self.leader is not None
        n = self.setup.num_players
        text = (
            f"Quest {self.quest + 1} (team of {self.team_size}, "
            f"{self.setup.fails_needed(self.quest)} fail card(s) fail it); proposal "
            f"{self.rejections + 1} of {MAX_REJECTIONS}: {self.names[self.leader]} leads."
        )
        self._public("leader", None, text, self.leader)
        self.team = ()
        if self.setup.discussion_rounds:
            self.phase = Phase.DISCUSSION
            self.queue = round_robin(list(range(n)), self.leader, self.setup.discussion_rounds)
        else:
            self._open_proposal()

    def _open_proposal(self) -> None:
        assert self.leader is not None
        self.phase, self.queue = Phase.PROPOSE, [self.leader]

    def _open_vote(self) -> None:
        self.phase = Phase.VOTE
        self.votes = {}
        self.queue = list(range(self.setup.num_players))

    def _close_vote(self) -> None:
        assert self.leader is not None
        n = self.setup.num_players
        approvals = tuple(self.votes[seat] for seat in range(n))
        self.proposals.append((self.quest, self.leader, self.team, approvals))
        for seat in range(n):
            word = "approve" if approvals[seat] else "reject"
            self._public("vote", seat, f"{self.names[seat]} votes {word}.", None, word)
        approved = strict_majority(approvals)
        self.leader = (self.leader + 1) % n
        if approved:
            text = f"The team is approved ({sum(approvals)} of {n}) and goes on the quest."
            self._public("approved", None, text, None, team_text(self.team))
            self.rejections = 0
            self.phase, self.queue, self.cards = Phase.QUEST, list(self.team), []
            return
        self.rejections += 1
        text = f"The team is rejected ({sum(approvals)} of {n}); rejections in a row: "
        self._public("rejected", None, text + str(self.rejections), None, str(self.rejections))
        if self.rejections >= MAX_REJECTIONS:
            self._public("over", None, f"{MAX_REJECTIONS} rejections in a row: evil wins.")
            self._finish(EVIL)
        else:
            self._start_proposal()

    def _close_quest(self) -> None:
        fails = self.cards.count(False)
        succeeded = fails < self.setup.fails_needed(self.quest)
        self.results.append((self.team, fails, succeeded))
        word = "succeeds" if succeeded else "fails"
        text = f"Quest {self.quest + 1} {word} with {fails} fail card(s)."
        self._public("quest", None, text, None, f"{fails}:{team_text(self.team)}")
        self.quest += 1
        if self.wins(EVIL) >= WINS_NEEDED:
            self._public("over", None, "Three quests failed: evil wins.")
            self._finish(EVIL)
        elif self.wins(GOOD) >= WINS_NEEDED:
            assassin = self.assassin
            if assassin is None:
                self._public("over", None, "Three quests succeeded: good wins.")
                self._finish(GOOD)
            else:
                text = "Three quests succeeded: the assassin may now name Merlin."
                self._public("assassin_turn", None, text)
                self.phase, self.queue = Phase.ASSASSINATE, [assassin]
        else:
            self._start_proposal()

    def _finish(self, winner: str) -> None:
        self.winner = winner
        self.phase, self.queue = Phase.OVER, []
        self._public("winner", None, f"{winner.capitalize()} wins.", None, winner)
        roles = ", ".join(
            f"{name} the {role}" for name, role in zip(self.names, self.roles, strict=True)
        )
        self._public("roles", None, f"The roles were: {roles}.")
        for viewer in range(self.setup.num_players):
            self.known[viewer] = list(self.teams)

    # -- messages --------------------------------------------------------------------------
    def _deal_messages(self) -> None:
        n = self.setup.num_players
        for seat in range(n):
            role = ROLES[self.roles[seat]]
            text = f"You are {self.names[seat]}, {role.name} ({role.team}). {role.description}"
            self._post("role", None, frozenset({seat}), text, seat, role.name)
            self.known[seat][seat] = role.team
            sight = SIGHT.get(role.name, {})
            seen = [s for s in range(n) if s != seat and self.roles[s] in sight]
            for other in seen:
                self.known[seat][other] = sight[self.roles[other]]
            if seen:
                listed = ", ".join(self.names[s] for s in seen)
                if sight[self.roles[seen[0]]] == EVIL:
                    text = f"You see these players as evil: {listed}."
                elif len(seen) == 1:
                    text = f"You see Merlin: {listed}."
                else:
                    text = f"You see Merlin and Morgana, one each: {listed}."
                self._post("sight", None, frozenset({seat}), text, None, team_text(tuple(seen)))

    def _public(
        self, kind: str, sender: int | None, text: str, subject: int | None = None, value: str = ""
    ) -> None:
        self._post(kind, sender, None, text, subject, value)

    def _post(
        self,
        kind: str,
        sender: int | None,
        audience: frozenset[int] | None,
        text: str,
        subject: int | None = None,
        value: str = "",
    ) -> None:
        self.log.post(Message(self.quest + 1, kind, sender, audience, text, subject, value))

    def view(self, seat: int) -> list[Message]:
        """The messages ``seat`` may read, oldest first."""
        return self.log.view(seat)
