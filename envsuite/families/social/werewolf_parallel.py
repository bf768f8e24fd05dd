"""Werewolf and Mafia as native PettingZoo Parallel envs, on the same rules engine.

The Parallel form drives the engine of its AEC twin (a
:class:`~envsuite.families.social.werewolf.WerewolfEnv` or
:class:`~envsuite.families.social.mafia.MafiaEnv` it holds as ``core``: the same
arguments, deal, parser, observers and chance draws from the same generator), one block
of simultaneous moves per step (:func:`due_block`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces

from envsuite.env_base import InvalidAction
from envsuite.families.social.mafia import MafiaEnv
from envsuite.families.social.werewolf import MAX_OBSERVATION_CHARS, ObservationMode, WerewolfEnv
from envsuite.families.social.werewolf_rules import WerewolfGame
from envsuite.families.social.werewolf_setup import DOCTOR, SEER, Action, Phase
from envsuite.parallel_env_base import EnvsuiteParallelEnv, StepResult
from envsuite.rendering import TEXT_RENDER_MODES, checked_render_mode

#: The night's phases, in the engine's order.
NIGHT = (Phase.NIGHT_WOLVES, Phase.NIGHT_SEER, Phase.NIGHT_DOCTOR)
#: The role that acts in each night phase after the werewolves'.
_NIGHT_ROLE = {Phase.NIGHT_SEER: SEER, Phase.NIGHT_DOCTOR: DOCTOR}
#: What an agent not due to act is taken to send (any action of its space is ignored).
IDLE = Action("idle")
#: ``parse_error`` of an agent not due to act whose action is not of its action space.
NOT_DUE = (
    "not an action of this agent's action space ({what}); you are not due to act this step, "
    "so it is ignored (no penalty)"
)


def due_block(game: WerewolfGame) -> dict[int, Phase]:
    """The seats that act in the next step, each with the phase it acts in, in engine order.

    Description:
        The night is one block: the living werewolves (each names a victim), the living
        seer and the living doctor, none seeing another's choice (nobody dies before dawn,
        so each one's legal actions are known at the start). Every vote and every round of
        bids (``speaking_order="bidding"``) is one block of every seat due in it. A
        discussion turn is a block of one: the speaker. The engine then plays the block's
        moves in its own order (werewolves in seat order, the seer, the doctor; voters and
        bidders in seat order), so the game log is the one the AEC form writes for the same
        moves.

    Args:
        game: The game, at a seat's turn (not at a chance event), or over.

    Returns:
        Seat -> the phase it acts in (empty once the game is over).
    """
    if game.over or game.to_move is None:
        return {}
    if game.phase is Phase.DISCUSSION:
        return {game.to_move: Phase.DISCUSSION}
    block: dict[int, Phase] = dict.fromkeys(game.queue, game.phase)
    if game.phase in NIGHT:
        for phase in NIGHT[NIGHT.index(game.phase) + 1 :]:
            role = _NIGHT_ROLE[phase]
            block.update({seat: phase for seat in game.living() if game.roles[seat] == role})
    return block


class WerewolfParallelEnv(EnvsuiteParallelEnv[Any, Any, Action]):
    """Werewolf-v0's game as a PettingZoo Parallel env: simultaneous phases in one step.

    Description:
        The rules, roles, arguments, deal and chance draws of Werewolf-v0
        (:class:`~envsuite.families.social.werewolf.WerewolfEnv`, whose rules engine this
        env drives); only the turn structure differs. One step is one block of
        simultaneous moves (:func:`due_block`): the night (every living werewolf, the seer
        and the doctor at once; werewolves no longer see each other's choice before
        choosing), a vote (every living player), a round of bids (every living player but
        the last speaker, with ``speaking_order="bidding"``), or one discussion turn (the
        speaker alone). The engine plays a block's moves in its own order, so the game
        log, the messages and the outcome are those of the AEC form given the same moves
        (a test checks it). Same seed and same joint actions give the same game.

    Observation:
        As Werewolf-v0's, for every agent after every step (text or ``Box`` vector); an
        agent due to act reads its own phase and its legal commands in its status line
        (vector: its turn entry is 1 and the phase one-hot shows its phase). Every info
        holds ``role``, ``team``, ``invalid_actions``, ``to_act`` (whether the agent is
        due in the next step), ``parse_error``, and ``legal_actions`` (text: the legal
        commands, ``say`` aside; ``[]`` when not due) or ``action_mask`` (vector: int8
        over ``Discrete(1 + 3n)``, all zeros when not due). ``env.due`` maps each seat due
        in the next step to its phase; ``env.game`` is the engine's state (for bots, see
        :mod:`~envsuite.families.social.werewolf_parallel_bots`).

    Action:
        A dict agent -> action, every live agent (dead players stay agents until the end,
        never due). An agent due to act sends a command of Werewolf-v0's grammar (vector:
        an index); a malformed, illegal or missing action costs ``invalid_action_penalty``
        and the move (taken as ``pass``: no night action, an abstention, nothing said, or
        ``bid 0``). An agent not due to act may send anything of its action space (e.g.
        ``"pass"`` or ``0``): it is ignored, with no penalty; a missing action or one
        outside the space (None, bytes, a dict) gets a ``parse_error`` but no penalty and
        changes nothing.

    Reward:
        As Werewolf-v0's: at the end +1 to every player of the winning team and -1 to
        the others (0 when undecided); ``-invalid_action_penalty`` per refused move of an
        agent due to act.

    Termination:
        Every agent terminates when a team wins and is truncated when day ``max_days``
        ends undecided; final infos hold ``outcome``, ``role``, ``team``, ``winner`` and
        ``invalid_actions``. The env-level success is that a team won.

    Arguments:
        num_players, num_werewolves, seer, doctor, preset, discussion_rounds,
        speaking_order, max_speech_chars, tie_rule, max_days, reveal_roles_on_death,
        doctor_self_save, names, observation_mode, invalid_action_penalty: As
        Werewolf-v0's (belief probes and the speaking reward are AEC-only).
        render_mode: ``"ansi"`` (the moderator's view), ``"rgb_array"``, ``"human"`` or
            None.

    Version history:
        v0: Initial version.

    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(TEXT_RENDER_MODES),
        "name": "werewolf_parallel_v0",
    }

    def __init__(
        self,
        num_players: int | None = None,
        num_werewolves: int | None = None,
        seer: bool | None = None,
        doctor: bool | None = None,
        preset: str | None = None,
        discussion_rounds: int = 1,
        speaking_order: str = "round_robin",
        max_speech_chars: int = 300,
        tie_rule: str = "no_exile",
        max_days: int | None = None,
        reveal_roles_on_death: bool = False,
        doctor_self_save: bool = True,
        names: list[str] | tuple[str, ...] | None = None,
        observation_mode: ObservationMode = "text",
        invalid_action_penalty: float = 0.1,
        render_mode: str | None = None,
    ) -> None:
        core = WerewolfEnv(
            num_players=num_players,
            num_werewolves=num_werewolves,
            seer=seer,
            doctor=doctor,
            preset=preset,
            discussion_rounds=discussion_rounds,
            speaking_order=speaking_order,
            max_speech_chars=max_speech_chars,
            tie_rule=tie_rule,
            max_days=max_days,
            reveal_roles_on_death=reveal_roles_on_death,
            doctor_self_save=doctor_self_save,
            names=names,
            observation_mode=observation_mode,
            invalid_action_penalty=invalid_action_penalty,
        )
        self._adopt(core, render_mode)

    def _adopt(self, core: WerewolfEnv, render_mode: str | None) -> None:
        """Take the agents, spaces and settings of ``core``, the engine's AEC twin."""
        super().__init__()
        self.core = core
        self.render_mode = checked_render_mode(render_mode, self.metadata["render_modes"])
        self.possible_agents = list(core.possible_agents)
        self.observation_spaces = dict(core.observation_spaces)
        self.action_spaces = dict(core.action_spaces)
        self.due: dict[int, Phase] = {}

    @property
    def game(self) -> WerewolfGame:
        """The game under way (the engine's state)."""
        return self.core.game

    def seat_of(self, agent: str) -> int:
        """The seat index of ``agent`` (``player_3`` -> 3)."""
        return self.core.seat_of(agent)

    def encode_action(self, agent: str, action: Action) -> Any:
        """``action`` of ``agent`` in this env's action form (text, or the vector index)."""
        return self.core.encode_action(agent, action)

    def idle_action(self) -> Any:
        """An action for an agent not due to act (``"pass"``, or index 0)."""
        return "pass" if self.core.observation_mode == "text" else 0

    # -- hooks -------------------------------------------------------------------------
    def new_episode(
        self, seed: int | None, options: dict[str, Any] | None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """Deal and play to the first block exactly as the AEC form does (same generator)."""
        self.core.np_random = self.np_random
        self.core.np_random_seed = self.np_random_seed
        self.core.new_episode(seed, options)
        self.due = due_block(self.game)
        return self._views({})

    def parse_action(self, agent: str, action: Any) -> Action:
        """A due agent's command checked in its phase; any action of the space otherwise."""
        seat = self.seat_of(agent)
        phase = self.due.get(seat)
        if phase is None:
            if not _in_space(self.action_spaces[agent], action):
                raise InvalidAction(NOT_DUE.format(what=type(action).__name__))
            return IDLE
        if seat == self.game.to_move:
            return self.core.parse_action(agent, action)
        return self.core._parse_command(seat, action, phase)

    def apply_actions(self, parsed: Mapping[str, Action], errors: Mapping[str, str]) -> StepResult:
        """Play the block's moves in the engine's order; refused ones are forfeited."""
        game, core = self.game, self.core
        acted = dict(self.due)
        rewards = dict.fromkeys(self.agents, 0.0)
        for seat in acted:
            agent = self.possible_agents[seat]
            if game.to_move != seat:  # the rules never end a block early; kept safe
                break
            action = parsed.get(agent)
            if agent in errors or action is None or game.illegal_reason(seat, action):
                core.invalid_actions[agent] += 1
                rewards[agent] -= core.invalid_action_penalty
                game.forfeit_turn(seat)
            else:
                game.apply(seat, action)
            core._resolve_chance()
        self.due = due_block(game)
        refused = {
            self.possible_agents[seat]: errors.get(self.possible_agents[seat]) for seat in acted
        }
        observations, infos = self._views(refused)
        done = dict.fromkeys(self.agents, game.over)
        if game.over and game.winner is not None:
            for agent in self.agents:
                won = game.teams[self.seat_of(agent)] == game.winner
                rewards[agent] += 1.0 if won else -1.0
        truncated = dict.fromkeys(self.agents, game.over and game.truncated)
        terminated = {agent: done[agent] and not truncated[agent] for agent in self.agents}
        return observations, rewards, terminated, truncated, infos

    def episode_success(self, final_infos: Mapping[str, Mapping[str, Any]]) -> bool | None:
        """Whether a team won (the game did not end undecided at ``max_days``)."""
        return self.core.episode_success(final_infos)

    # -- views -------------------------------------------------------------------------
    def _legal(self, agent: str) -> list[Any]:
        seat = self.seat_of(agent)
        phase = self.due.get(seat)
        if phase is None:
            return []
        legal = self.game.legal_in(phase, seat)
        return [self.encode_action(agent, action) for action in legal if action.kind != "say"]

    def _views(
        self, refused: Mapping[str, str | None]
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """Every agent's observation and info (``refused``: the last block's parse errors)."""
        observations: dict[str, Any] = {}
        infos: dict[str, dict[str, Any]] = {}
        vector = self.core.observation_mode == "vector"
        for agent in self.agents:
            seat = self.seat_of(agent)
            acting = self.due.get(seat)
            legal = self._legal(agent)
            info = self.core._info(agent)
            info["to_act"] = acting is not None
            if vector:
                mask = np.zeros(int(self.action_spaces[agent].n), dtype=np.int8)  # type: ignore[attr-defined]
                mask[legal] = 1
                info["action_mask"] = mask
                observations[agent] = self.core._observer.view(self.game, seat, acting)
            else:
                info["legal_actions"] = legal
                observations[agent] = self.core._texts.view(
                    self.game, seat, refused.get(agent), legal, MAX_OBSERVATION_CHARS, acting
                )
            infos[agent] = info
        return observations, infos

    def render_text(self) -> str:
        """The ``ansi`` frame: the moderator's view (every role, who lives, the phase)."""
        return self.core.render_text()

    def state_digest(self) -> str:
        """sha256 of the game log, the refused-action counts and the generator's state."""
        return self.core.state_digest()


class MafiaParallelEnv(WerewolfParallelEnv):
    """Mafia-v0's game as a PettingZoo Parallel env: simultaneous phases in one step.

    Description:
        The rules, words, arguments and defaults of Mafia-v0
        (:class:`~envsuite.families.social.mafia.MafiaEnv`: TextArena SecretMafia's setup,
        free discussion text said to everyone, bracketed votes) with the turn structure
        of :class:`WerewolfParallelEnv`: one step is the night (every living mafia member,
        the detective and the doctor at once), a vote, a round of bids, or one discussion
        turn; the engine plays a block in its own order, so the game log is the AEC
        form's for the same moves.

    Observation:
        As Mafia-v0's, for every agent after every step; infos as
        :class:`WerewolfParallelEnv`'s (``to_act``, ``legal_actions`` or ``action_mask``,
        all-zero / empty when not due).

    Action:
        A dict agent -> action; an agent due to act sends a command of Mafia-v0's grammar
        (a malformed, illegal or missing one costs the penalty and the move); an agent not
        due may send anything of its space (ignored, no penalty; outside the space: a
        ``parse_error``, no penalty).

    Reward:
        +1 to every player of the winning team and -1 to the others at the end (0 when
        undecided); ``-invalid_action_penalty`` per refused move.

    Termination:
        Every agent terminates when a team wins and is truncated when day ``max_days``
        ends undecided. The env-level success is that a team won.

    Arguments:
        num_players, num_mafia, mafia_ratio, detective, doctor, discussion_rounds,
        speaking_order, max_speech_chars, tie_rule, max_days, reveal_roles_on_death,
        names, observation_mode, invalid_action_penalty: As Mafia-v0's.
        render_mode: ``"ansi"``, ``"rgb_array"``, ``"human"`` or None.

    Version history:
        v0: Initial version.

    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(TEXT_RENDER_MODES),
        "name": "mafia_parallel_v0",
    }

    def __init__(  # the Mafia-v0 signature, so the registry fills Mafia's defaults
        self,
        num_players: int = 6,
        num_mafia: int | None = None,
        mafia_ratio: float = 0.25,
        detective: bool = True,
        doctor: bool = True,
        discussion_rounds: int = 3,
        speaking_order: str = "round_robin",
        max_speech_chars: int = 300,
        tie_rule: str = "random",
        max_days: int | None = None,
        reveal_roles_on_death: bool = False,
        names: list[str] | tuple[str, ...] | None = None,
        observation_mode: ObservationMode = "text",
        invalid_action_penalty: float = 0.1,
        render_mode: str | None = None,
    ) -> None:
        core = MafiaEnv(
            num_players=num_players,
            num_mafia=num_mafia,
            mafia_ratio=mafia_ratio,
            detective=detective,
            doctor=doctor,
            discussion_rounds=discussion_rounds,
            speaking_order=speaking_order,
            max_speech_chars=max_speech_chars,
            tie_rule=tie_rule,
            max_days=max_days,
            reveal_roles_on_death=reveal_roles_on_death,
            names=names,
            observation_mode=observation_mode,
            invalid_action_penalty=invalid_action_penalty,
        )
        self._adopt(core, render_mode)


def _in_space(space: spaces.Space[Any], action: Any) -> bool:
    """Whether ``action`` is an element of ``space`` (False for anything it cannot judge)."""
    try:
        return bool(space.contains(action))
    except Exception:  # a hostile or odd object is simply not of the space
        return False
