"""The rules of the three-and-four-man endgames KQK, KRK and KPK: a plain engine.

One side (the *strong* side) has a king and one piece, the other (the *weak* side) a bare
king. The engine always works in the strong side's frame: the strong side is "white"
(its pawn moves up the board, towards rank 8); the env mirrors the board when the player
has the black pieces (:mod:`.chess_endgame_notation` writes the squares). Nothing here
knows about text, Gymnasium or tables.

Squares are 0..63 as in python-chess (a1 = 0, b1 = 1, ..., h8 = 63). A move is a
:class:`Move`: the piece that moves (``"K"``, ``"Q"``, ``"R"``, ``"P"``), its squares and
the piece a pawn promotes to (``""`` otherwise). Only legal moves are generated, so a
move the player names is legal exactly when it is in :meth:`EndgameBoard.legal_moves`.
Rules the endgames never meet (castling, en passant, other pieces) are left out; the
50-move rule and repetitions are left to the env's turn limit.
"""

from __future__ import annotations

from typing import NamedTuple

#: The strong side's piece kinds a game starts with (a pawn may promote to Q, R, B, N).
START_PIECES = ("Q", "R", "P")
PROMOTIONS = ("Q", "R", "B", "N")
PIECE_NAMES = {"K": "king", "Q": "queen", "R": "rook", "B": "bishop", "N": "knight", "P": "pawn"}

#: The eight directions as (file step, rank step): N, NE, E, SE, S, SW, W, NW.
DIRECTIONS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
ROOK_DIRECTIONS = (0, 2, 4, 6)
BISHOP_DIRECTIONS = (1, 3, 5, 7)
#: Directions each sliding piece uses (index into :data:`DIRECTIONS`).
SLIDER_DIRECTIONS = {
    "Q": tuple(range(8)),
    "R": ROOK_DIRECTIONS,
    "B": BISHOP_DIRECTIONS,
}
KNIGHT_JUMPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


def _on_board(file: int, rank: int) -> bool:
    return 0 <= file < 8 and 0 <= rank < 8


def _ray(square: int, direction: int) -> tuple[int, ...]:
    df, dr = DIRECTIONS[direction]
    file, rank = square & 7, square >> 3
    out = []
    file, rank = file + df, rank + dr
    while _on_board(file, rank):
        out.append(rank * 8 + file)
        file, rank = file + df, rank + dr
    return tuple(out)


#: RAYS[square][direction]: the squares from ``square`` outwards, nearest first.
RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_ray(sq, d) for d in range(8)) for sq in range(64)
)
#: KING_STEP[square][direction]: the neighbour in that direction, or -1 off the board.
KING_STEP: tuple[tuple[int, ...], ...] = tuple(
    tuple(RAYS[sq][d][0] if RAYS[sq][d] else -1 for d in range(8)) for sq in range(64)
)
#: KING_TARGETS[square]: the neighbours of ``square``.
KING_TARGETS: tuple[tuple[int, ...], ...] = tuple(
    tuple(t for t in KING_STEP[sq] if t >= 0) for sq in range(64)
)
KNIGHT_TARGETS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        (sq >> 3) * 8 + dr * 8 + (sq & 7) + df
        for df, dr in KNIGHT_JUMPS
        if _on_board((sq & 7) + df, (sq >> 3) + dr)
    )
    for sq in range(64)
)


def _between(a: int, b: int) -> tuple[int, ...] | None:
    """The squares strictly between ``a`` and ``b`` if they share a line, else None."""
    for direction in range(8):
        ray = RAYS[a][direction]
        if b in ray:
            return ray[: ray.index(b)]
    return None


#: BETWEEN[a][b]: the squares strictly between two squares on a line (None: no line).
BETWEEN: tuple[tuple[tuple[int, ...] | None, ...], ...] = tuple(
    tuple(_between(a, b) for b in range(64)) for a in range(64)
)
#: LINE_KIND[a][b]: "R" if a and b share a rank or file, "B" a diagonal, "" neither.
LINE_KIND: tuple[tuple[str, ...], ...] = tuple(
    tuple(
        ""
        if a == b or BETWEEN[a][b] is None
        else ("R" if (a & 7) == (b & 7) or (a >> 3) == (b >> 3) else "B")
        for b in range(64)
    )
    for a in range(64)
)


#: NEAR[a][b]: whether two squares touch (or are the same square): kings may not.
NEAR: tuple[tuple[bool, ...], ...] = tuple(
    tuple(max(abs((a & 7) - (b & 7)), abs((a >> 3) - (b >> 3))) < 2 for b in range(64))
    for a in range(64)
)


def distance(a: int, b: int) -> int:
    """King distance (Chebyshev) between two squares."""
    return max(abs((a & 7) - (b & 7)), abs((a >> 3) - (b >> 3)))


def attacks(piece: str, source: int, target: int, blocker: int) -> bool:
    """Whether the strong side's ``piece`` on ``source`` attacks ``target``.

    ``blocker`` is the one other square that may stand in a slider's way (the strong
    king); the weak king is never a blocker, as it is the piece being attacked (a king
    cannot step back along the line of a slider that checks it).
    """
    if piece == "P":
        return (target >> 3) == (source >> 3) + 1 and abs((target & 7) - (source & 7)) == 1
    if piece == "N":
        return target in KNIGHT_TARGETS[source]
    kind = LINE_KIND[source][target]
    if not kind or (piece != "Q" and kind != piece):
        return False
    between = BETWEEN[source][target]
    return between is not None and blocker not in between


class Move(NamedTuple):
    """A move of the side to move: piece letter, from square, to square, promotion."""

    piece: str
    source: int
    target: int
    promotion: str = ""

    @property
    def uci(self) -> str:
        """The move in UCI in the engine's frame (the strong side is white)."""
        return square_name(self.source) + square_name(self.target) + self.promotion.lower()


#: Every move a piece could make from a square, made once (moves are immutable, and
#: making them per position was most of the cost of generating moves).
KING_MOVES: tuple[tuple[Move, ...], ...] = tuple(
    tuple(Move("K", sq, t) for t in KING_TARGETS[sq]) for sq in range(64)
)
#: SLIDES[piece][square][direction]: the piece's moves along the ray, nearest first.
SLIDES: dict[str, tuple[tuple[tuple[Move, ...], ...], ...]] = {
    piece: tuple(
        tuple(tuple(Move(piece, sq, t) for t in RAYS[sq][d]) for d in range(8)) for sq in range(64)
    )
    for piece in SLIDER_DIRECTIONS
}


def square_name(square: int) -> str:
    """``"e4"`` for square 28."""
    return "abcdefgh"[square & 7] + str((square >> 3) + 1)


class EndgameBoard:
    """A position of KXK (X a queen, rook, pawn, or after promotion a bishop or knight).

    Attributes:
        strong_king: The strong king's square.
        weak_king: The weak king's square.
        piece: The strong side's piece letter, or ``""`` once it has been captured.
        piece_square: Its square (-1 once captured).
        strong_to_move: Whose turn it is.
    """

    __slots__ = ("piece", "piece_square", "strong_king", "strong_to_move", "weak_king")

    def __init__(
        self, strong_king: int, weak_king: int, piece: str, piece_square: int, strong_to_move: bool
    ) -> None:
        self.strong_king = strong_king
        self.weak_king = weak_king
        self.piece = piece
        self.piece_square = piece_square
        self.strong_to_move = strong_to_move

    @classmethod
    def from_index(cls, piece: str, index: int, strong_to_move: bool = True) -> EndgameBoard:
        """The position a table index names (see :meth:`index`)."""
        return cls(index >> 12, (index >> 6) & 63, piece, index & 63, strong_to_move)

    def index(self) -> int:
        """``strong_king * 4096 + weak_king * 64 + piece_square``: the tables' index."""
        return self.strong_king * 4096 + self.weak_king * 64 + self.piece_square

    def copy(self) -> EndgameBoard:
        """An independent copy."""
        return EndgameBoard(
            self.strong_king, self.weak_king, self.piece, self.piece_square, self.strong_to_move
        )

    def key(self) -> tuple[int, int, str, int, bool]:
        """Everything that makes the position (for equality and hashing)."""
        return (
            self.strong_king,
            self.weak_king,
            self.piece,
            self.piece_square,
            self.strong_to_move,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, EndgameBoard) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        side = "strong" if self.strong_to_move else "weak"
        where = f"{self.piece}{square_name(self.piece_square)}" if self.piece else "-"
        return (
            f"EndgameBoard(K{square_name(self.strong_king)} {where} "
            f"vs k{square_name(self.weak_king)}, {side} to move)"
        )

    # -- validity ----------------------------------------------------------------------
    def problem(self) -> str | None:
        """Why the position is not a legal one, or None when it is."""
        squares = [self.strong_king, self.weak_king] + ([self.piece_square] if self.piece else [])
        if any(not 0 <= sq < 64 for sq in squares):
            return "a square is off the board"
        if len(set(squares)) != len(squares):
            return "two pieces share a square"
        if distance(self.strong_king, self.weak_king) < 2:
            return "the kings stand next to each other"
        if self.piece == "P" and not 1 <= self.piece_square >> 3 <= 6:
            return "a pawn stands on its first or last rank"
        if self.strong_to_move and self.weak_in_check():
            return "the side not to move is in check"
        return None

    def weak_in_check(self) -> bool:
        """Whether the strong piece attacks the weak king."""
        return bool(self.piece) and attacks(
            self.piece, self.piece_square, self.weak_king, self.strong_king
        )

    # -- moves -------------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """The legal moves of the side to move (strong: king first, then the piece)."""
        return self.strong_moves() if self.strong_to_move else self.weak_moves()

    def strong_moves(self) -> list[Move]:
        """The strong side's legal moves (as if it were to move)."""
        king, weak, piece, square = self.strong_king, self.weak_king, self.piece, self.piece_square
        near_weak = NEAR[weak]
        moves = [m for m in KING_MOVES[king] if m.target != square and not near_weak[m.target]]
        if not piece:
            return moves
        if piece == "P":
            ahead = square + 8
            if ahead != king and ahead != weak:
                if ahead >= 56:
                    moves.extend(Move("P", square, ahead, p) for p in PROMOTIONS)
                else:
                    moves.append(Move("P", square, ahead))
                    two = ahead + 8
                    if square < 16 and two != king and two != weak:
                        moves.append(Move("P", square, two))
        elif piece == "N":
            moves.extend(
                Move("N", square, t) for t in KNIGHT_TARGETS[square] if t != king and t != weak
            )
        else:
            rays, slides = RAYS[square], SLIDES[piece][square]
            for direction in SLIDER_DIRECTIONS[piece]:
                ray = rays[direction]
                if king in ray or weak in ray:
                    cut = min(ray.index(s) for s in (king, weak) if s in ray)
                    moves.extend(slides[direction][:cut])
                else:
                    moves.extend(slides[direction])
        return moves

    def weak_moves(self) -> list[Move]:
        """The weak king's legal moves (as if it were to move), captures included."""
        king, piece, square = self.strong_king, self.piece, self.piece_square
        moves = []
        near_king = NEAR[king]
        for move in KING_MOVES[self.weak_king]:
            t = move.target
            if near_king[t]:
                continue
            # Capturing the piece is legal when the strong king does not guard it.
            if t == square or not (piece and attacks(piece, square, t, king)):
                moves.append(move)
        return moves

    def push(self, move: Move) -> None:
        """Play a legal move (not checked: take it from :meth:`legal_moves`)."""
        if self.strong_to_move:
            if move.piece == "K":
                self.strong_king = move.target
            else:
                self.piece_square = move.target
                if move.promotion:
                    self.piece = move.promotion
        else:
            self.weak_king = move.target
            if move.target == self.piece_square:
                self.piece, self.piece_square = "", -1
        self.strong_to_move = not self.strong_to_move

    def after(self, move: Move) -> EndgameBoard:
        """A copy with ``move`` played."""
        board = self.copy()
        board.push(move)
        return board

    # -- outcome -----------------------------------------------------------------------
    def outcome(self) -> str | None:
        """``"checkmate"``, ``"stalemate"``, ``"insufficient material"`` or None.

        Only the weak side can be mated; the strong side (a king and a pawn) can be
        stalemated. A bare king, or a king and a bishop or knight, cannot mate.
        """
        if self.piece in ("", "B", "N"):
            return "insufficient material"
        if self.legal_moves():
            return None
        if not self.strong_to_move and self.weak_in_check():
            return "checkmate"
        return "stalemate"
