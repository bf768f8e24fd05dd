"""Twenty questions over a shipped table of 506 objects, answered exactly by the table."""

from __future__ import annotations

from envsuite.families.text.kb_game import KnowledgeGameEnv
from envsuite.families.text.kb_questions import KnowledgeBase
from envsuite.families.text.twenty_questions_kb import (
    ATTRIBUTE_PHRASES,
    FILES,
    KB_NAME,
    REFERENCE_NAMES,
    object_kb,
)

_CATEGORIES = (
    "animal (mammal, bird, fish, reptile, amphibian, insect, invertebrate), plant (tree, "
    "flower), food (fruit, vegetable, dish, baked good, dairy product, drink, snack), "
    "vehicle, tool, furniture, clothing, musical instrument, appliance, electronic device, "
    "toy, kitchenware, sports equipment, building, container, stationery, jewellery"
)


def _grammar() -> str:
    phrases = "; ".join(
        phrases[0][0].upper() + phrases[0][1:].replace("man made", "man-made") + "?"
        for phrases in ATTRIBUTE_PHRASES.values()
    )
    return (
        f"Is it a/an <category>? (categories: {_CATEGORIES}); {phrases}; Is it bigger/"
        f"smaller than <reference>? (references: {', '.join(REFERENCE_NAMES)});"
    )


class TwentyQuestionsEnv(KnowledgeGameEnv):
    r"""Twenty questions about a secret object, with a deterministic answerer, for LLM agents.

    Description:
        The env picks a secret object from its split of the shipped knowledge base
        (``datasets/text/objects/v1``: 506 common animals, plants, foods and man-made
        things in 33 categories, each with a size class and 17 yes/no attributes, authored
        by envsuite; see its README). The player asks yes/no questions and names the object;
        the answerer reads the table, so the same question about the same object always
        gets the same answer (LMRL-Gym's twenty questions needs a T5 answerer checkpoint).

        Question grammar (the instructions show it; case, accents and punctuation are
        ignored): ``Is it a/an <category>?`` (true for the category and those above it: a
        dog is a mammal and an animal; plurals too), the attribute questions ``Is it
        alive? / man-made? / edible? / found indoors? / electric? / made of metal? / made
        of wood? / sweet? / sharp? / a pet? / a farm animal?``, ``Does it have wheels /
        legs / fur?``, ``Can it fly?``, ``Is it found in water?``, ``Does it eat meat?``
        (with a few other phrasings each, ``twenty_questions_kb.ATTRIBUTE_PHRASES``),
        ``Is it bigger/smaller than a coin / an apple / a bread box / a person / a car /
        a house?``, and ``Does its name start with the letter X? / contain the letter X? /
        have more than N letters?``. A guess is the object's name, alone or as ``Is it
        <name>?`` (``guess: <name>`` through the answer grammar). Any other question gets
        "I cannot answer that." and costs its turn (it is not an invalid action), unless
        ``answerer="openai:MODEL"`` (below).

        Splits hash the object's name (salt ``twenty_questions``): train / val / test hold
        411 / 53 / 42 objects; val and test objects are never drawn in training, though the
        player may name any of the 506. ``reset(options={"item": name})`` poses a given
        object (any split).

    Observation:
        Text: the family base's history modes. The state (``state_text``, the ``ansi``
        frame) is the turn count and every question so far with its answer; each step's
        feedback is ``Yes.``, ``No.``, ``I cannot answer that.``, ``No, it is not X.`` or
        ``Yes! It is X.`` (and, on the last turn, the answer).

        ``observation_mode="vector"``: ``Box(-1, 1, (629,), float32)``: one slot per
        question of the finite grammar set the oracle uses (``kb.question_list``, 122
        questions: 1 answered yes, -1 no, 0 not asked), one per object (506: -1
        guessed wrong, 1 found), then turns used / ``max_turns``.

    Action:
        Text: one question or guess, read through the family's answer grammar. Invalid
        (costs ``invalid_penalty`` and a turn; the reason is in ``info["parse_error"]``):
        a text over 200 characters, a text without letters, a single word that is not an
        object of the list (``zzqx9``; a question has several words), a question asked
        before (in any phrasing that reads as the same question), a name guessed before. No
        ``legal_actions`` (the set of questions is not small).
        Vector mode: ``Discrete(628)``: a question's position in ``kb.question_list``,
        or 122 + the object's position in the table (a guess); ``info["action_mask"]``
        marks the questions not asked and the names not guessed (a repeat is invalid).

    Reward:
        1 when the object is named, else 0; ``-invalid_penalty`` for an invalid action.

    Termination:
        Terminated when the object is named (``success``); truncated after ``max_turns``
        turns (default 20: questions and guesses count alike). ``optimal_steps`` is None
        (the oracle's question count is not certified minimal); the last info also has
        ``unanswerable_questions``.

    Arguments:
        answerer: ``"grammar"`` (default: the table answers grammar questions, nothing
            else) or ``"openai:MODEL"``: questions outside the grammar go to that chat
            model at ``answerer_base_url`` with the object's table row
            (``kb_answerer.py``; its replies are not deterministic unless the endpoint is).
        answerer_base_url: OpenAI-compatible API root (default ``http://localhost:8000/v1``).
        answerer_timeout: Seconds per model call.
        observation_mode: ``"text"`` or ``"vector"``.
        history: ``"last"``, ``"summary"`` or ``"full"`` (see the family base).
        max_turns: The question budget (default 20).
        split: ``"train"``, ``"val"`` or ``"test"``.
        invalid_penalty: Cost of an invalid action.
        render_mode: ``"ansi"``, ``"rgb_array"``, ``"human"`` or None.

    Version history:
        v0: Initial version (knowledge base ``datasets/text/objects/v1``).
    """

    game_name = "twenty_questions"
    kb_name = KB_NAME
    kb_files = FILES
    grammar_help = _grammar()

    def knowledge_base(self) -> KnowledgeBase:
        """The object table."""
        return object_kb()


__all__ = ["TwentyQuestionsEnv"]
