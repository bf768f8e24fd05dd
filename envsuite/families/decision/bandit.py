"""K-armed stochastic bandit with EVOLvE's difficulty presets, for text or vector agents."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding

from envsuite.action_parsing import exact_answers, parse_choice
from envsuite.env_base import EnvsuiteEnv
from envsuite.families.decision.bernoulli_draws import bernoulli_draws
from envsuite.families.decision.size_limits import (
    MAX_ARMS,
    MAX_HORIZON,
    check_at_most,
)
from envsuite.rendering import TEXT_RENDER_MODES, checked_render_mode
from envsuite.spaces import UnicodeText

ArmType = Literal["bernoulli", "gaussian"]
Difficulty = Literal["easy", "hard"]
ObservationMode = Literal["text", "vector"]
TextHistory = Literal["last", "summary", "full"]

#: Bernoulli gap Δ between the best arm (0.5 + Δ/2) and the others (0.5 − Δ/2), per EVOLvE.
BERNOULLI_GAP: dict[str, float] = {"easy": 0.5, "hard": 0.2}
#: Standard deviation σ of the Gaussian arms' means (means ~ N(0, σ)), per EVOLvE.
GAUSSIAN_MEAN_STD: dict[str, float] = {"easy": 1.0, "hard": 3.0}

#: What ``_draws_from`` holds before a Bernoulli pull has followed a generator.
_NOTHING_FOLLOWED = object()

BUTTON_COLOURS = (
    "blue", "green", "red", "yellow", "purple", "orange", "pink", "brown", "black", "white",
    "gray", "cyan", "magenta", "teal", "navy", "olive", "maroon", "lime", "gold", "silver",
)  # fmt: skip


def arm_names(num_arms: int) -> tuple[str, ...]:
    """Names of the arms: colours for the first 20, then ``button-21``, ``button-22``, ..."""
    extra = tuple(f"button-{i + 1}" for i in range(len(BUTTON_COLOURS), num_arms))
    return (BUTTON_COLOURS + extra)[:num_arms]


class BanditEnv(EnvsuiteEnv[Any, Any, int]):
    """K-armed stochastic bandit with Bernoulli or Gaussian arms.

    Description:
        Each episode draws a bandit instance from ``self.np_random``: with Bernoulli arms the
        best arm (at a random position) pays 1 with probability 0.5 + Δ/2 and every other
        arm with 0.5 − Δ/2 (Δ = 0.5 easy, 0.2 hard); with Gaussian arms the means are drawn
        from N(0, σ) (σ = 1 easy, 3 hard) and rewards are N(mean, ``reward_std``). These are
        the presets of EVOLvE (Nie et al., 2024, "EVOLvE: Evaluating and Optimizing LLMs
        For Exploration"). ``arm_means`` fixes the means instead.

    Observation:
        ``observation_mode="text"``: a :class:`~envsuite.spaces.UnicodeText` message. Reset
        gives the instructions (the buttons are named by colour); each step reports the
        round, the button pressed and its reward, and, with ``text_history="summary"``,
        every button's press count and average reward, or with ``"full"`` every past round.
        ``observation_mode="vector"``: ``Box(K + 2)`` float32 holding a one-hot of the
        last arm pulled (zeros at reset), the last reward, and the fraction of the horizon
        elapsed.

    Action:
        Text mode: a string naming one button ("blue", "I press blue"). Vector mode: an
        integer in ``Discrete(K)``. A malformed action (no or several buttons named, wrong
        type, out of range) pulls the worst arm for the agent — the documented penalty —
        and sets ``info["parse_error"]``.

    Reward:
        The sampled reward of the pulled arm. ``info`` holds ``arm`` (index pulled),
        ``reward``, ``optimal_mean`` (the best arm's mean), ``arm_mean``, ``regret`` (this
        step's pseudo-regret, optimal_mean − arm_mean) and ``cumulative_regret``.

    Termination:
        Terminates after ``horizon`` pulls. At the end ``info["success"]`` is True when an
        optimal arm was the most pulled arm over the second half of the episode, and
        ``info["score"]`` is OptFrac, the fraction of pulls of an optimal arm.

    Arguments:
        num_arms: Number of arms K (EVOLvE uses 5 and 20).
        arm_type: ``"bernoulli"`` or ``"gaussian"``.
        difficulty: ``"easy"`` or ``"hard"`` (see Description).
        horizon: Number of pulls T per episode.
        observation_mode: ``"text"`` for LLM agents or ``"vector"`` for classic agents.
        text_history: How much history text observations carry: ``"last"``, ``"summary"``
            or ``"full"``.
        arm_means: Fixed arm means (length K) instead of drawing them; sets Δ / σ aside.
        reward_std: Standard deviation of Gaussian rewards around their arm's mean.
        render_mode: ``"ansi"`` (the text), ``"rgb_array"`` (the text drawn on an
            image), ``"human"`` (the text printed on every reset and step) or None.

    Version history:
        v0: Initial version.
    """

    metadata: dict[str, Any] = {"render_modes": list(TEXT_RENDER_MODES), "render_fps": 4}
    #: Per-step info keys the runner records as curves, and final ones it records as metrics.
    record_curves = ("regret", "arm")
    record_metrics = ("cumulative_regret", "opt_frac")

    def __init__(
        self,
        num_arms: int = 5,
        arm_type: ArmType = "bernoulli",
        difficulty: Difficulty = "easy",
        horizon: int = 300,
        observation_mode: ObservationMode = "text",
        text_history: TextHistory = "last",
        arm_means: tuple[float, ...] | list[float] | None = None,
        reward_std: float = 1.0,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if not isinstance(num_arms, int) or num_arms < 2:
            raise ValueError(f"num_arms must be an int >= 2, got {num_arms!r}")
        if arm_type not in ("bernoulli", "gaussian"):
            raise ValueError(f"arm_type must be 'bernoulli' or 'gaussian', got {arm_type!r}")
        if difficulty not in BERNOULLI_GAP:
            raise ValueError(f"difficulty must be 'easy' or 'hard', got {difficulty!r}")
        if not isinstance(horizon, int) or horizon < 1:
            raise ValueError(f"horizon must be an int >= 1, got {horizon!r}")
        check_at_most("num_arms", num_arms, MAX_ARMS, "observations list every arm")
        check_at_most("horizon", horizon, MAX_HORIZON, "records keep a curve point per step")
        if observation_mode not in ("text", "vector"):
            raise ValueError(
                f"observation_mode must be 'text' or 'vector', got {observation_mode!r}"
            )
        if text_history not in ("last", "summary", "full"):
            raise ValueError(
                f"text_history must be 'last', 'summary' or 'full', got {text_history!r}"
            )
        if arm_means is not None:
            arm_means = tuple(float(m) for m in arm_means)
            if len(arm_means) != num_arms or not all(np.isfinite(arm_means)):
                raise ValueError(f"arm_means must hold {num_arms} finite numbers")
            if arm_type == "bernoulli" and not all(0.0 <= m <= 1.0 for m in arm_means):
                raise ValueError("Bernoulli arm_means must lie in [0, 1]")
        render_mode = checked_render_mode(render_mode, TEXT_RENDER_MODES)
        self.num_arms = num_arms
        self.arm_type = arm_type
        self.difficulty = difficulty
        self.horizon = horizon
        self.observation_mode = observation_mode
        self.text_history = text_history
        self.fixed_means = arm_means
        self.reward_std = float(reward_std)
        self.render_mode = render_mode
        self.names = arm_names(num_arms)

        if observation_mode == "text":
            per_round = 96 + 40 * num_arms if text_history == "summary" else 96
            length = 2048 + 32 * num_arms + per_round * (horizon if text_history == "full" else 1)
            self.observation_space: spaces.Space[Any] = UnicodeText(length)
            self.action_space: spaces.Space[Any] = UnicodeText(256)
        else:
            low, high = (0.0, 1.0) if arm_type == "bernoulli" else (-np.inf, np.inf)
            self.observation_space = spaces.Box(low, high, (num_arms + 2,), np.float32)
            self.action_space = spaces.Discrete(num_arms)

        self.means = np.zeros(num_arms)
        self._vector = observation_mode != "text"
        self._sums_rewards = text_history == "summary"
        self._blank_vector = np.zeros(num_arms + 2, dtype=np.float32)
        # A vector observation starts as a copy of its arm's one-hot row; with Bernoulli
        # arms, of the row that already holds the reward (0 or 1).
        self._one_hot_rows = list(np.eye(num_arms, num_arms + 2, dtype=np.float32))
        paid_rows = np.eye(num_arms, num_arms + 2, dtype=np.float32)
        paid_rows[:, -2] = 1.0
        self._paid_rows = list(paid_rows)
        # The usual text answer (just a button's name) looked up without the parser.
        self._answers = exact_answers(self.names)
        # The part of a round's text after "Round t:", per arm, for a paid and an unpaid
        # Bernoulli pull (the reward shows as f"{reward:g}").
        self._pressed = [
            (
                f" you pressed {name} and received reward {0.0:g}.",
                f" you pressed {name} and received reward {1.0:g}.",
            )
            for name in self.names
        ]
        self._half = horizon // 2
        self._bernoulli = arm_type == "bernoulli"
        # Int actions of this configuration take the shortest path (see step); the render
        # mode is the one the env was made with, as in Gymnasium.
        self._quick_ints = (
            self._bernoulli and self._vector and not self._sums_rewards and render_mode != "human"
        )
        # The int actions that take it: every arm while an episode runs (from new_episode
        # to _end_episode, as the base's _episode_over says), none before or after.
        self._quick_arms: frozenset[int] = frozenset()
        # A Bernoulli pull pays when _draw() < _pay_limits[arm]; _follow_generator makes
        # both before the first pull of each episode (these are never used).
        self._draw: Callable[[], Any] = float
        self._pay_limits: list[Any] = []
        self._reset_counters()

    def _reset_counters(self) -> None:
        # Plain Python numbers: per-step work on numpy scalars costs more than the step.
        self.t = 0
        self.counts = [0] * self.num_arms
        # The counts after the first half of the horizon (taken as it ends), for success.
        self.first_half_counts = [0] * self.num_arms
        # The step at which a pull does more than count: half the horizon, then its end.
        self._next_milestone = self._half or self.horizon
        self.reward_sums = [0.0] * self.num_arms
        self.mean_list: list[float] = self.means.tolist()
        self.optimal_mean = max(self.mean_list)
        self._regrets = [self.optimal_mean - mean for mean in self.mean_list]
        # Per arm, the info of a pull with the entries every pull of it shares (made at its
        # first pull this episode): copying it costs less than building the dict.
        self._paid_infos: list[dict[str, Any] | None] = [None] * self.num_arms
        self._unpaid_infos: list[dict[str, Any] | None] = [None] * self.num_arms
        # No generator followed yet: the episode's first Bernoulli pull makes the draw.
        self._draws_from: object = _NOTHING_FOLLOWED
        self.cumulative_regret = 0.0
        self.history: list[str] = []
        self.text = ""

    # -- episode -----------------------------------------------------------------------
    def draw_means(self) -> np.ndarray:
        """Draw this episode's arm means from ``self.np_random``."""
        if self.fixed_means is not None:
            return np.array(self.fixed_means)
        if self.arm_type == "bernoulli":
            gap = BERNOULLI_GAP[self.difficulty]
            means = np.full(self.num_arms, 0.5 - gap / 2)
            means[self.np_random.integers(self.num_arms)] = 0.5 + gap / 2
            return means
        return self.np_random.normal(0.0, GAUSSIAN_MEAN_STD[self.difficulty], self.num_arms)

    def new_episode(
        self, seed: int | None, options: dict[str, Any] | None
    ) -> tuple[Any, dict[str, Any]]:
        """Draw a new instance and show the instructions."""
        if self._np_random is None:
            # A first reset without a seed: the steps read the generator itself, so make
            # the one Gymnasium makes on first use (fixed means draw nothing at reset).
            self._np_random, self._np_random_seed = seeding.np_random()
        self.means = self.draw_means()
        self._reset_counters()
        self.text = self.instructions()
        info: dict[str, Any] = {"optimal_mean": self.optimal_mean, "t": 0}
        if self.observation_mode == "text":
            info["legal_actions"] = list(self.names)
        if self._quick_ints:
            self._quick_arms = frozenset(range(self.num_arms))
        return self._observation(last_arm=None, last_reward=0.0), info

    def instructions(self) -> str:
        """The text shown at reset."""
        distribution = "Bernoulli" if self.arm_type == "bernoulli" else "Gaussian"
        return (
            f"You are in a room with {self.num_arms} buttons labelled {', '.join(self.names)}. "
            f"Each button gives a reward drawn from its own {distribution} distribution, whose "
            "mean is fixed but unknown to you; different buttons may have different means. "
            f"You will press a button {self.horizon} times, one press per round, and see the "
            "reward each time. Your goal is to collect as much total reward as possible.\n"
            "Answer each round with the name of one button and nothing else.\n"
            f"Round 1 of {self.horizon}: which button do you press?"
        )

    # -- actions -----------------------------------------------------------------------
    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The base's step; the usual actions go straight to the pull.

        The usual actions are an ``int`` arm in vector mode and a button's bare name in
        text mode. The result is the base's to the byte (see :meth:`EnvsuiteEnv.step`);
        the shortcut spares a step the general action checks, which cost more than the
        pull.
        """
        if type(action) is int and action in self._quick_arms:
            # _pull for this case, written out: the call and its branches would cost a
            # fifth of the step.
            if self._np_random is not self._draws_from:
                self._follow_generator()
            draw = self._draw  # read as an attribute: self._draw() looks for a method first
            if draw() < self._pay_limits[action]:
                reward = 1.0
                info = self._paid_infos[action]
                observation = self._paid_rows[action].copy()
            else:
                reward = 0.0
                info = self._unpaid_infos[action]
                observation = self._one_hot_rows[action].copy()
            info = (info or self._info_template(action, reward > 0.0)).copy()
            t = self.t = info["t"] = self.t + 1
            self.counts[action] += 1
            info["cumulative_regret"] = self.cumulative_regret = (
                self.cumulative_regret + self._regrets[action]
            )
            observation[-1] = t / self.horizon
            if t < self._next_milestone:
                return observation, reward, False, False, info
            return self._at_milestone(observation, reward, info)
        if self._episode_over or self.render_mode == "human":
            return super().step(action)
        kind = type(action)
        if kind is int and self._vector and 0 <= action < self.num_arms:
            return self._pull(action, False)
        if kind is str and not self._vector:
            arm = self._answers.get(action.lower())
            if arm is not None:
                return self._pull(arm, False)
        return super().step(action)

    def parse_action(self, action: Any) -> int:
        """Text mode: the one button named; vector mode: an int in [0, K)."""
        if type(action) is int and 0 <= action < self.num_arms and self._vector:
            return action  # the usual vector action, without the general checks
        return parse_choice(action, self.names, text_mode=not self._vector, what="button")

    def apply_action(self, parsed: int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Pull the chosen arm."""
        return self._pull(parsed, False)

    def apply_invalid_action(self, message: str) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Penalty: the worst arm is pulled for the agent."""
        return self._pull(int(np.argmin(self.means)), True)

    def _pull(self, arm: int, penalised: bool) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Pull ``arm``, and record the step as the base's ``step`` does.

        The info ends with ``parse_error`` None (the base's ``step`` overwrites it), so
        that a shortcut step can return the result as it is.
        """
        paid = False
        if self._bernoulli:
            if self._np_random is not self._draws_from:
                self._follow_generator()
            paid = self._draw() < self._pay_limits[arm]
            reward = 1.0 if paid else 0.0
        else:
            # The generator itself, not the np_random property: a step follows a reset,
            # which seeded it (the property would make one if there were none).
            arm_mean = self.mean_list[arm]
            reward = float(self._np_random.normal(arm_mean, self.reward_std))  # type: ignore[union-attr]
        # Per step only what every step needs; the end-of-episode figures come from counts.
        t = self.t = self.t + 1
        self.counts[arm] += 1
        if self._sums_rewards:
            self.reward_sums[arm] += reward
        info = (self._paid_infos if paid else self._unpaid_infos)[arm]
        info = (info or self._info_template(arm, paid)).copy()
        info["reward"] = reward
        cumulative_regret = self.cumulative_regret = self.cumulative_regret + self._regrets[arm]
        info["cumulative_regret"] = cumulative_regret
        info["t"] = t
        observation: Any
        if self._vector:
            if paid:
                observation = self._paid_rows[arm].copy()
            else:
                observation = self._one_hot_rows[arm].copy()
                if not self._bernoulli:
                    observation[-2] = reward
            observation[-1] = t / self.horizon  # as _observation makes it
        else:
            info["legal_actions"] = list(self.names)
            observation = self.text = self._round_text(arm, paid, reward, penalised, t)
        if t < self._next_milestone:
            return observation, reward, False, False, info
        return self._at_milestone(observation, reward, info)

    def _follow_generator(self) -> None:
        """Draw Bernoulli pulls from ``self._np_random`` as it is now.

        ``self._draw() < self._pay_limits[arm]`` is ``self._np_random.random() < mean``
        with the same bits drawn (see :func:`bernoulli_draws`). The generator itself, not
        the np_random property: a step follows a reset, which seeded it (the property
        would make one if there were none). A step checks that the generator is still the
        one followed (``reset(seed=...)`` and the ``np_random`` setter replace it).
        """
        rng = self._np_random
        self._draw, self._pay_limits = bernoulli_draws(rng, self.mean_list)  # type: ignore[arg-type]
        self._draws_from = rng

    def _at_milestone(
        self, observation: Any, reward: float, info: dict[str, Any]
    ) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The result of the pull that reached ``_next_milestone``.

        Half the horizon: the counts are kept (success is judged on the second half's),
        and the next milestone is the end of the episode.
        """
        if self.t == self._half:
            self.first_half_counts = list(self.counts)
            self._next_milestone = self.horizon
            return observation, reward, False, False, info
        return self._end_episode(observation, reward, info)

    def _end_episode(
        self, observation: Any, reward: float, info: dict[str, Any]
    ) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The last pull's result: its info gains the end-of-episode figures.

        The episode is over: a further step answers with this observation (the base's
        ``step`` reads it only then, so the pulls before leave it alone).
        """
        self._last_observation = observation
        self._quick_arms = frozenset()
        del info["parse_error"]  # it comes last, after the end-of-episode figures
        info.update(self._final_info())
        info["parse_error"] = None
        self._episode_over = True
        return observation, reward, True, False, info

    def _info_template(self, arm: int, paid: bool) -> dict[str, Any]:
        """A pull's info for ``arm``, kept for its further pulls this episode.

        The per-pull entries (the reward of a Gaussian arm, ...) are left None. Bernoulli
        arms have one template for a paid pull and one for an unpaid one.
        """
        arm_mean = self.mean_list[arm]
        reward = (1.0 if paid else 0.0) if self._bernoulli else None
        info: dict[str, Any] = {
            "arm": arm,
            "reward": reward,
            "optimal_mean": self.optimal_mean,
            "arm_mean": arm_mean,
            "regret": self._regrets[arm],
            "cumulative_regret": None,
            "t": None,
        }
        if not self._vector:
            info["legal_actions"] = None
        info["parse_error"] = None
        (self._paid_infos if paid else self._unpaid_infos)[arm] = info
        return info

    def _final_info(self) -> dict[str, Any]:
        """``success``, ``score`` and ``opt_frac`` of the episode that just ended."""
        counts, means, optimal_mean = self.counts, self.mean_list, self.optimal_mean
        second_half = [n - m for n, m in zip(counts, self.first_half_counts, strict=True)]
        most_pulled = max(range(self.num_arms), key=second_half.__getitem__)
        optimal_pulls = sum(
            n for n, mean in zip(counts, means, strict=True) if mean == optimal_mean
        )
        score = optimal_pulls / self.horizon
        return {"success": means[most_pulled] == optimal_mean, "score": score, "opt_frac": score}

    # -- observations ------------------------------------------------------------------
    def _round_text(self, arm: int, paid: bool, reward: float, penalised: bool, t: int) -> str:
        if penalised:
            shown = f"{reward:g}" if self._bernoulli else f"{reward:.3f}"
            line = f"Round {t}: your answer named no single button, so a button was "
            line += f"pressed for you; reward {shown}."
        elif self._bernoulli:
            line = f"Round {t}:{self._pressed[arm][paid]}"
        else:
            line = f"Round {t}: you pressed {self.names[arm]} and received reward {reward:.3f}."
        self.history.append(line)
        ask = (
            "The game is over."
            if t >= self.horizon
            else f"Round {t + 1} of {self.horizon}: which button do you press?"
        )
        if self.text_history == "last":
            return f"{line}\n{ask}"
        if self.text_history == "summary":
            return f"{line}\n{self._summary()}\n{ask}"
        return "\n".join([*self.history, ask])

    def _summary(self) -> str:
        rows = []
        for i, name in enumerate(self.names):
            n = int(self.counts[i])
            mean = f"{self.reward_sums[i] / n:.3f}" if n else "-"
            rows.append(f"{name}: pressed {n} times, average reward {mean}")
        return "So far: " + "; ".join(rows) + "."

    def _observation(self, last_arm: int | None, last_reward: float) -> Any:
        if self.observation_mode == "text":
            return self.text
        if last_arm is None:
            vector = self._blank_vector.copy()
        else:
            vector = self._one_hot_rows[last_arm].copy()
        vector[-2] = last_reward
        vector[-1] = self.t / self.horizon
        return vector

    def render_text(self) -> str:
        """The ``ansi`` frame: the last text observation (or a one-line state in vector mode)."""
        if self.observation_mode == "text":
            return self.text
        return f"t={self.t}/{self.horizon} counts={self.counts}"
