"""The runner's fast paths write the bytes the validated pydantic path writes.

The runner builds single-agent records without validating them again
(:func:`~envsuite.records.trusted_record`), writes a trace of kept steps by one join,
observes two curves with a written-out observer, and reuses the bootstrap's resample
indices between the summary's intervals. Each test here runs the same evals with those
paths and with the plain ones they replace (validated records, ``model_dump_json``, the
general observer, a fresh draw per interval) and compares the files and the printed
summary byte for byte, wall times, run ids and run directories masked.
"""

from __future__ import annotations

import importlib
import math
import random
import re
import struct
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from envsuite.cli import app
from envsuite.evaluation import episode_runner
from envsuite.evaluation.metrics import bootstrap
from envsuite.evaluation.protocol import adhoc_protocol
from envsuite.evaluation.record_store import RECORDS_FILE
from envsuite.evaluation.run_directory import evaluate
from envsuite.evaluation.trace_actions import TraceCollector
from envsuite.records import EpisodeRecord, shared_steps, trusted_record, trusted_step

BANDIT = "envsuite/Bandit-v0"
#: The module (the package exports its function ``pass_at_k`` under the same name).
pass_at_k = importlib.import_module("envsuite.evaluation.metrics.pass_at_k")
runner = CliRunner()


def _use_plain_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """Swap every fast path of the runner for the plain path it stands for."""
    monkeypatch.setattr(episode_runner, "trusted_record", lambda fields: EpisodeRecord(**fields))
    monkeypatch.setattr(EpisodeRecord, "to_json_line", EpisodeRecord.model_dump_json)
    monkeypatch.setattr(
        TraceCollector, "_trace_and_two_curves", lambda self, series: self._observe_each(series)
    )

    def fresh_draw(sample: Any, seed: int, reps: int) -> Any:
        return bootstrap.mean_replicates(sample, np.random.default_rng(seed), reps)

    monkeypatch.setattr(bootstrap, "seeded_mean_replicates", fresh_draw)
    monkeypatch.setattr(pass_at_k, "seeded_mean_replicates", fresh_draw)


def _masked(text: str) -> str:
    text = re.sub(r'"wall_time_s":[^,}]+', '"wall_time_s":0', text)
    text = re.sub(r'"run_id":\s*"[^"]*"', '"run_id":""', text)
    return text


def _eval(out: Path, arguments: list[str]) -> str:
    result = runner.invoke(
        app, ["eval", BANDIT, "--agent", "random", "--out", str(out), "--no-progress", *arguments]
    )
    assert result.exit_code == 0, result.output
    return " ".join(result.output.replace(str(out), "<run>").split())


def _written(run_dir: Path) -> dict[str, str]:
    return {
        name: _masked((run_dir / name).read_text(encoding="utf-8"))
        for name in (RECORDS_FILE, "run.json")
    }


EVALS = {
    "text": ["--episodes", "6"],
    "vector": ["--episodes", "5", "--set", "observation_mode=vector"],
    "pass_at_k": ["--episodes", "3", "--attempts", "3", "--set", "horizon=40"],
    "step_budget": ["--episodes", "4", "--step-budget", "7"],
    "gaussian": ["--episodes", "3", "--set", "arm_type=gaussian", "--set", "horizon=60"],
}


@pytest.mark.parametrize("arguments", EVALS.values(), ids=EVALS.keys())
def test_an_eval_writes_and_prints_what_the_plain_paths_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, arguments: list[str]
) -> None:
    fast_output = _eval(tmp_path / "fast", arguments)
    with monkeypatch.context() as plain:
        _use_plain_paths(plain)
        plain_output = _eval(tmp_path / "plain", arguments)
    assert _written(tmp_path / "fast") == _written(tmp_path / "plain")
    assert fast_output == plain_output


def _killed_and_resumed(run_dir: Path) -> tuple[list[Any], str]:
    protocol = adhoc_protocol(BANDIT, {"horizon": 50}, episodes=6, attempts=2)
    evaluate(protocol, "random", run_dir, progress=False)
    path = run_dir / RECORDS_FILE
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text("".join(lines[:5]) + lines[5][: len(lines[5]) // 2], encoding="utf-8")
    again = evaluate(protocol, "random", run_dir, progress=False)
    return [again.new, again.resumed], _masked(path.read_text(encoding="utf-8"))


def test_a_killed_run_resumes_to_the_bytes_of_the_plain_paths(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = _killed_and_resumed(tmp_path / "fast")
    with monkeypatch.context() as plain:
        _use_plain_paths(plain)
        assert _killed_and_resumed(tmp_path / "plain") == fast
    assert fast[0] == [7, 5]


def _edge_floats(count: int) -> list[float]:
    """Floats that spell differently in JSON: signed zeros, subnormals, exponents, NaN."""
    picked = [0.0, -0.0, 1e-05, -1e-05, 1e-07, 0.0001, 5e-324, 2.2250738585072014e-308]
    picked += [0.1, 1 / 3, 100.0, 1e15, 1e16, 1e17, 1e21, 1e22, 2.0**53, 2.0**63, 2.0**64]
    picked += [123456789012345678.0, 1.7976931348623157e308, math.nan, math.inf, -math.inf]
    draw = random.Random(19)
    while len(picked) < count:
        bits = struct.unpack("<d", draw.getrandbits(64).to_bytes(8, "little"))[0]
        picked.append(bits)
        picked.append(draw.choice([1, -1]) * 10.0 ** draw.randint(-30, 30) * draw.random())
    return picked


def _edge_record(draw: random.Random, values: list[float]) -> dict[str, Any]:
    value = lambda: draw.choice(values)  # noqa: E731
    few = [value() for _ in range(4)]  # a few values, repeated as a bandit repeats its own
    kinds = draw.choice([["a", 'é\n"', 7, 10**20, None], [1.5e-5, {"x": [1, 2.5]}, "b"]])
    actions = [draw.choice(kinds) for _ in range(40)]
    pool = draw.choice([few, values])  # few rewards: a trace of shared steps
    rewards = [draw.choice(pool) for _ in actions]
    kept = draw.random() < 0.5  # half the traces as the runner keeps them, half step by step
    trace = (
        shared_steps(actions, rewards)
        if kept
        else [
            trusted_step(a, r, draw.choice([None, value()]))
            for a, r in zip(actions, rewards, strict=True)
        ]
    )
    return {
        "run_id": "r",
        "env_id": BANDIT,
        "env_kwargs": {"horizon": draw.choice([1, 10**30]), "x": value()},
        "spec_hash": "h",
        "envsuite_version": "0",
        "agent_id": "random",
        "seed": draw.choice([0, 2**31, 2**63, 2**64 + 1, 10**40]),
        "attempt": draw.randint(0, 3),
        "episode_return": value(),
        "success": draw.choice([None, True, False]),
        "score": draw.choice([None, value()]),
        "length": len(trace),
        "terminated": True,
        "truncated": False,
        "stop_reason": "terminated",
        "wall_time_s": draw.choice([abs(v) for v in values if not math.isnan(v)]),
        "metrics": {"m": value(), "n": value()},
        "curves": {
            "regret": [draw.choice(few) for _ in range(40)],
            "arm": [float(draw.randint(0, 4)) for _ in range(draw.choice([0, 40]))],
            'é\n"': [value() for _ in range(draw.choice([0, 3]))] * 5,
        },
        "agent_info": draw.choice([{}, {"tokens": draw.choice([3, 10**25, value()])}]),
        "trace": trace,
    }


def test_numbers_are_spelled_as_pydantic_spells_them() -> None:
    values = _edge_floats(400)
    draw = random.Random(7)
    for _ in range(300):
        fields = _edge_record(draw, values)
        fast = trusted_record(fields)
        plain = EpisodeRecord(**fields)
        assert fast.to_json_line() == plain.model_dump_json()
        assert fast.model_dump_json() == plain.model_dump_json()
        assert fast.model_fields_set == plain.model_fields_set
        assert list(fast.__dict__) == list(plain.__dict__)


def test_trusted_records_get_their_own_default_of_each_field_left_out() -> None:
    fields = _edge_record(random.Random(5), [0.5])
    for name in ("agents", "schema_version", "infra_error", "task_id", "metrics"):
        fields.pop(name, None)
    first, second = trusted_record(fields), trusted_record(fields)
    assert first == second == EpisodeRecord(**fields)
    assert first.agents == {} and first.agents is not second.agents  # a new dict each
    assert first.metrics is not second.metrics
    assert (first.schema_version, first.infra_error, first.task_id) == (1, None, "")
    assert first.model_fields_set == EpisodeRecord(**fields).model_fields_set


def test_a_record_the_trusted_path_cannot_vouch_for_is_validated() -> None:
    fields = _edge_record(random.Random(3), [0.5])
    for name, bad in (
        ("stop_reason", "bored"),
        ("length", -1),
        ("seed", "seven"),
        ("wall_time_s", -1.0),
    ):
        with pytest.raises(ValueError, match=name):
            trusted_record({**fields, name: bad})
    assert trusted_record({**fields, "seed": np.int64(7)}).seed == 7  # validation converts
    assert type(trusted_record({**fields, "episode_return": 2}).episode_return) is float


def test_kept_resample_indices_give_the_replicates_of_a_fresh_draw() -> None:
    sample_of = np.random.default_rng(0)
    for n in (1, 3, 200, 333, 1500):
        for reps in (1, 10, 2000):
            for seed in (0, 5):
                sample = sample_of.normal(size=n)
                fresh = bootstrap.mean_replicates(sample, np.random.default_rng(seed), reps)
                for _ in range(2):  # the first call draws, the second reuses the kept draw
                    kept = bootstrap.seeded_mean_replicates(sample, seed, reps)
                    assert kept.tobytes() == fresh.tobytes()


@pytest.mark.parametrize(
    "curve",
    [[0.0, -0.0] * 20, [-0.0] * 8, [1e-05, 5e-324, math.nan, math.inf, -math.inf] * 8, []],
    ids=["signed-zeros", "negative-zeros", "edges", "empty"],
)
def test_a_runner_record_writes_each_curve_as_pydantic_does(curve: list[float]) -> None:
    fields = _edge_record(random.Random(1), [0.5])
    fields.update(
        agent_info={},
        trace=shared_steps(["a", "b"] * 20, [1.0, 0.0] * 20),
        curves={"regret": [0.25] * 40, "c": curve},
    )
    record = trusted_record(fields)
    assert record.to_json_line() == EpisodeRecord(**fields).model_dump_json()
