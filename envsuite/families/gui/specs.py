"""Registry entries of the gui family (imports nothing heavy).

The conformance kit checks each spec with the variants below (observation and action
modes, the test split, pop-ups, scaled screenshots); every task type of the forms and
apps packages is checked by ``tests/families/gui/test_gui_conformance.py``, which reads
the task index when it runs (so a task type added there is covered without an edit here).
"""

from envsuite.registry import EnvSpec, register

_PACKAGE = "envsuite.families.gui"

#: The specs of the family, registered below.
GUI_SPECS: list[EnvSpec] = []


def _register(spec: EnvSpec) -> None:
    GUI_SPECS.append(spec)
    register(spec)


_register(
    EnvSpec(
        id="envsuite/GuiForm-v0",
        entry_point=f"{_PACKAGE}.form_env:GuiFormEnv",
        family="gui",
        api="gymnasium",
        description="MiniWoB++-style web-form tasks on a Pillow GUI simulator; scripted oracle.",
        extra="gui",
        oracle=f"{_PACKAGE}.gui_oracle:gui_oracle",
        oracle_success=1.0,
        test_variants=(
            {"observation_mode": "screenshot", "action_mode": "dict"},
            {"observation_mode": "text", "split": "test", "popup_rate": 1.0, "shift_rate": 1.0},
            {"observation_mode": "a11y_json+screenshot", "screenshot_size": [128, 128]},
            {"observation_mode": "instruction", "action_mode": "dict", "popup_rate": 0.5},
            {"observation_mode": "vector", "task": "click-checkboxes"},
        ),
    )
)


_register(
    EnvSpec(
        id="envsuite/GuiApp-v0",
        entry_point=f"{_PACKAGE}.app_env:GuiAppEnv",
        family="gui",
        api="gymnasium",
        description="Generated screen-graph apps (10-500 screens) on a Pillow GUI simulator; "
        "shortest-path oracle.",
        extra="gui",
        oracle=f"{_PACKAGE}.gui_oracle:gui_oracle",
        oracle_success=1.0,
        test_kwargs={"max_screens": 40},
        test_variants=(
            {"task": "app-action", "observation_mode": "screenshot", "action_mode": "dict"},
            {"observation_mode": "text", "split": "test", "distractors": True},
            {"task": "app-action", "observation_mode": "a11y_json", "distractors": True},
            {"observation_mode": "instruction", "min_screens": 200, "max_screens": 500},
            {"observation_mode": "vector", "distractors": True, "depth": 8},
        ),
    )
)

#: The same tasks in Debian's headless Chromium (``backend="browser"``). Pixels are the
#: browser's, so these specs are nondeterministic: the kit checks their logical state, and
#: instead of screenshot goldens tests/families/gui/browser/ holds them step by step to
#: the simulator's logical state on every task type. Kept apart from GUI_SPECS, whose
#: members pin screenshot hashes in golden transcripts.
BROWSER_SPECS: list[EnvSpec] = []


def _register_browser(spec: EnvSpec) -> None:
    BROWSER_SPECS.append(spec)
    register(spec)


_register_browser(
    EnvSpec(
        id="envsuite/GuiFormBrowser-v0",
        entry_point=f"{_PACKAGE}.form_env:GuiFormEnv",
        family="gui",
        api="gymnasium",
        description="GuiForm-v0's web-form tasks in headless Chromium: real input events, "
        "browser screenshots.",
        kwargs={"backend": "browser"},
        extra="gui",
        oracle=f"{_PACKAGE}.gui_oracle:gui_oracle",
        oracle_success=1.0,
        nondeterministic=True,
        test_variants=(
            {"observation_mode": "text", "popup_rate": 1.0},
            {"observation_mode": "screenshot", "action_mode": "dict", "shift_rate": 1.0},
        ),
    )
)

_register_browser(
    EnvSpec(
        id="envsuite/GuiAppBrowser-v0",
        entry_point=f"{_PACKAGE}.app_env:GuiAppEnv",
        family="gui",
        api="gymnasium",
        description="GuiApp-v0's generated apps in headless Chromium: real input events, "
        "browser screenshots.",
        kwargs={"backend": "browser"},
        extra="gui",
        oracle=f"{_PACKAGE}.gui_oracle:gui_oracle",
        oracle_success=1.0,
        nondeterministic=True,
        test_kwargs={"max_screens": 40},
        test_variants=({"task": "app-action", "observation_mode": "text", "distractors": True},),
    )
)
