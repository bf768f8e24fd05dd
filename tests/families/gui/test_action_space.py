import numpy as np
import pytest

from envsuite.families.gui.action_space import KEY_CHOICES, action_space, from_space_action
from envsuite.families.gui.actions import ACTION_KINDS, GuiAction, GuiActionError


def test_sampled_actions_all_convert():
    space = action_space(256, 256)
    space.seed(5)
    kinds = set()
    for _ in range(300):
        sample = space.sample()
        assert space.contains(sample)
        action = from_space_action(sample)
        kinds.add(action.kind)
        if action.kind in ("click", "double_click", "drag"):
            assert 0 <= action.x < 256 and 0 <= action.y < 256
    assert kinds == set(ACTION_KINDS)


def test_fields_by_kind():
    def act(kind, **kw):
        return from_space_action({"kind": ACTION_KINDS.index(kind), **kw})

    assert act("click", point=np.array([3, 4])) == GuiAction("click", x=3, y=4)
    assert act("drag", point=[1, 2], end=[5, 6]) == GuiAction("drag", x=1, y=2, dx=5, dy=6)
    assert act("scroll", scroll=[0, -40], point=[9, 9]) == GuiAction(
        "scroll", x=9, y=9, dx=0, dy=-40
    )
    assert act("scroll", scroll=[0, 40]) == GuiAction("scroll", dx=0, dy=40)
    assert act("key", key=KEY_CHOICES.index("shift+tab")) == GuiAction("key", key="shift+tab")
    assert act("type", text="hi") == GuiAction("type", text="hi")
    assert act("done") == GuiAction("done")


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ("click", "expected a dict"),
        ({"kind": 99}, "outside"),
        ({"kind": "a"}, "integer action index"),
        ({"kind": 0}, "click needs 'point'"),
        ({"kind": 0, "point": [1, 2, 3]}, "two numbers"),
        ({"kind": 0, "point": [np.nan, 2]}, "finite"),
        ({"kind": 0, "point": "ab"}, "two numbers"),
        ({"kind": 2, "text": 5}, "must be a string"),
        ({"kind": 3, "key": 500}, "outside"),
    ],
)
def test_malformed_space_actions(action, message):
    with pytest.raises(GuiActionError, match=message):
        from_space_action(action)
