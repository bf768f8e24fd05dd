from __future__ import annotations

import pytest

from envsuite.evaluation.metrics.wilson import wilson_interval


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        # Newcombe (1998), "Two-sided confidence intervals for the single proportion",
        # Statistics in Medicine 17, table II, method 3 (Wilson score, no continuity
        # correction), 95%.
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
        # statsmodels proportion_confint(8, 10, method="wilson")
        (8, 10, 0.4902, 0.9433),
    ],
)
def test_published_values(successes, trials, low, high):
    interval = wilson_interval(successes, trials)
    assert interval.estimate == successes / trials
    assert interval.low == pytest.approx(low, abs=5e-5)
    assert interval.high == pytest.approx(high, abs=5e-5)


def test_all_or_nothing_keeps_a_width_where_the_bootstrap_would_not():
    won = wilson_interval(10, 10)
    assert won.high == 1.0
    assert won.low == pytest.approx(1.0 - wilson_interval(0, 10).high)
    assert won.low < 0.75


def test_higher_confidence_is_wider():
    narrow, wide = wilson_interval(5, 10, confidence=0.9), wilson_interval(5, 10, confidence=0.99)
    assert wide.low < narrow.low < 0.5 < narrow.high < wide.high


@pytest.mark.parametrize(
    ("successes", "trials", "confidence", "message"),
    [
        (0, 0, 0.95, "at least one trial"),
        (3, 2, 0.95, r"successes must be in \[0, 2\]"),
        (-1, 2, 0.95, "successes must be"),
        (1, 2, 1.0, "confidence"),
    ],
)
def test_bad_arguments_are_clear_errors(successes, trials, confidence, message):
    with pytest.raises(ValueError, match=message):
        wilson_interval(successes, trials, confidence=confidence)
