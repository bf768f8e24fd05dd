"""Avalon (PettingZoo AEC): 5-10 players; Merlin, Percival, Morgana, Mordred, Oberon, assassin."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from envsuite.action_parsing import parse_index as parse_int_index
from envsuite.env_base import InvalidAction
from envsuite.families.social.avalon_actions import (
    action_index,
    action_size,
    action_text,
    parse_index,
    parse_text,
)
from envsuite.families.social.avalon_measures import (
    MEASURE_KEYS,
    AvalonMeasures,
    checked_probe_phases,
)
from envsuite.families.social.avalon_observation import (
    VectorObserver,
    rules_text,
    text_view,
    vector_size,
)
from envsuite.families.social.avalon_rules import AvalonGame
from envsuite.families.social.avalon_setup import (
    DEFAULT_SPECIAL_ROLES,
    NAMES,
    ROLES,
    AvalonAction,
    AvalonSetup,
    Phase,
)
from envsuite.families.social.event_texts import EventTexts
from envsuite.families.social.social_env import (
    MAX_OBSERVATION_CHARS,
    ObservationMode,
    SocialAECEnv,
    checked_measure_options,
    checked_mode_and_penalty,
    checked_player_count,
)
from envsuite.families.social.social_measures import read_probe_answer
from envsuite.rendering import TEXT_RENDER_MODES


class AvalonEnv(SocialAECEnv[AvalonAction]):
    """The Resistance: Avalon: good sends quests out; evil, hidden among it, sabotages them.

    Description:
        ``num_players`` seats (``player_0`` ..., named Alice, Bob, ... in the text) are
        dealt roles by ``self.np_random``: 2, 2, 3, 3, 3 or 4 evil players for 5 to 10
        players, the rest good. ``special_roles`` names the roles in play (default
        Merlin, Percival, Morgana and the assassin); loyal servants (good) and minions
        (evil) fill the other seats. Standard sight: Merlin sees the evil except Mordred;
        the evil see each other except Oberon (who sees nobody); Percival sees Merlin and
        Morgana without knowing which is which. The first leader is drawn uniformly; the
        leadership passes to the next seat after each proposal. Before each proposal,
        ``discussion_rounds`` rounds of speaking in seat order from the leader (one
        message per turn, at most ``max_speech_chars`` characters); then the leader
        proposes a team of the quest's size (quests of 2-3-2-3-3 players with 5 players,
        2-3-4-3-4 with 6, 2-3-3-4-4 with 7, 3-4-4-5-5 with 8-10); then every player
        approves or rejects, votes secret until all are in and then public. A strict
        majority approves; five rejections in a row on one quest give evil the game. The
        team's members play secret quest cards (good must play success); only the number
        of fail cards is published; one fails the quest, two on the fourth quest with 7
        or more players. Three failed quests win for evil; three successes win for good
        unless the assassin (with Merlin in play) then names Merlin. The rules engine is
        :class:`~envsuite.families.social.avalon_rules.AvalonGame`; its ``game_log``
        replays a game from the deal and the entries.

    Observation:
        ``observation_mode="text"``: a :class:`~envsuite.spaces.UnicodeText` message: the
        rules in brief, the player's name, role and team, the quest board and rejection
        track, what its role sees, every event it may read (speeches, proposals, the
        votes once all are in, quest results, its own quest cards; older events dropped
        past 60,000 characters), the reason its last action was refused and what it must
        do (with the legal commands). ``observation_mode="vector"``: ``Box(0, 1)``
        float32, seats ordered from the player itself: role and phase one-hots, its turn,
        whether it leads, the quest, the rejection track, the team size, the two-fail
        rule; per quest its result; per seat what the player knows (evil, good, Merlin
        or Morgana), the leader and the proposed team; the teams that went on quests; and
        every proposal voted on (team, approvals, leader). Hidden roles and other
        players' quest cards never appear in another player's observation or info before
        the game ends.

    Action:
        Text mode, a command of the grammar in
        :mod:`~envsuite.families.social.avalon_actions`: ``propose Alice, Bob``,
        ``approve``, ``reject``, ``success``, ``fail``, ``assassinate Alice``, ``say:
        MESSAGE`` or ``pass``. The player to move finds ``info["legal_actions"]`` (every
        legal command but ``say``; a leader's list is every team of the quest's size).
        Vector mode: ``Discrete(5 + n + 2 ** n)`` indices relative to the player (see
        that module) and ``info["action_mask"]`` (all zeros off-turn); vector players
        cannot ``say``. A refused action is checked in this order, one reason each: not
        text (vector: not an int, out of range); no command; an unknown or repeated name;
        the command is not allowed in this phase; the wrong team size; a good player's
        fail card; assassinating oneself or a known evil player. Its reason is the
        player's ``info["parse_error"]``; it costs ``invalid_action_penalty`` and the turn
        is played by default: silence in the discussion, the leader and the seats after
        it as the team, ``reject`` in a vote, ``success`` on a quest, and an assassin who
        names nobody (good wins). A bad action never stops the game. An action sent
        off-turn costs the penalty and changes nothing else.

    Reward:
        At the end, +1 to every player of the winning team and -1 to the others;
        ``-invalid_action_penalty`` per refused action.

    Termination:
        Every player terminates when a team wins (every game is decided: at most five
        quests of at most five proposals). Final infos hold ``outcome`` (``win`` /
        ``loss``), ``role``, ``team`` (every info holds the player's own role and team,
        so records give win rates by role and team), ``winner`` and ``invalid_actions``.
        The env-level success (:meth:`episode_success`) is that the game was decided.

    Arguments:
        num_players: Players, 5 to 10 (default 5).
        special_roles: The named roles in play, a subset of ``merlin``, ``percival``,
            ``morgana``, ``mordred``, ``oberon``, ``assassin`` (default the first,
            second, third and last).
        discussion_rounds: Speaking turns per player before each proposal (0 to 5).
        max_speech_chars: Characters per message (1 to 2000); longer ones are cut.
        names: The players' names (default Alice, Bob, ...; words of ASCII letters).
        observation_mode: ``"text"`` for LLM agents or ``"vector"`` for classic agents.
        invalid_action_penalty: The cost of a refused action (>= 0).
        belief_probes: Phases (``"discussion"``, ``"proposal"``, ``"vote"``, ``"quest"``,
            ``"assassination"``) at whose start every player gets a probe turn (text mode
            only; default none): see Belief probes below.
        speaking_reward: Whether to score each speech and proposal by its effect on
            belief-tracking good listeners, and each evil player's cover at the votes
            (default False).
        render_mode: ``"ansi"`` (the moderator's view, roles included), ``"rgb_array"``,
            ``"human"`` or None.

    Belief probes and speaking reward:
        Both are off by default (the game is then exactly as above). With
        ``belief_probes``, when the game enters a named phase each player, in seat order,
        gets one extra turn before the phase's first action: its observation ends with
        the question, ``info["probe"]`` holds it as data (players, classes ``evil`` and
        ``good``, phase, ``day`` = the quest) and ``info["legal_actions"]`` is
        ``["uniform"]``. The answer is ``Alice: 0.7, Bob: 0.1`` (the probability that each
        is evil), JSON, or a dict from a Python agent, read leniently as in Werewolf-v0; an
        answer where no player's probability can be read is refused with a
        ``parse_error`` and scored as 0.5 for everyone. A probe never costs a penalty
        and changes nothing in the game, its log or its rewards. Final infos then hold
        ``probes``, ``probe_brier``, ``probe_log``, ``probe_accuracy``,
        ``probe_malformed`` and, for good players, ``deduction`` (AvalonBench's
        deduction accuracy); with ``speaking_reward``, ``speeches``,
        ``speaking_reward``, ``speaking_reward_total`` and, for evil players,
        ``deception``; the runner records them per player as metrics. Definitions:
        :mod:`~envsuite.families.social.avalon_measures`.

    Version history:
        v0: Initial version.

    """

    #: Final-info keys the runner stores as per-player metrics (present when measured).
    record_metrics: ClassVar[tuple[str, ...]] = MEASURE_KEYS
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(TEXT_RENDER_MODES),
        "name": "avalon_v0",
        "is_parallelizable": False,
    }
    CHANCE: ClassVar[Phase] = Phase.CHANCE

    def __init__(
        self,
        num_players: int = 5,
        special_roles: list[str] | tuple[str, ...] = DEFAULT_SPECIAL_ROLES,
        discussion_rounds: int = 1,
        max_speech_chars: int = 300,
        names: list[str] | tuple[str, ...] | None = None,
        observation_mode: ObservationMode = "text",
        invalid_action_penalty: float = 0.1,
        belief_probes: list[str] | tuple[str, ...] | None = None,
        speaking_reward: bool = False,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        checked_mode_and_penalty(observation_mode, invalid_action_penalty)
        if isinstance(special_roles, str) or not isinstance(special_roles, list | tuple):
            raise ValueError(f"special_roles must be a list of role names, got {special_roles!r}")
        n = checked_player_count(num_players, 5, len(NAMES))
        probe_phases = checked_probe_phases(belief_probes)
        checked_measure_options(
            probe_phases, observation_mode, speaking_reward, discussion_rounds, "discussion"
        )
        self.measures = AvalonMeasures(probe_phases, speaking_reward)
        self.setup = AvalonSetup(
            num_players=n,
            special_roles=tuple(special_roles),
            discussion_rounds=discussion_rounds,
            max_speech_chars=max_speech_chars,
            names=tuple(NAMES[:n] if names is None else names),
        )
        self._init_seats(n, observation_mode, invalid_action_penalty, render_mode)
        self._init_spaces(vector_size(n), action_size(n))
        self.game = AvalonGame(self.setup, self.setup.base_roles())
        self.invalid_actions = dict.fromkeys(self.possible_agents, 0)
        self._observer = VectorObserver(n)
        self._events = EventTexts()
        self._rules = ""

    # -- episode -----------------------------------------------------------------------
    def _new_game(self, rng: np.random.Generator) -> AvalonGame:
        """The roles dealt (a uniform permutation from ``rng``); the first leader is drawn next."""
        return AvalonGame(self.setup, self._dealt_roles(rng))

    def _info(self, agent: str) -> dict[str, Any]:
        seat = self._seat[agent]
        role = ROLES[self.game.roles[seat]]
        info: dict[str, Any] = {
            "role": role.name,
            "team": role.team,
            "invalid_actions": self.invalid_actions[agent],
        }
        if self.game.over:
            info["winner"] = self.game.winner
            return self._outcome_info(info, seat, role.team)
        if self.measures.probe_seat == seat:
            info["probe"] = self.measures.question(self.game, seat).as_info()
        return info

    # -- actions -----------------------------------------------------------------------
    def parse_action(self, agent: str, action: Any) -> AvalonAction:
        """A command (text) or an index (vector) as a rule action, checked legal."""
        seat = self._seat[agent]
        if self.measures.probe_seat == seat:
            question = self.measures.question(self.game, seat)
            return AvalonAction("probe", value=read_probe_answer(action, question))
        n = self.setup.num_players
        if self.observation_mode == "text":
            parsed = parse_text(action, self.setup.names)
        else:
            parsed = parse_index(parse_int_index(action, action_size(n), "action"), seat, n)
        reason = self.game.illegal_reason(seat, parsed)
        if reason is not None:
            raise InvalidAction(f"illegal action: {reason}")
        return parsed

    def encode_action(self, agent: str, action: AvalonAction) -> Any:
        """``action`` of ``agent`` in this env's action form (text, or the vector index)."""
        if self.observation_mode == "text":
            return action_text(action, self.setup.names)
        return action_index(action, self._seat[agent], self.setup.num_players)

    # -- observations ------------------------------------------------------------------
    def _vector_view(self, seat: int) -> Any:
        return self._observer.view(self.game, seat)

    def _text_view(self, seat: int, error: str | None, legal: list[Any]) -> str:
        if not self._rules:  # (the rules depend on the setup only)
            self._rules = rules_text(self.game)
        return text_view(
            self.game, seat, error, legal, MAX_OBSERVATION_CHARS, self._events, self._rules
        )

    def render_text(self) -> str:
        """The ``ansi`` frame: the moderator's view (every role, the board, the phase)."""
        game = self.game
        status = (
            f"{game.winner} won"
            if game.over
            else f"quest {game.quest + 1}, {game.phase.value}, rejections {game.rejections}"
        )
        lines = [f"Avalon: {status}"]
        for seat, name in enumerate(self.setup.names):
            lead = " (leader)" if game.leader == seat else ""
            team = " on the team" if seat in game.team else ""
            turn = " <- to move" if game.to_move == seat else ""
            lines.append(f"  {name:<6} {game.roles[seat]:<9}{lead}{team}{turn}")
        return "\n".join(lines)
