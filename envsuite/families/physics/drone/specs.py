"""Registry entries of the quadcopter envs (imports nothing heavy: no PyBullet here)."""

from envsuite.registry import EnvSpec, register

_PACKAGE = "envsuite.families.physics.drone"

register(
    EnvSpec(
        id="envsuite/DroneHover-v0",
        entry_point=f"{_PACKAGE}.hover:DroneHoverEnv",
        vector_entry_point=f"{_PACKAGE}.batch_env:DroneHoverBatchedVectorEnv",
        family="physics",
        api="gymnasium",
        description="Quadcopter (Crazyflie 2.x or racer) hovering at a point; PyBullet physics.",
        extra="physics",
        oracle=f"{_PACKAGE}.oracle:drone_oracle",
        oracle_success=0.9,
        test_kwargs={"episode_len_sec": 4.0},
        test_variants=(
            {"action_type": "pid", "physics": "dyn"},
            {"action_type": "vel", "physics": "pyb_gnd_drag_dw", "action_buffer": 3},
            {"action_type": "ctbr", "drone_model": "cf2p"},
            {"action_type": "one_d_rpm", "physics": "pyb_gnd"},
            {"drone_model": "racer", "physics": "pyb_drag", "ctrl_freq": 48},
            {"domain_randomization": True, "wind": True, "episode_len_sec": 6.0},
            {"observation_type": "kin_rgb", "image_size": [32, 24]},
        ),
    )
)

register(
    EnvSpec(
        id="envsuite/DroneWaypoints-v0",
        entry_point=f"{_PACKAGE}.waypoints:DroneWaypointsEnv",
        vector_entry_point=f"{_PACKAGE}.batch_env:DroneWaypointsBatchedVectorEnv",
        family="physics",
        api="gymnasium",
        description="Quadcopter tracking a minimum-jerk trajectory through random waypoints.",
        extra="physics",
        oracle=f"{_PACKAGE}.oracle:drone_oracle",
        oracle_success=0.9,
        test_kwargs={"num_waypoints": 2, "hold_sec": 0.3},
        test_variants=(
            {"action_type": "pid", "physics": "dyn_gnd_drag_dw"},
            {"action_type": "vel"},
            {"action_type": "ctbr", "physics": "pyb_drag", "action_buffer": 2},
            {"drone_model": "racer", "speed": 2.0, "ctrl_freq": 60},
            {"drone_model": "cf2p", "domain_randomization": True, "wind": {"max_speed": 0.5}},
            {"observation_type": "rgb", "image_size": [24, 16]},
        ),
    )
)

register(
    EnvSpec(
        id="envsuite/DroneGate-v0",
        entry_point=f"{_PACKAGE}.gate:DroneGateEnv",
        vector_entry_point=f"{_PACKAGE}.batch_env:DroneGateBatchedVectorEnv",
        family="physics",
        api="gymnasium",
        description="Quadcopter flying a random course of gates in order.",
        extra="physics",
        oracle=f"{_PACKAGE}.oracle:drone_oracle",
        oracle_success=0.8,
        test_kwargs={"num_gates": 2, "episode_len_sec": 10.0},
        test_variants=(
            {"action_type": "pid", "physics": "dyn"},
            {"action_type": "vel", "physics": "pyb_gnd_drag_dw"},
            {"action_type": "ctbr", "drone_model": "racer"},
            {"drone_model": "cf2p", "domain_randomization": True, "wind": {"max_speed": 0.5}},
            {"observation_type": "kin_rgb", "image_size": [32, 24], "action_buffer": 2},
        ),
    )
)

register(
    EnvSpec(
        id="envsuite/DroneSwarm-v0",
        entry_point=f"{_PACKAGE}.swarm:DroneSwarmEnv",
        family="physics",
        api="parallel",
        description="N quadcopters keeping a formation or following a leader (PettingZoo).",
        extra="physics",
        oracle=f"{_PACKAGE}.oracle:swarm_oracle",
        oracle_success=0.9,
        test_kwargs={"num_drones": 3, "episode_len_sec": 4.0},
        test_variants=(
            {"task": "leader", "formation": "v", "physics": "pyb_dw"},
            {"formation": "line", "physics": "dyn_gnd_drag_dw", "action_type": "pid"},
            {"formation": "grid", "num_drones": 4, "action_type": "vel", "action_buffer": 2},
            {"action_type": "ctbr", "domain_randomization": True, "wind": {"max_speed": 0.5}},
            {"observation_type": "kin_rgb", "image_size": [24, 16], "num_neighbours": 1},
        ),
    )
)
