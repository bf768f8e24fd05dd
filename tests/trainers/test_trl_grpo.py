"""A few real GRPO steps (TRL's GRPOTrainer, on CPU) whose rewards come from envsuite envs.

A tiny random model (tests/trainers/tiny_trl_model.py, nothing downloaded) trains for two
steps; afterwards every completion the trainer logged is replayed in a fresh envsuite env
(made from the row's id, kwargs and seed, outside the adapter), and the reward the trainer
logged for it must equal the env's. The replayed rewards must differ from one another, so a
reward that ignored the env (a constant, a count of tool calls) could not pass.

Kept cheap for CI (none of it changes what is checked): the tokenizer's merges are learnt
from the prompts (a Maze prompt with the tool header is 274 tokens instead of 1,528 of one
byte each; attention grows with the square of the length), gradient checkpointing is off
(it recomputes the forward pass to save memory this model does not need), and torch uses
one thread: the suite runs beside the fresh-machine container's on two cores, where a
second torch thread mostly spins. This module took 120 s of CPU before (one run), 32-36 s
after (two runs), on this 2-core machine shared with other jobs (load 6-10).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

from tests.trainers import tiny_trl_model as tiny  # sets HF_HUB_OFFLINE before transformers

# isort: split

import pytest
import torch
from trl import GRPOConfig, GRPOTrainer

import envsuite
import envsuite.remote
from envsuite.serve import RunningServer, ServeConfig
from envsuite.trainers.trl_adapter import (
    EnvReward,
    environment_factory,
    prompt_dataset,
)

SAT_KWARGS = {"num_vars": 3, "num_clauses": 6}
SAT_ANSWERS = [f"\\boxed{{{i:03b}}}" for i in range(8)] + ["I do not know."]
MAZE_KWARGS = {"width": 3, "height": 3, "max_turns": 4}
MAZE_MOVES = ["up", "down", "left", "right", "jump"]


@pytest.fixture(autouse=True, scope="module")
def _one_torch_thread() -> Iterator[None]:
    """One torch thread for this module's tests (a second only spins on a busy machine)."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def _config(tmp_path: Path, tok: Any, answers: list[str], **overrides: Any) -> GRPOConfig:
    settings: dict[str, Any] = {
        "output_dir": str(tmp_path / "grpo"),
        "max_steps": 2,
        "per_device_train_batch_size": 8,
        "num_generations": 4,
        "max_completion_length": 8,
        "temperature": 1.0,
        "learning_rate": 1e-3,
        "logging_steps": 1,
        "report_to": [],
        "use_cpu": True,
        "seed": 0,
        "save_strategy": "no",
        "gradient_checkpointing": False,
        "generation_kwargs": {"suppress_tokens": tiny.suppressed(tok, answers)},
    }
    settings.update(overrides)
    return GRPOConfig(**settings)


def _texts(dataset: Any) -> list[str]:
    """The prompts' messages, for the tokenizer's merges (shorter sequences, faster steps)."""
    return [message["content"] for row in dataset for message in row["prompt"]]


def _seed_of(dataset: Any) -> dict[str, int]:
    """Each row's seed by its prompt's user message (the observations differ per seed)."""
    seeds = {row["prompt"][-1]["content"]: row["seed"] for row in dataset}
    assert len(seeds) == len(dataset)
    return seeds


def _logged(trainer: GRPOTrainer, name: str) -> list[tuple[Any, Any, float]]:
    logs = trainer._logs
    return list(zip(logs["prompt"], logs["completion"], logs["rewards"][name], strict=True))


def test_grpo_single_turn_rewards_are_the_envs(tmp_path: Path) -> None:
    dataset = prompt_dataset("envsuite/SAT-v0", range(4), SAT_KWARGS)
    tok = tiny.tokenizer(SAT_ANSWERS, _texts(dataset))
    trainer = GRPOTrainer(
        model=tiny.model(tok),
        reward_funcs=EnvReward(),
        args=_config(tmp_path, tok, SAT_ANSWERS),
        train_dataset=dataset,
        processing_class=tok,
    )
    trainer.train()
    assert trainer.state.global_step == 2
    seeds = _seed_of(dataset)
    replayed, logged = [], []
    for prompt, completion, reward in _logged(trainer, "envsuite"):
        env = envsuite.make("envsuite/SAT-v0", **SAT_KWARGS)
        env.reset(seed=seeds[prompt[-1]["content"]])
        _, env_reward, terminated, _, _ = env.step(completion[-1]["content"])
        assert terminated
        replayed.append(float(env_reward))
        logged.append(reward)
    assert len(logged) == 8  # the last generation batch: 2 prompts x 4 generations
    assert logged == replayed
    assert len(set(replayed)) > 1, replayed  # varied: a reward ignoring the env cannot match
    successes = list(trainer._logs["extra"]["envsuite_success"])
    assert successes == [reward == 1.0 for reward in replayed]  # SAT: success iff reward 1
    means = [e["rewards/envsuite/mean"] for e in trainer.state.log_history if "reward" in e]
    assert means[-1] == pytest.approx(sum(replayed) / len(replayed))


def _actions(completion: list[dict[str, Any]]) -> list[str]:
    """The ``act`` calls TRL executed in a logged multi-turn completion, in order.

    An executed call is answered by a ``tool`` message; the calls of the turn that hit
    ``max_tool_calling_iterations`` (or the length limit) are logged but never run.
    """
    actions = []
    for index, message in enumerate(completion):
        calls = message.get("tool_calls") or []
        answers = completion[index + 1 : index + 1 + len(calls)]
        executed = len(answers) == len(calls) and all(a["role"] == "tool" for a in answers)
        if calls and executed:
            for call in calls:
                assert call["function"]["name"] == "act"
                actions.append(call["function"]["arguments"]["action"])
    return actions


@contextmanager
def _served_maze() -> Iterator[Any]:
    """An env factory whose envs are sessions on a loopback ``envsuite serve``."""
    with RunningServer(ServeConfig(("envsuite/Maze-v0",), port=0)) as server:
        yield lambda env_id, kwargs: envsuite.remote.make(server.url, env_id, **kwargs)


@pytest.mark.parametrize("where", ["in-process", "served"])
def test_grpo_multi_turn_rewards_are_the_envs(tmp_path: Path, where: str) -> None:
    with _served_maze() if where == "served" else nullcontext(None) as remote:
        trainer, dataset = _train_on_mazes(tmp_path, remote)
    _check_multi_turn_rewards(trainer, dataset)


def _train_on_mazes(tmp_path: Path, remote: Any) -> tuple[GRPOTrainer, Any]:
    factory = environment_factory() if remote is None else environment_factory(remote)
    dataset = prompt_dataset("envsuite/Maze-v0", range(4), MAZE_KWARGS, single_turn=False)
    answers = [tiny.tool_call(move) for move in MAZE_MOVES]
    tok = tiny.tokenizer(answers, _texts(dataset))
    trainer = GRPOTrainer(
        model=tiny.model(tok),
        args=_config(
            tmp_path, tok, answers, max_completion_length=4096, max_tool_calling_iterations=2
        ),
        train_dataset=dataset,
        processing_class=tok,
        environment_factory=factory,
    )
    trainer.train()
    assert trainer.state.global_step == 2
    return trainer, dataset


def _check_multi_turn_rewards(trainer: GRPOTrainer, dataset: Any) -> None:
    seeds = _seed_of(dataset)
    replayed, logged, turns = [], [], 0
    for prompt, completion, reward in _logged(trainer, "EnvsuiteToolEnv"):
        env = envsuite.make("envsuite/Maze-v0", **MAZE_KWARGS)
        env.reset(seed=seeds[prompt[-1]["content"]])
        total, done = 0.0, False
        for action in _actions(completion):
            if done:  # the adapter refuses an act after the end (a tool error, no step)
                continue
            _, step_reward, terminated, truncated, _ = env.step(action)
            total += float(step_reward)
            done = terminated or truncated
            turns += 1
        replayed.append(total)
        logged.append(reward)
    assert logged == pytest.approx(replayed, abs=1e-6)  # TRL logs float32
    assert turns > len(logged)  # the model acted, several turns per episode on average
    assert len(set(replayed)) > 1, replayed
