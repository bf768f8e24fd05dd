"""The trainer's ``transcripts.jsonl`` of a rollout: its lines, kept in step with the records.

What a line holds is described in :mod:`envsuite.evaluation.rollout`; here are how lines
are built from a record (one per episode, or per chat seat of a game), keyed, written
(an episode's lines in one write) and read back, and how a resumed run drops the lines of
episodes that have no record.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from envsuite.evaluation.game_rollout import SeatPlay
from envsuite.jsonable import to_jsonable
from envsuite.records import EpisodeRecord, RecordFileError, episode_key

#: The trainer's file in a rollout's run directory.
TRANSCRIPTS_FILE = "transcripts.jsonl"

#: Key of an episode: (task, env, kwargs as JSON, seed, attempt), as records are keyed.
Key = tuple[str, str, str, int, int]


def transcript_line(
    record: EpisodeRecord,
    messages: list[dict[str, Any]],
    rewards: list[float],
    usage: list[dict[str, float]],
) -> dict[str, Any]:
    """The transcript line of a record, with the messages, rewards and usage of its agent."""
    info = record.agent_info.get("rollout", {})
    return {
        "run_id": record.run_id,
        "task_id": record.task_id,
        "env_id": record.env_id,
        "env_kwargs": record.env_kwargs,
        "seed": record.seed,
        "attempt": record.attempt,
        "group": info.get("group"),
        "member": info.get("member"),
        "sampling": info.get("sampling"),
        "messages": messages,
        "rewards": rewards,
        "usage": usage,
        "episode_return": record.episode_return,
        "success": record.success,
        "infra_error": record.infra_error,
    }


def seat_line(record: EpisodeRecord, play: SeatPlay) -> dict[str, Any]:
    """The transcript line of one chat seat of a game (see the module docstring)."""
    line = transcript_line(record, play.transcript.messages, play.transcript.rewards, play.usage)
    returns = record.episode_return
    outcome = record.agents.get(play.seat)
    line.update(
        seat=play.seat,
        model=play.model,
        sampling=play.sampling or line["sampling"].get(play.seat),
        episode_return=returns.get(play.seat) if isinstance(returns, Mapping) else returns,
        outcome=None if outcome is None else outcome.model_dump(mode="json"),
    )
    return line


#: Key of a transcript line: its episode's key and its seat (None for single-agent envs).
LineKey = tuple[Key, str | None]


def line_key(line: Mapping[str, Any]) -> LineKey:
    """The key of a ``transcripts.jsonl`` line: its episode's key and its seat.

    The episode's key is the record's (:attr:`EpisodeRecord.key`).
    """
    episode = episode_key(
        line["task_id"], line["env_id"], line["env_kwargs"], line["seed"], line["attempt"]
    )
    return episode, line.get("seat")


class TranscriptFile:
    """The run's ``transcripts.jsonl``, kept in step with its records.

    Opening it drops a partial last line, any line whose episode has no record (the run was
    killed between the two writes: the episode runs again) and any repeat of an episode,
    rewriting the file atomically when something was dropped.

    Args:
        path: The file.
        recorded: The keys of the episodes recorded in ``episodes.jsonl``.

    Raises:
        RecordFileError: a complete line that is not a JSON transcript line.
    """

    def __init__(self, path: Path, recorded: set[Key]) -> None:
        self.path = path
        self.dropped = 0
        if not path.exists():
            return
        data = path.read_bytes()
        complete = data[: data.rfind(b"\n") + 1]
        kept: list[bytes] = []
        seen: set[LineKey] = set()
        for number, raw in enumerate(complete.splitlines(keepends=True), start=1):
            if not raw.strip():
                continue
            try:
                key = line_key(json.loads(raw))
            except (ValueError, KeyError, TypeError) as exc:
                raise RecordFileError(
                    f"{path}:{number}: not a transcript line ({type(exc).__name__}: {exc})"
                ) from exc
            if key[0] in recorded and key not in seen:
                seen.add(key)
                kept.append(raw)
        body = b"".join(kept)
        if body != data:
            self.dropped = len(complete.splitlines()) - len(kept) + (complete != data)
            handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".transcripts-")
            try:
                with os.fdopen(handle, "wb") as out:
                    out.write(body)
                os.replace(temporary, path)
            except BaseException:
                Path(temporary).unlink(missing_ok=True)
                raise

    def append(self, *lines: Mapping[str, Any]) -> None:
        """Write an episode's transcript lines at once, flushed to the OS before returning."""
        text = "".join(
            json.dumps(to_jsonable(dict(line)), ensure_ascii=False) + "\n" for line in lines
        )
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()


def read_transcripts(path: str | Path) -> list[dict[str, Any]]:
    """Every complete line of a ``transcripts.jsonl`` (a partial last line is skipped)."""
    data = Path(path).read_bytes()
    lines = data[: data.rfind(b"\n") + 1].decode("utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]
