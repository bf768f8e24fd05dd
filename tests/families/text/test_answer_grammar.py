import pytest

from envsuite.env_base import InvalidAction
from envsuite.families.text.answer_grammar import MAX_ANSWER_TEXT, extract_answer


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("crane", "crane"),
        ("  Crane.  ", "Crane"),
        ("I think it is \\boxed{crane}.", "crane"),
        ("first \\boxed{slate} then \\boxed{crane}", "crane"),
        ("\\boxed{\\text{crane}}", "\\text{crane}"),
        ("My guess is [crane]", "crane"),
        ("[slate] no wait [crane]", "crane"),
        ("reasoning...\nguess: crane", "crane"),
        ("Reasoning\n**Answer:** crane", "crane"),
        ("Move = e2e4", "e2e4"),
        ("```\n1 2\n3 4\n```", "1 2\n3 4"),
        ("`crane`", "crane"),
        ("'crane'!", "crane"),
        ("\\boxed{crane} and [slate]", "crane"),  # the box is read first
    ],
)
def test_the_marked_answer_is_read(text, answer):
    assert extract_answer(text) == answer


@pytest.mark.parametrize(
    "bad", [None, 3, b"crane", "", "   ", "\\boxed{}", "[ ]", "x" * (MAX_ANSWER_TEXT + 1)]
)
def test_no_answer_is_an_invalid_action(bad):
    with pytest.raises(InvalidAction):
        extract_answer(bad)
