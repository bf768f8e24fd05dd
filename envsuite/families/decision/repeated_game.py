"""Repeated two-player matrix games (PettingZoo Parallel), for text or vector agents."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Literal

import numpy as np
from gymnasium import spaces

from envsuite.action_parsing import parse_choice
from envsuite.families.decision.matrix_games import (
    AGENTS,
    CUSTOM,
    GAMES,
    validate_action_names,
    validate_payoffs,
)
from envsuite.families.decision.size_limits import (
    MAX_HORIZON,
    check_at_most,
)
from envsuite.parallel_env_base import EnvsuiteParallelEnv, StepResult
from envsuite.rendering import TEXT_RENDER_MODES, checked_render_mode
from envsuite.spaces import UnicodeText

ObservationMode = Literal["text", "vector"]


def _fmt(value: float) -> str:
    return f"{value:g}"


class RepeatedGameEnv(EnvsuiteParallelEnv[Any, Any, int]):
    """A two-player matrix game repeated for a fixed number of rounds.

    Description:
        ``player_0`` (the row player) and ``player_1`` (the column player) play the same
        one-shot game ``horizon`` times, choosing simultaneously and seeing each other's
        choice after every round. Named games (row payoff, column payoff):

        ===================  ======================  ======================================
        game                 actions                 payoffs
        ===================  ======================  ======================================
        prisoners_dilemma    cooperate, defect       CC 3,3  CD 0,5  DC 5,0  DD 1,1
        matching_pennies     heads, tails            match 1,-1  mismatch -1,1
        rock_paper_scissors  rock, paper, scissors   win 1, loss -1, tie 0 (zero-sum)
        battle_of_the_sexes  opera, football         OO 2,1  FF 1,2  mismatch 0,0
        stag_hunt            stag, hare              SS 4,4  SH 1,3  HS 3,1  HH 3,3
        ===================  ======================  ======================================

        ``game="custom"`` plays the m×n game given by ``payoffs``. Nothing in the env is
        random: the same actions always give the same episode.

    Observation:
        ``observation_mode="text"``: a :class:`~envsuite.spaces.UnicodeText` message. Reset
        gives the rules (both players' actions and every payoff, seen from this player);
        each round reports what both played, both payoffs and this player's total.
        ``observation_mode="vector"``: ``Box(0, 1, (n_own + n_opp + 1,))`` float32: a one-hot
        of this player's last action, a one-hot of the opponent's last action (both zeros
        at reset) and the fraction of rounds played.

    Action:
        Text mode: a string naming one of the player's actions ("defect", "I play rock").
        Vector mode: an integer in ``Discrete(n_own)``. A malformed or missing action is
        replaced by the player's worst response to the opponent's action that round (the
        lowest payoff it could have got; lowest index on ties), or, when both players'
        actions are malformed, by each player's action with the lowest worst-case payoff.
        ``info["parse_error"]`` says what was wrong. Actions for other names are ignored.

    Reward:
        The player's payoff for the round. Each agent's ``info`` holds ``action`` and
        ``opponent_action`` (indices actually played), ``payoff``, ``opponent_payoff``,
        ``round``, ``cumulative_regret`` (external regret: the best fixed action's total
        payoff against the opponent's actual plays, minus the player's own total) and
        ``regret`` (this round's change in ``cumulative_regret``, so the per-round values
        sum to it; it can be negative). Reset info holds ``action_names`` and
        ``payoff_matrix`` (the player's payoffs, rows its own actions); text mode adds
        ``legal_actions``.

    Termination:
        Both agents terminate after ``horizon`` rounds. Each then gets ``average_regret``
        (``cumulative_regret / horizon``), ``success``: ``average_regret`` is at most
        ``success_threshold`` times the player's payoff range (max − min of its payoffs),
        and ``score``: its average payoff rescaled by that range to [0, 1]. The default
        threshold, 0.1, sits above Hedge's expected-regret bound for 3 actions over 100
        rounds (0.074 of the range); the fictitious-play oracle stays within 0.05 of the
        range in self-play from 60 rounds on, in every named game.

    Arguments:
        game: One of the named games above, or ``"custom"``.
        payoffs: For ``"custom"``: an m×n×2 bimatrix (``[i][j]`` = row player's payoff,
            column player's payoff), or the row player's m×n matrix.
        column_payoffs: For ``"custom"`` without a bimatrix: the column player's m×n matrix.
        action_names: For ``"custom"``: the row and column players' action names
            (default ``action_0``, ``action_1``, ...).
        horizon: Number of rounds T.
        observation_mode: ``"text"`` for LLM agents or ``"vector"`` for classic agents.
        success_threshold: Average regret per round allowed for success, as a fraction of
            the player's payoff range.
        render_mode: ``"ansi"`` (the text), ``"rgb_array"`` (the text drawn on an
            image), ``"human"`` (the text printed on every reset and step) or None.

    Version history:
        v0: Initial version.

    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(TEXT_RENDER_MODES),
        "name": "repeated_game_v0",
        "is_parallelizable": True,
    }
    #: Per-step info keys the runner records as curves, and final ones it records as metrics.
    record_curves = ("regret",)
    record_metrics = ("cumulative_regret", "average_regret")

    def __init__(
        self,
        game: str = "prisoners_dilemma",
        payoffs: Any = None,
        column_payoffs: Any = None,
        action_names: Any = None,
        horizon: int = 100,
        observation_mode: ObservationMode = "text",
        success_threshold: float = 0.1,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if game == CUSTOM:
            if payoffs is None:
                raise ValueError(
                    "game='custom' needs payoffs (an m×n×2 bimatrix, or the row "
                    "player's m×n matrix with column_payoffs)"
                )
            row, column = validate_payoffs(payoffs, column_payoffs)
            names = validate_action_names(action_names, row.shape)
            self.title = "a custom matrix game"
        elif game in GAMES:
            if any(x is not None for x in (payoffs, column_payoffs, action_names)):
                raise ValueError(
                    f"payoffs, column_payoffs and action_names need game='custom', not {game!r}"
                )
            self.title, shared, table = GAMES[game]
            bimatrix = np.array(table, dtype=np.float64)
            row, column, names = bimatrix[..., 0], bimatrix[..., 1], (shared, shared)
        else:
            known = ", ".join([*GAMES, CUSTOM])
            raise ValueError(f"game must be one of {known}; got {game!r}")
        if isinstance(horizon, bool) or not isinstance(horizon, int) or horizon < 1:
            raise ValueError(f"horizon must be an int >= 1, got {horizon!r}")
        check_at_most("horizon", horizon, MAX_HORIZON, "records keep a curve point per step")
        if observation_mode not in ("text", "vector"):
            raise ValueError(
                f"observation_mode must be 'text' or 'vector', got {observation_mode!r}"
            )
        threshold_ok = isinstance(success_threshold, int | float) and success_threshold >= 0
        if isinstance(success_threshold, bool) or not threshold_ok:
            raise ValueError(f"success_threshold must be a number >= 0, got {success_threshold!r}")
        render_mode = checked_render_mode(render_mode, TEXT_RENDER_MODES)
        self.game = game
        self.horizon = horizon
        self.observation_mode = observation_mode
        self.success_threshold = float(success_threshold)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.opponent = {AGENTS[0]: AGENTS[1], AGENTS[1]: AGENTS[0]}
        #: Each player's payoffs, rows its own actions and columns the opponent's.
        self.payoffs = {AGENTS[0]: row, AGENTS[1]: column.T.copy()}
        self.names = dict(zip(AGENTS, names, strict=True))
        self.rules = {agent: self._rules(agent) for agent in AGENTS}

        self.observation_spaces: dict[str, spaces.Space[Any]] = {}
        self.action_spaces: dict[str, spaces.Space[Any]] = {}
        longest_name = max(len(name) for own in names for name in own)
        for agent in AGENTS:
            n_own, n_opp = self.payoffs[agent].shape
            if observation_mode == "text":
                length = max(len(r) for r in self.rules.values()) + 512 + 2 * longest_name
                self.observation_spaces[agent] = UnicodeText(length)
                self.action_spaces[agent] = UnicodeText(256)
            else:
                self.observation_spaces[agent] = spaces.Box(
                    0.0, 1.0, (n_own + n_opp + 1,), np.float32
                )
                self.action_spaces[agent] = spaces.Discrete(n_own)
        self._reset_counters()

    def _reset_counters(self) -> None:
        self.t = 0
        self.last_actions: dict[str, int] | None = None
        self.totals = dict.fromkeys(AGENTS, 0.0)
        self.counterfactual = {a: np.zeros(self.payoffs[a].shape[0]) for a in AGENTS}
        self.cumulative_regret = dict.fromkeys(AGENTS, 0.0)
        self.text = dict.fromkeys(AGENTS, "")

    # -- episode -----------------------------------------------------------------------
    def new_episode(
        self, seed: int | None, options: dict[str, Any] | None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start the first round and show the rules."""
        self._reset_counters()
        infos: dict[str, dict[str, Any]] = {}
        for agent in AGENTS:
            self.text[agent] = self.rules[agent]
            infos[agent] = {
                "round": 0,
                "action_names": list(self.names[agent]),
                "payoff_matrix": self.payoffs[agent].tolist(),
            }
            if self.observation_mode == "text":
                infos[agent]["legal_actions"] = list(self.names[agent])
        return {agent: self._observation(agent) for agent in AGENTS}, infos

    def _rules(self, agent: str) -> str:
        own, opp = self.names[agent], self.names[self.opponent[agent]]
        mine, theirs = self.payoffs[agent], self.payoffs[self.opponent[agent]]
        lines = [
            f"You are playing {self.title} against one opponent, repeated for {self.horizon} "
            "rounds. In each round you both choose an action at the same time; afterwards "
            "you both see what the other chose.",
            f"Your actions: {', '.join(own)}. Your opponent's actions: {', '.join(opp)}.",
            "Payoffs per round (yours, your opponent's):",
        ]
        for i, a in enumerate(own):
            for j, b in enumerate(opp):
                lines.append(f"- you {a}, opponent {b}: {_fmt(mine[i, j])}, {_fmt(theirs[j, i])}")
        lines += [
            "Your goal is to collect as much total payoff as possible.",
            "Answer each round with the name of one of your actions and nothing else.",
            f"Round 1 of {self.horizon}: which action do you choose?",
        ]
        return "\n".join(lines)

    # -- actions -----------------------------------------------------------------------
    def parse_action(self, agent: str, action: Any) -> int:
        """Text mode: the one action named; vector mode: an int in [0, n_own)."""
        text_mode = self.observation_mode == "text"
        return parse_choice(action, self.names[agent], text_mode=text_mode, what="action")

    def penalty_actions(self, parsed: Mapping[str, int]) -> dict[str, int]:
        """Return the action each agent plays, malformed ones replaced (see Action)."""
        if len(parsed) == len(AGENTS):
            return dict(parsed)
        if not parsed:
            return {a: int(np.argmin(self.payoffs[a].min(axis=1))) for a in AGENTS}
        played = dict(parsed)
        for agent in AGENTS:
            if agent not in played:
                opponent_action = parsed[self.opponent[agent]]
                played[agent] = int(np.argmin(self.payoffs[agent][:, opponent_action]))
        return played

    def apply_actions(self, parsed: Mapping[str, int], errors: Mapping[str, str]) -> StepResult:
        """Play one round: payoffs, regret bookkeeping, observations."""
        played = self.penalty_actions(parsed)
        self.t += 1
        self.last_actions = played
        terminated = self.t >= self.horizon
        payoff = {a: float(self.payoffs[a][played[a], played[self.opponent[a]]]) for a in AGENTS}
        infos: dict[str, dict[str, Any]] = {}
        for agent in AGENTS:
            opponent = self.opponent[agent]
            matrix = self.payoffs[agent]
            self.totals[agent] += payoff[agent]
            self.counterfactual[agent] += matrix[:, played[opponent]]
            previous = self.cumulative_regret[agent]
            regret = float(self.counterfactual[agent].max()) - self.totals[agent]
            self.cumulative_regret[agent] = regret
            info: dict[str, Any] = {
                "round": self.t,
                "action": played[agent],
                "opponent_action": played[opponent],
                "payoff": payoff[agent],
                "opponent_payoff": payoff[opponent],
                "regret": regret - previous,
                "cumulative_regret": regret,
            }
            if self.observation_mode == "text":
                info["legal_actions"] = list(self.names[agent])
            if terminated:
                low, high = float(matrix.min()), float(matrix.max())
                info["average_regret"] = regret / self.horizon
                limit = self.success_threshold * (high - low)
                info["success"] = bool(info["average_regret"] <= limit)
                average = self.totals[agent] / self.horizon
                info["score"] = min(1.0, max(0.0, (average - low) / (high - low)))
            infos[agent] = info
            self.text[agent] = self._round_text(agent, played, payoff, agent in errors)
        observations = {agent: self._observation(agent) for agent in AGENTS}
        done = dict.fromkeys(AGENTS, terminated)
        return observations, payoff, done, dict.fromkeys(AGENTS, False), infos

    def episode_success(self, final_infos: Mapping[str, Mapping[str, Any]]) -> bool | None:
        """Env-level success: every agent ended with ``info["success"]`` True (None if unset)."""
        reported = [final_infos.get(agent, {}).get("success") for agent in self.possible_agents]
        if any(value is None for value in reported):
            return None
        return all(bool(value) for value in reported)

    # -- observations ------------------------------------------------------------------
    def _round_text(
        self, agent: str, played: Mapping[str, int], payoff: Mapping[str, float], penalised: bool
    ) -> str:
        opponent = self.opponent[agent]
        mine = self.names[agent][played[agent]]
        theirs = self.names[opponent][played[opponent]]
        if penalised:
            you = f"your answer did not name one of your actions, so {mine} was played for you"
        else:
            you = f"you played {mine}"
        lines = [
            f"Round {self.t} of {self.horizon}: {you}; your opponent played {theirs}. "
            f"You got {_fmt(payoff[agent])}, your opponent got {_fmt(payoff[opponent])}. "
            f"Your total so far: {_fmt(self.totals[agent])}."
        ]
        if self.t >= self.horizon:
            lines.append("The game is over.")
        else:
            lines.append(f"Round {self.t + 1} of {self.horizon}: which action do you choose?")
        return "\n".join(lines)

    def _observation(self, agent: str) -> Any:
        if self.observation_mode == "text":
            return self.text[agent]
        n_own, n_opp = self.payoffs[agent].shape
        vector = np.zeros(n_own + n_opp + 1, dtype=np.float32)
        if self.last_actions is not None:
            vector[self.last_actions[agent]] = 1.0
            vector[n_own + self.last_actions[self.opponent[agent]]] = 1.0
        vector[-1] = self.t / self.horizon
        return vector

    def render_text(self) -> str:
        """The ``ansi`` frame: the round number and the last round's actions and payoffs."""
        lines = [f"{self.title}, round {self.t}/{self.horizon}"]
        for agent in AGENTS:
            last = "-" if self.last_actions is None else self.names[agent][self.last_actions[agent]]
            lines.append(f"{agent}: last {last}, total {_fmt(self.totals[agent])}")
        return "\n".join(lines)
