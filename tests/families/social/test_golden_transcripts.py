"""Golden transcripts of every social env: fixed seeds and action scripts, one sha256 each.

Each env has ``golden/<Name>.json`` (``{"env_id", "cases": [{"kwargs", "seed", "actions",
"sha256"}]}``): belief-bot games in text and vector form with refused actions spliced in
(a malformed command, a vote at night, an unknown or dead target, an index out of range,
``None``) and, for Mafia, SecretMafia's bracketed votes and free discussion text. A change
to what an env shows or pays fails here until its version is bumped and the digests
renewed (the failure prints the new digest; :func:`envsuite.testing.golden.transcript_rows`
shows the rows).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from envsuite.families.social.specs import SOCIAL_SPECS
from envsuite.testing.golden import transcript_digest

GOLDEN = Path(__file__).parent / "golden"


def table(env_id: str) -> dict:
    return json.loads((GOLDEN / f"{env_id.split('/')[1].rsplit('-v', 1)[0]}.json").read_text())


def cases():
    for path in sorted(GOLDEN.glob("*.json")):
        data = json.loads(path.read_text())
        for index, case in enumerate(data["cases"]):
            yield pytest.param(data["env_id"], case, id=f"{path.stem}-{index}")


@pytest.mark.parametrize("spec", SOCIAL_SPECS, ids=lambda spec: spec.id)
def test_every_social_env_has_text_and_vector_transcripts_with_refused_actions(spec):
    data = table(spec.id)
    assert data["env_id"] == spec.id and len(data["cases"]) >= 2
    modes = {case["kwargs"].get("observation_mode", "text") for case in data["cases"]}
    assert modes == {"text", "vector"}
    actions = [action for case in data["cases"] for action in case["actions"]]
    assert any(isinstance(a, int) and a < 0 for a in actions) or 999 in actions
    assert any(isinstance(a, str) and a.startswith("[") for a in actions) or None in actions


@pytest.mark.parametrize(("env_id", "case"), list(cases()))
def test_golden_transcript(env_id, case):
    digest = transcript_digest(env_id, case["kwargs"], case["seed"], case["actions"])
    assert digest == case["sha256"], (
        f"{env_id} {case['kwargs']} seed {case['seed']}: the transcript changed (now {digest}); "
        "bump the env's version if this is intended"
    )
