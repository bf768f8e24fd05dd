"""The GUI env's loop, observation modes, actions, penalties and backends, on a test task."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from envsuite.families.gui import backend as backend_module
from envsuite.families.gui.actions import ACTION_KINDS
from envsuite.families.gui.backend import Performed, SimulatorBackend
from envsuite.families.gui.discrete_actions import VERBS, from_discrete, to_discrete
from envsuite.families.gui.gui_env import GuiEnv
from envsuite.families.gui.gui_oracle import gui_oracle
from envsuite.families.gui.observation_modes import (
    CUT_MARK,
    MAX_TEXT_CHARS,
    fitted,
    parse_observation_mode,
)
from tests.families.gui.env_test_tasks import HOME_COLOURS, MORE_COLOURS, PickColour

MODES = (
    "dict",
    "screenshot",
    "a11y",
    "a11y_json",
    "instruction",
    "text",
    "vector",
    "a11y+screenshot",
)


def make(**kwargs) -> GuiEnv:
    return GuiEnv(task=PickColour, **kwargs)


def seed_with_target(colours: tuple[str, ...]) -> int:
    env = make()
    for seed in range(50):
        env.reset(seed=seed)
        if env.task.target in colours:
            return seed
    raise AssertionError("no seed draws such a target")


def play_oracle(env: GuiEnv, seed: int) -> tuple[int, dict, float]:
    oracle = gui_oracle(env)
    observation, info = env.reset(seed=seed)
    steps, total = 0, 0.0
    while True:
        observation, reward, terminated, truncated, info = env.step(oracle.act(observation, info))
        steps, total = steps + 1, total + reward
        if terminated or truncated:
            return steps, info, total


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("action_mode", ["text", "dict", "discrete"])
def test_every_mode_passes_gymnasium_check_env(mode, action_mode):
    with pytest.warns(UserWarning):  # check_env's advice (no spec, Box action ranges)
        check_env(make(observation_mode=mode, action_mode=action_mode))


@pytest.mark.parametrize("mode", MODES)
def test_observations_are_in_the_space_and_hold_the_parts_asked_for(mode):
    env = make(observation_mode=mode)
    observation, info = env.reset(seed=3)
    assert env.observation_space.contains(observation)
    parts = parse_observation_mode(mode).parts
    if isinstance(observation, dict):
        assert list(observation) == list(parts)
    if "screenshot" in parts:
        image = observation["screenshot"] if isinstance(observation, dict) else observation
        assert image.shape == (256, 256, 3) and image.dtype == np.uint8
    if mode == "text":
        assert observation.startswith(f"Instruction: {info['instruction']}\n\nAct with")
        assert '[more] link "More"' in observation
    if mode == "a11y_json":
        tree = json.loads(observation)
        assert tree["role"] == "window" and tree["name"] == "Home"


def test_the_default_observation_is_instruction_screenshot_and_a11y():
    env = make()
    observation, info = env.reset(seed=0)
    assert list(observation) == ["instruction", "screenshot", "a11y"]
    assert info["instruction"] == f"Click the {env.task.target} button."
    # the first instruction adds how to act; later ones are the goal alone
    first = observation["instruction"]
    assert first.startswith(info["instruction"] + "\n\n") and 'click("element_id")' in first
    assert "the screen is 256 x 256" in first
    assert env.step("key(tab)")[0]["instruction"] == info["instruction"]


def test_the_action_help_names_element_ids_only_when_the_tree_is_shown():
    first, _ = make(observation_mode="screenshot+instruction").reset(seed=0)
    assert "click(x, y)" in first["instruction"] and "element_id" not in first["instruction"]


def test_same_seed_and_actions_give_identical_pixels_and_text():
    actions = ['type("Ada")', "click(more)", "back()", "click(8, 84)"]
    runs = []
    for _ in range(2):
        env = make()
        observation, _ = env.reset(seed=5)
        frames = [observation]
        for action in actions:
            frames.append(env.step(action)[0])
        runs.append(frames)
    for first, second in zip(*runs, strict=True):
        assert first["a11y"] == second["a11y"]
        assert first["screenshot"].tobytes() == second["screenshot"].tobytes()


def test_different_seeds_draw_different_instances():
    env = make()
    drawn = set()
    for seed in range(20):
        env.reset(seed=seed)
        drawn.add((env.task.target, tuple(env.task.app.order)))
    assert len(drawn) > 5


def test_the_oracle_solves_every_seed_in_optimal_steps():
    env = make()
    for seed in range(12):
        steps, last, total = play_oracle(env, seed)
        assert last["success"] is True and total == 1.0 and last["score"] == 1.0
        assert steps == last["optimal_steps"]


def test_the_score_is_the_efficiency_of_a_success():
    env = make()
    seed = seed_with_target(HOME_COLOURS)
    env.reset(seed=seed)
    env.step("nonsense")
    env.step("key(tab)")
    info = env.step(f"click({env.task.target})")[4]
    assert info["success"] and info["score"] == pytest.approx(1 / 3)


def test_the_oracle_answers_in_dict_mode_with_space_elements():
    env = make(action_mode="dict")
    seed = seed_with_target(MORE_COLOURS)
    env.reset(seed=seed)
    action = gui_oracle(env).act(None, {})
    assert env.action_space.contains(action)
    assert ACTION_KINDS[action["kind"]] == "click"
    steps, info, _ = play_oracle(env, seed)
    assert info["success"] and steps == 2


def test_a_wrong_click_ends_the_episode_as_a_failure():
    env = make()
    seed = seed_with_target(HOME_COLOURS)
    env.reset(seed=seed)
    wrong = next(c for c in HOME_COLOURS if c != env.task.target)
    _, reward, terminated, truncated, info = env.step(f"click({wrong})")
    assert (reward, terminated, truncated, info["success"]) == (0.0, True, False, False)
    assert info["score"] == 0.0


def test_navigation_follows_links_and_back():
    env = make(observation_mode="a11y")
    env.reset(seed=0)
    observation = env.step("click(more)")[0]
    assert '"More"' in observation.splitlines()[0] and "[cyan]" in observation
    observation = env.step("back()")[0]
    assert '"Home"' in observation.splitlines()[0]
    env.step("click(more)")
    observation = env.step("click(back_button)")[0]
    assert '"Home"' in observation.splitlines()[0]


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        ("click(1000, 3)", "outside the 256x256 screen"),
        ("click(cyan)", "no element 'cyan' is shown"),
        ("wave()", "wave"),
        ("", "empty action"),
        ({"action": "fly"}, "fly"),
        (42, "expected an action"),
    ],
)
def test_malformed_or_inapplicable_actions_cost_the_penalty_and_change_nothing(action, reason):
    env = make(invalid_penalty=0.25)
    env.reset(seed=1)
    before = env.state_digest()
    _, reward, terminated, truncated, info = env.step(action)
    assert reason in info["parse_error"]
    assert (reward, terminated, truncated) == (-0.25, False, False)
    assert env.state_digest() == before and env.steps == 1
    assert "success" not in info


def test_a_repeated_malformed_observation_is_a_fresh_array():
    env = make(observation_mode="screenshot")
    first, _ = env.reset(seed=1)
    second = env.step("nonsense")[0]
    assert np.array_equal(first, second) and first is not second


def test_the_step_limit_truncates_and_reports_failure():
    env = make(max_steps=3)
    env.reset(seed=0)
    results = [env.step('type("x")') for _ in range(3)]
    assert [r[3] for r in results] == [False, False, True]
    assert results[-1][4]["success"] is False and "success" not in results[0][4]


def test_the_default_step_limit_scales_with_the_optimal_steps():
    env = make()
    env.reset(seed=0)
    assert env.step_limit_now == 20


def test_info_gives_nothing_away():
    env = make()
    _, info = env.reset(seed=2)
    assert set(info) == {"instruction", "optimal_steps"}
    info = env.step("click(more)")[4]
    assert set(info) == {"instruction", "optimal_steps", "parse_error"}


@pytest.mark.parametrize(
    "action",
    [
        "click(more)",
        "Thought: the link.\nAction: click(start_box='(38,129)')",
        '{"action": "left_click", "coordinate": [38, 129]}',
        {"action": "left_click", "coordinate": [38, 129]},
        {"kind": 0, "point": np.array([38, 129])},
    ],
)
def test_every_action_form_reaches_the_app(action):
    env = make(observation_mode="a11y")
    env.reset(seed=0)
    observation, _, _, _, info = env.step(action)
    assert info["parse_error"] is None and "[cyan]" in observation


def test_typing_into_a_field_shows_in_the_accessibility_tree():
    env = make(observation_mode="a11y")
    env.reset(seed=0)
    env.step("click(name)")
    observation = env.step('type("Ada")')[0]
    assert '[name] textbox "Name"' in observation and 'value="Ada"' in observation


def test_screenshot_size_scales_the_picture_not_the_coordinates():
    small, _ = make(observation_mode="screenshot").reset(seed=4)
    big_env = make(observation_mode="screenshot", screenshot_size=[512, 512])
    big, _ = big_env.reset(seed=4)
    assert big.shape == (512, 512, 3)
    assert np.array_equal(big[::2, ::2], small)  # whole-number enlargement repeats pixels
    assert "outside the 256x256 screen" in big_env.step("click(300, 3)")[4]["parse_error"]
    assert big_env.step("click(38, 129)")[4]["parse_error"] is None  # logical pixels
    assert big_env.task.app.screen_id == "more"


def test_render_modes_give_the_screenshot_and_the_text_view():
    env = make(render_mode="rgb_array", observation_mode="screenshot")
    observation, _ = env.reset(seed=6)
    assert np.array_equal(env.render(), observation)
    env = make(render_mode="ansi")
    observation, _ = env.reset(seed=6)
    frame = env.render()
    assert frame.startswith("Instruction: ") and frame.endswith(observation["a11y"])


def test_a_pickled_env_continues_identically():
    env = make()
    env.reset(seed=8)
    env.step("click(more)")
    twin = pickle.loads(pickle.dumps(env))
    for action in ["back()", 'type("zz")', "click(8, 84)"]:
        first, second = env.step(action), twin.step(action)
        assert first[0]["a11y"] == second[0]["a11y"] and first[1:4] == second[1:4]
        assert first[0]["screenshot"].tobytes() == second[0]["screenshot"].tobytes()


class CountingBackend(SimulatorBackend):
    """A backend wrapping the simulator, to show where another backend plugs in."""

    def __init__(self) -> None:
        self.performed: list[str] = []
        self.started = 0

    def start(self, app) -> None:
        self.started += 1

    def perform(self, app, action) -> Performed:
        self.performed.append(action.describe())
        return super().perform(app, action)


def test_a_backend_plugs_in_by_name(monkeypatch):
    monkeypatch.setitem(backend_module.BACKENDS, "counting", f"{__name__}:CountingBackend")
    env = make(backend="counting")
    env.reset(seed=0)
    env.step("click(more)")
    env.step("nonsense")
    assert isinstance(env.backend, CountingBackend)
    assert env.backend.started == 1 and env.backend.performed == ["click('more')"]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"task": "no-such-task"}, "unknown GUI task"),
        ({"observation_mode": "pixels"}, "unknown observation_mode"),
        ({"observation_mode": "a11y+a11y"}, "each part once"),
        ({"action_mode": "vector"}, "action_mode"),
        ({"width": 10}, "width"),
        ({"screenshot_size": [1, 2, 3]}, "screenshot_size"),
        ({"max_steps": 0}, "max_steps"),
        ({"invalid_penalty": -1}, "invalid_penalty"),
        ({"split": "val"}, "split"),
        ({"backend": "netscape"}, "unknown backend"),
        ({"render_mode": "human"}, "render_mode"),
    ],
)
def test_bad_arguments_are_refused_by_name(kwargs, message):
    with pytest.raises(ValueError, match=message):
        GuiEnv(**{"task": PickColour, **kwargs})


def test_long_text_parts_are_cut_to_the_space():
    text = fitted("w" * (MAX_TEXT_CHARS + 10))
    assert len(text) == MAX_TEXT_CHARS and text.endswith(CUT_MARK)
    assert fitted("short") == "short"


@pytest.mark.parametrize("written", ["click(button-0)", "click('button-0')", 'click("button-0")'])
def test_ids_with_hyphens_may_be_written_bare(written):
    env = GuiEnv(task="click-button", observation_mode="a11y")
    env.reset(seed=0)
    info = env.step(written)[4]
    assert info["parse_error"] is None
    assert env.task.app.screen.find("button-0").activations == 1


@pytest.mark.parametrize("vectorization_mode", ["sync", "async"])
def test_vector_envs_carry_screenshots_and_text(vectorization_mode):
    import envsuite

    envs = envsuite.make_vec(
        "envsuite/GuiForm-v0", 2, vectorization_mode=vectorization_mode, task="click-button"
    )
    try:
        observations, _ = envs.reset(seed=3)
        assert observations["screenshot"].shape == (2, 256, 256, 3)
        assert len(observations["a11y"]) == 2 and "[button-0]" in observations["a11y"][0]
        observations, rewards, *_ = envs.step(["key(tab)", "nonsense"])
        assert list(rewards) == [0.0, -0.1] and "focused" in observations["a11y"][0]
    finally:
        envs.close()


@pytest.mark.parametrize(
    ("env_id", "kwargs", "message"),
    [
        ("envsuite/GuiForm-v0", {"task": "app-navigation"}, "unknown form task"),
        ("envsuite/GuiForm-v0", {"popup_rate": 1.5}, "popup_rate"),
        ("envsuite/GuiForm-v0", {"popup_rate": True}, "popup_rate"),
        ("envsuite/GuiApp-v0", {"task": "click-button"}, "unknown app task"),
        ("envsuite/GuiApp-v0", {"min_screens": 5}, "min_screens"),
        ("envsuite/GuiApp-v0", {"max_screens": 501}, "max_screens"),
        ("envsuite/GuiApp-v0", {"min_screens": 60, "max_screens": 50}, "exceeds"),
        ("envsuite/GuiApp-v0", {"distractors": "yes"}, "distractors"),
        ("envsuite/GuiApp-v0", {"depth": 12}, "depth"),
        ("envsuite/GuiForm-v0", {"shift_rate": -0.1}, "shift_rate"),
    ],
)
def test_the_registered_envs_refuse_bad_arguments_by_name(env_id, kwargs, message):
    import envsuite

    with pytest.raises(ValueError, match=message):
        envsuite.make(env_id, **kwargs)


def test_app_sizes_reach_the_generated_app():
    import envsuite

    env = envsuite.make("envsuite/GuiApp-v0", min_screens=300, max_screens=320)
    env.reset(seed=0)
    assert 300 <= len(env.unwrapped.task.graph.level) <= 320
    deep = envsuite.make("envsuite/GuiApp-v0", depth=7)
    deep.reset(seed=0)
    assert deep.unwrapped.task.graph.depth == 7


def test_vector_mode_gives_the_screenshot_and_verb_point_actions():
    env = make(observation_mode="vector")
    observation, _ = env.reset(seed=0)
    assert observation.shape == (256, 256, 3) and observation.dtype == np.uint8
    assert env.action_space.nvec.tolist() == [len(VERBS), 256, 256]
    more = [VERBS.index("click"), 38, 129]  # the "More" link's centre
    assert env.step(np.array(more))[4]["parse_error"] is None
    assert env.task.app.screen_id == "more"
    env.step([VERBS.index("back"), 0, 0])
    assert env.task.app.screen_id == "home"
    env.step([VERBS.index("tab"), 0, 0])
    assert env.task.app.screen.focus_id == "name"


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ([99, 0, 0], "verb 99"),
        ([0, 300, 0], "outside the 256x256 screen"),
        ([0, 1], "three integers"),
        (np.array([0.5, 1.0, 2.0]), "three integers"),
    ],
)
def test_bad_verb_point_actions_are_parse_errors(action, message):
    env = make(observation_mode="vector")
    env.reset(seed=0)
    assert message in env.step(action)[4]["parse_error"]


def test_verb_point_actions_round_trip_through_the_oracle_form():
    for verb in VERBS:
        action = from_discrete([VERBS.index(verb), 10, 20], 256, 256)
        point = (10, 20) if action.kind in ("click", "double_click") else None
        again = to_discrete(action, point)
        assert again is not None and from_discrete(again, 256, 256) == action


def test_the_oracle_plays_verb_point_actions_in_vector_mode():
    env = make(observation_mode="vector")
    oracle = gui_oracle(env)
    for seed in range(6):
        observation, info = env.reset(seed=seed)
        done = False
        while not done:
            action = oracle.act(observation, info)
            assert env.action_space.contains(action)
            observation, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        assert info["success"]
