"""Environment families. Importing this package registers every family's specs.

Each family registers its specs from a light ``specs`` module, so ``import envsuite`` never
imports a family's heavy dependencies; those load when an env is made.
"""

from envsuite.families.decision import specs as _decision_specs  # noqa: F401
