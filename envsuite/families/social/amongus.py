"""Among Us (PettingZoo AEC): crewmates do tasks on a map of rooms; impostors kill unseen."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from envsuite.action_parsing import parse_index as parse_int_index
from envsuite.env_base import InvalidAction
from envsuite.families.social.amongus_actions import (
    action_count,
    action_index,
    action_text,
    parse_index,
    parse_text,
)
from envsuite.families.social.amongus_measures import (
    MEASURE_KEYS,
    AmongUsMeasures,
    checked_probe_phases,
)
from envsuite.families.social.amongus_observation import (
    rules_text,
    text_view,
    vector_size,
    vector_view,
)
from envsuite.families.social.amongus_rules import AmongUsGame
from envsuite.families.social.amongus_setup import (
    DEFAULT_BUTTON_ROOM,
    DEFAULT_CORRIDORS,
    DEFAULT_ROOMS,
    ROLES,
    Action,
    AmongUsSetup,
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
from envsuite.families.social.werewolf_setup import NAMES
from envsuite.rendering import TEXT_RENDER_MODES


class AmongUsEnv(SocialAECEnv[Action]):
    """Among Us: the crew does its tasks and hunts the impostors, who kill where nobody sees.

    Description:
        The grid world of "Training Language Models for Social Deduction with Multi-Agent
        RL" (Sarkar et al., 2025), as rules in
        :class:`~envsuite.families.social.amongus_rules.AmongUsGame`. ``num_players``
        seats (``player_0`` ..., named Alice, Bob, ... in the text) are dealt roles by
        ``self.np_random``: ``num_impostors`` impostors (team ``impostors``, who know each
        other) and crewmates (team ``crew``), each crewmate ``tasks_per_player`` tasks in
        distinct rooms other than the button room. The default map is nine rooms on a 3x3
        layout after The Skeld (:data:`~.amongus_setup.DEFAULT_ROOMS`, corridors between
        neighbours, the button in the Cafeteria, where everyone starts). Each round every
        player takes one turn, in seat order from seat ``(round - 1) mod n``: move along
        a corridor, do a task (``task_steps`` turns in its room), kill a crewmate in the
        room (impostors, once ``kill_cooldown`` rounds have passed since the start, their
        last kill or the last meeting), report a body in the room, call an emergency
        meeting in the button room or wait. A player sees only its own room: who is
        there, bodies, who leaves for where and comes in from where, a kill done before
        it. Dead crewmates are ghosts who finish their tasks unseen. A report or the
        button opens a meeting: the deaths since the last one are announced, everyone
        goes to the button room, ``discussion_rounds`` round-robin rounds of speech from
        a first speaker drawn from ``np_random``, then a secret vote in which ``skip``
        is a candidate; the most votes eject their player (a tie: ``tie_rule``). The crew
        wins when every task is done or no impostor is left; the impostors win at parity.

    Observation:
        ``observation_mode="text"``: a :class:`~envsuite.spaces.UnicodeText` message: the
        rules and the map, the player's name and role (and fellow impostors), its tasks,
        the task bar (updated at meetings), its room with who and which bodies are there
        and the corridors, its cooldown, the dead it knows of, every event it may read
        (its room's comings, goings and kills; meetings' reports, speeches, accusations,
        votes and ejections; older events dropped past 60,000 characters), the reason its
        last action was refused and whether and how it must act. ``observation_mode="vector"``:
        ``Box(0, 1)`` float32 from the same state, seats ordered from the player itself
        (see :func:`~.amongus_observation.vector_view`). Another player's role, room or
        tasks never appear unless the player saw or was told them.

    Action:
        Text mode, a command of the grammar in
        :mod:`~envsuite.families.social.amongus_actions`: ``go ROOM``, ``do task``,
        ``kill NAME``, ``report``, ``call meeting``, ``wait`` in play; ``say: MESSAGE``,
        ``accuse NAME`` or ``wait`` in a meeting's discussion; ``vote NAME`` or ``skip``
        in its vote. ``info["legal_actions"]`` lists every legal command but ``say``.
        Vector mode: ``Discrete(4 + R + n)`` and ``info["action_mask"]`` (all zeros
        off-turn). A refused action (not text, no command, an unknown name or room, not
        allowed in this phase, no corridor, no task here, cooldown running, nobody to
        kill, no body, no button or meetings left, a dead or own target) sets
        ``info["parse_error"]``, costs ``invalid_action_penalty`` and the turn is taken
        as ``wait`` (skip, in a vote): a bad action never stops the game. An action sent
        off-turn costs the penalty and changes nothing else.

    Reward:
        At the end, +1 to every player of the winning team and -1 to the others (0 when
        undecided); ``-invalid_action_penalty`` per refused action.

    Termination:
        Every player terminates when a team wins; every player is truncated when round
        ``max_rounds`` ends undecided. Every info holds the player's own ``role`` and
        ``team`` and ``invalid_actions``; final infos add ``outcome`` (``win`` / ``loss``
        / ``draw``) and ``winner``. The env-level success is that a team won.

    Arguments:
        num_players: Players, 4 to 10 (default 5).
        num_impostors: Impostors, 1 to fewer than the crewmates (default 1 below 7
            players, else 2, as in Among Us).
        rooms: The map's rooms (default the nine of :data:`~.amongus_setup.DEFAULT_ROOMS`).
        corridors: Pairs of rooms joined by a corridor (the map must be connected).
        button_room: The room with the emergency button, where everyone starts.
        tasks_per_player: Tasks per crewmate (default 4).
        task_steps: Turns each task takes (default 3).
        kill_cooldown: Rounds between kills (default 2).
        emergency_meetings: Meetings each player may call with the button (default 1).
        discussion_rounds: Speaking turns per living player in a meeting (0 to 5).
        max_speech_chars: Characters per message (1 to 2000); longer ones are cut.
        tie_rule: ``"no_exile"`` or ``"random"``.
        max_rounds: Rounds before the game ends undecided (default 40).
        reveal_role_on_eject: Whether an ejection announces the ejected player's role.
        names: The players' names (default Alice, Bob, ...; words of ASCII letters).
        observation_mode: ``"text"`` for LLM agents or ``"vector"`` for classic agents.
        invalid_action_penalty: The cost of a refused action (>= 0).
        belief_probes: Phases (``"meeting"``: a meeting's discussion, ``"vote"``: its
            vote) at whose start every living player gets a probe turn (text mode only;
            default none): see Belief probes below.
        speaking_reward: Whether to score each speech by its effect on belief-tracking
            crew listeners, and each impostor's cover at the votes (default False).
        render_mode: ``"ansi"`` (every role and room), ``"rgb_array"``, ``"human"`` or
            None.

    Belief probes and speaking reward:
        Both are off by default (the game is then exactly as above). With
        ``belief_probes``, when a meeting's discussion or vote opens each living player,
        in seat order, gets one extra turn before the phase's first action: its
        observation ends with the question, ``info["probe"]`` holds it as data (players,
        classes ``impostors`` and ``crew``, phase, ``day`` = the meeting's number) and
        ``info["legal_actions"]`` is ``["uniform"]``. The answer is ``Alice: 0.7, Bob:
        0.1`` (the probability that each is an impostor), JSON, or a dict from a Python
        agent, read leniently as in Werewolf-v0; an answer where no player's
        probability can be read is refused with a ``parse_error`` and scored as 0.5 for
        everyone. A probe never costs a penalty and changes nothing in the game, its log
        or its rewards. Final infos then hold ``probes``, ``probe_brier``,
        ``probe_log``, ``probe_accuracy`` and ``probe_malformed``; with
        ``speaking_reward``, ``speeches``, ``speaking_reward``, ``speaking_reward_total``
        and, for impostors, ``deception``; the runner records them per player as
        metrics. Definitions: :mod:`~envsuite.families.social.amongus_measures`.

    Version history:
        v0: Initial version.

    """

    #: Final-info keys the runner stores as per-player metrics (present when measured).
    record_metrics: ClassVar[tuple[str, ...]] = MEASURE_KEYS
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(TEXT_RENDER_MODES),
        "name": "amongus_v0",
        "is_parallelizable": False,
    }
    CHANCE: ClassVar[Phase] = Phase.CHANCE

    def __init__(
        self,
        num_players: int = 5,
        num_impostors: int | None = None,
        rooms: Sequence[str] = DEFAULT_ROOMS,
        corridors: Sequence[Sequence[str]] = DEFAULT_CORRIDORS,
        button_room: str = DEFAULT_BUTTON_ROOM,
        tasks_per_player: int = 4,
        task_steps: int = 3,
        kill_cooldown: int = 2,
        emergency_meetings: int = 1,
        discussion_rounds: int = 1,
        max_speech_chars: int = 300,
        tie_rule: str = "no_exile",
        max_rounds: int = 40,
        reveal_role_on_eject: bool = True,
        names: Sequence[str] | None = None,
        observation_mode: ObservationMode = "text",
        invalid_action_penalty: float = 0.1,
        belief_probes: Sequence[str] | None = None,
        speaking_reward: bool = False,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        n = checked_player_count(num_players, 4, 10)
        checked_mode_and_penalty(observation_mode, invalid_action_penalty)
        probe_phases = checked_probe_phases(belief_probes)
        checked_measure_options(
            probe_phases, observation_mode, speaking_reward, discussion_rounds, "meeting"
        )
        self.measures = AmongUsMeasures(probe_phases, speaking_reward)
        pairs = tuple(
            _sequence("each corridor", pair) for pair in _sequence("corridors", corridors)
        )
        names_ = NAMES[:n] if names is None else _sequence("names", names)
        self.setup = AmongUsSetup(
            num_players=n,
            num_impostors=(1 if n < 7 else 2) if num_impostors is None else num_impostors,
            rooms=_sequence("rooms", rooms),
            corridors=pairs,
            button_room=button_room,
            tasks_per_player=tasks_per_player,
            task_steps=task_steps,
            kill_cooldown=kill_cooldown,
            emergency_meetings=emergency_meetings,
            discussion_rounds=discussion_rounds,
            max_speech_chars=max_speech_chars,
            tie_rule=tie_rule,  # type: ignore[arg-type]  # checked by AmongUsSetup
            max_rounds=max_rounds,
            reveal_role_on_eject=reveal_role_on_eject,
            names=names_,
        )
        self._init_seats(n, observation_mode, invalid_action_penalty, render_mode)
        room_count = len(self.setup.rooms)
        self._actions = action_count(room_count, n)
        self._init_spaces(vector_size(room_count, n), self._actions)
        self._events = EventTexts()
        self._rules = ""
        # Until the first reset: the undealt roles, each crewmate's first rooms as tasks.
        first_rooms = tuple(r for r in range(room_count) if r != self.setup.button)
        base = self.setup.base_roles()
        self.game = AmongUsGame(
            self.setup,
            base,
            [first_rooms[:tasks_per_player] if role == "crewmate" else () for role in base],
        )
        self.invalid_actions = dict.fromkeys(self.possible_agents, 0)

    # -- episode -----------------------------------------------------------------------
    def _deal(self, rng: np.random.Generator) -> AmongUsGame:
        """Roles (a uniform permutation) and each crewmate's task rooms, from ``rng``."""
        setup = self.setup
        roles = self._dealt_roles(rng)
        candidates = [r for r in range(len(setup.rooms)) if r != setup.button]
        tasks = []
        for role in roles:
            if role == "crewmate":
                picked = rng.choice(len(candidates), setup.tasks_per_player, replace=False)
                tasks.append(tuple(candidates[int(i)] for i in picked))
            else:
                tasks.append(())
        return AmongUsGame(setup, roles, tasks)

    def _new_game(self, rng: np.random.Generator) -> AmongUsGame:
        """Roles and tasks dealt from ``rng`` (:meth:`_deal`); the first round begins."""
        return self._deal(rng)

    def _info(self, agent: str) -> dict[str, Any]:
        seat = self._seat[agent]
        role = self.game.roles[seat]
        info: dict[str, Any] = {
            "role": role,
            "team": ROLES[role].team,
            "invalid_actions": self.invalid_actions[agent],
        }
        if self.game.over:
            info["winner"] = self.game.winner
            return self._outcome_info(info, seat, ROLES[role].team)
        if self.measures.probe_seat == seat:
            info["probe"] = self.measures.question(self.game, seat).as_info()
        return info

    # -- actions -----------------------------------------------------------------------
    def parse_action(self, agent: str, action: Any) -> Action:
        """A command (text) or an index (vector) as a rule action, checked legal."""
        seat = self._seat[agent]
        if self.measures.probe_seat == seat:
            question = self.measures.question(self.game, seat)
            return Action("probe", value=read_probe_answer(action, question))
        setup = self.setup
        if self.observation_mode == "text":
            parsed = parse_text(action, setup.names, setup.rooms)
        else:
            index = parse_int_index(action, self._actions, "action")
            parsed = parse_index(index, seat, len(setup.rooms), setup.num_players, self.game.phase)
        reason = self.game.illegal_reason(seat, parsed)
        if reason is not None:
            raise InvalidAction(f"illegal action: {reason}")
        return parsed

    def encode_action(self, agent: str, action: Action) -> Any:
        """``action`` of ``agent`` in this env's action form (text, or the vector index)."""
        if self.observation_mode == "vector":
            return action_index(
                action, self._seat[agent], len(self.setup.rooms), self.setup.num_players
            )
        if action.kind == "wait" and self.game.phase is Phase.VOTE:
            return "skip"
        return action_text(action, self.setup.names, self.setup.rooms)

    # -- observations ------------------------------------------------------------------
    def _vector_view(self, seat: int) -> Any:
        return vector_view(self.game, seat)

    def _text_view(self, seat: int, error: str | None, legal: list[Any]) -> str:
        if not self._rules:  # (the rules depend on the setup only)
            self._rules = rules_text(self.game)
        return text_view(
            self.game, seat, error, legal, MAX_OBSERVATION_CHARS, self._events, self._rules
        )

    def render_text(self) -> str:
        """The ``ansi`` frame: every role, room, task count and body; the phase."""
        game = self.game
        status = (
            f"{game.winner or 'nobody'} won"
            if game.over
            else f"round {game.round}, {game.phase.value}"
        )
        lines = [f"Among Us: {status}; task bar {game.steps_done}/{game.total_steps}"]
        for seat, name in enumerate(self.setup.names):
            mark = "alive" if game.alive[seat] else "dead"
            body = " (body here)" if seat in game.bodies else ""
            turn = " <- to move" if game.to_move == seat else ""
            room = self.setup.rooms[game.room[seat]]
            tasks = f"{len(game.tasks_left(seat))} tasks left" if game.tasks[seat] else ""
            lines.append(
                f"  {name:<8} {game.roles[seat]:<9} {mark:<5} {room:<11}{tasks}{body}{turn}"
            )
        return "\n".join(lines)


def _sequence(what: str, value: Any) -> tuple[Any, ...]:
    """``value`` as a tuple, or a clear error when it is not a list (or a tuple) of items."""
    if isinstance(value, str) or not isinstance(value, list | tuple):
        raise ValueError(f"{what} must be a list, got {value!r}")
    return tuple(value)
