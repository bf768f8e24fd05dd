"""What a free-text speech says of one player: an accusation or a vouch, read by words.

The belief-tracking listeners of the speaking reward read structured acts (votes,
accusations, claims, proposals); free text needs a reader. This one is deliberately
small and conservative, so a listener is moved only by a speech whose meaning is plain:

- the speech must name exactly one player other than the speaker (whole words, any case);
- it must hold words of exactly one of the game's two lists: *accusing* words (Avalon:
  "evil", "suspect", ...; Among Us: "impostor", "sus", ...) or *vouching* words ("good",
  "trust", "crewmate", ...);
- a negation anywhere ("not", "never", "don't", ...) flips the stance.

Anything else (no name, two names, both kinds of words, neither) says nothing. No model
is involved, so the reader is deterministic and free; it misses irony and long
arguments, which is the price of needing none.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

#: Words that flip a stance ("Bob is not evil").
NEGATIONS = frozenset(["not", "never", "dont", "don't", "isn't", "isnt"])
_WORD = re.compile(r"[a-z']+")


def speech_stance(
    text: str,
    names: Sequence[str],
    speaker: int,
    accusing: Collection[str],
    vouching: Collection[str],
) -> tuple[int, bool] | None:
    """``(seat, True)`` when ``text`` accuses one player, ``(seat, False)`` when it vouches.

    Args:
        text: The speech.
        names: The players' names, by seat.
        speaker: The speaker's seat (its own name is not a subject).
        accusing: Lower-case words that make the speech an accusation.
        vouching: Lower-case words that make it a vouch.

    Returns:
        The one player named and whether the speech accuses it, or None (see the module).
    """
    words = _WORD.findall(text.lower())
    seats = {seat for seat, name in enumerate(names) if seat != speaker and name.lower() in words}
    accuses = any(word in accusing for word in words)
    vouches = any(word in vouching for word in words)
    if len(seats) != 1 or accuses == vouches:
        return None
    negated = any(word in NEGATIONS for word in words)
    return seats.pop(), accuses != negated
