"""Chess notation for the endgame engine: SAN, UCI, FEN, a text diagram, and move parsing.

The engine (:mod:`.chess_endgame_rules`) plays in the strong side's frame; a
:class:`Notation` writes and reads squares in the real board's frame for the colour the
strong side has (Black's squares are the engine's mirrored top to bottom). SAN follows the
standard python-chess writes (``Kd2``, ``Qh5+``, ``e8=Q#``, ``Kxd4``); the tests compare
it with python-chess move by move.

Parsing is forgiving about form and strict about chess: SAN with or without ``+``/``#``
and ``x`` (``Qh5``, ``Qxh5+``, ``qh5``, ``Qd1h5``, ``e8=Q``, ``e8Q``) and UCI (``d1h5``,
``d1-h5``, ``e7e8q``) are read; a move that is not legal raises
:class:`~envsuite.env_base.InvalidAction` naming the rule, checked in a fixed order.
"""

from __future__ import annotations

import re

from envsuite.env_base import InvalidAction
from envsuite.families.text.chess_endgame_rules import (
    BETWEEN,
    LINE_KIND,
    PIECE_NAMES,
    EndgameBoard,
    Move,
    attacks,
    distance,
)

FILES = "abcdefgh"
_NAMES = tuple(FILES[sq & 7] + str((sq >> 3) + 1) for sq in range(64))
_UCI = re.compile(r"([a-h][1-8])[-x:]?([a-h][1-8])=?([qrbnQRBN])?")
_SAN = re.compile(r"([KQRBNkqrn])?([a-h])?([1-8])?[x:]?([a-h][1-8])(?:=?([QRBNqrbn]))?")
#: What a move may carry that the parser ignores (annotations, check and mate marks).
_DECORATION = "+#!?"
_DOWN = range(7, -1, -1)
_RANK_LABELS = tuple(f"{rank + 1} " for rank in range(8))
_FILE_LABELS = "\n  " + " ".join(FILES)
MOVE_FORMAT = "write a move in SAN (Kd2, Qh5, e8=Q) or UCI (e1d2, e7e8q)"


class Notation:
    """SAN, UCI, FEN and diagrams for a strong side of one colour.

    Args:
        strong_is_white: Whether the strong side (the engine's "white") has the white
            pieces; if not, every square is mirrored top to bottom.
    """

    def __init__(self, strong_is_white: bool) -> None:
        self.strong_is_white = strong_is_white
        self.mirror = 0 if strong_is_white else 56
        self.names = _NAMES if strong_is_white else tuple(_NAMES[sq ^ 56] for sq in range(64))
        self.lookup = {name: sq for sq, name in enumerate(self.names)}
        self.strong_colour = "White" if strong_is_white else "Black"
        self.weak_colour = "Black" if strong_is_white else "White"
        self._strong_letters = {p: p if strong_is_white else p.lower() for p in "KQRBNP"}
        self._weak_king = "k" if strong_is_white else "K"
        #: bodies[piece][target]: the SAN of the strong side's move there, without marks.
        self.bodies = {
            piece: tuple(("" if piece == "P" else piece) + name for name in self.names)
            for piece in "KQRBNP"
        }

    # -- writing -----------------------------------------------------------------------
    def uci(self, move: Move) -> str:
        """The move in UCI on the real board."""
        return self.names[move.source] + self.names[move.target] + move.promotion.lower()

    def san(self, board: EndgameBoard, move: Move) -> str:
        """The SAN of a legal ``move`` in ``board`` (check and mate marked)."""
        text = self.san_body(board, move)
        if not board.strong_to_move:
            return text
        if move.piece == "K":
            piece, square, king = board.piece, board.piece_square, move.target
        else:
            piece, square, king = move.promotion or move.piece, move.target, board.strong_king
        if piece and attacks(piece, square, board.weak_king, king):
            return text + ("+" if board.after(move).weak_moves() else "#")
        return text

    def san_body(self, board: EndgameBoard, move: Move) -> str:
        """The SAN of a legal ``move`` without its check or mate mark."""
        target = self.names[move.target]
        if not board.strong_to_move:
            return ("Kx" if move.target == board.piece_square else "K") + target
        if move.piece == "P":
            return target + ("=" + move.promotion if move.promotion else "")
        return move.piece + target

    def diagram(self, board: EndgameBoard) -> str:
        """The board as 8 ranks of pieces and dots, rank 8 first, with coordinates."""
        cells = ["."] * 64
        for square, char in self._cells(board):
            cells[square] = char
        rows = [_RANK_LABELS[rank] + " ".join(cells[rank * 8 : rank * 8 + 8]) for rank in _DOWN]
        return "\n".join(rows) + _FILE_LABELS

    def fen(self, board: EndgameBoard, halfmove: int = 0, fullmove: int = 1) -> str:
        """The position's FEN (no castling, no en passant)."""
        return f"{self.placement(board)} {self.side_to_move(board)} - - {halfmove} {fullmove}"

    def placement(self, board: EndgameBoard) -> str:
        """The FEN's first field."""
        ranks = ["8"] * 8
        by_rank: dict[int, list[tuple[int, str]]] = {}
        for square, char in self._cells(board):
            by_rank.setdefault(square >> 3, []).append((square & 7, char))
        for rank, pieces in by_rank.items():
            text, file = "", 0
            for at, char in sorted(pieces):
                text += (str(at - file) if at > file else "") + char
                file = at + 1
            ranks[7 - rank] = text + (str(8 - file) if file < 8 else "")
        return "/".join(ranks)

    def side_to_move(self, board: EndgameBoard) -> str:
        """The FEN's second field."""
        return "w" if board.strong_to_move == self.strong_is_white else "b"

    def _cells(self, board: EndgameBoard) -> list[tuple[int, str]]:
        """(real-frame square, FEN letter) of each piece."""
        mirror, strong = self.mirror, self._strong_letters
        cells = [
            (board.strong_king ^ mirror, strong["K"]),
            (board.weak_king ^ mirror, self._weak_king),
        ]
        if board.piece:
            cells.append((board.piece_square ^ mirror, strong[board.piece]))
        return cells

    # -- reading -----------------------------------------------------------------------
    def parse(self, answer: str, board: EndgameBoard, moves: dict[str, Move]) -> Move:
        """The legal move ``answer`` names, or InvalidAction naming the rule it breaks.

        Args:
            answer: The player's answer (already extracted by the answer grammar).
            board: The position, the strong side to move.
            moves: The legal moves, by texts that name them (looked up first).
        """
        text = answer.strip().rstrip(_DECORATION).strip()
        known = moves.get(text)
        if known is not None:
            return known
        uci = _UCI.fullmatch(text)
        san = None if uci else _SAN.fullmatch(text)
        if uci:
            source = self.lookup[uci[1]]
            target = self.lookup[uci[2]]
            promotion = (uci[3] or "").upper()
            piece = self._piece_on(board, source)
        elif san:
            target = self.lookup[san[4]]
            promotion = (san[5] or "").upper()
            piece = (san[1] or "P").upper()
            source = self._source_of(board, piece, san[2], san[3])
        else:
            raise InvalidAction(f"{text!r} is not a move: {MOVE_FORMAT}")
        for move in moves.values():
            if (move.piece, move.source, move.target, move.promotion) == (
                piece,
                source,
                target,
                promotion,
            ):
                return move
        raise InvalidAction(self.why_illegal(board, piece, source, target, promotion))

    def _piece_on(self, board: EndgameBoard, square: int) -> str:
        if square == board.strong_king:
            return "K"
        if board.piece and square == board.piece_square:
            return board.piece
        name = self.names[square]
        if square == board.weak_king:
            raise InvalidAction(f"{name} holds {self.weak_colour}'s king, not one of your pieces")
        raise InvalidAction(f"there is no piece of yours on {name}")

    def _source_of(
        self, board: EndgameBoard, piece: str, file: str | None, rank: str | None
    ) -> int:
        if piece == "K":
            source = board.strong_king
        elif board.piece == piece:
            source = board.piece_square
        elif piece == "P":
            raise InvalidAction(f"you have no pawn; name the piece that moves ({MOVE_FORMAT})")
        else:
            raise InvalidAction(f"you have no {PIECE_NAMES[piece]}")
        name = self.names[source]
        if (file and file != name[0]) or (rank and rank != name[1]):
            raise InvalidAction(f"your {PIECE_NAMES[piece]} is on {name}")
        return source

    def why_illegal(
        self, board: EndgameBoard, piece: str, source: int, target: int, promotion: str
    ) -> str:
        """The rule a move of the strong side's ``piece`` breaks (checked in this order)."""
        names = self.names
        what = PIECE_NAMES[piece]
        last_rank = target >= 56
        if target == source:
            return f"a move must leave {names[source]}"
        if target == board.strong_king or (board.piece and target == board.piece_square):
            own = "king" if target == board.strong_king else PIECE_NAMES[board.piece]
            return f"{names[target]} holds your own {own}"
        if target == board.weak_king:
            return "a king cannot be captured"
        if promotion and (piece != "P" or not last_rank):
            return "only a pawn reaching the last rank promotes"
        if piece == "K":
            if distance(source, target) != 1:
                return "the king moves one square at a time"
            return f"the king may not move next to {self.weak_colour}'s king"
        if piece == "P":
            step = target - source
            if step == 8 and last_rank and not promotion:
                return (
                    f"a pawn reaching the last rank must promote: write {names[target]}=Q "
                    "(or =R, =B, =N)"
                )
            if step != 8 and not (step == 16 and source < 16):
                return "the pawn moves straight forward one square (two from its first rank)"
            return f"the pawn is blocked on its way to {names[target]}"
        kind = LINE_KIND[source][target]
        if not kind or (piece == "R" and kind != "R"):
            lines = "ranks and files" if piece == "R" else "ranks, files and diagonals"
            return f"the {what} moves along {lines}"
        between = BETWEEN[source][target] or ()
        for square in between:
            if square == board.strong_king:
                return f"your king on {names[square]} blocks the {what}'s way"
            if square == board.weak_king:
                return f"{self.weak_colour}'s king on {names[square]} blocks the {what}'s way"
        return f"{what} {names[source]}-{names[target]} is not legal here"  # pragma: no cover


def board_from_fen(fen: str) -> tuple[EndgameBoard, bool]:
    """The position of a KQK, KRK or KPK FEN, and whether the strong side is White.

    Only the placement and side-to-move fields are read. The side with the extra piece
    may be either colour and either may be to move.

    Raises:
        ValueError: the FEN is malformed, is not one of the three endgames, or is not a
            legal position.
    """
    fields = fen.split()
    if len(fields) < 2 or fields[1] not in ("w", "b"):
        raise ValueError(f"not a FEN with a side to move: {fen!r}")
    rows = fields[0].split("/")
    if len(rows) != 8:
        raise ValueError(f"a FEN's placement has 8 ranks: {fen!r}")
    found: dict[str, int] = {}
    for rank, row in zip(range(7, -1, -1), rows, strict=True):
        file = 0
        for char in row:
            if char.isdigit():
                file += int(char)
                continue
            if char not in "KQRPkqrp" or char in found or file > 7:
                raise ValueError(f"not a KQK, KRK or KPK position: {fen!r}")
            found[char] = rank * 8 + file
            file += 1
        if file != 8:
            raise ValueError(f"rank {rank + 1} does not have 8 squares: {fen!r}")
    pieces = [c for c in found if c not in "Kk"]
    if "K" not in found or "k" not in found or len(pieces) != 1:
        raise ValueError(f"not a KQK, KRK or KPK position: {fen!r}")
    strong_is_white = pieces[0].isupper()
    mirror = 0 if strong_is_white else 56
    strong_king = found["K" if strong_is_white else "k"] ^ mirror
    weak_king = found["k" if strong_is_white else "K"] ^ mirror
    strong_to_move = (fields[1] == "w") == strong_is_white
    board = EndgameBoard(
        strong_king, weak_king, pieces[0].upper(), found[pieces[0]] ^ mirror, strong_to_move
    )
    problem = board.problem()
    if problem:
        raise ValueError(f"not a legal position ({problem}): {fen!r}")
    return board, strong_is_white
