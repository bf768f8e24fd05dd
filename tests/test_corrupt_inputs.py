"""Corrupt, hostile and absurd inputs through the real command line: a message, never a traceback.

Every case builds one bad input (a task protocol, a run directory, a ``--set`` value, a
leaderboard file or option, ...) in a fresh folder and runs one ``envsuite`` command on it.
Each must exit 1 or 2 with a short message that names the problem, and print no traceback.
A run directory that a bad input reaches must be left as it was: nothing is recorded
before the input is refused.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from envsuite.cli import app
from envsuite.leaderboard.layout import SUBMISSIONS_DIR
from envsuite.leaderboard.manifest import write_manifest
from tests.leaderboard.helpers import DAY, make_board, submit

BANDIT = "envsuite/Bandit-v0"
#: The command that made the fixture's run directory; running it again resumes that run.
RUN_ARGS = ["eval", BANDIT, "-a", "random", "--episodes", "3", "--set", "horizon=5"]
GOOD_PROTOCOL = {
    "id": "tiny",
    "envs": [{"id": BANDIT, "kwargs": {"horizon": 5}}],
    "seeds": {"start": 0, "count": 2},
    "metrics": ["success_rate", "mean_return"],
}
BOARD_PROTOCOL = {**GOOD_PROTOCOL, "id": "tiny-board"}
ALIAS_BOMB = "".join(
    f"{name}: &{name} [{', '.join([f'*{previous}'] * 9)}]\n"
    for previous, name in zip("abcdefgh", "bcdefghi", strict=True)
).join(['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\n', ""])
DEEP_JSON = "[" * 20_000 + "]" * 20_000
DEEP_YAML = "a: " + DEEP_JSON + "\n"
DEEP_BLOCK_YAML = "".join("  " * level + f"k{level}:\n" for level in range(300)) + "  " * 300 + "x"

runner = CliRunner()


@dataclass(frozen=True)
class Fixture:
    """What the cases start from: a finished run, a partial one and a board with an entry."""

    tmp: Path
    run: Path
    partial_run: Path
    board: Path
    entry: Path


@dataclass(frozen=True)
class Case:
    """One bad input: ``build(workdir, fixture)`` writes it and returns the command's args."""

    id: str
    build: Callable[[Path, Fixture], list[str]]
    pattern: str
    codes: tuple[int, ...] = (1, 2)


def _invoke(args: list[str]) -> Any:
    return runner.invoke(app, args, env={"COLUMNS": "400"})


@pytest.fixture(scope="module")
def fixture(tmp_path_factory: pytest.TempPathFactory) -> Fixture:
    tmp = tmp_path_factory.mktemp("corrupt")
    run = tmp / "run"
    made = _invoke([*RUN_ARGS, "--no-progress", "-o", str(run)])
    assert made.exit_code == 0, made.output
    partial = tmp / "partial"
    shutil.copytree(run, partial)
    lines = (partial / "episodes.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    (partial / "episodes.jsonl").write_text("".join(lines[:2]), encoding="utf-8")
    board = make_board(tmp / "leaderboards", tmp, BOARD_PROTOCOL, "success_rate")
    entry = submit(board, tmp / "board-runs", "random", "random")
    assert entry == board.path / SUBMISSIONS_DIR / f"{DAY:%Y%m%d}_random"
    return Fixture(tmp, run, partial, board.path, entry)


# -- builders ---------------------------------------------------------------------------------


def _write(path: Path, content: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def _protocol(**changes: Any) -> str:
    return yaml.safe_dump({**GOOD_PROTOCOL, **changes}, sort_keys=False)


def _with_kwargs(**kwargs: Any) -> str:
    return _protocol(envs=[{"id": BANDIT, "kwargs": {"horizon": 5, **kwargs}}])


def task(content: str | bytes) -> Callable[[Path, Fixture], list[str]]:
    """``envsuite eval FILE`` on a protocol file holding ``content``."""

    def build(work: Path, fx: Fixture) -> list[str]:
        path = _write(work / "task.yaml", content)
        return ["eval", str(path), "-a", "random", "-o", str(work / "out"), "--no-progress"]

    return build


def eval_env(*extra: str) -> Callable[[Path, Fixture], list[str]]:
    """``envsuite eval envsuite/Bandit-v0`` with extra options."""

    def build(work: Path, fx: Fixture) -> list[str]:
        return ["eval", BANDIT, "-a", "random", "-o", str(work / "out"), "--no-progress", *extra]

    return build


def command(*args: str) -> Callable[[Path, Fixture], list[str]]:
    """Any command; ``{work}`` in an argument is the case's folder."""

    def build(work: Path, fx: Fixture) -> list[str]:
        return [arg.format(work=work) for arg in args]

    return build


def resume(
    change: Callable[[Path], None], *, partial: bool = True
) -> Callable[[Path, Fixture], list[str]]:
    """Resume a copy of the fixture's (partial) run after ``change(run_dir)``."""

    def build(work: Path, fx: Fixture) -> list[str]:
        run = work / "run"
        shutil.copytree(fx.partial_run if partial else fx.run, run)
        change(run)
        return [*RUN_ARGS, "--no-progress", "-o", str(run)]

    return build


def run_file(content: str | bytes) -> Callable[[Path], None]:
    return lambda run: _write(run / "run.json", content)


def edit_run_file(change: Callable[[dict[str, Any]], Any]) -> Callable[[Path], None]:
    def apply(run: Path) -> None:
        data = json.loads((run / "run.json").read_text(encoding="utf-8"))
        change(data)
        _write(run / "run.json", json.dumps(data))

    return apply


def records_line(line: str | bytes, *, position: int = 1) -> Callable[[Path], None]:
    """Insert ``line`` into the run's episodes.jsonl before line ``position`` (0-based)."""

    def apply(run: Path) -> None:
        path = run / "episodes.jsonl"
        lines = path.read_bytes().splitlines(keepends=True)
        raw = line.encode("utf-8") if isinstance(line, str) else line
        lines.insert(position, raw.rstrip(b"\n") + b"\n")
        path.write_bytes(b"".join(lines))

    return apply


def edited_record(**changes: Any) -> Callable[[Path], None]:
    """Append a copy of the run's first record with ``changes``."""

    def apply(run: Path) -> None:
        path = run / "episodes.jsonl"
        first = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
        first.update(changes)
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(first) + "\n")

    return apply


def leaderboard(*args: str) -> Callable[[Path, Fixture], list[str]]:
    """``envsuite leaderboard ...`` against a copy of the fixture's board root."""

    def build(work: Path, fx: Fixture) -> list[str]:
        root = work / "leaderboards"
        shutil.copytree(fx.board.parent.parent, root)
        good = _write(work / "good.yaml", yaml.safe_dump(GOOD_PROTOCOL))
        mapping = {"work": work, "root": root, "good": good, "run": fx.tmp / "board-runs"}
        filled = [arg.format(**mapping) for arg in args]
        return ["leaderboard", *filled, "--root", str(root)]

    return build


def create_from(content: str | bytes, *extra: str) -> Callable[[Path, Fixture], list[str]]:
    """``leaderboard create FILE`` on a protocol file holding ``content``."""

    def build(work: Path, fx: Fixture) -> list[str]:
        path = _write(work / "task.yaml", content)
        root = work / "leaderboards"
        return ["leaderboard", "create", str(path), "--root", str(root), *extra]

    return build


def submit_run(change: Callable[[Path], None], *extra: str) -> Callable[[Path, Fixture], list[str]]:
    """``leaderboard submit`` of a copy of the board's random run after ``change(run)``."""

    def build(work: Path, fx: Fixture) -> list[str]:
        root = work / "leaderboards"
        shutil.copytree(fx.board.parent.parent, root)
        run = work / "run"
        shutil.copytree(fx.tmp / "board-runs" / "tiny-board-random", run)
        change(run)
        options = ["--board", "tiny-board", "--name", "second", "--root", str(root)]
        return ["leaderboard", "submit", str(run), *options, "--date", "2026-12-02", *extra]

    return build


def tampered_entry(name: str, content: str | bytes) -> Callable[[Path, Fixture], list[str]]:
    """``leaderboard verify`` of a copy of the board's entry whose ``name`` holds ``content``."""

    def build(work: Path, fx: Fixture) -> list[str]:
        root = work / "leaderboards"
        shutil.copytree(fx.board.parent.parent, root)
        entry = root / fx.entry.relative_to(fx.board.parent.parent)
        _write(entry / name, content)
        write_manifest(entry, 1 << 26)  # so the file reaches its parser, past the manifest
        return ["leaderboard", "verify", str(entry), "--root", str(root)]

    return build


def tampered_board(name: str, content: str | bytes) -> Callable[[Path, Fixture], list[str]]:
    """``leaderboard verify`` of the board's entry after the board's ``name`` is replaced."""

    def build(work: Path, fx: Fixture) -> list[str]:
        root = work / "leaderboards"
        shutil.copytree(fx.board.parent.parent, root)
        board = root / fx.board.relative_to(fx.board.parent.parent)
        _write(board / name, content)
        entry = board / SUBMISSIONS_DIR / fx.entry.name
        return ["leaderboard", "verify", str(entry), "--root", str(root)]

    return build


def rendered_board(name: str, content: str | bytes) -> Callable[[Path, Fixture], list[str]]:
    """``leaderboard render`` after the board's ``name`` is replaced."""

    def build(work: Path, fx: Fixture) -> list[str]:
        root = tampered_board(name, content)(work, fx)[-1]
        return ["leaderboard", "render", "--no-site", "--root", root]

    return build


def with_file(
    name: str, content: str | bytes, then: Callable[[Path, Fixture], list[str]]
) -> Callable[[Path, Fixture], list[str]]:
    """Write ``{work}/name`` first, then build ``then``."""

    def build(work: Path, fx: Fixture) -> list[str]:
        _write(work / name, content)
        return then(work, fx)

    return build


def report_of(change: Callable[[Path], None]) -> Callable[[Path, Fixture], list[str]]:
    """``envsuite report`` of a copy of the fixture's finished run after ``change(run)``."""

    def build(work: Path, fx: Fixture) -> list[str]:
        run = work / "finished"
        shutil.copytree(fx.run, run)
        change(run)
        return ["report", str(run), "--out", str(work / "report")]

    return build


def select_config(content: str | bytes) -> Callable[[Path, Fixture], list[str]]:
    """``envsuite select CONFIG`` on a config file holding ``content``."""

    def build(work: Path, fx: Fixture) -> list[str]:
        config = _write(work / "c.yaml", content)
        return ["select", BANDIT, "--out", str(work / "o"), "--candidates", str(config)]

    return build


def curriculum_record(results: str) -> Callable[[Path, Fixture], list[str]]:
    """``curriculum record STATE RESULTS`` with a fresh state and ``{work}/results``."""

    def build(work: Path, fx: Fixture) -> list[str]:
        state = work / "state.json"
        made = _invoke(["curriculum", "init", str(state)])
        assert made.exit_code == 0, made.output
        return ["curriculum", "record", str(state), str(work / results)]

    return build


def _record_json(fx_run: Path) -> dict[str, Any]:
    return json.loads((fx_run / "episodes.jsonl").read_text(encoding="utf-8").splitlines()[0])


def deep_record_line(run: Path) -> None:
    record = _record_json(run)
    line = json.dumps(record)[:-1] + ', "agent_info": {"x": ' + DEEP_JSON + "}}"
    records_line(line)(run)


# -- the corpus -------------------------------------------------------------------------------

TASK_CASES = [
    Case("task-not-utf8", task(b"id: tiny\ndescription: caf\xe9\n"), r"line 2.*not UTF-8"),
    Case("task-binary", task(bytes(range(256)) * 4), r"not UTF-8"),
    Case("task-nul-bytes", task("id: tiny\n\x00\x00\n"), r"special characters|not valid YAML"),
    Case("task-deep-flow", task(DEEP_YAML), r"more than 64 levels"),
    Case("task-deep-block", task(DEEP_BLOCK_YAML), r"more than 64 levels"),
    Case("task-deep-kwarg", task(_with_kwargs(x=json.loads("[" * 70 + "]" * 70))), r"64 levels"),
    Case("task-alias-bomb", task(ALIAS_BOMB), r"alias bomb"),
    Case("task-self-alias", task("id: &a [tiny, *a]\n"), r"contains it"),
    Case("task-undefined-alias", task("id: *nope\n"), r"undefined alias"),
    Case("task-duplicate-key", task(_protocol() + "id: other\n"), r"duplicate key 'id'"),
    Case(
        "task-duplicate-nested-key",
        task(_protocol().replace("count: 2", "count: 2\n  count: 3")),
        r"duplicate key 'count'",
    ),
    Case("task-empty", task(""), r"must hold a mapping"),
    Case("task-only-comment", task("# nothing\n"), r"must hold a mapping"),
    Case("task-list", task("- 1\n- 2\n"), r"must hold a mapping, not list"),
    Case("task-scalar", task("hello\n"), r"must hold a mapping, not str"),
    Case("task-syntax", task("id: [tiny\n"), r"line \d+, column \d+"),
    Case("task-python-tag", task("id: !!python/object/apply:os.system [true]\n"), r"tag"),
    Case("task-two-documents", task(_protocol() + "---\n" + _protocol()), r"single document"),
    Case("task-unknown-env", task(_protocol(envs=[{"id": "envsuite/Nope-v0"}])), r"Nope-v0"),
    Case("task-bad-env-id", task(_protocol(envs=[{"id": "bandit"}])), r"not an envsuite id"),
    Case("task-env-id-not-str", task(_protocol(envs=[{"id": 5}])), r"envs\.0\.id"),
    Case("task-no-envs", task(_protocol(envs=[])), r"envs"),
    Case("task-envs-not-list", task(_protocol(envs=5)), r"envs"),
    Case("task-kwargs-not-mapping", task(_protocol(envs=[{"id": BANDIT, "kwargs": 5}])), r"kwargs"),
    Case("task-unknown-kwarg", task(_with_kwargs(nope=1)), r"does not accept.*nope"),
    Case("task-rejected-kwarg", task(_with_kwargs(num_arms=-1)), r"num_arms must be"),
    Case("task-num-arms-huge", task(_with_kwargs(num_arms=10**11)), r"num_arms must be"),
    Case("task-horizon-huge", task(_with_kwargs(horizon=10**12)), r"horizon must be"),
    Case("task-kwarg-nan", task(_with_kwargs(horizon=float("nan"))), r"horizon must be"),
    Case("task-kwarg-wrong-type", task(_with_kwargs(num_arms="five")), r"num_arms must be"),
    Case(
        "task-context-table-huge",
        task(
            _protocol(
                envs=[
                    {
                        "id": "envsuite/ContextualBandit-v0",
                        "kwargs": {"horizon": 10**6, "context_dim": 1000},
                    }
                ]
            )
        ),
        r"horizon",
    ),
    Case(
        "task-experts-table-huge",
        task(_protocol(envs=[{"id": "envsuite/Experts-v0", "kwargs": {"num_actions": 10**11}}])),
        r"num_actions must be",
    ),
    Case("task-seeds-count-huge", task(_protocol(seeds={"count": 10**12})), r"seeds|episodes"),
    Case(
        "task-seeds-count-zero",
        task(_protocol(seeds={"count": 0})),
        r"seeds\.SeedRange\.count|count",
    ),
    Case("task-seeds-start-negative", task(_protocol(seeds={"start": -1, "count": 2})), r"start"),
    Case("task-seeds-start-huge", task(_protocol(seeds={"start": 2**64, "count": 2})), r"seed"),
    Case("task-seeds-list-negative", task(_protocol(seeds=[1, -2])), r"non-negative"),
    Case("task-seeds-list-duplicate", task(_protocol(seeds=[1, 1])), r"distinct"),
    Case("task-seeds-list-empty", task(_protocol(seeds=[])), r"seeds"),
    Case("task-seeds-list-huge-int", task(_protocol(seeds=[10**30])), r"seed"),
    Case("task-seeds-string", task(_protocol(seeds="all")), r"seeds"),
    Case("task-attempts-huge", task(_protocol(attempts=10**9)), r"episodes|attempts"),
    Case("task-attempts-zero", task(_protocol(attempts=0)), r"attempts"),
    Case(
        "task-too-many-episodes",
        task(_protocol(seeds={"count": 200_000}, attempts=10)),
        r"2,000,000 episodes",
    ),
    Case("task-max-steps-zero", task(_protocol(max_steps=0)), r"max_steps"),
    Case("task-wall-time-negative", task(_protocol(wall_time_s=-1)), r"wall_time_s"),
    Case("task-unknown-metric", task(_protocol(metrics=["accuracy"])), r"unknown metrics"),
    Case("task-pass-k-over-attempts", task(_protocol(metrics=["pass@4"])), r"pass@4 needs"),
    Case("task-id-not-slug", task(_protocol(id="Not A Slug")), r"slug"),
    Case("task-extra-field", task(_protocol(colour="red")), r"colour"),
    Case("task-version-string", task(_protocol(version="one")), r"version"),
    Case(
        "task-missing-file",
        command("eval", "{work}/nope.yaml", "-a", "random", "-o", "{work}/o"),
        r"nope\.yaml",
    ),
    Case(
        "task-is-a-directory",
        lambda work, fx: (
            (work / "dir.yaml").mkdir()
            or ["eval", str(work / "dir.yaml"), "-a", "random", "-o", str(work / "o")]
        ),
        r"dir\.yaml",
    ),
    Case(
        "task-file-too-large",
        task("# " + "x" * (64 * 1024 * 1024) + "\n"),
        r"over the .*-byte limit",
    ),
]

OPTION_CASES = [
    Case("set-num-arms-huge", eval_env("--set", "num_arms=100000000000"), r"num_arms must be"),
    Case("set-horizon-huge", eval_env("--set", "horizon=1000000000000"), r"horizon must be"),
    Case("set-num-arms-negative", eval_env("--set", "num_arms=-1"), r"num_arms must be"),
    Case("set-unknown-kwarg", eval_env("--set", "nope=1"), r"does not accept.*nope"),
    Case("set-deep-json", eval_env("--set", f"num_arms={DEEP_JSON}"), r"--set num_arms.*levels"),
    Case("set-nan", eval_env("--set", "horizon=NaN"), r"horizon must be"),
    Case("set-string-for-int", eval_env("--set", "num_arms=five"), r"num_arms must be"),
    Case("set-bool-for-int", eval_env("--set", "num_arms=true"), r"num_arms must be"),
    Case("set-no-equals", eval_env("--set", "num_arms"), r"KEY=VALUE"),
    Case("set-bad-key", eval_env("--set", "1x=2"), r"KEY=VALUE"),
    Case("episodes-huge", eval_env("--episodes", "1000000000000"), r"episodes"),
    Case("attempts-huge", eval_env("--attempts", "1000000000"), r"episodes|attempts"),
    Case("seed-start-huge", eval_env("--seed-start", str(2**64)), r"seed"),
    Case("workers-huge", eval_env("--workers", "100000"), r"workers"),
    Case("agent-option-deep-json", eval_env("--agent-option", f"x={DEEP_JSON}"), r"levels"),
    Case("agent-option-no-equals", eval_env("--agent-option", "x"), r"KEY=VALUE"),
    Case("agent-unknown", command("eval", BANDIT, "-a", "nobody", "-o", "{work}/o"), r"nobody"),
    Case(
        "agent-module-missing",
        command("eval", BANDIT, "-a", "no_such_module:Agent", "-o", "{work}/o"),
        r"no_such_module",
    ),
    Case("executor-unknown", eval_env("--executor", "slurm"), r"unknown executor"),
    Case(
        "env-unknown",
        command("eval", "envsuite/Nope-v0", "-a", "random", "-o", "{work}/o"),
        r"Nope-v0",
    ),
    Case("info-set-deep-json", command("info", BANDIT, "--set", f"x={DEEP_JSON}"), r"levels"),
    Case(
        "info-set-num-arms-huge",
        command("info", BANDIT, "--set", "num_arms=100000000000"),
        r"num_arms must be",
    ),
]

RUN_DIR_CASES = [
    Case("run-json-list", resume(run_file("[]")), r"run\.json.*list"),
    Case("run-json-string", resume(run_file('"run"')), r"run\.json.*str"),
    Case("run-json-number", resume(run_file("5")), r"run\.json.*int"),
    Case("run-json-null", resume(run_file("null")), r"run\.json"),
    Case("run-json-empty", resume(run_file("")), r"run\.json"),
    Case("run-json-not-utf8", resume(run_file(b'{"agent": "r\xff"}')), r"run\.json.*not UTF-8"),
    Case("run-json-deep", resume(run_file(DEEP_JSON)), r"run\.json.*levels"),
    Case("run-json-truncated", resume(run_file('{"agent": ')), r"run\.json"),
    Case("run-json-no-run-id", resume(edit_run_file(lambda d: d.pop("run_id"))), r"run_id"),
    Case(
        "run-json-run-id-mapping",
        resume(edit_run_file(lambda d: d.update(run_id={"a": 1}))),
        r"run_id",
    ),
    Case(
        "run-json-protocol-list",
        resume(edit_run_file(lambda d: d.update(protocol=[]))),
        r"different run",
    ),
    Case(
        "run-json-agent-list",
        resume(edit_run_file(lambda d: d.update(agent=[1]))),
        r"different run",
    ),
    Case(
        "run-json-directory",
        resume(lambda run: ((run / "run.json").unlink(), (run / "run.json").mkdir())),
        r"run\.json",
    ),
    Case(
        "records-not-utf8",
        resume(records_line(b'{"run_id": "\xff"}')),
        r"episodes\.jsonl.*line 2.*not UTF-8",
    ),
    Case("records-garbage", resume(records_line("not json")), r"episodes\.jsonl:2"),
    Case("records-array", resume(records_line("[1, 2]")), r"episodes\.jsonl:2"),
    Case("records-nul", resume(records_line(b"\x00\x00")), r"episodes\.jsonl:2"),
    Case("records-deep", resume(deep_record_line), r"episodes\.jsonl:2"),
    Case("records-wrong-field-type", resume(edited_record(seed="zero")), r"episodes\.jsonl:3"),
    Case(
        "records-conflicting-duplicate",
        resume(edited_record(episode_return=123.0)),
        r"episodes\.jsonl: lines 1 and 3 both record",
    ),
    Case(
        "records-other-agent",
        resume(edited_record(seed=2, agent_id="someone-else")),
        r"several agents",
    ),
    Case(
        "records-directory",
        resume(lambda run: ((run / "episodes.jsonl").unlink(), (run / "episodes.jsonl").mkdir())),
        r"episodes\.jsonl",
    ),
]

LEADERBOARD_CASES = [
    Case(
        "create-unknown-metric",
        leaderboard("create", "{good}", "--metric", "bogus"),
        r"--metric.*unknown ranking metric 'bogus'",
    ),
    Case("create-bad-name", leaderboard("create", "{good}", "--name", "Bad Name"), r"board name"),
    Case("create-existing", leaderboard("create", "{good}", "--name", "tiny-board"), r"exists"),
    Case("create-not-utf8", create_from(b"id: tiny\ndescription: \xff\n"), r"not UTF-8"),
    Case("create-duplicate-key", create_from(_protocol() + "id: again\n"), r"duplicate key"),
    Case("create-alias-bomb", create_from(ALIAS_BOMB), r"alias bomb"),
    Case("create-deep", create_from(DEEP_YAML), r"levels"),
    Case("create-num-arms-huge", create_from(_with_kwargs(num_arms=10**11)), r"num_arms must be"),
    Case("create-missing-protocol", leaderboard("create", "{work}/nope.yaml"), r"nope\.yaml"),
    Case(
        "submit-bad-code-url", submit_run(lambda run: None, "--code-url", "notaurl"), r"--code-url"
    ),
    Case(
        "submit-http-code-url",
        submit_run(lambda run: None, "--code-url", "http://x.org"),
        r"--code-url",
    ),
    Case(
        "submit-negative-hours",
        submit_run(lambda run: None, "--wall-time-hours", "-1"),
        r"--wall-time-hours",
    ),
    Case(
        "submit-nan-hours",
        submit_run(lambda run: None, "--wall-time-hours", "nan"),
        r"--wall-time-hours",
    ),
    Case("submit-empty-author", submit_run(lambda run: None, "--author", " "), r"--author"),
    Case("submit-empty-leakage", submit_run(lambda run: None, "--leakage", ""), r"--leakage"),
    Case("submit-long-notes", submit_run(lambda run: None, "--notes", "x" * 5000), r"--notes"),
    Case("submit-empty-hardware", submit_run(lambda run: None, "--hardware", ""), r"--hardware"),
    Case(
        "submit-unusable-name",
        leaderboard("submit", "{run}/tiny-board-random", "--board", "tiny-board", "--name", "!!!"),
        r"name '!!!'",
    ),
    Case(
        "submit-unknown-board",
        leaderboard("submit", "{run}/tiny-board-random", "--board", "nope", "--name", "x"),
        r"nope",
    ),
    Case("submit-bad-date", submit_run(lambda run: None, "--date", "tomorrow"), r"--date"),
    Case(
        "submit-missing-run",
        leaderboard("submit", "{work}/none", "--board", "tiny-board", "--name", "x"),
        r"not a run directory",
    ),
    Case("submit-records-not-utf8", submit_run(records_line(b"\xff\xfe")), r"not UTF-8"),
    Case("submit-records-garbage", submit_run(records_line("{")), r"episodes\.jsonl:2"),
    Case("submit-run-json-list", submit_run(run_file("[]")), r"run\.json.*not a JSON object"),
    Case("submit-run-json-deep", submit_run(run_file(DEEP_JSON)), r"run\.json.*levels"),
    Case(
        "submit-records-conflicting-duplicate",
        submit_run(edited_record(episode_return=123.0)),
        r"lines 1 and \d+ both record",
    ),
    Case(
        "verify-env-lock-deep",
        tampered_entry("env_lock.json", DEEP_JSON),
        r"REJECTED.*env_lock\.json.*levels",
    ),
    Case(
        "verify-env-lock-list",
        tampered_entry("env_lock.json", "[]"),
        r"REJECTED.*not a JSON object",
    ),
    Case("verify-env-lock-nan", tampered_entry("env_lock.json", '{"x": NaN}'), r"REJECTED.*NaN"),
    Case(
        "verify-env-lock-duplicate-key",
        tampered_entry("env_lock.json", '{"a": 1, "a": 2}'),
        r"REJECTED.*duplicate key",
    ),
    Case(
        "verify-env-lock-not-utf8",
        tampered_entry("env_lock.json", b'{"a": "\xff"}'),
        r"REJECTED.*not UTF-8",
    ),
    Case(
        "verify-records-deep",
        tampered_entry("episodes.jsonl", '{"a": ' + DEEP_JSON + "}\n"),
        r"REJECTED.*episodes\.jsonl.*levels",
    ),
    Case(
        "verify-records-not-utf8",
        tampered_entry("episodes.jsonl", b'{"a": "\xff"}\n'),
        r"REJECTED.*not UTF-8",
    ),
    Case("verify-records-empty", tampered_entry("episodes.jsonl", ""), r"REJECTED.*no records"),
    Case(
        "verify-submission-deep", tampered_entry("submission.yaml", DEEP_YAML), r"REJECTED.*levels"
    ),
    Case(
        "verify-submission-alias-bomb",
        tampered_entry("submission.yaml", ALIAS_BOMB),
        r"REJECTED.*alias bomb",
    ),
    Case(
        "verify-submission-duplicate-key",
        tampered_entry("submission.yaml", "name: a\nname: b\n"),
        r"REJECTED.*duplicate key",
    ),
    Case(
        "verify-submission-not-utf8",
        tampered_entry("submission.yaml", b"name: \xff\n"),
        r"REJECTED.*not UTF-8",
    ),
    Case(
        "verify-submission-list", tampered_entry("submission.yaml", "- a\n"), r"REJECTED.*mapping"
    ),
    Case(
        "verify-submission-tag",
        tampered_entry("submission.yaml", "name: !!python/name:os.system\n"),
        r"REJECTED.*tag",
    ),
    Case("verify-board-yaml-deep", tampered_board("board.yaml", DEEP_YAML), r"levels"),
    Case(
        "verify-board-yaml-duplicate-key",
        tampered_board("board.yaml", "board: a\nboard: b\n"),
        r"duplicate key",
    ),
    Case(
        "verify-board-yaml-not-utf8", tampered_board("board.yaml", b"board: \xff\n"), r"not UTF-8"
    ),
    Case("verify-board-yaml-list", tampered_board("board.yaml", "[]\n"), r"mapping"),
    Case(
        "verify-protocol-yaml-bomb", tampered_board("protocol.yaml", ALIAS_BOMB), r"protocol\.yaml"
    ),
    Case("verify-not-a-folder", leaderboard("verify", "{work}/nothing"), r"not a submission"),
    Case("render-board-yaml-deep", rendered_board("board.yaml", DEEP_YAML), r"levels"),
    Case("publish-unknown-board", leaderboard("publish", "nope"), r"nope"),
    Case("new-version-unknown-board", leaderboard("new-version", "nope"), r"nope"),
    Case(
        "new-version-bad-protocol",
        with_file(
            "x.yaml",
            ALIAS_BOMB,
            leaderboard("new-version", "tiny-board", "--protocol", "{work}/x.yaml"),
        ),
        r"alias bomb",
    ),
]

OTHER_CASES = [
    Case(
        "swe-tasks-unknown-library",
        command("swe", "tasks", "--library", "nope"),
        r"no SWE library 'nope'.*shipped",
    ),
    Case(
        "swe-validate-unknown-library",
        command("swe", "validate", "--library", "nope"),
        r"no SWE library 'nope'",
    ),
    Case("report-run-json-list", report_of(run_file("[]")), r"run\.json"),
    Case("report-records-not-utf8", report_of(records_line(b"\xff")), r"not UTF-8"),
    Case("report-records-deep", report_of(deep_record_line), r"episodes\.jsonl"),
    Case(
        "report-records-duplicate-conflict",
        report_of(edited_record(episode_return=9.0)),
        r"twice|both record",
    ),
    Case(
        "curriculum-state-not-utf8",
        with_file("s.json", b"\xff", command("curriculum", "status", "{work}/s.json")),
        r"not UTF-8",
    ),
    Case(
        "curriculum-state-deep",
        with_file("s.json", DEEP_JSON, command("curriculum", "status", "{work}/s.json")),
        r"levels",
    ),
    Case(
        "curriculum-state-list",
        with_file("s.json", "[]", command("curriculum", "status", "{work}/s.json")),
        r"s\.json",
    ),
    Case(
        "curriculum-results-deep",
        with_file("r.jsonl", DEEP_JSON, curriculum_record("r.jsonl")),
        r"r\.jsonl:1: nests",
    ),
    Case(
        "curriculum-results-not-utf8",
        with_file("r.jsonl", b"\xff\n", curriculum_record("r.jsonl")),
        r"r\.jsonl, line 1, column 1: not UTF-8",
    ),
    Case(
        "play-set-deep-json",
        command("play", BANDIT, "--set", f"x={DEEP_JSON}"),
        r"--set x nests",
    ),
    Case("select-config-alias-bomb", select_config(ALIAS_BOMB), r"alias bomb"),
    Case("select-config-deep", select_config(DEEP_YAML), r"levels"),
    Case("select-config-not-utf8", select_config(b"\xff"), r"not UTF-8"),
    Case("select-config-duplicate-key", select_config("a: 1\na: 2\n"), r"duplicate key"),
]

CASES = TASK_CASES + OPTION_CASES + RUN_DIR_CASES + LEADERBOARD_CASES + OTHER_CASES


def _digest(folder: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_a_bad_input_gets_a_message_not_a_traceback(case: Case, fixture: Fixture, tmp_path: Path):
    args = case.build(tmp_path, fixture)
    run = tmp_path / "run"
    before = _digest(run) if run.is_dir() else None
    result = _invoke(args)
    output = result.output
    assert "Traceback" not in output, output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert result.exit_code in case.codes, output
    assert re.search(case.pattern, output, re.DOTALL), output
    assert len(output.strip().splitlines()) <= 12, output
    if before is not None and "submit" not in args:
        assert _digest(run) == before, "the run directory changed before the input was refused"


def test_a_repeated_record_line_is_dropped_with_a_warning_and_the_run_completes(
    fixture: Fixture, tmp_path: Path
):
    run = tmp_path / "run"
    shutil.copytree(fixture.partial_run, run)
    records_line((run / "episodes.jsonl").read_bytes().splitlines()[0])(run)
    result = runner.invoke(
        app, [*RUN_ARGS, "--no-progress", "-o", str(run)], env={"COLUMNS": "400"}
    )
    assert result.exit_code == 0, result.output
    assert "dropped 1 line(s)" in result.output and "Traceback" not in result.output
    assert "1 new, 2 resumed" in result.output
    lines = (run / "episodes.jsonl").read_text(encoding="utf-8").splitlines()
    assert sorted(json.loads(line)["seed"] for line in lines) == [0, 1, 2]
    reported = runner.invoke(app, ["report", str(run), "--out", str(tmp_path / "report")])
    assert reported.exit_code == 0, reported.output
