"""Web-form tasks (issue 17): MiniWoB++'s most used task types, generated from a seed.

Each task type is a :class:`~envsuite.families.gui.task.GuiTask` subclass built on
:class:`~.form_task.FormTask`; :data:`FORM_TASKS` maps the MiniWoB++ name to the class.
Build one with ``FORM_TASKS[name](rng, split=..., width=..., height=...)``; optional
``popup_rate=`` and ``shift_rate=`` switch on the seeded distractors (a modal pop-up, a
banner that pushes the layout down; :mod:`.distractors`).

The 28 types, by screen: one form (click-button, click-button-sequence, click-link,
click-checkboxes, click-option, click-tab, click-dialog, click-collapsible,
click-scroll-list, click-widget, focus-text, enter-text, enter-text-2, enter-date,
enter-password, login-user, choose-list, use-autocomplete, use-spinner, navigate-tree,
choose-date, social-media, find-word, simple-arithmetic, read-table) or several
(search-engine, email-inbox, book-flight). Each module's docstring gives the
instance it draws, its success and failure rules, its fewest steps and its count of
distinct instances.

Splits: ``test`` draws words, names, places and date years from parts of the pools in
:mod:`.vocabulary` that ``train`` never draws, and layouts from
``FormTask.layouts["test"]``, disjoint from the train ones; themes (light, dark) come in
both. Everything is built from the core widget toolkit: no new widget kind.
"""

from __future__ import annotations

from envsuite.families.gui.forms.answer_forms import (
    EnterText2,
    FindWord,
    ReadTable,
    SimpleArithmetic,
)
from envsuite.families.gui.forms.book_flight import BookFlight
from envsuite.families.gui.forms.choose_date import ChooseDate
from envsuite.families.gui.forms.click_button import ClickButton, ClickButtonSequence
from envsuite.families.gui.forms.click_checkboxes import ClickCheckboxes, ClickOption
from envsuite.families.gui.forms.click_dialog import ClickDialog
from envsuite.families.gui.forms.click_link import ClickLink
from envsuite.families.gui.forms.click_tab import ClickCollapsible, ClickTab
from envsuite.families.gui.forms.click_widget import ClickWidget
from envsuite.families.gui.forms.email_inbox import EmailInbox
from envsuite.families.gui.forms.lists import ChooseList, ClickScrollList
from envsuite.families.gui.forms.navigate_tree import NavigateTree
from envsuite.families.gui.forms.search_engine import SearchEngine
from envsuite.families.gui.forms.social_media import SocialMedia
from envsuite.families.gui.forms.text_entry import (
    EnterDate,
    EnterPassword,
    EnterText,
    FocusText,
    LoginUser,
)
from envsuite.families.gui.forms.use_autocomplete import UseAutocomplete
from envsuite.families.gui.forms.use_spinner import UseSpinner
from envsuite.families.gui.task import GuiTask

#: Every form task type by its MiniWoB++ name.
FORM_TASKS: dict[str, type[GuiTask]] = {
    task.name: task
    for task in (
        ClickButton,
        ClickButtonSequence,
        ClickLink,
        ClickCheckboxes,
        ClickOption,
        ClickTab,
        ClickDialog,
        ClickCollapsible,
        FocusText,
        EnterText,
        EnterDate,
        EnterPassword,
        LoginUser,
        ChooseList,
        UseAutocomplete,
        ClickScrollList,
        ClickWidget,
        NavigateTree,
        SearchEngine,
        EmailInbox,
        BookFlight,
        SocialMedia,
        ChooseDate,
        EnterText2,
        FindWord,
        SimpleArithmetic,
        ReadTable,
        UseSpinner,
    )
}

__all__ = ["FORM_TASKS"]
