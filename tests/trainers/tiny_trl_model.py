"""A tiny randomly initialised chat model and a locally built tokenizer, for GRPO tests.

Nothing is downloaded: the tokenizer is byte-level BPE built with ``tokenizers``, plus
Qwen's chat special tokens and one added token per scripted answer (an answer is then one
token, so a random model samples it); its chat template is Qwen 2.5's, as TRL ships it
(TRL knows how to parse its tool calls). Its merges are learnt from the chat template and
texts the test passes (its prompts), so a multi-turn conversation is a few hundred tokens
instead of one per byte: attention's cost grows with the square of the length, and the
model's forward and backward passes were most of a multi-turn GRPO test's time.
Generation is restricted to the answer tokens and the end of turn with ``suppress_tokens``
(a generation setting TRL documents), so a random model answers in a few tokens.
"""

from __future__ import annotations

import json
import os

for _name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_DATASETS_OFFLINE"):
    os.environ[_name] = "1"
os.environ["TRL_EXPERIMENTAL_SILENCE"] = "1"

import pytest  # noqa: E402

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":  # opted out: skip without the extra
    pytest.importorskip("trl")

from collections.abc import Iterable  # noqa: E402
from pathlib import Path  # noqa: E402

import torch  # noqa: E402
import trl  # noqa: E402
from tokenizers import (  # noqa: E402
    AddedToken,
    Tokenizer,
    decoders,
    models,
    pre_tokenizers,
    trainers,
)
from transformers import PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM  # noqa: E402

SPECIAL = ("<|endoftext|>", "<|im_start|>", "<|im_end|>")
#: Tokens the byte-level BPE may learn from its texts (the 256 bytes included).
VOCAB_SIZE = 1024
QWEN_TEMPLATE = Path(trl.__file__).parent / "chat_templates" / "qwen2_5.jinja"


def tool_call(action: str) -> str:
    """The text of one ``act`` tool call, as Qwen's template writes it."""
    arguments = json.dumps({"name": "act", "arguments": {"action": action}})
    return f"<tool_call>\n{arguments}\n</tool_call>"


def tokenizer(answers: list[str], texts: Iterable[str] = ()) -> PreTrainedTokenizerFast:
    """A byte-level tokenizer with ``answers`` as single tokens and Qwen 2.5's chat template.

    Arguments:
        answers: the scripted answers, one added token each.
        texts: what the conversations will hold besides the chat template (prompts,
            observations); the merges are learnt from them and the template. Any text
            still encodes, byte by byte where no merge applies.
    """
    template = QWEN_TEMPLATE.read_text(encoding="utf-8")
    raw = Tokenizer(models.BPE())
    raw.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    raw.decoder = decoders.ByteLevel()
    merges = trainers.BpeTrainer(
        vocab_size=VOCAB_SIZE,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    raw.train_from_iterator([template, *texts], merges)
    raw.add_special_tokens([AddedToken(s, special=True, normalized=False) for s in SPECIAL])
    raw.add_tokens([AddedToken(a, normalized=False) for a in answers])
    tok = PreTrainedTokenizerFast(
        tokenizer_object=raw,
        eos_token="<|im_end|>",
        pad_token="<|endoftext|>",
        padding_side="left",
    )
    tok.chat_template = template
    return tok


def model(tok: PreTrainedTokenizerFast, seed: int = 0) -> Qwen2ForCausalLM:
    """A one-layer Qwen2 with hidden size 16, randomly initialised from ``seed``."""
    torch.manual_seed(seed)
    config = Qwen2Config(
        vocab_size=len(tok),
        hidden_size=16,
        intermediate_size=32,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=1,
        max_position_embeddings=8192,
        pad_token_id=tok.pad_token_id,
        eos_token_id=tok.eos_token_id,
        bos_token_id=None,
        tie_word_embeddings=False,
    )
    return Qwen2ForCausalLM(config)


def suppressed(tok: PreTrainedTokenizerFast, answers: list[str]) -> list[int]:
    """Every token id but the answers' and the end of turn (for ``suppress_tokens``)."""
    allowed = {tok.convert_tokens_to_ids(a) for a in answers} | {tok.eos_token_id}
    return [i for i in range(len(tok)) if i not in allowed]
