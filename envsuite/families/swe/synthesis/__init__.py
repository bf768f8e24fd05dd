"""Synthesising SWE problems the SWE-smith way: break working code, keep what tests catch.

Small pure-Python libraries whose source distributions include their tests
(:mod:`.libraries`) are mutated by AST edits (:mod:`.mutators`); a mutation becomes a problem
only if some tests that passed now fail, the reverse patch resolves it three times in a
row and the empty patch does not (:mod:`.validate`). :mod:`.build` writes the dataset.
"""
