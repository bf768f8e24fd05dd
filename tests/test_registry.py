from __future__ import annotations

import dataclasses
import hashlib
import sys
from pathlib import Path
from typing import Any, ClassVar

import gymnasium
import pytest

import envsuite
from envsuite import errors
from envsuite.families.decision.nim import NimEnv
from envsuite.registry import EnvSpec, parse_env_id


@pytest.fixture
def temporary_spec():
    """Register specs for one test and remove them afterwards."""
    added: list[str] = []

    def add(spec: EnvSpec) -> EnvSpec:
        envsuite.register(spec)
        added.append(spec.id)
        return spec

    yield add
    for env_id in added:
        envsuite.registry.unregister(env_id)


def test_parse_env_id_accepts_the_gymnasium_form():
    assert parse_env_id("envsuite/Bandit-v0") == ("Bandit", 0)
    assert parse_env_id("envsuite/DroneSwarm-v12") == ("DroneSwarm", 12)


@pytest.mark.parametrize(
    "bad", ["Bandit-v0", "envsuite/Bandit", "envsuite/Bandit-v01", "envsuite/bandit-v0", "", 7]
)
def test_parse_env_id_rejects_other_forms(bad):
    with pytest.raises(envsuite.UnknownEnvError, match="not an envsuite id"):
        parse_env_id(bad)


def test_unknown_id_suggests_the_closest_ids():
    with pytest.raises(envsuite.UnknownEnvError) as caught:
        envsuite.make("envsuite/Bandt-v0")
    assert "Did you mean 'envsuite/Bandit-v0'" in str(caught.value)


def test_wrong_version_suggests_the_registered_one():
    with pytest.raises(envsuite.UnknownEnvError) as caught:
        envsuite.spec("envsuite/Bandit-v3")
    assert "'envsuite/Bandit-v0'" in str(caught.value)


def test_missing_namespace_is_an_error_with_a_suggestion():
    with pytest.raises(envsuite.UnknownEnvError) as caught:
        envsuite.make("Bandit-v0")
    assert "Did you mean 'envsuite/Bandit-v0'" in str(caught.value)


def test_unknown_kwarg_names_it_and_lists_the_accepted_ones():
    with pytest.raises(envsuite.InvalidKwargsError) as caught:
        envsuite.make("envsuite/Bandit-v0", arms=3)
    message = str(caught.value)
    assert "arms" in message and "num_arms" in message and "horizon" in message


def test_a_misspelt_kwarg_is_refused_with_the_close_accepted_name():
    with pytest.raises(envsuite.InvalidKwargsError) as caught:
        envsuite.make("envsuite/Bandit-v0", nmu_arms=3, horizn=5)
    assert "horizn, nmu_arms. Did you mean horizon, num_arms? Accepted:" in str(caught.value)
    with pytest.raises(envsuite.InvalidKwargsError) as caught:
        envsuite.make("envsuite/Bandit-v0", zzz=3)
    assert "Did you mean" not in str(caught.value)


def test_make_returns_a_gymnasium_env_with_spec_and_hash():
    env = envsuite.make("envsuite/Bandit-v0", num_arms=7)
    assert isinstance(env, gymnasium.Env)
    assert env.spec.id == "envsuite/Bandit-v0"
    assert env.unwrapped.num_arms == 7
    assert len(env.unwrapped.spec_hash) == 64


def test_gymnasium_make_works_after_import_and_gives_the_same_hash():
    via_gym = gymnasium.make("envsuite/Bandit-v0", num_arms=7)
    via_envsuite = envsuite.make("envsuite/Bandit-v0", num_arms=7)
    assert via_gym.unwrapped.spec_hash == via_envsuite.unwrapped.spec_hash


def test_spec_hash_depends_on_effective_kwargs_only():
    base = envsuite.make("envsuite/Bandit-v0").unwrapped.spec_hash
    spelled_out = envsuite.make("envsuite/Bandit-v0", num_arms=5, horizon=300).unwrapped.spec_hash
    rendered = envsuite.make("envsuite/Bandit-v0", render_mode="ansi").unwrapped.spec_hash
    other = envsuite.make("envsuite/Bandit-v0", num_arms=6).unwrapped.spec_hash
    assert base == spelled_out == rendered
    assert other != base


def test_spec_hash_includes_dataset_checksums(tmp_path, temporary_spec, monkeypatch):
    data = tmp_path / "data.txt"
    data.write_text("one")
    module = tmp_path / "envsuite_test_dataset_env.py"
    module.write_text(
        "from envsuite.families.decision.bandit import BanditEnv\n"
        "class DataEnv(BanditEnv):\n"
        f"    path = {str(data)!r}\n"
        "    @classmethod\n"
        "    def dataset_files(cls, **config):\n"
        "        from pathlib import Path\n"
        "        return [Path(cls.path)]\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    spec = temporary_spec(
        EnvSpec(
            id="envsuite/TestDataset-v0",
            entry_point="envsuite_test_dataset_env:DataEnv",
            family="decision",
            api="gymnasium",
            description="test",
        )
    )
    before = spec.hash_for({})
    data.write_text("two")
    assert spec.hash_for({}) != before


def test_missing_dependency_names_the_extra(tmp_path, temporary_spec, monkeypatch):
    (tmp_path / "envsuite_test_needs_dep.py").write_text("import not_a_real_module_xyz\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    temporary_spec(
        EnvSpec(
            id="envsuite/TestNeedsDep-v0",
            entry_point="envsuite_test_needs_dep:Env",
            family="physics",
            api="gymnasium",
            description="test",
            extra="physics",
        )
    )
    with pytest.raises(envsuite.MissingExtraError) as caught:
        envsuite.make("envsuite/TestNeedsDep-v0")
    assert "pip install 'envsuite[physics]'" in str(caught.value)
    assert "not_a_real_module_xyz" in str(caught.value)
    sys.modules.pop("envsuite_test_needs_dep", None)


def test_import_optional_names_the_extra():
    from envsuite.registry import import_optional

    with pytest.raises(envsuite.MissingExtraError, match=r"envsuite\[sat\]"):
        import_optional("not_a_real_module_xyz", extra="sat")


def test_duplicate_registration_is_refused():
    with pytest.raises(envsuite.EnvsuiteError, match="already registered"):
        envsuite.register(envsuite.spec("envsuite/Bandit-v0"))


def test_spec_is_frozen_and_round_trips_through_json():
    spec = envsuite.spec("envsuite/Bandit-v0")
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.id = "envsuite/Other-v0"  # type: ignore[misc]
    assert EnvSpec.from_json(spec.to_json()) == spec


def test_from_json_rejects_unknown_fields():
    with pytest.raises(ValueError, match="unknown EnvSpec fields"):
        EnvSpec.from_json('{"id": "envsuite/X-v0", "surprise": 1}')


def test_spec_validation_errors_are_clear():
    with pytest.raises(ValueError, match="api must be one of"):
        EnvSpec(id="envsuite/X-v0", entry_point="a:B", family="f", api="gym", description="")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="module:Attribute"):
        EnvSpec(id="envsuite/X-v0", entry_point="a.B", family="f", api="gymnasium", description="")


def test_parallel_flag_on_a_single_agent_env_is_refused():
    with pytest.raises(envsuite.WrongApiError, match="multi-agent"):
        envsuite.make("envsuite/Bandit-v0", parallel=True)


def test_registry_lists_every_spec_in_order_and_by_family():
    ids = list(envsuite.registry)
    assert ids[0] == "envsuite/Bandit-v0"
    assert all(isinstance(envsuite.registry[i], EnvSpec) for i in ids)
    assert envsuite.spec("envsuite/Bandit-v0") in envsuite.registry.by_family("decision")


def test_every_registered_spec_is_well_formed():
    for spec in envsuite.registry.values():
        assert spec.description and len(spec.description) <= 100, spec.id
        assert spec.oracle is not None, f"{spec.id} has no oracle"
        assert spec.family in {"decision", "sat", "physics", "swe", "text", "social", "gui"}
        if not spec.multi_agent:
            assert spec.id in gymnasium.registry


def test_error_messages_are_the_named_templates():
    assert "{extra}" in errors.MISSING_EXTRA
    assert "Did you mean" in envsuite.registry.suggestion_hint("envsuite/bandit-v0")


def test_make_vec_builds_a_vector_env():
    envs = envsuite.make_vec("envsuite/Bandit-v0", 3, observation_mode="vector")
    observations, _ = envs.reset(seed=0)
    assert observations.shape == (3, 7)
    envs.close()


@pytest.mark.parametrize("num_envs", [0, -1, True, 2.0, "2"])
def test_make_vec_rejects_a_bad_number_of_envs(num_envs):
    with pytest.raises(ValueError, match="num_envs"):
        envsuite.make_vec("envsuite/Bandit-v0", num_envs, observation_mode="vector")


def test_make_vec_takes_numpy_integers_for_the_count_and_the_seed():
    import numpy as np

    envs = envsuite.make_vec("envsuite/Bandit-v0", np.int64(3), observation_mode="vector")
    assert envs.num_envs == 3
    first, _ = envs.reset(seed=np.int64(5))
    again, _ = envs.reset(seed=5)
    assert np.array_equal(first, again)
    envs.close()


def test_make_vec_rejects_unknown_mode():
    with pytest.raises(ValueError, match="vectorization_mode"):
        envsuite.make_vec("envsuite/Bandit-v0", 2, vectorization_mode="threads")  # type: ignore[arg-type]


def test_entry_point_module_path_exists():
    for spec in envsuite.registry.values():
        module = spec.entry_point.split(":")[0]
        path = Path(envsuite.__file__).parent.parent / (module.replace(".", "/") + ".py")
        assert path.exists(), spec.entry_point


def test_suggestions_compare_names_not_the_shared_prefix():
    hint = envsuite.registry.suggestion_hint("envsuite/Bandt-v0")
    assert hint == " Did you mean 'envsuite/Bandit-v0'?"
    assert envsuite.registry.suggestion_hint("envsuite/Zzzzzz-v0") == ""


def test_spec_hash_does_not_depend_on_where_the_datasets_live(
    tmp_path, temporary_spec, monkeypatch
):
    module = tmp_path / "envsuite_test_relative_dataset_env.py"
    module.write_text(
        "from envsuite.families.decision.bandit import BanditEnv\n"
        "from envsuite.data_paths import datasets_root\n"
        "class DataEnv(BanditEnv):\n"
        "    @classmethod\n"
        "    def dataset_files(cls, **config):\n"
        "        return [datasets_root() / 'demo' / 'v1' / 'data.txt']\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    spec = temporary_spec(
        EnvSpec(
            id="envsuite/TestRelativeDataset-v0",
            entry_point="envsuite_test_relative_dataset_env:DataEnv",
            family="decision",
            api="gymnasium",
            description="test",
        )
    )
    hashes = []
    for checkout in ("one", "two"):
        root = tmp_path / checkout / "datasets"
        (root / "demo" / "v1").mkdir(parents=True)
        (root / "demo" / "v1" / "data.txt").write_text("same content")
        monkeypatch.setenv("ENVSUITE_DATASETS", str(root))
        expected = hashlib.sha256(b"same content").hexdigest()
        assert spec.dataset_checksums() == {"demo/v1/data.txt": expected}
        hashes.append(spec.hash_for({}))
    assert hashes[0] == hashes[1]


def test_a_step_limit_other_than_the_registered_one_changes_the_spec_hash():
    spec = envsuite.spec("envsuite/Bandit-v0")
    default = envsuite.make(spec.id).unwrapped.spec_hash
    assert default == spec.hash_for()
    registered = spec.max_episode_steps
    assert envsuite.make(spec.id, max_episode_steps=registered).unwrapped.spec_hash == default
    shorter = envsuite.make(spec.id, max_episode_steps=3).unwrapped.spec_hash
    assert shorter != default and shorter == spec.hash_for(max_episode_steps=3)


def test_make_returns_the_aec_form_of_a_turn_based_spec_and_refuses_parallel():
    from pettingzoo import AECEnv

    env = envsuite.make("envsuite/Nim-v0")
    assert isinstance(env, AECEnv) and env.spec.id == "envsuite/Nim-v0"
    with pytest.raises(envsuite.WrongApiError) as caught:
        envsuite.make("envsuite/Nim-v0", parallel=True)
    assert str(caught.value) == errors.NOT_PARALLELIZABLE.format(id="envsuite/Nim-v0")
    assert "turn-based" in str(caught.value)


class ParallelizableNim(NimEnv):
    """Nim claiming a Parallel form, to show the refusal reads the env's own flag."""

    metadata: ClassVar[dict[str, Any]] = {**NimEnv.metadata, "is_parallelizable": True}


def test_a_parallelizable_aec_spec_still_gets_its_parallel_form(temporary_spec):
    from pettingzoo.utils.conversions import aec_to_parallel_wrapper

    spec = temporary_spec(
        EnvSpec(
            id="envsuite/ParallelizableNim-v0",
            entry_point="tests.test_registry:ParallelizableNim",
            family="decision",
            api="aec",
            description="test",
            oracle="envsuite.families.decision.nim_oracle:nim_oracle",
        )
    )
    assert isinstance(envsuite.make(spec.id, parallel=True), aec_to_parallel_wrapper)


def test_nondeterministic_is_a_documented_spec_flag_outside_the_hash():
    spec = envsuite.spec("envsuite/Bandit-v0")
    assert spec.nondeterministic is False
    flagged = dataclasses.replace(spec, nondeterministic=True)
    assert EnvSpec.from_json(flagged.to_json()) == flagged
    assert '"nondeterministic": true' in flagged.to_json()
    assert flagged.to_gymnasium().nondeterministic is True
    # Frozen leaderboards pin spec hashes: the flag (and its default) must not move them.
    assert flagged.hash_for({}) == spec.hash_for({})
    with pytest.raises(ValueError, match="nondeterministic must be True or False"):
        dataclasses.replace(spec, nondeterministic="yes")  # type: ignore[arg-type]


def test_make_vec_of_a_turn_based_game_names_its_api():
    # The message read "envsuite/Nim-v0 is a aec environment".
    with pytest.raises(envsuite.WrongApiError) as refused:
        envsuite.make_vec("envsuite/Nim-v0", num_envs=2)
    assert str(refused.value).startswith("envsuite/Nim-v0 is an environment of api 'aec'; ")
