"""A robot arm in MuJoCo: reach, push and pick-and-place, with a batched vector env.

The arm's MJCF is written by :mod:`~envsuite.families.physics.arm.model`; the tasks share
one scene and one observation layout (:mod:`~envsuite.families.physics.arm.observation`).
Importing this package does not import MuJoCo; the env modules do, through
:func:`envsuite.registry.import_optional`, so a missing engine names the ``physics`` extra.
"""
