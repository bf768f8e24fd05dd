"""Reports of real runs: the files, the figures, and numbers recomputed from the records."""

from __future__ import annotations

import math
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest
from matplotlib import image

from envsuite.evaluation.report import write_report
from envsuite.records import read_records
from tests.evaluation.report.conftest import ATTEMPTS, EPISODES, run
from tests.evaluation.report.markdown_tables import cells, section, table_rows

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
ROW = '| Bandit-v0 {"horizon":200} |'


def records_of(run_dir: Path):
    return read_records(run_dir / "episodes.jsonl")


def assert_real_png(path: Path, min_side: int = 200) -> None:
    assert path.read_bytes()[:8] == PNG_SIGNATURE
    pixels = image.imread(path)
    height, width = pixels.shape[:2]
    assert height >= min_side and width >= min_side
    # a drawn figure has axes, text and data in many colours; a blank one has one colour
    colours = np.unique(pixels.reshape(-1, pixels.shape[-1]), axis=0)
    assert len(colours) > 20


def fmt(value: float) -> str:
    return f"{value:.3f}"


@pytest.fixture(scope="module")
def oracle_report(oracle_run: Path):
    return write_report([oracle_run], seed=0)


@pytest.fixture(scope="module")
def comparison(oracle_run: Path, random_run: Path, runs_root: Path):
    return write_report([oracle_run, random_run], runs_root / "comparison", seed=0)


def test_one_run_writes_markdown_and_figures_into_run_dir_report(oracle_run, oracle_report):
    out = oracle_run / "report"
    assert oracle_report.out_dir == out
    assert oracle_report.markdown == out / "report.md"
    names = sorted(path.name for path in out.iterdir())
    assert names == [
        "outcomes.png",
        "pass_at_k.png",
        "regret-1-Bandit-v0-horizon-200.png",
        "report.md",
    ]
    for path in oracle_report.figures:
        assert_real_png(path)
    markdown = oracle_report.markdown.read_text(encoding="utf-8")
    for name in ("outcomes.png", "pass_at_k.png", "regret-1-Bandit-v0-horizon-200.png"):
        assert f"]({name})" in markdown


def test_outcome_numbers_match_the_records(oracle_report, oracle_run):
    records = records_of(oracle_run)
    successes = sum(bool(r.success) for r in records)
    rate = successes / len(records)
    mean_return = sum(float(r.episode_return) for r in records) / len(records)
    mean_score = sum(float(r.score) for r in records) / len(records)
    markdown = oracle_report.markdown.read_text(encoding="utf-8")
    [row] = table_rows(section(markdown, "Outcomes per env configuration"), ROW)
    values = cells(row)
    total = EPISODES * ATTEMPTS
    assert values[1:6] == ["oracle", f"{total} of {total}", str(total), "0", str(EPISODES)]
    assert values[6].startswith(fmt(rate) + " [")
    assert values[7].startswith(fmt(mean_return) + " [")
    assert values[8].startswith(fmt(mean_score) + " [")
    assert "seeded with **0**" in markdown


def test_random_agent_success_rate_is_its_fraction_of_successes(comparison, random_run):
    records = records_of(random_run)
    rate = sum(r.success is True for r in records) / len(records)
    assert 0.0 < rate < 1.0  # the comparison is only a test if it is neither extreme
    markdown = comparison.markdown.read_text(encoding="utf-8")
    [row] = table_rows(section(markdown, "Outcomes per env configuration"), f"{ROW} random |")
    assert f"| {fmt(rate)} [" in row


def test_intervals_contain_their_estimates(comparison):
    for row in comparison.tables.outcomes:
        for value in (row.success, row.mean_return, row.score):
            assert value is not None
            assert value.interval.low <= value.interval.estimate <= value.interval.high


def test_regret_numbers_and_verdicts(comparison, oracle_run, random_run):
    markdown = comparison.markdown.read_text(encoding="utf-8")
    regret = section(markdown, "Regret")
    verdicts = {}
    for agent, run_dir in (("oracle", oracle_run), ("random", random_run)):
        records = records_of(run_dir)
        final = np.mean([sum(r.curves["regret"]) for r in records])
        [row] = table_rows(regret, f"| {agent} | `regret` |")
        assert f"| {len(records)} | 200 | {fmt(final)} [" in row
        verdicts[agent] = row
    assert "**sublinear**" in verdicts["oracle"]
    assert "**sublinear**" not in verdicts["random"]
    by_agent = {row.run: row.summary.sublinearity.verdict for row in comparison.tables.regret}
    assert by_agent["oracle"] == "sublinear"
    assert by_agent["random"] != "sublinear"
    assert "log-log slope" in regret and "Mann–Kendall" in regret


def test_bandit_exploration_numbers(comparison, random_run):
    records = records_of(random_run)
    opt_frac = np.mean([r.metrics["opt_frac"] for r in records])
    failed = sum(not any(v <= 1e-12 for v in r.curves["regret"][100:]) for r in records)
    markdown = comparison.markdown.read_text(encoding="utf-8")
    [row] = table_rows(
        section(markdown, "Regret"), f"| random | {len(records)} | {fmt(opt_frac)} ["
    )
    assert f"({failed} of {len(records)})" in row
    arms = [np.bincount(np.asarray(r.curves["arm"], dtype=int), minlength=5) for r in records]
    min_frac = np.mean([5 * counts.min() / counts.sum() for counts in arms])
    assert f"| {fmt(min_frac)} [" in row  # from the env's arm curve, even in text mode


def test_pass_at_k_matches_a_direct_computation(comparison, random_run):
    records = records_of(random_run)
    attempts: dict[int, list[bool]] = defaultdict(list)
    for record in records:
        attempts[record.seed].append(record.success is True)
    markdown = comparison.markdown.read_text(encoding="utf-8")
    table = section(markdown, "pass@k")
    for k in range(1, ATTEMPTS + 1):
        expected = np.mean(
            [1 - math.comb(len(a) - sum(a), k) / math.comb(len(a), k) for a in attempts.values()]
        )
        [row] = table_rows(table, f"{ROW} random | {k} |")
        assert f"| {EPISODES} | {len(records)} | {sum(map(sum, attempts.values()))} |" in row
        assert f"| {fmt(expected)} [" in row
    assert "](pass_at_k.png)" in markdown
    assert_real_png(comparison.out_dir / "pass_at_k.png")


def test_comparison_has_one_row_per_env_and_agent(comparison):
    markdown = comparison.markdown.read_text(encoding="utf-8")
    rows = table_rows(section(markdown, "Outcomes per env configuration"), ROW)
    assert [row.split("|")[2].strip() for row in rows] == ["oracle", "random"]
    assert [row.run for row in comparison.tables.outcomes] == ["oracle", "random"]
    assert markdown.startswith("# envsuite report: 2 runs compared")
    for path in comparison.figures:
        assert_real_png(path)


def test_same_seed_same_bytes_other_seed_other_intervals(
    comparison, oracle_run, random_run, tmp_path
):
    first = comparison  # seed 0, written by the module's fixture (one report fewer to draw)
    again = write_report([oracle_run, random_run], tmp_path / "b", seed=0)
    other = write_report([oracle_run, random_run], tmp_path / "c", seed=4)
    assert first.markdown.read_text() == again.markdown.read_text()
    for one, two in zip(first.figures, again.figures, strict=True):
        assert one.read_bytes() == two.read_bytes()
    text, other_text = first.markdown.read_text(), other.markdown.read_text()
    assert "seeded with **0**" in text and "seeded with **4**" in other_text
    assert text.replace("seeded with **0**", "seeded with **4**") != other_text  # intervals moved


def test_no_pass_at_k_section_with_one_attempt(tmp_path):
    run_dir = run(tmp_path / "single", "oracle", kwargs={"horizon": 30}, episodes=3, attempts=1)
    report = write_report([run_dir])
    markdown = report.markdown.read_text()
    assert "## pass@k" not in markdown
    assert not (report.out_dir / "pass_at_k.png").exists()


def test_multi_agent_run_reports_returns_per_player(game_run):
    report = write_report([game_run])
    records = records_of(game_run)
    markdown = report.markdown.read_text()
    outcomes, players = section(markdown, "Outcomes per env configuration").split("### Per player")
    [row] = table_rows(outcomes, '| RepeatedGame-v0 {"horizon":60} | player_0=oracle |')
    seeds = len({r.seed for r in records})
    n = len(records)
    assert f"| {n} of {n} | {n} | 0 | {seeds} |" in row  # records, ran, infra errors, seeds
    for player in ("player_0", "player_1"):
        mean = np.mean([r.episode_return[player] for r in records])
        [row] = table_rows(
            players, f'| RepeatedGame-v0 {{"horizon":60}} | player_0=oracle | {player} |'
        )
        assert f"| {len(records)} | {fmt(mean)} [" in row
    regret = section(markdown, "Regret")
    assert "`player_0/regret`" in regret and "`player_1/regret`" in regret
    assert_real_png(report.out_dir / "regret-1-RepeatedGame-v0-horizon-60.png")


def test_partial_run_is_reported_as_what_it_holds(tmp_path):
    run_dir = run(tmp_path / "partial", "oracle", kwargs={"horizon": 30}, episodes=4, attempts=2)
    file = run_dir / "episodes.jsonl"
    lines = file.read_text().splitlines(keepends=True)
    file.write_text("".join(lines[:5]))  # as if killed after 5 of 8 episodes
    report = write_report([run_dir])
    markdown = report.markdown.read_text()
    assert "partial run: it holds 5 of the 8 episodes" in section(markdown, "Notes")
    [row] = table_rows(section(markdown, "Outcomes per env configuration"), "| Bandit-v0")
    assert "| 5 of 8 | 5 |" in row
    # seed 2 has one attempt of two, so pass@k stops at k = 1 and says why
    assert "stops at k = 1" in markdown
    assert [row.result.k for row in report.tables.pass_at_k] == [1]
