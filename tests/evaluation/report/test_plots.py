"""The report's figures are readable for every shipped protocol: measured on the drawn text.

Records are synthesised for every env configuration of every ``tasks/*.yaml`` (the figures
depend on the configurations' names, not on what the episodes did), two runs each; the
figures are drawn and their text boxes measured after layout.
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.transforms import Bbox

from envsuite.evaluation.metrics.record_groups import task_key
from envsuite.evaluation.protocol import TaskProtocol
from envsuite.evaluation.report.labels import config_text, short_labels, wrap_words
from envsuite.evaluation.report.load import Run
from envsuite.evaluation.report.plots import (
    outcomes_figure,
    pass_at_k_figure,
    regret_figure,
    regret_title,
)
from envsuite.evaluation.report.tables import ReportTables, Settings, build_tables
from envsuite.records import EpisodeRecord
from tests.evaluation.metrics.record_factory import make_record
from tests.evaluation.shipped_tasks import RUNNABLE_TASKS

ROOT = Path(__file__).resolve().parents[3]
PROTOCOLS = RUNNABLE_TASKS
RUNS = ("oracle", "a-rather-long-agent-name")
SEEDS = 3
HORIZON = 30
#: Longest line of a tick label, in characters.
LONGEST_LINE = 40


def _records(protocol: TaskProtocol, agent: str, rng: np.random.Generator) -> list[EpisodeRecord]:
    attempts = min(protocol.attempts, 2)
    records = []
    for entry in protocol.envs:
        for seed in range(SEEDS):
            for attempt in range(attempts):
                success = bool(rng.random() < 0.5)
                records.append(
                    make_record(
                        task_id=protocol.id,
                        env_id=entry.id,
                        env_kwargs=entry.kwargs,
                        agent_id=agent,
                        seed=seed,
                        attempt=attempt,
                        episode_return=float(rng.normal()),
                        success=success,
                        score=float(rng.random()),
                        curves={"regret": rng.random(HORIZON).tolist()},
                    )
                )
    return records


def _tables(path: Path) -> ReportTables:
    protocol = TaskProtocol.load(path)
    rng = np.random.default_rng(0)
    runs = [
        Run(Path(agent), agent, agent, None, protocol, _records(protocol, agent, rng))
        for agent in RUNS
    ]
    return build_tables(runs, Settings(reps=20))


def _box(figure: Figure, artist) -> Bbox:
    return artist.get_window_extent(FigureCanvasAgg(figure).get_renderer())


def _inside(figure: Figure, box: Bbox) -> bool:
    width, height = figure.bbox.width, figure.bbox.height
    return box.x0 >= 0 and box.y0 >= 0 and box.x1 <= width and box.y1 <= height


@pytest.fixture(scope="module", params=PROTOCOLS, ids=[path.stem for path in PROTOCOLS])
def tables(request) -> ReportTables:
    return _tables(request.param)


def test_every_shipped_protocol_is_covered() -> None:
    assert len(PROTOCOLS) >= 7


def test_outcome_labels_are_short_and_never_overlap(tables: ReportTables) -> None:
    figure = outcomes_figure(tables)
    assert figure is not None
    for axes in figure.axes:
        labels = [label for label in axes.get_xticklabels() if label.get_visible()]
        texts = [label.get_text() for label in labels if label.get_text()]
        if not texts:
            continue  # panels above the bottom one share its x axis
        assert len(texts) == len(tables.tasks)
        assert len(set(texts)) == len(texts)  # the labels still tell configurations apart
        for text in texts:
            assert "{" not in text  # no kwargs JSON
            assert max(len(line) for line in text.split("\n")) <= LONGEST_LINE, text
        boxes = sorted((_box(figure, label) for label in labels), key=lambda box: box.x0)
        for left, right in pairwise(boxes):
            assert left.x1 <= right.x0, "tick labels overlap"
        assert all(_inside(figure, box) for box in boxes)


def test_regret_titles_wrap_between_words(tables: ReportTables) -> None:
    """Every configuration's regret title keeps its words whole and fits the figure.

    A suptitle sits at fixed figure coordinates (centred, at the top) whatever the panels
    hold, so one laid-out regret figure per protocol (the configuration with the longest
    title) is drawn, and every other configuration's title is measured as that figure's
    suptitle; drawing one figure per configuration (34 for ``gui``) measured the same boxes.
    """
    tasks = [task for task in tables.tasks if any(row.task == task for row in tables.regret)]
    if not tasks:
        return
    longest = max(tasks, key=lambda task: len(regret_title(task)))
    figure = regret_figure([row for row in tables.regret if row.task == longest])
    assert figure.get_suptitle() == regret_title(longest)
    for task in tasks:
        title = regret_title(task)
        assert title.split() == config_text(task).split()  # no word cut in two
        figure._suptitle.set_text(title)  # the figure's own font and position
        assert _inside(figure, _box(figure, figure._suptitle)), title


def test_pass_at_k_legend_sits_beside_the_curves(tables: ReportTables) -> None:
    figure = pass_at_k_figure(tables)
    if figure is None:
        assert not tables.pass_at_k
        return
    [legend] = [axes.get_legend() for axes in figure.axes if axes.get_legend()]
    legend_box = _box(figure, legend)
    assert _inside(figure, legend_box)
    for axes in figure.axes:
        assert not legend_box.overlaps(_box(figure, axes.patch))


def test_short_labels_keep_only_what_differs() -> None:
    protocol = TaskProtocol.load(ROOT / "tasks" / "decision-regret.yaml")
    tasks = [task_key(record) for record in _records(protocol, "a", np.random.default_rng(0))]
    labels = short_labels(list(dict.fromkeys(tasks)))
    assert sorted(" ".join(lines) for lines in labels.values()) == [
        "Bandit-v0 arm_type=bernoulli difficulty=easy",
        "Bandit-v0 arm_type=bernoulli difficulty=hard",
        "Bandit-v0 arm_type=gaussian difficulty=easy",
        "ContextualBandit-v0",
        "Experts-v0 loss_sequence=adversarial",
        "Experts-v0 loss_sequence=iid",
    ]


def test_data_files_are_named_by_the_words_that_differ() -> None:
    files = [
        ("t", "envsuite/SAT-v0", f'{{"dataset_file":"sat/x/v1/test/{name}_sample100.jsonl"}}')
        for name in ("n3_k5_length20", "n4_k7_length40")
    ]
    assert [short_labels(files)[task] for task in files] == [
        ["dataset_file=n3_k5_length20"],
        ["dataset_file=n4_k7_length40"],
    ]


def test_wrap_words_never_breaks_a_word() -> None:
    text = "Bandit-v0 arm_type=bernoulli difficulty=hard horizon=100 num_arms=5"
    assert wrap_words(text, 12).split() == text.split()
    assert "arm_type=bernoulli" in wrap_words(text, 12).split("\n")
