"""The README's Deployments section, run as written on loopback: three deployments, one set
of records.

The bash commands are read from the section and run with ``python -m envsuite``, with what
only a real deployment has replaced by loopback stand-ins (each replacement must apply, so
an edit of the README that drops one fails here): machine B is a server on 127.0.0.1, the
Ray cluster a local Ray of two servers, the model the loopback scripted endpoint. The
Python examples run in one fresh interpreter and must print the same records.
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("ray")

from typer.testing import CliRunner

from envsuite.agents.scripted_endpoint import ScriptedEndpoint
from envsuite.cli import app
from envsuite.records import read_records
from tests.evaluation.test_rollout import comparable

ROOT = Path(__file__).resolve().parents[1]
SECTION = (ROOT / "README.md").read_text(encoding="utf-8").split("## Deployments", 1)[1]
SECTION = SECTION.split("\n## ", 1)[0]
ANNOUNCED = re.compile(r"serving .* at (http://\S+)")


def blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", SECTION, re.S | re.M)


def commands() -> list[list[str]]:
    lines = [
        re.sub(r"\s+#.*$", "", line).strip()
        for block in blocks("bash")
        for line in block.splitlines()
    ]
    return [shlex.split(line) for line in lines if line]


def replace(argv: list[str], old: list[str], new: list[str]) -> list[str]:
    for start in range(len(argv) - len(old) + 1):
        if argv[start : start + len(old)] == old:
            return argv[:start] + new + argv[start + len(old) :]
    raise AssertionError(f"{shlex.join(old)} is not in the README's {shlex.join(argv)}")


def wait_for_urls(listed: Path, count: int, timeout: float = 120.0) -> list[str]:
    """The ``count`` URLs a server command writes to ``listed`` once it listens."""
    deadline = time.monotonic() + timeout
    while not (listed.exists() and len(listed.read_text().split()) == count):
        assert time.monotonic() < deadline, f"timed out waiting for {count} URLs in {listed}"
        time.sleep(0.1)
    return listed.read_text().split()


def test_the_three_deployments_give_the_same_records(tmp_path):
    found = commands()
    assert [argv[:2] for argv in found] == [
        ["envsuite", "rollout"],
        ["envsuite", "serve"],
        ["envsuite", "rollout"],
        ["envsuite", "serve"],
        ["envsuite", "rollout"],
    ]
    python = [sys.executable, "-m", "envsuite"]
    servers: list[subprocess.Popen[str]] = []
    b_url = ""
    try:
        with ScriptedEndpoint() as endpoint:
            for argv in found:
                argv = python + argv[1:]
                if argv[3] == "rollout":
                    argv = replace(
                        argv,
                        ["--base-url", "http://localhost:8001/v1"],
                        ["--base-url", endpoint.base_url],
                    )
                    if "http://B:8000" in argv:
                        argv = replace(argv, ["http://B:8000"], [b_url])
                    done = subprocess.run(
                        argv, cwd=tmp_path, capture_output=True, text=True, timeout=300
                    )
                    assert done.returncode == 0, done.stderr[-3000:]
                    continue
                if "--ray-servers" in argv:  # a local Ray of two servers on loopback
                    argv = replace(
                        argv, ["--ray-servers", "4", "--host", "node"], ["--ray-servers", "2"]
                    )
                    listed = tmp_path / "servers.txt"
                else:  # machine B: loopback, a free port
                    argv = replace(
                        argv,
                        ["--host", "0.0.0.0", "--port", "8000"],
                        ["--host", "127.0.0.1", "--port", "0"],
                    )
                    listed = tmp_path / "b.txt"
                    argv += ["--urls-file", str(listed)]
                servers.append(
                    subprocess.Popen(
                        argv, cwd=tmp_path, stderr=subprocess.PIPE, text=True, env=dict(os.environ)
                    )
                )
                urls = wait_for_urls(listed, 2 if "--ray-servers" in argv else 1)
                assert all(url.startswith("http://127.0.0.1:") for url in urls)
                b_url = urls[0]
    finally:
        for server in servers:
            server.send_signal(signal.SIGTERM)
        for server in servers:
            server.wait(timeout=60)
    for server in servers:  # uvicorn ends by re-raising the SIGTERM it handled
        assert server.returncode in (0, -signal.SIGTERM), server.stderr.read()[-3000:]

    def records(name: str) -> list[dict]:
        rows = read_records(tmp_path / "runs" / name / "episodes.jsonl")
        assert len(rows) == 16 and all(row.infra_error is None for row in rows)
        return sorted((comparable(row) for row in rows), key=lambda r: (r["seed"], r["attempt"]))

    assert records("on-b") == records("in-process") == records("on-ray")


def test_the_python_examples_print_the_same_records(tmp_path):
    examples = blocks("python")
    assert len(examples) == 3
    script = tmp_path / "deployments.py"
    script.write_text("\n".join(examples), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 4
    assert lines[0] == lines[1] == lines[3] and lines[0].startswith("[(0, 0, ")
    assert re.fullmatch(r"\{'http://127\.0\.0\.1:\d+': 0, 'http://127\.0\.0\.1:\d+': 0\}", lines[2])


def test_host_node_needs_ray_servers():
    result = CliRunner().invoke(app, ["serve", "envsuite/Wordle-v0", "--host", "node"])
    assert result.exit_code == 2
    assert "--host node (each Ray node's address) needs --ray-servers" in " ".join(
        result.output.split()
    )
