"""The SAT family: verifiable reasoning tasks with controlled difficulty (SATURN and beyond).

Generators (planted and uniform random k-SAT, unique-solution and unsatisfiable
instances), three prompt formats, SATURN-compatible answer parsing and datasets, the
one-turn ``SAT-v0`` and multi-turn ``SATInteractive-v0`` envs, and a pass@k curriculum.
Heavy dependencies (python-sat, the ``sat`` extra) load only when an env or solver is used.
"""
