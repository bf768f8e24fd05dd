"""Candidate strings and files."""

from __future__ import annotations

import pytest

from envsuite.evaluation.policy_selection.candidates import (
    Candidate,
    CandidateError,
    check_options,
    check_unique,
    load_candidates_file,
    parse_candidate,
)

MODULE = "envsuite.families.decision.candidate_policies"


def test_plain_agent_strings():
    assert parse_candidate("random") == Candidate("random", "random", {})
    assert parse_candidate("openai:gpt-4o") == Candidate("openai:gpt-4o", "openai:gpt-4o", {})


def test_options_are_read_as_json_else_text():
    candidate = parse_candidate(f"{MODULE}:Softmax?temperature=0.5&initial_value=1&tag=abc")
    assert candidate.agent == f"{MODULE}:Softmax"
    assert candidate.options == {"temperature": 0.5, "initial_value": 1, "tag": "abc"}
    assert candidate.name == 'Softmax(temperature=0.5, initial_value=1, tag="abc")'


def test_a_name_prefix():
    candidate = parse_candidate(f"eps0.1={MODULE}:EpsilonGreedy?epsilon=0.1")
    assert (candidate.name, candidate.options) == ("eps0.1", {"epsilon": 0.1})
    # '=' after ':' or '?' belongs to the agent string, not a name.
    assert parse_candidate(f"{MODULE}:EpsilonGreedy?epsilon=0.1").name == (
        "EpsilonGreedy(epsilon=0.1)"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("bad name=random", "candidate name 'bad name'"),
        ("x=", "names no agent"),
        (f"{MODULE}:EpsilonGreedy?epsilon", "option 'epsilon' is not KEY=VALUE"),
        (f"{MODULE}:EpsilonGreedy?1x=2", "is not KEY=VALUE"),
    ],
)
def test_malformed_strings(text, message):
    with pytest.raises(CandidateError, match=message):
        parse_candidate(text)


def test_option_names_are_checked_against_the_constructor():
    check_options(parse_candidate(f"{MODULE}:FixedArm?arm=1&epsilon=0.1"))
    with pytest.raises(CandidateError, match=r"does not take env \(it takes: epsilon\)"):
        check_options(parse_candidate(f"{MODULE}:EpsilonGreedy?env=1"))
    with pytest.raises(CandidateError, match="'random' takes no options"):
        check_options(parse_candidate("random?x=1"))


def test_yaml_file(tmp_path):
    path = tmp_path / "candidates.yaml"
    path.write_text(
        f"- name: eps\n  agent: {MODULE}:EpsilonGreedy\n  options: {{epsilon: 0.2}}\n"
        f"- {MODULE}:Softmax?temperature=0.3\n"
    )
    assert load_candidates_file(path) == [
        Candidate("eps", f"{MODULE}:EpsilonGreedy", {"epsilon": 0.2}),
        Candidate("Softmax(temperature=0.3)", f"{MODULE}:Softmax", {"temperature": 0.3}),
    ]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{}", "non-empty list"),
        ("- {agent: random, extra: 1}", "keys are name, agent and options"),
        ("- {name: x}", "mapping with 'agent'"),
        ("- [unclosed", "not valid YAML"),
    ],
)
def test_bad_yaml_files(tmp_path, content, message):
    path = tmp_path / "candidates.yaml"
    path.write_text(content)
    with pytest.raises(CandidateError, match=message):
        load_candidates_file(path)
    with pytest.raises(CandidateError, match="cannot read"):
        load_candidates_file(tmp_path / "missing.yaml")


def test_names_must_be_unique():
    with pytest.raises(CandidateError, match="two candidates are named 'random'"):
        check_unique([parse_candidate("random"), parse_candidate("random")])
