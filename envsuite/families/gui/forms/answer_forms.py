"""Read something on the screen, type the answer, submit: four MiniWoB++ types.

All are a :class:`~.text_entry.TextForm` with one answer field and Submit beside it
(the label left of the field on train, above it on test) under a header to read.
Success: Submit (or ``enter``) with the answer in the field; failure: with anything else.
Fewest steps: 3 (click the field, type, Submit).

- enter-text-2: type the named word in upper or lower case (the word drawn in mixed case).
  Distinct instances: 162 words x 2 cases x 2 spellings x offsets x themes, over 10^5.
- find-word: a paragraph of 8 to 12 words from the split's pool; type its n-th word.
  Distinct instances: ordered word choices, over 10^20.
- simple-arithmetic: a sum, difference or product of two numbers; train operands 0 to
  9, test 10 to 19 (so test problems never appear in train). Distinct instances: 300
  problems x offsets x themes x labels, over 10^5.
- read-table: a two-column table of 3 to 5 keys (the split's words) and values (numbers);
  type the value of the named key. Distinct instances: over 10^12.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from envsuite.families.gui.forms import layout
from envsuite.families.gui.forms.click_link import text_flow
from envsuite.families.gui.forms.search_engine import ordinal
from envsuite.families.gui.forms.text_entry import TextForm
from envsuite.families.gui.forms.vocabulary import WORDS, pool
from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.task import Goal
from envsuite.families.gui.widget import Label, Widget

#: Labels the answer field may carry.
ANSWER_LABELS = ("Answer", "Reply", "Result", "Value")


class AnswerForm(TextForm):
    """One answer field under a header; subclasses draw the header and the answer."""

    submit_beside: ClassVar[bool] = True

    def answer_field(self, rng: np.random.Generator, answer: str, reserve: int) -> None:
        """Set up the one field holding ``answer``, below ``reserve`` pixels of header."""
        self.labels = [ANSWER_LABELS[int(rng.integers(len(ANSWER_LABELS)))]]
        self.expected = [answer]
        self.prefill = [""]
        self.placeholders = [""]
        self.place_form(rng, reserve)
        self.optimal_steps = self.fill_steps()

    def header_area(self) -> Rect:
        """Where the header goes (under the title bar)."""
        return layout.content_area(self.width, self.height, self.theme, True)


class EnterText2(AnswerForm):
    """Type the word in the named case (MiniWoB++ ``enter-text-2``)."""

    name: ClassVar[str] = "enter-text-2"
    held_out_fields: ClassVar[tuple[str, ...]] = ("text",)

    def generate(self, rng: np.random.Generator) -> None:
        """Word, its spelling and the case asked."""
        words = pool(WORDS, self.split)
        word = str(words[int(rng.integers(len(words)))])
        word = word.capitalize() if rng.random() < 0.5 else word.upper()
        case = "lower" if rng.random() < 0.5 else "upper"
        answer = word.lower() if case == "lower" else word.upper()
        self.goal = Goal(
            f'Type "{word}" in all {case} case letters in the text field and press Submit.',
            {"text": word, "case": case},
        )
        self.answer_field(rng, answer, 0)


class FindWord(AnswerForm):
    """Type the n-th word of a paragraph (MiniWoB++ ``find-word``)."""

    name: ClassVar[str] = "find-word"

    def generate(self, rng: np.random.Generator) -> None:
        """The paragraph and the position asked."""
        words = pool(WORDS, self.split)
        count = int(rng.integers(8, 13))
        self.words = [str(words[i]) for i in rng.integers(0, len(words), count)]
        self.index = int(rng.integers(count))
        rank = ordinal(self.index + 1)
        self.goal = Goal(
            f"Find the {rank} word in the paragraph, type that into the textbox and press "
            '"Submit".',
            {"index": str(self.index + 1)},
        )
        depth = max(w.bounds.bottom for w in self.header_widgets()) - self.header_area().y
        self.answer_field(rng, self.words[self.index], depth + 8)

    def header_widgets(self) -> list[Widget]:
        """The paragraph."""
        area = self.header_area()
        return text_flow([(word, None) for word in self.words], area, self.theme, "paragraph")


class SimpleArithmetic(AnswerForm):
    """Solve a small sum and type the result (MiniWoB++ ``simple-arithmetic``)."""

    name: ClassVar[str] = "simple-arithmetic"
    held_out_fields: ClassVar[tuple[str, ...]] = ("problem",)

    def generate(self, rng: np.random.Generator) -> None:
        """Operands and operator from the split's range."""
        low = 0 if self.split == "train" else 10
        a, b = (int(n) for n in rng.integers(low, low + 10, 2))
        op = "+-x"[int(rng.integers(3))]
        result = a + b if op == "+" else a - b if op == "-" else a * b
        self.problem = f"{a} {op} {b}"
        self.goal = Goal(
            "Solve the math problem and type your answer into the textbox. Press submit when done.",
            {"problem": self.problem},
        )
        self.answer_field(rng, str(result), 40)

    def header_widgets(self) -> list[Widget]:
        """The problem."""
        area = self.header_area()
        return [
            Label(
                "problem",
                Rect(area.x, area.y + 6, area.width, 24),
                text=f"{self.problem} =",
                bold=True,
            )
        ]


class ReadTable(AnswerForm):
    """Type the value the table gives for the named key (MiniWoB++ ``read-table``)."""

    name: ClassVar[str] = "read-table"
    held_out_fields: ClassVar[tuple[str, ...]] = ("key",)

    def generate(self, rng: np.random.Generator) -> None:
        """Keys, values and the key asked."""
        words = pool(WORDS, self.split)
        count = int(rng.integers(3, 6))
        self.keys = [
            str(words[i]).capitalize() for i in rng.choice(len(words), count, replace=False)
        ]
        self.values = [str(int(v)) for v in rng.integers(10, 1000, count)]
        self.row = int(rng.integers(count))
        key = self.keys[self.row]
        self.goal = Goal(
            f'Enter the value that corresponds with "{key}" into the text field and press Submit.',
            {"key": key},
        )
        self.answer_field(rng, self.values[self.row], count * 20 + 8)

    def header_widgets(self) -> list[Widget]:
        """The table: a key and a value per row."""
        area = self.header_area()
        cells: list[Widget] = []
        for i, (k, v) in enumerate(zip(self.keys, self.values, strict=True)):
            y = area.y + i * 20
            cells.append(Label(f"key-{i}", Rect(area.x, y, 110, 18), text=k, bold=True))
            cells.append(Label(f"value-{i}", Rect(area.x + 120, y, 80, 18), text=v))
        return cells
