"""Online learning with expert advice (full information), for text or vector agents."""

from __future__ import annotations

import math
import re
import string
from typing import Any, Literal

import numpy as np
from gymnasium import spaces

from envsuite.action_parsing import is_numeric_data
from envsuite.env_base import EnvsuiteEnv, InvalidAction
from envsuite.families.decision.size_limits import (
    MAX_ARMS,
    MAX_HORIZON,
    MAX_TABLE_CELLS,
    check_at_most,
)
from envsuite.rendering import TEXT_RENDER_MODES, checked_render_mode
from envsuite.spaces import UnicodeText

LossSequence = Literal["iid", "trend", "sinusoidal", "adversarial"]
ObservationMode = Literal["text", "vector"]
LOSS_SEQUENCES: tuple[str, ...] = ("iid", "trend", "sinusoidal", "adversarial")

#: Amplitude of the "sinusoidal" losses around each action's centre.
SINE_AMPLITUDE = 0.3
#: Slack on the success test, so rounding never turns a bound-meeting play into a failure.
REGRET_TOLERANCE = 1e-9

#: Characters around a bare action name that are ignored ("**B**", "'B'.", " B\n").
_DECORATION = " \t\r\n\"'`*."
#: A decimal number not glued to a preceding letter or digit ("0.25", "1e-3", "-2", ".5").
_NUMBER = re.compile(r"(?<![A-Za-z0-9_.])[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def action_names(num_actions: int) -> tuple[str, ...]:
    """Return the actions' names, spreadsheet columns: A, B, ..., Z, AA, AB, ..."""
    names = []
    for index in range(num_actions):
        name, n = "", index + 1
        while n:
            n, rest = divmod(n - 1, 26)
            name = string.ascii_uppercase[rest] + name
        names.append(name)
    return tuple(names)


def hedge_bound(horizon: int, num_actions: int) -> float:
    """Return √(T ln N / 2), Hedge's external-regret guarantee with η = √(8 ln N / T)."""
    return math.sqrt(horizon * math.log(num_actions) / 2.0)


def to_distribution(values: Any, num_actions: int) -> np.ndarray:
    """Normalise a non-negative, finite, numeric vector of length N with a positive sum.

    Raises:
        InvalidAction: ``values`` is not such a vector.

    """
    if not is_numeric_data(values):  # only plain numbers reach numpy (see its docstring)
        raise InvalidAction(f"expected {num_actions} numbers, got {type(values).__name__}")
    array = np.asarray(values)
    if array.dtype.kind not in "iuf":
        raise InvalidAction(f"expected {num_actions} numbers, got {type(values).__name__}")
    if array.shape != (num_actions,):
        raise InvalidAction(f"expected {num_actions} numbers, got shape {array.shape}")
    array = array.astype(np.float64)
    if not np.all(np.isfinite(array)) or np.any(array < 0) or array.max() <= 0:
        raise InvalidAction("the weights must be finite, non-negative and not all zero")
    array /= array.max()  # first, so that huge weights cannot overflow the sum
    return array / array.sum()


def parse_text_play(text: str, names: tuple[str, ...]) -> np.ndarray:
    """Read a text answer: N numbers (rescaled to sum to 1), or one action name or index.

    Raises:
        InvalidAction: the answer is neither (wrong count, negative weights, unknown name).

    """
    num_actions = len(names)
    bare = text.strip(_DECORATION).upper()
    if bare in names:
        return np.eye(num_actions)[names.index(bare)]
    numbers = _NUMBER.findall(text)
    if len(numbers) == 1 and re.fullmatch(r"[+]?\d+", numbers[0]):
        digits = numbers[0].lstrip("+")
        if len(digits) > len(str(num_actions)) or int(digits) >= num_actions:
            raise InvalidAction(f"action index {digits:.20} is outside [0, {num_actions})")
        return np.eye(num_actions)[int(digits)]
    if len(numbers) != num_actions:
        raise InvalidAction(
            f"expected {num_actions} numbers (weights for {', '.join(names)}) or one action "
            f"name; found {len(numbers)} numbers"
        )
    return to_distribution([float(n) for n in numbers], num_actions)


class ExpertsEnv(EnvsuiteEnv[Any, Any, np.ndarray]):
    """Prediction with expert advice: play a distribution, then see every action's loss.

    Description:
        Each round t the agent plays a probability distribution p_t over N actions; the env
        then reveals the whole loss vector l_t ∈ [0, 1]^N (full information) and the agent
        loses ⟨p_t, l_t⟩. Loss sequences (``loss_sequence``), drawn from ``np_random``:

        - ``"iid"``: each action i has a mean μ_i ~ U(0, 1) drawn per episode, and
          l_t,i ~ Bernoulli(μ_i) independently.
        - ``"trend"``: action i's loss moves linearly from s_i (round 1) to e_i (round T),
          s_i, e_i ~ U(0, 1), without noise. When the same action would be best at both
          ends, its end value is swapped with another action's (chosen uniformly), so the
          best action in round T differs from the best in round 1 (T >= 2).
        - ``"sinusoidal"``: l_t,i = c_i + 0.3 sin(2π t / ``period`` + φ_i) with
          c_i ~ U(0.3, 0.7) and φ_i ~ U(0, 2π).
        - ``"adversarial"``: l_t is 1 on the action given the most weight in round t − 1
          (the lowest index among ties; uniform play is assumed before round 1, so round 1
          hits action A) and 0 elsewhere. It adapts to the agent: a learner that follows
          its leader loses almost every round.

        The first three are fixed at reset (they do not depend on the agent's play).

    Observation:
        ``observation_mode="text"``: a :class:`~envsuite.spaces.UnicodeText` message. Reset
        gives the instructions; each step reports every action's loss in the round just
        played, the agent's loss, and every action's (and the agent's) total so far.
        ``observation_mode="vector"``: ``Box(0, 1, (N + 1,))`` float32 holding the last
        loss vector (zeros at reset) and the fraction t / T of the horizon elapsed.

    Action:
        Vector mode: ``Box(0, 1, (N,))``; any numeric vector of N finite, non-negative
        weights with a positive sum is accepted and normalised (values above 1 too).
        Text mode: N numbers in the order of the action names A, B, C, ... ("0.2, 0.3,
        0.5"; other text between them is ignored, so "A: 0.2, B: 0.3, C: 0.5" works),
        normalised likewise; or an answer that is exactly one action name ("B", case and
        surrounding quotes, asterisks and full stops ignored) or one integer index from 0
        ("1"), meaning all weight on that action. Anything else
        (negative, non-finite or all-zero weights, a wrong count, a wrong type) is
        malformed: the penalty is that all weight goes on the action with the largest loss
        this round (the lowest index among ties), so the agent loses max_i l_t,i, and
        ``info["parse_error"]`` says why.

    Reward:
        −⟨p_t, l_t⟩. ``info`` holds ``loss_vector`` (l_t), ``play`` (the normalised p_t
        applied), ``expected_loss`` (⟨p_t, l_t⟩), ``cumulative_regret`` (external regret:
        the agent's total loss minus the best fixed action's, in hindsight so far),
        ``regret`` (this round's change of it, so the per-round values sum to
        ``cumulative_regret``), ``dynamic_regret`` (Σ ⟨p_s, l_s⟩ − min_i l_s,i), ``best_action``
        (index of the best fixed action so far) and ``t``.

    Termination:
        Terminates after ``horizon`` rounds. At the end ``info["regret_bound"]`` is
        √(T ln N / 2), the regret Hedge is guaranteed (for any loss sequence, adaptive ones
        included), ``info["success"]`` is True when ``cumulative_regret`` is at most that
        bound, and ``info["score"]`` is 1 − ``cumulative_regret`` / T clipped to [0, 1]: one
        minus the average per-round external regret (1 when the agent did at least as well
        as the best fixed action). A uniform-normalised score would be 0 for every agent
        on ``"adversarial"``, whose total loss is always T spread over the actions.

    Arguments:
        num_actions: Number of actions (experts) N >= 2.
        horizon: Number of rounds T per episode.
        loss_sequence: ``"iid"``, ``"trend"``, ``"sinusoidal"`` or ``"adversarial"``.
        period: Period in rounds of the ``"sinusoidal"`` losses.
        observation_mode: ``"text"`` for LLM agents or ``"vector"`` for classic agents.
        render_mode: ``"ansi"`` (the text), ``"rgb_array"`` (the text drawn on an
            image), ``"human"`` (the text printed on every reset and step) or None.

    Version history:
        v0: Initial version.

    """

    # Annotated like the base class (not ClassVar), which mypy requires of an override.
    metadata: dict[str, Any] = {"render_modes": list(TEXT_RENDER_MODES), "render_fps": 4}
    #: Per-step info keys the runner records as curves, and final ones it records as metrics.
    record_curves = ("regret",)
    record_metrics = ("cumulative_regret", "dynamic_regret", "score")

    def __init__(
        self,
        num_actions: int = 5,
        horizon: int = 300,
        loss_sequence: LossSequence = "iid",
        period: int = 50,
        observation_mode: ObservationMode = "text",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        for name, value, least in (("num_actions", num_actions, 2), ("horizon", horizon, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise ValueError(f"{name} must be an int >= {least}, got {value!r}")
        if loss_sequence not in LOSS_SEQUENCES:
            raise ValueError(
                f"loss_sequence must be one of {LOSS_SEQUENCES}, not {loss_sequence!r}"
            )
        if isinstance(period, bool) or not isinstance(period, int) or period < 2:
            raise ValueError(f"period must be an int >= 2, got {period!r}")
        check_at_most("num_actions", num_actions, MAX_ARMS, "observations list every action")
        check_at_most("horizon", horizon, MAX_HORIZON, "records keep a curve point per step")
        check_at_most(
            "horizon x num_actions",
            horizon * num_actions,
            MAX_TABLE_CELLS,
            "the env draws a loss table of that many numbers per episode",
        )
        if observation_mode not in ("text", "vector"):
            raise ValueError(
                f"observation_mode must be 'text' or 'vector', not {observation_mode!r}"
            )
        render_mode = checked_render_mode(render_mode, TEXT_RENDER_MODES)
        self.num_actions = num_actions
        self.horizon = horizon
        self.loss_sequence = loss_sequence
        self.period = period
        self.observation_mode = observation_mode
        self.render_mode = render_mode
        self.names = action_names(num_actions)
        self.regret_bound = hedge_bound(horizon, num_actions)

        if observation_mode == "text":
            self.observation_space: spaces.Space[Any] = UnicodeText(1536 + 64 * num_actions)
            self.action_space: spaces.Space[Any] = UnicodeText(max(256, 32 * num_actions))
        else:
            self.observation_space = spaces.Box(0.0, 1.0, (num_actions + 1,), np.float32)
            self.action_space = spaces.Box(0.0, 1.0, (num_actions,), np.float32)

        self.losses = np.zeros((horizon, num_actions))
        self._reset_counters()

    def _reset_counters(self) -> None:
        self.t = 0
        self.cumulative_losses = np.zeros(self.num_actions)
        self.agent_loss = 0.0
        self.cumulative_regret = 0.0
        self.dynamic_regret = 0.0
        self.last_play = np.full(self.num_actions, 1.0 / self.num_actions)
        self.text = ""

    # -- episode -----------------------------------------------------------------------
    def draw_losses(self) -> np.ndarray:
        """Draw the episode's (T, N) loss matrix (zeros for "adversarial", made per round)."""
        rng, shape = self.np_random, (self.horizon, self.num_actions)
        rounds = np.arange(self.horizon)[:, None]
        if self.loss_sequence == "iid":
            means = rng.random(self.num_actions)
            return (rng.random(shape) < means).astype(np.float64)
        if self.loss_sequence == "trend":
            start, end = rng.random(self.num_actions), rng.random(self.num_actions)
            best_start, best_end = int(np.argmin(start)), int(np.argmin(end))
            if best_start == best_end:
                other = int(rng.choice([i for i in range(self.num_actions) if i != best_end]))
                end[[best_end, other]] = end[[other, best_end]]
            fraction = rounds / max(1, self.horizon - 1)
            return np.clip(start + (end - start) * fraction, 0.0, 1.0)
        if self.loss_sequence == "sinusoidal":
            centre = rng.uniform(0.3, 0.7, self.num_actions)
            phase = rng.uniform(0.0, 2 * np.pi, self.num_actions)
            wave = SINE_AMPLITUDE * np.sin(2 * np.pi * rounds / self.period + phase)
            return np.clip(centre + wave, 0.0, 1.0)
        return np.zeros(shape)

    def new_episode(
        self, seed: int | None, options: dict[str, Any] | None
    ) -> tuple[Any, dict[str, Any]]:
        """Draw the loss sequence and show the instructions."""
        self.losses = self.draw_losses()
        self._reset_counters()
        self.text = self.instructions()
        return self._observation(np.zeros(self.num_actions)), {"t": 0}

    def instructions(self) -> str:
        """Return the text shown at reset."""
        names = ", ".join(self.names)
        return (
            f"You will play {self.horizon} rounds with {self.num_actions} actions labelled "
            f"{names}. Each round you spread one unit of weight over the actions. Then every "
            "action's loss for that round, a number between 0 and 1, is revealed, and your "
            "loss is the weighted average of the actions' losses. The losses may change from "
            "round to round. Your goal is to make your total loss as small as possible.\n"
            f"Answer each round with {self.num_actions} non-negative weights in the order "
            f"{names}, separated by commas (for example {self._example()}; they are rescaled "
            "to sum to 1), or with the name of a single action to put all weight on it.\n"
            f"Round 1 of {self.horizon}: how do you spread your weight?"
        )

    def _example(self) -> str:
        return ", ".join(["1"] + ["0"] * (self.num_actions - 1))

    # -- actions -----------------------------------------------------------------------
    def parse_action(self, action: Any) -> np.ndarray:
        """Return the normalised distribution the action stands for (see Action)."""
        if self.observation_mode == "text":
            if not isinstance(action, str):
                raise InvalidAction(f"expected a text answer (str), got {type(action).__name__}")
            return parse_text_play(action, self.names)
        return to_distribution(action, self.num_actions)

    def apply_action(self, parsed: np.ndarray) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Play the distribution and reveal this round's losses."""
        return self._play(parsed, parse_error=None)

    def apply_invalid_action(self, message: str) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Penalty: all weight on this round's largest loss."""
        return self._play(None, parse_error=message)

    def round_losses(self) -> np.ndarray:
        """Return the loss vector of the current round (made now for "adversarial")."""
        if self.loss_sequence == "adversarial":
            losses = np.zeros(self.num_actions)
            losses[int(np.argmax(self.last_play))] = 1.0
            return losses
        return self.losses[self.t]

    def _play(
        self, play: np.ndarray | None, *, parse_error: str | None
    ) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        losses = self.round_losses()
        if play is None:
            play = np.eye(self.num_actions)[int(np.argmax(losses))]
        # Elementwise, then numpy's own sum: ``play @ losses`` would go through OpenBLAS,
        # whose kernels (picked per CPU) round the sum differently.
        loss = float((play * losses).sum())
        previous_regret = self.cumulative_regret
        self.cumulative_losses += losses
        self.agent_loss += loss
        self.cumulative_regret = self.agent_loss - float(self.cumulative_losses.min())
        self.dynamic_regret += loss - float(losses.min())
        self.last_play = play
        self.t += 1
        terminated = self.t >= self.horizon

        info: dict[str, Any] = {
            "loss_vector": losses.tolist(),
            "play": play.tolist(),
            "expected_loss": loss,
            "regret": self.cumulative_regret - previous_regret,
            "cumulative_regret": self.cumulative_regret,
            "dynamic_regret": self.dynamic_regret,
            "best_action": int(np.argmin(self.cumulative_losses)),
            "t": self.t,
        }
        if self.observation_mode == "text":
            self.text = self._round_text(losses, loss, parse_error, terminated)
        if terminated:
            info.update(self.episode_summary())
        return self._observation(losses), -loss, terminated, False, info

    def episode_summary(self) -> dict[str, Any]:
        """Return the end-of-episode ``regret_bound``, ``success`` and ``score``."""
        score = 1.0 - self.cumulative_regret / self.horizon
        return {
            "regret_bound": self.regret_bound,
            "success": self.cumulative_regret <= self.regret_bound + REGRET_TOLERANCE,
            "score": float(np.clip(score, 0.0, 1.0)),
        }

    # -- observations ------------------------------------------------------------------
    def _round_text(
        self, losses: np.ndarray, loss: float, parse_error: str | None, done: bool
    ) -> str:
        def listing(values: np.ndarray) -> str:
            return ", ".join(f"{n} {v:.3f}" for n, v in zip(self.names, values, strict=True))

        lines = []
        if parse_error is not None:
            lines.append(
                f"Your answer could not be used ({parse_error:.200}), so all weight was put on "
                "the action with the largest loss."
            )
        lines.append(f"Round {self.t}: losses {listing(losses)}; your loss {loss:.3f}.")
        lines.append(
            f"Totals so far: {listing(self.cumulative_losses)}; yours {self.agent_loss:.3f}."
        )
        if done:
            lines.append("The game is over.")
        else:
            lines.append(f"Round {self.t + 1} of {self.horizon}: how do you spread your weight?")
        return "\n".join(lines)

    def _observation(self, losses: np.ndarray) -> Any:
        if self.observation_mode == "text":
            return self.text
        return np.append(losses, self.t / self.horizon).astype(np.float32)

    def render_text(self) -> str:
        """The ``ansi`` frame: the last text observation (or a one-line state in vector mode)."""
        if self.observation_mode == "text":
            return self.text
        return f"t={self.t}/{self.horizon} cumulative_regret={self.cumulative_regret:.3f}"
