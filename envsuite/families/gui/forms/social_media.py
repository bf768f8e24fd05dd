"""social-media: a feed of posts; click the named action under the named user's post.

Instance: 3 to 6 posts (distinct users from the split's first names, texts from filler
words), each with Reply, Retweet, Like and Share buttons, in a scrolling feed; the target
user and action. Train labels the buttons with words; test draws them as icons only
(their accessible names stay). Distinct instances: ordered users from 60 train names x
texts x targets: over 10^9.

Success: the target action of the target post is activated. Failure: any other post
button is activated first. Fewest steps: 1, plus one scroll when the button starts out of
the feed's view (the oracle scrolls exactly far enough).
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from envsuite.families.gui.actions import GuiAction
from envsuite.families.gui.buttons import Button
from envsuite.families.gui.forms import layout
from envsuite.families.gui.forms.form_task import FormTask
from envsuite.families.gui.forms.vocabulary import FILLER, FIRST_NAMES, pool
from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.screen import Screen
from envsuite.families.gui.scroll_container import ScrollContainer
from envsuite.families.gui.task import Goal, Outcome
from envsuite.families.gui.widget import Label, Widget

#: The post actions and the icon each is drawn with in the test layout.
ACTIONS = {"Reply": "back", "Retweet": "plus", "Like": "heart", "Share": "mail"}
#: Height of a post.
POST = 72


class SocialMedia(FormTask):
    """Click an action on the named user's post (MiniWoB++ ``social-media``)."""

    name: ClassVar[str] = "social-media"
    held_out_fields: ClassVar[tuple[str, ...]] = ("user",)
    layout_shifts: ClassVar[bool] = False  # the feed fills the screen
    layouts: ClassVar[dict[str, tuple[str, ...]]] = {"train": ("words",), "test": ("icons",)}

    def generate(self, rng: np.random.Generator) -> None:
        """Posts and target."""
        names = pool(FIRST_NAMES, self.split)
        count = int(rng.integers(3, 7))
        self.users = [
            f"@{str(names[i]).lower()}" for i in rng.choice(len(names), count, replace=False)
        ]
        self.texts = [
            " ".join(str(FILLER[j]) for j in rng.integers(0, len(FILLER), 5)).capitalize()
            for _ in range(count)
        ]
        self.target = int(rng.integers(count))
        self.action = list(ACTIONS)[int(rng.integers(len(ACTIONS)))]
        self.goal = Goal(
            f'For the user {self.users[self.target]}, click on the "{self.action}" button.',
            {"user": self.users[self.target], "button": self.action},
        )
        view = self._feed_rect()
        top = self._button_rect(self.target, 0).y - view.y
        self.optimal_steps = 1 + (top >= view.height)

    def _feed_rect(self) -> Rect:
        return layout.content_area(self.width, self.height, self.theme, True)

    def _button_rect(self, post: int, index: int) -> Rect:
        feed = self._feed_rect()
        y = feed.y + post * POST + 42
        if self.layout == "words":
            width = (feed.width - 20 - 3 * 4) // 4
            return Rect(feed.x + 6 + index * (width + 4), y, width, 22)
        return Rect(feed.x + 6 + index * 34, y, 26, 22)

    def build_screen(self, screen_id: str) -> Screen:
        """The feed."""
        feed = self._feed_rect()
        items: list[Widget] = []
        for i, (user, text) in enumerate(zip(self.users, self.texts, strict=True)):
            y = feed.y + i * POST
            items.append(
                Label(
                    f"user-{i}", Rect(feed.x + 6, y + 4, feed.width - 20, 18), text=user, bold=True
                )
            )
            items.append(
                Label(f"text-{i}", Rect(feed.x + 6, y + 22, feed.width - 20, 18), text=text)
            )
            for k, (action, icon) in enumerate(ACTIONS.items()):
                items.append(
                    Button(
                        f"post-{i}-{action.lower()}",
                        self._button_rect(i, k),
                        name=action,
                        icon=icon if self.layout == "icons" else None,
                    )
                )
        pane = ScrollContainer(
            "feed", feed, name="Feed", items=items, content_height=len(self.users) * POST
        )
        return Screen(self.width, self.height, title="Home", items=[pane])

    def judge(self) -> Outcome | None:
        """Decided by the first post button activated."""
        pressed = [i for i in self.activations() if i.startswith("post-")]
        if not pressed:
            return None
        wanted = f"post-{self.target}-{self.action.lower()}"
        return "success" if pressed[0] == wanted else "failure"

    def solve(self) -> GuiAction:
        """Scroll the button into view if needed, click it."""
        return self.reach(f"post-{self.target}-{self.action.lower()}")
