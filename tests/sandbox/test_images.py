"""Image tags follow their inputs; builds are cached by tag."""

from __future__ import annotations

import io
import re

from envsuite.sandbox.base_image import base_tag, content_hash, image_exists, rootfs_tag
from envsuite.sandbox.environment import SoftwareEnvironment
from envsuite.sandbox.images import (
    BuildProgress,
    build_task_image,
    python_path_value,
    task_image_tag,
)


def test_tags_are_content_hashes_of_the_inputs(tmp_path):
    wheel = tmp_path / "w-1.0-py3-none-any.whl"
    wheel.write_bytes(b"one")
    flat = SoftwareEnvironment("lib", (".",))
    src = SoftwareEnvironment("lib", ("src",))
    assert task_image_tag(flat, "sha256:base", []) == task_image_tag(flat, "sha256:base", [])
    assert task_image_tag(flat, "sha256:base", []) != task_image_tag(src, "sha256:base", [])
    assert task_image_tag(flat, "sha256:base", []) != task_image_tag(flat, "sha256:other", [])
    with_wheel = task_image_tag(flat, "sha256:base", [wheel])
    wheel.write_bytes(b"two")
    assert task_image_tag(flat, "sha256:base", [wheel]) != with_wheel
    assert base_tag("a") != base_tag("b") and rootfs_tag("bookworm") != rootfs_tag("trixie")
    assert content_hash("ab", "c") != content_hash("a", "bc")
    assert python_path_value(src) == "/repo/src" and python_path_value(flat) == "/repo"


def test_a_built_image_is_reused(task_images):
    from envsuite.families.swe.dataset import load_library

    environment = load_library("inflection").environment
    tag = build_task_image(environment, log=lambda _: None)
    assert tag == task_images["inflection"] and image_exists(tag)
    assert build_task_image(environment, log=lambda _: None) == tag


def test_build_progress_lines_carry_the_elapsed_time_after_one_how_to_line(monkeypatch):
    monkeypatch.setattr(BuildProgress, "announced", False)
    stream = io.StringIO()
    progress = BuildProgress(stream)
    progress("base: building envsuite-swe/base:x")
    progress("envsuite-swe/base:x: Step 2/5 : RUN sh /opt/envsuite/prepare.sh")
    BuildProgress(stream)("task image: building envsuite-swe/task-lib:y")
    lines = stream.getvalue().splitlines()
    assert len(lines) == 4 and "`envsuite sandbox build`" in lines[0]
    assert re.fullmatch(
        r"envsuite swe \[ +\d+\.\d s\] base: building envsuite-swe/base:x", lines[1]
    )
    assert lines[2].endswith("Step 2/5 : RUN sh /opt/envsuite/prepare.sh")


def test_an_env_that_builds_its_image_shows_progress_on_stderr(monkeypatch, capsys):
    from envsuite.sandbox import images
    from envsuite.sandbox import provider as sandbox_provider

    def fake_build(environment, log):
        log("task image: building envsuite-swe/task-progress:1")
        return "envsuite-swe/task-progress:1"

    monkeypatch.setattr(images, "build_task_image", fake_build)
    environment = SoftwareEnvironment("progress-check", (".",))
    assert sandbox_provider.task_image(environment) == "envsuite-swe/task-progress:1"
    assert "] task image: building envsuite-swe/task-progress:1" in capsys.readouterr().err


def test_docker_build_steps_are_logged(monkeypatch, tmp_path):
    from envsuite.sandbox import base_image

    lines = [
        {"stream": "Step 1/2 : FROM base\n"},
        {"stream": " ---> abc\n"},
        {"stream": "Step 2/2 : RUN true\n"},
    ]

    class Api:
        def build(self, **kwargs):
            return iter(lines)

    class Client:
        api = Api()

    monkeypatch.setattr(base_image, "docker_client", lambda: Client())
    monkeypatch.setattr(base_image, "image_exists", lambda tag: True)
    logged: list[str] = []
    base_image.build_image(tmp_path, "img:1", {}, network=False, log=logged.append)
    assert logged == ["img:1: Step 1/2 : FROM base", "img:1: Step 2/2 : RUN true"]
