"""Tasks on generated apps: reach a screen, or use a control on it."""

from __future__ import annotations

import numpy as np

from envsuite.families.gui.actions import GuiAction
from envsuite.families.gui.apps.graph import MAX_SCREENS, MIN_SCREENS, AppGraph, generate_graph
from envsuite.families.gui.apps.graph_app import GraphApp, screen_id
from envsuite.families.gui.apps.planner import (
    arrival_costs,
    best_action,
    distance_from_home,
    distances_to,
    edge_weights,
)
from envsuite.families.gui.apps.screen_plan import MIN_HEIGHT, MIN_WIDTH, plan_screen
from envsuite.families.gui.task import Goal, GuiTask, Outcome

#: Separator of the titles in a described route.
ROUTE_SEPARATOR = " > "


class AppTask(GuiTask):
    """A task on a generated app (the shared part of the app tasks).

    Args:
        rng: The only source of randomness.
        split: ``"train"`` or ``"test"``; ``test`` draws only held-out icons, themes,
            layouts, topologies and depths (:mod:`~envsuite.families.gui.apps.styles`).
        width: Screen width in pixels (at least 224).
        height: Screen height in pixels (at least 224).
        min_screens: Fewest screens of the app (at least 10).
        max_screens: Most screens of the app (at most 500).
        distractors: Pop-ups on arrival at about 30% of the screens and layouts reshuffled
            on every visit (:mod:`~envsuite.families.gui.apps.graph_app`).
        depth: Levels below home, 2 to 9 (the target sits on the deepest), instead of
            the split's depths (train 2-4, test 5-7); None draws from the split.

    Attributes:
        graph: The app's compact data.
        target: Number of the goal screen (on the app's deepest level).
    """

    app: GraphApp

    def __init__(
        self,
        rng: np.random.Generator,
        split: str = "train",
        width: int = 256,
        height: int = 256,
        min_screens: int = MIN_SCREENS,
        max_screens: int = 100,
        distractors: bool = False,
        depth: int | None = None,
    ) -> None:
        if width < MIN_WIDTH or height < MIN_HEIGHT:
            raise ValueError(
                f"app screens need at least {MIN_WIDTH}x{MIN_HEIGHT} pixels, got {width}x{height}"
            )
        if not MIN_SCREENS <= min_screens <= max_screens <= MAX_SCREENS:
            raise ValueError(
                f"need {MIN_SCREENS} <= min_screens <= max_screens <= {MAX_SCREENS}, "
                f"got {min_screens} and {max_screens}"
            )
        self.min_screens = min_screens
        self.max_screens = max_screens
        self.distractors = distractors
        self.depth = depth
        self.graph: AppGraph
        self.target: int
        self._goal_key: str | None = None
        self._dist: list[int] = []
        self._arrival: list[int] = []
        self._weights: np.ndarray
        self._terminal = 0
        super().__init__(rng, split, width, height)

    def setup(self, rng: np.random.Generator) -> None:
        """Draw the app and the target, then the fewest actions from the start."""
        graph = generate_graph(
            rng, self.split, self.min_screens, self.max_screens, self.distractors, self.depth
        )
        deepest = np.flatnonzero(graph.level == graph.depth)
        self.graph = graph
        self.target = int(deepest[int(rng.integers(len(deepest)))])
        self._terminal = self._choose_goal(rng)
        self.app = GraphApp(graph, self.width, self.height, self.distractors)
        free = self.target if self._goal_key is None else -1
        arrival = arrival_costs(graph, self.distractors, free)
        self._weights = edge_weights(graph, self.height, arrival)
        self._arrival = arrival.tolist()
        self.optimal_steps = self._arrival[0] + distance_from_home(
            graph, self._weights, self.target, self._terminal
        )

    def distances(self) -> list[int]:
        """Per screen, fewest actions from its fresh state to the goal (computed once)."""
        if not self._dist:
            self._dist = distances_to(self.graph, self._weights, self.target, self._terminal)
        return self._dist

    def _choose_goal(self, rng: np.random.Generator) -> int:
        """Set :attr:`goal` (and the goal control); return actions needed on the target."""
        raise NotImplementedError

    def route(self) -> str:
        """The target's titles from home, as the instruction names them."""
        return ROUTE_SEPARATOR.join(self.graph.title(s) for s in self.graph.route(self.target))

    def oracle_action(self) -> GuiAction:
        """The first action of a shortest solution from the app's current state."""
        if self.outcome() is not None:
            return GuiAction("done")
        return best_action(self.app, self.distances(), self._arrival, self.target, self._goal_key)[
            1
        ]

    def remaining_steps(self) -> int:
        """Fewest actions that still solve the task from the current state."""
        if self.outcome() == "success":
            return 0
        return best_action(self.app, self.distances(), self._arrival, self.target, self._goal_key)[
            0
        ]


class AppNavigationTask(AppTask):
    """Reach the named screen of a generated app (``app-navigation``).

    The instruction names the target by its title and the titles on one route to it
    from home (``Go to "Saved cards" (Pinecone > Settings > Saved cards).``); a shorter
    route may exist (cross links, a global navigation bar). Arriving there is success;
    ``done`` anywhere else is failure.

    Args: as :class:`AppTask`.
    """

    name = "app-navigation"

    def _choose_goal(self, rng: np.random.Generator) -> int:
        title, route = self.graph.title(self.target), self.route()
        self.goal = Goal(f'Go to "{title}" ({route}).', {"screen": title, "route": route})
        return 0

    def outcome(self) -> Outcome | None:
        """Success on the target screen; failure on ``done`` elsewhere."""
        if self.app.screen_id == screen_id(self.target):
            return "success"
        return "failure" if self.app.done else None


class AppActionTask(AppTask):
    """Set a named setting or press a named button on a named screen (``app-action``).

    The instruction names the control by its label and the screen as
    :class:`AppNavigationTask` does (``Turn on "Dark mode" on "Saved cards" (Pinecone >
    Settings > Saved cards).``). Settings keep their values across visits; the same
    setting name on another screen is another setting. Success once the setting has the
    asked value or the button was pressed; failure on ``done`` first, or once any other
    action button was pressed (action buttons are irreversible).

    Args: as :class:`AppTask`.
    """

    name = "app-action"

    def _choose_goal(self, rng: np.random.Generator) -> int:
        graph, target = self.graph, self.target
        if not graph.setting_counts[target] and graph.action_codes[target] < 0:
            graph.setting_counts[target] = 1
        settings, actions = graph.settings(target), graph.actions(target)
        choice = int(rng.integers(len(settings) + len(actions)))
        title, route = graph.title(target), self.route()
        plan = plan_screen(
            graph.layout,
            tuple(t in graph.sections for t in graph.out(target)),
            len(settings),
            len(actions),
            self.height,
        )
        if choice < len(settings):
            name, default = settings[choice]
            self._want: bool | None = not default
            word = "on" if self._want else "off"
            sentence = f'Turn {word} "{name}" on "{title}" ({route}).'
            fields = {"screen": title, "route": route, "setting": name, "value": word}
            slot = plan.settings[choice]
        else:
            name = actions[choice - len(settings)]
            self._want = None
            sentence = f'Press "{name}" on "{title}" ({route}).'
            fields = {"screen": title, "route": route, "button": name}
            slot = plan.actions[choice - len(settings)]
        self._goal_key = f"{screen_id(target)}/{name}"
        self.goal = Goal(sentence, fields)
        return plan.cost(slot)

    def outcome(self) -> Outcome | None:
        """Success when the setting has the asked value or the button was pressed."""
        key, pressed = self._goal_key, self.app.data["pressed"]
        assert key is not None
        if self._want is None and key in pressed:
            return "success"
        if any(p != key for p in pressed):
            return "failure"
        if self._want is not None and self.app.setting_value(key) == self._want:
            return "success"
        return "failure" if self.app.done else None
