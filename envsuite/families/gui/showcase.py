"""A screen that uses every kind of widget: for the tests, the benchmark and the docs.

It is a small "account settings" form, 256 x 256 logical pixels: a title bar, tabs, text
fields, a checkbox, a radio group, a dropdown, a scrolling list, icons, a link and a
primary button, with an optional modal dialog on top.
"""

from __future__ import annotations

from envsuite.families.gui.buttons import Button, Icon, Link
from envsuite.families.gui.dialog import Dialog
from envsuite.families.gui.dropdown import Dropdown
from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.list_box import ListBox
from envsuite.families.gui.screen import Screen
from envsuite.families.gui.scroll_container import ScrollContainer
from envsuite.families.gui.tabs import Tabs
from envsuite.families.gui.text_field import TextField
from envsuite.families.gui.toggles import Checkbox, RadioGroup
from envsuite.families.gui.widget import Label, Widget

#: Rows of the showcase's scrolling list (more than fit, so it scrolls).
INBOX = [
    "Alice: lunch?",
    "Bob: report",
    "Carol: photos",
    "Dan: invoice",
    "Eve: hello",
    "Frank: meeting",
    "Grace: tickets",
    "Heidi: notes",
]


def showcase_screen(with_dialog: bool = False) -> Screen:
    """The showcase screen; ``with_dialog`` opens a modal confirmation dialog on top."""
    profile = [
        Label("name_label", Rect(8, 58, 60, 20), text="Name"),
        TextField("name", Rect(70, 58, 178, 22), name="Name", placeholder="Your name"),
        Label("pw_label", Rect(8, 86, 60, 20), text="Password"),
        TextField(
            "password",
            Rect(70, 86, 178, 22),
            name="Password",
            value="hunter2",
            caret=7,
            password=True,
        ),
        Checkbox("newsletter", Rect(8, 114, 120, 20), name="Newsletter", checked=True),
        Dropdown(
            "country",
            Rect(136, 114, 112, 22),
            name="Country",
            options=["France", "Japan", "Kenya", "Peru"],
        ),
        RadioGroup(
            "plan", Rect(8, 140, 120, 60), name="Plan", options=["Free", "Pro", "Team"], selected=1
        ),
        Icon("icon_star", Rect(140, 146, 18, 18), shape="star"),
        Icon("icon_mail", Rect(164, 146, 18, 18), shape="mail"),
        Icon("icon_gear", Rect(188, 146, 18, 18), shape="settings"),
        Button("search", Rect(212, 144, 36, 22), name="Search", icon="search"),
        Link("help", Rect(140, 176, 80, 18), name="Help centre"),
        Button("save", Rect(168, 222, 80, 26), name="Save", primary=True),
        Button("cancel", Rect(96, 222, 64, 26), name="Cancel"),
    ]
    inbox = ListBox("inbox", Rect(8, 58, 228, 8 * 24), name="Inbox", items=list(INBOX), selected=0)
    messages: list[Widget] = [
        ScrollContainer("inbox_scroll", Rect(8, 58, 240, 150), name="Messages", items=[inbox])
    ]
    tabs = Tabs(
        "tabs",
        Rect(0, 26, 256, 26),
        name="Sections",
        labels=["Profile", "Inbox", "About"],
        panels=[
            profile,
            messages,
            [Label("about", Rect(8, 60, 240, 20), text="envsuite gui showcase")],
        ],
    )
    dialogs = []
    if with_dialog:
        dialogs.append(
            Dialog(
                "confirm",
                Rect(28, 80, 200, 100),
                name="Discard changes?",
                items=[
                    Label("confirm_text", Rect(38, 112, 180, 20), text="Your edits will be lost."),
                    Button(
                        "discard",
                        Rect(138, 144, 80, 26),
                        name="Discard",
                        primary=True,
                        dismisses=True,
                    ),
                    Button("keep", Rect(50, 144, 80, 26), name="Keep", dismisses=True),
                ],
            )
        )
    return Screen(
        256, 256, title="Account settings", items=[tabs], dialogs=dialogs, focus_id="name"
    )
