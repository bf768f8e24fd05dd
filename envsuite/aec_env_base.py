"""Base class giving PettingZoo AEC (turn-based) envs the action-handling contract of ``env_base``.

A concrete env fills in its hooks (template method, as in :mod:`envsuite.env_base`):

- ``new_episode(seed, options)`` sets up the game (``self.np_random`` is already seeded)
  and returns the first agent to move and each agent's first info;
- ``observe(agent)`` is PettingZoo's own method: what ``agent`` sees now;
- ``parse_action(agent, action)`` turns what the agent sent into the env's own action type,
  raising :class:`~envsuite.env_base.InvalidAction` when it cannot;
- ``apply_action(agent, parsed)`` plays a well-formed action and returns a :class:`Turn`;
- ``apply_invalid_action(agent, message)`` applies the env's documented penalty to
  ``agent`` and returns a :class:`Turn` (``agent`` is not always the one to move: see
  "off-turn actions" below);
- ``legal_actions(agent)`` (optional): the legal actions of the agent to move, for games
  with a finite action set;
- ``episode_success(final_infos)`` (optional): the env-level success of a finished game;
- ``state_digest()`` (optional, required for ``nondeterministic`` specs): a hash of the
  logical state.

The base class owns ``reset`` and ``step`` and keeps PettingZoo's bookkeeping:
``agents``, ``agent_selection``, ``rewards`` (the last step's rewards of every agent),
``_cumulative_rewards`` (each agent's rewards since it last acted, which ``last()``
returns), ``terminations``, ``truncations`` and ``infos``.

The rules of ``step(action)``, none of which raises within an episode:

- **The action belongs to the agent to move.** Anything passed while it is agent X's turn
  (``agent_selection``) is X's action. A malformed or illegal one sets X's
  ``info["parse_error"]`` and the env applies its documented penalty through
  ``apply_invalid_action``.
- **Off-turn actions.** PettingZoo's ``step`` does not say who is acting; a caller that
  knows may say it with ``step(action, agent=name)``. When ``name`` is a live agent whose
  turn it is not, the action is refused: it is not parsed or applied, that agent's
  ``parse_error`` is :data:`OFF_TURN` and ``apply_invalid_action(name, OFF_TURN)`` applies
  the penalty to it; the agent to move stays the same unless the env's rule ends the game.
  A ``name`` that is a finished agent is refused as a dead step (below); one that is no
  agent in ``agents`` (unknown, or already removed) is ignored, as the Parallel base
  ignores actions for such names.
- **Dead steps** follow PettingZoo: when the agent to move is terminated or truncated,
  ``step(None)`` removes it (``_was_dead_step``). Any other action for a dead agent is
  refused: nothing changes except its ``parse_error`` (:data:`DEAD_AGENT_ACTION`) and the
  last step's rewards, which become 0; step it with None to remove it.
- **Infos.** An agent's info is replaced only by a step whose :class:`Turn` names it (the
  terminal step names every agent, with their outcomes). ``parse_error`` of an agent is
  the verdict on its own last action (None when it was accepted or it has not acted), so
  an agent sees on its turn why its last move was refused. In envs with legal actions,
  the agent to move gets ``info["action_mask"]`` (int8, one entry per action of a
  ``Discrete`` action space) or ``info["legal_actions"]`` (a list, for any other action
  space, e.g. text); every other agent gets an all-zero mask or an empty list (an info
  that already holds the empty one this base wrote, unchanged, is kept as it is).
- **Rewards.** A step that applies nothing (a dead step, a refused dead step, an ignored
  name) has reward 0 for every agent, so summing ``env.rewards`` after every step gives
  each agent's return.
- A step before the first ``reset`` raises Gymnasium's ``ResetNeeded`` (there is no agent
  to answer); once every agent has been removed, ``step`` changes nothing.

Rendering works as in :mod:`envsuite.env_base`: a text env writes ``render_text()`` and
gets ``"ansi"``, ``"rgb_array"`` and ``"human"`` (:mod:`envsuite.rendering`).
"""

from __future__ import annotations

from abc import ABCMeta, abstractmethod
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, cast

import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from envsuite.action_errors import describe_parse_failure, is_interrupt
from envsuite.env_attributes import EnvAttributes
from envsuite.env_base import NOT_STARTED as NOT_STARTED
from envsuite.plain_actions import plain_action
from envsuite.rendering import TextRendering

if TYPE_CHECKING:
    from envsuite.registry import EnvSpec

ObsType = TypeVar("ObsType")
ActType = TypeVar("ActType")
ParsedT = TypeVar("ParsedT")

#: ``parse_error`` of an agent that sent an action when it was not its turn.
OFF_TURN = "it is not your turn; the action was not applied"
#: ``parse_error`` of a terminated or truncated agent stepped with something other than None.
DEAD_AGENT_ACTION = (
    "this agent's episode is over: the only action it may take is None (PettingZoo's "
    "dead step); the action was not applied"
)


@dataclass
class Turn:
    """What one step did, as an env's hooks report it; the base updates PettingZoo's dicts.

    Attributes:
        rewards: This step's reward of each agent that got one (the others get 0).
        terminated: Agents whose episode ended in a terminal state (a win, a loss).
        truncated: Agents whose episode was cut short (a limit, not the game's end).
        infos: The new info of each agent whose info changes; the others keep theirs.
        next_agent: The agent to move next; None means the next live agent after the one
            that moved, in ``agents`` order. Ignored when every agent is done.

    """

    rewards: Mapping[str, float] = field(default_factory=dict)
    terminated: Collection[str] = ()
    truncated: Collection[str] = ()
    infos: Mapping[str, dict[str, Any]] = field(default_factory=dict)
    next_agent: str | None = None


class EnvsuiteAECEnv(
    EnvAttributes,
    TextRendering,
    AECEnv[str, ObsType, ActType],
    Generic[ObsType, ActType, ParsedT],
    metaclass=ABCMeta,
):
    """A PettingZoo ``AECEnv`` whose ``step`` tolerates any action (see the module docstring).

    Subclasses set ``possible_agents``, ``observation_spaces`` and ``action_spaces`` (one
    space object per agent, returned as is by :meth:`observation_space` and
    :meth:`action_space`) and implement :meth:`new_episode`, :meth:`observe`,
    :meth:`parse_action`, :meth:`apply_action` and :meth:`apply_invalid_action` (abstract:
    a class that lacks one cannot be instantiated). Randomness must come from
    ``self.np_random``, which :meth:`reset` seeds from ``seed`` and keeps running when
    ``seed`` is None.

    A turn-based game has no Parallel form: ``metadata["is_parallelizable"]`` is False,
    and ``envsuite.make(id, parallel=True)`` refuses such a spec.

    Attributes:
        spec: The :class:`~envsuite.registry.EnvSpec` the env was made from (set by
            ``envsuite.make``; ``None`` for an env built from its class).
        spec_hash: The spec hash (set by ``envsuite.make``; ``None`` otherwise).
        render_mode: The render mode the env was made with, or None.
        np_random: The env's generator.
        np_random_seed: The seed of the current generator (drawn from OS entropy when the
            first reset got no seed; ``None`` before any reset).

    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": [],
        "name": "envsuite_aec_env",
        "is_parallelizable": False,
    }
    spec: EnvSpec | None = None
    spec_hash: str | None = None
    render_mode: str | None = None

    possible_agents: list[str]
    observation_spaces: dict[str, spaces.Space[Any]]
    action_spaces: dict[str, spaces.Space[Any]]

    def __init__(self) -> None:
        super().__init__()
        self.agents: list[str] = []
        self.agent_selection: str = ""
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self._skip_agent_selection: str | None = None
        # Agent -> (its info, the empty legal entry in it) as _mark_legal_actions wrote them.
        self._marked_empty: dict[str, tuple[dict[str, Any], Any]] = {}
        self.np_random: np.random.Generator | None = None
        self.np_random_seed: int | None = None

    # -- hooks -------------------------------------------------------------------------
    @abstractmethod
    def new_episode(
        self, seed: int | None, options: dict[str, Any] | None
    ) -> tuple[str, dict[str, dict[str, Any]]]:
        """Start a game (``self.np_random`` is seeded); return who moves first and each info.

        Args:
            seed: The seed given to ``reset`` (None when the generator continues), for envs
                whose seed picks something directly (a dataset item).
            options: The ``options`` given to ``reset``.

        """
        raise NotImplementedError

    @abstractmethod
    def observe(self, agent: str) -> ObsType | None:
        """What ``agent`` observes now (PettingZoo's ``observe``, used by ``last()``)."""
        raise NotImplementedError

    @abstractmethod
    def parse_action(self, agent: str, action: Any) -> ParsedT:
        """Convert ``agent``'s action to the env's action type, or raise InvalidAction.

        Called for the agent to move only; an illegal move (a rule of the game, not only
        the form of the action) raises InvalidAction naming the rule.
        """
        raise NotImplementedError

    @abstractmethod
    def apply_action(self, agent: str, parsed: ParsedT) -> Turn:
        """Play ``agent``'s well-formed, legal action."""
        raise NotImplementedError

    @abstractmethod
    def apply_invalid_action(self, agent: str, message: str) -> Turn:
        """Apply the env's documented penalty to ``agent``, whose action was refused.

        ``agent`` is the agent to move (a malformed or illegal action) or, for an action
        sent off-turn (``message`` is :data:`OFF_TURN`), another live agent; the penalty
        must not give the turn to an agent whose turn it is not.
        """
        raise NotImplementedError

    def legal_actions(self, agent: str) -> Sequence[Any] | None:
        """The legal actions of ``agent`` (the agent to move), or None (not a finite set).

        For a ``Discrete`` action space, the legal indices (the base turns them into
        ``info["action_mask"]``); otherwise the actions as the agent sends them (text
        moves), given as ``info["legal_actions"]``.
        """
        return None

    def episode_success(self, final_infos: Mapping[str, Mapping[str, Any]]) -> bool | None:
        """The env-level success of the episode that just ended, as this env defines it.

        The runner records it as the episode's ``success``. ``final_infos`` holds each
        agent's last info. The default is None (no env-level success: a game with winners
        reports each agent's own outcome instead, see :mod:`envsuite.outcomes`); an env
        that defines one overrides this and documents the rule in its docstring.
        """
        return None

    def state_digest(self) -> str:
        """A hash of the env's logical state (sha256 hex of a canonical encoding).

        Same seed and same actions give the same digest after every step. The conformance
        kit compares digests instead of observations for specs declared
        ``nondeterministic`` (whose observations, e.g. a real browser's pixels, may differ
        from run to run); those envs must implement it. The digest covers what decides
        the game's future (positions, turn, counters, the generator's state where it
        still matters), not how it is shown.
        """
        raise NotImplementedError(f"{type(self).__name__} does not provide state_digest()")

    # -- spaces ------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """Return the observation space of ``agent`` (the same object on every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Return the action space of ``agent`` (the same object on every call)."""
        return self.action_spaces[agent]

    # -- the loop ----------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Seed ``self.np_random`` (when ``seed`` is given, or on first use); start a game."""
        if seed is not None or self.np_random is None:
            self.np_random, self.np_random_seed = seeding.np_random(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._skip_agent_selection = None
        self._marked_empty = {}
        first, infos = self.new_episode(seed, options)
        self._check_live(first, "new_episode")
        self.agent_selection = first
        self.infos = {agent: {**infos.get(agent, {}), "parse_error": None} for agent in self.agents}
        self._mark_legal_actions()
        if self.render_mode == "human":
            self.render()

    def step(self, action: Any, agent: str | None = None) -> None:
        """Apply ``action`` for the agent to move (see the module docstring for every rule).

        Args:
            action: The action; anything at all (a malformed one costs the penalty).
            agent: Optionally, the agent the caller is acting for; when it is another live
                agent than the one to move, the action is refused as off-turn.

        Raises:
            ResetNeeded: ``step`` was called before the first ``reset``.
        """
        if not self.agents:
            if self.np_random is None:
                raise ResetNeeded(NOT_STARTED)
            return
        current = self.agent_selection
        if agent is not None:
            named = _agent_name(agent, self.agents)
            if named != current:
                self._refuse_off_turn(named)
                return
        if self.terminations[current] or self.truncations[current]:  # (_done, inlined)
            if action is None:
                self._was_dead_step(None)
                if self.agents:
                    self._mark_legal_actions()
            else:
                self._refuse(current, DEAD_AGENT_ACTION)
            return
        self._cumulative_rewards[current] = 0.0
        error: str | None = None
        try:
            parsed = self.parse_action(current, plain_action(action))
        except BaseException as exc:  # any failure to understand the action is the agent's
            if is_interrupt(exc):
                raise
            error = describe_parse_failure(exc, self)
            turn = self.apply_invalid_action(current, error)
        else:
            turn = self.apply_action(current, parsed)
        self._finish(current, turn, {current: error})

    def close(self) -> None:
        """Release what the env holds (nothing, for text envs)."""

    # -- bookkeeping -------------------------------------------------------------------
    def _refuse_off_turn(self, named: str | None) -> None:
        """An action sent for ``named`` while another agent is to move (or for nobody)."""
        if named is None:
            self._clear_rewards()  # not a live agent: nothing to refuse it for
            return
        if self.terminations[named] or self.truncations[named]:
            self._refuse(named, DEAD_AGENT_ACTION)
            return
        turn = self.apply_invalid_action(named, OFF_TURN)
        self._finish(named, turn, {named: OFF_TURN}, keep_turn=True)

    def _refuse(self, agent: str, message: str) -> None:
        """Nothing happens but ``agent``'s ``parse_error`` (and a step of zero rewards)."""
        self._clear_rewards()
        self.infos[agent] = {**self.infos[agent], "parse_error": message}

    def _clear_rewards(self) -> None:
        self.rewards = dict.fromkeys(self.agents, 0.0)

    def _finish(
        self,
        mover: str,
        turn: Turn,
        errors: Mapping[str, str | None],
        keep_turn: bool = False,
    ) -> None:
        """Write ``turn`` into PettingZoo's dicts and choose the agent to move next.

        ``keep_turn``: the step was a refusal, so the agent to move stays the same (unless
        the game ended).
        """
        live = self.agents
        given = turn.rewards
        if given:
            self.rewards = rewards = {agent: float(given.get(agent, 0.0)) for agent in live}
            cumulative = self._cumulative_rewards
            for agent, reward in rewards.items():
                cumulative[agent] += reward
        else:  # nothing to add to the cumulative rewards
            self.rewards = dict.fromkeys(live, 0.0)
        terminations, truncations = self.terminations, self.truncations
        for agent in turn.terminated:
            terminations[agent] = True
        for agent in turn.truncated:
            truncations[agent] = True
        infos = self.infos
        for agent, info in turn.infos.items():
            if agent in infos:
                # One new dict where two copies (the turn's info, then the error) were made.
                error = errors[agent] if agent in errors else infos[agent]["parse_error"]
                infos[agent] = {**info, "parse_error": error}
        for agent, error in errors.items():
            if agent not in turn.infos:
                infos[agent] = {**infos[agent], "parse_error": error}
        if (terminations[mover] or truncations[mover]) and all(self._done(agent) for agent in live):
            # Game over: every agent takes its dead step, in ``agents`` order.
            self.agent_selection = live[0]
            self._skip_agent_selection = None
        elif not (keep_turn and self._done(self.agent_selection)):
            # (A refusal while a dead agent waits for its dead step leaves the order as is.)
            if keep_turn:
                following = self.agent_selection
            else:
                following = turn.next_agent or self._after(mover)
                self._check_live(following, "the turn's next_agent")
            self.agent_selection = following
            if any(terminations.values()) or any(truncations.values()):
                self._deads_step_first()  # (a no-op when no agent is done)
        self._mark_legal_actions()
        if self.render_mode == "human":
            self.render()

    def _done(self, agent: str) -> bool:
        return bool(self.terminations[agent] or self.truncations[agent])

    def _after(self, mover: str) -> str:
        """The first live agent after ``mover`` in ``agents`` order (cyclically)."""
        start = self.agents.index(mover)
        ordered = self.agents[start + 1 :] + self.agents[: start + 1]
        return next(agent for agent in ordered if not self._done(agent))

    def _check_live(self, agent: Any, where: str) -> None:
        """An env bug (not an agent's): the env named an agent that cannot move."""
        if type(agent) is str and agent in self.agents and not self._done(agent):
            return  # the common case, without building the list of live agents
        live = [a for a in self.agents if not self._done(a)]
        if agent not in live:
            raise ValueError(f"{where} named {agent!r}, which is not a live agent ({live})")

    def _mark_legal_actions(self) -> None:
        """Put the agent to move's legal actions in its info; empty ones for the others.

        An agent not to move whose info is still the dict this method last wrote for it,
        holding the same empty list or all-zero mask (unchanged since), keeps it: a new
        dict would hold the same values. Every other info gets a new dict.
        """
        if type(self).legal_actions is EnvsuiteAECEnv.legal_actions:
            return  # the env has no finite action set
        mover = self.agent_selection
        done = self.terminations[mover] or self.truncations[mover]
        legal = [] if done else self.legal_actions(mover)
        if legal is None:
            return
        infos, marked = self.infos, self._marked_empty
        for agent in self.agents:
            info = infos[agent]
            if agent != mover:
                last = marked.get(agent)
                if last is not None and last[0] is info:
                    written = last[1]
                    if type(written) is list:  # _still_empty, inlined for the common case
                        if not written and info.get("legal_actions") is written:
                            continue
                    elif _still_empty(info, written):
                        continue
            space = self.action_spaces[agent]
            value: np.ndarray | list[Any]
            if isinstance(space, spaces.Discrete):
                mask = np.zeros(int(space.n), dtype=np.int8)
                if agent == mover:
                    start = int(space.start)
                    for index in legal:
                        mask[int(index) - start] = 1
                key, value = "action_mask", mask
            else:
                key, value = "legal_actions", list(legal) if agent == mover else []
            infos[agent] = new = {**info, key: value}
            if agent == mover:
                marked.pop(agent, None)
            else:
                marked[agent] = (new, value)


def _still_empty(info: dict[str, Any], written: Any) -> bool:
    """Whether ``info`` still holds ``written`` (an empty list or zero mask), still empty."""
    key = "legal_actions" if isinstance(written, list) else "action_mask"
    if info.get(key) is not written:
        return False
    if isinstance(written, list):
        return not written
    mask = cast(np.ndarray, written)
    return bool(mask.tobytes() == bytes(mask.nbytes))


def _agent_name(agent: Any, live: Sequence[str]) -> str | None:
    """``agent`` as the name of a live agent, or None (never raising on a hostile value)."""
    if not issubclass(type(agent), str):  # type(), not isinstance: __class__ can lie
        return None
    name = str.__str__(agent)  # a str subclass cannot fake its comparisons
    return name if name in live else None
