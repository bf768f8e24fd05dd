"""click-link: a paragraph with a few links in it; the instruction names the one to click.

Instance: 3 to 5 distinct link words from the split's pool set among 14 to 26 filler
words, one target, a layout and a theme. Train sets everything as one wrapped paragraph;
test lists each link on its own line after a line of filler text. Distinct instances: the
link words alone give C(162, 3..5) x orderings > 10^10 on train.

Success: the target link is followed (click, or ``enter`` while focused). Failure:
another link is followed first. Fewest steps: 1.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from envsuite.families.gui.actions import GuiAction
from envsuite.families.gui.buttons import Link
from envsuite.families.gui.forms import layout
from envsuite.families.gui.forms.form_task import FormTask, click
from envsuite.families.gui.forms.vocabulary import FILLER, WORDS, pool
from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.screen import Screen
from envsuite.families.gui.task import Goal, Outcome
from envsuite.families.gui.theme import Theme
from envsuite.families.gui.widget import Label, Widget

#: Height of a line of text.
LINE = 18


def text_flow(
    tokens: list[tuple[str, str | None]], area: Rect, theme: Theme, prefix: str
) -> list[Widget]:
    """Words laid out as wrapped text, with links among them.

    A token with an id becomes a link; runs of plain words on one line become one label
    (ids ``<prefix>-text-<n>``).

    Args:
        tokens: ``(word, link_id)`` pairs; ``link_id`` None for plain text.
        area: Where the text goes.
        theme: For measuring words.
        prefix: Id prefix of the labels.
    """
    space = layout.label_width(" ", theme)
    widgets: list[Widget] = []
    run: list[str] = []
    run_x = x = area.x
    y = area.y

    def close_run() -> None:
        if run:
            text = " ".join(run)
            widgets.append(
                Label(
                    f"{prefix}-text-{len(widgets)}",
                    Rect(run_x, y, layout.label_width(text, theme), LINE),
                    text=text,
                )
            )
            run.clear()

    for word, link_id in tokens:
        width = layout.label_width(word, theme)
        if x > area.x and x + width > area.right:
            close_run()
            x, y = area.x, y + LINE + 2
        if link_id is None:
            if not run:
                run_x = x
            run.append(word)
        else:
            close_run()
            widgets.append(Link(link_id, Rect(x, y, width, LINE), name=word))
        x += width + space
    close_run()
    return widgets


class ClickLink(FormTask):
    """Click the link the instruction names (MiniWoB++ ``click-link``)."""

    name: ClassVar[str] = "click-link"
    held_out_fields: ClassVar[tuple[str, ...]] = ("link",)
    layouts: ClassVar[dict[str, tuple[str, ...]]] = {"train": ("paragraph",), "test": ("list",)}

    def generate(self, rng: np.random.Generator) -> None:
        """Links, filler and target."""
        words = pool(WORDS, self.split)
        count = int(rng.integers(3, 6))
        self.links = [str(words[i]) for i in rng.choice(len(words), count, replace=False)]
        self.filler = [
            str(FILLER[i]) for i in rng.integers(0, len(FILLER), int(rng.integers(14, 27)))
        ]
        self.slots = sorted(int(i) for i in rng.choice(len(self.filler) + 1, count, replace=False))
        self.target = int(rng.integers(count))
        self.offset = int(rng.integers(0, 30))
        link = self.links[self.target]
        self.goal = Goal(f'Click on the link "{link}".', {"link": link})
        self.optimal_steps = 1

    def build_screen(self, screen_id: str) -> Screen:
        """The paragraph (train) or the list (test)."""
        area = layout.content_area(self.width, self.height, self.theme, False)
        step = min(2 * LINE + 8, area.height // len(self.links))
        offset = min(self.offset, max(area.height - step * len(self.links), 0))
        area = Rect(area.x, area.y + offset, area.width, area.height - offset)
        if self.layout == "paragraph":
            tokens: list[tuple[str, str | None]] = [(word, None) for word in self.filler]
            for shift, (slot, word) in enumerate(zip(self.slots, self.links, strict=True)):
                tokens.insert(slot + shift, (word, f"link-{shift}"))
            items = text_flow(tokens, area, self.theme, "p")
        else:
            items = []
            per = max(len(self.filler) // len(self.links), 1)
            y = area.y
            for index, word in enumerate(self.links):
                text = " ".join(self.filler[index * per : index * per + min(per, 5)]).capitalize()
                items.append(
                    Label(
                        f"p-text-{index}", Rect(area.x, y, area.width, LINE), text=text, muted=True
                    )
                )
                items.append(
                    Link(
                        f"link-{index}",
                        Rect(area.x + 12, y + LINE, layout.label_width(word, self.theme), LINE),
                        name=word,
                    )
                )
                y += step
        return Screen(self.width, self.height, items=items)

    def judge(self) -> Outcome | None:
        """Decided by the first link followed."""
        followed = self.activations()
        if not followed:
            return None
        return "success" if followed[0] == f"link-{self.target}" else "failure"

    def solve(self) -> GuiAction:
        """Click the target."""
        return click(f"link-{self.target}")
