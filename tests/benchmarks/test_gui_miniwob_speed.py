"""GuiForm-v0 against MiniWoB++ on the matching task types, side by side in the same run.

MiniWoB++ is Farama's ``miniwob`` package (1.1.0, pinned in the ``bench`` extra: it
installs next to envsuite's pins and changes none of them) driving Debian's headless
Chromium (``/usr/bin/chromium``) through Debian's chromedriver (``/usr/bin/chromedriver``,
package ``chromium-driver``; both from ``scripts/install-system-packages``). Both paths are
given explicitly (``MINIWOB_CHROME_BINARY`` / ``MINIWOB_CHROMEDRIVER``, which make Selenium
skip Selenium Manager; ``SE_OFFLINE=true`` keeps Selenium Manager offline should anything
call it), so nothing is downloaded at run time.

The task types are those both have (``TASKS``; envsuite's ``GuiForm-v0`` ``task=`` of
the same MiniWoB++ name). For each one, two groups:

- ``gui-miniwob-<task>-steps``: whole solved episodes, resets included (amortised over the
  episodes), as env steps per second:

  - ``test_miniwob_steps``: ``gymnasium.make("miniwob/<task>-v1")`` (headless), the
    screenshots as MiniWoB++ returns them (160 x 210 RGB every step, with its DOM and
    utterance); ``reset(seed=...)`` then the steps of a short solver reading the first
    observation's fields and DOM (``CLICK_ELEMENT`` on the target,
    ``FOCUS_ELEMENT_AND_TYPE_TEXT`` for text fields and the list; 1-4 steps an episode).
    Each episode is checked to end with MiniWoB++'s raw reward 1.
  - ``test_envsuite_steps[<task>-screenshot]``: ``envsuite.make("envsuite/GuiForm-v0",
    task=<task>, observation_mode="screenshot")`` (the Pillow simulator, 256 x 256
    screenshots every step), replaying the registered oracle's recorded episodes (every
    one ends in success; envsuite types a text in its own step after the click that
    focuses the field, so its episodes are up to twice as long: login-user is 5 steps
    here, 3 in MiniWoB++).
  - ``test_envsuite_steps[<task>-no-render]``: the same in ``"instruction"`` mode
    (nothing drawn or described).

- ``gui-miniwob-<task>-resets``: resets only (``test_miniwob_resets`` and
  ``test_envsuite_resets[<task>-screenshot|no-render]``; MiniWoB++'s reset ends the
  episode, starts the next one in the page and takes its first screenshot).

Each row's ``extra_info`` has ``env_steps_per_s`` and ``episodes_per_s`` (steps rows) or
``env_resets_per_s`` (resets rows); the envsuite rows add ``miniwob_steps_per_s``
(``miniwob_resets_per_s``), ``ratio_vs_miniwob`` (envsuite's rate over MiniWoB++'s) and,
for steps, ``episode_ratio_vs_miniwob`` (solved episodes per second over MiniWoB++'s: the
ratio that does not depend on how many steps each side needs). The MiniWoB++ loop is timed
on the spot when its row did not run in this session. Times are wall clock: MiniWoB++'s
work happens in chromedriver and Chromium, other processes, so this process's CPU time
would leave most of it out.

MiniWoB++'s rows need ``miniwob`` (``pip install -e ".[bench]"``), Chromium and
chromedriver. Where one is missing they fail when ``ENVSUITE_REQUIRE_ALL_EXTRAS=1`` (the
test default: CI installs everything) and skip otherwise, before anything is timed;
envsuite's rows then run without ratios.

Measured 2026-11-28 (MiniWoB++ 1.1.0, Selenium 4.51, Chromium 156.0.8078.108 from Debian
12, headless; 2 cores shared with other jobs, load average 8; mean of 3 rounds; steps/s
with resets included, and in brackets envsuite's rate over MiniWoB++'s)::

    steps/s           MiniWoB++   GuiForm screenshot   GuiForm no-render
    click-button         10.4        679 (65x)          2,884 (277x)
    click-link           11.3        346 (31x)          1,496 (132x)
    focus-text           11.8        647 (55x)          3,691 (311x)
    click-dialog         10.9        246 (23x)          1,974 (181x)
    click-checkboxes     13.4      1,388 (103x)         9,178 (683x)
    enter-text            7.7      1,724 (223x)         9,483 (1228x)
    login-user            8.3      1,150 (138x)         8,122 (977x)
    choose-list          10.9      1,028 (94x)          4,525 (416x)

    resets/s          MiniWoB++   GuiForm screenshot   GuiForm no-render
    click-button         11.0      1,086 (99x)          4,250 (387x)
    click-link           11.8        919 (78x)          2,685 (228x)
    focus-text           12.8      1,176 (92x)          3,917 (306x)
    click-dialog          8.5        597 (70x)          4,811 (566x)
    click-checkboxes     11.9      1,092 (91x)          4,156 (348x)
    enter-text           12.0      1,507 (126x)         5,728 (477x)
    login-user           10.7      1,420 (133x)         6,085 (569x)
    choose-list          10.9      1,563 (143x)         4,717 (432x)

In solved episodes per second (envsuite's episodes are longer) the screenshot rows are
23-134x MiniWoB++'s and the no-render rows 132-738x. Two earlier runs on the same machine
under heavier load (load average 13-16) gave MiniWoB++ 2-13 steps/s and ratios of 20-220x
(screenshot) and 94-660x (no render): the ratios hold their order of magnitude, the
absolute rates move with the load. One-step tasks (click-button, click-link, focus-text,
click-dialog) are all reset on both sides, so their steps/s is about their resets/s.

Nothing here asserts a time. ``pytest tests/benchmarks/test_gui_miniwob_speed.py
--benchmark-enable`` prints the tables; the repo's config passes ``--benchmark-disable``,
so in CI each row runs once as a plain test.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import envsuite

#: The MiniWoB++ task types that GuiForm-v0 has under the same name.
TASKS = (
    "click-button",
    "click-link",
    "focus-text",
    "click-dialog",
    "click-checkboxes",
    "enter-text",
    "login-user",
    "choose-list",
)
ROUNDS = 3
#: Episodes per round: MiniWoB++ runs about ten steps a second, envsuite thousands.
MINIWOB_EPISODES = 4
MINIWOB_RESETS = 6
ENVSUITE_EPISODES = 200
ENVSUITE_RESETS = 200
#: envsuite's modes: the name of the row and the env's ``observation_mode``.
MODES = {"screenshot": "screenshot", "no-render": "instruction"}
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"

#: Rates measured in this session: ``(task, "steps" | "resets" | "episodes") -> per s``.
RATES: dict[tuple[str, str], float] = {}

Episode = tuple[int, list[str]]


# -- MiniWoB++ ------------------------------------------------------------------------------
def _missing_peer() -> str | None:
    """Why MiniWoB++ cannot run here, or None."""
    try:
        import miniwob  # noqa: F401
    except ImportError:
        return "MiniWoB++ is not installed (pip install -e '.[bench]')"
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not os.access(path, os.X_OK):
            return f"{path} is missing (Debian's {package}: scripts/install-system-packages)"
    return None


def require_peer() -> None:
    """Fail (every extra required) or skip when MiniWoB++ cannot run."""
    reason = _missing_peer()
    if reason is None:
        return
    if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") == "1":
        pytest.fail(f"{reason}; ENVSUITE_REQUIRE_ALL_EXTRAS=1 requires it")
    pytest.skip(reason)


_MINIWOB: dict[str, Any] = {}
#: What MiniWoB++ and Selenium read: Debian's browser and driver, and no download.
PEER_ENVIRONMENT = {
    "MINIWOB_CHROME_BINARY": CHROMIUM,
    "MINIWOB_CHROMEDRIVER": CHROMEDRIVER,
    "SE_OFFLINE": "true",
}


@pytest.fixture(scope="module", autouse=True)
def _peer_environment() -> Iterator[None]:
    """Set :data:`PEER_ENVIRONMENT` for this module; close the browsers and restore after."""
    saved = {name: os.environ.get(name) for name in PEER_ENVIRONMENT}
    os.environ.update(PEER_ENVIRONMENT)
    try:
        yield
    finally:
        for env in _MINIWOB.values():
            env.close()
        _MINIWOB.clear()
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def miniwob_env(task: str) -> Any:
    """The headless MiniWoB++ env of ``task`` on Debian's Chromium (one browser per task)."""
    if task not in _MINIWOB:
        import gymnasium
        import miniwob

        gymnasium.register_envs(miniwob)
        env = gymnasium.make(f"miniwob/{task}-v1")
        env.reset(seed=0)  # the page loaded, the first episode started
        _MINIWOB[task] = env
    return _MINIWOB[task]


def miniwob_plan(task: str, observation: dict[str, Any], env: Any) -> list[Any]:
    """A shortest solution from the first observation's fields and DOM."""
    from miniwob.action import ActionTypes

    elements = observation["dom_elements"]
    fields = dict(observation["fields"])
    create = env.unwrapped.create_action

    def ref(test: Callable[[dict[str, Any]], bool]) -> int:
        return next(int(element["ref"]) for element in elements if test(element))

    def click(test: Callable[[dict[str, Any]], bool]) -> Any:
        return create(ActionTypes.CLICK_ELEMENT, ref=ref(test))

    def type_into(tag: str, text: str) -> Any:
        return create(
            ActionTypes.FOCUS_ELEMENT_AND_TYPE_TEXT, ref=ref(lambda e: e["tag"] == tag), text=text
        )

    def submit() -> Any:
        return click(lambda e: e["tag"] == "button")

    if task == "click-button":
        return [click(lambda e: e["tag"] == "button" and e["text"] == fields["target"])]
    if task == "click-link":
        return [click(lambda e: e["tag"] == "span" and e["text"] == fields["target"])]
    if task == "focus-text":
        return [click(lambda e: e["tag"] == "input_text")]
    if task == "click-dialog":
        return [click(lambda e: "ui-dialog-titlebar-close" in e["classes"])]
    if task == "click-checkboxes":
        # Each checkbox's label is the text node (negative ref) right after it.
        words = {value for key, value in fields.items() if key.startswith("target")}
        boxes = [
            create(ActionTypes.CLICK_ELEMENT, ref=int(elements[index - 1]["ref"]))
            for index, element in enumerate(elements)
            if element["ref"] < 0 and element["text"] in words
        ]
        return [*boxes, submit()]
    if task == "enter-text":
        return [type_into("input_text", fields["target"]), submit()]
    if task == "login-user":
        return [
            type_into("input_text", fields["username"]),
            type_into("input_password", fields["password"]),
            submit(),
        ]
    if task == "choose-list":
        return [type_into("select", fields["target"]), submit()]
    raise ValueError(f"no MiniWoB++ solver for {task!r}")


def miniwob_episodes(env: Any, task: str, seeds: range) -> int:
    """Solve one episode per seed; returns the number of steps."""
    steps = 0
    for seed in seeds:
        observation, _ = env.reset(seed=seed)
        info: dict[str, Any] = {}
        terminated = False
        for action in miniwob_plan(task, observation, env):
            observation, _, terminated, _, info = env.step(action)
            steps += 1
        assert terminated and info["raw_reward"] == 1, f"MiniWoB++ {task}: not solved ({seed})"
    return steps


def miniwob_resets(env: Any) -> int:
    for seed in range(MINIWOB_RESETS):
        env.reset(seed=seed)
    return MINIWOB_RESETS


def miniwob_rate(task: str, kind: str) -> float | None:
    """MiniWoB++'s rate as measured in this session, or timed now (one round); None if absent."""
    if (task, kind) not in RATES:
        if _missing_peer() is not None:
            return None
        env = miniwob_env(task)
        if kind == "resets":
            RATES[task, kind] = MINIWOB_RESETS / _seconds(lambda: miniwob_resets(env))
        else:
            seeds = range(MINIWOB_EPISODES)
            started = time.perf_counter()
            steps = miniwob_episodes(env, task, seeds)
            seconds = time.perf_counter() - started
            RATES[task, "steps"] = steps / seconds
            RATES[task, "episodes"] = len(seeds) / seconds
    return RATES[task, kind]


# -- envsuite ------------------------------------------------------------------------------
_RECORDED: dict[str, list[Episode]] = {}


def envsuite_episodes(task: str) -> list[Episode]:
    """The registered oracle's episodes of ``task``, one per seed, each ending in success."""
    if task not in _RECORDED:
        env = envsuite.make("envsuite/GuiForm-v0", task=task, observation_mode="instruction")
        oracle = envsuite.spec("envsuite/GuiForm-v0").load_oracle()(env)
        episodes = []
        for seed in range(ENVSUITE_EPISODES):
            observation, info = env.reset(seed=seed)
            actions: list[str] = []
            terminated = truncated = False
            while not (terminated or truncated):
                actions.append(oracle.act(observation, info))
                observation, _, terminated, truncated, info = env.step(actions[-1])
            assert info["success"], f"the oracle failed {task} (seed {seed})"
            episodes.append((seed, actions))
        env.close()
        _RECORDED[task] = episodes
    return _RECORDED[task]


def envsuite_replay(env: Any, episodes: list[Episode]) -> int:
    """Replay the recorded episodes; returns the number of steps."""
    steps = 0
    for seed, actions in episodes:
        env.reset(seed=seed)
        for action in actions:
            env.step(action)
        steps += len(actions)
    return steps


def envsuite_resets(env: Any) -> int:
    for seed in range(ENVSUITE_RESETS):
        env.reset(seed=seed)
    return ENVSUITE_RESETS


# -- timing --------------------------------------------------------------------------------
def _seconds(function: Callable[[], Any]) -> float:
    started = time.perf_counter()
    function()
    return time.perf_counter() - started


def timed(benchmark: Any, group: str, function: Callable[[], int]) -> tuple[int, float]:
    """Benchmark ``function`` (returns its count of steps or resets): count and mean seconds."""
    benchmark.group = group
    started = time.perf_counter()
    count = benchmark.pedantic(function, rounds=ROUNDS, iterations=1, warmup_rounds=1)
    stats = getattr(benchmark, "stats", None)
    mean = stats.stats.mean if stats is not None else time.perf_counter() - started
    return count, mean


def _mode_ids(task: str, mode: str) -> str:
    return f"{task}-{mode}"


ENVSUITE_ROWS = [
    pytest.param(task, mode, id=_mode_ids(task, mode)) for task in TASKS for mode in MODES
]


@pytest.mark.parametrize("task", TASKS)
def test_miniwob_steps(benchmark: Any, task: str) -> None:
    require_peer()
    env = miniwob_env(task)
    seeds = range(MINIWOB_EPISODES)
    steps, mean = timed(
        benchmark, f"gui-miniwob-{task}-steps", lambda: miniwob_episodes(env, task, seeds)
    )
    RATES[task, "steps"] = benchmark.extra_info["env_steps_per_s"] = steps / mean
    RATES[task, "episodes"] = benchmark.extra_info["episodes_per_s"] = len(seeds) / mean
    observation, _ = env.reset(seed=0)
    assert observation["screenshot"].shape == (210, 160, 3)
    assert env.unwrapped.instance.driver.service.path == CHROMEDRIVER  # Debian's, not downloaded


@pytest.mark.parametrize("task", TASKS)
def test_miniwob_resets(benchmark: Any, task: str) -> None:
    require_peer()
    env = miniwob_env(task)
    resets, mean = timed(benchmark, f"gui-miniwob-{task}-resets", lambda: miniwob_resets(env))
    RATES[task, "resets"] = benchmark.extra_info["env_resets_per_s"] = resets / mean


@pytest.mark.parametrize(("task", "mode"), ENVSUITE_ROWS)
def test_envsuite_steps(benchmark: Any, task: str, mode: str) -> None:
    episodes = envsuite_episodes(task)
    env = envsuite.make("envsuite/GuiForm-v0", task=task, observation_mode=MODES[mode])
    steps, mean = timed(
        benchmark, f"gui-miniwob-{task}-steps", lambda: envsuite_replay(env, episodes)
    )
    env.close()
    rate = benchmark.extra_info["env_steps_per_s"] = steps / mean
    episode_rate = benchmark.extra_info["episodes_per_s"] = len(episodes) / mean
    peer = miniwob_rate(task, "steps")
    if peer is None:
        benchmark.extra_info["miniwob"] = _missing_peer()
        return
    benchmark.extra_info["miniwob_steps_per_s"] = peer
    benchmark.extra_info["ratio_vs_miniwob"] = rate / peer
    benchmark.extra_info["episode_ratio_vs_miniwob"] = episode_rate / RATES[task, "episodes"]


@pytest.mark.parametrize(("task", "mode"), ENVSUITE_ROWS)
def test_envsuite_resets(benchmark: Any, task: str, mode: str) -> None:
    env = envsuite.make("envsuite/GuiForm-v0", task=task, observation_mode=MODES[mode])
    resets, mean = timed(benchmark, f"gui-miniwob-{task}-resets", lambda: envsuite_resets(env))
    env.close()
    rate = benchmark.extra_info["env_resets_per_s"] = resets / mean
    peer = miniwob_rate(task, "resets")
    if peer is None:
        benchmark.extra_info["miniwob"] = _missing_peer()
        return
    benchmark.extra_info["miniwob_resets_per_s"] = peer
    benchmark.extra_info["ratio_vs_miniwob"] = rate / peer


def test_envsuite_replays_end_where_the_oracle_ended() -> None:
    """The envsuite replay ends every recorded episode where the oracle's ended."""
    episodes = envsuite_episodes("login-user")[:5]
    env = envsuite.make("envsuite/GuiForm-v0", task="login-user", observation_mode="instruction")
    for seed, actions in episodes:
        env.reset(seed=seed)
        for number, action in enumerate(actions, start=1):
            _, reward, terminated, truncated, info = env.step(action)
            assert (terminated or truncated) == (number == len(actions))
        assert info["success"] and reward == 1.0
    env.close()
