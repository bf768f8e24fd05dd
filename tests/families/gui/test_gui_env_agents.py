"""GUI envs with the built-in agents: a chat agent gets screenshots as image parts; the
oracle and random agents run through the evaluation runner."""

from __future__ import annotations

import base64
import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import envsuite
from envsuite.agents.scripted_endpoint import ScriptedEndpoint, message_text
from envsuite.evaluation.protocol import TaskProtocol, adhoc_protocol
from envsuite.evaluation.run_directory import evaluate
from envsuite.families.gui.tasks_index import app_tasks, form_tasks


def test_a_chat_agent_sends_each_screenshot_as_an_image_part(tmp_path):
    protocol = adhoc_protocol("envsuite/GuiForm-v0", {}, 1, 1).model_copy(update={"max_steps": 3})
    with ScriptedEndpoint(policy=lambda messages: "key(tab)") as endpoint:
        result = evaluate(
            protocol,
            "openai:scripted",
            tmp_path,
            agent_options={"base_url": endpoint.base_url},
            progress=False,
        )
        requests, images = endpoint.requests, endpoint.images
    record = result.records[0]
    assert record.infra_error is None and record.length == 3
    assert record.agent_info["images_sent"] == 3
    assert [len(seen) for seen in images] == [1, 2, 3]
    assert all((image.width, image.height) == (256, 256) for seen in images for image in seen)
    # the image the model saw is the env's screenshot, pixel for pixel
    env = envsuite.make("envsuite/GuiForm-v0", observation_mode="screenshot")
    first, info = env.reset(seed=0)
    assert np.array_equal(np.asarray(Image.open(io.BytesIO(images[0][0].png))), first)
    # the first user message: the instruction with how to act, the image, the tree as text
    content = requests[0]["messages"][-1]["content"]
    assert [part["type"] for part in content] == ["text", "image_url", "text"]
    assert content[1]["image_url"]["url"].startswith("data:image/png;base64,")
    base64.b64decode(content[1]["image_url"]["url"].split(",", 1)[1], validate=True)
    text = message_text(requests[0]["messages"][-1])
    assert info["instruction"] in text and "Act with one action per reply" in text
    assert "[button-0] button" in text
    assert [step.action for step in record.trace] == ["key(tab)"] * 3


def test_the_oracle_and_random_agents_run_through_the_runner(tmp_path):
    protocol = adhoc_protocol("envsuite/GuiForm-v0", {"action_mode": "dict"}, 4, 1)
    oracle = evaluate(protocol, "oracle", tmp_path / "oracle", progress=False)
    assert [r.success for r in oracle.records] == [True] * 4
    assert all(r.infra_error is None for r in oracle.records)
    randomly = evaluate(protocol, "random", tmp_path / "random", progress=False)
    assert len(randomly.records) == 4 and all(r.infra_error is None for r in randomly.records)


@pytest.mark.parametrize(
    ("name", "env_id", "tasks"),
    [
        ("gui-forms", "envsuite/GuiForm-v0", form_tasks),
        ("gui-apps", "envsuite/GuiApp-v0", app_tasks),
    ],
)
def test_the_gui_protocols_run_every_task_type_on_the_test_split(name, env_id, tasks):
    path = Path(__file__).resolve().parents[3] / "tasks" / f"{name}.yaml"
    protocol = TaskProtocol.load(path)
    assert {entry.id for entry in protocol.envs} == {env_id}
    assert {entry.kwargs["task"] for entry in protocol.envs} == set(tasks())
    assert {entry.kwargs["split"] for entry in protocol.envs} == {"test"}


def test_envsuite_play_shows_the_screen_as_text_and_summarises_the_picture():
    from typer.testing import CliRunner

    from envsuite.cli import app

    env = envsuite.make("envsuite/GuiForm-v0")
    _, info = env.reset(seed=0)
    result = CliRunner().invoke(
        app, ["play", "envsuite/GuiForm-v0", "--seed", "0"], input="nonsense\nkey(tab)\n"
    )
    assert result.exit_code == 0, result.output
    assert "instruction:" in result.output and info["instruction"] in result.output
    assert "[image of 256x256 pixels]" in result.output
    assert "[button-0] button" in result.output and "focused" in result.output
    assert "parse_error:" in result.output and "stdin closed" in result.output
