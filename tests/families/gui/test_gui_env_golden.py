"""Golden transcripts of the GUI envs: fixed seeds and action scripts, with screenshot hashes.

``golden/<Name>.json`` holds ``{"env_id", "cases": [{"kwargs", "seed", "actions",
"sha256", "screenshots"}]}``: ``sha256`` is
:func:`~envsuite.testing.golden.transcript_digest` (every observation, screenshots'
bytes included, reward and info), ``screenshots`` the sha256 of the screenshot after
the reset and after each action, so a failure says which frame changed. Each script holds
a malformed action, an inapplicable one (a point off the screen) and the oracle's
solution; every form task type has a case. A change to what an env shows or pays fails
here until its version is bumped and the file regenerated::

    python -m tests.families.gui.test_gui_env_golden
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

import envsuite
from envsuite.families.gui.gui_oracle import gui_oracle
from envsuite.families.gui.specs import GUI_SPECS
from envsuite.families.gui.tasks_index import app_tasks, form_tasks
from envsuite.testing.golden import transcript_digest

GOLDEN = Path(__file__).parent / "golden"
#: Actions every script starts with: malformed, inapplicable, and a harmless key.
PREFIX = ["wave(hands)", "click(999, 5)", "key(tab)"]


def golden_file(env_id: str) -> Path:
    return GOLDEN / f"{env_id.split('/')[1].rsplit('-v', 1)[0]}.json"


def screenshot_hashes(env_id: str, kwargs: dict, seed: int, actions: list) -> list[str]:
    env = envsuite.make(env_id, **{**kwargs, "observation_mode": "screenshot"})
    observation, _ = env.reset(seed=seed)
    hashes = [hashlib.sha256(observation.tobytes()).hexdigest()]
    for action in actions:
        observation, _, terminated, truncated, _ = env.step(action)
        hashes.append(hashlib.sha256(observation.tobytes()).hexdigest())
        if terminated or truncated:
            break
    return hashes


def cases():
    for path in sorted(GOLDEN.glob("*.json")):
        table = json.loads(path.read_text())
        for index, case in enumerate(table["cases"]):
            yield pytest.param(table["env_id"], case, id=f"{path.stem}-{index}-{case['label']}")


@pytest.mark.parametrize("spec", GUI_SPECS, ids=lambda spec: spec.id)
def test_every_gui_env_and_task_type_has_golden_transcripts(spec):
    path = golden_file(spec.id)
    assert path.is_file(), f"{spec.id} has no {path.name}"
    table = json.loads(path.read_text())
    assert table["env_id"] == spec.id
    covered = {case["kwargs"].get("task", spec.kwargs.get("task")) for case in table["cases"]}
    tasks = form_tasks() if spec.id == "envsuite/GuiForm-v0" else app_tasks()
    assert set(tasks) <= covered, f"no golden case for {sorted(set(tasks) - covered)}"


@pytest.mark.parametrize(("env_id", "case"), list(cases()))
def test_golden_transcript(env_id, case):
    digest = transcript_digest(env_id, case["kwargs"], case["seed"], case["actions"])
    frames = screenshot_hashes(env_id, case["kwargs"], case["seed"], case["actions"])
    changed = [
        i for i, (a, b) in enumerate(zip(frames, case["screenshots"], strict=False)) if a != b
    ]
    assert frames == case["screenshots"], (
        f"{env_id} {case['kwargs']} seed {case['seed']}: screenshot {changed[:1]} changed "
        f"({len(frames)} frames now, {len(case['screenshots'])} pinned); "
        "bump the env's version if this is intended"
    )
    assert digest == case["sha256"], (
        f"{env_id} {case['kwargs']} seed {case['seed']}: the transcript changed (now {digest}); "
        "bump the env's version if this is intended"
    )


def oracle_script(env_id: str, kwargs: dict, seed: int) -> list[Any]:
    """The actions of the prefix, then the oracle's until the episode ends."""
    env = envsuite.make(env_id, **kwargs)
    oracle = gui_oracle(env)
    observation, info = env.reset(seed=seed)
    actions: list[Any] = []
    for action in PREFIX:
        observation, _, terminated, truncated, info = env.step(action)
        actions.append(action)
    while not (terminated or truncated):
        action = oracle.act(observation, info)
        if isinstance(action, dict):  # a Dict-space element, written as JSON lists
            action = {key: _plain(value) for key, value in action.items()}
        observation, _, terminated, truncated, info = env.step(action)
        actions.append(action)
    return actions


def _plain(value: Any) -> Any:
    return value.tolist() if hasattr(value, "tolist") else value


def regenerate() -> None:
    """Write the golden files from the current envs (after a version bump)."""
    plans = {
        "envsuite/GuiForm-v0": [
            (f"{name}", {"task": name}, seed) for name in sorted(form_tasks()) for seed in (0,)
        ]
        + [
            ("popup", {"task": "click-button", "popup_rate": 1.0}, 3),
            ("layout-shift", {"task": "login-user", "shift_rate": 1.0}, 3),
            (
                "test-split-text",
                {"task": "click-button", "split": "test", "observation_mode": "text"},
                4,
            ),
            ("dict-actions", {"task": "click-button", "action_mode": "dict"}, 5),
        ],
    }
    if app_tasks():
        plans["envsuite/GuiApp-v0"] = [
            (f"{name}", {"task": name}, seed) for name in sorted(app_tasks()) for seed in (0,)
        ] + [
            ("distractors", {"task": "app-navigation", "distractors": True}, 2),
            ("depth-9", {"task": "app-navigation", "depth": 9, "max_screens": 200}, 4),
            (
                "test-split-big",
                {"task": "app-action", "split": "test", "min_screens": 300, "max_screens": 500},
                3,
            ),
        ]
    for env_id, plan in plans.items():
        rows = []
        for label, kwargs, seed in plan:
            actions = oracle_script(env_id, kwargs, seed)
            rows.append(
                {
                    "label": label,
                    "kwargs": kwargs,
                    "seed": seed,
                    "actions": actions,
                    "sha256": transcript_digest(env_id, kwargs, seed, actions),
                    "screenshots": screenshot_hashes(env_id, kwargs, seed, actions),
                }
            )
        table = {"env_id": env_id, "cases": rows}
        golden_file(env_id).write_text(json.dumps(table, indent=1) + "\n")


if __name__ == "__main__":
    regenerate()
