"""Short agent names in plots and figure file names cut between words."""

from __future__ import annotations

from envsuite.evaluation.report.build import SLUG_CHARS, _slug
from envsuite.evaluation.report.labels import short_agent_names


def test_class_paths_are_cut_to_the_class_name_keeping_role_words() -> None:
    names = ["pkg.bots:RandomLegalBot as seer", "oracle as seer", "random"]
    assert short_agent_names(names) == {
        "pkg.bots:RandomLegalBot as seer": "RandomLegalBot as seer",
        "oracle as seer": "oracle as seer",
        "random": "random",
    }


def test_two_classes_of_one_name_keep_their_paths() -> None:
    names = ["a.bots:Bot", "b.bots:Bot", "c:Other"]
    assert short_agent_names(names) == {
        "a.bots:Bot": "a.bots:Bot",
        "b.bots:Bot": "b.bots:Bot",
        "c:Other": "Other",
    }


def test_slugs_end_on_a_whole_word_within_the_limit() -> None:
    text = "Bandit-v0 arm_type=gaussian difficulty=easy horizon=100 num_arms=5 extra=words"
    slug = _slug(text)
    assert len(slug) <= SLUG_CHARS
    assert not slug.endswith("-")
    assert all(
        word in text.replace("_", "-").replace("=", "-").replace(" ", "-").split("-")
        for word in slug.split("-")
    )
    assert _slug("///") == "env"
    assert _slug("x" * 100) == "x" * SLUG_CHARS
