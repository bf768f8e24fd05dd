"""Upper bounds on the sizes decision envs are made with.

Each env allocates tables per arm and per step when it is made or reset (the contextual
bandit's contexts and means, the experts' losses, every env's regret curve), so an absurd
size must be refused by name in the constructor, before numpy meets it with a MemoryError.
The bounds are far above anything the literature runs (EVOLvE: 20 arms, 1000 steps).
"""

from __future__ import annotations

#: Most arms (or experts' actions): text observations list every one of them.
MAX_ARMS = 10_000
#: Most steps per episode: each is a point of the regret curve every record carries.
MAX_HORIZON = 1_000_000
#: Most cells of a per-step table (horizon x arms, or horizon x context_dim): 80 MB.
MAX_TABLE_CELLS = 10_000_000


def check_at_most(name: str, value: int, limit: int, why: str) -> None:
    """Raise ``ValueError`` naming ``name`` when ``value`` is over ``limit``.

    Args:
        name: The argument (or product of arguments), for the message.
        value: Its value, already checked to be an int.
        limit: The largest allowed value.
        why: What the bound protects, for the message.
    """
    if value > limit:
        raise ValueError(f"{name} must be at most {limit:,} ({why}), got {value!r}")
