"""Images from an env, through the chat agent, to the loopback endpoint (which checks them)."""

from __future__ import annotations

import base64
import io
import json

import httpx
import numpy as np
import pytest
from PIL import Image

from envsuite.agents.chat_agent import ChatAgent
from envsuite.agents.image_parts import IMAGE_DROPPED, PNG_DATA_URL_PREFIX
from envsuite.agents.scripted_endpoint import ScriptedEndpoint
from envsuite.evaluation.protocol import adhoc_protocol
from envsuite.evaluation.run_directory import evaluate


def _agent(endpoint: ScriptedEndpoint, **options) -> ChatAgent:
    agent = ChatAgent("scripted", base_url=endpoint.base_url, backoff_s=0.001, **options)
    agent.reset(seed=1)
    return agent


def _frame(step: int, height: int = 30, width: int = 40) -> np.ndarray:
    frame = np.zeros((height, width, 3), np.uint8)
    frame[:, : step + 1] = (255, 0, 0)  # a red band that grows each step
    return frame


def test_the_endpoint_receives_each_image_as_a_valid_png_of_its_size():
    with ScriptedEndpoint() as endpoint:
        agent = _agent(endpoint)
        assert agent.act(_frame(0), {"legal_actions": ["left", "right"]}) == "left"
        (seen,) = endpoint.images[-1]
    assert (seen.width, seen.height) == (40, 30)
    assert np.array_equal(np.asarray(Image.open(io.BytesIO(seen.png))), _frame(0))
    assert agent.episode_info()["images_sent"] == 1


def test_max_image_side_reaches_the_endpoint():
    with ScriptedEndpoint() as endpoint:
        _agent(endpoint, max_image_side=20).act(_frame(0), {})
        (seen,) = endpoint.images[-1]
    assert (seen.width, seen.height) == (20, 15)


def test_only_the_latest_images_stay_in_the_history():
    with ScriptedEndpoint() as endpoint:
        agent = _agent(endpoint, max_history_images=2)
        for step in range(4):
            agent.act(_frame(step), {})
        last = endpoint.requests[-1]["messages"]
        sizes = [len(images) for images in endpoint.images]
    assert sizes == [1, 2, 2, 2]
    first_user = last[1]["content"]
    assert first_user == [{"type": "text", "text": IMAGE_DROPPED}]
    assert last[-1]["content"][0]["type"] == "image_url"
    # the agent's own memory drops old pixels too, so it does not grow without bound
    assert sum(json.dumps(m).count(PNG_DATA_URL_PREFIX) for m in agent.messages) == 2


def test_an_image_that_cannot_fit_is_announced_and_counted():
    with ScriptedEndpoint() as endpoint:
        agent = _agent(endpoint, max_image_bytes=10)
        agent.act(_frame(3), {"legal_actions": ["a"]})
        content = endpoint.requests[-1]["messages"][-1]["content"]
        assert endpoint.images[-1] == []
    assert content.startswith("[image of 40x30 pixels not sent") and content.endswith("a")
    assert agent.episode_info()["images_too_big"] == 1


def _post(endpoint: ScriptedEndpoint, content) -> httpx.Response:
    body = {"model": "m", "messages": [{"role": "user", "content": content}]}
    return httpx.post(endpoint.base_url + "/chat/completions", json=body, timeout=10)


def _image_part(data: bytes, prefix: str = PNG_DATA_URL_PREFIX) -> dict:
    return {"type": "image_url", "image_url": {"url": prefix + base64.b64encode(data).decode()}}


@pytest.mark.parametrize(
    ("part", "problem"),
    [
        (_image_part(b"GIF89a not a png"), "not a PNG"),
        ({"type": "image_url", "image_url": {"url": PNG_DATA_URL_PREFIX + "@@@"}}, "base64"),
        (_image_part(b"\x89PNG\r\n\x1a\n", prefix="data:image/jpeg;base64,"), "starting with"),
        ({"type": "audio", "data": "x"}, "unknown content part"),
        ({"type": "text", "text": 5}, "unknown content part"),
    ],
)
def test_the_endpoint_refuses_bad_image_parts(part, problem):
    with ScriptedEndpoint() as endpoint:
        answer = _post(endpoint, [{"type": "text", "text": "hi"}, part])
    assert answer.status_code == 400
    assert problem in answer.json()["error"]["message"]


def test_the_endpoint_accepts_a_good_png_part():
    buffer = io.BytesIO()
    Image.fromarray(_frame(1)).save(buffer, format="PNG")
    with ScriptedEndpoint() as endpoint:
        answer = _post(endpoint, [{"type": "text", "text": "hi"}, _image_part(buffer.getvalue())])
    assert answer.status_code == 200
    assert answer.json()["usage"]["prompt_tokens"] > 1


def test_a_run_on_an_image_env_sends_pngs_never_pixel_json(tmp_path):
    """DroneHover with kin_rgb observations: a dict of a float vector and a camera image."""
    protocol = adhoc_protocol(
        "envsuite/DroneHover-v0", {"observation_type": "kin_rgb", "image_size": [32, 24]}, 1, 1
    ).model_copy(update={"max_steps": 3})
    with ScriptedEndpoint(policy=lambda messages: "hover") as endpoint:
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
    assert all((image.width, image.height) == (32, 24) for seen in images for image in seen)
    content = requests[0]["messages"][1]["content"]
    assert [part["type"] for part in content] == ["text", "image_url"]
    assert content[0]["text"].startswith("kin: [") and content[0]["text"].endswith("rgb:")
    assert len(json.dumps(requests[0])) < 8000  # 32*24*3 pixel numbers would not fit


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("max_image_bytes", 0),
        ("max_image_side", "big"),
        ("max_history_images", -1),
        ("max_history_images", True),
    ],
)
def test_image_options_out_of_range_are_refused(option, value):
    with pytest.raises(ValueError, match=option):
        ChatAgent("m", **{option: value})
