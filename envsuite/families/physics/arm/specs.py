"""Registry entries of the arm envs (imports nothing heavy: no MuJoCo here)."""

from envsuite.registry import EnvSpec, register

_PACKAGE = "envsuite.families.physics.arm"
#: Options every arm spec's conformance run also covers.
_VARIANTS: tuple[dict[str, object], ...] = (
    {"terminate_on_success": True},
    {"observation_mode": "goal_dict", "reward_type": "sparse"},
    {"observation_mode": "goal_dict"},
    {"goal_observable": False},
)

register(
    EnvSpec(
        id="envsuite/ArmReach-v0",
        entry_point=f"{_PACKAGE}.reach:ArmReachEnv",
        vector_entry_point=f"{_PACKAGE}.batched_vector_env:ArmReachBatchedVectorEnv",
        family="physics",
        api="gymnasium",
        description="MuJoCo robot arm: move the gripper to a goal point (Meta-World reach).",
        max_episode_steps=200,
        extra="physics",
        oracle=f"{_PACKAGE}.scripted_oracle:arm_oracle",
        oracle_success=0.9,
        test_variants=_VARIANTS,
    )
)

register(
    EnvSpec(
        id="envsuite/ArmPush-v0",
        entry_point=f"{_PACKAGE}.push:ArmPushEnv",
        vector_entry_point=f"{_PACKAGE}.batched_vector_env:ArmPushBatchedVectorEnv",
        family="physics",
        api="gymnasium",
        description="MuJoCo robot arm: push a cube across the table to a goal.",
        max_episode_steps=200,
        extra="physics",
        oracle=f"{_PACKAGE}.scripted_oracle:arm_oracle",
        oracle_success=0.8,
        test_variants=_VARIANTS,
    )
)

register(
    EnvSpec(
        id="envsuite/ArmPickPlace-v0",
        entry_point=f"{_PACKAGE}.pick_place:ArmPickPlaceEnv",
        vector_entry_point=f"{_PACKAGE}.batched_vector_env:ArmPickPlaceBatchedVectorEnv",
        family="physics",
        api="gymnasium",
        description="MuJoCo robot arm: grasp a cube and hold it at a goal in the air.",
        max_episode_steps=250,
        extra="physics",
        oracle=f"{_PACKAGE}.scripted_oracle:arm_oracle",
        oracle_success=0.8,
        test_variants=_VARIANTS,
    )
)
