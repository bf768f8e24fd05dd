"""The object knowledge base of TwentyQuestions-v0 and its question grammar.

The table is ``datasets/text/objects/v1/objects.tsv`` (506 common animals, plants, foods
and man-made things, authored by envsuite: see its README) with the category tree
``categories.tsv``. Questions (after :func:`~.kb_questions.fold`):

- ``Is it a/an <category>?`` (also ``a kind of <category>``): true for the item's category
  and every ancestor (a dog is a mammal and an animal);
- ``Is it <attribute>?`` and the other phrasings of :data:`ATTRIBUTE_PHRASES`;
- ``Is it bigger/larger/smaller than a <reference>?`` for the references of
  :data:`REFERENCES` (a coin, an apple, a bread box, a person, a car, a house);
- the name questions of :class:`~.kb_questions.KnowledgeBase`.
"""

from __future__ import annotations

import re
from functools import cache

import numpy as np

from envsuite.families.text.kb_questions import KnowledgeBase, Question, load_table

KB_NAME = "objects"
FILES = ("objects.tsv", "categories.tsv")

#: Reference objects of the size questions and their place on the size scale.
REFERENCES: dict[str, float] = {
    "coin": 1.5,
    "apple": 2.5,
    "bread box": 3.5,
    "breadbox": 3.5,
    "person": 4.5,
    "human": 4.5,
    "car": 5.5,
    "house": 6.5,
}
#: Reference names as the instructions list them.
REFERENCE_NAMES = ("a coin", "an apple", "a bread box", "a person", "a car", "a house")

#: attribute -> (canonical question, other phrasings), all folded.
ATTRIBUTE_PHRASES: dict[str, tuple[str, ...]] = {
    "alive": ("is it alive", "is it living", "is it a living thing", "is it a living being"),
    "man_made": (
        "is it man made",
        "is it manmade",
        "is it made by people",
        "is it made by humans",
        "is it artificial",
    ),
    "edible": ("is it edible", "can you eat it", "can you eat or drink it", "can it be eaten"),
    "indoors": (
        "is it found indoors",
        "is it usually found indoors",
        "is it kept indoors",
        "is it indoors",
        "is it found inside",
    ),
    "wheels": ("does it have wheels", "has it got wheels"),
    "flies": ("can it fly", "does it fly"),
    "water": ("is it found in water", "does it live in water", "is it found in the water"),
    "legs": ("does it have legs", "has it got legs"),
    "electric": (
        "does it use electricity",
        "is it electric",
        "does it need electricity",
        "is it electronic",
    ),
    "metal": ("is it made of metal", "is it metal", "is it metallic", "is it made of steel"),
    "wooden": ("is it made of wood", "is it wooden"),
    "fur": ("does it have fur", "is it furry", "does it have hair"),
    "pet": ("is it kept as a pet", "is it a pet", "can it be a pet"),
    "sweet": ("is it sweet", "does it taste sweet"),
    "sharp": ("is it sharp", "does it have a sharp edge"),
    "farm": ("is it a farm animal", "does it live on a farm"),
    "carnivore": ("does it eat meat", "is it a carnivore", "is it a predator"),
}
_PHRASE = {phrase: attr for attr, phrases in ATTRIBUTE_PHRASES.items() for phrase in phrases}
_CATEGORY = re.compile(r"^is it (?:an? )?(?:(?:kind|type|sort) of )?(?:an? )?(.+)$")
_SIZE = re.compile(r"^is it (bigger|larger|smaller) than (?:an? |the )?(.+)$")


class ObjectKnowledgeBase(KnowledgeBase):
    """The shipped objects and their attribute table."""

    noun = "object"
    nouns = "objects"

    def __init__(self) -> None:
        header, rows = load_table(KB_NAME, "objects.tsv")
        _, category_rows = load_table(KB_NAME, "categories.tsv")
        super().__init__([row[0] for row in rows])
        self.parents = {row[0]: row[1] for row in category_rows}
        self.categories = tuple(self.parents)
        self.attributes = tuple(header[3:])
        self.category = tuple(row[1] for row in rows)
        self.size = np.array([float(row[2]) for row in rows])
        self.flags = {
            attr: np.array([row[3 + i] == "yes" for row in rows])
            for i, attr in enumerate(self.attributes)
        }
        self._plural = {c + ("es" if c.endswith("sh") else "s"): c for c in self.categories}

    def ancestors(self, category: str) -> list[str]:
        """``category`` and every category above it."""
        chain = [category]
        while self.parents.get(chain[-1]):
            chain.append(self.parents[chain[-1]])
        return chain

    def parse_question(self, folded: str) -> Question | None:
        """Category, attribute or size question, or None."""
        attr = _PHRASE.get(folded)
        if attr is not None:
            return ("attribute", attr)
        match = _SIZE.match(folded)
        if match:
            reference = match.group(2)
            if reference in REFERENCES:
                kind = "smaller" if match.group(1) == "smaller" else "bigger"
                return (kind, reference.replace("breadbox", "bread box").replace("human", "person"))
            return None
        match = _CATEGORY.match(folded)
        if match:
            target = match.group(1)
            target = self._plural.get(target, target)
            if target in self.parents:
                return ("category", target)
        return None

    def compute(self, question: Question) -> np.ndarray:
        """Booleans over the items."""
        kind, arg = question
        if kind == "attribute":
            return self.flags[arg]
        if kind == "category":
            return np.array([arg in self.ancestors(c) for c in self.category])
        if kind == "bigger":
            return self.size > REFERENCES[arg]
        if kind == "smaller":
            return self.size < REFERENCES[arg]
        return super().compute(question)

    def describe(self, question: Question) -> str:
        """The canonical text of a question."""
        kind, arg = question
        if kind == "attribute":
            phrase = ATTRIBUTE_PHRASES[arg][0]
            return phrase[0].upper() + phrase[1:].replace("man made", "man-made") + "?"
        if kind == "category":
            article = "an" if arg[0] in "aeiou" else "a"
            return f"Is it {article} {arg}?"
        if kind in ("bigger", "smaller"):
            article = "an" if arg[0] in "aeiou" else "a"
            return f"Is it {kind} than {article} {arg}?"
        return super().describe(question)

    def oracle_questions(self) -> list[Question]:
        """Categories, attributes, sizes, then the name questions."""
        sizes = ("coin", "apple", "bread box", "person", "car", "house")
        return (
            [("category", c) for c in self.categories]
            + [("attribute", a) for a in self.attributes]
            + [("bigger", r) for r in sizes]
            + super().oracle_questions()
        )

    def card(self, item: int) -> str:
        """The item's table row in words (what a free-form answerer is told)."""
        flags = [a for a in self.attributes if self.flags[a][item]]
        return (
            f"{self.names[item]}: a {' / '.join(self.ancestors(self.category[item]))}; "
            f"size class {self.size[item]:g} (1 smaller than a coin ... 7 bigger than a house); "
            f"attributes: {', '.join(flags) or 'none'}"
        )


@cache
def object_kb() -> ObjectKnowledgeBase:
    """The object knowledge base (read once per process)."""
    return ObjectKnowledgeBase()
