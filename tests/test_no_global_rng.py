"""envsuite never touches the global random generators (the conformance kit also checks this
dynamically for every env; this scan catches the code paths no rollout reaches)."""

from __future__ import annotations

import re
from pathlib import Path

import envsuite

FORBIDDEN = re.compile(
    r"\brandom\.(seed|random|randint|choice|choices|shuffle|sample|uniform|gauss|getrandbits)\("
    r"|\bnp\.random\.(seed|rand|randn|randint|random|choice|shuffle|permutation|normal|uniform"
    r"|binomial|poisson|beta|exponential|get_state|set_state)\("
    r"|\bnumpy\.random\.(seed|rand|randn|randint|random|choice|shuffle|normal|uniform)\("
)


def test_package_source_never_uses_the_global_generators():
    root = Path(envsuite.__file__).parent
    offenders = []
    for path in root.rglob("*.py"):
        if path.parts[-2] == "testing" and path.name == "checks.py":
            continue  # the kit snapshots the global state to prove envs leave it alone
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if FORBIDDEN.search(line):
                offenders.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    assert not offenders, "global RNG use:\n" + "\n".join(offenders)


def test_the_scan_would_catch_a_violation():
    assert FORBIDDEN.search("np.random.seed(0)")
    assert FORBIDDEN.search("x = random.choice(items)")
    assert not FORBIDDEN.search("self.np_random.choice(items)")
