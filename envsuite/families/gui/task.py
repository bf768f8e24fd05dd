"""A GUI task: an app and a goal made from a seeded generator, a checker, and an oracle.

The task checks the app's state against the goal and can solve itself, independently of
the backend (BrowserGym's ``setup`` / ``validate`` / ``cheat``; MiniWoB++'s goal as a
sentence plus fields).

The env (Pillow simulator or browser) owns the loop: it builds the task with
``TaskClass(rng, split=..., width=..., height=...)``, shows ``task.app.screen``, applies
each action, calls ``task.app.after_action(...)``, then reads :meth:`GuiTask.outcome`.
The oracle calls :meth:`GuiTask.oracle_action` on the live state before each step, so
it solves the task in any backend from any state it can still win from (a pop-up
appearing, a field the agent half-filled).

Rewards are predicates on the app's state only: never wall-clock time, never a judge.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar, Literal

import numpy as np

from envsuite.families.gui.actions import GuiAction
from envsuite.families.gui.app import App

#: Splits a generator draws from: what ``test`` holds out (icons, themes, layouts,
#: topologies, depths, words) is never drawn for ``train``.
SPLITS = ("train", "test")

Outcome = Literal["success", "failure"]


@dataclass(frozen=True)
class Goal:
    """What the agent is asked to do, twice: a sentence and key-value fields.

    Attributes:
        instruction: The sentence shown to the agent.
        fields: The same goal as data (MiniWoB++ ``fields``); the checker compares the
            final state with these.
    """

    instruction: str
    fields: Mapping[str, str] = field(default_factory=dict)


class GuiTask(abc.ABC):
    """One task instance: an app, a goal, a predicate and an oracle.

    Args:
        rng: The env's generator (or one derived from it); the only source of randomness.
        split: One of :data:`SPLITS`.
        width: Logical screen width in pixels.
        height: Logical screen height in pixels.

    Attributes:
        app: The running app (its screen is what the agent sees).
        goal: The goal.
        optimal_steps: Fewest actions that solve the task from the first screen.
    """

    #: Task type name as users write it (``"click-button"``, ``"app-navigation"``).
    name: ClassVar[str]

    def __init__(
        self, rng: np.random.Generator, split: str = "train", width: int = 256, height: int = 256
    ) -> None:
        if split not in SPLITS:
            raise ValueError(f"unknown split {split!r}; known: {', '.join(SPLITS)}")
        self.split = split
        self.width = width
        self.height = height
        self.app: App
        self.goal: Goal
        self.optimal_steps: int
        self.setup(rng)

    @abc.abstractmethod
    def setup(self, rng: np.random.Generator) -> None:
        """Draw the instance: set :attr:`app`, :attr:`goal` and :attr:`optimal_steps`."""

    @abc.abstractmethod
    def outcome(self) -> Outcome | None:
        """``"success"`` or ``"failure"`` once decided by the app's state, else None.

        Called after every action (``app.done`` tells whether the agent said ``done``).
        """

    @abc.abstractmethod
    def oracle_action(self) -> GuiAction:
        """The next action of a shortest solution from the current state."""
