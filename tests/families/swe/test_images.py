"""Image tags follow their inputs; builds are cached by tag."""

from __future__ import annotations

from envsuite.families.swe.base_image import base_tag, content_hash, image_exists, rootfs_tag
from envsuite.families.swe.images import build_task_image, python_path_value, task_image_tag
from envsuite.families.swe.task import TaskEnvironment


def test_tags_are_content_hashes_of_the_inputs(tmp_path):
    wheel = tmp_path / "w-1.0-py3-none-any.whl"
    wheel.write_bytes(b"one")
    flat = TaskEnvironment("lib", (".",))
    src = TaskEnvironment("lib", ("src",))
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
