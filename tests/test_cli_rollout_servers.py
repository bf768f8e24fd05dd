"""``envsuite rollout --server``: the envs on envsuite servers, the records as in-process."""

from __future__ import annotations

import socket

import pytest

pytest.importorskip("uvicorn")

from typer.testing import CliRunner

from envsuite.agents.scripted_endpoint import ScriptedEndpoint
from envsuite.cli import app
from envsuite.records import read_records
from envsuite.serve import RunningServer, ServeConfig
from tests.evaluation.test_rollout import comparable

runner = CliRunner()
WORDLE = "envsuite/Wordle-v0"


def words(text: str) -> str:
    return " ".join(text.split())


def closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}"


def args(endpoint: ScriptedEndpoint, out, *servers: str) -> list[str]:
    server_args = [part for url in servers for part in ("--server", url)]
    return [
        "rollout", "envsuite/Bandit-v0", "--set", "horizon=4", "--model", "scripted",
        "--base-url", endpoint.base_url, "--groups", "3", "--group-size", "2",
        "--out", str(out), "--no-progress", *server_args,
    ]  # fmt: skip


def test_servers_by_url_and_by_file_give_the_in_process_records(tmp_path):
    config = ServeConfig(("envsuite/Bandit-v0",), port=0, token="T")
    with (
        ScriptedEndpoint() as endpoint,
        RunningServer(config) as a,
        RunningServer(config) as b,
    ):
        listed = tmp_path / "servers.txt"
        listed.write_text(f"# the second server\n{b.url}\n\n{closed_port_url()}\n")
        local = runner.invoke(app, args(endpoint, tmp_path / "local"))
        assert local.exit_code == 0, local.output
        served = runner.invoke(
            app,
            [*args(endpoint, tmp_path / "served", a.url, f"@{listed}"), "--server-token", "T"],
        )
        assert served.exit_code == 0, served.output
        assert "no answer from http://127.0.0.1:" in words(served.output)
        assert a.sessions.snapshot()["step_latency_ms"]["count"] > 0
        assert b.sessions.snapshot()["step_latency_ms"]["count"] > 0

    def records(name):
        return sorted(
            (comparable(r) for r in read_records(tmp_path / name / "episodes.jsonl")),
            key=lambda r: (r["seed"], r["attempt"]),
        )

    assert records("served") == records("local")


@pytest.mark.parametrize(
    ("server_args", "message", "code"),
    [
        (["--server-token", "wrong"], "refused the token", 1),
        (["--server", "@missing-file.txt"], "cannot read the file", 2),
        (["--server", "not a url"], "not a server URL", 2),
    ],
)
def test_bad_servers_are_refused_before_any_episode(tmp_path, server_args, message, code):
    config = ServeConfig(("envsuite/Bandit-v0",), port=0, token="T")
    with ScriptedEndpoint() as endpoint, RunningServer(config) as server:
        result = runner.invoke(app, [*args(endpoint, tmp_path, server.url), *server_args])
    assert result.exit_code == code, result.output
    assert message in words(result.output)
    assert not (tmp_path / "episodes.jsonl").exists()


def test_an_env_the_servers_do_not_serve_or_no_server_at_all(tmp_path):
    with ScriptedEndpoint() as endpoint, RunningServer(ServeConfig((WORDLE,), port=0)) as server:
        unserved = runner.invoke(app, args(endpoint, tmp_path / "a", server.url))
        nobody = runner.invoke(app, args(endpoint, tmp_path / "b", closed_port_url()))
    assert unserved.exit_code == 1 and "does not serve envsuite/Bandit-v0" in words(unserved.output)
    assert nobody.exit_code == 1 and "no server of the pool answers" in words(nobody.output)
