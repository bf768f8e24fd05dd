from envsuite.families.swe.similarity_reward import MALFORMED, similarity_reward
from envsuite.families.swe.unified_diff import make_file_diff

BASE = {"pkg/a.py": "def f(x):\n    return x < 1\n", "pkg/b.py": "y = 1\n"}
GOLD = make_file_diff("pkg/a.py", BASE["pkg/a.py"], BASE["pkg/a.py"].replace("<", "<="))


def test_the_gold_patch_scores_one():
    result = similarity_reward(BASE, GOLD, GOLD)
    assert result.reward == 1.0 and result.per_file == {"pkg/a.py": 1.0}


def test_a_different_fix_scores_between_zero_and_one():
    other = make_file_diff("pkg/a.py", BASE["pkg/a.py"], BASE["pkg/a.py"].replace("< 1", "<= 2"))
    assert 0.0 < similarity_reward(BASE, GOLD, other).reward < 1.0


def test_an_extra_file_counts_zero_in_the_mean():
    extra = GOLD + make_file_diff("pkg/b.py", "y = 1\n", "y = 2\n")
    result = similarity_reward(BASE, GOLD, extra)
    assert result.per_file == {"pkg/a.py": 1.0, "pkg/b.py": 0.0} and result.reward == 0.5


def test_git_style_context_differences_do_not_matter():
    # git may give a different amount of context; the change is normalised first.
    wide = make_file_diff("pkg/a.py", BASE["pkg/a.py"], BASE["pkg/a.py"].replace("<", "<="), 10)
    assert similarity_reward(BASE, GOLD, wide).reward == 1.0


def test_malformed_submissions_score_minus_one():
    assert similarity_reward(BASE, GOLD, "").reward == MALFORMED
    assert similarity_reward(BASE, GOLD, "garbage").reward == MALFORMED
    stale = make_file_diff("pkg/a.py", "something else\n", "x\n")
    result = similarity_reward(BASE, GOLD, stale)
    assert result.reward == MALFORMED and result.error
