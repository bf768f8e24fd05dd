"""ChessEndgame-v0: mate a bare king with K+Q, K+R or K+P against a perfect defender."""

from __future__ import annotations

import functools
from typing import Any, Literal

import numpy as np
from gymnasium import spaces

from envsuite.action_parsing import parse_index
from envsuite.families.text.answer_grammar import GRAMMAR_HELP
from envsuite.families.text.chess_endgame_notation import MOVE_FORMAT, Notation, board_from_fen
from envsuite.families.text.chess_endgame_rules import (
    KING_STEP,
    PIECE_NAMES,
    RAYS,
    EndgameBoard,
    Move,
)
from envsuite.families.text.chess_endgame_stockfish import StockfishDefender
from envsuite.families.text.chess_endgame_tables import (
    DRAW,
    endgame_tables,
    san_marks,
    strong_values,
)
from envsuite.families.text.splits import Split, draw_in_split
from envsuite.families.text.text_game import History, InvalidAction, MoveResult, TextGameEnv

Endgame = Literal["KQK", "KRK", "KPK", "any"]
Colour = Literal["white", "black", "either"]
Opponent = Literal["tablebase", "stockfish"]
OPPONENTS = ("tablebase", "stockfish")
ENDGAMES = ("KQK", "KRK", "KPK")
COLOURS = ("white", "black", "either")

#: Vector actions: 8 king steps (N, NE, E, SE, S, SW, W, NW), then the piece moving
#: ``k`` = 1..7 squares in each direction (``8 + 7 * direction + k - 1``; a pawn's
#: pushes are north 1 and 2, a push to the last rank promoting to a queen), then a pawn's
#: push promoting to a rook, bishop or knight.
KING_ACTIONS = 8
PIECE_ACTIONS = 56
UNDERPROMOTIONS = ("R", "B", "N")
NUM_ACTIONS = KING_ACTIONS + PIECE_ACTIONS + len(UNDERPROMOTIONS)
#: Vector observation planes, in the player's own frame: own king, queen, rook, bishop,
#: knight, pawn, then the opponent's king.
PLANES = ("K", "Q", "R", "B", "N", "P", "k")

#: (source, target) -> the vector action of a move between them (without promotion).
_ACTION_OF: dict[tuple[int, int, str], int] = {}
for _source in range(64):
    for _direction in range(8):
        for _k, _target in enumerate(RAYS[_source][_direction]):
            _ACTION_OF[_source, _target, "slide"] = KING_ACTIONS + 7 * _direction + _k
        if KING_STEP[_source][_direction] >= 0:
            _ACTION_OF[_source, KING_STEP[_source][_direction], "K"] = _direction


def action_of(move: Move) -> int:
    """The vector action of a strong-side move (see :data:`NUM_ACTIONS`)."""
    if move.piece == "K":
        return _ACTION_OF[move.source, move.target, "K"]
    if move.promotion and move.promotion != "Q":
        return KING_ACTIONS + PIECE_ACTIONS + UNDERPROMOTIONS.index(move.promotion)
    return _ACTION_OF[move.source, move.target, "slide"]


#: How the defender scores a drawing reply: above every depth to mate.
_RESISTS = 1000


@functools.cache
def _candidates(piece: str, min_dtm: int, max_dtm: int) -> np.ndarray:
    """Indices of the strong-to-move positions of KXK with min_dtm <= DTM <= max_dtm."""
    values = endgame_tables()[piece].strong
    return np.flatnonzero((values >= min_dtm) & (values <= max_dtm))


class ChessEndgameEnv(TextGameEnv[Move]):
    r"""Checkmate a bare king with king and queen, king and rook, or king and pawn.

    Description:
        Each episode draws a position of KQK, KRK or KPK from the seed: legal, the player
        (the side with the extra piece) to move, not over, and won for the player (every
        KQK and KRK position is; drawn KPK positions are never chosen). The class is drawn
        uniformly among those ``endgame`` allows, then the position uniformly among the
        class's positions whose depth to mate lies in [``min_dtm``, ``max_dtm``]. The
        opponent defends perfectly: from exact depth-to-mate tables that envsuite
        computes itself by retrograde analysis (:mod:`.chess_endgame_tables`; about 1.3 s
        once per process, no engine, no download, no clock), it plays a reply that
        postpones mate longest (a drawing reply if the player's move allowed one), ties
        broken uniformly by the env's generator. ``info["optimal_steps"]`` is the
        position's depth to mate: the fewest moves that mate against this defence.

        Instances and splits: the instance key is the starting FEN, hashed into
        train/val/test (80/10/10%). With the player as White there are 144,508 KQK +
        175,168 KRK + 124,960 KPK = 444,636 starting positions: 355,749 train, 44,666
        val, 44,221 test. ``colour="either"`` adds their mirror images with Black to play
        (889,272 in all: 711,364 train, 89,231 val, 88,677 test). Nothing is held out
        beyond the splits; ``min_dtm`` and ``max_dtm`` select short (mate in 1-3) or long
        (up to KRK's 16 and KPK's 28 moves) mates.

    Observation:
        Text (``observation_mode="text"``, history modes as in the family base): the
        instructions, then after every move the player's and the opponent's moves, a
        diagram (rank 8 on top, upper case White), the FEN, who moves and, with
        ``list_moves``, the legal moves in SAN; ``info["legal_actions"]`` holds the legal
        moves in SAN either way. Vector: ``Box(0, 1, (7, 8, 8), float32)`` piece planes
        in the player's own frame (the player's pawn always moves up the board, so one
        policy plays both colours): own king, queen, rook, bishop, knight, pawn, then the
        opponent's king; ``info["action_mask"]`` marks the legal actions.

    Action:
        Text: a move in SAN (``Kd2``, ``Qh5+``, ``e8=Q``) or UCI (``e1d2``, ``e7e8q``),
        read through the family's answer grammar (``\boxed{Qh5}``, ``move: Qh5``).
        Vector: ``Discrete(67)`` in the player's frame: 0-7 the king one square N, NE,
        E, SE, S, SW, W, NW; ``8 + 7 * direction + (k - 1)`` the piece k squares in that
        direction (a pawn: 8 one square, 9 two; to the last rank it becomes a queen);
        64-66 a pawn promoting to a rook, bishop or knight. A malformed or illegal move
        (naming the rule, e.g. "the rook moves along ranks and files") costs
        ``invalid_penalty`` and a turn and changes nothing.

    Reward:
        1.0 for checkmate, 0.0 for every other move, ``-invalid_penalty`` for a bad one.

    Termination:
        Terminated at checkmate (``success``) or at a draw: stalemate (of either side: a
        king and pawn can be stalemated too), the piece captured, a promotion to a bishop
        or knight, or a position the tables say can no longer be won (a KPK misstep;
        adjudicated at once rather than played out). Truncated after ``max_turns``
        turns. There is no 50-move or repetition rule (the turn limit replaces them).
        ``score`` is 1.0 for a mate; ``efficiency`` is the depth to mate over the turns
        taken.

    Arguments:
        endgame: ``"KQK"``, ``"KRK"``, ``"KPK"`` or ``"any"`` (the default: the three
            equally likely).
        colour: The player's colour: ``"white"`` (default), ``"black"`` or ``"either"``
            (drawn per episode).
        min_dtm, max_dtm: Bounds on the starting depth to mate (default 1 and no bound).
        list_moves: Whether the text observation lists the legal moves (default True).
        opponent: ``"tablebase"`` (default: the perfect defender above) or
            ``"stockfish"``: Stockfish chooses the replies, searching ``engine_nodes``
            nodes (default 20,000) with one thread and a cleared hash, never a time limit,
            so replies are reproducible for one Stockfish build
            (:mod:`.chess_endgame_stockfish`). Stockfish is not shipped: install it
            (Debian: ``apt-get install stockfish``) or give ``engine_path``; without it,
            making the env raises. Against Stockfish the oracle may mate sooner than
            ``optimal_steps`` (the depth to mate against perfect defence), so
            ``efficiency`` can exceed 1.
        max_turns: Turns before truncation (default 100).
        The family base's ``observation_mode``, ``history``, ``split``,
        ``invalid_penalty`` and ``render_mode``.
        ``reset(options={"fen": ...})`` starts from a given KQK, KRK or KPK position
        instead (the side with the extra piece to move and winning; any split).

    Version history:
        v0: Initial release (KQK, KRK, KPK; tablebase defender, optional Stockfish).
    """

    game_name = "chess-endgame"
    observation_modes = ("text", "vector")

    def __init__(
        self,
        *,
        endgame: Endgame = "any",
        colour: Colour = "white",
        min_dtm: int = 1,
        max_dtm: int | None = None,
        list_moves: bool = True,
        opponent: Opponent = "tablebase",
        engine_nodes: int = 20_000,
        engine_path: str | None = None,
        max_turns: int = 100,
        observation_mode: str = "text",
        history: History = "last",
        split: Split = "train",
        invalid_penalty: float = 0.1,
        render_mode: str | None = None,
    ) -> None:
        if endgame not in (*ENDGAMES, "any"):
            raise ValueError(f"endgame must be one of KQK, KRK, KPK, any; got {endgame!r}")
        if colour not in COLOURS:
            raise ValueError(f"colour must be one of {', '.join(COLOURS)}; got {colour!r}")
        for name, value in (("min_dtm", min_dtm), ("max_dtm", max_dtm)):
            if value is None and name == "max_dtm":
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive int; got {value!r}")
        if opponent not in OPPONENTS:
            raise ValueError(f"opponent must be one of {', '.join(OPPONENTS)}; got {opponent!r}")
        if isinstance(engine_nodes, bool) or not isinstance(engine_nodes, int) or engine_nodes < 1:
            raise ValueError(f"engine_nodes must be a positive int; got {engine_nodes!r}")
        top = 127 if max_dtm is None else max_dtm
        if top < min_dtm:
            raise ValueError(f"max_dtm ({max_dtm}) is below min_dtm ({min_dtm})")
        super().__init__(
            observation_mode=observation_mode,
            history=history,
            max_turns=max_turns,
            split=split,
            invalid_penalty=invalid_penalty,
            render_mode=render_mode,
        )
        self.endgame = endgame
        self.colour = colour
        self.min_dtm = min_dtm
        self.max_dtm = max_dtm
        self.list_moves = bool(list_moves)
        self.opponent = opponent
        #: The Stockfish defender (``opponent="stockfish"``), else None.
        self.engine = (
            StockfishDefender(engine_path, engine_nodes) if opponent == "stockfish" else None
        )
        pieces = tuple(name[1] for name in ENDGAMES if endgame in (name, "any"))
        self._pool = tuple(
            (piece, found) for piece in pieces if len(found := _candidates(piece, min_dtm, top))
        )
        if not self._pool:
            raise ValueError(f"no {endgame} position has a depth to mate in [{min_dtm}, {max_dtm}]")
        self.tables = endgame_tables()
        self._notations = {True: Notation(True), False: Notation(False)}
        self.notation = self._notations[True]
        #: The position now (hidden state for the oracle; the strong side is the player).
        self.board = EndgameBoard(4, 60, "Q", 3, True)
        self.start_fen = ""
        self.halfmove = 0
        self.fullmove = 1
        #: The player's legal moves so far.
        self.player_moves = 0
        self.last_moves: tuple[str, str] = ("", "")
        self.result = ""
        self._moves: list[Move] = []
        # The legal moves' SAN and the texts that name them, written when first asked for
        # (vector mode never needs them).
        self._sans: list[str] | None = []
        self._by_text: dict[str, Move] | None = {}
        #: The vector actions of the legal moves (vector mode).
        self._actions: list[int] = []

    # -- the game's hooks --------------------------------------------------------------
    def new_game(self, seed: int | None, options: dict[str, Any] | None) -> None:
        """Draw a won position in the split (or take ``options["fen"]``)."""
        rng = self.np_random

        def draw() -> tuple[EndgameBoard, bool]:
            piece, found = self._pool[int(rng.integers(len(self._pool)))]
            index = int(found[int(rng.integers(len(found)))])
            white = self.colour == "white" or (self.colour == "either" and rng.random() < 0.5)
            return EndgameBoard.from_index(piece, index), white

        def key(drawn: tuple[EndgameBoard, bool]) -> str:
            return self._notations[drawn[1]].fen(drawn[0])

        fen = (options or {}).get("fen")
        if fen is None:
            board, white = draw_in_split(self.game_name, self.split, draw, key)
        else:
            board, white = self._given(fen)
        self.board = board
        self.notation = self._notations[white]
        self.start_fen = key((board, white))
        self.halfmove = 0
        self.fullmove = 1
        self.player_moves = 0
        self.last_moves = ("", "")
        self.result = ""
        self.optimal_steps = int(self.tables[board.piece].strong[board.index()])
        self._refresh()

    def _given(self, fen: Any) -> tuple[EndgameBoard, bool]:
        """The position of ``options["fen"]``, if the player is to move and wins."""
        if not isinstance(fen, str):
            raise ValueError(f"options['fen'] must be a FEN string; got {fen!r}")
        board, white = board_from_fen(fen)
        if not board.strong_to_move:
            raise ValueError(f"the side with the extra piece must be to move: {fen!r}")
        if self.tables[board.piece].strong[board.index()] < 1:
            raise ValueError(f"the side to move cannot force mate: {fen!r}")
        return board, white

    def instance_key(self) -> str:
        """The starting FEN."""
        return self.start_fen

    def instructions(self) -> str:
        """The rules, the draws to avoid and the move format."""
        me, them = self.notation.strong_colour, self.notation.weak_colour
        piece = PIECE_NAMES[self.board.piece] if self.board.piece else "piece"
        return (
            f"Chess endgame. You play {me} and have a king and a {piece}; {them} has a "
            f"bare king and defends perfectly. Checkmate {them}'s king. It is a draw if you "
            "stalemate, lose your piece, promote to a bishop or knight, or let the position "
            "become one that can no longer be won. "
            f"You have {self.max_turns} turns; an illegal or malformed move costs a turn. "
            f"Each turn, {MOVE_FORMAT}. {GRAMMAR_HELP}"
        )

    def state_text(self) -> str:
        """The last two moves, the diagram, the FEN, and the legal moves or the result."""
        notation, board = self.notation, self.board
        lines = []
        mine, reply = self.last_moves
        if mine:
            them = notation.weak_colour
            lines.append(f"You played {mine}" + (f"; {them} replied {reply}." if reply else "."))
        lines.append(notation.diagram(board))
        lines.append("FEN: " + notation.fen(board, self.halfmove, self.fullmove))
        if self.result:
            lines.append(self.result)
        else:
            lines.append(f"{notation.strong_colour} (you) to move.")
            if self.list_moves:
                lines.append("Legal moves: " + " ".join(self._san_list()))
        return "\n".join(lines)

    def parse_move(self, answer: str) -> Move:
        """The legal move ``answer`` names in SAN or UCI."""
        if self._by_text is None:
            sans = [san.rstrip("+#") for san in self._san_list()]
            self._by_text = dict(zip(sans, self._moves, strict=True))
        return self.notation.parse(answer, self.board, self._by_text)

    def play(self, move: Move) -> MoveResult:
        """Play the player's move, end the game or answer with the defender's reply."""
        board, notation = self.board, self.notation
        mine = self._san(move)
        board.push(move)
        self._clock(move.piece == "P", strong_moved=True)
        self.last_moves = (mine, "")
        if board.piece in ("B", "N"):
            return self._end(f"Draw: a king and a {PIECE_NAMES[board.piece]} cannot mate.")
        replies = board.weak_moves()
        if not replies:
            if board.weak_in_check():
                moves = self.player_moves
                result = f"Checkmate: you won in {moves} move{'s' if moves > 1 else ''}."
                return self._end(result, success=True)
            return self._end("Draw: stalemate.")
        reply = self._defend(replies)
        reply_san = notation.san(board, reply)
        captured = reply.target == board.piece_square
        board.push(reply)
        self._clock(captured, strong_moved=False)
        self.last_moves = (mine, reply_san)
        if captured:
            return self._end("Draw: your piece was captured (insufficient material).")
        self._refresh()
        if not self._moves:
            return self._end("Draw: stalemate (you have no legal move).")
        if strong_values()[board.piece][board.index()] == DRAW:
            return self._end("Draw: this position can no longer be won against best defence.")
        return MoveResult(self._feedback())

    def legal_moves(self) -> list[str]:
        """The player's legal moves in SAN (none once the game is over)."""
        return list(self._san_list())

    # -- vector mode -------------------------------------------------------------------
    def vector_spaces(self) -> tuple[spaces.Space[Any], spaces.Space[Any]]:
        """Piece planes and ``Discrete(67)`` moves (see the class docstring)."""
        observation = spaces.Box(0.0, 1.0, (len(PLANES), 8, 8), np.float32)
        return observation, spaces.Discrete(NUM_ACTIONS)

    def vector_observation(self) -> np.ndarray:
        """The piece planes in the player's frame."""
        board = self.board
        planes = np.zeros((len(PLANES), 64), np.float32)
        planes[0, board.strong_king] = 1.0
        if board.piece:
            planes[PLANES.index(board.piece), board.piece_square] = 1.0
        planes[6, board.weak_king] = 1.0
        return planes.reshape(len(PLANES), 8, 8)

    def parse_vector_move(self, action: Any) -> Move:
        """The legal move a vector action names, or InvalidAction naming the rule."""
        index = parse_index(action, NUM_ACTIONS, "move")
        if index in self._actions:
            return self._moves[self._actions.index(index)]
        raise InvalidAction(self._vector_illegal(index))

    def legal_move_mask(self) -> np.ndarray:
        """1 for each vector action that is a legal move (all 0 once the game is over)."""
        mask = np.zeros(NUM_ACTIONS, np.int8)
        mask[self._actions] = 1
        return mask

    def close(self) -> None:
        """Stop the Stockfish process, if one runs."""
        if self.engine is not None:
            self.engine.close()
        super().close()

    # -- helpers -----------------------------------------------------------------------
    def move_text(self, move: Move) -> str:
        """The SAN of a legal move of the player (for oracles and scripts)."""
        return self._san(move)

    def _refresh(self) -> None:
        """Take the legal moves of the position now (their SAN is written when asked)."""
        self._moves = self.board.strong_moves()
        self._sans = None
        self._by_text = None
        self._actions = [] if self.text_mode else [action_of(move) for move in self._moves]

    def _san_list(self) -> list[str]:
        if self._sans is None:
            self._sans = self._write_sans(self._moves)
        return self._sans

    def _san(self, move: Move) -> str:
        """The SAN of the player's legal ``move``."""
        return self._write_sans([move])[0]

    def _write_sans(self, moves: list[Move]) -> list[str]:
        """The SAN of the player's legal ``moves``; the tables say check and mate."""
        board, notation = self.board, self.notation
        king, weak_king, piece, square = (
            board.strong_king,
            board.weak_king,
            board.piece,
            board.piece_square,
        )
        bodies, marks = notation.bodies, san_marks()
        after_king = weak_king * 64 + square
        after_piece = king * 4096 + weak_king * 64
        sans = []
        for move in moves:
            target = move.target
            if move.piece == "K":
                mover, index, body = piece, target * 4096 + after_king, bodies["K"][target]
            elif move.promotion:
                mover, index = move.promotion, after_piece + target
                body = bodies["P"][target] + "=" + mover
            else:
                mover, index, body = piece, after_piece + target, bodies[piece][target]
            mark = marks.get(mover)
            sans.append(notation.san(board, move) if mark is None else body + mark[index])
        return sans

    def _defend(self, replies: list[Move]) -> Move:
        """A reply that draws if one does, else one that postpones mate longest.

        With ``opponent="stockfish"`` the reply is Stockfish's instead.
        """
        board = self.board
        if self.engine is not None:
            fen = self.notation.fen(board, self.halfmove, self.fullmove)
            chosen = self.engine.reply(fen)
            for reply in replies:
                if self.notation.uci(reply) == chosen:
                    return reply
            raise RuntimeError(f"Stockfish played {chosen!r}, not a legal move in {fen!r}")
        values = strong_values()[board.piece]
        base = board.strong_king * 4096 + board.piece_square
        square = board.piece_square
        scores = [
            _RESISTS
            if reply.target == square or (value := values[base + reply.target * 64]) == DRAW
            else value
            for reply in replies
        ]
        best = max(scores)
        options = [reply for reply, score in zip(replies, scores, strict=True) if score == best]
        if len(options) == 1:
            return options[0]
        return options[int(self.np_random.integers(len(options)))]

    def _clock(self, reset: bool, *, strong_moved: bool) -> None:
        self.halfmove = 0 if reset else self.halfmove + 1
        if strong_moved:
            self.player_moves += 1
        if strong_moved != self.notation.strong_is_white:
            self.fullmove += 1

    def _end(self, result: str, *, success: bool = False) -> MoveResult:
        self.result = result
        self._moves, self._sans, self._by_text, self._actions = [], [], {}, []
        return MoveResult(self._feedback(), 1.0 if success else 0.0, done=True, success=success)

    def _feedback(self) -> str:
        """What a move is told: the state now (vector mode shows planes instead)."""
        return self.state_text() if self.text_mode else ""

    def _vector_illegal(self, index: int) -> str:
        board = self.board
        if self.result:
            return "the game is over"
        if index < KING_ACTIONS:
            piece, source = "K", board.strong_king
            target = KING_STEP[source][index]
            promotion = ""
        elif index < KING_ACTIONS + PIECE_ACTIONS:
            piece, source = board.piece, board.piece_square
            direction, k = divmod(index - KING_ACTIONS, 7)
            ray = RAYS[source][direction]
            target = ray[k] if k < len(ray) else -1
            promotion = "Q" if piece == "P" and target >= 56 else ""
        else:
            piece, source = board.piece, board.piece_square
            if piece != "P":
                return "only a pawn promotes"
            target = source + 8
            promotion = UNDERPROMOTIONS[index - KING_ACTIONS - PIECE_ACTIONS]
        if target < 0:
            return f"that move leaves the board from {self.notation.names[source]}"
        return self.notation.why_illegal(board, piece, source, target, promotion)
