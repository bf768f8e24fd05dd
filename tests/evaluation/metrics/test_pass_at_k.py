from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from envsuite.evaluation.metrics.pass_at_k import (
    count_attempts,
    mean_pass_at_k,
    pass_at_k,
    pass_at_k_from_records,
    pass_at_k_interval,
    pass_hat_k,
)
from tests.evaluation.metrics.record_factory import make_record


def _exact_pass_at_k(n: int, c: int, k: int) -> Fraction:
    return 1 - Fraction(comb(n - c, k), comb(n, k))


def _exact_pass_hat_k(n: int, c: int, k: int) -> Fraction:
    return Fraction(comb(c, k), comb(n, k))


def test_pass_at_k_hand_example() -> None:
    # 1 − C(3, 2) / C(5, 2) = 1 − 3/10
    assert pass_at_k(5, 2, 2) == pytest.approx(float(Fraction(7, 10)), rel=1e-15)


def test_pass_hat_k_hand_example() -> None:
    # C(2, 2) / C(5, 2) = 1/10 and C(3, 2) / C(5, 2) = 3/10
    assert pass_hat_k(5, 2, 2) == pytest.approx(0.1, rel=1e-15)
    assert pass_hat_k(5, 3, 2) == pytest.approx(0.3, rel=1e-15)


@pytest.mark.parametrize("n", range(1, 9))
def test_pass_at_k_matches_the_binomial_formula_for_small_counts(n: int) -> None:
    for c in range(n + 1):
        for k in range(1, n + 1):
            assert pass_at_k(n, c, k) == pytest.approx(float(_exact_pass_at_k(n, c, k)), abs=1e-14)
            assert pass_hat_k(n, c, k) == pytest.approx(
                float(_exact_pass_hat_k(n, c, k)), abs=1e-14
            )


def test_pass_at_k_is_stable_where_binomials_are_huge() -> None:
    expected = float(_exact_pass_at_k(1000, 10, 100))
    assert pass_at_k(1000, 10, 100) == pytest.approx(expected, rel=1e-12)
    assert pass_hat_k(1000, 990, 100) == pytest.approx(
        float(_exact_pass_hat_k(1000, 990, 100)), rel=1e-12
    )


def test_edge_cases_are_exact() -> None:
    assert pass_at_k(10, 0, 3) == 0.0
    assert pass_at_k(5, 4, 2) == 1.0  # n − c = 1 < k: every pair holds a success
    assert pass_at_k(3, 3, 3) == 1.0
    assert pass_hat_k(5, 1, 2) == 0.0  # fewer successes than k
    assert pass_hat_k(4, 4, 3) == 1.0


def test_fewer_attempts_than_k_is_an_error_that_says_so() -> None:
    with pytest.raises(ValueError, match=r"at least k attempts.*n=2.*k=3"):
        pass_at_k(2, 1, 3)
    with pytest.raises(ValueError, match="at least k attempts"):
        pass_hat_k(2, 1, 3)


@pytest.mark.parametrize(("n", "c", "k"), [(5, 6, 1), (5, -1, 1), (5, 2, 0)])
def test_invalid_counts_raise(n: int, c: int, k: int) -> None:
    with pytest.raises(ValueError):
        pass_at_k(n, c, k)


def test_float_counts_are_rejected() -> None:
    with pytest.raises(TypeError):
        pass_at_k(5.0, 2, 2)  # type: ignore[arg-type]


def test_mean_over_problems() -> None:
    # pass@2: 7/10 and 1 − C(3, 2)/C(4, 2) = 1/2, mean 3/5; pass^2: 1/10 and 0, mean 1/20
    assert mean_pass_at_k([5, 4], [2, 1], 2) == pytest.approx(0.6, rel=1e-15)
    assert mean_pass_at_k([5, 4], [2, 1], 2, estimator="pass^k") == pytest.approx(0.05, rel=1e-15)
    with pytest.raises(ValueError, match="differ in length"):
        mean_pass_at_k([5, 4], [2], 2)
    with pytest.raises(ValueError, match="no problems"):
        mean_pass_at_k([], [], 2)


def test_interval_contains_the_estimate_and_is_reproducible() -> None:
    n = [10] * 12
    c = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 3]
    first = pass_at_k_interval(n, c, 3, seed=7, reps=500)
    again = pass_at_k_interval(n, c, 3, seed=7, reps=500)
    other = pass_at_k_interval(n, c, 3, seed=8, reps=500)
    assert first == again
    assert (first.low, first.high) != (other.low, other.high)
    assert first.contains(first.estimate)
    assert first.low < first.estimate < first.high
    assert first.estimate == pytest.approx(mean_pass_at_k(n, c, 3))


def test_interval_collapses_when_every_problem_scores_the_same() -> None:
    interval = pass_at_k_interval([5, 5, 5], [2, 2, 2], 2, reps=100)
    assert interval.low == interval.high == pytest.approx(0.7)


def _problem_records() -> list:
    return [
        # problem (kwargs {}, seed 0): n = 3, c = 1
        make_record(seed=0, attempt=0, success=True),
        make_record(seed=0, attempt=1, success=False),
        make_record(seed=0, attempt=2, success=None),
        # problem (kwargs {}, seed 1): n = 3, c = 2, plus an infrastructure error
        make_record(seed=1, attempt=0, success=True),
        make_record(seed=1, attempt=1, success=True),
        make_record(seed=1, attempt=2, success=True, infra_error="sandbox lost"),
        make_record(seed=1, attempt=3, success=False),
        # problem (kwargs {"a": 1, "b": 2}, seed 0), keys written in two orders: n = 2, c = 0
        make_record(seed=0, attempt=0, success=False, env_kwargs={"a": 1, "b": 2}),
        make_record(seed=0, attempt=1, success=False, env_kwargs={"b": 2, "a": 1}),
    ]


def test_count_attempts_groups_problems_and_sets_infra_errors_apart() -> None:
    counts = {
        (p.problem[2], p.problem[3]): (p.n, p.c, p.infra_errors)
        for p in count_attempts(_problem_records())
    }
    assert counts == {("{}", 0): (3, 1, 0), ("{}", 1): (3, 2, 1), ('{"a":1,"b":2}', 0): (2, 0, 0)}


def test_pass_at_k_from_records_by_hand() -> None:
    result = pass_at_k_from_records(_problem_records(), 2, reps=200)
    # pass@2 per problem: 1 − C(2,2)/C(3,2) = 2/3, 1 (n − c < k), 0
    assert result.pass_at_k.estimate == pytest.approx(float(Fraction(5, 9)), rel=1e-14)
    # pass^2 per problem: 0, C(2,2)/C(3,2) = 1/3, 0
    assert result.pass_hat_k.estimate == pytest.approx(float(Fraction(1, 9)), rel=1e-14)
    assert (result.n_problems, result.n_attempts, result.n_successes, result.n_infra_errors) == (
        3,
        8,
        3,
        1,
    )
    assert result.pass_at_k.contains(result.pass_at_k.estimate)


def test_records_short_of_k_attempts_name_the_problem() -> None:
    records = [*_problem_records(), make_record(seed=5, attempt=0, success=True)]
    with pytest.raises(ValueError, match=r"pass@2 needs at least 2 attempts.*n=1"):
        pass_at_k_from_records(records, 2)


def test_records_from_two_agents_or_doubled_episodes_are_refused() -> None:
    with pytest.raises(ValueError, match="several agents"):
        count_attempts([make_record(agent_id="x"), make_record(agent_id="y", seed=1)])
    with pytest.raises(ValueError, match="recorded twice"):
        count_attempts([make_record(success=True), make_record(success=False)])
