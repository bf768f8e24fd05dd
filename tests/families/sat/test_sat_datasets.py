from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("pysat")  # the sat extra; CI installs it and wants failures, not skips
import typer
from typer.testing import CliRunner

from envsuite.families.sat.cli import datasets as datasets_cli
from envsuite.families.sat.dataset_builder import saturn_layout, verify_dataset
from envsuite.families.sat.manifest import check_manifest
from envsuite.families.sat.saturn_jsonl import read_saturn_jsonl

REPO = Path(__file__).resolve().parents[3]
SHIPPED = REPO / "datasets" / "sat" / "envsuite-sat-2.6k" / "v1"
ANCHOR = REPO.parent / "shared" / "anchors" / "saturn"

runner = CliRunner()


def cli() -> typer.Typer:
    app = typer.Typer()
    datasets_cli.register(app)
    return app


def invoke(*args: str):
    return runner.invoke(cli(), ["datasets", *args])


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("datasets")
    result = invoke("build", "sat", "--root", str(root))
    assert result.exit_code == 0, result.output
    return root


def test_build_has_saturn_26k_structure(built):
    target = built / "sat" / "envsuite-sat-2.6k" / "v1"
    files = sorted(p.relative_to(target).as_posix() for p in target.rglob("*.jsonl"))
    assert files == sorted(f.path for f in saturn_layout())
    assert "train/Train_prompt_3_5_13_520/test.jsonl" in files
    assert "test/n6_k7_length40_sample100.jsonl" in files
    stage = read_saturn_jsonl(target / "train/Train_prompt_3_5_5_270/train.jsonl")
    held_out = read_saturn_jsonl(target / "train/Train_prompt_3_5_5_270/test.jsonl")
    assert [r.id for r in stage] == list(range(250)) and [r.id for r in held_out] == list(
        range(250, 270)
    )
    assert not {(r.solution, r.formula) for r in stage} & {
        (r.solution, r.formula) for r in held_out
    }
    level = read_saturn_jsonl(target / "test/n4_k8_length40_sample100.jsonl")
    assert len(level) == 100 and len({(r.solution, r.formula) for r in level}) == 100
    first = json.loads((target / "test/n4_k8_length40_sample100.jsonl").read_text().splitlines()[0])
    assert list(first)[:6] == ["id", "n_sat", "k", "solution", "clause", "prompt"]
    assert first["difficulty"] == pytest.approx(11.643856) and 1 <= first["num_solutions"] <= 100
    checked, problems = verify_dataset(target)
    assert (checked, problems) == (2580, [])
    assert sum(p.stat().st_size for p in target.rglob("*")) < 5_000_000


def test_build_is_deterministic_and_matches_the_shipped_dataset(built):
    target = built / "sat" / "envsuite-sat-2.6k" / "v1"
    assert (target / "MANIFEST").read_bytes() == (SHIPPED / "MANIFEST").read_bytes()
    assert check_manifest(SHIPPED) == []
    again = invoke("build", "sat", "--root", str(built))
    assert again.exit_code == 0 and "up to date" in again.output


def test_a_changed_build_is_a_new_version(built):
    result = invoke("build", "sat", "--root", str(built), "--seed", "7")
    assert result.exit_code == 1 and "new version" in result.output
    result = invoke("build", "sat", "--root", str(built), "--seed", "7", "--version", "2")
    assert result.exit_code == 0 and "built" in result.output
    one = (built / "sat" / "envsuite-sat-2.6k" / "v1" / "MANIFEST").read_text()
    two = (built / "sat" / "envsuite-sat-2.6k" / "v2" / "MANIFEST").read_text()
    assert one != two


def test_verify_catches_tampering(tmp_path, built):
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(built / "sat" / "envsuite-sat-2.6k" / "v1", copy)
    assert invoke("verify", str(copy)).exit_code == 0
    path = copy / "test" / "n3_k5_length20_sample100.jsonl"
    lines = path.read_text().splitlines()
    record = json.loads(lines[3])
    record["solution"] = "".join("1" if c == "0" else "0" for c in record["solution"])
    lines[3] = json.dumps(record)
    path.write_text("\n".join(lines) + "\n")
    result = invoke("verify", str(copy))
    assert result.exit_code == 1
    text = " ".join(result.output.split())
    assert "sha256 differs" in text
    (copy / "stray.txt").write_text("x")
    assert "not listed in MANIFEST" in " ".join(invoke("verify", str(copy)).output.split())


def test_usage_errors():
    assert invoke("build", "chess").exit_code == 2
    assert invoke("verify", "/nonexistent/folder").exit_code == 2
    assert invoke("import", "other", ".").exit_code == 2


def test_corrupt_saturn_import_fails_cleanly(tmp_path):
    source = tmp_path / "data" / "test"
    source.mkdir(parents=True)
    (source / "n3_k5_length20_sample100.jsonl").write_text('{"id": 0}\n')
    result = invoke("import", "saturn", str(tmp_path / "data"), "--root", str(tmp_path / "root"))
    assert result.exit_code == 2 and "missing" in result.output
    assert not (tmp_path / "root" / "sat" / "saturn-2.6k").exists()


@pytest.mark.skipif(not ANCHOR.is_dir(), reason=f"Saturn-2.6k is not at {ANCHOR}")
def test_import_saturn_26k(tmp_path):
    result = invoke("import", "saturn", str(ANCHOR), "--root", str(tmp_path))
    assert result.exit_code == 0, result.output
    target = tmp_path / "sat" / "saturn-2.6k" / "v1"
    assert verify_dataset(target) == (2580, [])
    assert (target / "LICENSE").is_file()
    for path in ANCHOR.rglob("*.jsonl"):
        assert (target / path.relative_to(ANCHOR)).read_bytes() == path.read_bytes()
