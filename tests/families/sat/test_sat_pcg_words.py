"""Draws rebuilt from raw PCG64 words equal numpy's, and the reset's caches change nothing.

SAT-v0's reset draws its planted instance from one ``random_raw`` call
(:mod:`envsuite.families.sat.pcg_words`); these tests hold that reconstruction to numpy's
own ``integers`` and ``random``, generator state included, and check that the draws numpy
would retry fall back to numpy's path unchanged.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("pysat")  # the sat extra; CI installs it and wants failures, not skips

from envsuite.families.sat import cnf, planted_ksat, solver
from envsuite.families.sat.cnf import clause_string, clause_strings
from envsuite.families.sat.levels import Level
from envsuite.families.sat.pcg_words import (
    Run,
    advance_constants,
    finish,
    lemire_rejects,
    word_layout,
)
from envsuite.families.sat.planted_ksat import planted_batch, planted_instance

RUNS: list[tuple[Run, ...]] = [
    (("half", 5), ("word", 12), ("half", 9)),
    (("half", 4), ("word", 3), ("half", 8)),
    (("word", 3), ("half", 3), ("word", 2), ("half", 1)),
    (("half", 1),),
    (("word", 4),),
]


def _numpy_draws(rng: np.random.Generator, runs: tuple[Run, ...], span: int) -> list[Any]:
    """What numpy draws for ``runs``: ``integers(1, 1 + span)`` halves, ``random`` words."""
    return [
        rng.integers(1, 1 + span, size=count, dtype=np.int64).tolist()
        if kind == "half"
        else rng.random(count).tolist()
        for kind, count in runs
    ]


def _word_draws(rng: np.random.Generator, runs: tuple[Run, ...], span: int) -> list[Any]:
    """The same draws from the words :func:`word_layout` names, then :func:`finish`."""
    bit_generator = rng.bit_generator
    start = bit_generator.state
    layout = word_layout(start["has_uint32"], runs)
    words = bit_generator.random_raw(layout.total)
    halves = words.view(np.uint32)
    drawn = halves[layout.halves].tolist()
    if layout.from_buffer:
        drawn.insert(0, start["uinteger"])
    rejects = lemire_rejects(span)
    assert rejects is not None and rejects.isdisjoint(drawn)  # no retry in these seeds
    out, word_runs = [], iter(layout.words)
    for kind, count in runs:
        if kind == "half":
            out.append([1 + (half * span >> 32) for half in drawn[:count]])
            del drawn[:count]
        else:
            out.append(((words[next(word_runs)] >> 11) * 2.0**-53).tolist())
    finish(bit_generator, layout, halves, start)
    return out


@pytest.mark.parametrize("runs", RUNS, ids=str)
@pytest.mark.parametrize("span", [1, 2, 7, 15])
def test_word_layout_reproduces_numpy_draws_and_state(runs, span):
    for seed in range(20):
        ours, theirs = np.random.default_rng(seed), np.random.default_rng(seed)
        for rng in (ours, theirs):  # odd seeds start with a half in the buffer
            rng.integers(0, 2, size=seed % 2)
        if span == 1:  # numpy's integers(1, 2) draws nothing: only the words are compared
            runs = tuple(run for run in runs if run[0] == "word")
        assert _word_draws(ours, runs, span) == _numpy_draws(theirs, runs, span)
        assert ours.bit_generator.state == theirs.bit_generator.state


def test_lemire_rejects_lists_exactly_the_halves_numpy_redraws():
    for span in (3, 7, 15, 31, 127):
        threshold = (1 << 32) % span
        rejects = lemire_rejects(span)
        assert rejects is not None and len(rejects) == threshold
        assert all(half * span % (1 << 32) < threshold for half in rejects)
    assert lemire_rejects(2) == frozenset()  # 2**32 mod 2 == 0: never redraws
    assert lemire_rejects(6) is None  # even spans are not listed (numpy's path)


class _RejectsEverything(frozenset):  # type: ignore[type-arg]
    def isdisjoint(self, other: Any) -> bool:
        return False


@pytest.mark.parametrize("level", [Level(3, 5, 20), Level(2, 3, 9)], ids=str)
def test_a_draw_numpy_would_retry_falls_back_to_numpy_unchanged(monkeypatch, level):
    monkeypatch.setattr(planted_ksat, "lemire_rejects", lambda span: _RejectsEverything())
    for seed in range(30):
        one, batch = np.random.default_rng(seed), np.random.default_rng(seed)
        one.integers(0, 2, size=seed % 2)
        batch.integers(0, 2, size=seed % 2)
        assert planted_instance(one, level) == planted_batch(batch, level, 1)[0]
        assert one.bit_generator.state == batch.bit_generator.state


@pytest.mark.parametrize("make", [np.random.Philox, np.random.MT19937, np.random.SFC64])
def test_other_bit_generators_take_numpy_path(make):
    level = Level(3, 5, 20)
    one, batch = np.random.Generator(make(3)), np.random.Generator(make(3))
    for _ in range(5):
        assert planted_instance(one, level) == planted_batch(batch, level, 1)[0]


def test_clause_caches_give_the_uncached_spelling_and_count(monkeypatch):
    monkeypatch.setattr(cnf, "CLAUSE_TEXTS_MAX", 3)
    monkeypatch.setattr(solver, "CLAUSE_TRUTHS_MAX", 3)
    masks = solver._literal_masks(6)
    for seed in range(20):
        formula, _ = planted_instance(np.random.default_rng(seed), Level(3, 6, 12))
        assert clause_strings(formula.clauses, 6) == [clause_string(c, 6) for c in formula.clauses]
        alive = (1 << 64) - 1
        for clause in formula.clauses:
            alive &= masks[clause[0]] | masks[clause[1]] | masks[clause[2]]
        assert solver._count_by_enumeration(formula) == alive.bit_count()


#: PCG64 seeded with 0 (as ``default_rng(0)``) yields the half 0 (the high half of this
#: word), which Lemire's method rejects for span 7 (0 * 7 mod 2**32 < 2**32 mod 7 = 4).
REJECTED_WORD = 1_112_387_908


@pytest.mark.parametrize("offset", [197, 200, 209])
def test_a_real_lemire_rejection_in_the_patterns_takes_numpy_path(offset):
    # Level(3, 5, 20) from an empty buffer: 3 words of bits, 190 of keys, then the pattern
    # halves; word `offset` of the draw (193..211) holds pattern halves.
    level = Level(3, 5, 20)

    def positioned() -> np.random.Generator:
        return np.random.Generator(np.random.PCG64(0).advance(REJECTED_WORD - offset))

    probe = positioned()
    before = probe.bit_generator.state
    assert planted_ksat._draw_by_words(probe, level) is None
    assert probe.bit_generator.state == before
    one, batch = positioned(), positioned()
    assert planted_instance(one, level) == planted_batch(batch, level, 1)[0]
    assert one.bit_generator.state == batch.bit_generator.state


@pytest.mark.parametrize("steps", [0, 1, 2, 7, 212, 1000])
def test_advance_constants_step_the_state_as_numpy_does(steps):
    for seed in range(20):
        bit_generator = np.random.PCG64(seed)
        bit_generator.random_raw(seed % 3)
        before = bit_generator.state["state"]
        bit_generator.random_raw(steps)
        a, b = advance_constants(steps)
        after = (a * before["state"] + b * before["inc"]) % (1 << 128)
        assert bit_generator.state["state"] == {"state": after, "inc": before["inc"]}


@pytest.mark.parametrize("span", [1, 3, 7, 15, 31, 4095])
def test_pattern_fields_give_lemire_values_at_every_bound(span):
    bounds, fields = planted_ksat._pattern_fields(span, 10)
    edges = [b + d for b in bounds.tolist() for d in (-1, 0, 1)]
    halves = [0, 1, (1 << 32) - 1, *edges, *np.random.default_rng(span).integers(0, 1 << 32, 500)]
    halves = [h for h in map(int, halves) if 0 <= h < 1 << 32]
    found = fields[bounds.searchsorted(np.array(halves, dtype=np.uint32), side="right")]
    assert found.tolist() == [(1 + (h * span >> 32)) << 10 for h in halves]
