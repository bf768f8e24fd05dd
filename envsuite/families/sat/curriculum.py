"""A pass@k curriculum over a ladder of levels, as in SATURN, saved to disk and resumable.

The controller holds the current level of a ladder (levels of increasing D). It accepts
results, one attempt at a problem at a time; a problem whose ``attempts`` attempts are all
in enters a rolling validation window of the last ``window`` problems. Once the window is
full and its mean pass@k (the unbiased estimator of Chen et al. 2021, in the core's
:mod:`envsuite.pass_at_k_estimate`) reaches ε, the controller moves to the next level and
starts a fresh window. On the top level it stays, and reports ``finished`` once that level
passes too.

It is used inside the envs (``curriculum=...``: each reset draws from the current level and
each finished episode is recorded) and from ``envsuite curriculum`` to drive an external
trainer (hand out problems, record results, report the level).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from envsuite.errors import UsageError
from envsuite.families.sat.levels import Level, parse_ladder, parse_level
from envsuite.pass_at_k_estimate import pass_at_k
from envsuite.safe_load import DataFileError, read_json
from envsuite.seeding import derive_seed

STATE_FORMAT = "envsuite-sat-curriculum"
STATE_VERSION = 1


class CurriculumStateError(UsageError):
    """A curriculum state file that is missing, corrupt or of another format."""


@dataclass(frozen=True)
class CurriculumSettings:
    """What the curriculum does.

    Attributes:
        ladder: Levels, easiest first, D strictly increasing.
        k: The k of pass@k.
        epsilon: Advance when the window's mean pass@k reaches this (ε, in (0, 1]).
        window: Problems in the rolling validation window.
        attempts: Attempts per problem (pass@k's n; at least k).
        seed: Root seed of the problem seeds :meth:`CurriculumController.next_problems` hands out.
    """

    ladder: tuple[Level, ...]
    k: int = 1
    epsilon: float = 0.5
    window: int = 20
    attempts: int = 4
    seed: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "ladder", parse_ladder(self.ladder))
        for name in ("k", "window", "attempts"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"curriculum {name} must be an int >= 1, got {value!r}")
        if self.attempts < self.k:
            raise ValueError(f"pass@{self.k} needs attempts >= {self.k}, got {self.attempts}")
        if not 0.0 < float(self.epsilon) <= 1.0:
            raise ValueError(f"epsilon must lie in (0, 1], got {self.epsilon!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise ValueError(f"seed must be a non-negative int, got {self.seed!r}")

    @classmethod
    def from_config(cls, config: str | Mapping[str, Any]) -> CurriculumSettings:
        """Settings from a ladder name (other settings default) or a mapping of fields."""
        if isinstance(config, str):
            return cls(ladder=parse_ladder(config))
        if not isinstance(config, Mapping):
            raise ValueError(f"a curriculum is a ladder name or a mapping, got {config!r}")
        unknown = set(config) - {"ladder", "k", "epsilon", "window", "attempts", "seed"}
        if unknown:
            raise ValueError(f"unknown curriculum settings {sorted(unknown)}")
        fields = dict(config)
        fields["ladder"] = parse_ladder(fields.get("ladder", "default"))
        return cls(**fields)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready settings (levels by canonical name)."""
        return {
            "ladder": [level.name for level in self.ladder],
            "k": self.k,
            "epsilon": float(self.epsilon),
            "window": self.window,
            "attempts": self.attempts,
            "seed": self.seed,
        }


class CurriculumController:
    """The current level, the rolling validation window, and the rule to advance.

    Args:
        settings: The curriculum's settings.
    """

    def __init__(self, settings: CurriculumSettings) -> None:
        self.settings = settings
        self.stage = 0
        self.finished = False
        self.pending: dict[str, list[int]] = {}
        self.window: deque[tuple[str, int, int]] = deque(maxlen=settings.window)
        self.history: list[dict[str, Any]] = []
        self.issued = 0
        self.completed = 0
        self.stale = 0
        self.duplicates = 0
        self.seen: set[str] = set()

    @property
    def level(self) -> Level:
        """The level being trained on."""
        return self.settings.ladder[self.stage]

    def pass_at_k(self) -> float | None:
        """Mean pass@k over the window's problems (None while it is empty)."""
        if not self.window:
            return None
        k = self.settings.k
        return sum(pass_at_k(n, c, k) for _, n, c in self.window) / len(self.window)

    def record(
        self,
        problem: str,
        success: bool,
        level: Level | str | None = None,
        result_key: str | None = None,
    ) -> bool:
        """Record one attempt at ``problem``; return whether the curriculum advanced.

        Args:
            problem: Names the problem (attempts with the same name are pooled).
            success: Whether the attempt solved it.
            level: The level the attempt was at; results from another level than the
                current one are stale (counted in :attr:`stale`, otherwise ignored).
            result_key: Identifies the result, so that recording the same result twice
                (a results file fed in again) counts it once.
        """
        if level is not None and parse_level(level) != self.level:
            self.stale += 1
            return False
        if result_key is not None:
            if result_key in self.seen:
                self.duplicates += 1
                return False
            self.seen.add(result_key)
        tally = self.pending.setdefault(problem, [0, 0])
        tally[0] += 1
        tally[1] += bool(success)
        if tally[0] < self.settings.attempts:
            return False
        del self.pending[problem]
        self.window.append((problem, tally[0], tally[1]))
        self.completed += 1
        score = self.pass_at_k()
        if len(self.window) < self.settings.window or score is None:
            return False
        if score < self.settings.epsilon:
            return False
        return self._advance(score)

    def _advance(self, score: float) -> bool:
        top = self.stage == len(self.settings.ladder) - 1
        self.history.append(
            {
                "level": self.level.name,
                "difficulty": self.level.difficulty,
                "pass_at_k": score,
                "problems": self.completed,
                "event": "finished" if top else "advanced",
            }
        )
        if top:
            was_finished, self.finished = self.finished, True
            return not was_finished
        self.stage += 1
        self.pending.clear()
        self.window.clear()
        self.issued = 0
        self.completed = 0
        self.seen.clear()
        return True

    def next_problems(self, count: int) -> list[dict[str, Any]]:
        """Hand out ``count`` new problems at the current level (for an external trainer).

        Each has a seed derived from the settings' seed, the stage and a running counter
        (never handed out twice), the level, and the ``SAT-v0`` kwargs selecting it.
        """
        problems = []
        for _ in range(count):
            seed = derive_seed(self.settings.seed, "sat-curriculum", self.stage, self.issued)
            self.issued += 1
            problems.append(
                {
                    "problem": f"{self.level.name}#{seed}",
                    "level": self.level.name,
                    "seed": seed,
                    "env_kwargs": self.level.as_kwargs(),
                }
            )
        return problems

    def status(self) -> dict[str, Any]:
        """A JSON-ready summary: level, stage, window fill and pass@k, history."""
        return {
            "level": self.level.name,
            "difficulty": self.level.difficulty,
            "stage": self.stage,
            "stages": len(self.settings.ladder),
            "finished": self.finished,
            "pass_at_k": self.pass_at_k(),
            "k": self.settings.k,
            "epsilon": float(self.settings.epsilon),
            "window_filled": len(self.window),
            "window": self.settings.window,
            "completed_problems": self.completed,
            "pending_problems": len(self.pending),
            "stale_results": self.stale,
            "duplicate_results": self.duplicates,
            "history": list(self.history),
        }

    # -- persistence ---------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Everything needed to resume, JSON-ready."""
        return {
            "format": STATE_FORMAT,
            "version": STATE_VERSION,
            "settings": self.settings.to_dict(),
            "stage": self.stage,
            "finished": self.finished,
            "pending": {problem: list(tally) for problem, tally in self.pending.items()},
            "window": [list(entry) for entry in self.window],
            "history": self.history,
            "issued": self.issued,
            "completed": self.completed,
            "stale": self.stale,
            "duplicates": self.duplicates,
            "seen": sorted(self.seen),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CurriculumController:
        """Rebuild a controller saved by :meth:`to_dict`.

        Raises:
            CurriculumStateError: another format, or fields that do not fit.
        """
        if data.get("format") != STATE_FORMAT or data.get("version") != STATE_VERSION:
            raise CurriculumStateError(
                f"not an envsuite SAT curriculum state (format {data.get('format')!r}, "
                f"version {data.get('version')!r})"
            )
        try:
            controller = cls(CurriculumSettings.from_config(data["settings"]))
            stage = int(data["stage"])
            if not 0 <= stage < len(controller.settings.ladder):
                raise ValueError(f"stage {stage} is outside the ladder")
            controller.stage = stage
            controller.finished = bool(data["finished"])
            controller.pending = {str(p): [int(n), int(c)] for p, (n, c) in data["pending"].items()}
            controller.window.extend((str(p), int(n), int(c)) for p, n, c in data["window"])
            controller.history = [dict(event) for event in data["history"]]
            controller.issued = int(data["issued"])
            controller.completed = int(data["completed"])
            controller.stale = int(data["stale"])
            controller.duplicates = int(data["duplicates"])
            controller.seen = {str(key) for key in data["seen"]}
        except (KeyError, TypeError, ValueError) as exc:
            raise CurriculumStateError(f"corrupt curriculum state: {exc!r}") from exc
        return controller

    def save(self, path: str | Path) -> None:
        """Write the state to ``path`` atomically (a crash never leaves half a file)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(self.to_dict(), indent=2, sort_keys=True) + "\n"
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
            os.chmod(temporary, 0o644)  # mkstemp files are private; a state file need not be
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise

    @classmethod
    def load(cls, path: str | Path) -> CurriculumController:
        """Read a state file written by :meth:`save`.

        Raises:
            CurriculumStateError: the file is missing, not JSON, or not a curriculum state.
        """
        try:
            data = read_json(path, strict=False)
        except FileNotFoundError as exc:
            raise CurriculumStateError(f"no curriculum state at {path}") from exc
        except (OSError, DataFileError) as exc:
            raise CurriculumStateError(f"cannot read curriculum state {path}: {exc}") from exc
        if not isinstance(data, dict):
            raise CurriculumStateError(f"{path} does not hold a curriculum state")
        return cls.from_dict(data)
