"""Golden transcripts of every text env: fixed seeds and action scripts, one sha256 each.

Each env has ``golden/<Name>.json``: ``{"env_id": ..., "cases": [{"kwargs", "seed",
"actions", "sha256"}]}``. The scripts include malformed and illegal actions. A change to
what an env shows or pays fails here until its version is bumped and its digests renewed
(the failure prints the new digest; :func:`envsuite.testing.golden.transcript_rows` shows
the rows).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from envsuite.families.text.specs import TEXT_SPECS
from envsuite.testing.golden import transcript_digest

GOLDEN = Path(__file__).parent / "golden"


def golden_file(env_id: str) -> Path:
    return GOLDEN / f"{env_id.split('/')[1].rsplit('-v', 1)[0]}.json"


def cases():
    for path in sorted(GOLDEN.glob("*.json")):
        table = json.loads(path.read_text())
        for index, case in enumerate(table["cases"]):
            yield pytest.param(table["env_id"], case, id=f"{path.stem}-{index}")


@pytest.mark.parametrize("spec", TEXT_SPECS, ids=lambda spec: spec.id)
def test_every_text_env_has_golden_transcripts(spec):
    path = golden_file(spec.id)
    assert path.is_file(), f"{spec.id} has no {path.name}"
    table = json.loads(path.read_text())
    assert table["env_id"] == spec.id and len(table["cases"]) >= 2


@pytest.mark.parametrize(("env_id", "case"), list(cases()))
def test_golden_transcript(env_id, case):
    digest = transcript_digest(env_id, case["kwargs"], case["seed"], case["actions"])
    assert digest == case["sha256"], (
        f"{env_id} {case['kwargs']} seed {case['seed']}: the transcript changed (now {digest}); "
        "bump the env's version if this is intended"
    )
