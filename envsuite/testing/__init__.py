"""envsuite's conformance kit, shipped in the package so anyone adding an env runs it.

Run every check on one spec::

    from envsuite.testing import run_conformance
    run_conformance(envsuite.spec("envsuite/Bandit-v0"))

or parametrise a pytest module over ``conformance_cases()`` as envsuite's own tests do.
"""

from envsuite.testing.checks import ConformanceError
from envsuite.testing.suite import checks_for, conformance_cases, run_conformance

__all__ = ["ConformanceError", "checks_for", "conformance_cases", "run_conformance"]
