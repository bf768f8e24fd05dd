"""Quadcopters in PyBullet: hover, waypoint tracking, gates, and a PettingZoo swarm."""
