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
        oracle=f"{_PACKAGE}.bandit_oracle:bandit_oracle",
        oracle_success=0.8,
        test_kwargs={"horizon": 100},
        test_variants=(
            {"observation_mode": "vector"},
            {"arm_type": "gaussian", "horizon": 300, "text_history": "summary"},
            {"num_arms": 20, "horizon": 300, "text_history": "full"},
            # Fixed means draw nothing at reset: the steps' generator must exist all the same.
            {"num_arms": 3, "arm_means": [0.2, 0.5, 0.8], "observation_mode": "vector"},
            {"arm_type": "gaussian", "num_arms": 3, "arm_means": [-1.0, 0.0, 1.0]},
        ),
    )
)

register(
    EnvSpec(
        id="envsuite/ContextualBandit-v0",
        entry_point=f"{_PACKAGE}.contextual_bandit:ContextualBanditEnv",
        family="decision",
        api="gymnasium",
        description="Linear contextual bandit (disjoint model), K arms, d-dim contexts.",
        oracle=f"{_PACKAGE}.linucb_oracle:linucb_oracle",
        oracle_success=1.0,
        test_kwargs={"horizon": 100},
        test_variants=(
            {"observation_mode": "vector"},
            {"num_arms": 10, "context_dim": 10, "horizon": 300, "text_history": "full"},
            {"observation_mode": "vector", "noise_std": 0.5, "horizon": 300},
        ),
    )
)

register(
    EnvSpec(
        id="envsuite/Experts-v0",
        entry_point=f"{_PACKAGE}.experts:ExpertsEnv",
        family="decision",
        api="gymnasium",
        description="Prediction with expert advice: iid, trend, sinusoidal or adversarial losses.",
        oracle=f"{_PACKAGE}.hedge_oracle:hedge_oracle",
        oracle_success=1.0,
        test_kwargs={"horizon": 50},
        test_variants=(
            {"observation_mode": "vector", "loss_sequence": "adversarial"},
            {"loss_sequence": "trend"},
            {"observation_mode": "vector", "loss_sequence": "sinusoidal", "period": 20},
            {"loss_sequence": "adversarial", "num_actions": 10, "horizon": 200},
        ),
    )
)

register(
    EnvSpec(
        id="envsuite/RepeatedGame-v0",
        entry_point=f"{_PACKAGE}.repeated_game:RepeatedGameEnv",
        family="decision",
        api="parallel",
        description="Repeated two-player matrix games (PD, pennies, RPS, BoS, stag hunt, custom).",
        oracle=f"{_PACKAGE}.repeated_game_oracle:repeated_game_oracle",
        oracle_success=1.0,
        test_kwargs={"horizon": 40},
        test_variants=(
            {"observation_mode": "vector"},
            {"game": "matching_pennies"},
            {"game": "rock_paper_scissors", "observation_mode": "vector"},
            {"game": "rock_paper_scissors"},
            {"game": "battle_of_the_sexes", "observation_mode": "vector"},
            {"game": "stag_hunt"},
            {
                "game": "custom",
                "payoffs": [[3, 0], [1, 2], [0, 4]],
                "column_payoffs": [[1, 3], [2, 0], [0, 1]],
                "action_names": [["left", "middle", "right"], ["up", "down"]],
            },
        ),
    )
)

register(
    EnvSpec(
        id="envsuite/Nim-v0",
        entry_point=f"{_PACKAGE}.nim:NimEnv",
        family="decision",
        api="aec",
        description="Nim, turn-based two-player (AEC): normal or misère play; text or vector.",
        oracle=f"{_PACKAGE}.nim_oracle:nim_oracle",
        oracle_success=1.0,
        test_variants=(
            {"observation_mode": "vector"},
            {"observation_mode": "vector", "random_start": True, "heaps": [5, 6, 7, 8]},
            {"misere": True, "random_start": True},
        ),
    )
)
