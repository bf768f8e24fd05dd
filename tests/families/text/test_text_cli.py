"""Every text env runs under ``envsuite eval`` with random, oracle and chat agents, and plays.

The chat agent talks to envsuite's scripted OpenAI-compatible endpoint on loopback (it
answers with the listed legal actions in turn, or a fixed reply where none are listed).
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from envsuite.agents.scripted_endpoint import ScriptedEndpoint
from envsuite.cli import app
from envsuite.families.text.specs import TEXT_SPECS
from envsuite.records import read_records

runner = CliRunner()


def settings(spec) -> list[str]:
    pairs = []
    for key, value in spec.test_kwargs.items():
        pairs += ["--set", f"{key}={json.dumps(value)}"]
    return pairs


@pytest.mark.parametrize("agent", ["random", "oracle", "openai:scripted"])
@pytest.mark.parametrize("spec", TEXT_SPECS, ids=lambda spec: spec.id)
def test_eval_with_every_kind_of_agent(tmp_path, spec, agent):
    out = tmp_path / "run"
    with ScriptedEndpoint() as endpoint:
        args = ["eval", spec.id, "--agent", agent, "--episodes", "2", "--out", str(out)]
        args += ["--no-progress", *settings(spec)]
        if agent.startswith("openai:"):
            args += ["--base-url", endpoint.base_url]
        result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    records = read_records(out / "episodes.jsonl")
    assert len(records) == 2 and not any(r.infra_error for r in records)
    if agent == "oracle":
        assert all(r.success for r in records), [r.metrics for r in records]
        known = [r for r in records if r.metrics.get("optimal_steps")]
        assert all(0 < r.metrics["efficiency"] <= 1 for r in known)
    if agent.startswith("openai:"):
        # A multi-agent record reports each seat's agent info under the seat's name.
        seats = (
            [r.agent_info for r in records]
            if spec.api == "gymnasium"
            else [info for r in records for info in r.agent_info.values()]
        )
        assert seats and all(seat["requests"] >= 1 for seat in seats)


@pytest.mark.parametrize("spec", TEXT_SPECS, ids=lambda spec: spec.id)
def test_play_in_the_terminal(spec):
    result = runner.invoke(app, ["play", spec.id, "--seed", "0", *settings(spec)], input="zzqx9\n")
    assert result.exit_code == 0, result.output
    assert "parse_error:" in result.output and "stdin closed" in result.output
    assert "Traceback" not in result.output
