"""The verifiers plugin of envsuite: ``vf-eval envsuite-verifiers --env.taskset.env-id ID``.

verifiers finds a taskset by importing a top-level module named after its id
(``envsuite-verifiers`` -> ``envsuite_verifiers``) and reading the ``Taskset``, ``Env`` and
``Harness`` subclasses it exports, so this package only re-exports the adapter, which lives
in :mod:`envsuite.trainers.verifiers_env`.
"""

from envsuite.trainers.verifiers_env import (
    EnvsuiteChatHarness,
    EnvsuiteEnv,
    EnvsuiteTaskset,
    load_environment,
)

__all__ = ["EnvsuiteChatHarness", "EnvsuiteEnv", "EnvsuiteTaskset", "load_environment"]
