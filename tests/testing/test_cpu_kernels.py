"""The kernel-choice helpers: which cases differ between kernel choices."""

from __future__ import annotations

import json

import pytest

from envsuite.testing.cpu_kernels import disagreements, kernel_choices, outputs_under_kernels


def test_disagreements_name_each_differing_case_and_choice():
    outputs = {
        "default": json.dumps(["a", "b", "c"]),
        "Haswell": json.dumps(["a", "x", "c"]),
        "baseline": json.dumps(["a", "y", "z"]),
    }
    found = disagreements(outputs, ["one", "two", "three"])
    assert found == {"two": ["Haswell", "baseline"], "three": ["baseline"]}
    assert disagreements({name: json.dumps([1, 2]) for name in "abc"}, ["p", "q"]) == {}


def test_disagreements_refuse_an_output_of_the_wrong_length():
    with pytest.raises(ValueError, match="list of 2 values"):
        disagreements({"default": json.dumps(["a"])}, ["one", "two"])


def test_every_kernel_choice_runs_the_code():
    outputs = outputs_under_kernels(
        "import json, sys; print(json.dumps([sys.stdin.read()]))", stdin="ok"
    )
    assert set(outputs) == set(kernel_choices())
    assert disagreements(outputs, ["stdin"]) == {}
    assert json.loads(next(iter(outputs.values()))) == ["ok"]
