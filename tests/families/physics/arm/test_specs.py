"""The arm specs: registered, light to import, and complete."""

from __future__ import annotations

import subprocess
import sys

import envsuite

IDS = ["envsuite/ArmReach-v0", "envsuite/ArmPush-v0", "envsuite/ArmPickPlace-v0"]


def test_the_arm_specs_are_registered_with_their_extra_and_oracle():
    for env_id in IDS:
        spec = envsuite.spec(env_id)
        assert spec.family == "physics" and spec.extra == "physics"
        assert spec.oracle is not None and spec.oracle_success >= 0.8
        assert spec.max_episode_steps is not None
        variants = [dict(v) for v in spec.test_variants]
        assert {"terminate_on_success": True} in variants
        assert any(v.get("observation_mode") == "goal_dict" for v in variants)
        assert {"goal_observable": False} in variants


def test_registering_the_specs_does_not_import_mujoco():
    code = "import sys, envsuite; print('mujoco' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"
