"""Short names of env configurations, for plot ticks, legends and terminal tables.

A report's markdown names every configuration in full (env id and canonical kwargs). Plots
and terminal tables have no room for that: there a configuration is its env name plus only
the kwargs that tell it apart from the other configurations of the same env, each value
shortened (a data file by the part of its name that differs). Text is wrapped at word
boundaries only, never inside a word.
"""

from __future__ import annotations

import json
import textwrap
from collections import defaultdict
from collections.abc import Sequence
from pathlib import PurePosixPath
from typing import Any

from envsuite.evaluation.metrics.record_groups import TaskKey
from envsuite.evaluation.report.formatting import ENV_PREFIX
from envsuite.jsonable import canonical_json

#: Longest kwarg value shown in a short label, in characters (longer ones end in "…").
VALUE_WIDTH = 24
#: Separator of the words in data file names (``n3_k5_length20_sample100.jsonl``).
FILE_WORD = "_"


def env_name(task: TaskKey) -> str:
    """The env id without the ``envsuite/`` prefix."""
    return task[1].removeprefix(ENV_PREFIX)


def _config(task: TaskKey) -> dict[str, Any]:
    config = json.loads(task[2])
    return config if isinstance(config, dict) else {}


def _text(value: Any) -> str:
    return value if isinstance(value, str) else canonical_json(value)


#: Items of a list kwarg a title shows before it summarises the rest.
LIST_ITEMS = 2


def _title_value(value: Any) -> str:
    if isinstance(value, list) and value:
        shown = [_text(item) for item in value[:LIST_ITEMS]]
        if len(value) > LIST_ITEMS:
            shown.append(f"… ({len(value)} items)")
        return "[" + ", ".join(shown) + "]"
    return _text(value)


def config_text(task: TaskKey) -> str:
    """A configuration in words: ``Bandit-v0 arm_type=gaussian horizon=100``.

    Lists show their first items and their length (the full configuration is in the
    report's tables), with spaces between items, so the text wraps between words.
    """
    items = sorted(_config(task).items())
    return " ".join([env_name(task), *(f"{key}={_title_value(value)}" for key, value in items)])


def _is_path(value: Any) -> bool:
    return isinstance(value, str) and "/" in value


def _stem(path: str) -> str:
    name = PurePosixPath(path).name
    return name.split(".", 1)[0] or name


def _cut(text: str) -> str:
    return text if len(text) <= VALUE_WIDTH else text[: VALUE_WIDTH - 1] + "…"


def _short_values(values: Sequence[Any]) -> list[str]:
    """Values of one kwarg across configurations, shortened but still told apart.

    Data files become their file name without extension, then without the words
    (``_``-separated) every one of them shares: ``.../n3_k5_length20_sample100.jsonl``
    becomes ``n3_k5_length20``. Missing values (None) show as ``-``.
    """
    if values and all(_is_path(value) for value in values):
        words = [_stem(value).split(FILE_WORD) for value in values]
        shared = set.intersection(*(set(w) for w in words))
        kept = [FILE_WORD.join(w for w in split if w not in shared) for split in words]
        if len(set(kept)) == len(set(values)) and all(kept):
            return [_cut(text) for text in kept]
        return [_cut(_stem(value)) for value in values]
    return ["-" if value is None else _cut(_text(value)) for value in values]


def short_labels(tasks: Sequence[TaskKey], *, always_env: bool = False) -> dict[TaskKey, list[str]]:
    """The lines naming each configuration among ``tasks``, shortest that tell them apart.

    Line one is the env name, left out when every task is of one env (a plot then names it
    once, in its axis label) unless ``always_env``; then one ``key=value`` line per kwarg
    whose value differs between the tasks of that env.

    Args:
        tasks: The configurations shown together.
        always_env: Keep the env name even when every task shares it.

    Returns:
        Task -> its lines (never empty: a lone configuration is named by its env).
    """
    by_env: dict[str, list[TaskKey]] = defaultdict(list)
    for task in tasks:
        by_env[task[1]].append(task)
    one_env = len(by_env) == 1 and not always_env
    labels: dict[TaskKey, list[str]] = {}
    for group in by_env.values():
        configs = [_config(task) for task in group]
        keys = sorted({key for config in configs for key in config})
        differ = [key for key in keys if len({canonical_json(c.get(key)) for c in configs}) > 1]
        shown = {key: _short_values([c.get(key) for c in configs]) for key in differ}
        for index, task in enumerate(group):
            lines = [f"{key}={shown[key][index]}" for key in differ]
            labels[task] = lines if one_env and lines else [env_name(task), *lines]
    return labels


def one_line_labels(tasks: Sequence[TaskKey], *, always_env: bool = False) -> dict[TaskKey, str]:
    """:func:`short_labels` joined into one line each, for legends and table cells."""
    labels = short_labels(tasks, always_env=always_env)
    return {task: " ".join(lines) for task, lines in labels.items()}


def shared_env(tasks: Sequence[TaskKey]) -> str | None:
    """The env name every task shares, or None when they are of several envs."""
    names = {env_name(task) for task in tasks}
    return names.pop() if len(names) == 1 else None


def short_agent_names(names: Sequence[str]) -> dict[str, str]:
    """Each agent name shortened for a plot: ``pkg.module:Class`` becomes ``Class``.

    A class path is cut to its last part only where no other name cuts to the same text
    (two ``Bot`` classes of different modules keep their paths); the words around it, as
    in ``pkg.mod:Bot as seer``, stay.
    """

    def cut(name: str) -> str:
        return " ".join(
            word.rpartition(":")[2] if ":" in word else word for word in name.split(" ")
        )

    cuts = {name: cut(name) for name in names}
    counts: dict[str, int] = defaultdict(int)
    for name in dict.fromkeys(names):
        counts[cuts[name]] += 1
    return {name: cuts[name] if counts[cuts[name]] == 1 else name for name in names}


def wrap_words(text: str, width: int) -> str:
    """``text`` wrapped at spaces into lines of at most ``width`` characters where possible.

    A word longer than ``width`` stays whole on its own line: a label that breaks inside a
    word (``berno ulli``) reads as two words.
    """
    lines = textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False)
    return "\n".join(lines) or text
