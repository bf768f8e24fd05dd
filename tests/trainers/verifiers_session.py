"""Run in the verifiers venv: one env evaluated by verifiers and by envsuite, as JSON.

Usage: python verifiers_session.py CASE OUT_DIR, with CASE one of :data:`CASES` (or
``refused``: see :func:`refused`). The case's
env is evaluated twice against the scripted endpoint, each time with a fresh endpoint and
the same scripted policy: by verifiers' own evaluation entry point (``run_eval``, the
function behind ``vf-eval``, its client pointed at the endpoint), and by ``envsuite
rollout``. One JSON document is printed: what each reported per episode, and the chat
messages of every request the endpoint received (sorted, so the two runs compare).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import json
import re
import sys
from pathlib import Path
from typing import Any

from verifiers.v1.cli.eval.runner import run_eval
from verifiers.v1.configs.cli.eval import EvalConfig

from envsuite.agents.scripted_endpoint import ScriptedEndpoint, cycle_valid_actions, message_text
from envsuite.evaluation.rollout import rollout, rollout_protocol

#: Wordle guesses by turn; the third is malformed (the env's documented penalty: -0.1).
WORDS = ("crane", "slate", "???", "pious", "audio", "tiger", "lemon")


def wordle_policy(messages: list[dict[str, Any]]) -> str:
    """Guess ``WORDS`` in turn."""
    return WORDS[sum(1 for m in messages if m.get("role") == "assistant") % len(WORDS)]


def sat_policy(messages: list[dict[str, Any]]) -> str:
    """Solve, answer all-false, or answer with no ``\\boxed{}``, by a hash of the problem."""
    text = message_text(messages[-1])
    problem = json.loads(re.findall(r'^\{"n_sat".*\}$', text, re.M)[-1])
    names = [chr(ord("A") + i) for i in range(problem["k"])]
    clauses = [re.findall(r"(!?)([A-Z])", c) for c in problem["clause"].split(" & ")]
    kind = int(hashlib.sha256(problem["clause"].encode()).hexdigest(), 16) % 3
    if kind == 2:
        return "I am not sure."  # malformed: the env's documented penalty, -1
    if kind == 1:
        return "\\boxed{" + "0" * len(names) + "}"
    for bits in itertools.product((True, False), repeat=len(names)):
        value = dict(zip(names, bits, strict=True))
        if all(any(value[v] != bool(neg) for neg, v in clause) for clause in clauses):
            return "\\boxed{" + "".join("1" if b else "0" for b in bits) + "}"
    return "\\boxed{UNSAT}"


#: Case -> (env id, env kwargs, policy, seeds, rollouts per seed, served).
CASES: dict[str, tuple[str, dict[str, Any], Any, int, int, bool]] = {
    "wordle": ("envsuite/Wordle-v0", {}, wordle_policy, 3, 1, False),
    "wordle-served": ("envsuite/Wordle-v0", {}, wordle_policy, 2, 1, True),
    "sat": ("envsuite/SAT-v0", {"num_vars": 5}, sat_policy, 6, 2, False),
    # Screenshots (PNG image parts) with text: more images than the history window keeps.
    "gui": ("envsuite/GuiForm-v0", {}, cycle_valid_actions, 2, 1, False),
}


def request_messages(endpoint: ScriptedEndpoint) -> list[str]:
    """Every request's messages as canonical JSON, sorted."""
    return sorted(json.dumps(r["messages"], sort_keys=True) for r in endpoint.requests)


def by_verifiers(case: str, out: Path, server_url: str | None) -> dict[str, Any]:
    """The case evaluated by verifiers' ``run_eval``."""
    env_id, kwargs, policy, seeds, group, _ = CASES[case]
    taskset = {"id": "envsuite-verifiers", "env_id": env_id, "env_kwargs": kwargs}
    if server_url is not None:
        taskset["server_url"] = server_url
    with ScriptedEndpoint(policy) as endpoint:
        config = EvalConfig.model_validate(
            {
                "env": {"taskset": taskset},
                "model": "scripted",
                "client": {"base_url": endpoint.base_url, "api_key_var": "ENVSUITE_NO_KEY"},
                "select": {"limit": seeds},
                "num_rollouts": group,
                "push": False,
                "rich": None,
                "output_dir": str(out / "verifiers"),
            }
        )
        episodes = asyncio.run(run_eval(config))
    saved = [
        json.loads(line)
        for path in sorted((out / "verifiers").rglob("traces.jsonl"))
        for line in path.read_text().splitlines()
    ]
    return {
        "episodes": [
            {
                "seed": episode.task.data.seed,
                "ok": episode.ok,
                "errors": [e.message for e in episode.errors],
                "traces": [
                    {
                        "reward": trace.reward,
                        "metrics": trace.metrics,
                        "errors": [e.message for e in trace.errors],
                        "envsuite": trace.info.get("envsuite"),
                    }
                    for trace in episode.traces
                ],
            }
            for episode in episodes
        ],
        "saved_lines": len(saved),
        "requests": request_messages(endpoint),
    }


def by_envsuite(case: str, out: Path) -> dict[str, Any]:
    """The case run by ``envsuite rollout`` (in-process envs)."""
    env_id, kwargs, policy, seeds, group, _ = CASES[case]
    protocol = rollout_protocol(env_id, kwargs, groups=seeds, group_size=group)
    with ScriptedEndpoint(policy) as endpoint:
        result = rollout(
            protocol, "scripted", out / "envsuite", agent_options={"base_url": endpoint.base_url}
        )
    return {
        "records": [
            {
                "seed": r.seed,
                "attempt": r.attempt,
                "return": r.episode_return,
                "length": r.length,
                "success": r.success,
                "infra_error": r.infra_error,
            }
            for r in result.records
        ],
        "requests": request_messages(endpoint),
    }


def refused(out: Path) -> dict[str, Any]:
    """Failures verifiers must report without crashing: an endpoint refusing every request,
    then ids the adapter cannot play (a multi-agent env, an unknown id)."""
    with ScriptedEndpoint(wordle_policy) as endpoint:
        endpoint.fail_next(1000, status=400)
        config = EvalConfig.model_validate(
            {
                "env": {"taskset": {"id": "envsuite-verifiers", "env_id": "envsuite/Wordle-v0"}},
                "model": "scripted",
                "client": {"base_url": endpoint.base_url, "api_key_var": "ENVSUITE_NO_KEY"},
                "select": {"limit": 2},
                "push": False,
                "rich": None,
                "output_dir": str(out / "verifiers"),
            }
        )
        episodes = asyncio.run(run_eval(config))
    from envsuite.trainers.verifiers_env import load_environment

    problems = {}
    for env_id in ("envsuite/Nim-v0", "envsuite/Wordel-v0"):
        try:
            next(iter(load_environment(env_id).taskset))
        except Exception as exc:
            problems[env_id] = f"{type(exc).__name__}: {exc}"
    return {
        "episodes": [
            {
                "ok": episode.ok,
                "rewards": [trace.reward for trace in episode.traces],
                "errors": [e.message for t in episode.traces for e in t.errors],
                "envsuite": [trace.info.get("envsuite") for trace in episode.traces],
            }
            for episode in episodes
        ],
        "problems": problems,
    }


def main() -> None:
    """Run the case named on the command line; print the JSON document."""
    case, out = sys.argv[1], Path(sys.argv[2])
    if case == "refused":
        print(json.dumps(refused(out)))
        return
    served = CASES[case][5]
    with contextlib.ExitStack() as stack:
        server_url = None
        if served:
            from envsuite.serve import RunningServer, ServeConfig

            server = stack.enter_context(RunningServer(ServeConfig((CASES[case][0],), port=0)))
            server_url = server.url
        verifiers = by_verifiers(case, out, server_url)
    print(json.dumps({"verifiers": verifiers, "envsuite": by_envsuite(case, out)}))


if __name__ == "__main__":
    main()
