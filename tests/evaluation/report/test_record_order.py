"""The same records in any order give the same report, byte for byte, and the same numbers.

``--workers`` and Ray write episodes in the order they finish, and a resumed run appends;
a bootstrap that draws row indices would resample different units for each order. Here a
real run's records are reversed and shuffled in place and every output is compared.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from rich.console import Console

from envsuite.cli import evaluate as eval_cli
from envsuite.evaluation.metrics import (
    pass_at_k_from_records,
    regret_summary,
    score_matrix,
    summarize_by_env,
)
from envsuite.evaluation.protocol import EnvEntry, SeedRange, TaskProtocol
from envsuite.evaluation.report import write_report
from envsuite.evaluation.run_directory import RunResult, evaluate
from envsuite.records import EpisodeRecord, read_records, write_records

PROTOCOL = TaskProtocol(
    id="order-test",
    envs=[
        EnvEntry(id="envsuite/Bandit-v0", kwargs={"num_arms": 5, "horizon": 60}),
        EnvEntry(
            id="envsuite/Bandit-v0",
            kwargs={"num_arms": 5, "arm_type": "gaussian", "horizon": 60},
        ),
        EnvEntry(id="envsuite/Experts-v0", kwargs={"horizon": 60}),
    ],
    seeds=SeedRange(start=0, count=7),
    attempts=2,
    metrics=["success_rate", "mean_return", "regret", "pass@2"],
)
#: Reversed, then shuffles drawn from generators with these seeds.
SHUFFLES = (0, 1, 2)


def _with_infra_errors(records: list[EpisodeRecord]) -> list[EpisodeRecord]:
    # two messages once each: a tie that must not be broken by file order
    changed = list(records)
    for index, message in ((3, "sandbox lost"), (8, "endpoint down")):
        changed[index] = changed[index].model_copy(update={"infra_error": message})
    return changed


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("order") / "run"
    evaluate(PROTOCOL, "oracle", path, progress=False)
    file = path / "episodes.jsonl"
    write_records(file, _with_infra_errors(read_records(file)))
    return path


def _orders(records: list[EpisodeRecord]) -> list[list[EpisodeRecord]]:
    orders = [records[::-1]]
    for seed in SHUFFLES:
        permutation = np.random.default_rng(seed).permutation(len(records))
        orders.append([records[i] for i in permutation])
    return orders


def _report_bytes(run: Path, out: Path) -> dict[str, bytes]:
    report = write_report([run], out, seed=0)
    return {path.name: path.read_bytes() for path in [report.markdown, *report.figures]}


def _summary_text(records: list[EpisodeRecord], run: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    buffer = io.StringIO()
    monkeypatch.setattr(
        eval_cli, "stdout", lambda: Console(file=buffer, width=300, color_system=None)
    )
    result = RunResult(run_dir=run, run_id="r", records=records, new=len(records), resumed=0)
    eval_cli._print_summary(result, PROTOCOL)
    return buffer.getvalue()


def test_a_reordered_file_gives_a_byte_identical_report(run_dir: Path, tmp_path: Path) -> None:
    file = run_dir / "episodes.jsonl"
    original = read_records(file)
    expected = _report_bytes(run_dir, tmp_path / "as-written")
    assert {"report.md", "outcomes.png", "pass_at_k.png"} <= set(expected)
    try:
        # The reversed file and one shuffle: an order-dependent report differs for any
        # non-identity order (each order costs a full report with figures; the numbers
        # behind it are checked under every order below).
        for index, records in enumerate(_orders(original)[:2]):
            write_records(file, records)
            assert _report_bytes(run_dir, tmp_path / f"order-{index}") == expected, index
    finally:
        write_records(file, original)


def test_metrics_and_the_eval_summary_ignore_record_order(
    run_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    records = read_records(run_dir / "episodes.jsonl")

    def gaussian(items: list[EpisodeRecord]) -> list[EpisodeRecord]:
        return [r for r in items if r.env_kwargs.get("arm_type") == "gaussian"]

    def numbers(items: list[EpisodeRecord]) -> tuple[object, ...]:
        regret = regret_summary(gaussian(items))
        matrix, _ = score_matrix(items, "return")
        return (
            summarize_by_env(items),
            pass_at_k_from_records(items, 1),
            regret.final_regret,
            regret.opt_frac,
            regret.mean_curve.tobytes(),
            matrix.tobytes(),
        )

    expected = numbers(records)
    summary = _summary_text(records, run_dir, monkeypatch)
    for reordered in _orders(records):
        assert numbers(reordered) == expected
        assert _summary_text(reordered, run_dir, monkeypatch) == summary
