"""Registry entries of the decision family (imports nothing heavy)."""

from envsuite.registry import EnvSpec, register

_PACKAGE = "envsuite.families.decision"

register(
    EnvSpec(
        id="envsuite/Bandit-v0",
        entry_point=f"{_PACKAGE}.bandit:BanditEnv",
        family="decision",
        api="gymnasium",
        description="K-armed Bernoulli/Gaussian bandit with EVOLvE presets; text or vector.",
        oracle=f"{_PACKAGE}.bandit_policies:bandit_oracle",
        oracle_success=0.8,
        test_kwargs={"horizon": 100},
        test_variants=(
            {"observation_mode": "vector"},
            {"arm_type": "gaussian", "horizon": 300, "text_history": "summary"},
            {"num_arms": 20, "horizon": 300, "text_history": "full"},
        ),
    )
)
