"""Connect Four, a two-player game (PettingZoo AEC) of any small board size, text or vector."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from typing import Any, ClassVar, Literal

import numpy as np
from gymnasium import spaces

from envsuite.action_parsing import capped_int, parse_index
from envsuite.aec_env_base import EnvsuiteAECEnv, Turn
from envsuite.env_base import InvalidAction
from envsuite.families.text.connect_four_bot import MAX_DEPTH
from envsuite.families.text.connect_four_rules import ConnectFourBoard, Geometry
from envsuite.families.text.connect_four_solver import DRAW, SOLVABLE_CELLS, WIN, opening_value
from envsuite.families.text.splits import Split, checked_split, draw_in_split
from envsuite.rendering import TEXT_RENDER_MODES, checked_render_mode
from envsuite.spaces import UnicodeText

ObservationMode = Literal["text", "vector"]

AGENTS = ("player_0", "player_1")
ROLES = ("first", "second")
DISCS = ("X", "O")
#: What a text move looks like; "col 4", "drop in column 4" and a bare "4" are accepted.
MOVE_EXAMPLE = "column 4"
_COLUMN = re.compile(r"\bcol(?:umn)?\.?\s*(?:#|no\.?|number)?\s*(-?\d+)", re.IGNORECASE)
_BARE = re.compile(r"\s*(-?\d+)\s*\.?\s*")
#: Digits read from a column number; longer numbers are taken as this many nines.
#: Draws of a random opening (that ends the game, or falls outside the split) before
#: giving up.
OPENING_TRIES = 1000


def move_text(col: int) -> str:
    """The text form of dropping into ``col`` (0-based; columns are numbered from 1)."""
    return f"column {col + 1}"


class ConnectFourEnv(EnvsuiteAECEnv[Any, Any, int]):
    """Connect Four: two players drop discs into columns; a line of ``connect`` wins.

    Description:
        ``player_0`` (role ``first``, discs ``X``) and ``player_1`` (role ``second``,
        discs ``O``) take turns dropping a disc into a column of a ``rows`` x ``cols``
        board; it falls to the lowest empty cell. The first to get ``connect`` discs in a
        row across, down or diagonally wins; a full board without one is a draw. The
        standard game (6 x 7, connect 4) is a first-player win (Allis 1988, Allen 1988);
        connect 4 on 4 x 4 is a draw. With ``random_opening_moves=N`` each reset first
        plays N uniformly random legal moves drawn from ``self.np_random`` (an opening that
        already ends the game is drawn again), so the seed picks the position; the
        instance key (:meth:`instance_key`: the board size and the start position, so two
        move orders reaching one position share a split) puts it in a split by hashing
        (``split="train"`` / ``"val"`` / ``"test"``, 80 / 10 / 10%). Open 6 x 7 positions
        after N moves (counted by breadth-first search): 16,422 for N = 6, 182,383 for
        N = 8, 1,618,398 for N = 10, so ask for N >= 10 where 10 ** 6 instances matter.

    Observation:
        ``observation_mode="text"``: a :class:`~envsuite.spaces.UnicodeText` message per
        player: the rules, the player's discs, the board (fixed width, top row first,
        columns numbered from 1), the opponent's last move, the reason the player's own
        last answer was refused (when it was), and whose turn it is with the legal
        columns (or the result). ``observation_mode="vector"``: ``Box(0, 1, (3, rows,
        cols))`` float32 planes, top row first: the player's own discs, the opponent's
        discs, and all ones when it is the player's turn (else zeros); the same
        "mine, then the opponent's" view for both seats, so one policy plays either.

    Action:
        Text mode: a sentence naming one column, ``column 4`` (``col 4``, ``Drop in
        column #4.``, or an answer that is only a number, ``4``; columns numbered from
        1). Vector mode: ``Discrete(cols)``, the 0-based column. The player to move finds
        ``info["legal_actions"]`` (text, e.g. ``["column 1", ...]``) or
        ``info["action_mask"]`` (vector; all zeros for the other player). A refused
        action is checked in this order, one reason each: not text (vector: not an
        integer, or out of range); no column found; more than one column named; no such
        column; the column is full (``"column 4 is full"``). Its reason is the player's
        ``info["parse_error"]``, it costs ``invalid_move_penalty`` and the same player
        moves again. A player may make ``max_invalid_moves`` refused moves per game; its
        next one forfeits the game. An action sent for the player whose turn it is not is
        refused the same way and counts as that player's refused move.

    Reward:
        0 per legal move; at the end +1 for the winner and -1 for the loser (0 each for a
        draw); ``-invalid_move_penalty`` for each refused move, to the player that sent it.

    Termination:
        Both players terminate when a line is made, the board is full or a player
        forfeits. Their final infos hold ``outcome`` (``"win"`` / ``"loss"`` /
        ``"draw"``), ``role``, ``forfeit`` and ``invalid_moves``. The env-level
        ``success`` (:meth:`episode_success`) is that the game ended as perfect play from
        the start position predicts, on boards of at most 20 cells (which the solver
        solves; None on larger boards, where nobody here knows the value of a random
        opening). Oracle self-play always succeeds on those boards. There is no
        truncation: a game lasts at most ``rows * cols`` legal moves and
        ``2 * (max_invalid_moves + 1)`` refused ones.

    Arguments:
        rows: Rows of the board (2 to 9).
        cols: Columns of the board (2 to 9).
        connect: Discs in a row that win (2 to ``max(rows, cols)``).
        random_opening_moves: Random legal moves played at every reset before the players
            move (0 to ``rows * cols - 1``); the first player to move is whoever's turn it
            then is (``player_1`` after an odd number).
        split: ``"train"``, ``"val"`` or ``"test"``: only openings whose key falls in that
            split; None for any (needs ``random_opening_moves >= 1``).
        oracle_depth: The search depth of the oracle's alpha-beta bot (1 to 8), or None:
            perfect play on boards of at most 20 cells, depth 5 on larger ones.
        observation_mode: ``"text"`` for LLM agents or ``"vector"`` for classic agents.
        invalid_move_penalty: The cost of a refused move (>= 0).
        max_invalid_moves: Refused moves a player may make per game before the next one
            forfeits (>= 0).
        render_mode: ``"ansi"`` (the board), ``"rgb_array"`` (the board drawn on an
            image), ``"human"`` (the board printed on every reset and step) or None.

    Version history:
        v0: Initial version.

    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(TEXT_RENDER_MODES),
        "name": "connect_four_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rows: int = 6,
        cols: int = 7,
        connect: int = 4,
        random_opening_moves: int = 0,
        split: Split | None = None,
        oracle_depth: int | None = None,
        observation_mode: ObservationMode = "text",
        invalid_move_penalty: float = 0.1,
        max_invalid_moves: int = 3,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.geometry = Geometry(rows, cols, connect)
        cells = self.geometry.cells
        if (
            isinstance(random_opening_moves, bool)
            or not isinstance(random_opening_moves, int)
            or not 0 <= random_opening_moves < cells
        ):
            raise ValueError(
                f"random_opening_moves must be an int in [0, {cells - 1}], "
                f"got {random_opening_moves!r}"
            )
        self.split = None if split is None else checked_split(split)
        if self.split is not None and random_opening_moves == 0:
            raise ValueError("split needs random_opening_moves >= 1 (else one position)")
        if oracle_depth is not None and (
            isinstance(oracle_depth, bool)
            or not isinstance(oracle_depth, int)
            or not 1 <= oracle_depth <= MAX_DEPTH
        ):
            raise ValueError(f"oracle_depth must be None or an int in [1, {MAX_DEPTH}]")
        if observation_mode not in ("text", "vector"):
            raise ValueError(
                f"observation_mode must be 'text' or 'vector', got {observation_mode!r}"
            )
        if not invalid_move_penalty >= 0:
            raise ValueError(f"invalid_move_penalty must be >= 0, got {invalid_move_penalty!r}")
        if isinstance(max_invalid_moves, bool) or not isinstance(max_invalid_moves, int):
            raise ValueError(f"max_invalid_moves must be an int, got {max_invalid_moves!r}")
        if max_invalid_moves < 0:
            raise ValueError(f"max_invalid_moves must be >= 0, got {max_invalid_moves}")
        self.random_opening_moves = random_opening_moves
        self.oracle_depth = oracle_depth
        self.observation_mode: ObservationMode = observation_mode
        self.invalid_move_penalty = float(invalid_move_penalty)
        self.max_invalid_moves = max_invalid_moves
        self.render_mode = checked_render_mode(render_mode, self.metadata["render_modes"])
        self.possible_agents = list(AGENTS)
        if observation_mode == "text":
            observation: spaces.Space[Any] = UnicodeText(2000)
            action: spaces.Space[Any] = UnicodeText(1024)
        else:
            observation = spaces.Box(0.0, 1.0, (3, rows, cols), np.float32)
            action = spaces.Discrete(cols)
        self.observation_spaces = dict.fromkeys(AGENTS, observation)
        self.action_spaces = dict.fromkeys(AGENTS, action)
        self.board = ConnectFourBoard(self.geometry)
        # The text board, kept up to date move by move (cells, then each row's text).
        self._cells = [["."] * cols for _ in range(rows)]
        self._owners = np.full((rows, cols), -1, dtype=np.int8)  # the player per cell, top first
        self._rows = ["|" + " ".join(cells) + "|" for cells in self._cells]
        self._header = " " + " ".join(str(col + 1) for col in range(cols))
        self._base = "+" + "-" * (2 * cols - 1) + "+"
        self.opening: tuple[int, ...] = ()
        self.invalid_moves = dict.fromkeys(AGENTS, 0)
        self.forfeited: str | None = None
        self.last_move: tuple[str, int] | None = None

    # -- episode -----------------------------------------------------------------------
    def new_episode(
        self, seed: int | None, options: dict[str, Any] | None
    ) -> tuple[str, dict[str, dict[str, Any]]]:
        """Play the random opening (from ``np_random``), then hand the turn to the mover."""
        if self.random_opening_moves:
            if self.split is None:
                self.opening = self._draw_opening()
            else:
                self.opening = draw_in_split(
                    "ConnectFour",
                    self.split,
                    self._draw_opening,
                    self._key_of,
                    max_tries=OPENING_TRIES,
                )
        else:
            self.opening = ()
        self.board = ConnectFourBoard(self.geometry)
        self._cells = [["."] * self.geometry.cols for _ in range(self.geometry.rows)]
        self._owners.fill(-1)
        for col in self.opening:
            self.board.play(col)
            self._mark(col)
        self._rows = ["|" + " ".join(cells) + "|" for cells in self._cells]
        self.invalid_moves = dict.fromkeys(AGENTS, 0)
        self.forfeited = None
        self.last_move = None
        return AGENTS[self.board.to_move], {agent: self._info(agent) for agent in AGENTS}

    def _draw_opening(self) -> tuple[int, ...]:
        """``random_opening_moves`` uniformly random legal moves that do not end the game."""
        assert self.np_random is not None  # seeded by reset
        for _ in range(OPENING_TRIES):
            board = ConnectFourBoard(self.geometry)
            for _ in range(self.random_opening_moves):
                legal = board.legal_moves()
                board.play_unchecked(legal[int(self.np_random.integers(len(legal)))])
                if board.over:
                    break
            if not board.over:
                return tuple(board.moves)
        raise RuntimeError(
            f"no opening of {self.random_opening_moves} moves that leaves the game open "
            f"in {OPENING_TRIES} draws"
        )

    def _key_of(self, opening: tuple[int, ...]) -> str:
        """The start position (not the move order, so transpositions share a split)."""
        g = self.geometry
        board = ConnectFourBoard(g)
        for col in opening:
            board.play_unchecked(col)
        rows = [
            "".join(
                "." if (owner := board.cell(row, col)) is None else DISCS[owner]
                for col in range(g.cols)
            )
            for row in range(g.rows - 1, -1, -1)
        ]
        return f"{g.rows}x{g.cols}c{g.connect}:{'/'.join(rows)}"

    def instance_key(self) -> str:
        """The start position's key: the size, the winning length, the rows (top first)."""
        return self._key_of(self.opening)

    def _info(self, agent: str) -> dict[str, Any]:
        info: dict[str, Any] = {
            "role": ROLES[AGENTS.index(agent)],
            "invalid_moves": self.invalid_moves[agent],
        }
        if self.board.over:
            if self.board.winner is None:
                info["outcome"] = "draw"
            else:
                info["outcome"] = "win" if self.board.winner == AGENTS.index(agent) else "loss"
            info["forfeit"] = self.forfeited is not None
        return info

    # -- actions -----------------------------------------------------------------------
    def parse_action(self, agent: str, action: Any) -> int:
        """A column from text (``column 4``) or an action index, checked legal."""
        if self.observation_mode == "text":
            col = self._parse_text(action)
        else:
            col = parse_index(action, self.geometry.cols, "action")
        reason = self.board.illegal_reason(col)
        if reason is not None:
            raise InvalidAction(f"illegal move: {reason}")
        return col

    def _parse_text(self, action: Any) -> int:
        if not isinstance(action, str):
            raise InvalidAction(
                f"expected a move as text like {MOVE_EXAMPLE!r}, got {type(action).__name__}"
            )
        found = {capped_int(number) - 1 for number in _COLUMN.findall(action)}
        if not found:
            bare = _BARE.fullmatch(action)
            if bare is None:
                raise InvalidAction(f"no column found; answer like {MOVE_EXAMPLE!r}")
            found = {capped_int(bare.group(1)) - 1}
        if len(found) > 1:
            named = ", ".join(move_text(col) for col in sorted(found))
            raise InvalidAction(f"the answer names more than one column ({named}); name one")
        return found.pop()

    def encode_move(self, col: int) -> Any:
        """Dropping into ``col`` (0-based) as this env's action (text, or the index)."""
        if self.observation_mode == "text":
            return move_text(col)
        return col

    def legal_actions(self, agent: str) -> list[Any] | None:
        """The legal columns of the player to move, in the env's action form."""
        if AGENTS.index(agent) != self.board.to_move or self.board.over:
            return []
        return [self.encode_move(col) for col in self.board.legal_moves()]

    def apply_action(self, agent: str, parsed: int) -> Turn:
        """Drop the disc; the game ends on a line or a full board."""
        self.board.play_unchecked(parsed)
        row = self._mark(parsed)
        self._rows[row] = "|" + " ".join(self._cells[row]) + "|"
        self.last_move = (agent, parsed)
        return self._turn({})

    def _mark(self, col: int) -> int:
        """Draw the disc just dropped into ``col``; return its text row (0 = the top)."""
        row = self.geometry.rows - self.board.heights[col]
        player = 1 - self.board.to_move
        self._cells[row][col] = DISCS[player]
        self._owners[row, col] = player
        return row

    def apply_invalid_action(self, agent: str, message: str) -> Turn:
        """The penalty; the refused player's next refusal past the limit forfeits."""
        self.invalid_moves[agent] += 1
        rewards = {agent: -self.invalid_move_penalty}
        if self.invalid_moves[agent] > self.max_invalid_moves:
            self.board.forfeit(AGENTS.index(agent))
            self.forfeited = agent
        return self._turn(rewards)

    def _turn(self, rewards: dict[str, float]) -> Turn:
        """The step's Turn: end-of-game rewards and outcomes, or the next player."""
        infos = {agent: self._info(agent) for agent in AGENTS}
        if not self.board.over:
            return Turn(rewards=rewards, infos=infos, next_agent=AGENTS[self.board.to_move])
        final = dict(rewards)
        winner = self.board.winner
        if winner is not None:
            for index, agent in enumerate(AGENTS):
                final[agent] = final.get(agent, 0.0) + (1.0 if winner == index else -1.0)
        return Turn(rewards=final, terminated=AGENTS, infos=infos)

    def episode_success(self, final_infos: Mapping[str, Mapping[str, Any]]) -> bool | None:
        """Whether the game ended as perfect play predicts (boards of <= 20 cells)."""
        if not self.board.over or self.geometry.cells > SOLVABLE_CELLS:
            return None
        value = opening_value(self.geometry, self.opening)
        starter = len(self.opening) % 2
        if value == DRAW:
            return self.board.winner is None
        return self.board.winner == (starter if value == WIN else 1 - starter)

    # -- observations ------------------------------------------------------------------
    def observe(self, agent: str) -> Any:
        """The board and the turn, as text or as planes (see Observation)."""
        index = AGENTS.index(agent)
        if self.observation_mode == "vector":
            return self._planes(index)
        return self._text(agent, index)

    def _planes(self, index: int) -> np.ndarray:
        planes = np.empty((3, self.geometry.rows, self.geometry.cols), dtype=np.float32)
        np.equal(self._owners, index, out=planes[0], casting="unsafe")
        np.equal(self._owners, 1 - index, out=planes[1], casting="unsafe")
        planes[2] = float(self.board.to_move == index and not self.board.over)
        return planes

    def board_rows(self) -> list[str]:
        """The fixed-width board: a header of column numbers, the rows (top first), a base."""
        return [self._header, *self._rows, self._base]

    def _text(self, agent: str, index: int) -> str:
        g = self.geometry
        lines = [
            f"Connect Four on a {g.rows} x {g.cols} board. Players take turns dropping a disc "
            f"into a column; it falls to the lowest empty cell. The first to get {g.connect} "
            "in a row (across, down or diagonally) wins; a full board is a draw.",
            f"You are {agent} and play {DISCS[index]}; your opponent plays {DISCS[1 - index]}.",
            *self.board_rows(),
        ]
        if self.last_move is not None:
            who, col = self.last_move
            actor = "You" if who == agent else "Your opponent"
            lines.append(f"Last move: {actor} dropped a disc in column {col + 1}.")
        error = self.infos.get(agent, {}).get("parse_error") if self.infos else None
        if error:
            used = self.invalid_moves[agent]
            lines.append(
                f"Your last answer was refused ({error}). Refused answers so far: {used}; "
                f"{self.max_invalid_moves + 1} forfeit the game."
            )
        if self.board.over:
            if self.board.winner is None:
                lines.append("The game is over: a draw.")
            else:
                won = self.board.winner == index
                how = " by forfeit" if self.forfeited is not None else ""
                lines.append(f"The game is over: you {'won' if won else 'lost'}{how}.")
        elif self.board.to_move == index:
            legal = ", ".join(str(col + 1) for col in self.board.legal_moves())
            lines.append(
                f"It is your turn. Legal columns: {legal}. Answer with one column, "
                f"like {MOVE_EXAMPLE!r}."
            )
        else:
            lines.append("It is your opponent's turn.")
        return "\n".join(lines)

    def render_text(self) -> str:
        """The ``ansi`` frame: the board and whose turn it is (or the result)."""
        if self.board.over:
            winner = self.board.winner
            status = "draw" if winner is None else f"{AGENTS[winner]} won"
        else:
            status = f"{AGENTS[self.board.to_move]} ({DISCS[self.board.to_move]}) to move"
        return "\n".join([f"Connect Four: {status}", *self.board_rows()])

    def state_digest(self) -> str:
        """sha256 of the position, the refused-move counts and how the game ended."""
        payload = {
            "board": json.loads(self.board.canonical()),
            "opening": list(self.opening),
            "invalid_moves": self.invalid_moves,
            "forfeited": self.forfeited,
        }
        encoded = json.dumps(payload, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(encoded.encode("utf-8")).hexdigest()
