"""An optional Stockfish defender for ChessEndgame-v0: a fixed node count, never a clock.

The tablebase defender is perfect in these endgames; Stockfish is a different, engine-like
(and possibly weaker) defender for studying how a policy copes with it. Every search is
``go nodes N`` with one thread and a fixed hash that is cleared before the search
(``ucinewgame``), so a reply depends only on the position, ``N`` and the Stockfish build
— never on the wall clock, the machine's speed or earlier searches. The binary is not
shipped: install it (Debian: ``apt-get install stockfish``, which puts it in
``/usr/games``) or pass its path. python-chess (the ``text`` extra) talks UCI to it.
"""

from __future__ import annotations

import contextlib
import shutil
from typing import Any

from envsuite.errors import EnvsuiteError

#: Where the binary is looked for when no path is given (Debian installs to /usr/games).
STOCKFISH_NAMES = ("stockfish", "/usr/games/stockfish")
#: Stockfish settings fixed for reproducibility.
STOCKFISH_OPTIONS = {"Threads": 1, "Hash": 16}
MISSING_STOCKFISH = (
    "opponent='stockfish' needs the Stockfish binary: install it (Debian: apt-get install "
    "stockfish) or pass engine_path; looked for {where}"
)


def find_stockfish(path: str | None = None) -> str | None:
    """The Stockfish executable at ``path`` (or on PATH, or in /usr/games), or None."""
    for name in (path,) if path else STOCKFISH_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


class StockfishDefender:
    """Asks Stockfish for the weak side's reply, searching a fixed number of nodes.

    The engine process starts on the first reply and stops at :meth:`close`; a pickled
    copy starts its own.

    Args:
        path: The Stockfish executable (see :func:`find_stockfish`).
        nodes: Nodes per search.

    Raises:
        EnvsuiteError: no Stockfish executable was found.
    """

    def __init__(self, path: str | None, nodes: int) -> None:
        found = find_stockfish(path)
        if found is None:
            where = repr(path) if path else " and ".join(STOCKFISH_NAMES)
            raise EnvsuiteError(MISSING_STOCKFISH.format(where=where))
        self.path = found
        self.nodes = nodes
        self._engine: Any = None

    def reply(self, fen: str) -> str:
        """Stockfish's move (UCI) in the position ``fen``."""
        import chess
        import chess.engine

        if self._engine is None:
            self._engine = chess.engine.SimpleEngine.popen_uci(self.path)
            self._engine.configure(STOCKFISH_OPTIONS)
        # A new game object makes python-chess send ``ucinewgame``: the hash starts empty.
        limit = chess.engine.Limit(nodes=self.nodes)
        result = self._engine.play(chess.Board(fen), limit, game=object())
        if result.move is None:  # pragma: no cover - only in positions without a move
            raise EnvsuiteError(f"Stockfish found no move in {fen!r}")
        return str(result.move.uci())

    def close(self) -> None:
        """Stop the engine process, if it runs."""
        if self._engine is not None:
            self._engine.quit()
            self._engine = None

    def __getstate__(self) -> dict[str, Any]:
        return {"path": self.path, "nodes": self.nodes, "_engine": None}

    def __del__(self) -> None:
        # The process may already be gone (interpreter exit); nothing is left to stop.
        with contextlib.suppress(Exception):
            self.close()
