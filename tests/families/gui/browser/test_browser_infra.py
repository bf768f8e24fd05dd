"""A browser that dies mid-episode makes an infra error in ``envsuite eval``'s records."""

from __future__ import annotations

import os
import signal
from typing import Any, ClassVar

from envsuite.evaluation.episode_runner import run_job
from envsuite.evaluation.jobs import EpisodeJob
from tests.families.gui.browser.conftest import require_chromium


class BrowserKillingOracle:
    """Plays the oracle, but kills the env's browser before its second action.

    With ``tries`` set, only the first ``tries`` episodes it plays are sabotaged.
    """

    episodes: ClassVar[int] = 0
    tries: ClassVar[int | None] = None

    def __init__(self, env: Any) -> None:
        self.env = env
        self.steps = 0

    def reset(self, seed: int | None = None) -> None:
        type(self).episodes += 1
        self.steps = 0

    def act(self, observation: Any, info: dict[str, Any]) -> Any:
        self.steps += 1
        sabotage = self.tries is None or type(self).episodes <= self.tries
        process = self.env.unwrapped.backend.browser.process
        if self.steps == 2 and sabotage and process is not None:
            os.killpg(process.pid, signal.SIGKILL)
        return self.env.unwrapped.task.oracle_action()


class KillOnceOracle(BrowserKillingOracle):
    """Sabotages only the first episode it plays."""

    episodes: ClassVar[int] = 0
    tries: ClassVar[int | None] = 1


def job(agent: str, retries: int) -> EpisodeJob:
    return EpisodeJob(
        run_id="browser-infra",
        env_id="envsuite/GuiFormBrowser-v0",
        env_kwargs={"task": "login-user", "observation_mode": "instruction"},
        seed=3,
        agent=f"{__name__}:{agent}",
        max_infra_retries=retries,
    )


def test_a_browser_that_keeps_dying_is_recorded_as_an_infra_error():
    require_chromium()
    record = run_job(job("BrowserKillingOracle", retries=1))
    assert record.stop_reason == "infra_error" and record.success is None
    assert "BrowserCrashed" in record.infra_error and "every one of 2 tries" in record.infra_error


def test_an_episode_whose_browser_died_once_is_retried_in_a_new_browser():
    require_chromium()
    record = run_job(job("KillOnceOracle", retries=1))
    assert record.infra_error is None and record.success is True
    assert KillOnceOracle.episodes == 2
