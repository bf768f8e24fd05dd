"""The rows of ``envsuite bench``: what each times, and what it needs installed.

A row names its loops (``envsuite``, ``raw``, and a ``peer`` where one installs next to
envsuite) and how many units (steps, episodes, instances) one call of each does. Rows
whose modules are missing are skipped, naming the extra that installs them.
"""

from __future__ import annotations

import importlib.util
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from envsuite.bench.timing import Spread, cpu_seconds, interleaved


@dataclass
class Case:
    """One row ready to time.

    Attributes:
        loops: Name -> a call doing the row's work once (``envsuite`` and ``raw`` always).
        units: Units of work one call does (steps, episodes, instances).
        unit: What a unit is.
        extra_figures: Computes further figures from the round times (seconds).
        clock: Times one call of a loop (this process's CPU seconds by default; loops
            that run a child process return the child's CPU seconds themselves; loops with
            an untimed seeded reset are prepared first).
    """

    loops: dict[str, Callable[[], Any]]
    units: int
    unit: str
    extra_figures: Callable[[dict[str, list[float]]], dict[str, float]] | None = None
    clock: Callable[[Callable[[], Any]], float] = cpu_seconds


@dataclass(frozen=True)
class Row:
    """A row of the table.

    Attributes:
        name: What ``--rows`` selects it by.
        work: The work timed, as the table shows it.
        needs: Modules the row imports (missing ones skip it).
        extra: The pip extra that installs them.
        build: ``build(quick)`` makes the :class:`Case` (less work when ``quick``).
        goal: The row's goal, as the issue that set it states it.
    """

    name: str
    work: str
    needs: tuple[str, ...]
    extra: str | None
    build: Callable[[bool], Case]
    goal: str = ""
    rounds: tuple[int, int] = field(default=(7, 2))


@dataclass
class RowResult:
    """What timing a row gave (or why it was skipped)."""

    name: str
    work: str
    goal: str
    skipped: str | None = None
    unit: str = ""
    units: int = 0
    rounds: int = 0
    seconds: dict[str, dict[str, float]] = field(default_factory=dict)
    ratios: dict[str, dict[str, float]] = field(default_factory=dict)
    figures: dict[str, float] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """The result as plain JSON values."""
        return dict(vars(self))


def missing_modules(row: Row) -> list[str]:
    """The modules ``row`` needs that do not import here."""
    return [name for name in row.needs if importlib.util.find_spec(name) is None]


def run_row(row: Row, quick: bool) -> RowResult:
    """Time ``row``'s loops in turns (fewer rounds and less work when ``quick``)."""
    result = RowResult(row.name, row.work, row.goal)
    missing = missing_modules(row)
    if missing:
        install = f"pip install 'envsuite[{row.extra}]'" if row.extra else "install them"
        result.skipped = f"needs {', '.join(missing)}: {install}"
        return result
    case = row.build(quick)
    rounds = row.rounds[1] if quick else row.rounds[0]
    times = interleaved(case.loops, rounds, case.clock)
    result.unit, result.units, result.rounds = case.unit, case.units, rounds
    for name, values in times.items():
        best = min(values)
        result.seconds[name] = {"best": best, "median": sorted(values)[len(values) // 2]}
    for other in ("raw", "peer"):
        if other in times:
            spread = Spread.of(times["envsuite"], times[other])
            result.ratios[f"envsuite/{other}"] = {"best": spread.best, "median": spread.median}
    if case.extra_figures is not None:
        result.figures = case.extra_figures(times)
    return result


# -- the rows ------------------------------------------------------------------------------
def _eval_overhead(quick: bool) -> Case:
    from envsuite.bench import runner

    episodes = 20 if quick else runner.EPISODES
    in_process = {
        "runner": lambda: runner.runner_loop(episodes),
        "bare": lambda: runner.bare_loop(episodes),
    }
    one = {"command": runner.command_loop(1), "bare": runner.bare_command_loop(1)}

    def figures(times: dict[str, list[float]]) -> dict[str, float]:
        inner = interleaved(in_process, 2 if quick else 5)
        starts = interleaved(one, 2 if quick else 5, _returned_seconds)
        return {
            "overhead_ms_per_episode": 1e3 * (min(inner["runner"]) - min(inner["bare"])) / episodes,
            "runner_over_bare_in_process": min(inner["runner"]) / min(inner["bare"]),
            # The command against the bare loop, one episode each: best rounds, then medians.
            "fixed_cost_s": min(starts["command"]) - min(starts["bare"]),
            "fixed_cost_s_median": statistics.median(starts["command"])
            - statistics.median(starts["bare"]),
        }

    return Case(
        {"envsuite": runner.command_loop(episodes), "raw": runner.bare_command_loop(episodes)},
        episodes,
        "episodes",
        figures,
        clock=_returned_seconds,
    )


def _returned_seconds(loop: Callable[[], Any]) -> float:
    """The seconds a loop that times itself (a child process) returns."""
    return float(loop())


def _bandit(mode: str) -> Callable[[bool], Case]:
    def build(quick: bool) -> Case:
        from envsuite.bench import decision

        env = decision.make_bandit(mode)
        actions: list[Any] = decision.ACTIONS if mode == "vector" else decision.TEXT_ACTIONS

        def raw() -> tuple[float, float]:
            if mode == "vector":
                return decision.raw_vector_episode(decision.ACTIONS)
            return decision.raw_text_episode(decision.TEXT_ACTIONS)

        return Case(
            {"envsuite": lambda: decision.env_episode(env, actions), "raw": raw},
            decision.STEPS,
            "steps",
        )

    return build


def _sat_reset(quick: bool) -> Case:
    from envsuite.bench import sat

    count = 200 if quick else sat.COUNT
    env = sat.make_sat()

    def figures(times: dict[str, list[float]]) -> dict[str, float]:
        speed = Spread.of(times["peer"], times["envsuite"])
        batch = Spread.of(times["envsuite"], times["batch"])
        return {
            "speed_vs_saturn_best": speed.best,
            "speed_vs_saturn_median": speed.median,
            "reset_over_batch_per_instance": batch.best,
            "reset_us": 1e6 * min(times["envsuite"]) / count,
        }

    return Case(
        {
            "envsuite": lambda: sat.reset_loop(env, count),
            "batch": lambda: sat.envsuite_pipeline(sat.SEED, count, count_solutions=True),
            "peer": lambda: sat.saturn_reference(sat.SEED, count),
        },
        count,
        "instances",
        figures,
    )


def _floor_figures(times: dict[str, list[float]]) -> dict[str, float]:
    """A ``floor`` loop's figures: ``floor / raw`` and ``envsuite / floor``, best rounds.

    The floor is a row's raw loop as the leanest ``gymnasium.Env`` (bench/drone_floor.py,
    bench/arm_floor.py): the first figure is the Gymnasium API's own share of envsuite's
    ratio, the second envsuite's share beyond it. Rows without a floor get none.
    """
    if "floor" not in times:
        return {}
    return {
        "floor_vs_raw_best": min(times["floor"]) / min(times["raw"]),
        "envsuite_vs_floor_best": min(times["envsuite"]) / min(times["floor"]),
    }


def _drone_figures(times: dict[str, list[float]]) -> dict[str, float]:
    """Python's cost per step over the raw loop (best rounds) and the raw loops' rates."""
    from envsuite.bench import drone

    figures = {
        "python_us_per_step": 1e6 * (min(times["envsuite"]) - min(times["raw"])) / drone.STEPS,
        "raw_steps_per_s": drone.STEPS / min(times["raw"]),
    }
    if "reference_style" in times:
        figures["reference_style_steps_per_s"] = drone.STEPS / min(times["reference_style"])
    return figures | _floor_figures(times)


def _drone_hover(quick: bool) -> Case:
    import envsuite
    from envsuite.bench import drone
    from envsuite.bench.drone_floor import FloorHover

    env, floor = envsuite.make(drone.HOVER), FloorHover()
    return Case(
        {
            "envsuite": lambda: drone.envsuite_hover(env),
            "raw": drone.RawHover(reference_style=False),
            # gym-pybullet-drones' way (forces at the propellers), the same lean loop: a
            # figure, not a ratio (its physics differs in the last bits).
            "reference_style": drone.RawHover(reference_style=True),
            # The raw loop as the leanest gymnasium.Env: the API's floor, a figure.
            "floor": lambda: drone.envsuite_hover(floor),
        },
        drone.STEPS,
        "steps",
        _drone_figures,
    )


def _drone_ctbr(quick: bool) -> Case:
    import envsuite
    from envsuite.bench import drone

    env = envsuite.make(drone.HOVER, action_type="ctbr")
    raw = drone.RawHoverRates()
    return Case(
        {"envsuite": lambda: drone.envsuite_hover(env), "raw": raw},
        drone.STEPS,
        "steps",
        _drone_figures,
    )


def _arm_step(quick: bool) -> Case:
    import mujoco

    import envsuite
    from envsuite.bench import arm
    from envsuite.bench.arm_floor import FloorArm
    from envsuite.families.physics.arm.base_env import new_model

    episode = arm.record(arm.SEED, arm.STEPS)
    env, floor = envsuite.make(arm.ARM), FloorArm()
    model = new_model()
    data = mujoco.MjData(model)
    return Case(
        {
            "envsuite": lambda: arm.env_episode(env, episode.actions),
            "raw": lambda: arm.raw_episode(model, data, episode),
            # The raw loop as the leanest gymnasium.Env: the API's floor, a figure.
            "floor": lambda: arm.env_episode(floor, episode.actions),
        },
        arm.STEPS,
        "steps",
        _floor_figures,
    )


def _arm_batch(quick: bool) -> Case:
    """The batched arm against the raw batch and SyncVectorEnv, and its Python per step.

    ``python_us_per_step`` is the goal's figure: the CPU time a step spends outside
    ``Batch.step``, counted on the thread that runs the Python
    (:mod:`envsuite.bench.batch_python`: the episode's time less that inside the
    batch's steps, less the counter's own cost), over as many episodes as the row has
    rounds: best episode, then the median one (``..._median``). It is counted on a second
    batched env with one thread, so that it is the same measurement whatever thread count
    the timed env picked for the load of the moment, and no second thread of the batch
    shares the cores with the Python. A difference of CPU times (envsuite less raw)
    would put the noise of the physics, hundreds of microseconds a step, into a figure
    of tens: across runs it gave anything from -2 to 199 us. The count keeps what cache
    misses cost the Python in a real episode, so on a machine shared with other work it
    grows with their load: they evict the Python's code and data too.

    The speeds against SyncVectorEnv are the timed loops': CPU time, and the wall clock
    (CPU time sums the batch's threads, which hides what they gain).
    """
    import numpy as np
    from mujoco import batch as mujoco_batch

    import envsuite
    from envsuite.bench import arm, batch_python
    from envsuite.families.physics.arm.base_env import new_model

    recordings = arm.vector_recordings()
    actions = np.stack([np.stack(r.actions) for r in recordings], axis=1)
    batched = envsuite.make_vec(arm.ARM, arm.NUM_ENVS, vectorization_mode="vector_entry_point")
    nthread = int(getattr(batched.unwrapped, "nthread", 0))  # not a VectorEnv attribute
    counted = envsuite.make_vec(
        arm.ARM, arm.NUM_ENVS, vectorization_mode="vector_entry_point",
        vector_kwargs={"nthread": 1},
    )  # fmt: skip
    sync = envsuite.make_vec(arm.ARM, arm.NUM_ENVS)
    # The raw batch gets the env's thread count, so that both do the same physics work.
    raw = mujoco_batch.Batch(new_model(), arm.NUM_ENVS, nthread)
    steps = arm.NUM_ENVS * arm.VECTOR_STEPS
    # The wall clock of the timed rounds (the first, warm-up call left out).
    walls: dict[str, list[float]] = {"envsuite": [], "sync": []}

    def walled(name: str, loop: Callable[[], Any]) -> Callable[[], None]:
        def run() -> None:
            started = time.perf_counter()
            loop()
            walls[name].append(time.perf_counter() - started)

        return run

    def figures(times: dict[str, list[float]]) -> dict[str, float]:
        batch_python.outside_seconds(counted, actions, arm.SEED)  # warm-up
        outside = [
            batch_python.outside_seconds(counted, actions, arm.SEED) for _ in times["envsuite"]
        ]
        counter = min(batch_python.counter_seconds() for _ in range(3))
        ours, sync_wall = walls["envsuite"][1:], walls["sync"][1:]
        return {
            "python_us_per_step": 1e6 * (min(outside) - counter),
            "python_us_per_step_median": 1e6 * (statistics.median(outside) - counter),
            "speed_vs_sync_best": min(times["sync"]) / min(times["envsuite"]),
            "speed_vs_sync_median": statistics.median(times["sync"])
            / statistics.median(times["envsuite"]),
            "wall_speed_vs_sync_best": min(sync_wall) / min(ours),
            "wall_speed_vs_sync_median": statistics.median(sync_wall) / statistics.median(ours),
            "nthread": float(nthread),
        }

    return Case(
        {
            "envsuite": walled("envsuite", lambda: arm.vector_episode(batched, actions)),
            "raw": lambda: arm.raw_batch_episode(raw, recordings),
            "sync": walled("sync", lambda: arm.vector_episode(sync, actions)),
        },
        steps,
        "env steps",
        figures,
    )


def _drone_batch(quick: bool) -> Case:
    from envsuite.bench import drone_batch

    batched = drone_batch.batched_env()
    actions = drone_batch.record_actions(batched, drone_batch.STEPS)
    raw = drone_batch.RawPhysics(batched, drone_batch.record_flight(batched, actions))
    # SyncVectorEnv's time per drone-step does not depend on how many envs it holds.
    count = 4 if quick else drone_batch.SYNC_ENVS
    sync = drone_batch.sync_env(count)
    sync_units = count * drone_batch.SYNC_STEPS
    units = drone_batch.NUM_ENVS * drone_batch.STEPS

    def figures(times: dict[str, list[float]]) -> dict[str, float]:
        # The sync loop flies fewer drone-steps: compare time per drone-step.
        per_step = {name: [t / units for t in values] for name, values in times.items()}
        per_step["sync"] = [t / sync_units for t in times["sync"]]
        speed = Spread.of(per_step["sync"], per_step["envsuite"])
        return {
            "drone_steps_per_s": 1.0 / min(per_step["envsuite"]),
            "raw_drone_steps_per_s": 1.0 / min(per_step["raw"]),
            "sync_drone_steps_per_s": 1.0 / min(per_step["sync"]),
            "speed_vs_sync_best": speed.best,
            "speed_vs_sync_median": speed.median,
        }

    return Case(
        {
            "envsuite": drone_batch.Replay(batched, actions),
            "raw": raw,
            "sync": drone_batch.Replay(sync, actions[: drone_batch.SYNC_STEPS, :count]),
        },
        units,
        "drone-steps",
        figures,
        clock=drone_batch.prepared_cpu_seconds,
    )


ROWS: tuple[Row, ...] = (
    Row("eval-overhead", "`envsuite eval` vs a bare loop, 200 Bandit episodes (fresh processes)",
        (), None, _eval_overhead, "<= 1.2x, <= 0.3 ms per episode, <= 0.35 s fixed", (3, 1)),
    Row("bandit-vector", "Bandit-v0 step (vector) vs the raw numpy loop", (), None,
        _bandit("vector"), "<= 3x"),
    Row("bandit-text", "Bandit-v0 step (text) vs the raw loop with the text work", (), None,
        _bandit("text"), "<= 3x"),
    Row("sat-reset", "SAT-v0 reset, one instance at a time, vs SATURN's reference (peer)",
        ("pysat",), "sat", _sat_reset, "<= 0.33x (3x SATURN's speed)", (5, 2)),
    Row("drone-hover", "DroneHover-v0 (RPM) vs the raw PyBullet loop, same physics",
        ("pybullet",), "physics", _drone_hover, "<= 1.05x", (5, 2)),
    Row("drone-ctbr", "DroneHover-v0 (CTBR) vs a raw rate-controller loop, same physics",
        ("pybullet",), "physics", _drone_ctbr, "<= 1.10x", (5, 2)),
    Row("arm-step", "ArmPush-v0 step vs raw `mj_step` + `mj_kinematics` (same model, "
        "frame_skip, inputs)",
        ("mujoco",), "physics", _arm_step, "<= 1.05x"),
    Row("arm-batch", "batched ArmPush, 8 envs, vs raw `mujoco.batch` (same physics) and "
        "SyncVectorEnv", ("mujoco",), "physics", _arm_batch,
        "Python outside Batch.step <= 20 us a step; never slower than sync"),
    Row("drone-batch", "batched DroneHover-v0, 1,024 drones (RPM, hold policy), vs its raw "
        "physics step and SyncVectorEnv of single `dyn` envs", ("pybullet",), "physics",
        _drone_batch, ">= 1,000,000 drone-steps/s at 1,024 drones; >= 50x SyncVectorEnv", (5, 2)),
)  # fmt: skip
BY_NAME = {row.name: row for row in ROWS}
