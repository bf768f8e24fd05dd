"""The conformance kit on every GUI task type, read from the task index when the tests run.

The registered specs' own variants (modes, splits, pop-ups) run in
``tests/test_conformance.py``; here each form task type runs as a variant of
``GuiForm-v0`` and each app task type as one of ``GuiApp-v0``, so a task type added to
either package is covered without an edit anywhere.
"""

from __future__ import annotations

import dataclasses

import pytest

import envsuite
from envsuite.families.gui.tasks_index import app_tasks, form_tasks
from envsuite.testing import conformance_cases, run_conformance


def _task_variants():
    specs = []
    form = envsuite.spec("envsuite/GuiForm-v0")
    for name in sorted(form_tasks()):
        specs.append(dataclasses.replace(form, test_kwargs={**form.test_kwargs, "task": name}))
    if app_tasks():
        app = envsuite.spec("envsuite/GuiApp-v0")
        for name in sorted(app_tasks()):
            specs.append(dataclasses.replace(app, test_kwargs={**app.test_kwargs, "task": name}))
    # The kit's cases of each spec without its mode variants (those run elsewhere).
    return [
        pytest.param(spec, check, id=f"{spec.test_kwargs['task']}::{check}")
        for spec in specs
        for _, _, check in conformance_cases([dataclasses.replace(spec, test_variants=())])
    ]


@pytest.mark.parametrize(("spec", "check"), _task_variants())
def test_every_task_type_passes_the_kit(spec, check):
    run_conformance(spec, only=[check])
