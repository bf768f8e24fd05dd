"""TwentyQuestions-v0: the object table, its grammar, the engine's rules and the oracle's bar."""

from __future__ import annotations

import collections

import pytest

import envsuite
from envsuite.families.text import kb_questions
from envsuite.families.text.kb_oracle import KnowledgeGameOracle, next_move
from envsuite.families.text.kb_questions import QuestionGame, fold
from envsuite.families.text.splits import split_counts
from envsuite.families.text.twenty_questions_kb import object_kb

ENV_ID = "envsuite/TwentyQuestions-v0"


@pytest.fixture(scope="module")
def kb():
    return object_kb()


def test_table_shape_and_splits(kb):
    assert len(kb.names) == 506 and len(kb.categories) == 33
    assert split_counts("twenty_questions", kb.names) == {"train": 411, "val": 53, "test": 42}
    train = envsuite.make(ENV_ID).unwrapped.items
    test = envsuite.make(ENV_ID, split="test").unwrapped.items
    assert len(train) == 411 and len(test) == 42 and not set(train) & set(test)


@pytest.mark.parametrize(
    ("text", "question"),
    [
        ("Is it an animal?", ("category", "animal")),
        ("is it a kind of FRUIT", ("category", "fruit")),
        ("Are they mammals?", None),
        ("Is it mammals?", ("category", "mammal")),
        ("Is it man-made?", ("attribute", "man_made")),
        ("Can you eat it?", ("attribute", "edible")),
        ("Is it a pet?", ("attribute", "pet")),
        ("Is it bigger than a breadbox?", ("bigger", "bread box")),
        ("Is it smaller than a human?", ("smaller", "person")),
        ("Does its name start with a?", ("starts", "a")),
        ("Does the name contain the letter Z?", ("contains", "z")),
        ("Does its name have more than 5 letters?", ("longer", "5")),
    ],
)
def test_grammar_reads_questions(kb, text, question):
    expected = ("unknown", None) if question is None else ("question", question)
    assert kb.parse(text) == expected


def test_guesses_and_unknowns(kb):
    dog = kb.index["dog"]
    for text in ("dog", "Dog", "Is it a dog?", "is it the dog", "It is a dog"):
        assert kb.parse(text) == ("guess", dog)
    assert kb.parse("Is it an apple tree?") == ("guess", kb.index["apple tree"])
    for text in ("Is it red?", "Is it bigger than a dog?", "What is it?"):
        assert kb.parse(text) == ("unknown", None)


def test_every_oracle_question_reads_back(kb):
    for question in kb.oracle_questions():
        assert kb.parse(kb.describe(question)) == ("question", question)


def test_answers_follow_the_table(kb):
    dog, car, apple, whale = (kb.index[n] for n in ("dog", "car", "apple", "whale"))
    assert kb.answer(("category", "mammal"), dog) and kb.answer(("category", "animal"), dog)
    assert not kb.answer(("category", "plant"), dog)
    assert kb.answer(("attribute", "wheels"), car) and not kb.answer(("attribute", "alive"), car)
    # A reference object is neither bigger nor smaller than itself.
    assert not kb.answer(("bigger", "car"), car) and not kb.answer(("smaller", "car"), car)
    assert not kb.answer(("bigger", "apple"), apple) and kb.answer(("bigger", "coin"), apple)
    assert kb.answer(("bigger", "house"), whale)
    assert kb.answer(("starts", "w"), whale) and kb.answer(("longer", "4"), whale)
    assert not kb.answer(("longer", "5"), whale)


def test_fold_drops_case_accents_and_punctuation():
    assert fold("  Is it São-Paulo?! ") == "is it sao paulo"
    assert fold("Xi'an") == fold("Xi\u2019an") == "xian"
    assert fold("more than 2,500,000 or 2.5 million.") == "more than 2500000 or 2.5 million"


def test_engine_refuses_repeats_and_tracks_candidates(kb):
    game = QuestionGame(kb, kb.index["cat"])
    assert game.ask(("category", "mammal")) is True
    assert "asked already" in game.refusal("question", ("category", "mammal"))
    assert game.guess(kb.index["dog"]) is False and not game.found
    assert "guessed already" in game.refusal("guess", kb.index["dog"])
    left = game.candidates()
    assert kb.index["cat"] in left and kb.index["dog"] not in left
    assert all(kb.answer(("category", "mammal"), int(i)) for i in left)
    assert game.guess(kb.index["cat"]) and game.found


def test_env_rules_in_play():
    env = envsuite.make(ENV_ID)
    env.reset(seed=0, options={"item": "cat"})
    _, reward, term, _, info = env.step("Is it a mammal?")
    assert (reward, term, info["parse_error"]) == (0.0, False, None)
    _, reward, _, _, info = env.step("is it a MAMMAL")
    assert reward == -0.1 and "asked already" in info["parse_error"]
    observation, reward, _, _, info = env.step("Is it purple?")
    assert observation == "I cannot answer that." and info["parse_error"] is None
    observation, reward, term, _, info = env.step("guess: cat")
    assert observation == "Yes! It is cat." and reward == 1.0 and term and info["success"]
    assert info["unanswerable_questions"] == 1 and info["turn"] == 4
    with pytest.raises(ValueError, match="options"):
        env.reset(seed=0, options={"item": "unicorn"})


def test_out_of_turns_reveals_the_object():
    env = envsuite.make(ENV_ID, max_turns=2, history="summary")
    env.reset(seed=0, options={"item": "cat"})
    env.step("Is it a fish?")
    observation, _, term, trunc, info = env.step("Is it a bird?")
    assert trunc and not term and not info["success"]
    assert observation.endswith("Out of turns: it was cat.")


def test_the_secret_is_never_in_info():
    env = envsuite.make(ENV_ID)
    _, info = env.reset(seed=3)
    name = env.unwrapped.instance_key()
    for action in ("Is it alive?", "Is it red?", "x"):
        _, _, _, _, info = env.step(action)
        assert name not in repr(info)


def test_same_seed_same_object_and_seeds_vary():
    keys = []
    for seed in range(12):
        env = envsuite.make(ENV_ID)
        env.reset(seed=seed)
        keys.append(env.unwrapped.instance_key())
    again = envsuite.make(ENV_ID)
    again.reset(seed=5)
    assert again.unwrapped.instance_key() == keys[5]
    assert len(set(keys)) > 6


def test_oracle_names_every_object_within_twenty_turns(kb):
    """The bar (>= 99%): the oracle finds all 506 objects; mean about 9.6 turns."""
    turns = collections.Counter()
    env = envsuite.make(ENV_ID)
    oracle = KnowledgeGameOracle(env)
    for name in kb.names:
        observation, info = env.reset(seed=0, options={"item": name})
        oracle.reset()
        terminated = truncated = False
        while not (terminated or truncated):
            observation, _, terminated, truncated, info = env.step(oracle.act(observation, info))
            assert info["parse_error"] is None
        assert info["success"], name
        turns[info["turn"]] += 1
    assert max(turns) <= 12
    mean = sum(t * n for t, n in turns.items()) / len(kb.names)
    assert 9.0 < mean < 10.5


def test_oracle_guesses_when_two_are_left(kb):
    game = QuestionGame(kb, kb.index["cat"])
    assert next_move(game)[0] == "question"
    others = [i for i in range(len(kb.names)) if kb.names[i] not in ("cat", "dog")]
    game.guesses.extend(others)
    assert sorted(game.candidates()) == sorted([kb.index["cat"], kb.index["dog"]])
    assert next_move(game) == ("guess", min(kb.index["cat"], kb.index["dog"]))


def test_a_damaged_table_is_refused(tmp_path, monkeypatch):
    folder = tmp_path / "text" / "objects" / "v1"
    folder.mkdir(parents=True)
    source = kb_questions.kb_folder("objects")
    for name in ("MANIFEST", "categories.tsv"):
        (folder / name).write_bytes((source / name).read_bytes())
    (folder / "objects.tsv").write_bytes((source / "objects.tsv").read_bytes() + b"x")
    monkeypatch.setenv("ENVSUITE_DATASETS", str(tmp_path))
    kb_questions.clear_cache()
    try:
        with pytest.raises(kb_questions.KnowledgeBaseError, match="sha256"):
            kb_questions.load_table("objects", "objects.tsv")
    finally:
        kb_questions.clear_cache()
