"""Screens of a recorded episode: a strip of its first, middle and last frames per configuration.

Records hold action traces, not pictures. For each env configuration of a report whose
env draws pictures of its own (it offers ``render_mode="rgb_array"`` and overrides the
text bases' ``render``, as :mod:`envsuite.env_base` asks of envs with pictures: the GUI
envs, the drones, the arm; text envs, whose frames are their text drawn on an image, get
none), ONE recorded episode is replayed in the env made with ``render_mode="rgb_array"``
and three of its frames are drawn side by side into a PNG next to ``report.md``: the
first screen (after ``reset``), the screen after the middle step and the last one. So the
cost is one episode per configuration, whatever the number of episodes in the runs.

The episode is the first replayable record (no infra error, a full trace) in the runs'
canonical order (run, then seed, then attempt) that succeeded, or the first replayable one
when none did. The replay feeds the recorded actions through the shared episode loop
(:mod:`envsuite.episodes`) and checks every reward against the record, so a strip never
shows an episode other than the recorded one: a configuration whose replay differs (a
nondeterministic env), fails or cannot be made here (a missing extra) gets a note instead
of a strip. Multi-agent configurations get none (their envs draw text frames).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from envsuite.episodes import EnvCallError, StopEpisode, from_json_action, run_episode
from envsuite.evaluation.metrics.record_groups import TaskKey, task_key
from envsuite.evaluation.report.formatting import short_task
from envsuite.evaluation.report.load import Run
from envsuite.records import EpisodeRecord
from envsuite.registry import EnvSpec, registry
from envsuite.rendering import TextRendering
from envsuite.text_image import FONT_PATH

#: Longest configuration part of a strip's file name, in characters.
FILE_NAME_CHARS = 60
#: Tallest frame in a strip, in pixels (taller frames are scaled down).
MAX_FRAME_HEIGHT = 320
PADDING = 8
LABEL_HEIGHT = 22
FONT_SIZE = 13
BACKGROUND = (255, 255, 255)
BORDER = (190, 190, 190)
INK = (40, 40, 40)


@dataclass(frozen=True)
class ScreenStrip:
    """The strip of one configuration, or why it has none.

    Attributes:
        task: The env configuration.
        file: The PNG's name, relative to the report (None when no strip was drawn).
        run: The label of the run whose episode is shown.
        seed: The episode's seed.
        attempt: The episode's attempt index.
        steps: The step after which each frame was taken (0: after ``reset``).
        length: The episode's length.
        success: The recorded success.
        instruction: The episode's instruction, where the env gives one
            (``info["instruction"]`` after ``reset``, as the GUI envs do).
        note: Why there is no strip (None when there is one).
    """

    task: TaskKey
    file: str | None
    run: str = ""
    seed: int = 0
    attempt: int = 0
    steps: tuple[int, ...] = ()
    length: int = 0
    success: bool | None = None
    instruction: str | None = None
    note: str | None = None


def draws_pictures(spec: EnvSpec) -> bool:
    """Whether ``spec``'s env draws pictures of its own (see the module docstring).

    Read from the env class, without making an env; a class that cannot be imported here
    (a missing extra) draws none.
    """
    if spec.multi_agent:
        return False
    try:
        cls = spec.load()
    except Exception:  # a missing extra: the report goes on without its screens
        return False
    modes = getattr(cls, "metadata", {}).get("render_modes", [])
    return "rgb_array" in modes and getattr(cls, "render", None) is not TextRendering.render


def frame_steps(length: int) -> tuple[int, ...]:
    """The steps whose frames a strip shows: the first, the middle and the last."""
    return tuple(sorted({0, length // 2, length}))


def _replayable(record: EpisodeRecord) -> bool:
    if record.infra_error is not None or len(record.trace) != record.length:
        return False
    return not any(
        isinstance(step.action, dict)
        and ("trace_cut" in step.action or "unserialisable" in step.action)
        for step in record.trace
    )


def chosen_episodes(runs: Sequence[Run]) -> dict[TaskKey, tuple[Run, EpisodeRecord]]:
    """The episode each configuration's strip shows (see the module docstring)."""
    chosen: dict[TaskKey, tuple[Run, EpisodeRecord]] = {}
    won: set[TaskKey] = set()
    for run in runs:
        for record in run.records:
            key = task_key(record)
            if key in won or not _replayable(record):
                continue
            if key not in chosen or record.success:
                chosen[key] = (run, record)
            if record.success:
                won.add(key)
    return chosen


class _Replay:
    """Feeds a record's actions to the loop, checks its rewards and keeps chosen frames."""

    def __init__(self, record: EpisodeRecord, env: Any, steps: tuple[int, ...]) -> None:
        self.record = record
        self.env = env
        self.steps = steps
        self.frames: dict[int, np.ndarray] = {}
        self.index = 0
        self.instruction: str | None = None

    def keep(self, step: int) -> None:
        if step in self.steps:
            frame = self.env.render()
            if not (isinstance(frame, np.ndarray) and frame.ndim == 3 and frame.shape[2] == 3):
                raise StopEpisode(f"render() gave {type(frame).__name__}, not an RGB image")
            self.frames[step] = frame.astype(np.uint8, copy=True)

    def first(self, info: Mapping[str, Any]) -> None:
        """Keep the first frame and the instruction, after ``reset``."""
        self.keep(0)
        instruction = info.get("instruction")
        self.instruction = instruction if isinstance(instruction, str) else None

    def policy(self, agent: Any, observation: Any, info: Mapping[str, Any]) -> Any:
        if self.index == 0:
            self.first(info)
        return from_json_action(self.record.trace[self.index].action, self.env.action_space)

    def observer(self, agent: Any, action: Any, observation: Any, reward: Any, *rest: Any) -> None:
        recorded = self.record.trace[self.index].reward
        self.index += 1
        if float(reward) != recorded:
            raise StopEpisode(
                f"step {self.index} replays with reward {reward!r}, recorded {recorded!r}"
            )
        self.keep(self.index)

    def stop(self, steps: int) -> str | None:
        return "end of trace" if steps >= len(self.record.trace) else None


def replay_frames(
    record: EpisodeRecord, steps: tuple[int, ...], make: Callable[[], Any]
) -> tuple[dict[int, np.ndarray], str | None]:
    """The frames after ``steps`` of the recorded episode, replayed in ``make()``'s env.

    Returns:
        The frames by step, and the instruction (``info["instruction"]`` after ``reset``)
        where the env gives one.

    Raises:
        ValueError: the replay differs from the record, or the env gives no RGB frame.
        EnvCallError: the env raised while replaying.
    """
    env = make()
    try:
        replay = _Replay(record, env, steps)
        if record.length == 0:
            _, info = env.reset(seed=record.seed)
            replay.first(info)
            return replay.frames, replay.instruction
        result = run_episode(
            "gymnasium", env, record.seed, replay.policy, observer=replay.observer, stop=replay.stop
        )
    finally:
        env.close()
    if result.stop_reason not in ("end of trace", "terminated", "truncated"):
        raise ValueError(result.stop_reason)
    if replay.index != record.length:
        raise ValueError(f"the env ended the episode after {replay.index} of {record.length} steps")
    return replay.frames, replay.instruction


def _font(size: int) -> Any:
    from PIL import ImageFont

    return ImageFont.truetype(str(FONT_PATH), size, layout_engine=ImageFont.Layout.BASIC)


def _label(step: int, length: int, success: bool | None) -> str:
    if step == 0:
        return "start"
    if step < length:
        return f"step {step} of {length}"
    ending = "success" if success else "no success"
    return f"step {step} (last, {ending})"


def strip_image(frames: Mapping[int, np.ndarray], length: int, success: bool | None) -> Any:
    """The frames side by side, each labelled below, as a Pillow image."""
    from PIL import Image, ImageDraw

    font = _font(FONT_SIZE)
    pictures = []
    for step in sorted(frames):
        picture = Image.fromarray(frames[step], "RGB")
        if picture.height > MAX_FRAME_HEIGHT:
            width = max(1, round(picture.width * MAX_FRAME_HEIGHT / picture.height))
            picture = picture.resize((width, MAX_FRAME_HEIGHT), Image.Resampling.LANCZOS)
        pictures.append((step, picture))
    height = max(picture.height for _, picture in pictures)
    width = sum(picture.width for _, picture in pictures) + PADDING * (len(pictures) + 1)
    strip = Image.new("RGB", (width, height + LABEL_HEIGHT + 2 * PADDING), BACKGROUND)
    draw = ImageDraw.Draw(strip)
    left = PADDING
    for step, picture in pictures:
        strip.paste(picture, (left, PADDING))
        draw.rectangle(
            (left - 1, PADDING - 1, left + picture.width, PADDING + picture.height), outline=BORDER
        )
        draw.text((left, PADDING + height + 5), _label(step, length, success), fill=INK, font=font)
        left += picture.width + PADDING
    return strip


def _make_env(record: EpisodeRecord) -> Callable[[], Any]:
    spec = registry[record.env_id]
    return lambda: spec.make(**record.env_kwargs, render_mode="rgb_array")


def draw_screens(
    runs: Sequence[Run],
    tasks: Sequence[TaskKey],
    target: Path,
    file_name: Callable[[int, TaskKey], str],
) -> list[ScreenStrip]:
    """Draw each picture-drawing configuration's strip into ``target``, in ``tasks`` order.

    Args:
        runs: The runs reported.
        tasks: The report's configurations, in its order.
        target: The report directory.
        file_name: The PNG's name of the ``n``-th configuration (counted from 1 in
            ``tasks``).

    Returns:
        One :class:`ScreenStrip` per configuration whose env draws pictures (with a note
        instead of a file where its episode could not be replayed).
    """
    chosen = chosen_episodes(runs)
    strips: list[ScreenStrip] = []
    for number, task in enumerate(tasks, start=1):
        env_id = task[1]
        if env_id not in registry or not draws_pictures(registry[env_id]):
            continue
        if task not in chosen:
            strips.append(ScreenStrip(task, None, note="no episode with a full action trace"))
            continue
        run, record = chosen[task]
        steps = frame_steps(record.length)
        shown = ScreenStrip(
            task,
            None,
            run=run.label,
            seed=record.seed,
            attempt=record.attempt,
            length=record.length,
            success=record.success,
        )
        try:
            frames, instruction = replay_frames(record, steps, _make_env(record))
        except (EnvCallError, ValueError, StopEpisode) as exc:
            strips.append(replace(shown, note=f"the replay failed: {exc}"))
            continue
        except Exception as exc:  # the env cannot be made here (a missing extra, ...)
            note = f"the env cannot replay here: {type(exc).__name__}: {exc}"
            strips.append(replace(shown, note=note))
            continue
        name = file_name(number, task)
        strip_image(frames, record.length, record.success).save(target / name)
        strips.append(
            replace(shown, file=name, steps=tuple(sorted(frames)), instruction=instruction)
        )
    return strips


def _quoted(text: str) -> str:
    """``text`` on one line, as markdown that shows it as written."""
    line = " ".join(text.split())
    return "*" + "".join(f"\\{char}" if char in "\\`*_[]<>#|" else char for char in line) + "*"


def strip_file_name(index: int, task: TaskKey) -> str:
    """``screens-<index>-<env name>-<kwarg values>.png``, at most ~80 characters.

    The ``task`` kwarg's value comes first, then the other strings, then the rest, so the
    name says which configuration it shows even when it is cut.
    """
    _, env_id, kwargs = task
    options = json.loads(kwargs)
    values = sorted(
        options.values(),
        key=lambda value: (value is not options.get("task"), not isinstance(value, str)),
    )
    words = re.split(
        r"[^A-Za-z0-9]+", " ".join([env_id.removeprefix("envsuite/"), *map(str, values)])
    )
    kept: list[str] = []
    for word in filter(None, words):
        if len("-".join([*kept, word])) > FILE_NAME_CHARS:
            break
        kept.append(word)
    return f"screens-{index}-{'-'.join(kept) or 'env'}.png"


def screens_section(strips: Sequence[ScreenStrip]) -> list[str]:
    """The report's "Screens" section (empty without strips)."""
    if not strips:
        return []
    lines = [
        "## Screens",
        "",
        "One recorded episode per env configuration (the first that succeeded, in run, "
        "seed and attempt order), replayed from its action trace with every reward checked "
        "against the record: the first screen, the screen after the middle step and the "
        "last screen.",
        "",
    ]
    for strip in strips:
        name = short_task(strip.task)
        lines += [f"### {name}", ""]
        if strip.file is None:
            lines += [f"No screens: {strip.note}.", ""]
            continue
        outcome = "succeeded" if strip.success else "did not succeed"
        lines += [
            f"![screens of {name}]({strip.file})",
            "",
            f"Run `{strip.run}`, seed {strip.seed}, attempt {strip.attempt}: "
            f"{strip.length} step(s), {outcome}."
            + ("" if strip.instruction is None else f" Instruction: {_quoted(strip.instruction)}"),
            "",
        ]
    return lines
