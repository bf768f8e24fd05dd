"""Golden transcripts of Werewolf-v0: fixed seeds and action scripts, one sha256 each.

``golden/Werewolf.json`` holds belief-bot games in text and vector form with a malformed
command, an illegal move (a vote at night, a dead or unknown target, an index out of
range), a ``None`` action and a ``say`` whose text holds a bracketed command. A change to
what the env shows or pays fails here until its version is bumped and the digests renewed
(the failure prints the new digest; :func:`envsuite.testing.golden.transcript_rows` shows
the rows).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from envsuite.testing.golden import transcript_digest

TABLE = json.loads((Path(__file__).parent / "golden" / "Werewolf.json").read_text())


def test_the_table_covers_text_vector_and_refused_actions():
    assert TABLE["env_id"] == "envsuite/Werewolf-v0" and len(TABLE["cases"]) >= 3
    modes = {case["kwargs"].get("observation_mode", "text") for case in TABLE["cases"]}
    assert modes == {"text", "vector"}
    actions = [action for case in TABLE["cases"] for action in case["actions"]]
    assert None in actions and "dance" in actions and 999 in actions


@pytest.mark.parametrize("case", TABLE["cases"], ids=lambda case: str(case["seed"]))
def test_golden_transcript(case):
    digest = transcript_digest(TABLE["env_id"], case["kwargs"], case["seed"], case["actions"])
    assert digest == case["sha256"], (
        f"Werewolf-v0 {case['kwargs']} seed {case['seed']}: the transcript changed (now "
        f"{digest}); bump the env's version if this is intended"
    )
