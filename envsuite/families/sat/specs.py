"""Registry entries of the SAT family (imports nothing heavy)."""

from envsuite.registry import EnvSpec, register

_PACKAGE = "envsuite.families.sat"
#: A small dataset file shipped in ``datasets/`` (built by ``envsuite datasets build sat``).
_SHIPPED_TEST_FILE = "sat/envsuite-sat-2.6k/v1/test/n3_k5_length20_sample100.jsonl"
#: A short in-memory curriculum for the conformance kit.
_TEST_CURRICULUM = {"ladder": ["n3-k4-l4", "n3-k5-l13"], "k": 1, "window": 3, "attempts": 1}

register(
    EnvSpec(
        id="envsuite/SAT-v0",
        entry_point=f"{_PACKAGE}.sat_env:SATEnv",
        family="sat",
        api="gymnasium",
        description="SATURN's SAT task: one k-SAT instance, one boxed answer, reward by rule.",
        extra="sat",
        oracle=f"{_PACKAGE}.solver_oracle:sat_oracle",
        oracle_success=1.0,
        test_variants=(
            {"prompt_format": "dimacs", "answer_parser": "strict"},
            {"prompt_format": "english", "generator": "random", "clause_ratio": 4.0},
            {"task": "decide", "num_vars": 8, "num_clauses": 34},
            {"unique_solution": True, "num_vars": 6, "num_clauses": 30},
            {"num_vars": 30, "clause_ratio": 4.2, "prompt_format": "english"},
            {"dataset_file": _SHIPPED_TEST_FILE},
            {"curriculum": _TEST_CURRICULUM},
        ),
    )
)

register(
    EnvSpec(
        id="envsuite/SATInteractive-v0",
        entry_point=f"{_PACKAGE}.interactive_env:SATInteractiveEnv",
        family="sat",
        api="gymnasium",
        description="Multi-turn SAT: assign or set variables, told which clauses are violated.",
        extra="sat",
        oracle=f"{_PACKAGE}.solver_oracle:interactive_oracle",
        oracle_success=1.0,
        test_kwargs={"max_turns": 8},
        test_variants=(
            {"prompt_format": "dimacs"},
            {"prompt_format": "english", "num_vars": 30, "clause_ratio": 4.0},
            {"generator": "random", "unique_solution": True, "num_vars": 6, "num_clauses": 28},
            {"curriculum": _TEST_CURRICULUM},
        ),
    )
)
