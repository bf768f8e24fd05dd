"""Saturn-2.6k (SATURN's released data) through envsuite, read from ../shared/anchors/saturn/."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("pysat")  # the sat extra; CI installs it and wants failures, not skips

import envsuite
from envsuite.families.sat.formats import render_prompt
from envsuite.families.sat.saturn_jsonl import (
    DatasetFileError,
    read_saturn_jsonl,
)

ANCHOR = Path(__file__).resolve().parents[3].parent / "shared" / "anchors" / "saturn"
FILES = sorted(ANCHOR.glob("t*/**/*.jsonl")) if ANCHOR.is_dir() else []
needs_saturn = pytest.mark.skipif(not FILES, reason=f"Saturn-2.6k is not at {ANCHOR}")


@needs_saturn
def test_saturn_26k_has_its_2580_instances():
    assert len(FILES) == 18
    assert sum(len(read_saturn_jsonl(path)) for path in FILES) == 2580


@needs_saturn
@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ANCHOR)))
def test_every_instance_loads_scores_and_prompts_like_saturn(path):
    records = read_saturn_jsonl(path)
    env = envsuite.make("envsuite/SAT-v0", dataset_file=str(path))
    flips_checked = 0
    for index, record in enumerate(records):
        observation, info = env.reset(options={"instance": index})
        # envsuite's prompt for the instance is SATURN's, byte for byte.
        assert observation == record.prompt
        assert render_prompt(record.formula, record.n_sat, "saturn", "solve") == record.prompt
        assert info["num_vars"] == record.formula.num_vars and info["num_solutions"] >= 1
        _, reward, terminated, _, info = env.step(f"Thus \\boxed{{{record.solution}}}")
        assert (reward, terminated, info["success"]) == (1.0, True, True)
        for bit in range(len(record.solution)):
            flipped = (
                record.solution[:bit]
                + ("0" if record.solution[bit] == "1" else "1")
                + record.solution[bit + 1 :]
            )
            if record.formula.violated(flipped):
                env.reset(options={"instance": index})
                _, reward, _, _, info = env.step(f"\\boxed{{{flipped}}}")
                assert (reward, info["success"]) == (0.0, False)
                assert info["violated_clauses"] >= 1
                flips_checked += 1
                break
    # Planted solutions almost always have a variable some clause depends on alone.
    assert flips_checked >= 0.9 * len(records)


@needs_saturn
def test_seed_i_serves_line_i():
    path = ANCHOR / "test" / "n3_k5_length20_sample100.jsonl"
    records = read_saturn_jsonl(path)
    env = envsuite.make("envsuite/SAT-v0", dataset_file=str(path))
    for seed in (0, 7, 99, 100):
        observation, info = env.reset(seed=seed)
        assert observation == records[seed % 100].prompt
        assert info["source"] == f"{path.name}#{records[seed % 100].id}"


def test_corrupt_lines_are_reported_with_their_line_number(tmp_path):
    good = '{"id": 0, "n_sat": 2, "k": 3, "solution": "011", "clause": "AB & !AC"}'
    cases = {
        "not json": "{oops",
        "missing": '{"id": 1, "n_sat": 2, "k": 3, "clause": "AB"}',
        "solution length": '{"id": 1, "n_sat": 2, "k": 3, "solution": "1", "clause": "AB"}',
        "unknown variable": '{"id": 1, "n_sat": 2, "k": 3, "solution": "110", "clause": "AZ"}',
        "width": '{"id": 1, "n_sat": 3, "k": 3, "solution": "110", "clause": "AB"}',
        "violates": '{"id": 1, "n_sat": 2, "k": 3, "solution": "000", "clause": "AB"}',
    }
    messages = {
        "not json": "not valid JSON",
        "missing": "missing solution",
        "solution length": "3 characters of 0/1",
        "unknown variable": "not one of the 3 variables",
        "width": "not 3 distinct variables",
        "violates": "violates clause 1",
    }
    for name, line in cases.items():
        path = tmp_path / f"{name}.jsonl"
        path.write_text(good + "\n" + line + "\n")
        with pytest.raises(DatasetFileError, match=messages[name]) as caught:
            read_saturn_jsonl(path)
        assert f"{path}:2" in str(caught.value)
    with pytest.raises(DatasetFileError, match="does not exist"):
        read_saturn_jsonl(tmp_path / "absent.jsonl")
    (tmp_path / "empty.jsonl").write_text("\n")
    with pytest.raises(DatasetFileError, match="no instances"):
        read_saturn_jsonl(tmp_path / "empty.jsonl")
