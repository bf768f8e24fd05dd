"""Registry entries of the swe family (imports nothing heavy: no docker, no dataset)."""

from envsuite.registry import EnvSpec, register

_PACKAGE = "envsuite.families.swe"

register(
    EnvSpec(
        id="envsuite/SWE-v0",
        entry_point=f"{_PACKAGE}.env:SWEEnv",
        family="swe",
        api="gymnasium",
        description="Fix a repository in a Docker sandbox; hidden tests grade it (SWE-bench).",
        extra="swe",
        oracle=f"{_PACKAGE}.oracle:swe_oracle",
        oracle_success=1.0,
        # The kit runs many episodes: local sandboxes and two small inflection tasks keep
        # it to seconds (the Docker path has its own tests in tests/families/swe).
        test_kwargs={
            "backend": "local",
            "libraries": ["inflection"],
            "task_ids": [
                "inflection__off_by_one-e5eb9d856f",
                "inflection__swap_arguments-289d1d44f4",
            ],
            "step_limit": 20,
        },
        test_variants=({"reward": "similarity"}, {"reward": "dense"}),
    )
)
