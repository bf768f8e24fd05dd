"""email-inbox: find an email by its sender, then delete, star, reply to or forward it.

Instance: 3 to 6 emails (distinct senders from the split's first names, subjects from its
words, bodies from filler words), one of them the target, one of four chores, the reply
text or the forward address, a layout and a theme. Screens: ``inbox`` (a row per email:
the sender as a link, the subject), ``email/<i>`` (the email with Reply, Forward, a star
and a trash button, and a way back), ``reply/<i>`` and ``forward/<i>`` (To and Message
fields, Send). Train shows the subject under the sender; test beside it.

The first chore done decides: success when it is the asked chore on the target with the
asked text or address (a reply keeps the sender in To; a forward keeps the body); failure
otherwise. Fewest steps: delete and star 2 (open, click); reply and forward 5 (open, Reply
or Forward, click the field, type, Send). Distinct instances: ordered senders from 60
train names (over 10^7 for 4 emails) x subjects x chores: far beyond 10^5.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from envsuite.families.gui.actions import GuiAction
from envsuite.families.gui.buttons import Button, Link
from envsuite.families.gui.forms import layout
from envsuite.families.gui.forms.form_task import FormTask, click
from envsuite.families.gui.forms.vocabulary import FILLER, FIRST_NAMES, LAST_NAMES, WORDS, pool
from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.screen import Screen
from envsuite.families.gui.task import Goal, Outcome
from envsuite.families.gui.text_field import TextField
from envsuite.families.gui.widget import Label, Widget

#: The chores, as the goal's ``task`` field names them.
CHORES = ("delete", "star", "reply", "forward")


class EmailInbox(FormTask):
    """Do a chore on the email from the named sender (MiniWoB++ ``email-inbox``)."""

    name: ClassVar[str] = "email-inbox"
    held_out_fields: ClassVar[tuple[str, ...]] = ("sender",)
    layouts: ClassVar[dict[str, tuple[str, ...]]] = {"train": ("stacked",), "test": ("inline",)}
    home_id: ClassVar[str] = "inbox"

    def generate(self, rng: np.random.Generator) -> None:
        """Emails, target, chore and its text."""
        names = pool(FIRST_NAMES, self.split)
        words = pool(WORDS, self.split)
        count = int(rng.integers(3, 7))
        self.senders = [str(names[i]) for i in rng.choice(len(names), count, replace=False)]
        self.subjects = [
            " ".join(str(words[j]) for j in rng.choice(len(words), 2, replace=False)).capitalize()
            for _ in range(count)
        ]
        self.bodies = [
            " ".join(str(FILLER[j]) for j in rng.integers(0, len(FILLER), 6)).capitalize() + "."
            for _ in range(count)
        ]
        self.target = int(rng.integers(count))
        self.chore = CHORES[int(rng.integers(len(CHORES)))]
        sender = self.senders[self.target]
        fields = {"task": self.chore, "sender": sender}
        if self.chore == "delete":
            text = f"Find the email by {sender} and click the trash icon to delete it."
        elif self.chore == "star":
            text = f"Find the email by {sender} and click the star icon to mark it as important."
        elif self.chore == "reply":
            self.message = str(words[int(rng.integers(len(words)))]).capitalize()
            self.message += " " + " ".join(str(FILLER[j]) for j in rng.integers(0, len(FILLER), 2))
            fields["message"] = self.message
            text = f'Find the email by {sender} and reply to them with the text "{self.message}".'
        else:
            lasts = pool(LAST_NAMES, self.split)
            self.address = str(lasts[int(rng.integers(len(lasts)))]).lower()
            self.address += f"@{words[int(rng.integers(len(words)))]}.com"
            fields["to"] = self.address
            text = f"Find the email by {sender} and forward that email to {self.address}."
        self.goal = Goal(text, fields)
        self.optimal_steps = 2 if self.chore in ("delete", "star") else 5

    # -- screens ----------------------------------------------------------------------

    def build_screen(self, screen_id: str) -> Screen:
        """The inbox, an email, or a reply / forward form."""
        kind, _, index = screen_id.partition("/")
        if kind == "inbox":
            return Screen(self.width, self.height, title="Inbox", items=self._inbox())
        i = int(index)
        if kind == "email":
            return Screen(self.width, self.height, title=self.subjects[i], items=self._email(i))
        return Screen(
            self.width, self.height, title=kind.capitalize(), items=self._compose(kind, i)
        )

    def _area(self) -> Rect:
        return layout.content_area(self.width, self.height, self.theme, True)

    def _inbox(self) -> list[Widget]:
        area = self._area()
        deleted = set(self.app_data().get("deleted", []))
        starred = set(self.app_data().get("starred", []))
        items: list[Widget] = []
        y = area.y
        for i, (sender, subject) in enumerate(zip(self.senders, self.subjects, strict=True)):
            if i in deleted:
                continue
            name = ("★ " if i in starred else "") + sender
            width = layout.label_width(name, self.theme)
            items.append(Link(f"open-{i}", Rect(area.x, y, width, 18), name=name))
            if self.layout == "stacked":
                items.append(
                    Label(
                        f"subject-{i}",
                        Rect(area.x, y + 18, area.width, 16),
                        text=subject,
                        muted=True,
                    )
                )
                y += 40
            else:
                items.append(
                    Label(
                        f"subject-{i}",
                        Rect(area.x + width + 10, y, area.width - width - 10, 18),
                        text=subject,
                        muted=True,
                    )
                )
                y += 28
        return items

    def _email(self, i: int) -> list[Widget]:
        area = self._area()
        x, y = area.x, area.y
        row = layout.ROW_HEIGHT
        return [
            Button("inbox", Rect(x, y, 70, row), name="Inbox", icon="back"),
            Label(
                "from", Rect(x, y + 32, area.width, 18), text=f"From: {self.senders[i]}", bold=True
            ),
            Label("body", Rect(x, y + 54, area.width, 18), text=self.bodies[i]),
            Button("reply", Rect(x, y + 84, 64, row), name="Reply"),
            Button("forward", Rect(x + 70, y + 84, 72, row), name="Forward"),
            Button("star", Rect(area.right - 60, y + 84, 28, row), name="Star", icon="star"),
            Button("delete", Rect(area.right - 28, y + 84, 28, row), name="Delete", icon="trash"),
        ]

    def _compose(self, kind: str, i: int) -> list[Widget]:
        area = self._area()
        rows = layout.labelled_fields(
            ["To", "Message"],
            Rect(area.x, area.y, area.width, area.height - 40),
            self.theme,
            "left",
        )
        to = self.senders[i] if kind == "reply" else ""
        body = self.bodies[i] if kind == "forward" else ""
        return [
            Label("to-label", rows[0][0], text="To"),
            TextField("to", rows[0][1], name="To", value=to, caret=len(to)),
            Label("message-label", rows[1][0], text="Message"),
            TextField("message", rows[1][1], name="Message", value=body, caret=len(body)),
            Button(
                "send",
                Rect(area.right - 80, rows[1][1].bottom + 12, 80, layout.ROW_HEIGHT),
                name="Send",
                primary=True,
            ),
        ]

    # -- reactions --------------------------------------------------------------------

    def _value(self, element_id: str) -> str:
        field = self.widget(element_id)
        return field.value if isinstance(field, TextField) else ""

    def on_event(self, kind: str, element_id: str) -> str | None:
        """Open, go back, do a chore."""
        if kind not in ("activate", "submit"):
            return None
        data = self.app.data
        screen, _, index = self.app.screen_id.partition("/")
        if element_id.startswith("open-"):
            return f"email/{element_id.split('-')[1]}"
        if element_id == "inbox":
            return "inbox"
        if screen == "email" and element_id in ("reply", "forward"):
            return f"{element_id}/{index}"
        if screen == "email" and element_id in ("delete", "star"):
            data.setdefault("done", {"task": element_id, "email": int(index)})
            key = "deleted" if element_id == "delete" else "starred"
            data[key] = sorted({*data.get(key, []), int(index)})
            return "inbox" if element_id == "delete" else None
        if screen in ("reply", "forward") and (element_id == "send" or kind == "submit"):
            data.setdefault(
                "done",
                {
                    "task": screen,
                    "email": int(index),
                    "to": self._value("to"),
                    "message": self._value("message"),
                },
            )
            return "inbox"
        return None

    def expected(self) -> dict[str, object]:
        """The record the asked chore leaves."""
        record: dict[str, object] = {"task": self.chore, "email": self.target}
        if self.chore == "reply":
            record.update(to=self.senders[self.target], message=self.message)
        elif self.chore == "forward":
            record.update(to=self.address, message=self.bodies[self.target])
        return record

    def judge(self) -> Outcome | None:
        """The first chore done against the asked one."""
        done = self.app.data.get("done")
        if done is None:
            return None
        return "success" if done == self.expected() else "failure"

    def solve(self) -> GuiAction:
        """Open the target, start the chore, fill the form, send."""
        screen, _, index = self.app.screen_id.partition("/")
        here = int(index) if index else None
        if screen == "inbox":
            return click(f"open-{self.target}")
        if here != self.target:
            return click("inbox")
        if screen == "email":
            return click(self.chore)
        if screen != self.chore:
            return GuiAction("back")
        if self.chore == "reply":
            action = self.fill("to", self.senders[self.target]) or self.fill(
                "message", self.message
            )
        else:
            action = self.fill("to", self.address) or self.fill("message", self.bodies[self.target])
        return action or click("send")
