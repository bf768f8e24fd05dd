"""click-dialog: a modal dialog over a page; close it the way the instruction says.

Instance: a dialog (title and message from the split's word pool) with 2 or 3 buttons
drawn from the split's dialog labels, over a page of muted filler text; the goal is its
``×`` (MiniWoB++ ``click-dialog``) or one of its buttons (``click-dialog-2``). Train puts
the dialog near the top with buttons right-aligned; test lower with buttons left-aligned.

Success: the dialog is closed by the named control. Failure: it is closed any other way
(another button, ``escape``, ``back``). Fewest steps: 1. Distinct instances: titles and
messages from 162 train words, 2-3 of 12 train labels in order, the target and placement:
over 10^6.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from envsuite.families.gui.actions import GuiAction
from envsuite.families.gui.buttons import Button
from envsuite.families.gui.dialog import TITLE_BAR_HEIGHT, Dialog
from envsuite.families.gui.forms import layout
from envsuite.families.gui.forms.form_task import FormTask, click
from envsuite.families.gui.forms.vocabulary import FILLER, WORDS, pool
from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.screen import Screen
from envsuite.families.gui.task import Goal, Outcome
from envsuite.families.gui.widget import Label, Widget

#: Labels of dialog buttons (split like the other pools).
DIALOG_LABELS = (
    "OK", "Cancel", "Yes", "No", "Save", "Delete", "Apply", "Later", "Retry", "Close",
    "Accept", "Decline", "Continue", "Back", "Confirm", "Skip",
)  # fmt: skip
#: Verbs of dialog messages ("Archive the lantern?").
DIALOG_VERBS = ("Delete", "Save", "Share", "Open", "Move", "Archive", "Rename", "Print", "Send")
#: What the instruction calls the close button.
CLOSE_NAME = "×"


class ClickDialog(FormTask):
    """Close the dialog with the named control (MiniWoB++ ``click-dialog`` / ``-2``)."""

    name: ClassVar[str] = "click-dialog"
    held_out_fields: ClassVar[tuple[str, ...]] = ("title",)
    layouts: ClassVar[dict[str, tuple[str, ...]]] = {"train": ("top",), "test": ("low",)}

    def generate(self, rng: np.random.Generator) -> None:
        """Dialog text, buttons, target and page."""
        words = pool(WORDS, self.split)
        labels = pool(DIALOG_LABELS, self.split)
        picks = rng.choice(len(words), 4, replace=False)
        self.title = str(words[picks[0]]).capitalize()
        verb = DIALOG_VERBS[int(rng.integers(len(DIALOG_VERBS)))]
        self.message = f"{verb} the {words[picks[1]]}?"
        self.buttons = [
            str(labels[i]) for i in rng.choice(len(labels), int(rng.integers(2, 4)), replace=False)
        ]
        self.target = int(rng.integers(-1, len(self.buttons)))  # -1: the close button
        self.page = [str(FILLER[i]) for i in rng.integers(0, len(FILLER), 30)]
        width = min(self.width - 24, 220)
        x = int(rng.integers(4, self.width - width - 4 + 1))
        top = 30 if self.layout == "top" else self.height // 2 - 40
        self.box = Rect(x, top + int(rng.integers(0, 30)), width, 110)
        if self.target < 0:
            instruction, target = (
                f'Close the dialog box by clicking the "{CLOSE_NAME}".',
                CLOSE_NAME,
            )
        else:
            target = self.buttons[self.target]
            instruction = f'Click the button in the dialog box labeled "{target}".'
        self.goal = Goal(instruction, {"button": target, "title": self.title})
        self.optimal_steps = 1

    def _target_id(self) -> str:
        return "dialog/close" if self.target < 0 else f"dialog-button-{self.target}"

    def build_screen(self, screen_id: str) -> Screen:
        """A page of text with the dialog above it."""
        area = layout.content_area(self.width, self.height, self.theme, False)
        page: list[Widget] = [
            Label(
                f"page-{r}",
                Rect(area.x, area.y + 20 * r, area.width, 18),
                text=" ".join(self.page[r * 5 : r * 5 + 5]),
                muted=True,
            )
            for r in range(6)
        ]
        box = self.box
        row = Rect(box.x + 10, box.bottom - 34, box.width - 20, 24)
        most = (row.width - layout.GAP * (len(self.buttons) - 1)) // len(self.buttons)
        widths = [min(layout.button_width(label, self.theme), most) for label in self.buttons]
        rects = layout.flow(widths, row)
        if self.layout == "top":
            shift = row.right - rects[-1].right
            rects = [rect.moved(shift, 0) for rect in rects]
        dialog = Dialog(
            "dialog",
            box,
            name=self.title,
            items=[
                Label(
                    "dialog-text",
                    Rect(box.x + 10, box.y + TITLE_BAR_HEIGHT + 10, box.width - 20, 18),
                    text=self.message,
                ),
                *(
                    Button(f"dialog-button-{i}", rect, name=label, dismisses=True, primary=i == 0)
                    for i, (label, rect) in enumerate(zip(self.buttons, rects, strict=True))
                ),
            ],
        )
        return Screen(self.width, self.height, items=page, dialogs=[dialog])

    def judge(self) -> Outcome | None:
        """Decided once the dialog closes: by the target or not."""
        log = self.app.screen.event_log
        if ("close", "dialog") not in log:
            return None
        closer = log[log.index(("close", "dialog")) - 1] if log.index(("close", "dialog")) else None
        return "success" if closer == ("activate", self._target_id()) else "failure"

    def solve(self) -> GuiAction:
        """Click the target."""
        return click(self._target_id())
