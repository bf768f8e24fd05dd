import subprocess

import pytest

from envsuite.families.swe.unified_diff import (
    DiffError,
    apply_diff,
    apply_file_diff,
    make_file_diff,
    split_file_diffs,
)

OLD = "".join(f"line {i}\n" for i in range(1, 21))


@pytest.mark.parametrize(
    "new",
    [
        OLD.replace("line 3\n", "line three\n"),
        OLD.replace("line 1\n", "") + "tail without newline",
        OLD.replace("line 10\n", "line 10\nextra\n").replace("line 19\n", ""),
        "",
    ],
)
def test_made_diffs_apply_back_exactly_and_with_git(tmp_path, new):
    diff = make_file_diff("pkg/mod.py", OLD, new)
    [section] = split_file_diffs(diff)
    assert section.path == "pkg/mod.py"
    assert apply_file_diff(OLD, section) == new
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text(OLD)
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run(["git", "apply", "-"], input=diff.encode(), cwd=tmp_path, check=True)
    assert (tmp_path / "pkg" / "mod.py").read_text() == new


def test_new_and_deleted_files():
    added = make_file_diff("tests/test_a.py", None, "def test_a():\n    pass\n")
    assert "new file mode" in added and "--- /dev/null" in added
    assert apply_diff({}, added) == {"tests/test_a.py": "def test_a():\n    pass\n"}
    removed = make_file_diff("a.py", "x = 1\n", None)
    assert apply_diff({"a.py": "x = 1\n"}, removed) == {}


def test_a_diff_whose_context_does_not_match_is_refused():
    diff = make_file_diff("m.py", OLD, OLD.replace("line 5\n", "five\n"))
    with pytest.raises(DiffError):
        apply_diff({"m.py": OLD.replace("line 4\n", "four\n")}, diff)


def test_split_reads_git_and_plain_diffs():
    git_diff = make_file_diff("a.py", "a\n", "b\n") + make_file_diff("b.py", None, "c\n")
    plain = "--- a/c.py\n+++ b/c.py\n@@ -1 +1 @@\n-x\n+y\n"
    sections = split_file_diffs(git_diff + plain)
    assert [s.path for s in sections] == ["a.py", "b.py", "c.py"]
    assert sections[1].old_path is None
    with pytest.raises(DiffError):
        split_file_diffs("not a diff at all\n")
