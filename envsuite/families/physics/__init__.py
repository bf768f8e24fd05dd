"""Physics environments: quadcopters in PyBullet (drone/) and a robot arm in MuJoCo (arm/)."""
