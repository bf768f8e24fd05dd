"""Screen strips in reports: one replayed episode per configuration of a picture-drawing env."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import envsuite
from envsuite.evaluation.metrics.record_groups import task_key
from envsuite.evaluation.protocol import TaskProtocol
from envsuite.evaluation.report import load_runs, write_report
from envsuite.evaluation.report.screens import (
    LABEL_HEIGHT,
    PADDING,
    chosen_episodes,
    draw_screens,
    draws_pictures,
    frame_steps,
    replay_frames,
    strip_file_name,
)
from envsuite.evaluation.run_directory import evaluate
from envsuite.records import read_records, write_records
from tests.evaluation.report.markdown_tables import section

FORM = "envsuite/GuiForm-v0"
TASKS = ("login-user", "click-checkboxes")
SEEDS = 3


def gui_run(path: Path, agent: str) -> Path:
    protocol = TaskProtocol.model_validate(
        {
            "id": "gui-screens",
            "envs": [{"id": FORM, "kwargs": {"task": task}} for task in TASKS],
            "seeds": {"start": 0, "count": SEEDS},
            "metrics": ["success_rate"],
        }
    )
    evaluate(protocol, agent, path, progress=False)
    return path


@pytest.fixture(scope="module")
def oracle_gui_run(runs_root: Path) -> Path:
    return gui_run(runs_root / "gui-oracle", "oracle")


@pytest.fixture(scope="module")
def random_gui_run(runs_root: Path) -> Path:
    return gui_run(runs_root / "gui-random", "random")


@pytest.fixture(scope="module")
def gui_report(oracle_gui_run: Path):
    return write_report([oracle_gui_run], seed=0)


def frames_of(png: Path, count: int, side: int = 256) -> list[np.ndarray]:
    """The ``count`` frames of a strip of ``side`` x ``side`` screenshots."""
    strip = np.asarray(Image.open(png).convert("RGB"))
    assert strip.shape == (
        side + LABEL_HEIGHT + 2 * PADDING,
        count * side + (count + 1) * PADDING,
        3,
    )
    lefts = [PADDING + index * (side + PADDING) for index in range(count)]
    return [strip[PADDING : PADDING + side, left : left + side] for left in lefts]


def screenshots(task: str, seed: int, actions: list, steps: tuple[int, ...]) -> list[np.ndarray]:
    """The env's screenshots after ``steps`` of ``actions`` (0: after reset)."""
    env = envsuite.make(FORM, task=task, render_mode="rgb_array")
    env.reset(seed=seed)
    shots = {0: env.render()}
    for number, action in enumerate(actions, start=1):
        env.step(action)
        shots[number] = env.render()
    env.close()
    return [shots[step] for step in steps]


def test_each_configuration_has_a_strip_of_its_first_middle_and_last_screens(
    oracle_gui_run, gui_report
):
    out = oracle_gui_run / "report"
    records = read_records(oracle_gui_run / "episodes.jsonl")
    text = gui_report.markdown.read_text()
    screens = section(text, "Screens")
    for index, task in enumerate(TASKS, start=1):  # the protocol's order
        record = next(r for r in records if r.env_kwargs == {"task": task} and r.seed == 0)
        name = f"screens-{index}-GuiForm-v0-{task}.png"
        assert out / name in gui_report.figures
        assert f"]({name})" in screens
        steps = frame_steps(record.length)
        assert len(steps) == 3  # the oracle's episodes here are 3+ steps long
        actions = [step.action for step in record.trace]
        expected = screenshots(task, record.seed, actions, steps)
        for shown, screenshot in zip(frames_of(out / name, 3), expected, strict=True):
            np.testing.assert_array_equal(shown, screenshot)
        assert f"seed 0, attempt 0: {record.length} step(s), succeeded." in screens
    assert 'Instruction: *Enter the username "' in screens


def test_the_strip_shows_the_first_successful_episode_of_the_runs(oracle_gui_run, random_gui_run):
    runs = load_runs([random_gui_run, oracle_gui_run])
    chosen = chosen_episodes(runs)
    assert sorted(json.loads(key[2])["task"] for key in chosen) == sorted(TASKS)
    for key, (run, record) in chosen.items():
        first_success = next(
            (one.label, r.seed)
            for one in runs
            for r in one.records
            if r.success and task_key(r) == key
        )
        assert (run.label, record.seed) == first_success and record.success


def test_a_configuration_without_success_shows_its_first_episode(random_gui_run, tmp_path):
    runs = load_runs([random_gui_run])
    chosen = chosen_episodes(runs)
    for key, (_, record) in chosen.items():
        records = [r for r in runs[0].records if r.env_kwargs == json.loads(key[2])]
        if not any(r.success for r in records):
            assert record is records[0]


def test_a_record_that_replays_otherwise_gets_a_note_not_a_strip(oracle_gui_run, tmp_path):
    altered = tmp_path / "altered"
    altered.mkdir()
    (altered / "run.json").write_text((oracle_gui_run / "run.json").read_text())
    records = read_records(oracle_gui_run / "episodes.jsonl")
    changed = []
    for record in records:
        if record.env_kwargs == {"task": "login-user"}:
            trace = list(record.trace)
            trace[0] = trace[0].model_copy(update={"reward": 0.5})
            record = record.model_copy(update={"trace": trace})
        changed.append(record)
    write_records(altered / "episodes.jsonl", changed)
    report = write_report([altered], seed=0)
    screens = section(report.markdown.read_text(), "Screens")
    assert "No screens: the replay failed: step 1 replays with reward 0.0, recorded 0.5." in screens
    names = sorted(path.name for path in report.figures if path.name.startswith("screens-"))
    assert names == ["screens-2-GuiForm-v0-click-checkboxes.png"]


def test_text_envs_get_no_screens(oracle_run):
    report = write_report([oracle_run], oracle_run / "report-screens", seed=0)
    assert "## Screens" not in report.markdown.read_text()
    assert not [path for path in report.out_dir.iterdir() if path.name.startswith("screens-")]


def test_which_envs_draw_pictures():
    assert draws_pictures(envsuite.spec(FORM))
    assert draws_pictures(envsuite.spec("envsuite/GuiApp-v0"))
    assert not draws_pictures(envsuite.spec("envsuite/Bandit-v0"))
    assert not draws_pictures(envsuite.spec("envsuite/Wordle-v0"))  # its frames are text


def test_only_one_episode_per_configuration_is_replayed(oracle_gui_run, tmp_path, monkeypatch):
    import envsuite.evaluation.report.screens as screens

    replayed = []
    real = screens.replay_frames

    def counting(record, steps, make):
        replayed.append((record.env_kwargs["task"], record.seed))
        return real(record, steps, make)

    monkeypatch.setattr(screens, "replay_frames", counting)
    runs = load_runs([oracle_gui_run])
    draw_screens(runs, sorted({task_key(r) for r in runs[0].records}), tmp_path, strip_file_name)
    assert sorted(replayed) == [("click-checkboxes", 0), ("login-user", 0)]


def test_frame_steps_and_file_names():
    assert frame_steps(0) == (0,)
    assert frame_steps(1) == (0, 1)
    assert frame_steps(2) == (0, 1, 2)
    assert frame_steps(9) == (0, 4, 9)
    key = ("gui-forms", FORM, '{"action_mode":"dict","split":"test","task":"book-flight"}')
    assert strip_file_name(3, key) == "screens-3-GuiForm-v0-book-flight-dict-test.png"


def test_an_episode_of_no_steps_shows_its_first_screen(oracle_gui_run):
    record = read_records(oracle_gui_run / "episodes.jsonl")[0]
    empty = record.model_copy(update={"trace": [], "length": 0})
    frames, instruction = replay_frames(
        empty, (0,), lambda: envsuite.make(FORM, **record.env_kwargs, render_mode="rgb_array")
    )
    assert list(frames) == [0] and frames[0].shape == (256, 256, 3)
    assert instruction is not None and instruction.startswith("Enter the username")
