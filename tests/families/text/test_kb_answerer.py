"""The optional chat answerer of the question games, against a scripted endpoint on loopback."""

from __future__ import annotations

import pytest

import envsuite
from envsuite.agents.scripted_endpoint import ScriptedEndpoint, message_text
from envsuite.families.text.kb_answerer import parse_answerer
from envsuite.registry import spec as registry_spec


def _yes_if_barks(messages):
    system, user = message_text(messages[0]), message_text(messages[-1])
    if "bark" in user:
        return "Yes." if system.startswith("You are the answerer") and "dog:" in system else "No"
    return "Maybe, it depends"


def test_free_form_questions_go_to_the_model_and_grammar_ones_do_not():
    with ScriptedEndpoint(_yes_if_barks) as endpoint:
        env = envsuite.make(
            "envsuite/TwentyQuestions-v0",
            answerer="openai:scripted",
            answerer_base_url=endpoint.base_url,
        )
        env.reset(seed=0, options={"item": "dog"})
        assert env.step("Is it a mammal?")[0] == "Yes."
        assert len(endpoint.requests) == 0
        assert env.step("Does it bark?")[0] == "Yes."
        assert env.step("What colour is it?")[0] == "I cannot answer that."
        assert len(endpoint.requests) == 2
        body = endpoint.requests[0]
        assert body["model"] == "scripted" and "dog:" in body["messages"][0]["content"]
        assert body["messages"][1]["content"] == "Does it bark"  # the answer grammar drops the "?"
        assert "language model" in env.unwrapped.instructions()


def test_a_failing_endpoint_cannot_answer():
    with ScriptedEndpoint(_yes_if_barks) as endpoint:
        env = envsuite.make(
            "envsuite/GuessMyCity-v0", answerer="openai:m", answerer_base_url=endpoint.base_url
        )
        env.reset(seed=0)
        endpoint.fail_next(1, status=500)
        assert env.step("Is it rainy?")[0] == "I cannot answer that."
        assert "500" in env.unwrapped.chat.last_error


def test_answerer_is_an_env_kwarg_in_the_spec_hash():
    spec = registry_spec("envsuite/TwentyQuestions-v0")
    assert spec.hash_for({}) != spec.hash_for({"answerer": "openai:gpt-x"})
    assert any(key.startswith("text/objects/v1/") for key in spec.dataset_checksums({}))


@pytest.mark.parametrize("bad", ["openai:", "gpt-4", 3, "t5"])
def test_bad_answerer_names_are_refused(bad):
    with pytest.raises(ValueError, match="answerer"):
        parse_answerer(bad)
