from __future__ import annotations

import numpy as np
import pytest

from envsuite.evaluation.metrics.regret import (
    bandit_pseudo_regret,
    cumulative_regret,
    dynamic_regret,
    external_regret,
    final_metric,
    matrix_game_external_regret,
    regret_curves,
    regret_summary,
)
from tests.evaluation.metrics.record_factory import make_record

# Two experts over three rounds; the learner plays [½, ½], then expert 0, then expert 1.
LOSSES = [[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]]
PLAYED = [[0.5, 0.5], [1.0, 0.0], [0.0, 1.0]]


def test_cumulative_regret() -> None:
    np.testing.assert_array_equal(cumulative_regret([0.5, 0.0, 0.25]), [0.5, 0.5, 0.75])
    with pytest.raises(ValueError):
        cumulative_regret([])


def test_bandit_pseudo_regret() -> None:
    # per step: 0.9 − 0.2, 0, 0.9 − 0.5, 0
    curve = bandit_pseudo_regret([0.2, 0.5, 0.9], [0, 2, 1, 2])
    np.testing.assert_allclose(curve, [0.7, 0.7, 1.1, 1.1], rtol=0, atol=1e-15)
    with pytest.raises(ValueError, match=r"\[0, 3\)"):
        bandit_pseudo_regret([0.2, 0.5, 0.9], [0, 3])


def test_external_regret_against_the_best_fixed_expert() -> None:
    # learner: 0.5, 1.5, 2.5; best expert so far: min(1, 0)=0, min(2, 0)=0, min(2, 1)=1
    np.testing.assert_array_equal(external_regret(LOSSES, PLAYED), [0.5, 1.5, 1.5])


def test_dynamic_regret_against_each_rounds_best_expert() -> None:
    # every round some expert loses 0
    np.testing.assert_array_equal(dynamic_regret(LOSSES, PLAYED), [0.5, 1.5, 2.5])


def test_played_rows_must_be_distributions() -> None:
    with pytest.raises(ValueError, match="probability distribution"):
        external_regret(LOSSES, [[0.5, 0.6], [1.0, 0.0], [0.0, 1.0]])
    with pytest.raises(ValueError, match="one shape"):
        external_regret(LOSSES, PLAYED[:2])


def test_matching_pennies_regret_per_player() -> None:
    payoffs = [[1.0, -1.0], [-1.0, 1.0]]
    row, col = matrix_game_external_regret(payoffs, [0, 0, 1], [1, 1, 1])
    # row gets −1, −1, +1; always playing 1 would have got +1 each round
    np.testing.assert_array_equal(row, [2.0, 4.0, 4.0])
    # column (payoffs −A) gets 1, 1, −1; no fixed action does better
    np.testing.assert_array_equal(col, [0.0, 0.0, 0.0])


def test_prisoners_dilemma_with_explicit_column_payoffs() -> None:
    row_payoffs = np.array([[3.0, 0.0], [5.0, 1.0]])  # 0 cooperates, 1 defects
    row, col = matrix_game_external_regret(row_payoffs, [0, 0], [0, 0], row_payoffs.T)
    np.testing.assert_array_equal(row, [2.0, 4.0])  # defecting would have paid 5 vs 3
    np.testing.assert_array_equal(col, [2.0, 4.0])
    with pytest.raises(ValueError, match="differ in length"):
        matrix_game_external_regret(row_payoffs, [0, 0], [0])


def _bandit_records() -> list:
    return [
        make_record(seed=0, curves={"regret": [1.0, 0.0, 1.0]}, metrics={"cumulative_regret": 2.0}),
        make_record(seed=1, curves={"regret": [0.0, 0.0, 1.0]}, metrics={"cumulative_regret": 1.0}),
        make_record(seed=2, infra_error="env crash"),
    ]


def test_regret_curves_from_records() -> None:
    np.testing.assert_array_equal(
        regret_curves(_bandit_records()), [[1.0, 1.0, 2.0], [0.0, 0.0, 1.0]]
    )
    np.testing.assert_array_equal(final_metric(_bandit_records(), "cumulative_regret"), [2.0, 1.0])


def test_regret_curves_need_the_curve_and_equal_lengths() -> None:
    with pytest.raises(ValueError, match="no 'regret' curve"):
        regret_curves([make_record(seed=0)])
    with pytest.raises(ValueError, match="differ in length"):
        regret_curves(
            [
                make_record(seed=0, curves={"regret": [1.0]}),
                make_record(seed=1, curves={"regret": [1.0, 0.0]}),
            ]
        )
    with pytest.raises(ValueError, match="no 'opt_frac' metric"):
        final_metric(_bandit_records(), "opt_frac")


def test_regret_summary() -> None:
    summary = regret_summary(_bandit_records(), reps=200)
    assert summary.n_episodes == 2
    assert summary.final_regret.estimate == 1.5
    assert summary.final_regret.contains(1.5)
    np.testing.assert_array_equal(summary.mean_curve, [0.5, 0.5, 1.5])
    assert summary.sublinearity.verdict in {"sublinear", "linear", "inconclusive"}
    assert summary.opt_frac is None  # the records carry no opt_frac


def test_regret_summary_reports_recorded_opt_frac() -> None:
    records = [
        make_record(seed=0, curves={"regret": [0.5, 0.0]}, metrics={"opt_frac": 0.5}),
        make_record(seed=1, curves={"regret": [0.0, 0.0]}, metrics={"opt_frac": 1.0}),
    ]
    summary = regret_summary(records, reps=100)
    assert summary.opt_frac is not None and summary.opt_frac.estimate == 0.75


def test_regret_summary_averages_attempts_at_a_seed_before_resampling() -> None:
    curves = {0: [1.0, 0.0], 1: [0.0, 0.0], 2: [1.0, 1.0]}
    once = [make_record(seed=seed, curves={"regret": c}) for seed, c in curves.items()]
    # Seed 0 a second time, with no regret: it counts half towards seed 0's mean.
    repeated = [*once, make_record(seed=0, attempt=1, curves={"regret": [0.0, 0.0]})]
    summary = regret_summary(repeated, reps=300)
    assert (summary.n_episodes, summary.n_seeds) == (4, 3)
    # Per seed R_T: 0.5, 0, 2 -> mean 2.5 / 3; per step the mean curve likewise.
    assert summary.final_regret.estimate == pytest.approx(2.5 / 3)
    np.testing.assert_allclose(summary.mean_curve, [1.5 / 3, 2.5 / 3])
    tripled = [
        make_record(seed=seed, attempt=attempt, curves={"regret": c})
        for seed, c in curves.items()
        for attempt in range(3)
    ]
    # Identical attempts add no information: the interval is the single-attempt one.
    assert (
        regret_summary(tripled, reps=300).final_regret
        == regret_summary(once, reps=300).final_regret
    )
