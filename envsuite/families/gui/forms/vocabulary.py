"""Word pools the form tasks draw from, each split into disjoint train and test parts.

Every pool is one tuple of distinct entries; :func:`pool` gives a split's part of it:
entries at positions ``3, 7, 11, ...`` (every fourth) belong to ``test``, the rest to
``train``, so the test split draws only words, names and places train never shows.
Dates split by year the same way (:func:`split_years`).
"""

from __future__ import annotations

import functools


def _words(text: str) -> tuple[str, ...]:
    """The whitespace-separated entries of ``text``."""
    return tuple(text.split())


#: Common short words (button labels, checkbox labels, links, tree entries).
WORDS = _words(
    """
    apple river stone cloud maple tiger orbit piano lemon canyon candle forest harbor
    island jacket kettle ladder marble nickel oyster pepper quartz rabbit saddle ticket
    velvet walnut yogurt zipper anchor bridge castle dragon engine falcon garden hammer
    igloo jungle koala lantern meadow needle orange pencil quiver rocket silver tunnel
    umbrella violet window yellow zebra almond basket cactus donkey eagle feather guitar
    helmet ivory jigsaw kitten lizard mirror nectar olive parrot quilt ribbon salmon
    tomato unicorn vessel wagon yacht acorn banner cherry desert ember fossil glacier
    honey indigo jasmine kayak lotus magnet noodle opal pebble rain sugar tulip valley
    willow amber bamboo cobalt daisy echo fig grape hazel iris jade kiwi lilac mango
    north ocean plum reef sage thunder vanilla wheat bison coral dune flint gecko heron
    lynx moth newt otter panda raven shark trout viper wolf badger camel dove ferret
    goose hippo jaguar llama mole owl puma quail robin swan toad walrus yak button
    circle square arrow planet comet meteor nebula galaxy crystal mineral copper bronze
    marsh prairie tundra lagoon summit boulder pillow blanket carpet curtain drawer
    shelf table chair sofa lamp clock spoon fork plate bowl bottle jar cup kite drum
    flute violin trumpet harp banjo cello oboe tuba bagel muffin cookie waffle pretzel
    pasta salad soup bread butter cheese cream toast rice beans
    """
)

#: First names (users, senders, contacts).
FIRST_NAMES = _words(
    """
    Alice Bruno Chloe Dmitri Elena Farah Gavin Hana Ivan Jonas Keiko Liam Mara Nadia
    Oscar Priya Quinn Rosa Sven Tara Umar Vera Wade Xenia Yusuf Zoe Aaron Bianca Carlos
    Daria Emil Fiona Gustav Helga Igor Julia Kofi Lena Milo Nina Omar Paula Rafael Sara
    Tomas Uma Victor Wanda Yara Zane Abel Beatriz Cyrus Delia Ezra Freya Gideon Hazel
    Ines Jorge Kira Luca Mei Nico Olga Pedro Rhea Silas Thea Ulla Vince Willa Ximena
    Yosef Zara Anya Boris Celia Dante Edith
    """
)

#: Last names.
LAST_NAMES = _words(
    """
    Abbott Baker Castro Dalton Ellis Fischer Garcia Hughes Ibarra Jensen Kowalski Larsen
    Moreno Nakamura Okafor Petrov Quinlan Reyes Schmidt Tanaka Ueda Vasquez Walsh Xu
    Young Zimmer Andersen Bishop Carver Duarte Engel Foster Gomez Holt Ito Jovanovic
    Keller Lopez Meyer Novak Olsen Park Rossi Silva Torres Usman Vogel Weber Yilmaz Zhou
    """
)

#: Cities with airports (flights).
CITIES = _words(
    """
    Austin Boston Chicago Denver Houston Miami Portland Seattle Atlanta Dallas Phoenix
    Detroit Memphis Omaha Tampa Tucson Berlin Madrid Paris Rome Vienna Prague Dublin
    Lisbon Oslo Athens Warsaw Zurich Geneva Munich Lyon Naples Tokyo Osaka Seoul Manila
    Jakarta Hanoi Delhi Mumbai Cairo Nairobi Lagos Accra Lima Bogota Quito Santiago
    """
)

#: Country names (autocomplete items).
COUNTRIES = _words(
    """
    Albania Argentina Australia Austria Belgium Bolivia Brazil Bulgaria Cambodia
    Cameroon Canada Chile Colombia Croatia Cyprus Denmark Ecuador Egypt Estonia Ethiopia
    Finland France Germany Ghana Greece Guatemala Honduras Hungary Iceland India
    Indonesia Ireland Israel Italy Jamaica Japan Jordan Kenya Latvia Lebanon Lithuania
    Malaysia Malta Mexico Mongolia Morocco Nepal Netherlands Nigeria Norway Pakistan
    Panama Paraguay Peru Poland Portugal Romania Rwanda Senegal Serbia Slovakia Slovenia
    Somalia Spain Sweden Tanzania Thailand Tunisia Turkey Uganda Ukraine Uruguay Vietnam
    Zambia
    """
)

#: Words that make up message texts (emails, posts); not split (the goal never names them).
FILLER = _words(
    """
    the a we you meeting today tomorrow please check report thanks great idea plan trip
    lunch call soon next week update project photos notes budget draft review team party
    weekend office train late early coffee dinner music movie book garden game news
    ready done maybe sure again later
    """
)


@functools.cache
def pool(entries: tuple[str, ...], split: str) -> tuple[str, ...]:
    """The part of ``entries`` a split draws from (see the module docstring).

    Raises:
        ValueError: an unknown split.
    """
    if split == "test":
        return entries[3::4]
    if split == "train":
        return tuple(entry for index, entry in enumerate(entries) if index % 4 != 3)
    raise ValueError(f"unknown split {split!r}")


@functools.cache
def split_years(split: str) -> tuple[int, ...]:
    """Years a split's dates fall in: ``year % 4 == 3`` for test, the others for train.

    Raises:
        ValueError: an unknown split.
    """
    if split not in ("train", "test"):
        raise ValueError(f"unknown split {split!r}")
    return tuple(y for y in range(1950, 2031) if (y % 4 == 3) == (split == "test"))
