import ast
import difflib

from envsuite.families.swe.synthesis.mutators import MUTATOR_KINDS, candidate_mutations

SOURCE = '''\
def clamp(x, low, high):
    """Clamp x."""
    if x < low and low is not None:
        return low
    total = x + 1
    result = max(low, min(x, high))
    log(result)
    return result - 0


def only(items):
    items.sort()
'''


def test_every_kind_is_proposed_and_each_is_a_small_valid_change():
    mutations = candidate_mutations("m.py", SOURCE)
    assert {m.kind for m in mutations} == set(MUTATOR_KINDS)
    for mutation in mutations:
        ast.parse(mutation.source)
        changed = [
            line
            for line in difflib.unified_diff(SOURCE.splitlines(), mutation.source.splitlines(), n=0)
            if line[:1] in "+-" and not line.startswith(("+++", "---"))
        ]
        assert 1 <= len(changed) <= 2, (mutation.kind, changed)


def test_specific_edits():
    by_description = {m.description: m for m in candidate_mutations("m.py", SOURCE)}
    assert "if x <= low and" in by_description["`<` -> `<=`"].source
    assert "x < low or low" in by_description["`and` -> `or`"].source
    dropped = [m for m in candidate_mutations("m.py", SOURCE) if m.kind == "dropped_statement"]
    assert any("    pass\n" in m.source and "items.sort()" not in m.source for m in dropped)
    assert not any('"""Clamp x."""' not in m.source for m in dropped)  # docstrings stay


def test_the_order_is_deterministic():
    assert candidate_mutations("m.py", SOURCE) == candidate_mutations("m.py", SOURCE)
