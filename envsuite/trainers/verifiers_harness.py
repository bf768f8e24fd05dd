"""A verifiers harness that asks the model once per turn, in this process.

verifiers' own chat harnesses (``null``, ``bash``) launch a program in a runtime, which
provisions its own Python environment with ``uv`` (downloading packages) on first use.
Playing an envsuite env needs none of that: each turn is one chat completion on the
conversation so far, with no tools. verifiers documents this shape ("a harness may run
its loop in-process instead of launching a program, as long as every model call goes
through ``endpoint`` + ``secret``"), so this harness sends each call through the rollout's
interception endpoint with the ``openai`` package's async client. The interception records
the call on the trace, forwards it to the run's model client, and applies the run's model
and sampling settings. As envsuite's chat agents, it sends only the latest
``max_history_images`` images of the conversation (3 by default), so image envs send the
same requests as ``envsuite rollout``.

A failed call (the endpoint down after the client's retries, an error status) ends the
rollout with verifiers' harness error, which verifiers records on the episode.
"""

from __future__ import annotations

from typing import Any

from envsuite.agents.chat_agent import MAX_HISTORY_IMAGES
from envsuite.agents.image_parts import count_images, drop_images
from envsuite.trainers.verifiers_package import vf

#: Retries of one chat call by the ``openai`` client (connection errors, 429, 5xx).
MAX_RETRIES = 2
#: Seconds one chat call may take.
TIMEOUT_S = 600.0


class EnvsuiteChatHarnessConfig(vf.HarnessConfig):
    """The harness's knobs (``--env.player.harness.*``).

    Attributes:
        max_history_images: Images of the conversation sent with each call: only the
            latest this many; each earlier one is replaced by the text ``[earlier image
            omitted]``, as envsuite's chat agents do (None: every image).
    """

    max_history_images: int | None = MAX_HISTORY_IMAGES


def window_images(messages: list[Any], keep: int | None) -> list[Any]:
    """``messages`` with all but their latest ``keep`` images replaced by a short text."""
    if keep is None:
        return messages
    windowed = list(messages)
    for index in reversed(range(len(windowed))):
        content = windowed[index].get("content")
        images = count_images(content) if content is not None else 0
        if not images:
            continue
        if keep >= images:
            keep -= images
            continue
        windowed[index] = {**windowed[index], "content": drop_images(content, keep)}
        keep = 0
    return windowed


class EnvsuiteChatHarness(vf.Harness[EnvsuiteChatHarnessConfig]):
    """One chat completion per segment, sent from this process (see the module docstring)."""

    APPENDS_SYSTEM_PROMPT = True
    SUPPORTS_RESUME = True
    EXECUTES_CODE = False
    NEEDS_CONTAINER = False

    async def launch(
        self,
        ctx: Any,
        trace: Any,
        runtime: Any,
        endpoint: str,
        secret: str,
        mcp_urls: dict[str, str],
        data: Any,
        **_: Any,
    ) -> Any:
        """Ask the model for the next reply to ``data``'s conversation.

        Returns:
            verifiers' ``ProgramResult``: exit code 0, or 1 with the error's text.
        """
        # Imported here, after verifiers_package has checked that verifiers is installed.
        import openai
        from verifiers.v1.dialects.chat import message_to_wire
        from verifiers.v1.runtimes import ProgramResult

        system_prompt, prompt = self.resolve_prompt(data)
        messages: list[Any] = []  # OpenAI message dicts
        if system_prompt:
            messages.append({"role": "system", "content": system_prompt})
        if isinstance(prompt, str):
            messages.append({"role": "user", "content": prompt})
        elif prompt is not None:
            messages.extend(message_to_wire(message) for message in prompt)
        client = openai.AsyncOpenAI(
            base_url=endpoint, api_key=secret, max_retries=MAX_RETRIES, timeout=TIMEOUT_S
        )
        try:
            await client.chat.completions.create(
                model=ctx.model, messages=window_images(messages, self.config.max_history_images)
            )
        except openai.OpenAIError as exc:
            return ProgramResult(exit_code=1, stdout="", stderr=f"{type(exc).__name__}: {exc}")
        finally:
            await client.close()
        return ProgramResult(exit_code=0, stdout="", stderr="")
