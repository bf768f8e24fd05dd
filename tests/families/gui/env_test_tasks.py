"""A small GUI task of the tests' own, so the env is tested apart from the task packages.

``pick-colour``: the home screen has a text field, three colour buttons and a link to a
"more" screen with two further colours and a back button. The instruction names a colour
(and, for ``type_name``, a name to type first); clicking the named colour's button
succeeds, clicking another colour fails.
"""

from __future__ import annotations

import numpy as np

from envsuite.families.gui.actions import GuiAction
from envsuite.families.gui.app import App
from envsuite.families.gui.buttons import Button, Link
from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.screen import Screen
from envsuite.families.gui.task import Goal, GuiTask, Outcome
from envsuite.families.gui.text_field import TextField
from envsuite.families.gui.widget import Label

HOME_COLOURS = ("red", "green", "blue")
MORE_COLOURS = ("cyan", "magenta")


class ColourApp(App):
    def __init__(self, width: int, height: int, order: list[str]) -> None:
        self.width, self.height, self.order = width, height, order
        self.picked: str | None = None
        super().__init__("home")

    def build_screen(self, screen_id: str) -> Screen:
        if screen_id == "home":
            items = [
                Label("hint", Rect(8, 30, 200, 18), text="Pick a colour"),
                TextField("name", Rect(8, 52, 160, 22), name="Name"),
                *(
                    Button(colour, Rect(8 + 64 * i, 84, 56, 24), name=colour.title())
                    for i, colour in enumerate(self.order)
                ),
                Link("more", Rect(8, 120, 60, 18), name="More"),
            ]
        else:
            items = [
                *(
                    Button(colour, Rect(8 + 80 * i, 40, 72, 24), name=colour.title())
                    for i, colour in enumerate(MORE_COLOURS)
                ),
                Button("back_button", Rect(8, 80, 56, 24), name="Back"),
            ]
        return Screen(self.width, self.height, title=screen_id.title(), items=items)

    def on_event(self, kind: str, element_id: str) -> str | None:
        if kind == "activate" and element_id == "more":
            return "more"
        if kind == "activate" and element_id in (*HOME_COLOURS, *MORE_COLOURS):
            self.picked = element_id
            name = self.screen.find("name")
            self.data["picked"] = element_id
            if isinstance(name, TextField):
                self.data["name"] = name.value
        return None

    def after_action(self, events: list[tuple[str, str]], navigation: str | None) -> None:
        if ("activate", "back_button") in events:
            navigation = "back"
        super().after_action(events, navigation)


class PickColour(GuiTask):
    """Click the named colour (on the home screen or behind "More")."""

    name = "pick-colour"

    def setup(self, rng: np.random.Generator) -> None:
        order = [str(c) for c in rng.permutation(HOME_COLOURS)]
        self.target = str(rng.choice([*HOME_COLOURS, *MORE_COLOURS]))
        self.app = ColourApp(self.width, self.height, order)
        self.goal = Goal(f"Click the {self.target} button.", {"colour": self.target})
        self.optimal_steps = 1 if self.target in HOME_COLOURS else 2

    def outcome(self) -> Outcome | None:
        picked = self.app.data.get("picked")
        if picked is None:
            return None
        return "success" if picked == self.target else "failure"

    def oracle_action(self) -> GuiAction:
        if self.target in MORE_COLOURS and self.app.screen_id == "home":
            return GuiAction("click", element_id="more")
        if self.target in HOME_COLOURS and self.app.screen_id != "home":
            return GuiAction("back")
        return GuiAction("click", element_id=self.target)
