"""Among Us suspicion scores as probabilities: who the impostors are, for one seat.

:class:`~envsuite.families.social.amongus_bots.BeliefBot` keeps a suspicion score per
player (a witnessed kill +100, having been last seen with a victim +2, an accusation
+0.3, ...). Probes and the speaking reward need probabilities, so this module reads the
scores as log-odds of a distribution over impostor sets (a modelling choice, as the
scores are):

Formula:
    ``P(S) ∝ exp(BETA · Σ_{s∈S} suspicion[s])`` over the sets ``S`` of ``num_impostors``
    seats the seat's hard knowledge allows: no seat it knows is crew (itself when a
    crewmate, an ejection revealed as crew, a player it knows was killed: impostors kill
    only crewmates), every seat it knows is an impostor (its fellows, a revealed
    ejection), and at least one member not known dead (the game still runs).
    ``P(s is an impostor) = Σ_{S∋s} P(S)``. If the knowledge rules out every set (a
    contradiction the bot cannot meet in a legal game), the constraints are dropped.

With 10 players and 2 impostors there are 45 sets, so this is a few numpy operations.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Collection, Sequence

import numpy as np

#: How many nats of log-odds one point of suspicion is worth.
BETA = 1.0


@functools.cache
def _sets(n: int, k: int) -> np.ndarray:
    """Boolean ``(C(n, k), n)``: row i marks the seats of the i-th set of ``k`` seats."""
    combos = list(itertools.combinations(range(n), k))
    rows = np.zeros((len(combos), n), dtype=bool)
    for i, combo in enumerate(combos):
        rows[i, list(combo)] = True
    rows.setflags(write=False)
    return rows


def impostor_probabilities(
    suspicion: Sequence[float],
    num_impostors: int,
    crew: Collection[int],
    impostors: Collection[int],
    dead: Collection[int],
) -> np.ndarray:
    """P(seat is an impostor) for each seat (see the module).

    Args:
        suspicion: The suspicion score of each seat.
        num_impostors: Impostors in the game.
        crew: Seats known to be crew.
        impostors: Seats known to be impostors.
        dead: Seats known to be dead (killed or ejected).
    """
    n = len(suspicion)
    sets = _sets(n, num_impostors)
    allowed = np.ones(len(sets), dtype=bool)
    for seat in crew:
        allowed &= ~sets[:, seat]
    for seat in impostors:
        allowed &= sets[:, seat]
    living = np.ones(n, dtype=bool)
    living[list(dead)] = False
    allowed &= (sets & living).any(axis=1)
    if not allowed.any():
        allowed[:] = True
    log_weight = np.where(allowed, BETA * (sets @ np.asarray(suspicion, dtype=float)), -np.inf)
    weight = np.exp(log_weight - log_weight.max())
    return (weight @ sets) / weight.sum()
