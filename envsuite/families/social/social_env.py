"""What the social-deduction AEC envs share: seats, spaces, chance, the team ending, digests.

Werewolf (and Mafia on its engine), Avalon and Among Us are each a rules engine (a
``game`` with ``roles``, ``teams``, ``phase``, ``to_move``, ``over``, ``winner`` and a
``game_log``) and a measure book (:class:`~envsuite.families.social.social_measures.MeasureBook`)
behind the PettingZoo AEC base (:class:`~envsuite.aec_env_base.EnvsuiteAECEnv`).
:class:`SocialAECEnv` holds what they do alike; each env keeps its own rules, observations,
action grammar and class docstring. The ``checked_*`` functions are the constructor checks
every game makes, with the same messages.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any, ClassVar, Generic, Literal, TypeVar

import numpy as np
from gymnasium import spaces

from envsuite.aec_env_base import OFF_TURN, EnvsuiteAECEnv, Turn
from envsuite.families.social.belief_probes import UNIFORM_ANSWER, probe_prompt
from envsuite.families.social.setup_checks import check_int
from envsuite.rendering import checked_render_mode
from envsuite.spaces import UnicodeText

ObservationMode = Literal["text", "vector"]
ActionT = TypeVar("ActionT")

#: Longest text observation, in characters (older events are dropped past it).
MAX_OBSERVATION_CHARS = 60_000
#: Longest text action read.
MAX_ACTION_CHARS = 10_000


def checked_player_count(num_players: Any, low: int, high: int) -> int:
    """``num_players`` when it is an int (not a bool) in ``[low, high]``.

    Raises:
        ValueError: it is not.
    """
    check_int("num_players", num_players, low, high)
    return int(num_players)


def checked_mode_and_penalty(observation_mode: Any, invalid_action_penalty: Any) -> None:
    """Check ``observation_mode`` (``"text"`` or ``"vector"``) and the penalty (a number >= 0).

    Raises:
        ValueError: either is out of its range.
    """
    if observation_mode not in ("text", "vector"):
        raise ValueError(f"observation_mode must be 'text' or 'vector', got {observation_mode!r}")
    if not isinstance(invalid_action_penalty, int | float) or not invalid_action_penalty >= 0:
        raise ValueError(
            f"invalid_action_penalty must be a number >= 0, got {invalid_action_penalty!r}"
        )


def checked_measure_options(
    probe_phases: tuple[str, ...],
    observation_mode: Any,
    speaking_reward: Any,
    discussion_rounds: Any,
    talk_phase: str,
) -> None:
    """Check the belief-probe and speaking-reward arguments against the rest.

    Args:
        probe_phases: The checked ``belief_probes`` (phase names).
        observation_mode: Probes need ``"text"`` (an answer is text).
        speaking_reward: Must be a bool.
        discussion_rounds: A probe of ``talk_phase`` needs at least one round.
        talk_phase: The game's phase of speeches (``"discussion"``, ``"meeting"``).

    Raises:
        ValueError: an argument does not fit.
    """
    if probe_phases and observation_mode != "text":
        raise ValueError("belief_probes need observation_mode='text' (an answer is text)")
    if not isinstance(speaking_reward, bool):
        raise ValueError(f"speaking_reward must be True or False, got {speaking_reward!r}")
    if talk_phase in probe_phases and discussion_rounds == 0:
        raise ValueError(f"belief_probes names '{talk_phase}', but discussion_rounds is 0")


class SocialAECEnv(EnvsuiteAECEnv[Any, Any, ActionT], Generic[ActionT]):
    """Base of the social-deduction AEC envs: what every one of them does the same way.

    Description:
        Seats ``player_0`` ... ``player_{n-1}`` (:meth:`seat_of` gives the index); a text
        form (:class:`~envsuite.spaces.UnicodeText` observations of at most 60,000
        characters and actions of at most 10,000) or a vector form (``Box(0, 1)`` float32
        observations, ``Discrete`` actions), the same space for every seat. Chance events
        of the rules engine (a first speaker, a random tie) are drawn from ``np_random``
        (:meth:`_resolve_chance`). The agent to move is the seat owed a belief probe, if
        any, else the engine's seat to move. A refused action costs
        ``invalid_action_penalty`` and the player to move loses its turn (the engine's
        ``forfeit_turn``); a refused probe answer costs nothing (every player at 0.5).
        At the end every player gets +1 if its team won and -1 otherwise (nothing when
        the game ends undecided), every info is rewritten, and every agent terminates
        (or is truncated when the engine says so). :meth:`episode_success` is that a team
        won; :meth:`state_digest` hashes the game log, the refused-action counts, the
        generator's state and the measures.

        Each episode deals a new game from ``np_random`` (:meth:`_new_game`; the roles
        in a uniformly random order, :meth:`_dealt_roles`) and draws its opening chance
        events.

        The mover finds its legal actions (``say`` aside; ``["uniform"]`` on a probe
        turn) in its info; a text observation ends with the probe's question on a probe
        turn.

    Subclasses set ``game``, ``setup`` and ``measures`` in ``__init__`` (calling
    :meth:`_init_seats` and :meth:`_init_spaces`), set :attr:`CHANCE` to their engine's
    chance phase and write the game's own hooks: ``_new_game``, ``parse_action``,
    ``encode_action``, ``_text_view``, ``_vector_view``, ``render_text`` and ``_info``
    (the probes' questions and the speeches' scoring live in the game's measure book).
    ``apply_action``, ``_turn``, ``legal_actions`` and ``observe`` are shared; a game may
    override them (Werewolf keeps its own faster ``legal_actions``, ``observe``, ``_turn``,
    ``step``, ``reset`` and ``last``).
    """

    #: The engine's chance phase (a value of its ``Phase`` enum).
    CHANCE: ClassVar[Any]

    game: Any
    setup: Any
    measures: Any
    observation_mode: ObservationMode
    invalid_action_penalty: float
    invalid_actions: dict[str, int]

    # -- construction ------------------------------------------------------------------
    def _init_seats(
        self,
        num_players: int,
        observation_mode: ObservationMode,
        invalid_action_penalty: float,
        render_mode: str | None,
    ) -> None:
        """The mode, the penalty, the render mode, the agents and their seats."""
        self.observation_mode = observation_mode
        self.invalid_action_penalty = float(invalid_action_penalty)
        self.render_mode = checked_render_mode(render_mode, self.metadata["render_modes"])
        self.possible_agents = [f"player_{seat}" for seat in range(num_players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        # Whether a step may take the shortcut of :meth:`_quick_step` (set by
        # :meth:`_init_spaces`, once the measures are known), and the rewards of a step
        # that pays nothing.
        self._quick = False
        self._no_rewards = dict.fromkeys(self.possible_agents, 0.0)
        self._action_type: type = str if observation_mode == "text" else int
        # The mover's encoded legal actions, kept while the game and its log stand still.
        self._legal_game: Any = None
        self._legal_key: tuple[int, int] = (-1, -1)
        self._legal: list[Any] = []

    def _init_spaces(self, vector_size: int, action_count: int) -> None:
        """Every seat's spaces: text, or a ``vector_size`` Box and ``action_count`` actions."""
        if self.observation_mode == "text":
            observation: spaces.Space[Any] = UnicodeText(MAX_OBSERVATION_CHARS)
            action: spaces.Space[Any] = UnicodeText(MAX_ACTION_CHARS)
        else:
            observation = spaces.Box(0.0, 1.0, (vector_size,), np.float32)
            action = spaces.Discrete(action_count)
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation)
        self.action_spaces = dict.fromkeys(self.possible_agents, action)
        self._quick = not self.measures.enabled and self.render_mode != "human"

    # -- episode -----------------------------------------------------------------------
    def new_episode(
        self, seed: int | None, options: dict[str, Any] | None
    ) -> tuple[str, dict[str, dict[str, Any]]]:
        """Deal a new game from ``np_random`` and play to the first turn.

        The game is :meth:`_new_game`'s; its opening chance events (a first leader or
        speaker) are drawn, the refused-action counts cleared and the measures started.
        """
        assert self.np_random is not None  # seeded by reset
        self.game = self._new_game(self.np_random)
        self.invalid_actions = dict.fromkeys(self.possible_agents, 0)
        self._resolve_chance()
        if self.measures.enabled:
            self.measures.start(self.game)
        return self._mover(), {agent: self._info(agent) for agent in self.possible_agents}

    def _new_game(self, rng: np.random.Generator) -> Any:
        """A new game of the setup, dealt from ``rng``."""
        raise NotImplementedError

    def _dealt_roles(self, rng: np.random.Generator) -> tuple[str, ...]:
        """The setup's roles in a uniformly random order (one permutation from ``rng``)."""
        base = self.setup.base_roles()
        order = rng.permutation(len(base))
        return tuple(base[int(i)] for i in order)

    # -- turns -------------------------------------------------------------------------
    def seat_of(self, agent: str) -> int:
        """The seat index of ``agent`` (``player_3`` -> 3)."""
        return self._seat[agent]

    def _resolve_chance(self) -> None:
        """Draw every pending chance event (first speaker, a random tie) from ``np_random``."""
        assert self.np_random is not None
        while self.game.phase is self.CHANCE:
            options = self.game.chance_outcomes()
            self.game.apply_chance(options[int(self.np_random.integers(len(options)))])

    def _mover(self) -> str:
        probed = self.measures.probe_seat
        seat = self.game.to_move if probed is None else probed
        return self.possible_agents[0 if seat is None else seat]

    def _info(self, agent: str) -> dict[str, Any]:
        raise NotImplementedError

    def apply_action(self, agent: str, parsed: Any) -> Turn:
        """Play the action (or answer the probe); draw any chance event; pay out at the end."""
        seat = self._seat[agent]
        if parsed.kind == "probe":
            self.measures.answer(self.game, seat, parsed.value)
            self.measures.after_change(self.game)
            return self._turn(agent, {})
        if self.measures.enabled:
            self.measures.before_action(self.game, seat, parsed)
        self.game.apply(seat, parsed)
        self._resolve_chance()
        if self.measures.enabled:
            self.measures.after_action(self.game, seat, parsed)
            self.measures.after_change(self.game)
        return self._turn(agent, {})

    def _turn(self, agent: str, rewards: dict[str, float]) -> Turn:
        """The turn after ``agent``'s action: its info (and the next mover's), or the end."""
        if not self.game.over:
            mover = self._mover()
            infos = {agent: self._info(agent)}
            if self.measures.enabled:  # a probe turn's question is in the prober's info
                infos[mover] = self._info(mover)
            return Turn(rewards=rewards, infos=infos, next_agent=mover)
        return self._final_turn(rewards, self.game.truncated)

    # -- the common step ----------------------------------------------------------------
    def step(self, action: Any, agent: str | None = None) -> None:
        """Apply ``action`` for the agent to move (the AEC base's rules, see its module).

        The common case (no ``agent`` named; the game goes on; the player to move sends a
        plain str (text) or int (vector) action that is legal; no belief probes, speaking
        reward or ``"human"`` rendering) takes :meth:`_quick_step`, which leaves the env
        as the base's general path does.
        """
        if agent is None and self._quick and self._quick_step(action):
            return
        super().step(action, agent)

    def _quick_step(self, action: Any) -> bool:
        """Play a legal action of the player to move; False (nothing done) if it is not one.

        The base's ``step`` without its general bookkeeping (see :meth:`_hand_over`); the
        last step of a game goes through the base's ``_finish``.
        """
        game = self.game
        if type(action) is not self._action_type or not self.agents or game.over:
            return False
        current, seat = self.agent_selection, game.to_move
        if seat is None or self._seat[current] != seat:
            return False
        try:
            parsed = self.parse_action(current, action)
        except Exception:  # refused: the general path says why and applies the penalty
            return False
        self._cumulative_rewards[current] = 0.0
        turn = self.apply_action(current, parsed)
        if game.over:
            self._finish(current, turn, {current: None})
            return True
        mover = turn.next_agent
        assert mover is not None  # (the game goes on)
        self.rewards = self._no_rewards.copy()  # (every agent is live until the end)
        played = {**turn.infos[current], "parse_error": None}
        legal = self.legal_actions(mover) or []
        if self.observation_mode == "text":
            self._hand_over(current, played, mover, legal, [])
        else:
            mask = np.zeros(int(self.action_spaces[mover].n), dtype=np.int8)  # type: ignore[attr-defined]
            mask[legal] = 1
            self._hand_over(current, played, mover, mask, np.zeros_like(mask))
        return True

    def _hand_over(
        self, current: str, played: dict[str, Any], mover: str, legal: Any, empty: Any
    ) -> None:
        """The infos after ``current`` played a legal action and ``mover`` is to move.

        ``played``: ``current``'s new info (``parse_error`` None); ``legal``: ``mover``'s
        legal list or action mask; ``empty``: an empty one, for ``current``. As the base's
        ``_finish`` and ``_mark_legal_actions`` write them: ``current`` gets ``played``
        with ``empty`` (or ``legal`` if it moves again), ``mover`` its info with ``legal``;
        every other info is still the one the base last wrote, empty, and stays.
        """
        key = "legal_actions" if self.observation_mode == "text" else "action_mask"
        infos, marked = self.infos, self._marked_empty
        if mover == current:
            played[key] = legal
            infos[current] = played
        else:
            played[key] = empty
            infos[current] = played
            marked[current] = (played, empty)
            infos[mover] = {**infos[mover], key: legal}
        marked.pop(mover, None)
        self.agent_selection = mover

    def _outcome_info(self, info: dict[str, Any], seat: int, team: str) -> dict[str, Any]:
        """``info`` of ``seat`` (of ``team``) at the end: its outcome, then its measures."""
        winner = self.game.winner
        if winner is None:
            info["outcome"] = "draw"
        else:
            info["outcome"] = "win" if winner == team else "loss"
        if self.measures.enabled:
            info.update(self.measures.final_info(seat))
        return info

    def _final_turn(self, rewards: dict[str, float], truncated: bool) -> Turn:
        """The last turn: every info, and +1 / -1 by team on top of ``rewards`` if one won."""
        final = dict(rewards)
        infos = {name: self._info(name) for name in self.possible_agents}
        winner = self.game.winner
        if winner is not None:
            for name in self.possible_agents:
                won = self.game.teams[self._seat[name]] == winner
                final[name] = final.get(name, 0.0) + (1.0 if won else -1.0)
        if truncated:
            return Turn(rewards=final, truncated=self.possible_agents, infos=infos)
        return Turn(rewards=final, terminated=self.possible_agents, infos=infos)

    def apply_invalid_action(self, agent: str, message: str) -> Turn:
        """The penalty; the player to move also loses its turn (the engine's default move).

        A refused probe answer costs nothing: it is scored as 0.5 for everyone.
        """
        seat = self._seat[agent]
        if message != OFF_TURN and self.measures.probe_seat == seat:
            self.measures.answer(self.game, seat, "")
            self.measures.after_change(self.game)
            return self._turn(agent, {})
        self.invalid_actions[agent] += 1
        rewards = {agent: -self.invalid_action_penalty}
        if message != OFF_TURN and self.game.to_move == seat:
            self.game.forfeit_turn(seat)
            self._resolve_chance()
            if self.measures.enabled:
                self.measures.after_change(self.game)
        return self._turn(agent, rewards)

    # -- actions and observations ------------------------------------------------------
    def encode_action(self, agent: str, action: Any) -> Any:
        """``action`` of ``agent`` in this env's action form (text, or the vector index)."""
        raise NotImplementedError

    def legal_actions(self, agent: str) -> list[Any] | None:
        """The legal actions of ``agent`` (the player to move), in the env's action form.

        ``say`` is left out (any message is legal in a discussion). The list is kept until
        the game moves on (a new game or a new log entry); callers get a copy. On a
        belief-probe turn the list is ``["uniform"]`` (any answer in the format is read).
        """
        seat = self._seat[agent]
        if self.measures.probe_seat == seat:
            return [UNIFORM_ANSWER]
        key = (len(self.game.game_log.entries), seat)
        if self._legal_game is not self.game or self._legal_key != key:
            self._legal_game, self._legal_key = self.game, key
            self._legal = [
                self.encode_action(agent, action)
                for action in self.game.legal_actions(seat)
                if action.kind != "say"
            ]
        return list(self._legal)

    def observe(self, agent: str) -> Any:
        """What ``agent`` may know, as text or as a vector (see the env's Observation).

        The text is the game's view for the seat with the reason its last action was
        refused and, when it is to move, its legal actions; a probe turn's text ends with
        the probe's question.
        """
        seat = self._seat[agent]
        if self.observation_mode == "vector":
            return self._vector_view(seat)
        error = self.infos.get(agent, {}).get("parse_error") if self.infos else None
        if self.measures.probe_seat == seat:
            view = self._text_view(seat, error, [])
            return f"{view}\n{probe_prompt(self.measures.question(self.game, seat))}"
        legal = self.legal_actions(agent) if self.game.to_move == seat else []
        return self._text_view(seat, error, legal or [])

    def _vector_view(self, seat: int) -> Any:
        """``seat``'s vector observation."""
        raise NotImplementedError

    def _text_view(self, seat: int, error: str | None, legal: list[Any]) -> str:
        """``seat``'s text observation, at most :data:`MAX_OBSERVATION_CHARS` characters."""
        raise NotImplementedError

    # -- the end -----------------------------------------------------------------------
    def episode_success(self, final_infos: Mapping[str, Mapping[str, Any]]) -> bool | None:
        """Whether a team won (the game did not end undecided)."""
        if not self.game.over:
            return None
        return self.game.winner is not None

    def state_digest(self) -> str:
        """sha256 of the game log, the refused-action counts and the generator's state."""
        assert self.np_random is not None
        payload = {
            "log": json.loads(self.game.game_log.to_json()),
            "invalid_actions": self.invalid_actions,
            "rng": self.np_random.bit_generator.state,
        }
        if self.measures.enabled:
            payload["measures"] = self.measures.digest()
        encoded = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(encoded.encode("utf-8")).hexdigest()
