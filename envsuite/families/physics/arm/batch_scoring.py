"""Scoring a batch of arm envs in few numpy calls, with :meth:`ArmTask.evaluate`'s bits.

``ArmTask.evaluate`` on ``(n, 3)`` arrays (the ``ARRAY`` numerics) makes about twenty
numpy calls on small temporaries, each costing more than its arithmetic at the batch
sizes a vector env has. :class:`BatchScorer` gives the same results from buffers bound
once: both distances (achieved goal to goal, TCP to cube) in one pass over the two
pairs' differences, both nearness terms in one pass over ``(2, n)``, then the task's
weights, summed in the order every task's ``progress`` sums them (see
:class:`~envsuite.families.physics.arm.task.ArmTask`), and one on success. Every value
is the same IEEE operation on the same operands as in ``evaluate``, so the bits are the
same; a test holds the two to that.
"""

from __future__ import annotations

import numpy as np

from envsuite.families.physics.arm.task import ARRAY, SHAPING_SCALE, ArmTask

# The scorer's numpy names, bound once: numpy has a module ``__getattr__``, so Python
# cannot cache ``np.add`` and looks it up in full on every use.
add, divide, less, multiply = np.add, np.divide, np.less, np.multiply
copyto, sqrt, subtract = np.copyto, np.sqrt, np.subtract


class BatchScorer:
    """``task.evaluate(tcp, cube, goals, ARRAY)`` for arrays that never move.

    The work arrays hold one row per coordinate and one column per env, and the inputs
    are read through their transposes: with the ``(3, n)`` rows the batched env keeps
    (its arrays are transposes of those), every operand is contiguous.

    Args:
        task: The task.
        tcp: TCP positions, ``(n, 3)``.
        cube: Cube positions, ``(n, 3)``.
        goals: Goals, ``(n, 3)``.
    """

    def __init__(self, task: ArmTask, tcp: np.ndarray, cube: np.ndarray, goals: np.ndarray):
        n = tcp.shape[0]
        self.task = task
        self._cube = cube
        self._tcp_rows, self._cube_rows, self._goal_rows = tcp.T, cube.T, goals.T
        self._achieved_rows = task.achieved(tcp, cube).T
        # Pair 0: achieved goal - goal; pair 1: TCP - cube (Reach leaves it zero). The
        # differences are written pair by pair, each into a contiguous block, and their
        # squares coordinate by coordinate, so that the sums read contiguous blocks too:
        # numpy iterates any other layout with a general iterator, which costs more than
        # the call. One call, the squaring, crosses from one layout to the other.
        self._pairs = np.zeros((2, 3, n))
        self._squares = np.zeros((3, 2, n))
        self._squares_by_pair = self._squares.transpose(1, 0, 2)
        self._goal_pair, self._cube_pair = self._pairs
        self._distances = np.zeros((2, n))
        self._terms = np.zeros((2, n))
        # Rows bound once: unpacking an array raises and catches an IndexError each time.
        self._square_rows = tuple(self._squares)
        self._goal_distance, self._term_rows = self._distances[0], tuple(self._terms)
        self._with_cube = bool(task.tcp_cube_weight)
        # Constants as arrays: numpy converts a Python float on every call.
        self._weights = np.repeat([[task.goal_weight], [task.tcp_cube_weight]], n, axis=1)
        self._scale = np.full((2, n), SHAPING_SCALE)
        self._success_distance = np.full(n, task.success_distance)
        self._ones = np.ones(n)

    def evaluate(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(score, success, goal distance)`` of every env, each a new array."""
        pairs, distances, terms = self._pairs, self._distances, self._terms
        # Outputs given as positional arguments: numpy parses keywords on every call.
        subtract(self._achieved_rows, self._goal_rows, self._goal_pair)
        if self._with_cube:
            subtract(self._tcp_rows, self._cube_rows, self._cube_pair)
        multiply(pairs, pairs, self._squares_by_pair)
        x, y, z = self._square_rows
        add(x, y, distances)  # (x² + y²) + z², as the task's distance
        add(distances, z, distances)
        sqrt(distances, distances)
        goal_distance = self._goal_distance.copy()
        success = less(goal_distance, self._success_distance)
        # nearness, s / (s + d); then weight × nearness, as progress has it
        add(self._scale, distances, terms)
        divide(self._scale, terms, terms)
        multiply(terms, self._weights, terms)
        task = self.task
        goal_term, cube_term = self._term_rows
        score: np.ndarray
        if self._with_cube:
            if task.lift_weight:
                score = add(cube_term, task.lift_weight * task.lift(self._cube, ARRAY))
                score += goal_term
            else:
                score = add(cube_term, goal_term)
        else:
            score = goal_term.copy()
        # One on success, the progress elsewhere: np.where's work, in place on the new
        # array, for a third of its cost.
        copyto(score, self._ones, where=success)
        return score, success, goal_distance
