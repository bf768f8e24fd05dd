"""Rendering: README tables between markers, and a static site a real browser displays."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess

import pytest

from envsuite.leaderboard.render import render_all
from envsuite.leaderboard.render_markdown import END, START


@pytest.fixture(scope="module")
def rendered(boards_root, tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("render")
    root = tmp_path / "leaderboards"
    shutil.copytree(boards_root, root)
    (root / "mini-bandit" / "README.md").write_text(
        f"# Mini bandit\n\nHand notes.\n\n{START}\nold\n{END}\n\nFooter.\n"
    )
    return root, render_all(root, tmp_path / "site")


def test_readmes_get_a_ranked_table_and_keep_the_text_around_it(rendered):
    root, _ = rendered
    text = (root / "mini-bandit" / "README.md").read_text()
    assert text.startswith("# Mini bandit\n\nHand notes.") and text.rstrip().endswith("Footer.")
    assert "\nold\n" not in text
    table = [line for line in text.splitlines() if line.startswith("| ")]
    assert table[0].startswith(
        "| rank | entry | agent | model | success rate (95% CI) | rank interval"
    )
    assert "| k | pass@k |" in table[0]
    assert table[1].startswith("| 1 | [oracle](v1/submissions/20261201_oracle/submission.yaml)")
    assert table[2].startswith("| 2 | [random](v1/submissions/20261201_random/submission.yaml)")
    assert re.search(r"\| 2 \| \d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\] \| 2026-12-01 \|$", table[1])


def test_readmes_show_the_ranking_metric_per_task_recomputed_from_the_records(rendered):
    root, _ = rendered
    text = (root / "mini-bandit" / "README.md").read_text()
    assert "Per task: success rate, mean over the task's seeds." in text
    rows = [line for line in text.split("Per task:", 1)[1].splitlines() if line.startswith("| ")]
    assert rows[0] == "| task | oracle | random |"
    expected = {}
    for entry in ("oracle", "random"):
        path = root / "mini-bandit" / "v1" / "submissions" / f"20261201_{entry}" / "episodes.jsonl"
        by_task: dict = {}
        for line in path.read_text().splitlines():
            record = json.loads(line)
            by_task.setdefault(record["env_kwargs"].get("difficulty", record["env_id"]), [])
            by_task[record["env_kwargs"].get("difficulty", record["env_id"])].append(
                float(record["success"])
            )
        expected[entry] = {task: sum(v) / len(v) for task, v in by_task.items()}
    # one row per env configuration, in the protocol's order
    labels = [row.split(" | ")[0].removeprefix("| ") for row in rows[1:]]
    assert labels == [
        "Bandit-v0 horizon=20 num_arms=3",
        "Bandit-v0 difficulty=hard horizon=20 num_arms=3",
        "Experts-v0 horizon=20",
    ]
    keys = ["envsuite/Bandit-v0", "hard", "envsuite/Experts-v0"]
    for row, key in zip(rows[1:], keys, strict=True):
        cells = row.strip("| ").split(" | ")[1:]
        assert cells == [f"{expected['oracle'][key]:.3f}", f"{expected['random'][key]:.3f}"]
    assert expected["oracle"] != expected["random"]


def test_multi_agent_readmes_show_ratings_and_the_index_lists_every_board(rendered):
    root, _ = rendered
    games = (root / "mini-games" / "README.md").read_text()
    assert "Bradley–Terry rating (95% CI)" in games and "final regret (lower is better)" in games
    index = (root / "README.md").read_text()
    assert (
        "[mini-bandit](mini-bandit/README.md) | v1 | draft | success_rate | 2 | oracle |" in index
    )
    assert "[mini-games](mini-games/README.md) | v1 | draft | regret | 3 | oracle |" in index


def test_rendering_twice_gives_the_same_readmes(rendered):
    root, first = rendered
    before = {path: path.read_text() for path in first.readmes}
    render_all(root, None)
    assert {path: path.read_text() for path in first.readmes} == before


def test_the_site_has_a_page_per_board_version_with_plots_and_raw_files(rendered):
    root, result = rendered
    site = root.parent / "site"
    assert result.site_index == site / "index.html"
    page = (site / "mini-games" / "v1" / "index.html").read_text()
    for name in ("ranking_ci.png", "ratings_ci.png"):
        assert (site / "mini-games" / "v1" / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f'src="{name}"' in page
    raw = site / "mini-games" / "v1" / "submissions" / "20261201_oracle" / "episodes.jsonl"
    assert raw.is_file() and 'href="submissions/20261201_oracle/episodes.jsonl"' in page
    assert not (site / "mini-bandit" / "v1" / "ratings_ci.png").exists()


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


PROBE = """<!DOCTYPE html><html><body><pre id="probe">pending</pre>
<iframe id="page" src="{page}"></iframe>
<script>
document.getElementById("page").addEventListener("load", function () {{
  var doc = this.contentDocument, out = [];
  doc.querySelectorAll("#standings tr.entry").forEach(function (row) {{
    out.push("entry " + row.dataset.entry + " rank " + row.querySelector(".rank").textContent);
  }});
  doc.querySelectorAll("img.plot").forEach(function (img) {{
    out.push("plot " + img.getAttribute("src") + " " + img.naturalWidth + "x" + img.naturalHeight);
  }});
  document.getElementById("probe").textContent = out.join("\\n");
}});
</script></body></html>"""


def test_a_real_headless_browser_shows_the_entries_and_the_plots(rendered):
    browser = _chromium()
    if browser is None:
        if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") == "1":
            pytest.fail("chromium is required (apt-get install chromium)")
        pytest.skip("chromium is not installed")
    site = rendered[0].parent / "site"
    probe = site / "mini-games" / "probe.html"
    probe.write_text(PROBE.format(page="v1/index.html"))
    command = [
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--allow-file-access-from-files",
        "--virtual-time-budget=10000",
        "--dump-dom",
        probe.as_uri(),
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    found = re.search(r'<pre id="probe">(.*?)</pre>', result.stdout, re.DOTALL)
    assert found, result.stdout[-2000:] + result.stderr[-2000:]
    lines = found.group(1).splitlines()
    entries = sorted(line for line in lines if line.startswith("entry "))
    assert entries == [
        "entry 20261201_oracle rank 1",
        "entry 20261201_random rank 2",
        "entry 20261201_tit-for-tat rank 3",
    ]
    plots = [line.split() for line in lines if line.startswith("plot ")]
    assert [p[1] for p in plots] == ["ranking_ci.png", "ratings_ci.png"]
    for _, _, size in plots:
        width, height = (int(v) for v in size.split("x"))
        assert width > 300 and height > 100  # decoded by the browser, not a broken image

    index = subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--dump-dom",
            (site / "index.html").as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    assert index.count('<tr class="board"') == 2 and 'href="mini-games/v1/index.html"' in index


LAYOUT_PROBE = """<!DOCTYPE html><html><head><style>body {{ margin: 0; }}</style></head><body>
<iframe id="page" src="{page}" style="width: {width}px; height: 900px; border: 0"></iframe>
<pre id="probe">pending</pre>
<script>
document.getElementById("page").addEventListener("load", function () {{
  var doc = this.contentDocument, root = doc.documentElement;
  var out = ["page " + root.scrollWidth + " " + root.clientWidth];
  doc.querySelectorAll("table").forEach(function (table) {{
    var box = table.closest(".scroll"), frame = box || table;
    out.push(["table", table.id, Math.ceil(frame.getBoundingClientRect().right),
              box !== null, box !== null && box.scrollWidth > box.clientWidth].join(" "));
  }});
  document.getElementById("probe").textContent = out.join("\\n");
}});
</script></body></html>"""
#: A laptop window and a phone (chromium's headless window is at least 500 px wide, so the
#: page is measured in an iframe of the width).
WIDTHS = (1280, 390)


def _layout(browser: str, site, page: str, width: int) -> tuple[tuple[int, int], list[list[str]]]:
    probe = site / f"layout-{width}.html"
    probe.write_text(LAYOUT_PROBE.format(page=page, width=width))
    command = [
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--allow-file-access-from-files",
        "--window-size=1400,1000",
        "--virtual-time-budget=10000",
        "--dump-dom",
        probe.as_uri(),
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    found = re.search(r'<pre id="probe">(.*?)</pre>', result.stdout, re.DOTALL)
    assert found, result.stdout[-2000:] + result.stderr[-2000:]
    lines = [line.split() for line in found.group(1).splitlines()]
    page_line = next(line for line in lines if line[0] == "page")
    return (int(page_line[1]), int(page_line[2])), [line for line in lines if line[0] == "table"]


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize(
    "page", ["mini-games/v1/index.html", "mini-bandit/v1/index.html", "index.html"]
)
def test_no_table_is_cut_at_laptop_or_phone_width(rendered, page, width):
    browser = _chromium()
    if browser is None:
        if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") == "1":
            pytest.fail("chromium is required (apt-get install chromium)")
        pytest.skip("chromium is not installed")
    (scroll_width, view), tables = _layout(browser, rendered[0].parent / "site", page, width)
    assert view == width
    assert scroll_width <= view, f"the page is {scroll_width} px wide in a {view} px window"
    expected = {"boards"} if page == "index.html" else {"standings", "per-task", "pins"}
    assert {table[1] for table in tables} == expected
    for _, name, right, wrapped, scrolls in tables:
        assert int(right) <= view, f"{name} ends at {right} px, past the {view} px window"
        if width >= 1280:
            assert scrolls == "false", f"{name} needs scrolling at {width} px"
        else:
            assert wrapped == "true" or scrolls == "false"
