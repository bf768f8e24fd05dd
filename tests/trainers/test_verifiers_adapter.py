"""The verifiers adapter, run by verifiers itself, in the test process.

Each case evaluates an env through verifiers' own entry point (``run_eval``, behind
``vf-eval``) and through ``envsuite rollout``, both against the scripted endpoint with the
same scripted replies: the rewards verifiers reports must be the returns envsuite records,
seed by seed, and the model must have been sent the same conversations. One endpoint (its
policy set per run) and one ``envsuite serve`` server are shared by the whole module.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import importlib
import io
import itertools
import json
import os
import re
import shlex
import signal
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":  # opted out: skip without the extra
    pytest.importorskip("verifiers")

from verifiers.v1.cli.eval.main import main as vf_eval_main
from verifiers.v1.cli.eval.runner import run_eval
from verifiers.v1.configs.cli.eval import EvalConfig

from envsuite.agents.scripted_endpoint import ScriptedEndpoint, cycle_valid_actions, message_text
from envsuite.errors import MissingExtraError, UnknownEnvError
from envsuite.evaluation.rollout import rollout, rollout_protocol
from envsuite.serve import RunningServer, ServeConfig
from envsuite.trainers.verifiers_env import load_environment

README = Path(__file__).resolve().parents[2] / "README.md"
SECTION = README.read_text(encoding="utf-8").split("### Training with verifiers")[1]
SECTION = SECTION.split("\n## ")[0].split("\n### ")[0]

Policy = Callable[[list[dict[str, Any]]], str]

#: Wordle guesses by turn; the third is malformed (the env's documented penalty: -0.1).
WORDS = ("crane", "slate", "???", "pious", "audio", "tiger", "lemon")


def wordle_policy(messages: list[dict[str, Any]]) -> str:
    """Guess ``WORDS`` in turn."""
    return WORDS[sum(1 for m in messages if m.get("role") == "assistant") % len(WORDS)]


def sat_policy(messages: list[dict[str, Any]]) -> str:
    """Solve, answer all-false, or answer with no ``\\boxed{}``, by a hash of the problem."""
    text = message_text(messages[-1])
    problem = json.loads(re.findall(r'^\{"n_sat".*\}$', text, re.M)[-1])
    names = [chr(ord("A") + i) for i in range(problem["k"])]
    clauses = [re.findall(r"(!?)([A-Z])", c) for c in problem["clause"].split(" & ")]
    kind = int(hashlib.sha256(problem["clause"].encode()).hexdigest(), 16) % 3
    if kind == 2:
        return "I am not sure."  # malformed: the env's documented penalty, -1
    if kind == 1:
        return "\\boxed{" + "0" * len(names) + "}"
    for bits in itertools.product((True, False), repeat=len(names)):
        value = dict(zip(names, bits, strict=True))
        if all(any(value[v] != bool(neg) for neg, v in clause) for clause in clauses):
            return "\\boxed{" + "".join("1" if b else "0" for b in bits) + "}"
    return "\\boxed{UNSAT}"


#: Case -> (env id, env kwargs, policy, seeds, rollouts per seed, behind the server).
CASES: dict[str, tuple[str, dict[str, Any], Policy, int, int, bool]] = {
    "wordle": ("envsuite/Wordle-v0", {}, wordle_policy, 3, 1, False),
    "wordle-served": ("envsuite/Wordle-v0", {}, wordle_policy, 2, 1, True),
    "sat": ("envsuite/SAT-v0", {"num_vars": 5}, sat_policy, 6, 2, False),
    # Screenshots (PNG image parts) with text: more images than the history window keeps.
    "gui": ("envsuite/GuiForm-v0", {}, cycle_valid_actions, 2, 1, False),
}


@pytest.fixture(scope="module")
def endpoint() -> Iterator[ScriptedEndpoint]:
    """One scripted endpoint for the module; each run sets its policy (see ``answered``)."""
    with ScriptedEndpoint() as served:
        yield served


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    """``envsuite serve`` for the served case."""
    with RunningServer(ServeConfig(("envsuite/Wordle-v0",), port=0)) as server:
        yield server.url


@contextlib.contextmanager
def answered(endpoint: ScriptedEndpoint, policy: Policy) -> Iterator[list[str]]:
    """Answer with ``policy`` inside; the list is filled, on exit, with every request's
    messages (canonical JSON, sorted) received inside."""
    endpoint.policy = policy
    start = len(endpoint.requests)
    received: list[str] = []
    yield received
    requests = endpoint.requests[start:]
    received.extend(sorted(json.dumps(r["messages"], sort_keys=True) for r in requests))


def eval_config(taskset: dict[str, Any], base_url: str, out: Path, **options: Any) -> EvalConfig:
    """What ``vf-eval`` builds from its command line, against ``base_url``."""
    return EvalConfig.model_validate(
        {
            "env": {"taskset": {"id": "envsuite-verifiers", **taskset}},
            "model": "scripted",
            "client": {"base_url": base_url, "api_key_var": "ENVSUITE_NO_KEY"},
            "push": False,
            "rich": None,
            "output_dir": str(out),
            **options,
        }
    )


def by_verifiers(
    case: str, endpoint: ScriptedEndpoint, out: Path, server_url: str | None
) -> tuple[list[Any], list[str]]:
    """The case evaluated by verifiers' ``run_eval``: its episodes and the requests."""
    env_id, kwargs, policy, seeds, group, _ = CASES[case]
    taskset: dict[str, Any] = {"env_id": env_id, "env_kwargs": kwargs}
    if server_url is not None:
        taskset["server_url"] = server_url
    config = eval_config(
        taskset, endpoint.base_url, out, select={"limit": seeds}, num_rollouts=group
    )
    with answered(endpoint, policy) as requests:
        episodes = asyncio.run(run_eval(config))
    return episodes, requests


def by_envsuite(case: str, endpoint: ScriptedEndpoint, out: Path) -> tuple[list[Any], list[str]]:
    """The case run by ``envsuite rollout`` (in-process envs): its records and the requests."""
    env_id, kwargs, policy, seeds, group, _ = CASES[case]
    protocol = rollout_protocol(env_id, kwargs, groups=seeds, group_size=group)
    with answered(endpoint, policy) as requests:
        result = rollout(protocol, "scripted", out, agent_options={"base_url": endpoint.base_url})
    return result.records, requests


@pytest.mark.parametrize("case", list(CASES))
def test_verifiers_rewards_are_envsuite_returns(
    case: str, endpoint: ScriptedEndpoint, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    url = request.getfixturevalue("server_url") if CASES[case][5] else None
    episodes, vf_requests = by_verifiers(case, endpoint, tmp_path / "verifiers", url)
    records, envsuite_requests = by_envsuite(case, endpoint, tmp_path / "envsuite")
    assert all(e.ok and not e.errors for e in episodes), [e.errors for e in episodes]
    traces = [(e.task.data.seed, t) for e in episodes for t in e.traces]
    assert all(not t.errors for _, t in traces)
    assert all(r.infra_error is None for r in records)
    reported = sorted((seed, t.reward, t.metrics["length"]) for seed, t in traces)
    recorded = sorted((r.seed, r.episode_return, r.length) for r in records)
    assert reported == recorded
    saved = list((tmp_path / "verifiers").rglob("traces.jsonl"))
    assert sum(len(p.read_text().splitlines()) for p in saved) == len(episodes)  # written down
    # The same conversations: every request's messages, system prompt to last reply.
    assert vf_requests == envsuite_requests
    if case == "sat":  # single-turn, groups of two sharing a seed
        assert set(Counter(seed for seed, _ in traces).values()) == {2}
        assert {length for _, _, length in reported} == {1}
        # The malformed answer costs SAT's documented -1; solved ones earn 1.
        by_reward = {t.reward: t for _, t in traces}
        assert {-1.0, 1.0} <= set(by_reward)
        assert by_reward[-1.0].metrics["parse_errors"] == 1
        assert "no \\boxed{...} answer" in by_reward[-1.0].info["envsuite"]["parse_error"]
        assert by_reward[1.0].metrics["success"] == 1
    elif case == "gui":  # images: the same requests, so the same window of screenshots
        assert all(t.metrics["length"] > 3 for _, t in traces)
        assert all('"image_url"' in r for r in vf_requests)
        assert any("[earlier image omitted]" in r for r in vf_requests)
    else:  # multi-turn: seven guesses, the third malformed (Wordle's -0.1 penalty)
        for _, trace in traces:
            assert trace.metrics["length"] == 7 and trace.metrics["parse_errors"] == 1
            assert trace.info["envsuite"]["rewards"][2] == -0.1
            assert trace.info["envsuite"]["finished"] is True


def test_a_refusing_endpoint_gives_failed_episodes(tmp_path: Path) -> None:
    with ScriptedEndpoint(wordle_policy) as refusing:  # its own: the failures must not leak
        refusing.fail_next(1000, status=400)
        config = eval_config(
            {"env_id": "envsuite/Wordle-v0"}, refusing.base_url, tmp_path, select={"limit": 2}
        )
        episodes = asyncio.run(run_eval(config))
    assert len(episodes) == 2
    for episode in episodes:  # reported, not raised: a failed episode, marked unfinished
        assert episode.ok is False
        errors = [e.message for t in episode.traces for e in t.errors]
        assert any("injected failure" in error for error in errors)
        assert [t.info["envsuite"]["finished"] for t in episode.traces] == [False]


@pytest.mark.parametrize(
    ("env_id", "error", "message"),
    [
        ("envsuite/Nim-v0", ValueError, "multi-agent env"),
        ("envsuite/Wordel-v0", UnknownEnvError, "Did you mean 'envsuite/Wordle-v0'"),
    ],
)
def test_envs_it_cannot_play_are_named(env_id: str, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=re.escape(message)):
        next(iter(load_environment(env_id).taskset))


def test_the_readme_example_prints_the_penalty(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The README's example (tests/test_readme.py runs it too), checked line by line."""
    blocks = re.findall(r"^```python\n(.*?)^```", SECTION, re.S | re.M)
    assert len(blocks) == 1
    monkeypatch.chdir(tmp_path)  # it writes vf-outputs/ here
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(blocks[0], "README.md", "exec"), {"__name__": "readme_verifiers"})
    lines = [line.split() for line in printed.getvalue().splitlines()]
    assert sorted(line[0] for line in lines) == ["0", "0", "1", "1", "2", "2", "3", "3"]
    assert {(reward, errors) for _, reward, errors in lines} == {("-1.0", "1.0")}


def test_the_readme_command_runs(
    endpoint: ScriptedEndpoint, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The README's ``vf-eval`` line, pointed at the scripted endpoint and made small."""
    block = re.search(r"```bash\n(.*?)```", SECTION, re.S)
    assert block is not None
    words = shlex.split(block.group(1).replace("\\\n", " "))
    assert words[:2] == ["vf-eval", "envsuite-verifiers"] and words[-1] == "--no-push"
    options = dict(zip(words[2:-1:2], words[3:-1:2], strict=True))
    assert options.pop("--client.base-url").startswith("http://")
    options.update({"-n": "2", "-r": "1", "-m": "scripted", "-o": str(tmp_path / "out")})
    options.update({"--client.base-url": endpoint.base_url, "--rich": "None"})
    arguments = [words[1], *(word for pair in options.items() for word in pair), "--no-push"]
    # vf-eval's main sets sys.argv and takes over SIGINT / SIGTERM: put them back after.
    monkeypatch.setattr(sys, "argv", list(sys.argv))
    handlers = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        with answered(endpoint, wordle_policy), contextlib.redirect_stdout(io.StringIO()):
            vf_eval_main(arguments)
    finally:
        for number, handler in handlers.items():
            signal.signal(number, handler)
    traces = list((tmp_path / "out").rglob("traces.jsonl"))
    assert len(traces) == 1
    lines = [json.loads(line) for line in traces[0].read_text().splitlines()]
    assert len(lines) == 2


def test_without_verifiers_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("verifiers", "verifiers.v1"):
        monkeypatch.setitem(sys.modules, name, None)  # import raises ImportError
    for name in ("envsuite.trainers.verifiers_package", "envsuite.trainers.verifiers_env"):
        monkeypatch.delitem(sys.modules, name)  # put back (the real ones) after the test
    with pytest.raises(MissingExtraError, match=r"pip install 'envsuite\[verifiers\]'"):
        importlib.import_module("envsuite.trainers.verifiers_env")
