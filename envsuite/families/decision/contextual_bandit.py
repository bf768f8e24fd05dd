"""Linear contextual bandit (disjoint model), for text or vector agents."""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from gymnasium import spaces

from envsuite.action_parsing import parse_choice
from envsuite.env_base import EnvsuiteEnv
from envsuite.families.decision.bandit import arm_names
from envsuite.families.decision.size_limits import (
    MAX_ARMS,
    MAX_HORIZON,
    MAX_TABLE_CELLS,
    check_at_most,
)
from envsuite.rendering import TEXT_RENDER_MODES, checked_render_mode
from envsuite.spaces import UnicodeText

ObservationMode = Literal["text", "vector"]
TextHistory = Literal["last", "full"]

#: Decimals contexts are rounded to when drawn, so the text shows them exactly.
CONTEXT_DECIMALS = 3
#: An episode succeeds when the agent's regret over the final quarter is at most this
#: fraction of the regret a uniformly random policy has on the same contexts.
SUCCESS_REGRET_RATIO = 0.25


class ContextualBanditEnv(EnvsuiteEnv[Any, Any, int]):
    """Linear contextual bandit with K arms and d-dimensional contexts (disjoint model).

    Description:
        Each episode draws one parameter vector θ_a per arm, uniformly on the unit sphere
        in R^d (a standard normal vector, normalised). Each round t shows a context x_t
        drawn from N(0, I_d / d) (so E‖x_t‖² = 1), each coordinate rounded to 3 decimals;
        the agent picks an arm a and receives x_t·θ_a + ε with ε ~ N(0, ``noise_std``²).
        This is the disjoint linear model of LinUCB (Li et al., 2010, "A Contextual-Bandit
        Approach to Personalized News Article Recommendation"). All of an episode's
        randomness (θ, every context and the noise every arm would receive in every round)
        is drawn at reset, so the contexts, and the reward any arm would pay, depend on the
        seed only, never on the agent's actions.

    Observation:
        ``observation_mode="text"``: a :class:`~envsuite.spaces.UnicodeText` message. Reset
        gives the instructions and the first context; each step reports the arm chosen and
        its reward, then the next round's context (with ``text_history="full"``, every past
        round too). Contexts are written with 3 decimals, which is exact.
        ``observation_mode="vector"``: ``Box(d + K + 2)`` float32 laid out as
        ``[x_next (d), one-hot of the last arm pulled (K), last reward, t / T]``, where
        ``x_next`` is the context of the coming round (zeros at reset for the one-hot and
        reward; zeros for ``x_next`` once the episode has ended).

    Action:
        Text mode: a string naming one arm (the text calls the arms buttons): "blue", "I
        press blue"; ``info["legal_actions"]`` lists the names. Vector mode: an integer in
        ``Discrete(K)``. A malformed action (no or several arms named, wrong type, out of
        range) pulls the worst arm for the current context — the documented penalty — and
        sets ``info["parse_error"]``.

    Reward:
        The sampled reward x_t·θ_a + ε of the pulled arm. ``info`` holds ``arm``, ``reward``,
        ``context`` (the context the arm was pulled in), ``expected_reward`` (x_t·θ_a),
        ``optimal_expected_reward`` (max over arms), ``regret`` (their difference),
        ``cumulative_regret``, ``t``, and ``next_context`` (the context the agent acts on
        next, as in the observation; also in the reset info, absent once the episode ends).

    Termination:
        Terminates after ``horizon`` rounds. At the end ``info["uniform_regret"]`` is the
        expected regret a uniformly random policy would have had on the same contexts,
        ``info["success"]`` is True when the agent's regret over the final quarter of the
        rounds is at most 0.25 times the uniform policy's over those rounds, and
        ``info["score"]`` is ``1 − cumulative_regret / uniform_regret`` clipped to [0, 1]
        (0: no better than random, 1: no regret).

    Arguments:
        num_arms: Number of arms K.
        context_dim: Context dimension d.
        horizon: Number of rounds T per episode.
        noise_std: Standard deviation of the Gaussian reward noise.
        observation_mode: ``"text"`` for LLM agents or ``"vector"`` for classic agents.
        text_history: ``"last"`` (only the last round) or ``"full"`` (every past round).
        render_mode: ``"ansi"`` (the text), ``"rgb_array"`` (the text drawn on an
            image), ``"human"`` (the text printed on every reset and step) or None.

    Version history:
        v0: Initial version.

    """

    # Annotated like the base class (not ClassVar), which mypy requires of an override.
    metadata: dict[str, Any] = {"render_modes": list(TEXT_RENDER_MODES), "render_fps": 4}
    #: Per-step info keys the runner records as curves, and final ones it records as metrics.
    record_curves = ("regret",)
    record_metrics = ("cumulative_regret", "uniform_regret", "score")

    def __init__(
        self,
        num_arms: int = 5,
        context_dim: int = 5,
        horizon: int = 300,
        noise_std: float = 0.1,
        observation_mode: ObservationMode = "text",
        text_history: TextHistory = "last",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        for name, value, least in (("num_arms", num_arms, 2), ("context_dim", context_dim, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise ValueError(f"{name} must be an int >= {least}, got {value!r}")
        if isinstance(horizon, bool) or not isinstance(horizon, int) or horizon < 1:
            raise ValueError(f"horizon must be an int >= 1, got {horizon!r}")
        check_at_most("num_arms", num_arms, MAX_ARMS, "observations list every arm")
        check_at_most("context_dim", context_dim, MAX_ARMS, "observations show every feature")
        check_at_most("horizon", horizon, MAX_HORIZON, "records keep a curve point per step")
        check_at_most(
            "horizon x max(num_arms, context_dim)",
            horizon * max(num_arms, context_dim),
            MAX_TABLE_CELLS,
            "the env draws a table of that many numbers per episode",
        )
        if not (isinstance(noise_std, int | float) and np.isfinite(noise_std) and noise_std >= 0):
            raise ValueError(f"noise_std must be a finite number >= 0, got {noise_std!r}")
        if observation_mode not in ("text", "vector"):
            raise ValueError(
                f"observation_mode must be 'text' or 'vector', not {observation_mode!r}"
            )
        if text_history not in ("last", "full"):
            raise ValueError(f"text_history must be 'last' or 'full', got {text_history!r}")
        render_mode = checked_render_mode(render_mode, TEXT_RENDER_MODES)
        self.num_arms = num_arms
        self.context_dim = context_dim
        self.horizon = horizon
        self.noise_std = float(noise_std)
        self.observation_mode = observation_mode
        self.text_history = text_history
        self.render_mode = render_mode
        self.names = arm_names(num_arms)

        if observation_mode == "text":
            per_round = 160 + 16 * context_dim
            rounds = horizon + 1 if text_history == "full" else 2
            length = 1024 + 32 * num_arms + per_round * rounds
            self.observation_space: spaces.Space[Any] = UnicodeText(length)
            self.action_space: spaces.Space[Any] = UnicodeText(256)
        else:
            low = np.full(context_dim + num_arms + 2, -np.inf, dtype=np.float32)
            high = np.full(context_dim + num_arms + 2, np.inf, dtype=np.float32)
            low[context_dim : context_dim + num_arms] = 0.0
            high[context_dim : context_dim + num_arms] = 1.0
            low[-1], high[-1] = 0.0, 1.0
            self.observation_space = spaces.Box(low, high, dtype=np.float32)
            self.action_space = spaces.Discrete(num_arms)

        self.theta = np.zeros((num_arms, context_dim))
        self.contexts = np.zeros((horizon, context_dim))
        self.noise = np.zeros((horizon, num_arms))
        self.means = np.zeros((horizon, num_arms))
        self._reset_counters()

    def _reset_counters(self) -> None:
        self.t = 0
        self.cumulative_regret = 0.0
        self.regrets = np.zeros(self.horizon)
        self.history: list[str] = []
        self.text = ""

    # -- episode -----------------------------------------------------------------------
    def draw_instance(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Draw an episode from ``np_random``: θ (K, d), contexts (T, d) and noise (T, K).

        ``noise[t, a]`` is what arm a's reward would add to x_t·θ_a in round t.
        """
        rng = self.np_random
        theta = rng.standard_normal((self.num_arms, self.context_dim))
        theta /= np.linalg.norm(theta, axis=1, keepdims=True)
        contexts = rng.normal(
            0.0, 1.0 / np.sqrt(self.context_dim), (self.horizon, self.context_dim)
        )
        noise = rng.normal(0.0, self.noise_std, (self.horizon, self.num_arms))
        return theta, np.round(contexts, CONTEXT_DECIMALS), noise

    def new_episode(
        self, seed: int | None, options: dict[str, Any] | None
    ) -> tuple[Any, dict[str, Any]]:
        """Draw a new instance and show the instructions and the first context."""
        self.theta, self.contexts, self.noise = self.draw_instance()
        self.means = self.contexts @ self.theta.T
        self._reset_counters()
        self.text = self.instructions()
        info: dict[str, Any] = {"t": 0, "next_context": self.contexts[0].tolist()}
        if self.observation_mode == "text":
            info["legal_actions"] = list(self.names)
        return self._observation(None, 0.0), info

    def instructions(self) -> str:
        """Return the text shown at reset."""
        return (
            f"You will play {self.horizon} rounds with {self.num_arms} buttons labelled "
            f"{', '.join(self.names)}. Each round you are shown a context: a list of "
            f"{self.context_dim} numbers. Each button's expected reward is a fixed but unknown "
            "linear function of the context (a weighted sum of the numbers, with weights "
            "that differ from button to button), and the reward you receive adds random noise "
            "to it. Your goal is to collect as much total reward as possible.\n"
            "Answer each round with the name of one button and nothing else.\n"
            f"{self._ask()}"
        )

    def _ask(self) -> str:
        round_ = f"Round {self.t + 1} of {self.horizon}"
        return (
            f"{round_}: the context is [{self._context_text(self.t)}]. Which button do you press?"
        )

    def _context_text(self, t: int) -> str:
        return ", ".join(f"{v:.{CONTEXT_DECIMALS}f}" for v in self.contexts[t])

    # -- actions -----------------------------------------------------------------------
    def parse_action(self, action: Any) -> int:
        """Text mode: the one button named; vector mode: an int in [0, K)."""
        text_mode = self.observation_mode == "text"
        return parse_choice(action, self.names, text_mode=text_mode, what="button")

    def apply_action(self, parsed: int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Pull the chosen arm in the current context."""
        return self._pull(parsed, penalised=False)

    def apply_invalid_action(self, message: str) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Penalty: the worst arm for the current context is pulled for the agent."""
        return self._pull(int(np.argmin(self.means[self.t])), penalised=True)

    def _pull(self, arm: int, *, penalised: bool) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        t = self.t
        means = self.means[t]
        reward = float(means[arm] + self.noise[t, arm])
        optimal = float(means.max())
        regret = optimal - float(means[arm])
        self.regrets[t] = regret
        self.cumulative_regret += regret
        self.t += 1
        terminated = self.t >= self.horizon

        info: dict[str, Any] = {
            "arm": arm,
            "reward": reward,
            "context": self.contexts[t].tolist(),
            "expected_reward": float(means[arm]),
            "optimal_expected_reward": optimal,
            "regret": regret,
            "cumulative_regret": self.cumulative_regret,
            "t": self.t,
        }
        if not terminated:
            info["next_context"] = self.contexts[self.t].tolist()
        if self.observation_mode == "text":
            info["legal_actions"] = list(self.names)
            self.text = self._round_text(t, arm, reward, penalised, terminated)
        if terminated:
            info.update(self.episode_summary())
        return self._observation(arm, reward), reward, terminated, False, info

    def episode_summary(self) -> dict[str, Any]:
        """Return the end-of-episode ``success``, ``score`` and ``uniform_regret``."""
        uniform = self.means.max(axis=1) - self.means.mean(axis=1)
        quarter = max(1, self.horizon // 4)
        final_agent = float(self.regrets[-quarter:].sum())
        final_uniform = float(uniform[-quarter:].sum())
        uniform_regret = float(uniform.sum())
        score = 1.0 - self.cumulative_regret / uniform_regret if uniform_regret > 0 else 1.0
        return {
            "uniform_regret": uniform_regret,
            "success": final_agent <= SUCCESS_REGRET_RATIO * final_uniform,
            "score": float(np.clip(score, 0.0, 1.0)),
        }

    # -- observations ------------------------------------------------------------------
    def _round_text(
        self, t: int, arm: int, reward: float, penalised: bool, terminated: bool
    ) -> str:
        line = f"Round {t + 1}: context [{self._context_text(t)}]; "
        if penalised:
            line += "your answer named no single button, so one was pressed for you: "
            line += f"{self.names[arm]}, reward {reward:.3f}."
        else:
            line += f"you pressed {self.names[arm]} and received reward {reward:.3f}."
        self.history.append(line)
        parts = self.history if self.text_history == "full" else [line]
        ask = "The game is over." if terminated else self._ask()
        return "\n".join([*parts, ask])

    def _observation(self, last_arm: int | None, last_reward: float) -> Any:
        if self.observation_mode == "text":
            return self.text
        d, k = self.context_dim, self.num_arms
        vector = np.zeros(d + k + 2, dtype=np.float32)
        if self.t < self.horizon:
            vector[:d] = self.contexts[self.t]
        if last_arm is not None:
            vector[d + last_arm] = 1.0
        vector[-2] = last_reward
        vector[-1] = self.t / self.horizon
        return vector

    def render_text(self) -> str:
        """The ``ansi`` frame: the last text observation (or a one-line state in vector mode)."""
        if self.observation_mode == "text":
            return self.text
        return f"t={self.t}/{self.horizon} cumulative_regret={self.cumulative_regret:.3f}"
