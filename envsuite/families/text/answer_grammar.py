r"""The forgiving answer grammar every text game of the family shares.

Language models wrap their answers in many ways. Every text game reads the agent's text
through :func:`extract_answer`, which finds the answer in the first of these forms that
occurs (the last occurrence of that form wins, since models reason first and answer last):

1. ``\boxed{crane}``: the LaTeX box reasoning models are trained to use;
2. a fenced code block: `````crane`````  (three backticks, any language tag);
3. ``[crane]``: square brackets holding no further bracket;
4. ``guess: crane``: one of the labels in :data:`ANSWER_LABELS` (any case) followed by ``:``
   or ``=``, up to the end of the line;
5. otherwise the whole text.

The answer is then stripped of surrounding whitespace, quotes, backticks, ``*`` and
``_`` (Markdown emphasis) and one trailing ``.``, ``!`` or ``?``. Each game then parses the
answer with its own rules (a word, a cell, a move) and raises
:class:`~envsuite.env_base.InvalidAction` naming the rule that failed. The same
documentation is what :data:`GRAMMAR_HELP` says to agents in the games' instructions.
"""

from __future__ import annotations

import re

from envsuite.env_base import InvalidAction

#: Labels that introduce an answer in form 4 (``label: answer``).
ANSWER_LABELS = ("answer", "guess", "move", "action", "letter", "cell", "command", "solution")

#: One sentence for the games' instructions.
GRAMMAR_HELP = (
    "Answer with the move alone, or mark it as \\boxed{...}, [...] or 'answer: ...'; "
    "when you mark it, only the marked part is read."
)

#: Longest text the grammar reads, in characters; a longer action is refused unread.
MAX_ANSWER_TEXT = 20_000

_BOXED = re.compile(r"\\boxed\{((?:[^{}]|\{[^{}]*\})*)\}")
_FENCED = re.compile(r"```[A-Za-z0-9_+-]*\n?(.*?)```", re.DOTALL)
_BRACKETED = re.compile(r"\[([^\[\]]*)\]")
_LABELLED = re.compile(
    rf"(?im)^[ \t>*_-]*(?:{'|'.join(ANSWER_LABELS)})[ \t*_]*[:=][ \t]*(.*?)[ \t]*$"
)
_STRIP = " \t\r\n\"'`*_"


def extract_answer(text: object) -> str:
    """The answer the agent marked in ``text`` (see the module docstring for the forms).

    Raises:
        InvalidAction: ``text`` is not a string, is longer than :data:`MAX_ANSWER_TEXT`,
            or holds no answer (empty once stripped).
    """
    if not isinstance(text, str):
        raise InvalidAction(f"expected a text answer (str), got {type(text).__name__}")
    if len(text) > MAX_ANSWER_TEXT:
        raise InvalidAction(f"the answer is {len(text)} characters; at most {MAX_ANSWER_TEXT}")
    # A form's pattern runs only on a text holding what each of its matches holds (so a
    # plain short answer runs none): \boxed{, ```, [, and : or =.
    found = None
    if "\\boxed{" in text:
        found = _BOXED.findall(text)
    if not found and "```" in text:
        found = _FENCED.findall(text)
    if not found and "[" in text:
        found = _BRACKETED.findall(text)
    if not found and (":" in text or "=" in text):
        found = _LABELLED.findall(text)
    answer = found[-1] if found else text
    answer = answer.strip(_STRIP)
    if answer[-1:] in (".", "!", "?"):
        answer = answer[:-1].rstrip(_STRIP)
    if not answer:
        raise InvalidAction("the answer is empty; " + GRAMMAR_HELP)
    return answer
