"""The ``sandbox`` and ``swe`` command groups of the swe family (registered on a bare app)."""

from __future__ import annotations

import pytest
import typer
from typer.testing import CliRunner

from envsuite.families.swe.cli import sandbox, swe
from envsuite.families.swe.dataset import load_problems


def app() -> typer.Typer:
    root = typer.Typer()
    sandbox.register(root)
    swe.register(root)
    return root


def invoke(*args: str):
    return CliRunner().invoke(app(), list(args))


@pytest.mark.parametrize("command", ["problems", "tasks"])  # "tasks": the name it had before
def test_swe_problems_lists_the_shipped_problems(command):
    result = invoke("swe", command, "--library", "inflection")
    count = len(load_problems(["inflection"]))
    assert result.exit_code == 0 and result.output.rstrip().endswith(f"{count} problems")


def test_the_old_name_of_swe_problems_is_hidden_from_help():
    commands = invoke("swe", "--help").output.split("Commands")[1]
    assert " problems " in commands and " tasks " not in commands


def test_swe_validate_grades_gold_and_empty_locally(tmp_path):
    instance = load_problems(["inflection"])[0].instance_id
    out = tmp_path / "checks.json"
    result = invoke(
        "swe",
        "validate",
        "--library",
        "inflection",
        "--instance",
        instance,
        "--backend",
        "local",
        "--json",
        str(out),
    )
    assert result.exit_code == 0, result.output
    assert "gold patches: 1/1 resolved" in result.output
    assert "empty patches: 0/1 resolved" in result.output
    assert out.is_file()


def test_swe_synthesize_rejects_an_unpinned_library():
    result = invoke("swe", "synthesize", "--library", "left-pad")
    assert result.exit_code == 2 and "no pinned library" in result.output


def test_sandbox_build_is_cached_and_idempotent(task_images):
    first = invoke("sandbox", "build", "--library", "inflection")
    second = invoke("sandbox", "build", "--library", "inflection")
    assert first.exit_code == 0 and second.exit_code == 0, first.output + second.output
    assert "(cached)" in second.output and "building" not in second.output
    status = invoke("sandbox", "status")
    assert (
        status.exit_code == 0
        and "task image inflection: envsuite-swe/task-inflection:" in status.output
    )
