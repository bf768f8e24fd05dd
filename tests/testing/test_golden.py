"""The golden-transcript helper plays every form of env to the episode's end, not past it."""

from __future__ import annotations

import json

from envsuite.testing.golden import transcript_digest, transcript_rows

GAME = "envsuite/RepeatedGame-v0"


def test_a_gymnasium_script_stops_when_the_episode_ends():
    rows = transcript_rows("envsuite/Bandit-v0", {"horizon": 3}, seed=0, actions=["red"] * 5)
    assert len(rows) == 1 + 3


def test_a_parallel_spec_is_played_in_the_aec_form_make_gives_it():
    actions = ["cooperate", "defect"] * 5
    rows = transcript_rows(GAME, {"horizon": 3}, seed=0, actions=actions)
    assert len(rows) == 1 + 2 * 3  # three rounds of two moves each, then the episode is over
    assert json.loads(rows[1])[0] == "player_0" and json.loads(rows[2])[0] == "player_1"


def test_a_parallel_script_plays_until_every_agent_is_done():
    joint = {"player_0": "cooperate", "player_1": "defect"}
    rows = transcript_rows(GAME, {"horizon": 3, "parallel": True}, seed=0, actions=[joint] * 5)
    assert len(rows) == 1 + 3  # the flags of a non-final step are a non-empty dict each
    last = json.loads(rows[-1])
    assert all(last[3].values()) or all(last[4].values())


def test_the_digest_depends_on_every_step():
    joint = {"player_0": "cooperate", "player_1": "defect"}
    other = {"player_0": "defect", "player_1": "defect"}
    kwargs = {"horizon": 3, "parallel": True}
    same = transcript_digest(GAME, kwargs, seed=0, actions=[joint] * 3)
    assert transcript_digest(GAME, kwargs, seed=0, actions=[joint] * 3) == same
    assert transcript_digest(GAME, kwargs, seed=0, actions=[joint, joint, other]) != same
