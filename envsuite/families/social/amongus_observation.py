"""Among Us observations, text and vector, both built from what one seat may know.

Both read only the seat's message view, its own sight (its room, the living others
there, the bodies there), its own memory rows (``known_dead``, ``known_team``,
``last_seen``), its own tasks and cooldown, and the public state (the round, the phase,
the task bar as of the last meeting, who spoke, accused and voted), so neither shows
another player's role, room or tasks that the seat has not seen.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from envsuite.families.social.amongus_rules import AmongUsGame
from envsuite.families.social.amongus_setup import (
    CREW,
    IMPOSTOR,
    IMPOSTORS,
    PHASE_ORDER,
    ROLE_ORDER,
    Phase,
)
from envsuite.families.social.event_texts import EventTexts, compose

#: Head entries besides the two room blocks: role, phase, my turn, alive, round,
#: cooldown, meetings left, the task bar.
_HEAD = len(ROLE_ORDER) + len(PHASE_ORDER) + 6
#: Per-seat entries besides the last-seen room: here, body here, known dead, known
#: impostor, known crewmate, rounds since last seen.
_PER_SEAT = 6


def vector_size(rooms: int, n: int) -> int:
    """The length of the vector observation of a map of ``rooms`` rooms and ``n`` seats."""
    return _HEAD + 2 * rooms + n * (_PER_SEAT + rooms) + 2 * n * n


def vector_view(game: AmongUsGame, seat: int) -> np.ndarray:
    """The vector observation of ``seat``, seats ordered from ``seat`` itself.

    Head: role one-hot, phase one-hot, my turn, alive, round over ``max_rounds``, kill
    cooldown over ``kill_cooldown`` (impostors), emergency meetings left, the task bar
    (as of the last meeting);
    then my unfinished task steps per room (over ``task_steps``) and my room (one-hot).
    Per seat: in my room now, its body in my room, known dead, known impostor, known
    crewmate, the room I last saw it in (one-hot) and rounds since (over ``max_rounds``).
    Then per pair of seats (n x n each, rotated the same way): votes cast and accusations
    made (over ``max_rounds``, at most 1).
    """
    setup = game.setup
    n, rooms = setup.num_players, len(setup.rooms)
    # (written in a list, then made float32 at once: each value is a bool, or a quotient
    # of small whole numbers whose float64 value rounds to the same float32)
    out: list[float] = [0.0] * vector_size(rooms, n)
    out[ROLE_ORDER.index(game.roles[seat])] = 1.0
    k = len(ROLE_ORDER)
    out[k + PHASE_ORDER.index(game.phase)] = 1.0
    k += len(PHASE_ORDER)
    rounds = float(setup.max_rounds)
    out[k] = float(game.to_move == seat)
    out[k + 1] = float(game.alive[seat])
    out[k + 2] = min(1.0, game.round / rounds)
    if game.roles[seat] == IMPOSTOR and setup.kill_cooldown:
        out[k + 3] = game.cooldown(seat) / setup.kill_cooldown
    out[k + 4] = game.buttons[seat] / max(1, setup.emergency_meetings)
    out[k + 5] = game.task_bar / max(1, game.total_steps)
    k = _HEAD
    for room, done in zip(game.tasks[seat], game.progress[seat], strict=True):
        out[k + room] = (setup.task_steps - done) / setup.task_steps
    room, here, bodies = game.sight(seat)
    out[k + rooms + room] = 1.0
    k += 2 * rooms
    order = [(seat + j) % n for j in range(n)]
    known_dead, known_team, seen = (
        game.known_dead[seat],
        game.known_team[seat],
        game.last_seen[seat],
    )
    for j, other in enumerate(order):
        base = k + j * (_PER_SEAT + rooms)
        out[base] = other in here
        out[base + 1] = other in bodies
        out[base + 2] = other in known_dead
        out[base + 3] = other != seat and known_team[other] == IMPOSTORS
        out[base + 4] = other != seat and known_team[other] == CREW
        sighting = seen[other]
        if sighting is not None:
            out[base + 5] = min(1.0, (game.round - sighting[1]) / rounds)
            out[base + 6 + sighting[0]] = 1.0
    k += n * (_PER_SEAT + rooms)
    for table in (game.vote_counts, game.accusations):
        out[k : k + n * n] = [min(table[i][j] / rounds, 1.0) for i in order for j in order]
        k += n * n
    return np.array(out, dtype=np.float32)


def rules_text(game: AmongUsGame) -> str:
    """The rules in brief, for every player's text observation."""
    setup = game.setup
    corridors = "; ".join(
        f"{setup.rooms[r]}: {', '.join(setup.rooms[x] for x in setup.neighbours[r])}"
        for r in range(len(setup.rooms))
    )
    tie = "nobody is ejected" if setup.tie_rule == "no_exile" else "one of the tied is drawn"
    return (
        f"Among Us with {setup.num_players} players, {setup.num_impostors} of them "
        f"impostor(s). Each round every player takes one turn: move along a corridor, do a "
        f"task ({setup.task_steps} turns each), kill (impostors; cooldown "
        f"{setup.kill_cooldown} rounds), report a body in your room, call a meeting in the "
        f"{setup.button_room} ({setup.emergency_meetings} per player) or wait. You see only "
        f"your own room. A meeting: {setup.discussion_rounds} round(s) of one message of at "
        f"most {setup.max_speech_chars} characters each, then a vote (skip counts; a tie: "
        f"{tie}). The crew wins when all tasks are done or no impostor is left; the "
        f"impostors win when they are as many as the crew. Undecided after round "
        f"{setup.max_rounds}. Dead crewmates finish their tasks as unseen ghosts. "
        f"Corridors: {corridors}."
    )


def text_view(
    game: AmongUsGame,
    seat: int,
    error: str | None,
    legal: Sequence[str],
    limit: int,
    events: EventTexts | None = None,
    rules: str | None = None,
) -> str:
    """The text observation of ``seat``, at most ``limit`` characters (oldest events dropped).

    ``events``: the env's kept event texts of this game (else they are read again);
    ``rules``: :func:`rules_text` of the game, when the caller keeps it.
    """
    setup, names = game.setup, game.names
    role = game.roles[seat]
    article = "an impostor" if role == IMPOSTOR else "a crewmate"
    head = [
        rules_text(game) if rules is None else rules,
        f"You are {names[seat]} (player_{seat}), {article}.",
    ]
    mates = [names[s] for s in game.impostors if s != seat]
    if role == IMPOSTOR and mates:
        head.append(f"Your fellow impostors: {', '.join(mates)}.")
    if game.tasks[seat]:
        steps = setup.task_steps
        parts = [
            f"{setup.rooms[r]} {'done' if d >= steps else f'{d}/{steps}'}"
            for r, d in zip(game.tasks[seat], game.progress[seat], strict=True)
        ]
        head.append(f"Your tasks: {', '.join(parts)}.")
    head.append(
        f"Task bar (as of the last meeting): {game.task_bar}/{game.total_steps} steps. "
        f"Round {game.round}."
    )
    if not game.over:
        head.append(_where(game, seat))
    dead = sorted(game.known_dead[seat])
    if dead:
        head.append(f"Known dead: {', '.join(names[s] for s in dead)}.")
    tail = []
    if error:
        tail.append(f"Your last action was refused ({error}); you lost that turn.")
    tail.append(_status(game, seat, legal))
    if events is None:
        return compose(head, tail, [message.text for message in game.log.view(seat)], limit)
    texts, joined, used = events.of(game.log, seat)
    return compose(head, tail, texts, limit, joined, used)


def _where(game: AmongUsGame, seat: int) -> str:
    setup, names = game.setup, game.names
    if not game.present(seat):
        return "You are dead and out of the game."
    room, here, bodies = game.sight(seat)
    line = f"You are in {setup.rooms[room]}"
    line += " (a ghost: nobody sees you)." if not game.alive[seat] else "."
    line += f" Here: {', '.join(names[s] for s in here) if here else 'nobody else'}."
    if bodies:
        line += f" Bodies here: {', '.join(names[s] for s in bodies)}."
    exits = ", ".join(setup.rooms[r] for r in setup.neighbours[room])
    line += f" Corridors lead to: {exits}."
    if game.roles[seat] == IMPOSTOR and game.alive[seat]:
        cooldown = game.cooldown(seat)
        line += f" Kill cooldown: {cooldown} round(s)." if cooldown else " You can kill now."
    if game.alive[seat]:
        line += f" Emergency meetings left: {game.buttons[seat]}."
    return line


def _status(game: AmongUsGame, seat: int, legal: Sequence[str]) -> str:
    if game.over:
        if game.winner is None:
            return "The game is over, undecided."
        won = game.teams[seat] == game.winner
        return f"The game is over: the {game.winner} won; you {'won' if won else 'lost'}."
    if game.to_move != seat:
        if game.phase is Phase.DISCUSSION and game.to_move is not None:
            return f"Meeting: {game.names[game.to_move]} is speaking."
        if game.phase is Phase.VOTE:
            return "Meeting: voting is under way."
        return "Others are taking their turns."
    options = ", ".join(legal)
    if game.phase is Phase.DISCUSSION:
        return (
            f"Your turn to speak: 'say: MESSAGE' (at most {game.setup.max_speech_chars} "
            f"characters) or one of: {options}."
        )
    what = "vote" if game.phase is Phase.VOTE else "play"
    return f"Your turn ({what}): answer with one of: {options}."
