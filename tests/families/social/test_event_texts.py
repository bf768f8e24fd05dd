"""Kept event texts (``EventTexts``) give Avalon's and Among Us's text views exactly as rebuilt.

The envs keep each seat's event texts across steps; a view from them must equal the view
read from the whole message log, for every seat at every step, with the length limit
large (nothing dropped) or small (the oldest events dropped and counted).
"""

from __future__ import annotations

import numpy as np
import pytest

import envsuite
from envsuite.families.social import amongus_observation, avalon_observation
from envsuite.families.social.event_texts import EventTexts, compose

GAMES = [
    ("envsuite/Avalon-v0", {"num_players": 7}, avalon_observation),
    ("envsuite/AmongUs-v0", {"num_players": 5}, amongus_observation),
]


@pytest.mark.parametrize("limit", [60_000, 2_500, 900])
@pytest.mark.parametrize(("env_id", "kwargs", "module"), GAMES)
def test_kept_event_texts_give_the_rebuilt_view_for_every_seat_at_every_step(
    env_id, kwargs, module, limit
):
    env = envsuite.make(env_id, **kwargs)
    rng = np.random.default_rng(3)
    events = EventTexts()
    for seed in range(2):
        env.reset(seed=seed)
        game = env.unwrapped.game
        rules = module.rules_text(game)
        for step in range(400):
            if not env.agents:
                break
            if step % 3 == 0:  # not every step: a seat's view catches up several at once
                for seat in range(len(env.possible_agents)):
                    error = "bad" if seat == step % 5 else None
                    kept = module.text_view(game, seat, error, ["x"], limit, events, rules)
                    assert kept == module.text_view(game, seat, error, ["x"], limit)
            _, _, terminated, truncated, info = env.last()
            legal = info.get("legal_actions") or ["pass"]
            done = terminated or truncated
            env.step(None if done else legal[int(rng.integers(len(legal)))])


def test_compose_drops_the_oldest_events_and_counts_them():
    events = ["first event", "second event", "third event"]
    whole = compose(["head"], ["tail"], events, 10_000)
    assert whole == "head\nEvents:\nfirst event\nsecond event\nthird event\ntail"
    cut = compose(["head"], ["tail"], events, 60 + 10 + 20)  # room for one event
    assert cut == "head\nEvents:\n(2 earlier events not shown)\nthird event\ntail"
    assert compose(["head"], ["tail"], [], 10_000) == "head\nEvents:\ntail"
