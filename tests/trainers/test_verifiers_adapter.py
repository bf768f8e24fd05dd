"""The verifiers adapter, run by verifiers itself (from PyPI, in its own venv).

Each case evaluates an env through verifiers' own entry point (``run_eval``, behind
``vf-eval``) and through ``envsuite rollout``, both against the scripted endpoint with
the same scripted replies (tests/trainers/verifiers_session.py); the rewards verifiers
reports must be the returns envsuite records, seed by seed, and the model must have been
sent the same conversations.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shlex
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from envsuite.errors import MissingExtraError
from tests.trainers.verifiers_venv import ROOT, verifiers_python

SCRIPT = Path(__file__).with_name("verifiers_session.py")
README = ROOT / "README.md"
SECTION = README.read_text(encoding="utf-8").split("### Training with verifiers")[1]
SECTION = SECTION.split("\n## ")[0].split("\n### ")[0]


@pytest.fixture(scope="module")
def python() -> Path:
    if os.environ.get("ENVSUITE_FRESH_MACHINE") == "1":
        # As for OpenEnv's client: the outer suite on the same machine runs these tests;
        # building the side venv again in the fresh-machine container only adds minutes.
        pytest.skip("verifiers is checked by the outer suite, not in the container")
    try:
        return verifiers_python()
    except (RuntimeError, subprocess.TimeoutExpired) as exc:
        if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") == "1":
            raise
        pytest.skip(f"no verifiers venv: {exc}")


def run_in_venv(python: Path, args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [str(python), *args], cwd=cwd, env=environment, capture_output=True, text=True, timeout=600
    )


def session(python: Path, case: str, tmp_path: Path) -> dict[str, Any]:
    done = run_in_venv(python, [str(SCRIPT), case, str(tmp_path)], tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.parametrize("case", ["sat", "wordle", "wordle-served", "gui"])
def test_verifiers_rewards_are_envsuite_returns(python: Path, case: str, tmp_path: Path) -> None:
    document = session(python, case, tmp_path)
    verifiers, envsuite = document["verifiers"], document["envsuite"]
    episodes = verifiers["episodes"]
    assert all(e["ok"] and not e["errors"] for e in episodes), episodes
    traces = [(e["seed"], t) for e in episodes for t in e["traces"]]
    assert all(not t["errors"] for _, t in traces)
    assert all(r["infra_error"] is None for r in envsuite["records"])
    reported = sorted((seed, t["reward"], t["metrics"]["length"]) for seed, t in traces)
    recorded = sorted((r["seed"], r["return"], r["length"]) for r in envsuite["records"])
    assert reported == recorded
    assert verifiers["saved_lines"] == len(episodes)  # and verifiers wrote each one down
    # The same conversations: every request's messages, system prompt to last reply.
    assert verifiers["requests"] == envsuite["requests"]
    if case == "sat":  # single-turn, groups of two sharing a seed
        assert set(Counter(seed for seed, _ in traces).values()) == {2}
        assert {length for _, _, length in reported} == {1}
        # The malformed answer costs SAT's documented -1; solved ones earn 1.
        by_reward = {t["reward"]: t for _, t in traces}
        assert {-1.0, 1.0} <= set(by_reward)
        assert by_reward[-1.0]["metrics"]["parse_errors"] == 1
        assert "no \\boxed{...} answer" in by_reward[-1.0]["envsuite"]["parse_error"]
        assert by_reward[1.0]["metrics"]["success"] == 1
    elif case == "gui":  # images: the same requests, so the same window of screenshots
        assert all(t["metrics"]["length"] > 3 for _, t in traces)
        assert all('"image_url"' in request for request in verifiers["requests"])
        assert any("[earlier image omitted]" in request for request in verifiers["requests"])
    else:  # multi-turn: seven guesses, the third malformed (Wordle's -0.1 penalty)
        for _, trace in traces:
            assert trace["metrics"]["length"] == 7 and trace["metrics"]["parse_errors"] == 1
            assert trace["envsuite"]["rewards"][2] == -0.1
            assert trace["envsuite"]["finished"] is True


def test_failures_are_reported_not_raised(python: Path, tmp_path: Path) -> None:
    document = session(python, "refused", tmp_path)
    episodes = document["episodes"]
    assert len(episodes) == 2
    for episode in episodes:  # the endpoint refused: a failed episode, marked unfinished
        assert episode["ok"] is False
        assert any("injected failure" in error for error in episode["errors"])
        assert [e["finished"] for e in episode["envsuite"]] == [False]
    problems = document["problems"]
    assert "multi-agent env" in problems["envsuite/Nim-v0"]
    assert "Did you mean 'envsuite/Wordle-v0'" in problems["envsuite/Wordel-v0"]


def test_the_readme_example_runs(python: Path, tmp_path: Path) -> None:
    blocks = re.findall(r"^```py\n(.*?)^```", SECTION, re.S | re.M)
    assert len(blocks) == 1
    script = tmp_path / "readme_verifiers.py"
    script.write_text(blocks[0], encoding="utf-8")
    done = run_in_venv(python, [str(script)], tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = [line.split() for line in done.stdout.splitlines()]
    assert sorted(line[0] for line in lines) == ["0", "0", "1", "1", "2", "2", "3", "3"]
    assert {(reward, errors) for _, reward, errors in lines} == {("-1.0", "1.0")}


def test_the_readme_command_runs(python: Path, tmp_path: Path) -> None:
    """The README's ``vf-eval`` line, pointed at the scripted endpoint and made small."""
    block = re.search(r"```bash\n(.*?)```", SECTION, re.S)
    assert block is not None
    words = shlex.split(block.group(1).replace("\\\n", " "))
    assert words[:2] == ["vf-eval", "envsuite-verifiers"] and words[-1] == "--no-push"
    options = dict(zip(words[2:-1:2], words[3:-1:2], strict=True))
    assert options.pop("--client.base-url").startswith("http://")
    options.update({"-n": "2", "-r": "1", "-m": "scripted", "-o": str(tmp_path / "out")})
    code = (
        "import sys\n"
        "from envsuite.agents.scripted_endpoint import ScriptedEndpoint\n"
        "from verifiers.v1.cli.eval.main import main\n"
        "with ScriptedEndpoint() as endpoint:\n"
        "    main([*sys.argv[1:], '--client.base-url', endpoint.base_url, '--rich', 'None'])\n"
    )
    arguments = [words[1], *(word for pair in options.items() for word in pair), "--no-push"]
    done = run_in_venv(python, ["-c", code, *arguments], tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    traces = list((tmp_path / "out").rglob("traces.jsonl"))
    assert len(traces) == 1
    assert len(traces[0].read_text().splitlines()) == 2


@pytest.mark.skipif(
    importlib.util.find_spec("verifiers") is not None, reason="verifiers is installed here"
)
def test_without_verifiers_the_error_names_the_extra() -> None:
    sys.modules.pop("envsuite.trainers.verifiers_package", None)
    with pytest.raises(MissingExtraError, match=r"pip install 'envsuite\[verifiers\]'"):
        importlib.import_module("envsuite.trainers.verifiers_env")
