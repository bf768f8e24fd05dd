"""An exact check: the crew's win probability under uniformly random play, by dynamic
programming over game states, against the env's Monte Carlo estimate.

Configuration: 4 players (one impostor), a map of two rooms (the button in ``Hall``, a
corridor to ``Lab``), one task of one step per crewmate (always in ``Lab``: tasks are
dealt among the rooms other than the button's), no kill cooldown, one emergency meeting
each, no discussion, ``max_rounds`` rounds. Uniformly random play means every player
picks uniformly among its legal actions (the env's action mask): in play ``wait``, ``go``
to the other room, ``do task`` (a crewmate, its ghost too, in ``Lab`` with its task
undone), ``kill`` a living crewmate in the room (the impostor), ``report`` a body in the
room, ``call meeting`` (in ``Hall``, once each); in a meeting's vote ``skip`` or any other
living player. The model below is the rules of
:mod:`~envsuite.families.social.amongus_rules` written again for this map, apart from
the engine: the seat order of round ``r`` starts at seat ``(r - 1) mod n``, ghosts keep
their turns (moving and doing tasks), a kill leaves a body and restarts the impostor's
cooldown, a meeting (a report or the button) ends the round, clears the bodies, sends
everyone to ``Hall`` and holds a vote in which ``skip`` is a candidate and a tie ejects
nobody, the crew wins when every task is done or the impostor is ejected, the impostor
at parity. The turn order makes the seats unequal, so the value is the mean over the
four seats the impostor may be dealt (the env deals uniformly).

The env's estimates of P(crew wins) and P(impostor wins) (2000 games, seeded, so this
test is deterministic) must each have the exact value inside its 99.9% Wilson interval,
and each deliberately wrong rule must put one of the two outside: a tie that ejects one
of the tied at random (``skip`` included) instead of nobody (0.291 / 0.548 against
0.205 / 0.479); a kill cooldown one round too long (0.240 / 0.206). Some wrong rules
barely move these two numbers, so win rates cannot see them: ghosts that lose their
turns (0.202 / 0.480), a meeting that leaves everyone where they were (0.202 / 0.438,
inside this run's intervals), as variants of this model computed. Power: 2000 games give
intervals of about +-0.03 (crew) and +-0.037 (impostor); the nearest wrong rule (random
ties, crew 0.291 against 0.205) lands inside the crew interval with probability below
1e-8 (normal approximation), so more games buy nothing. The model agrees with
:func:`tests.families.social.exact_play.solve` run on the engine itself to 1e-15 (a test
checks one round; two rounds, checked by hand, take a minute; four would take hours).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Hashable
from typing import Any

import numpy as np

import envsuite
from envsuite.families.social.amongus_rules import AmongUsGame
from envsuite.families.social.amongus_setup import CREWMATE, IMPOSTOR, AmongUsSetup
from envsuite.families.social.voting import TieRule, tally
from envsuite.families.social.werewolf_setup import NAMES
from tests.families.social.exact_play import Outcome, frozen, solve, wilson_interval

N = 4
HALL, LAB = 0, 1
MAX_ROUNDS = 4
GAMES = 2000
SKIP = -1
#: What the rest of an engine's game depends on under random play (its state key).
ENGINE_STATE = (
    "phase", "queue", "round", "room", "alive", "bodies", "buttons", "next_kill",
    "progress", "steps_done", "votes", "chance_kind", "chance_options",
)  # fmt: skip
#: Deliberately wrong rules the estimate must tell from the right ones.
WRONG_RULES = ("random_ties", "slow_cooldown")


@functools.cache
def outcome(impostor: int, wrong: str = "", rounds: int = MAX_ROUNDS) -> Outcome:
    """(P(crew wins), P(impostor wins), P(undecided)) with ``impostor`` the impostor's
    seat, under the rules (or the ``wrong`` rule of :data:`WRONG_RULES`), ``rounds`` rounds.

    A state is the round, the seats still to play it (the queue), each seat's room,
    who lives, the bodies (victim, room), whose task is done, the first round the
    impostor may kill in and each seat's emergency meetings left.
    """
    crew = [seat for seat in range(N) if seat != impostor]
    cooldown = 1 if wrong == "slow_cooldown" else 0  # rounds between kills (0: none)

    def parity(alive: tuple[bool, ...]) -> bool:
        return alive[impostor] and sum(alive[s] for s in crew) <= 1

    def start_round(r: int, rooms, alive, bodies, done, next_kill, buttons) -> Outcome:
        if r > rounds:
            return (0.0, 0.0, 1.0)
        order = tuple((r - 1 + k) % N for k in range(N))  # ghosts keep their turns
        return play(r, order, rooms, alive, bodies, done, next_kill, buttons)

    @functools.cache
    def play(r, queue, rooms, alive, bodies, done, next_kill, buttons) -> Outcome:
        if not queue:
            return start_round(r + 1, rooms, alive, bodies, done, next_kill, buttons)
        seat, rest = queue[0], queue[1:]
        room = rooms[seat]
        moved = put(rooms, seat, 1 - room)
        children: list[Callable[[], Outcome]] = [
            lambda: play(r, rest, rooms, alive, bodies, done, next_kill, buttons),  # wait
            lambda: play(r, rest, moved, alive, bodies, done, next_kill, buttons),  # go
        ]
        if seat != impostor and room == LAB and not done[seat]:  # do task (ghosts too)
            finished = put(done, seat, True)
            if all(finished[s] for s in crew):
                children.append(lambda: (1.0, 0.0, 0.0))
            else:
                children.append(
                    lambda: play(r, rest, rooms, alive, bodies, finished, next_kill, buttons)
                )
        if alive[seat]:
            if seat == impostor and r >= next_kill:
                for victim in (s for s in crew if alive[s] and rooms[s] == room):
                    kill = (r, rest, rooms, alive, bodies, done, buttons, victim, room)
                    children.append(functools.partial(killed, *kill))
            if any(where == room for _, where in bodies):  # report
                children.append(functools.partial(meeting, r, alive, done, buttons))
            if room == HALL and buttons[seat] > 0:  # call a meeting
                fewer = put(buttons, seat, buttons[seat] - 1)
                children.append(functools.partial(meeting, r, alive, done, fewer))
        return average([child() for child in children])

    def killed(r, rest, rooms, alive, bodies, done, buttons, victim, room) -> Outcome:
        after = put(alive, victim, False)
        if parity(after):
            return (0.0, 1.0, 0.0)
        body = bodies | {(victim, room)}
        return play(r, rest, rooms, after, body, done, r + cooldown, buttons)

    @functools.cache
    def meeting(r, alive, done, buttons) -> Outcome:
        """A meeting in round ``r``: a random vote, then the next round (from the Hall)."""
        tie_rule = "random" if wrong == "random_ties" else "no_exile"
        total = [0.0, 0.0, 0.0]
        for seat, p in ejections(alive, tie_rule):
            after = alive if seat is None else put(alive, seat, False)
            if seat == impostor:
                value: Outcome = (1.0, 0.0, 0.0)
            elif parity(after):
                value = (0.0, 1.0, 0.0)
            else:
                start = ((HALL,) * N, after, frozenset(), done, r + 1 + cooldown, buttons)
                value = start_round(r + 1, *start)
            for i in range(3):
                total[i] += p * value[i]
        return (total[0], total[1], total[2])

    everyone = (HALL,) * N, (True,) * N, frozenset(), (False,) * N
    return start_round(1, *everyone, 1 + cooldown, (1,) * N)


@functools.cache
def ejections(alive: tuple[bool, ...], tie_rule: TieRule) -> tuple[tuple[int | None, float], ...]:
    """Who a meeting's uniformly random vote ejects (None: nobody), with probabilities."""
    voters = [s for s in range(N) if alive[s]]
    options = [[SKIP, *(s for s in voters if s != voter)] for voter in voters]
    weight = 1.0 / math.prod(len(o) for o in options)
    ejected: dict[int | None, float] = {}
    for ballots in itertools.product(*options):
        result = tally(list(ballots), tie_rule)
        drawn = result.leaders if result.needs_draw else (result.chosen,)
        for chosen in drawn:
            seat = None if chosen in (None, SKIP) else chosen
            ejected[seat] = ejected.get(seat, 0.0) + weight / len(drawn)
    return tuple(ejected.items())


def put(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """``values`` with ``value`` at ``index``."""
    return (*values[:index], value, *values[index + 1 :])


def average(values: list[Outcome]) -> Outcome:
    return (
        sum(v[0] for v in values) / len(values),
        sum(v[1] for v in values) / len(values),
        sum(v[2] for v in values) / len(values),
    )


def exact(wrong: str = "") -> Outcome:
    """The outcome over the uniform deal of the impostor's seat."""
    return average([outcome(seat, wrong) for seat in range(N)])


def setup(rounds: int) -> AmongUsSetup:
    return AmongUsSetup(
        num_players=N,
        num_impostors=1,
        rooms=("Hall", "Lab"),
        corridors=(("Hall", "Lab"),),
        button_room="Hall",
        tasks_per_player=1,
        task_steps=1,
        kill_cooldown=0,
        emergency_meetings=1,
        discussion_rounds=0,
        tie_rule="no_exile",
        max_rounds=rounds,
        names=NAMES[:N],
    )


def monte_carlo() -> tuple[int, int]:
    """(crew wins, impostor wins) in ``GAMES`` games of uniformly random play."""
    env = envsuite.make(
        "envsuite/AmongUs-v0",
        num_players=N,
        num_impostors=1,
        rooms=("Hall", "Lab"),
        corridors=(("Hall", "Lab"),),
        button_room="Hall",
        tasks_per_player=1,
        task_steps=1,
        kill_cooldown=0,
        emergency_meetings=1,
        discussion_rounds=0,
        tie_rule="no_exile",
        max_rounds=MAX_ROUNDS,
        observation_mode="vector",
    )
    rng = np.random.default_rng(2026)
    wins = {"crew": 0, "impostors": 0, None: 0}
    for seed in range(GAMES):
        env.reset(seed=seed)
        for _ in env.agent_iter(10_000):
            _, _, terminated, truncated, info = env.last(observe=False)
            if terminated or truncated:
                env.step(None)
            else:
                legal = np.flatnonzero(info["action_mask"])
                env.step(int(legal[rng.integers(len(legal))]))
        assert env.unwrapped.game.over
        wins[env.unwrapped.game.winner] += 1
    return wins["crew"], wins["impostors"]


def test_the_exact_value_is_a_distribution_and_not_trivial():
    value = exact()
    assert math.isclose(sum(value), 1.0)
    assert 0.1 < value[0] < 0.9 and 0.1 < value[1] < 0.9
    assert len({outcome(seat)[0] for seat in range(N)}) == N  # the seats are unequal


def test_the_model_agrees_with_the_engine_in_one_round():
    """The engine's own states, solved exactly with every legal action equally likely."""
    rules = setup(1)

    def uniform(game: AmongUsGame, seat: int) -> dict[Any, float]:
        legal = game.legal_actions(seat)
        return dict.fromkeys(legal, 1 / len(legal))

    def key(game: AmongUsGame) -> Hashable:
        return frozen([getattr(game, field) for field in ENGINE_STATE])

    for impostor in range(N):
        roles = [IMPOSTOR if seat == impostor else CREWMATE for seat in range(N)]
        tasks = [() if seat == impostor else (LAB,) for seat in range(N)]
        start = functools.partial(AmongUsGame, rules, roles, tasks)
        engine, _ = solve(start, uniform, key, "crew")
        model = outcome(impostor, rounds=1)
        assert all(math.isclose(a, b, abs_tol=1e-12) for a, b in zip(engine, model, strict=True))


def test_monte_carlo_agrees_with_the_exact_value():
    crew, impostor = (wilson_interval(wins, GAMES) for wins in monte_carlo())

    def inside(value: Outcome) -> bool:
        return crew[0] <= value[0] <= crew[1] and impostor[0] <= value[1] <= impostor[1]

    assert inside(exact()), (exact(), crew, impostor)
    for wrong in WRONG_RULES:
        assert not inside(exact(wrong)), (wrong, exact(wrong), crew, impostor)
